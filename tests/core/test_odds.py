"""Exact odds (core/odds.py) against brute force, figures worked by hand, and Monte Carlo.

Where the expected values come from:

* brute force: every throw of the dice played through the engine (``decide``/``evolve``)
  or through the system's scoring function, counted here, independently of the module;
* by hand: the 4dF counts 1, 4, 10, 16, 19, 16, 10, 4, 1 out of 81, and the difference
  of two 4dF throws, which is 8dF: the coefficients of (1 + x + x²)^8, 1, 8, 36, 112,
  266, 504, 784, 1016, 1107, 1016, ... out of 6561; d20 and d100 counts in the comments;
* symmetry: equal sides have equal chances;
* a plain recursion over the scores (:func:`race`), written here, for the contests;
* Monte Carlo: seeded simulated contests, within four standard errors.
"""

from __future__ import annotations

import itertools
import math
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

from core.model import Command, Contest, Event, ResolveExchange, RollDice, SetModifier
from core.odds.report import clear_caches, odds_for
from core.systems.fate.events import CreateAdvantage
from core.systems.fate.odds import (
    FateExchangeOdds,
    FateSideOdds,
    fate_contest_odds,
    fate_exchange_counts,
    fate_exchange_odds,
)
from core.systems.fate.scoring import FateOptions, score_exchange
from core.systems.fate.state import FateContest, FateParticipant, new_contest
from core.systems.fate.throws import FOUR_DF as FATE_FOUR_DF
from core.systems.forge.events import ChooseReaction, SetStage
from core.systems.forge.odds import forge_stage_odds
from core.systems.forge.state import ForgeContest, ForgeOptions, ForgeParticipant
from core.systems.forge.state import new_contest as new_forge_contest
from core.systems.heroquest.events import Augment, SetParties, SpendHeroPoints, Stretch
from core.systems.heroquest.odds import heroquest_contest_odds, heroquest_exchange_odds
from core.systems.heroquest.resolution import RESOLUTION_POINTS, Party, simple_contest
from core.systems.heroquest.state import HQContest, HQOptions, HQParticipant
from core.systems.heroquest.state import new_contest as new_hq_contest

ROOT = Path(__file__).resolve().parents[2]

# Hand figures: the ways four Fate dice make each sum, -4..+4 (81 in all).
FOUR_DF = {-4: 1, -3: 4, -2: 10, -1: 16, 0: 19, 1: 16, 2: 10, 3: 4, 4: 1}
# 8dF, the difference of two 4dF throws: (1 + x + x^2)^8 from 0 to the middle (+-8..0).
EIGHT_DF_LOW_HALF = (1, 8, 36, 112, 266, 504, 784, 1016, 1107)
ALL_THROWS = list(itertools.product((-1, 0, 1), repeat=4))


# -- helpers --------------------------------------------------------------------------------


def play(contest: Contest, *commands: Command) -> Contest:
    """``contest`` after ``commands``, each through decide and evolve."""
    from core.rules import find_system

    rules = find_system(contest.system)
    for command in commands:
        for event in rules.decide(contest, command):
            contest = rules.evolve(contest, event)
    return contest


def resolved(contest: Contest, *commands: Command) -> Any:
    """The ExchangeResolved event ``commands`` (ending in ResolveExchange) produce."""
    from core.rules import find_system

    rules = find_system(contest.system)
    events: list[Event] = []
    for command in commands:
        events = list(rules.decide(contest, command))
        for event in events:
            contest = rules.evolve(contest, event)
    return events[0]


def fate_contest(sides: Mapping[str, Sequence[int]], **options: Any) -> FateContest:
    """Sides of members with these skills ("Cynere": [4] is a lone Cynere)."""
    people = [
        FateParticipant(name=f"{side}{i}" if len(skills) > 1 else side, side=side, skill=s)
        for side, skills in sides.items()
        for i, s in enumerate(skills)
    ]
    return new_contest(people, options=FateOptions(**options))


def at_score(contest: FateContest, *score: int) -> FateContest:
    return replace(contest, victories=dict(zip(contest.sides, score, strict=True)))


def race(
    outcomes: Mapping[tuple[int, int], Fraction], k: int, goal: int, score: Sequence[int]
) -> tuple[Fraction, ...]:
    """Each side's chance to reach ``goal`` first from ``score`` when every exchange has
    ``outcomes`` {(side, points): chance} and otherwise repeats: a plain recursion."""
    scoring = sum(outcomes.values(), Fraction(0))

    @cache
    def value(score: tuple[int, ...]) -> tuple[Fraction, ...]:
        for i, s in enumerate(score):
            if s >= goal:
                return tuple(Fraction(int(j == i)) for j in range(k))
        out = [Fraction(0)] * k
        for (i, v), p in outcomes.items():
            after = list(score)
            after[i] += v
            for j, q in enumerate(value(tuple(after))):
                out[j] += p / scoring * q
        return tuple(out)

    return value(tuple(score))


