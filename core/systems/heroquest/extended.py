"""Extended contests (rules §2.8): the resolution points an exchange lodges (with risky
gambits and defensive responses, §2.8.4-5), the goal that ends one, and its final
consequences by the rising-action (§2.8.6) or the climactic method (§2.8.7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.systems.heroquest.resolution import (
    COMPLETE,
    MAJOR,
    MARGINAL,
    MINOR,
    RESOLUTION_POINTS,
    TIE,
)

EXTENDED_GOAL = 5  # resolution points that end an extended contest


def lodged_points(
    victory: int,
    *,
    winner_gambled: bool = False,
    loser_gambled: bool = False,
    winner_defensive: bool = False,
    loser_defensive: bool = False,
) -> int:
    """The resolution points an extended contest's exchange lodges (rules §2.8.4-5, as
    scenario.md settles them): the table's points for ``victory``, +1 if the winner made
    a risky gambit, +2 if the loser did, +2 in all (not 3) if both did; -2 if the winner
    responded defensively, -1 if the loser did; never below 0. A tie lodges nothing."""
    if victory == TIE:
        return 0
    points = RESOLUTION_POINTS[victory]
    if winner_gambled and loser_gambled:
        points += 2
    else:
        points += (1 if winner_gambled else 0) + (2 if loser_gambled else 0)
    points -= (2 if winner_defensive else 0) + (1 if loser_defensive else 0)
    return max(0, points)


RISING_ACTION_STATES = ("hurt", "hurt", "impaired", "impaired", "injured", "injured", "dying")
RISING_ACTION_LEVELS = (MARGINAL, MARGINAL, MINOR, MINOR, MAJOR, MAJOR, COMPLETE)


def rising_action(difference: int) -> tuple[int, str]:
    """An extended contest's consequences by the rising-action method (rules §2.8.6):
    the victory level and the losers' state for a final difference of resolution points
    (below 1 counts as 1): 1-2 marginal, hurt; 3-4 minor, impaired; 5-6 major, injured;
    7 complete, dying; 8 or more complete, dead. At 1 the winners are hurt too."""
    d = max(difference, 1)
    if d >= 8:
        return COMPLETE, "dead"
    return RISING_ACTION_LEVELS[d - 1], RISING_ACTION_STATES[d - 1]


# The climactic method's states by points scored against a character: 0..8; 9+ is dead.
CLIMACTIC_STATES: tuple[str, ...] = ("unharmed", "dazed", *("hurt",) * 2, *("impaired",) * 2)
CLIMACTIC_STATES += ("injured", "injured", "dying")
CLIMACTIC_LEVELS = {"hurt": MARGINAL, "impaired": MINOR, "injured": MAJOR}


def climactic(against: Mapping[str, int], losers: Sequence[str]) -> tuple[int, dict[str, str]]:
    """An extended contest's consequences by the climactic method (rules §2.8.7): each
    character's state by the resolution points scored against them, 1 more for a loser
    (0 unharmed, 1 dazed, 2-3 hurt, 4-5 impaired, 6-7 injured, 8 dying, 9+ dead); the
    victory level from the second-worst state among the losers (the only one's when one
    lost): hurt marginal, impaired minor, injured major, dying or dead complete (dazed,
    which the table leaves out, marginal). Unharmed characters are left out."""
    totals = {name: points + (1 if name in losers else 0) for name, points in against.items()}
    states = {name: _climactic_state(t) for name, t in totals.items() if t > 0}
    worst_first = sorted((totals[name] for name in losers if name in totals), reverse=True)
    second = worst_first[min(1, len(worst_first) - 1)] if worst_first else 1
    state = _climactic_state(second)
    level = COMPLETE if state in ("dying", "dead") else CLIMACTIC_LEVELS.get(state, MARGINAL)
    return level, states


def _climactic_state(points: int) -> str:
    return "dead" if points >= len(CLIMACTIC_STATES) else CLIMACTIC_STATES[points]
