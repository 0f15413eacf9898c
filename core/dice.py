"""Dice: reading and writing faces, and the sources the engine is given.

Every roll reaches the engine as faces inside a ``RollDice`` command, whether the table
rolled them (typed by the GM) or Tussle did (a :class:`RandomDice`). The engine itself
never rolls.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from typing import ClassVar

import msgspec

from core.errors import BadDice
from core.limits import shortened


class DiceKind(msgspec.Struct, frozen=True):
    """The dice a system rolls for one contest roll: four Fate dice (``4dF``), or one die
    of ``high`` faces numbered from 1 (``d20``, ``d100``; a plug-in may roll a ``d2``)."""

    value: str  # what the GM reads: "4dF", "d20"
    high: int = 0  # the highest face of a single die (0: Fate dice)

    FATE: ClassVar[DiceKind]
    D20: ClassVar[DiceKind]
    D100: ClassVar[DiceKind]

    @classmethod
    def die(cls, high: int) -> DiceKind:
        """One die of faces 1 to ``high``."""
        if high < 2:
            raise ValueError("a die has at least two faces")
        return cls(f"d{high}", high)

    @property
    def fudge(self) -> bool:
        """Four Fudge dice (Fate's ``4dF``): faces -1, 0 and +1."""
        return self.high == 0


DiceKind.FATE = DiceKind("4dF")
DiceKind.D20 = DiceKind.die(20)
DiceKind.D100 = DiceKind.die(100)


FATE_GLYPHS = {"+": 1, "-": -1, "0": 0}
_GLYPH_OF = {1: "+", -1: "-", 0: "0"}


def parse_fate_dice(text: str) -> tuple[int, int, int, int]:
    """Four Fate dice written as ``+``, ``-`` and ``0`` (``"0+-0"``) as faces -1/0/+1."""
    if len(text) != 4 or any(ch not in FATE_GLYPHS for ch in text):
        raise BadDice(f'"{text}" is not four Fate dice (four of +, - and 0, like "0+-0")')
    a, b, c, d = (FATE_GLYPHS[ch] for ch in text)
    return (a, b, c, d)


def fate_glyphs(faces: Iterable[int]) -> str:
    """Faces -1/0/+1 as the glyphs people read: ``(-1, 0, 1, 1)`` -> ``"-0++"``."""
    return "".join(_GLYPH_OF[f] for f in faces)


def check_faces(kind: DiceKind, faces: tuple[int, ...]) -> None:
    """Raise :class:`BadDice` unless ``faces`` can be one roll of ``kind``."""
    if kind.fudge:
        if len(faces) != 4 or any(f not in (-1, 0, 1) for f in faces):
            raise BadDice("Fate dice are four faces of -1, 0 or +1")
        return
    if len(faces) != 1 or not 1 <= faces[0] <= kind.high:
        shown = faces[0] if len(faces) == 1 else ", ".join(map(str, faces)) or "nothing"
        raise BadDice(f"a {kind.value} shows 1 to {kind.high}, not {shown}")


def written_face(kind: DiceKind, text: str) -> int | None:
    """A face of ``kind`` written as ``text`` (a sign, digits), None when it is no whole
    number; :class:`BadDice` in the die's own words for a whole number no face shows,
    however long (``a d20 shows 1 to 20, not 99999999... (22 digits)``): the die's bound
    is tighter than the size every number keeps within (core.limits.SIZE), so it wins."""
    written = text.strip().replace("−", "-")
    if kind.fudge or not re.fullmatch(r"[+-]?\d+", written):
        return None
    value = int(written) if len(written) <= 20 else None
    if value is None or not 1 <= value <= kind.high:
        raise BadDice(f"a {kind.value} shows 1 to {kind.high}, not {shortened(written)}")
    return value


class RandomDice:
    """Tussle rolling: seedable for tests and benchmarks, system randomness by default."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed) if seed is not None else random.SystemRandom()

    def roll(self, kind: DiceKind) -> tuple[int, ...]:
        if kind.fudge:
            return tuple(self._random.choice((-1, 0, 1)) for _ in range(4))
        return (self._random.randint(1, kind.high),)


class TableDice:
    """Dice the table rolled, handed over in order (for tests and scripted play)."""

    def __init__(self, rolls: Iterable[tuple[int, ...]]) -> None:
        self._rolls: Iterator[tuple[int, ...]] = iter(rolls)

    def roll(self, kind: DiceKind) -> tuple[int, ...]:
        try:
            faces = next(self._rolls)
        except StopIteration:
            raise BadDice("no more dice were entered") from None
        check_faces(kind, faces)
        return faces