def fate_brute_force(contest: FateContest) -> dict[str, Any]:
    """Every throw of the dice still to roll, through the engine: counts of each side's
    one- and two-victory wins, ties and exchanges where nobody scores."""
    rolling = [s for s in contest.rolling_sides if s not in contest.open.dice]
    counts: dict[Any, int] = {}
    for throws in itertools.product(ALL_THROWS, repeat=len(rolling)):
        rolls = [RollDice(who=s, faces=t) for s, t in zip(rolling, throws, strict=True)]
        e = resolved(contest, *rolls, ResolveExchange())
        key = (e.winner, e.victories) if e.winner else ("tie" if e.twist else "none")
        counts[key] = counts.get(key, 0) + 1
    return {"total": 81 ** len(rolling), **{str(k): v for k, v in counts.items()}}


def fate_totals_brute_force(
    options: FateOptions, specs: Sequence[tuple[int, bool]]
) -> dict[Any, Fraction]:
    """Every combination of the sides' dice sums (weighted by the ways four dice make
    them, counted from the 81 throws here) scored by ``score_exchange`` on all sides."""
    ways: dict[int, int] = {}
    for t in ALL_THROWS:
        ways[sum(t)] = ways.get(sum(t), 0) + 1
    choices = [
        [(base + d, n) for d, n in ways.items()] if rolls else [(base, 1)] for base, rolls in specs
    ]
    den = math.prod(81 if rolls else 1 for _, rolls in specs)
    out: dict[Any, Fraction] = {}
    for combo in itertools.product(*choices):
        totals = {str(i): t for i, (t, _) in enumerate(combo)}
        weight = math.prod(n for _, n in combo)
        s = score_exchange(options, totals)
        key = (int(s.winner), s.victories) if s.winner else ("tie" if s.twist else "none")
        out[key] = out.get(key, Fraction(0)) + Fraction(weight, den)
    return out


def exchange_as_outcomes(ex: FateExchangeOdds, sides: Sequence[str]) -> dict[Any, Fraction]:
    out: dict[Any, Fraction] = {}
    for i, side in enumerate(sides):
        o = ex.sides[side]
        out[(i, 1)] = o.win - o.style
        out[(i, 2)] = o.style
    out["tie"], out["none"] = ex.tie, ex.none
    return {k: v for k, v in out.items() if v}


# -- Fate: the dice -------------------------------------------------------------------------


def test_four_fate_dice_make_the_known_distribution() -> None:
    assert FATE_FOUR_DF == FOUR_DF
    assert sum(FOUR_DF.values()) == 81
    counted: dict[int, int] = {}
    for t in ALL_THROWS:
        counted[sum(t)] = counted.get(sum(t), 0) + 1
    assert counted == FOUR_DF


# -- Fate: one exchange ---------------------------------------------------------------------


def test_two_equal_sides_win_tie_and_style_as_8df_says() -> None:
    ex = fate_exchange_odds(fate_contest({"Cynere": [3], "Teran": [3]}))
    tie = Fraction(EIGHT_DF_LOW_HALF[8], 6561)  # the middle of 8dF: 1107
    style = Fraction(sum(EIGHT_DF_LOW_HALF[:6]), 6561)  # a margin of 3 or more: 927
    for side in ("Cynere", "Teran"):
        assert ex.sides[side].win == (1 - tie) / 2  # 2727/6561 each, by symmetry
        assert ex.sides[side].style == style
    assert (ex.tie, ex.none) == (tie, 0)


def test_cynere_plus_four_against_teran_plus_three() -> None:
    # Cynere wins when the dice difference D (8dF) is >= 0: (6561 + 1107) / 2 = 3834;
    # a tie at D = -1: 1016; Teran the rest: 1711. One more +2 for Teran makes him the
    # one a point ahead: 3834 for him.
    ex = fate_exchange_odds(fate_contest({"Cynere": [4], "Teran": [3]}))
    assert ex.sides["Cynere"].win == Fraction(3834, 6561) == Fraction(142, 243)
    assert ex.sides["Teran"].win == Fraction(1711, 6561)
    assert ex.tie == Fraction(1016, 6561)
    # With style: Cynere by D >= 2 (1 + 8 + 36 + 112 + 266 + 504 + 784 = 1711); Teran by
    # D <= -4 (1 + 8 + 36 + 112 + 266 = 423).
    assert ex.sides["Cynere"].style == Fraction(1711, 6561)
    assert ex.sides["Teran"].style == Fraction(423, 6561)
    assert ex.plus_two["Teran"] == Fraction(3834, 6561)


