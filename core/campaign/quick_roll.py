"""Quick rolls: a roll outside any contest (``tussle roll EXPR``, and a key on the
dashboard that logs it).

Each rule system reads its own notation (``4dF+3 vs 2``, ``4M vs 14``, ``d100 vs 45``) in
its own package, named by its sheet module's optional ``QUICK_ROLL``
(:class:`core.campaign.sheet.SystemSheet`). This module names no system: it asks each installed one
(or the one ``--system`` or the campaign names) whether an expression is theirs, reads the
dice the table typed in the keypad's notation (Fate dice as ``+``, ``-`` and ``0``; a d20
or d100 as its number) or rolls them, and gives back what the system made of them, with
the exact chance. A system without quick rolls says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from core.dice import FATE_GLYPHS, DiceKind, RandomDice, check_faces, fate_glyphs
from core.errors import BadDice, RuleError
from core.text import visible

Faces = tuple[tuple[int, ...], ...]  # each roll's faces, in the order --dice gives them


@dataclass(frozen=True, slots=True, kw_only=True)
class RollResult:
    """A quick roll as the GM reads it: ``outcome`` is the headline (``+4 Great: success,
    2 shifts``), ``details`` the steps that led there (levels, bumps), ``chance`` the
    exact chance beside it (``chance of success or better: 61.7%``)."""

    system: str
    expression: str
    faces: Faces
    outcome: str
    details: tuple[str, ...] = ()
    chance: str = ""

    @property
    def dice(self) -> str:
        """The dice as the table reads them: ``++0-``, ``7, 12``."""
        return dice_text(self.faces)

    def lines(self) -> list[str]:
        """What ``tussle roll`` prints: the roll and its outcome, the steps, the chance."""
        head = (
            f"{self.expression}: {self.dice} → {self.outcome}"
            if self.faces
            else (f"{self.expression}: {self.outcome}")
        )
        return [
            head,
            *(f"  {line}" for line in self.details),
            *([self.chance] if self.chance else []),
        ]


class Reading(Protocol):
    """An expression a system has read: the dice it rolls, and what given faces make."""

    dice: tuple[DiceKind, ...]  # one per roll, in the order --dice gives them
    roles: tuple[str, ...]  # who rolls each ("the ability", "the resistance"), for messages

    def resolve(self, faces: Faces) -> RollResult:
        """The outcome of these faces (checked against ``dice`` already)."""
        ...


class QuickRolls(Protocol):
    """One system's quick rolls (``QUICK_ROLLS`` in the module its sheet names as
    ``QUICK_ROLL``)."""

    examples: tuple[str, ...]  # what a GM writes: "4dF+3", "4dF+3 vs 2"

    def read(self, expression: str) -> Reading | None:
        """``expression`` read, or None when it is not written this system's way;
        ``RuleError`` (saying what to write) when it is, but cannot be rolled."""
        ...


def percent(value: Fraction) -> str:
    """A chance for people: ``61.7%`` (one decimal, rounded half up; 100% and 0% exact)."""
    tenths = (value * 1000 + Fraction(1, 2)) // 1
    return f"{tenths // 10}.{tenths % 10}%"


def dice_text(faces: Faces) -> str:
    """Faces as the keypad shows them: Fate dice as glyphs, other dice as numbers."""

    def one(roll: tuple[int, ...]) -> str:
        if len(roll) == 4 and all(f in (-1, 0, 1) for f in roll):
            return fate_glyphs(roll)
        return " ".join(str(f) for f in roll)

    return ", ".join(one(roll) for roll in faces)


_VS = re.compile(r"\s+vs\.?\s+", re.IGNORECASE)
_MODIFIERS = re.compile(r"(?:[+\-−][0-9]+)*")


def split_vs(text: str) -> list[str]:
    """``"4dF + 3 vs 2"`` -> ``["4dF+3", "2"]``: the sides of a roll, spaces taken out."""
    return ["".join(part.split()) for part in _VS.split(text)]


def modifiers(text: str) -> int | None:
    """``"+3-1"`` -> 2 (``""`` -> 0): signed whole numbers one after the other, or None."""
    if not _MODIFIERS.fullmatch(text):
        return None
    return sum(int(m.replace("−", "-")) for m in re.findall(r"[+\-−][0-9]+", text))


def quick_rolls_of(system: str) -> QuickRolls | None:
    """The quick rolls of the system called ``system``, None where it has none."""
    import importlib

    from core.rules import sheet_module

    module = getattr(sheet_module(system), "QUICK_ROLL", None)
    if module is None:
        return None
    found: QuickRolls = importlib.import_module(module).QUICK_ROLLS
    return found


def _systems(system: str | None) -> list[tuple[str, QuickRolls]]:
    from core.rules import SYSTEM_NAMES, find_plugin

    if system is not None:
        find_plugin(system)  # RuleError: no such system
        rolls = quick_rolls_of(system)
        if rolls is None:
            title = find_plugin(system).title
            raise RuleError(f"{title} has no quick rolls: roll in a contest")
        return [(system, rolls)]
    return [(name, rolls) for name in SYSTEM_NAMES if (rolls := quick_rolls_of(name)) is not None]


def examples(system: str | None = None) -> str:
    """What a GM can write, by system: ``Fate Core "4dF+3", "4dF+3 vs 2"; ...``."""
    from core.rules import system_title

    return "; ".join(
        f"{system_title(name)} " + ", ".join(f'"{x}"' for x in rolls.examples)
        for name, rolls in _systems(system)
    )


def read(expression: str, system: str | None = None) -> tuple[str, Reading]:
    """Which system reads ``expression`` (only ``system``, when given) and how;
    ``RuleError`` when none does, or more than one could."""
    text = " ".join(expression.split())
    if not text:
        raise RuleError(f"write a roll, like {examples(system)}")
    found: list[tuple[str, Reading]] = []
    for name, rolls in _systems(system):
        reading = rolls.read(text)
        if reading is not None:
            found.append((name, reading))
    if not found:
        raise RuleError(f'"{visible(text)}" is not a roll Tussle reads: write {examples(system)}')
    if len(found) > 1:
        names = ", ".join(name for name, _ in found)
        raise RuleError(f'"{visible(text)}" reads in {names}: say which with --system')
    return found[0]


def parse_dice(reading: Reading, text: str) -> Faces:
    """The dice the table typed for ``reading``, in the keypad's notation: Fate dice as
    four of ``+`` (or ``=``), ``-`` and ``0`` (``++0-``); a d20 or d100 as its number;
    several rolls apart by spaces or commas (``7 12``). ``BadDice`` says what is wrong."""
    kinds = reading.dice
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not kinds:
        raise BadDice("this roll needs no dice: leave the dice out")
    if all(k.fudge for k in kinds):  # glyphs may be spaced: "+ + 0 -"
        glyphs = "".join(tokens).replace("=", "+").replace("−", "-")
        if any(ch not in FATE_GLYPHS for ch in glyphs):
            raise BadDice(f'Fate dice are typed as +, - and 0 (like "++0-"), not "{visible(text)}"')
        tokens = [glyphs[i : i + 4] for i in range(0, len(glyphs), 4)]
    wanted = ", ".join(f"{k.value} ({who})" for k, who in zip(kinds, reading.roles, strict=True))
    if len(tokens) != len(kinds) or (kinds[-1].fudge and len(tokens[-1]) != 4):
        raise BadDice(f'this roll takes {wanted}, not "{visible(text)}"')
    faces: list[tuple[int, ...]] = []
    for kind, token in zip(kinds, tokens, strict=True):
        faces.append(_faces(kind, token))
    return tuple(faces)


def _faces(kind: DiceKind, token: str) -> tuple[int, ...]:
    if kind.fudge:
        glyphs = token.replace("=", "+")
        if len(glyphs) != 4 or any(ch not in FATE_GLYPHS for ch in glyphs):
            raise BadDice(f'"{visible(token)}" is not four Fate dice (four of +, - and 0)')
        return tuple(FATE_GLYPHS[ch] for ch in glyphs)
    if not token.isdigit() or not token.isascii():
        raise BadDice(
            f'a {kind.value} is typed as a number (1 to {kind.high}), not "{visible(token)}"'
        )
    if token.startswith("0"):
        tens = " (05 is 5, 00 is 100)" if kind.high == 100 else ""
        raise BadDice(f"a {kind.value} has no face {token}: its faces are 1 to {kind.high}{tens}")
    value = int(token)
    if value > kind.high:
        raise BadDice(f"a {kind.value} has no face {token}: its faces are 1 to {kind.high}")
    return (value,)


def roll_dice(reading: Reading, source: RandomDice) -> Faces:
    """Tussle rolls the dice ``reading`` needs."""
    return tuple(source.roll(kind) for kind in reading.dice)


def quick_roll(
    expression: str,
    dice: str | None = None,
    system: str | None = None,
    source: RandomDice | None = None,
) -> RollResult:
    """Read ``expression``, take the table's ``dice`` (or roll them) and resolve it.
    ``RuleError`` for an expression no system reads; ``BadDice`` for dice it cannot take."""
    _, reading = read(expression, system)
    faces = (
        parse_dice(reading, dice)
        if dice is not None
        else roll_dice(reading, source or RandomDice())
    )
    return reading.resolve(faces)


def resolve(expression: str, faces: Faces, system: str) -> RollResult:
    """``expression`` in ``system`` with ``faces`` (dice already rolled or typed: a
    logged roll decided again, never rolled again). ``RuleError`` as for ``quick_roll``."""
    _, reading = read(expression, system)
    if len(faces) != len(reading.dice):
        raise BadDice(f"this roll takes {len(reading.dice)} dice, not {len(faces)}")
    for kind, roll in zip(reading.dice, faces, strict=True):
        check_faces(kind, roll)
    return reading.resolve(faces)
