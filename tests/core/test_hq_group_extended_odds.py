"""Exact odds of a HeroQuest group extended contest's next round
(core.systems.heroquest.group_extended_odds): hand-counted values for one exchange, and
brute force over every d20 outcome of a round, exchange by exchange through the rules
(``resolve_exchange``), for two against one (issue 29, "What it must show" 1)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from msgspec.structs import replace

from core.systems.heroquest.group_extended import (
    GroupContest,
    GroupMember,
    Move,
    new_group_contest,
    pending,
    resolve_exchange,
)
from core.systems.heroquest.group_extended_odds import (
    elimination_odds,
    exchange_distribution,
    round_states,
    side_win_odds,
)
from core.systems.heroquest.resolution import COMPLETE


def two_against_one(a1: int = 0, b_by_a1: int = 0) -> GroupContest:
    """Ann (12) and Bea (14) against the Ogre (2M): Ann's engagement first, with ``a1``
    points against Ann and ``b_by_a1`` against the Ogre; Bea's fresh."""
    c = new_group_contest(
        [
            GroupMember(name="Ann", side="pcs", rating=12),
            GroupMember(name="Bea", side="pcs", rating=14),
            GroupMember(name="Ogre", side="ogre", rating=22),
        ],
        [("Ann", "Ogre"), ("Bea", "Ogre")],
    )
    return c.with_engagement(0, replace(c.engagements[0], against_a=a1, against_b=b_by_a1))


def test_one_exchange_counted_by_hand() -> None:
    """Ann (10) against Bea's twin (10), no masteries (rules §2.3): of the 400 roll pairs,
    the 20 equal rolls tie (equal rolls give equal levels); every other pair has a winner,
    and by symmetry half go each way: 190 each. A complete victory needs a critical (1)
    against a fumble (20): 1 pair each way, 5 points."""
    c = new_group_contest(
        [
            GroupMember(name="Ann", side="pcs", rating=10),
            GroupMember(name="Cal", side="npcs", rating=10),
        ],
        [("Ann", "Cal")],
    )
    dist = exchange_distribution(c, 0)
    assert sum(dist.values()) == 1
    assert dist[(None, 0, 0)] == Fraction(20, 400)
    assert sum(p for (w, _, _), p in dist.items() if w == "a") == Fraction(190, 400)
    assert dist[("a", COMPLETE, 5)] == Fraction(1, 400)
    # Ann at 4 against is out whenever Cal wins: 190/400; Cal likewise.
    c = c.with_engagement(0, replace(c.engagements[0], against_a=4, against_b=4))
    assert elimination_odds(c) == {"Ann": Fraction(19, 40), "Cal": Fraction(19, 40)}


def test_a_complete_victory_by_mastery_counted_by_hand() -> None:
    """Ann (15) against the Ogre (10M, one mastery: a bump): the Ogre wins completely
    when Ann fumbles (20) and the Ogre's roll is a success (1-10, bumped to a critical),
    10 pairs, or when Ann fails (16-19) and the Ogre rolls 1 (a critical, its bump
    lowering Ann to a fumble), 4 pairs: 14 of 400. From 0–0 only 5 points take her out in
    one exchange: 7/200."""
    c = new_group_contest(
        [
            GroupMember(name="Ann", side="pcs", rating=15),
            GroupMember(name="Ogre", side="ogre", rating=30),
        ],
        [("Ann", "Ogre")],
    )
    assert exchange_distribution(c, 0)[("b", COMPLETE, 5)] == Fraction(14, 400)
    assert elimination_odds(c)["Ann"] == Fraction(7, 200)


def test_a_roll_already_in_narrows_the_count() -> None:
    """With Ann's 20 in (a fumble), the Ogre at 10M wins completely on 1-10: 10 of 20."""
    c = new_group_contest(
        [
            GroupMember(name="Ann", side="pcs", rating=15),
            GroupMember(name="Ogre", side="ogre", rating=30),
        ],
        [("Ann", "Ogre")],
    )
    assert exchange_distribution(c, 0, Move(roll=20))[("b", COMPLETE, 5)] == Fraction(1, 2)


def brute_force(c: GroupContest) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """The round played for every d20 outcome of its two exchanges (20^4 of them), each
    through ``resolve_exchange``; the second exchange's result for a state and its rolls
    is remembered, not re-derived (the same inputs give the same result)."""

    @cache
    def second(state: GroupContest, r3: int, r4: int) -> GroupContest:
        return resolve_exchange(state, 1, Move(roll=r3), Move(roll=r4))[0]

    out_count = {m.name: 0 for m in c.members}
    win_count = {side: 0 for side in c.sides}
    for r1 in range(1, 21):
        for r2 in range(1, 21):
            first, _ = resolve_exchange(c, 0, Move(roll=r1), Move(roll=r2))
            for r3 in range(1, 21):
                for r4 in range(1, 21):
                    end = second(first, r3, r4) if 1 in pending(first) else first
                    for m in end.members:
                        out_count[m.name] += not m.active
                    if end.winner is not None:
                        win_count[end.winner] += 1
    total = 20**4
    return (
        {n: Fraction(k, total) for n, k in out_count.items()},
        {s: Fraction(k, total) for s, k in win_count.items()},
    )


def test_two_against_one_matches_brute_force() -> None:
    """Two against one on the brink: Ann and the Ogre 4–4, Bea fresh. The Ogre's
    exchange with Bea comes second, at -3 (2M to 19: his mastery gone) while Ann still
    engages him, at full 2M when he has just taken her out; when Ann takes him out, Bea's
    exchange is never played. The exact odds equal the count over all 160,000 outcomes."""
    c = two_against_one(4, 4)
    outs, wins = brute_force(c)
    assert elimination_odds(c) == outs
    assert side_win_odds(c) == wins
    assert sum(round_states(c).values()) == 1
    # By hand: Ann is out exactly when the Ogre wins their exchange. The Ogre (base 2, a
    # bump) reads 1 as a critical that also lowers Ann (wins all 20), 2 as a critical
    # (loses only to Ann's 1, the lower roll: 19), 3-19 as a success (beats Ann's 8
    # failures and fumbles, and her successes 2-12 rolled higher: 12 - r for r = 3..11,
    # 45 in all: 17 * 8 + 45 = 181), 20 as a failure (beats only her fumble: 1).
    assert outs["Ann"] == Fraction(20 + 19 + 181 + 1, 400)


def test_fresh_two_against_one_matches_brute_force() -> None:
    """The same from 0–0 everywhere: only complete victories take anyone out in a round."""
    c = two_against_one()
    outs, wins = brute_force(c)
    assert elimination_odds(c) == outs
    assert side_win_odds(c) == wins