DIRECT_AND_ENVIRONMENT = [
    pytest.param({"Cynere": [4], "Teran": [3]}, {}, id="direct"),
    pytest.param({"Cynere": [2], "Teran": [2]}, {"style_threshold": 2}, id="style-2"),
    pytest.param({"A": [3, 2, 1], "B": [4]}, {"teamwork_cap": "lead_skill"}, id="teams"),
    pytest.param({"A": [0, 2], "B": [1]}, {"mode": "environment", "difficulty": 2}, id="env"),
    pytest.param(
        {"A": [3], "B": [4]},
        {"mode": "environment", "difficulty": 2, "style_clause": "fae"},
        id="env-fae",
    ),
    pytest.param(
        {"A": [0], "B": [-1]},
        {"mode": "environment", "difficulty": 1, "environment_requires_success": True},
        id="env-success",
    ),
]


@pytest.mark.parametrize(("sides", "options"), DIRECT_AND_ENVIRONMENT)
def test_every_throw_of_two_sides_through_the_engine(
    sides: Mapping[str, Sequence[int]], options: Mapping[str, Any]
) -> None:
    contest = fate_contest(sides, **options)
    counts = fate_brute_force(contest)
    ex = fate_exchange_odds(contest)
    total = counts["total"]
    for side in contest.sides:
        one = counts.get(str((side, 1)), 0)
        two = counts.get(str((side, 2)), 0)
        assert ex.sides[side].win == Fraction(one + two, total), side
        assert ex.sides[side].style == Fraction(two, total), side
    assert ex.tie == Fraction(counts.get("tie", 0), total)
    assert ex.none == Fraction(counts.get("none", 0), total)
    if options.get("environment_requires_success"):
        assert ex.none > 0  # both below the difficulty is possible


def test_what_is_entered_counts_modifiers_dice_and_a_forfeit() -> None:
    contest = fate_contest({"Cynere": [4], "Teran": [3], "Zird": [2]})
    # Zird forfeits (a failed advantage), Teran has +1 from the GM, Cynere has rolled.
    contest = play(
        contest,
        CreateAdvantage(by="Zird", aspect="Dust", result=0, opposition=3),
        SetModifier(who="Teran", value=1),
        RollDice(who="Cynere", faces=(1, 0, 0, -1)),  # +4 for Cynere
    )
    counts = fate_brute_force(contest)  # Teran's 81 throws; Cynere's dice are in
    assert counts["total"] == 81
    ex = fate_exchange_odds(contest)
    # Teran +4 + 4dF against Cynere's 4: he wins on +1 or better (16+10+4+1 = 31), ties
    # on 0 (19), loses below (31); a margin of 3 needs +3 or +4 (5), Cynere's -3/-4 (5).
    assert ex.sides["Teran"].win == Fraction(31, 81)
    assert counts["('Teran', 1)"] + counts["('Teran', 2)"] == 31
    assert ex.sides["Teran"].style == Fraction(5, 81)
    assert ex.sides["Cynere"].win == Fraction(31, 81)
    assert ex.tie == Fraction(19, 81)
    assert ex.sides["Zird"] == FateSideOdds(win=Fraction(0), style=Fraction(0), rolls=False)
    assert "Zird" not in ex.plus_two


def test_a_lone_roller_wins_one_victory_whatever_the_dice() -> None:
    contest = fate_contest({"Cynere": [4], "Teran": [3]})
    contest = play(contest, CreateAdvantage(by="Teran", aspect="Dust", result=0, opposition=3))
    ex = fate_exchange_odds(contest)
    assert (ex.sides["Cynere"].win, ex.sides["Cynere"].style) == (1, 0)
    assert ex.sides["Teran"].win == 0


