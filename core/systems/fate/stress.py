"""What a Fate character carries from conflict to conflict: stress tracks and consequence
slots, as saved values (``fate.Box``, ``fate.Track``, ``fate.Slot``).

The character's sheet (``FateCharacter`` in ``rules``) holds them and the conflict's rules
(``conflict``) play with them, so they live here, below both (the conflict's rules import
the contest's, and the contest's sheet cannot import the conflict's back). Pure values:
nothing here knows the saves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

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
        a star after one recovering (SRD: "mark it with a star")."""
        only = f" ({self.only})" if self.only else ""
        star = "*" if self.recovery != "none" else ""
        return f"{self.severity}{only}: {self.aspect if self.aspect is not None else 'free'}{star}"

    @property
    def free(self) -> bool:
        return self.aspect is None


def track_label(name: str) -> str:
    """A track's name as a sheet shows it: "Physical", "Mental", "Corruption"."""
    return name.capitalize() if name in KINDS else name


def boxes_text(track: Track) -> str:
    """``[x1][2][3]``: each box's value, with an ``x`` in a checked one."""
    return "".join(f"[{'x' if b.checked else ''}{b.value}]" for b in track.boxes)
