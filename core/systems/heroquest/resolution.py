"""One simple contest scored (rules §2.3): the level of each roll, masteries' bumps, hero
points' bumps, the victory level and its resolution points; an exchange the GM ruled
automatic (no dice); a group's level from its pairs' points (§2.7). ``decide``, the
keypad's preview, the odds and the quick roll all score through ``simple_contest``: one
source of truth for the rules."""

from __future__ import annotations

from typing import Literal

from core.limits import Count, Int
from core.model import Saved
from core.systems.heroquest.automatic import AutomaticResult
from core.systems.heroquest.ratings import normalise

CODEC_TAG = "heroquest"  # the saved tags ("heroquest.ExchangeResolved"), as before the split

TieBreak = Literal["low", "high"]
Winner = Literal["a", "b"]

# Result levels of one roll (rules §2.3 step 3), as ints so bumps are additions.
FUMBLE, FAILURE, SUCCESS, CRITICAL = 0, 1, 2, 3
LEVELS = ("fumble", "failure", "success", "critical")

# Victory levels (rules §2.3 step 7); TIE is no victory at all.
TIE, MARGINAL, MINOR, MAJOR, COMPLETE = 0, 1, 2, 3, 4
VICTORIES = ("tie", "marginal", "minor", "major", "complete")
RESOLUTION_POINTS = (0, 1, 2, 3, 5)  # §2.7's table


def classify(roll: int, base: int) -> int:
    """The level of a d20 ``roll`` against a mastery-stripped ``base`` (rules §2.3 step 3).

    1 is a critical even when the base is 1; 20 a fumble even when the base is 20.
    """
    if roll == 1:
        return CRITICAL
    if roll == 20:
        return FUMBLE
    return SUCCESS if roll <= base else FAILURE


def bump(own: int, other: int, bumps: int) -> tuple[int, int]:
    """Mastery bumps (rules §2.3 step 4): each raises ``own`` one level; once it is
    critical, each remaining bump lowers ``other`` one level, never below fumble."""
    raised = min(CRITICAL, own + bumps)
    left = bumps - (raised - own)
    return raised, max(FUMBLE, other - left)


class Party(Saved):
    """One party of a simple contest, as the scoring sees it.

    ``target`` is the linear target value after every modifier (augments, stretch and
    extra-opponent penalties included); ``roll`` may be None only when ``target`` <= 0.
    """

    target: Int
    roll: Int | None = None
    hero_points: Count = 0
    stretched: bool = False
    bumps_down: Int = 0  # an injured party's automatic bumps down (rules §2.6)


class Outcome(Saved):
    """A simple contest's result: both levels after all bumps, the winner and how much."""

    levels: tuple[Int, Int]
    winner: Winner | None
    victory: Int  # TIE .. COMPLETE

    @property
    def resolution_points(self) -> int:
        return RESOLUTION_POINTS[self.victory]


def _unopposed_level(party: Party) -> int:
    """The displayed level of a party whose opponent's target is 0 or less: its roll,
    its own masteries (against none), an injury's bumps down, then its hero points (the
    bump order of A-H2, as in a contest between two rolls)."""
    if party.roll is None:
        raise ValueError(f"a party with target {party.target} needs a roll")
    base, masteries = normalise(party.target)
    level = min(CRITICAL, classify(party.roll, base) + masteries)
    return min(CRITICAL, max(FUMBLE, level - party.bumps_down) + party.hero_points)


def simple_contest(a: Party, b: Party, tie_break: TieBreak = "low") -> Outcome:
    """Score one simple contest (rules §2.3) from both parties' final targets and rolls.

    A target of 0 or less loses with a complete defeat without rolling (its level shows
    as fumble); the other party's roll then only gives its displayed level. Both at 0 or
    less tie. Otherwise masteries cancel, the rest bump, hero points bump the spender, the
    levels compare, and equal levels go to the low roll (``tie_break="high"``: the high
    one) as a marginal victory. A stretched party's own victory is at most minor.
    """
    winner: Winner | None
    if a.target <= 0 and b.target <= 0:
        return Outcome(levels=(FUMBLE, FUMBLE), winner=None, victory=TIE)
    if a.target <= 0:
        levels, winner, victory = (FUMBLE, _unopposed_level(b)), "b", COMPLETE
    elif b.target <= 0:
        levels, winner, victory = (_unopposed_level(a), FUMBLE), "a", COMPLETE
    else:
        if a.roll is None or b.roll is None:
            raise ValueError("both parties need a roll")
        base_a, mastery_a = normalise(a.target)
        base_b, mastery_b = normalise(b.target)
        level_a, level_b = classify(a.roll, base_a), classify(b.roll, base_b)
        if mastery_a > mastery_b:
            level_a, level_b = bump(level_a, level_b, mastery_a - mastery_b)
        elif mastery_b > mastery_a:
            level_b, level_a = bump(level_b, level_a, mastery_b - mastery_a)
        # Bump order (A-H2): masteries, then adversity, then hero points.
        level_a = min(CRITICAL, max(FUMBLE, level_a - a.bumps_down) + a.hero_points)
        level_b = min(CRITICAL, max(FUMBLE, level_b - b.bumps_down) + b.hero_points)
        levels = (level_a, level_b)
        difference = level_a - level_b
        if difference:
            winner = "a" if difference > 0 else "b"
            victory = abs(difference) + 1  # one level better: minor, two major, ...
        elif level_a == FUMBLE or a.roll == b.roll:
            winner, victory = None, TIE
        else:
            a_lower = a.roll < b.roll
            winner = "a" if a_lower == (tie_break == "low") else "b"
            victory = MARGINAL
    if (winner == "a" and a.stretched) or (winner == "b" and b.stretched):
        victory = min(victory, MINOR)
    return Outcome(levels=levels, winner=winner, victory=victory)


def group_level(difference: int) -> int:
    """The group victory level for a difference of side points (rules §2.7): 0 tie,
    1 marginal, 2 minor, 3-4 major, 5 or more complete."""
    d = abs(difference)
    if d >= 5:
        return COMPLETE
    return (TIE, MARGINAL, MINOR, MAJOR, MAJOR)[d]


def ruled_outcome(ruling: AutomaticResult, a: str) -> Outcome:
    """The outcome of an automatic exchange whose first party is ``a``: its victory
    level for the winner (the ruled party on a success, the other on a failure)."""
    wins_a = (ruling.who == a) == (ruling.result == "success")
    return Outcome(levels=(FUMBLE, FUMBLE), winner="a" if wins_a else "b", victory=ruling.level)