@pytest.mark.parametrize(
    ("options", "specs"),
    [
        (FateOptions(), [(4, True), (3, True), (3, True)]),
        (FateOptions(style_threshold=2), [(1, True), (2, True), (0, True), (2, True)]),
        (FateOptions(mode="environment", difficulty=3), [(3, True), (2, True), (4, True)]),
        (
            FateOptions(mode="environment", difficulty=2, style_clause="fae"),
            [(3, True), (4, True), (1, True), (5, False)],
        ),
        (
            FateOptions(mode="environment", difficulty=3, environment_requires_success=True),
            [(1, True), (2, True), (0, True), (2, True)],
        ),
        (FateOptions(), [(2, True), (6, False), (3, True), (1, True), (4, True)]),
    ],
)
def test_three_to_five_sides_against_score_exchange_on_every_combination(
    options: FateOptions, specs: list[tuple[int, bool]]
) -> None:
    """The module pairs each total with the best of the others; here every combination
    of all the sides' totals goes to score_exchange as a whole."""
    expected = fate_totals_brute_force(options, specs)
    counts = fate_exchange_counts(options, tuple(specs))
    got: dict[Any, Fraction] = {}
    for i in range(len(specs)):
        got[(i, 1)] = Fraction(counts.one[i], counts.denominator)
        got[(i, 2)] = Fraction(counts.two[i], counts.denominator)
    got["tie"] = Fraction(counts.tie, counts.denominator)
    got["none"] = Fraction(counts.none, counts.denominator)
    assert {k: v for k, v in got.items() if v} == expected


def test_nobody_rolling_scores_nothing() -> None:
    counts = fate_exchange_counts(FateOptions(), ())
    assert (counts.none, counts.denominator) == (1, 1)


# -- Fate: the contest ----------------------------------------------------------------------


def test_two_equal_sides_each_win_a_first_to_three_contest_half_the_time() -> None:
    result = fate_contest_odds(fate_contest({"Cynere": [3], "Teran": [3]}))
    assert result is not None
    assert result.sides == {"Cynere": Fraction(1, 2), "Teran": Fraction(1, 2)}


def test_three_equal_sides_a_third_each_and_six_sum_to_one() -> None:
    three = fate_contest_odds(fate_contest({"A": [2], "B": [2], "C": [2]}))
    assert three is not None and set(three.sides.values()) == {Fraction(1, 3)}
    six = fate_contest_odds(
        fate_contest({s: [r] for s, r in zip("ABCDEF", (5, 4, 4, 3, 2, 1), strict=True)})
    )
    assert six is not None
    assert sum(six.sides.values()) == 1
    assert six.sides["B"] == six.sides["C"]  # equal ratings
    assert six.sides["A"] > six.sides["B"] > six.sides["D"] > six.sides["E"] > six.sides["F"]


def test_first_to_one_is_the_next_scoring_exchange() -> None:
    # 4 against 3: Cynere 3834, Teran 1711 of the 6561 throws (the rest tie and repeat).
    result = fate_contest_odds(fate_contest({"Cynere": [4], "Teran": [3]}, victories_needed=1))
    assert result is not None
    assert result.sides["Cynere"] == Fraction(3834, 3834 + 1711)


@pytest.mark.parametrize(
    ("sides", "options", "score"),
    [
        ({"Cynere": [4], "Teran": [3]}, {}, (0, 0)),
        ({"Cynere": [4], "Teran": [3]}, {"victories_needed": 4}, (2, 3)),
        ({"A": [1], "B": [2], "C": [3]}, {"mode": "environment", "difficulty": 2}, (1, 0, 2)),
        (
            {"A": [3], "B": [2], "C": [2], "D": [1]},
            {"mode": "environment", "difficulty": 3, "environment_requires_success": True},
            (0, 1, 0, 0),
        ),
    ],
)
def test_contest_odds_agree_with_a_plain_recursion(
    sides: Mapping[str, Sequence[int]], options: Mapping[str, Any], score: tuple[int, ...]
) -> None:
    contest = at_score(fate_contest(sides, **options), *score)
    specs = [(contest.rating(s), True) for s in contest.sides]
    outcomes = fate_totals_brute_force(contest.options, specs)
    scoring = {k: v for k, v in outcomes.items() if k not in ("tie", "none")}
    expected = race(scoring, len(specs), contest.options.victories_needed, score)
    result = fate_contest_odds(contest)
    assert result is not None
    assert tuple(result.sides.values()) == expected


def test_a_bonus_on_the_coming_exchange_counts_once() -> None:
    # 3 against 3 at 2-2, first to 3: the next scoring exchange decides. With +2 for
    # Teran on the coming exchange only: he wins it (P), or it ties (T) and then it is
    # even, 1/2: P + T/2.
    contest = at_score(fate_contest({"Cynere": [3], "Teran": [3]}), 2, 2)
    boosted = fate_exchange_odds(contest, {"Teran": 2})
    win, tie = boosted.sides["Teran"].win, boosted.tie
    # Teran +5 against Cynere +3: D >= -1 of 8dF (3834 + 1016 = 4850); tie at D = -2: 784.
    assert (win, tie) == (Fraction(4850, 6561), Fraction(784, 6561))
    result = fate_contest_odds(contest, {"Teran": 2})
    assert result is not None
    assert result.sides["Teran"] == win + tie / 2


