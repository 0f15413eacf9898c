"""Building a contest from the roster: who is on which side, rolling what.

The contest setup screen collects :class:`Pick` rows and options, and these functions turn
them into the system's starting contest (the same values a scenario file describes),
asking the system's sheet (``core/systems/<name>/sheet.py``) for what differs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.campaign.log import Character
from core.campaign.sheet import Pick, find_sheet
from core.errors import RuleError
from core.model import Contest

__all__ = [
    "build_contest",
    "conditions",
    "describe_options",
    "no_skill",
    "own_ratings",
    "rating_label",
    "typed_rating",
]


def no_skill(system: str) -> int:
    """What a character rolls with no relevant skill: Mediocre (+0) in Fate, 6 in
    HeroQuest (rules §2.2), a target of 0 in FORGE."""
    return find_sheet(system).NO_SKILL


def rating_label(system: str, value: int) -> str:
    """A rating as the system writes it: ``Great (+4)``, ``4M``, ``50``."""
    return find_sheet(system).rating_label(value)


def own_ratings(system: str, character: Character) -> list[tuple[str, str]]:
    """The character's own skills, abilities or targets as (``"Sword 4M"``, name) pairs,
    in the roster's order."""
    sheet = find_sheet(system)
    return [(f"{name} {sheet.rating_label(v)}", name) for name, v in character.ratings.items()]


def typed_rating(system: str, text: str) -> int:
    """A rating typed for one contest: a ladder name or number in Fate (``Great``,
    ``+4``), a HeroQuest rating (``17``, ``4M``), a FORGE target (``50``)."""
    return find_sheet(system).typed_rating(text)


def conditions(system: str, character: Character, rating: str | None) -> str:
    """What the roster's states and benefits do to ``rating`` when ``character`` rolls it
    (``hurt -3, Sword +3``), where the system keeps such things; ``""`` when none apply."""
    return find_sheet(system).conditions(character, rating)


def describe_options(system: str, options: Mapping[str, Any]) -> list[str]:
    """The rule options in force, in words a GM reads (``chained contest``, ``ties:
    lower roll wins``); ``RuleError`` for an option the system does not have."""
    return find_sheet(system).describe_options(options)


def build_contest(
    system: str,
    roster: Mapping[str, Character],
    picks: Sequence[Pick],
    options: Mapping[str, Any] | None = None,
    situation_aspects: Sequence[str] = (),
) -> Contest:
    """The starting contest for ``picks``; ``RuleError`` when it cannot be played."""
    if len({p.character for p in picks}) != len(picks):
        raise RuleError("a character can take part only once")
    if len({p.side for p in picks}) < 2:
        raise RuleError("a contest needs at least two sides")
    chosen = []
    for pick in picks:
        if pick.character in roster:
            chosen.append((pick, roster[pick.character]))
        elif pick.value is not None:  # an opposition that is only a number
            chosen.append((pick, Character(name=pick.character, kind="npc")))
        else:
            raise RuleError(f'no character "{pick.character}" on the roster')
    return find_sheet(system).build_contest(chosen, dict(options or {}), situation_aspects)
