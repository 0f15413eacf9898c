"""What a Fate character carries from conflict to conflict: stress tracks and consequence
slots, as saved values (``fate.Box``, ``fate.Track``, ``fate.Slot``).

The character's sheet (``FateCharacter`` in ``rules``) holds them and the conflict's rules
(``conflict``) play with them, so they live here, below both (the conflict's rules import
the contest's, and the contest's sheet cannot import the conflict's back). Pure values:
nothing here knows the saves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

from msgspec.structs import replace

from core.errors import RuleError
from core.limits import Count, Positive
from core.model import Saved

CODEC_TAG = "fate"  # saved as "fate.Box", "fate.Track", "fate.Slot" (as in ``conflict``)

Kind = Literal["physical", "mental"]
Severity = Literal["mild", "moderate", "severe", "extreme"]

PHYSICAL: Kind = "physical"
MENTAL: Kind = "mental"
KINDS: tuple[Kind, ...] = (PHYSICAL, MENTAL)

# SRD, Consequences: "mild, moderate, and severe ... two, four, and six"; Extreme
# Consequences: "will absorb up to 8-shifts".
SEVERITY_SHIFTS: Mapping[Severity, int] = {"mild": 2, "moderate": 4, "severe": 6, "extreme": 8}
SEVERITIES: tuple[Severity, ...] = ("mild", "moderate", "severe", "extreme")

Period = Literal["scene", "session", "scenario"]
# SRD, Recovering from a Consequence: "mild ... one whole scene ..., moderate ... one whole
# session ..., severe ... one whole scenario after the recovery action."
RECOVERY_WAIT: Mapping[Severity, Period] = {
    "mild": "scene",
    "moderate": "session",
    "severe": "scenario",
}


class Box(Saved):
    """A stress box: the shifts it absorbs, and whether it is checked."""

    value: Positive
    checked: bool = False


class Track(Saved):
    """A stress track ("physical", "mental", or one a sheet names: "Corruption")."""

    name: str
    boxes: tuple[Box, ...] = ()

    def __str__(self) -> str:
        """``Physical [x1][2][3]`` (the summary's words)."""
        return f"{track_label(self.name)} {boxes_text(self)}"


class Slot(Saved):
    """A consequence slot: its severity, the track it is reserved for (Superb Physique's
    extra mild is for physical harm only; None: any harm), and the consequence written in
    it (``aspect``; None: free), with the free invokes the side that inflicted it holds.
    ``recovery``: "none", "treated" (a recovery action succeeded, the wait not begun),
    "healing" (the whole period it waits for has begun)."""

    severity: Severity
    only: str | None = None
    aspect: str | None = None
    holder: str | None = None
    free_invokes: Count = 0
    recovery: Literal["none", "treated", "healing"] = "none"

    @property
    def shifts(self) -> int:
        return SEVERITY_SHIFTS[self.severity]

    def __str__(self) -> str:
        """``mild (physical): Sprained Ankle``, ``moderate: free`` (the summary's words);
        a star after one recovering (SRD: "mark it with a star"), and when it clears
        once its wait has begun (``moderate: Broken Leg* (clears at the next session's
        end)``)."""
        if self.recovery != "healing" or self.severity not in RECOVERY_WAIT:
            return _written(self)
        return f"{_written(self)} (clears at the next {RECOVERY_WAIT[self.severity]}'s end)"

    @property
    def free(self) -> bool:
        return self.aspect is None


def track_label(name: str) -> str:
    """A track's name as a sheet shows it: "Physical", "Mental", "Corruption"."""
    return name.capitalize() if name in KINDS else name


def boxes_text(track: Track) -> str:
    """``[x1][2][3]``: each box's value, with an ``x`` in a checked one."""
    return "".join(f"[{'x' if b.checked else ''}{b.value}]" for b in track.boxes)


# -- consequences as the GM writes them ----------------------------------------------------

_WRITTEN = re.compile(
    r"(?P<severity>[a-z]+)(?: \((?P<only>[^)]*)\))?\s*:\s*(?P<name>.*?)(?P<star>\*?)",
    re.IGNORECASE,
)


def _written(slot: Slot) -> str:
    only = f" ({slot.only})" if slot.only else ""
    star = "*" if slot.recovery != "none" else ""
    return f"{slot.severity}{only}: {slot.aspect if slot.aspect is not None else 'free'}{star}"


def consequences_text(slots: Sequence[Slot]) -> str:
    """The consequences written in ``slots`` as the roster's form shows them and
    :func:`written` reads them: ``mild: Black Eye*; moderate: Broken Leg`` (free slots
    left out)."""
    return "; ".join(_written(s) for s in slots if not s.free)


def written(text: str, slots: Sequence[Slot]) -> tuple[Slot, ...]:
    """``slots`` (a character's, as they stand) holding the consequences ``text`` writes
    as :func:`consequences_text` does: each "severity: name", a star after one
    recovering, separated by ``;``; a consequence not written is erased (its slot free).

    Each goes in a free slot of its severity (:data:`SEVERITIES`), one for any harm
    first, one reserved for a track (``mild (physical): ...``, a Superb Physique's) when
    named or when no other is left; more than the character has is refused. One kept by
    name keeps who holds its free invoke and how far its recovery went; a star on one
    that was not recovering starts it (as a recovery action that succeeded), no star
    stops it."""
    before = {s.aspect: s for s in slots if s.aspect is not None}
    out = [Slot(severity=s.severity, only=s.only) for s in slots]
    seen: set[str] = set()
    for chunk in (c.strip() for c in text.split(";")):
        if not chunk:
            continue
        match = _WRITTEN.fullmatch(chunk)
        severity = match["severity"].lower() if match else ""
        if match is None or severity not in SEVERITIES:
            raise RuleError(
                f'"{chunk}": write a consequence as its severity ('
                + ", ".join(SEVERITIES)
                + "), a colon and its name: moderate: Broken Leg"
            )
        name = match["name"].strip()
        if not name or name.lower() == "free":
            continue
        if name in seen:
            raise RuleError(f'"{name}" is written twice')
        seen.add(name)
        only = match["only"]
        free = [
            i
            for i, s in enumerate(out)
            if s.free and s.severity == severity and (only is None or s.only == only)
        ]
        free.sort(key=lambda i: out[i].only is not None)  # a slot for any harm first
        if not free:
            have = sum(
                1 for s in slots if s.severity == severity and (only is None or s.only == only)
            )
            where = f" ({only})" if only else ""
            raise RuleError(
                f'no {severity}{where} slot left for "{name}": the character has {have}'
            )
        was = before.get(name)
        recovery: Literal["none", "treated", "healing"] = "none"
        if match["star"]:
            recovery = was.recovery if was is not None and was.recovery != "none" else "treated"
        slot = out[free[0]]
        out[free[0]] = replace(
            slot,
            aspect=name,
            holder=was.holder if was is not None else None,
            free_invokes=was.free_invokes if was is not None else 0,
            recovery=recovery,
        )
    return tuple(out)