def test_an_attack_ends_it_as_a_conflict() -> None:
    from core.systems.fate.events import DeclareAttack

    contest = play(fate_contest({"Cynere": [4], "Teran": [3]}), DeclareAttack(by="Teran"))
    ex = fate_exchange_odds(contest)
    assert ex.attack and ex.none == 1 and ex.sides["Cynere"].win == 0
    assert fate_contest_odds(contest) is None
    out = odds_for(contest)
    assert out["contest"] is None and "attack" in out["note"]


def test_nobody_ever_scoring_gives_no_winner() -> None:
    contest = fate_contest(
        {"A": [0], "B": [0]},
        mode="environment",
        difficulty=9,
        environment_requires_success=True,
    )
    assert fate_exchange_odds(contest).none == 1
    result = fate_contest_odds(contest)
    assert result is not None and set(result.sides.values()) == {0}
    assert "never end" in (odds_for(contest)["note"] or "")


def test_a_contest_with_too_many_scores_has_exchange_odds_only() -> None:
    # 3 sides first to 28: 28^3 = 21,952 possible scores, over the 20,000 solved.
    big = fate_contest({"A": [2], "B": [1], "C": [0]}, victories_needed=28)
    assert fate_contest_odds(big) is None
    out = odds_for(big)
    assert out["contest"] is None and "too many" in out["note"]
    assert out["exchange"]["sides"]["A"]["win_exact"] is not None
    assert out["exchange"]["plus_two"]["A"]["contest"] is None
    # 27^3 = 19,683 is solved, exactly.
    solved = fate_contest_odds(replace(big, options=replace(big.options, victories_needed=27)))
    assert solved is not None and sum(solved.sides.values()) == 1


