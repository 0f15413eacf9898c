"""Exact odds of a HeroQuest group extended contest's next round.

A pairing's coming exchange: every d20 pair still to roll (20x20, or 20 when one roll is
in) scored by ``rules.simple_contest`` through the contest's own targets, boost and
lodging (``group_extended.exchange_parties``, ``boosted_outcome``, ``exchange_points``),
grouped by who wins and how many points they lodge. The round: the engagements still to
have their exchange, played in their order through ``group_extended.apply_exchange``, so
a character taken out early ends its other engagements and lifts the multiple-opponent
penalty it put on later ones, exactly as the rules do; states that are equal are merged.
Moves not given are plain (the rating, no hero point, trying to win).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from msgspec.structs import replace

from core.systems.heroquest.group_extended import (
    PLAIN,
    GroupContest,
    Move,
    apply_exchange,
    boosted_outcome,
    exchange_parties,
    exchange_points,
    pending,
)
from core.systems.heroquest.resolution import Outcome, Party, TieBreak, simple_contest

Side = Literal["a", "b"]
Result = tuple[Side | None, int, int]  # who wins ("a", "b", None), victory, points lodged


@lru_cache(maxsize=4096)
def outcome_counts(a: Party, b: Party, tie_break: TieBreak) -> tuple[tuple[Outcome, int], ...]:
    """Each outcome of a simple contest over the d20 pairs still to roll (a party whose
    roll is set keeps it), with how many pairs give it (levels dropped: only the winner
    and the victory level count)."""
    counts: dict[Outcome, int] = {}
    rolls_a = range(1, 21) if a.roll is None else (a.roll,)
    rolls_b = range(1, 21) if b.roll is None else (b.roll,)
    for ra in rolls_a:
        party_a = replace(a, roll=ra)
        for rb in rolls_b:
            out = simple_contest(party_a, replace(b, roll=rb), tie_break)
            key = replace(out, levels=(0, 0))
            counts[key] = counts.get(key, 0) + 1
    return tuple(counts.items())


def exchange_distribution(
    contest: GroupContest, index: int, a: Move = PLAIN, b: Move = PLAIN
) -> dict[Result, Fraction]:
    """Engagement ``index``'s coming exchange: the chance of each result (winner "a",
    "b" or None for a tie, victory level, points lodged against the loser)."""
    pa, pb = exchange_parties(contest, index, a, b)
    den = (1 if pa.roll is not None else 20) * (1 if pb.roll is not None else 20)
    out: dict[Result, Fraction] = {}
    for outcome, n in outcome_counts(pa, pb, contest.rules.tie_break):
        raised = boosted_outcome(contest, index, outcome)
        key: Result = (raised.winner, raised.victory, exchange_points(raised, a, b))
        out[key] = out.get(key, Fraction(0)) + Fraction(n, den)
    return out


def round_states(
    contest: GroupContest, moves: Mapping[int, tuple[Move, Move]] | None = None
) -> dict[GroupContest, Fraction]:
    """Every way the rest of this round can end, with its chance: each engagement still
    pending plays its exchange in order (``moves`` gives an engagement's two moves; the
    others are plain); an engagement ended by an earlier exchange is skipped."""
    given = moves or {}
    states: dict[GroupContest, Fraction] = {contest: Fraction(1)}
    final: dict[GroupContest, Fraction] = {}
    while states:
        following: dict[GroupContest, Fraction] = {}
        for state, p in states.items():
            todo = () if state.finished else pending(state)
            if not todo:
                final[state] = final.get(state, Fraction(0)) + p
                continue
            index = todo[0]
            a, b = given.get(index, (PLAIN, PLAIN))
            a, b = replace(a, shift=0), replace(b, shift=0)  # shifting is the player's choice
            for (winner, _, points), q in exchange_distribution(state, index, a, b).items():
                after, _, _ = apply_exchange(state, index, a, b, winner, points)
                following[after] = following.get(after, Fraction(0)) + p * q
        states = following
    return final


def elimination_odds(
    contest: GroupContest, moves: Mapping[int, tuple[Move, Move]] | None = None
) -> dict[str, Fraction]:
    """Each active participant's chance of being out of the contest by the end of this
    round (eliminated, or gone by a disengagement a move declares)."""
    ends = round_states(contest, moves)
    active = [m.name for m in contest.members if m.active]
    return {
        name: sum((p for s, p in ends.items() if not s.member(name).active), Fraction(0))
        for name in active
    }


def side_win_odds(
    contest: GroupContest, moves: Mapping[int, tuple[Move, Move]] | None = None
) -> dict[str, Fraction]:
    """Each side's chance that the contest ends this round with it the winner."""
    ends = round_states(contest, moves)
    return {
        side: sum((p for s, p in ends.items() if s.winner == side), Fraction(0))
        for side in contest.sides
    }
