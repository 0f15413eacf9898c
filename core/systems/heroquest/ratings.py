"""HeroQuest ratings (rules §2.2): kept as *linear* values (``4M`` = 24, ``10M2`` = 50),
so every modifier adds to the linear value and the result is normalised again (bonuses
make masteries, penalties take them away); ``parse_rating`` and ``format_rating`` go
between the written form and the linear one."""

from __future__ import annotations

import re

from core.errors import RuleError
from core.limits import SIZE
from core.text import clipped

MASTERY = 20  # one mastery is worth 20 on the linear scale


_RATING = re.compile(r"(?P<base>[1-9][0-9]?)(?:(?P<mark>[MW])(?P<count>[1-9][0-9]*)?)?")


class BadRating(RuleError):
    """A rating written in a way HeroQuest does not write ratings."""

    title = "Bad rating"


def parse_rating(text: str) -> int:
    """A written rating as its linear value: ``"17"`` -> 17, ``"4M"`` -> 24, ``"10W2"`` -> 50.

    A base 1-20, then optionally ``M`` (or ``W``) and a mastery count of 2 or more.
    """
    match = _RATING.fullmatch(text)
    base = int(match["base"]) if match else 0
    count = match["count"] if match else None
    if count is not None and len(count) > len(str(SIZE)):  # more digits than Python reads
        raise BadRating(f'"{clipped(text)}" is too large: must be at most {SIZE} in size')
    if match is None or base > MASTERY or (count is not None and int(count) < 2):
        raise BadRating(
            f'"{clipped(text)}" is not a rating: write 1 to 20, then optionally M and a '
            'mastery count of 2 or more ("17", "4M", "10M2")'
        )
    masteries = 0 if match["mark"] is None else int(count) if count else 1
    return base + MASTERY * masteries


def normalise(value: int) -> tuple[int, int]:
    """``(base, masteries)`` of a linear value of 1 or more: 53 -> (13, 2), 40 -> (20, 1)."""
    masteries = (value - 1) // MASTERY
    return value - MASTERY * masteries, masteries


def format_rating(value: int) -> str:
    """A linear value as people write it: 24 -> "4M", 41 -> "1M2", 17 -> "17", -2 -> "-2"."""
    if value <= MASTERY:
        return str(value)
    base, masteries = normalise(value)
    return f"{base}M" if masteries == 1 else f"{base}M{masteries}"