def fate_simulation(
    contest: FateContest, bonus: Mapping[str, int], n: int, seed: int
) -> dict[str, float]:
    """``n`` contests played out with random dice and score_exchange: each side's share
    of the wins. The coming exchange has ``bonus``; later ones are plain."""
    rng = random.Random(seed)
    sums = [sum((i // 3**d) % 3 - 1 for d in range(4)) for i in range(81)]  # base-3 digits
    sides = contest.sides
    ratings = [contest.rating(s) for s in sides]
    goal = contest.options.victories_needed

    @cache
    def score(totals: tuple[int, ...]) -> tuple[int, int]:
        s = score_exchange(contest.options, dict(zip(sides, totals, strict=True)))
        return (-1 if s.winner is None else sides.index(s.winner)), s.victories

    wins = [0] * len(sides)
    for _ in range(n):
        points = [contest.victories.get(s, 0) for s in sides]
        first = True
        while max(points) < goal:
            extra = [bonus.get(s, 0) if first else 0 for s in sides]
            first = False
            totals = tuple(
                r + x + sums[rng.randrange(81)] for r, x in zip(ratings, extra, strict=True)
            )
            winner, victories = score(totals)
            if winner >= 0:
                points[winner] += victories
        wins[max(range(len(sides)), key=lambda i: points[i])] += 1
    return {s: w / n for s, w in zip(sides, wins, strict=True)}


@pytest.mark.parametrize(
    ("sides", "options", "score", "bonus"),
    [
        ({"Cynere": [4], "Teran": [3]}, {}, (0, 0), {}),
        ({"Cynere": [4], "Teran": [2, 2]}, {"victories_needed": 4}, (1, 2), {"Cynere": 2}),
        (
            {"A": [3], "B": [2], "C": [2], "D": [1]},
            {"mode": "environment", "difficulty": 2},
            (0, 0, 0, 0),
            {},
        ),
        (
            {"A": [2], "B": [1], "C": [3], "D": [0]},
            {
                "mode": "environment",
                "difficulty": 3,
                "environment_requires_success": True,
                "style_clause": "fae",
                "victories_needed": 2,
            },
            (1, 0, 0, 1),
            {"D": 2},
        ),
    ],
)
def test_monte_carlo_agrees_with_the_exact_contest_odds(
    sides: Mapping[str, Sequence[int]],
    options: Mapping[str, Any],
    score: tuple[int, ...],
    bonus: Mapping[str, int],
) -> None:
    contest = at_score(fate_contest(sides, **options), *score)
    exact = fate_contest_odds(contest, bonus)
    assert exact is not None
    n = 20_000
    simulated = fate_simulation(contest, bonus, n, seed=7)
    for side, p in exact.sides.items():
        error = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(simulated[side] - float(p)) <= 4 * error + 1e-9, (side, simulated, p)


def test_one_more_plus_two_on_the_contest() -> None:
    contest = fate_contest({"Cynere": [3], "Teran": [3]})
    out = odds_for(contest)
    plus = out["exchange"]["plus_two"]["Cynere"]
    # +5 against +3 wins the exchange on D >= -1 (4850 of 6561, as above).
    assert plus["win_exact"] == "4850/6561"
    assert plus["contest"] > out["contest"]["sides"]["Cynere"]["win"] == 0.5


# -- HeroQuest ------------------------------------------------------------------------------


def hq_contest(
    people: Sequence[tuple[str, int]], options: HQOptions | None = None, **kw: Any
) -> HQContest:
    return new_hq_contest(
        [HQParticipant(name=n, side=n, rating=r, **kw) for n, r in people], options
    )


def hq_brute_force(contest: HQContest, before: Sequence[Command]) -> dict[Any, int]:
    """Every pair of d20s through the engine after the ``before`` commands."""
    start = play(contest, *before) if before else contest
    a, b = start.parties
    counts: dict[Any, int] = {}
    for ra, rb in itertools.product(range(1, 21), repeat=2):
        e = resolved(
            start, RollDice(who=a, faces=(ra,)), RollDice(who=b, faces=(rb,)), ResolveExchange()
        )
        key = "tie" if e.winner is None else (e.winner, e.victory)
        counts[key] = counts.get(key, 0) + 1
    return counts


def test_ten_against_ten_by_hand() -> None:
    # Equal targets, no masteries, low roll breaks ties. Tie: the same roll (20 of 400).
    # a complete: 1 vs 20 (1). Major: 1 vs 11-19 (9) and 2-10 vs 20 (9) = 18. Minor:
    # 1 vs 2-10 (9), 2-10 vs 11-19 (81), 11-19 vs 20 (9) = 99. Marginal: equal levels,
    # a lower: 36 among 2-10 and 36 among 11-19 = 72.
    ex = heroquest_exchange_odds(hq_contest([("Hero", 10), ("Foe", 10)]))
    assert ex is not None
    expected = tuple(Fraction(n, 400) for n in (72, 99, 18, 1))
    assert ex.levels["Hero"] == ex.levels["Foe"] == expected
    assert ex.tie == Fraction(1, 20)


HQ_SETUPS = [
    pytest.param([("Hero", 24), ("Foe", 17)], None, [], id="4M-vs-17"),
    pytest.param([("Hero", 12), ("Foe", 15)], HQOptions(tie_break="high"), [], id="high-ties"),
    pytest.param(
        [("Hero", 22), ("Foe", 53)],
        None,
        [SetModifier(who="Hero", value=-5), Stretch(who="Foe")],
        id="modifier-stretch",
    ),
    pytest.param(
        [("Hero", 8), ("Foe", 14)],
        HQOptions(extended=True),
        [
            Augment(recipient="Hero", rating=17, roll=3, resistance_roll=9),
            SpendHeroPoints(who="Foe", count=1),
        ],
        id="augment-hero-point",
    ),
    pytest.param([("Hero", 3), ("Foe", 4)], None, [SetModifier(who="Hero", value=-3)], id="zero"),
]


@pytest.mark.parametrize(("people", "options", "before"), HQ_SETUPS)
def test_every_pair_of_d20s_through_the_engine(
    people: Sequence[tuple[str, int]], options: HQOptions | None, before: Sequence[Command]
) -> None:
    contest = hq_contest(people, options, hero_points=1)
    counts = hq_brute_force(contest, before)
    ex = heroquest_exchange_odds(play(contest, *before) if before else contest)
    assert ex is not None
    for party in ("Hero", "Foe"):
        assert ex.levels[party] == tuple(
            Fraction(counts.get((party, lv), 0), 400) for lv in range(1, 5)
        ), party
    assert ex.tie == Fraction(counts.get("tie", 0), 400)


def test_a_roll_already_in_is_kept() -> None:
    # Hero 10 has rolled 1 (a critical): against Foe 10 she wins complete on a 20, major
    # on 11-19, minor on 2-10, and ties on the 1.
    contest = play(hq_contest([("Hero", 10), ("Foe", 10)]), RollDice(who="Hero", faces=(1,)))
    ex = heroquest_exchange_odds(contest)
    assert ex is not None
    assert ex.levels["Hero"] == (0, Fraction(9, 20), Fraction(9, 20), Fraction(1, 20))
    assert ex.tie == Fraction(1, 20)


def extended(points: tuple[int, int], a: int = 10, b: int = 10) -> HQContest:
    contest = hq_contest([("Hero", a), ("Foe", b)], HQOptions(extended=True))
    return replace(contest, resolution_points={"Hero": points[0], "Foe": points[1]})


def test_an_extended_contest_between_equals_is_even() -> None:
    for points in ((0, 0), (4, 4), (2, 2)):
        result = heroquest_contest_odds(extended(points))
        assert result is not None
        assert result.sides == {"Hero": Fraction(1, 2), "Foe": Fraction(1, 2)}


def test_from_four_all_the_next_winner_takes_it() -> None:
    # From 4-4 any victory lodges at least 1 point: the first exchange that is not a tie
    # decides. 4M (24) against 17.
    contest = extended((4, 4), 24, 17)
    ex = heroquest_exchange_odds(contest)
    result = heroquest_contest_odds(contest)
    assert ex is not None and result is not None
    assert result.sides["Hero"] == ex.win("Hero") / (ex.win("Hero") + ex.win("Foe"))


@pytest.mark.parametrize("points", [(0, 0), (3, 1), (0, 4), (2, 3)])
def test_extended_odds_agree_with_a_plain_recursion(points: tuple[int, int]) -> None:
    contest = extended(points, 24, 17)
    counts = hq_brute_force(contest, [])
    outcomes: dict[tuple[int, int], Fraction] = {}
    for i, party in enumerate(("Hero", "Foe")):
        for lv in range(1, 5):
            key = (i, RESOLUTION_POINTS[lv])
            outcomes[key] = outcomes.get(key, Fraction(0)) + Fraction(
                counts.get((party, lv), 0), 400
            )
    expected = race(outcomes, 2, 5, points)
    result = heroquest_contest_odds(contest)
    assert result is not None
    assert (result.sides["Hero"], result.sides["Foe"]) == expected


def test_extended_monte_carlo() -> None:
    contest = extended((1, 0), 13, 33)
    exact = heroquest_contest_odds(contest)
    assert exact is not None
    rng = random.Random(11)
    hero, foe = Party(target=13), Party(target=33)
    n, hero_wins = 20_000, 0
    for _ in range(n):
        points = [1, 0]
        while max(points) < 5:
            out = simple_contest(
                replace(hero, roll=rng.randint(1, 20)), replace(foe, roll=rng.randint(1, 20))
            )
            if out.winner is not None:
                points[0 if out.winner == "a" else 1] += out.resolution_points
        hero_wins += points[0] >= 5
    p = float(exact.sides["Hero"])
    assert abs(hero_wins / n - p) <= 4 * math.sqrt(p * (1 - p) / n)


def test_a_chained_contest_has_no_contest_odds_and_a_simple_one_is_its_exchange() -> None:
    chained = hq_contest([("Hero", 10), ("Foe", 12)], HQOptions(chained=True))
    out = odds_for(chained)
    assert out["contest"] is None and "leaves" in out["note"]
    simple = hq_contest([("Hero", 10), ("Foe", 12)])
    result = heroquest_contest_odds(simple)
    ex = heroquest_exchange_odds(simple)
    assert result is not None and ex is not None
    assert result.sides == {"Hero": ex.win("Hero"), "Foe": ex.win("Foe")}


def test_three_participants_need_their_parties() -> None:
    contest = hq_contest([("Hero", 10), ("Foe", 12), ("Ally", 8)])
    assert heroquest_exchange_odds(contest) is None
    assert odds_for(contest)["note"] == "name the coming exchange's two parties"
    named = play(contest, SetParties(a="Ally", b="Foe"))
    ex = heroquest_exchange_odds(named)
    assert ex is not None and ex.parties == ("Ally", "Foe")


# -- FORGE ----------------------------------------------------------------------------------


def forge_contest(actor: int, reactor: int, **options: Any) -> ForgeContest:
    return new_forge_contest(
        [
            ForgeParticipant(name="Josef", side="Josef", target=actor, multiplier=4),
            ForgeParticipant(name="Bobby", side="Bobby", target=reactor, max_damage=30),
        ],
        ForgeOptions(**options),
    )


def forge_brute_force(contest: ForgeContest, before: Sequence[Command]) -> Fraction:
    """The actor's share of the 100 x 100 d100 pairs, each stage through the engine."""
    start = play(contest, SetStage(actor="Josef", reactor="Bobby"), *before)
    wins = 0
    for a, r in itertools.product(range(1, 101), repeat=2):
        e = resolved(
            start,
            RollDice(who="Josef", faces=(a,)),
            RollDice(who="Bobby", faces=(r,)),
            ResolveExchange(),
        )
        wins += e.winner == "Josef"
    return Fraction(wins, 10_000)


def test_fifty_against_fifty_by_hand() -> None:
    # The actor wins with a <= 50 unless the reactor rolls a..50 (51 - a rolls): for
    # a = 1..50 that leaves 49 + a of 100, in all 50*49 + 1275 = 3725 of 10,000.
    stage = forge_stage_odds(play(forge_contest(50, 50), SetStage(actor="Josef")))
    assert stage is not None
    assert stage.actor_wins == Fraction(3725, 10_000) == Fraction(149, 400)


@pytest.mark.parametrize(
    ("actor", "reactor", "options", "before"),
    [
        pytest.param(
            60, 45, {"reactor_wins_ties": False}, [SetModifier(who="Bobby", value=5)], id="plain"
        ),
        pytest.param(55, 40, {"combat": True}, [], id="combat-dodge"),
        pytest.param(
            70, 40, {"combat": True}, [ChooseReaction(reaction="absorb")], id="combat-absorb"
        ),
    ],
)
def test_every_pair_of_d100s_through_the_engine(
    actor: int, reactor: int, options: Mapping[str, Any], before: Sequence[Command]
) -> None:
    contest = forge_contest(actor, reactor, **options)
    stage = forge_stage_odds(play(contest, SetStage(actor="Josef"), *before))
    assert stage is not None
    assert stage.actor_wins == forge_brute_force(contest, before)


def test_absorb_wins_exactly_when_the_actor_succeeds_and_extremes() -> None:
    combat = play(forge_contest(60, 40, combat=True), SetStage(actor="Josef"))
    stage = forge_stage_odds(combat)
    assert stage is not None and stage.by_reaction["absorb"] == Fraction(60, 100)
    assert stage.by_reaction["dodge"] == stage.actor_wins < Fraction(60, 100)
    auto = forge_stage_odds(play(forge_contest(120, 0), SetStage(actor="Josef")))
    never = forge_stage_odds(play(forge_contest(-5, 50), SetStage(actor="Josef")))
    assert auto is not None and auto.actor_wins == 1  # the reactor at 0 never wins
    assert never is not None and never.actor_wins == 0


def test_the_first_stage_needs_an_actor() -> None:
    contest = forge_contest(50, 50)
    assert forge_stage_odds(contest) is None
    assert odds_for(contest)["exchange"] is None


# -- JSON -----------------------------------------------------------------------------------


def test_json_shapes_and_exact_strings() -> None:
    out = odds_for(fate_contest({"Cynere": [3], "Teran": [3]}))
    assert out["exchange"]["sides"]["Cynere"]["win_exact"] == "101/243"  # 2727/6561
    assert out["exchange"]["sides"]["Cynere"]["win"] == 2727 / 6561
    assert out["contest"]["sides"]["Teran"] == {"win": 0.5, "win_exact": "1/2"}
    assert out["exchange"]["none_exact"] == "0"
    hq = odds_for(extended((0, 0)))
    assert hq["exchange"]["sides"]["Hero"]["complete_exact"] == "1/400"
    assert hq["exchange"]["tie_exact"] == "1/20"
    assert hq["contest"]["goal"] == 5
    fg = odds_for(play(forge_contest(50, 50), SetStage(actor="Josef")))
    assert fg["exchange"]["actor"] == {
        "name": "Josef",
        "target": 50,
        "win": 0.3725,
        "win_exact": "149/400",
    }
    assert fg["exchange"]["reactor"]["win_exact"] == "251/400"


def test_a_finished_contest_has_null_odds_and_says_why() -> None:
    contest = play(
        fate_contest({"Cynere": [3], "Teran": [3]}, victories_needed=1),
        RollDice(who="Cynere", faces=(1, 1, 0, 0)),
        RollDice(who="Teran", faces=(0, 0, 0, 0)),
        ResolveExchange(),
    )
    out = odds_for(contest)
    assert out["finished"] and out["exchange"] is None and out["contest"] is None
    assert "over" in out["note"] and "Cynere" in out["note"]


def test_caches_clear_and_the_odds_stay_the_same() -> None:
    contest = fate_contest({"Cynere": [4], "Teran": [3]})
    first = odds_for(contest)
    clear_caches()
    assert odds_for(contest) == first


def test_the_odds_never_import_textual() -> None:
    code = "import sys, core.odds, core.cli.commands; print(' '.join(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    loaded = {m.split(".")[0] for m in run.stdout.split()}
    assert "core" in loaded and not loaded & {"textual", "rich", "tui", "tinydb"}
