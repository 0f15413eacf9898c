"""What changes a party's chances in an exchange besides its rating: an augment's bonus
(rules §2.5), a stretch's and an extra opponent's penalty (§2.4, §2.7) and a group boost
bought with hero points (§2.7.4)."""

from __future__ import annotations

from core.systems.heroquest.ratings import MASTERY
from core.systems.heroquest.resolution import COMPLETE, Party, TieBreak, simple_contest

STRETCH_PENALTY = 6
EXTRA_OPPONENT_PENALTY = 3  # per pair after the first, for a group contest's "a"
DEFAULT_AUGMENT_BASE = 14
AUGMENT_BONUSES = (0, 3, 6, 9, MASTERY)  # §2.5, by the augmenter's victory level
AUGMENT_COMPLETE_DEFEAT = -3


def augment_bonus(
    rating: int,
    roll: int | None,
    resistance_roll: int | None,
    augment_base: int = DEFAULT_AUGMENT_BASE,
    tie_break: TieBreak = "low",
) -> int:
    """The bonus an augment gives (rules §2.5): ``rating`` (linear, no vitality) rolls
    ``roll`` against ``augment_base`` rolling ``resistance_roll``. Complete victory +20,
    major +9, minor +6, marginal +3; a tie or a defeat 0, a complete defeat -3."""
    out = simple_contest(
        Party(target=rating, roll=roll), Party(target=augment_base, roll=resistance_roll), tie_break
    )
    if out.winner == "a":
        return AUGMENT_BONUSES[out.victory]
    if out.winner == "b" and out.victory == COMPLETE:
        return AUGMENT_COMPLETE_DEFEAT
    return 0


def boost_cost(members: int, double: bool = False) -> int:
    """A group boost's price in hero points (rules §2.7.4): 1 for a side of 1-3, 2 for
    4-6, 3 for 7-9 and so on (one per started three), twice that for a double boost."""
    return -(-members // 3) * (2 if double else 1)


def boosted(victory: int, steps: int) -> int:
    """A group result raised ``steps`` levels for the boosting side (rules §2.7.4): a tie
    becomes its marginal victory, and so on, never past complete."""
    return min(COMPLETE, victory + steps)
