"""Issue 13, HeroQuest: risky gambits and defensive responses (rules §2.8.4-5) and group
boosts (rules §2.7.4), in the engine, in ``tussle resolve`` and in the odds.

Every expected value is worked by hand from the rules in the comment beside it; the
resolution point table is marginal 1, minor 2, major 3, complete 5 (§2.7).
"""

from __future__ import annotations

import copy
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from core.engine import apply
from core.errors import RuleError
from core.rules import find_system
from core.rules.reading import ScenarioError
from core.scenario import resolve
from core.systems.heroquest.events import Boost, Gamble, RespondDefensively, SetPairs
from core.systems.heroquest.extended import lodged_points
from core.systems.heroquest.modifiers import boost_cost
from core.systems.heroquest.odds import heroquest_contest_odds
from core.systems.heroquest.resolution import COMPLETE, MAJOR, MARGINAL, MINOR, TIE
from core.systems.heroquest.rules import NoHeroPoints
from core.systems.heroquest.state import HQContest, HQOptions, HQParticipant, Pair, new_contest

# -- the points lodged ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("victory", "declared", "points"),
    [
        (MARGINAL, {}, 1),
        (MARGINAL, {"winner_gambled": True}, 2),  # 1 + 1
        (MARGINAL, {"loser_gambled": True}, 3),  # 1 + 2
        (MARGINAL, {"winner_gambled": True, "loser_gambled": True}, 3),  # 1 + 2, not + 3
        (COMPLETE, {"winner_gambled": True, "loser_gambled": True}, 7),  # 5 + 2
        (MARGINAL, {"winner_defensive": True}, 0),  # 1 - 2, never below 0
        (MINOR, {"winner_defensive": True}, 0),  # 2 - 2
        (MAJOR, {"winner_defensive": True}, 1),  # 3 - 2
        (COMPLETE, {"loser_defensive": True}, 4),  # 5 - 1
        (MARGINAL, {"loser_defensive": True}, 0),  # 1 - 1
        (MINOR, {"winner_gambled": True, "loser_defensive": True}, 2),  # 2 + 1 - 1
        (MAJOR, {"loser_gambled": True, "winner_defensive": True}, 3),  # 3 + 2 - 2
        (TIE, {"winner_gambled": True, "loser_gambled": True}, 0),  # a tie lodges nothing
    ],
)
def test_points_lodged(victory: int, declared: dict[str, bool], points: int) -> None:
    assert lodged_points(victory, **declared) == points


@pytest.mark.parametrize(
    ("members", "double", "cost"),
    [(1, False, 1), (3, False, 1), (4, False, 2), (6, False, 2), (7, False, 3), (4, True, 4)],
)
def test_boost_cost(members: int, double: bool, cost: int) -> None:
    assert boost_cost(members, double) == cost


# -- gambits and defensive responses in tussle resolve ------------------------------------------

EXTENDED: dict[str, Any] = {
    "system": "heroquest",
    "options": {"extended": True},
    "participants": [{"name": "Hero", "rating": "15"}, {"name": "Foe", "rating": "15"}],
    "exchanges": [],
}
# Hero 3 and Foe 8 against 15: both succeed, the low roll wins: Hero, marginal (1 RP).
HERO_MARGINAL = {"rolls": {"Hero": 3, "Foe": 8}}


def extended(*exchanges: dict[str, Any]) -> dict[str, Any]:
    return {**copy.deepcopy(EXTENDED), "exchanges": list(exchanges)}


def test_gambits_and_defensive_responses_change_the_points_lodged() -> None:
    out = resolve(
        extended(
            {**HERO_MARGINAL, "gambits": ["Hero"]},  # 1 + 1 = 2
            {**HERO_MARGINAL, "gambits": ["Foe"], "defensive": ["Hero"]},  # 1 + 2 - 2 = 1
            {**HERO_MARGINAL, "defensive": ["Foe"]},  # 1 - 1 = 0
            {**HERO_MARGINAL, "gambits": ["Foe"]},  # 1 + 2 = 3: Hero 2 + 1 + 0 + 3 = 6
        )
    ).to_json()
    assert [e["resolution_points"] for e in out["exchanges"]] == [2, 1, 0, 3]
    assert out["exchanges"][1]["gambits"] == ["Foe"]
    assert out["exchanges"][1]["defensive"] == ["Hero"]
    assert out["resolution_points"] == {"Hero": 6, "Foe": 0}
    assert (out["finished"], out["winner"]) == (True, "Hero")


def test_a_tie_lodges_nothing_whatever_was_declared() -> None:
    out = resolve(extended({"rolls": {"Hero": 5, "Foe": 5}, "gambits": ["Hero", "Foe"]})).to_json()
    assert (out["exchanges"][0]["victory"], out["exchanges"][0]["resolution_points"]) == ("tie", 0)


def test_a_party_listed_twice_gambles_once() -> None:
    out = resolve(extended({**HERO_MARGINAL, "gambits": ["Hero", "Hero"]})).to_json()
    assert out["exchanges"][0]["resolution_points"] == 2


def problem(data: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(ScenarioError) as info:
        resolve(data)
    return info.value.place, info.value.problem


def test_gambits_outside_an_extended_contest_are_an_error() -> None:
    data = {**extended({**HERO_MARGINAL, "gambits": ["Hero"]}), "options": {"chained": True}}
    place, text = problem(data)
    assert place == "exchanges[0].gambits" and "extended contest" in text
    data = {**extended({**HERO_MARGINAL, "defensive": ["Hero"]}), "options": {}}
    assert problem(data)[0] == "exchanges[0].defensive"


def test_a_name_that_is_not_a_party_is_an_error() -> None:
    assert problem(extended({**HERO_MARGINAL, "gambits": ["Zed"]})) == (
        "exchanges[0].gambits[0]",
        'no participant "Zed"',
    )
    three = extended({"rolls": {"Hero": 3, "Foe": 8}, "defensive": ["Ally"]})
    three["participants"].append({"name": "Ally", "side": "Hero", "rating": "12"})
    assert problem(three) == ("exchanges[0].defensive[0]", "Ally is not a party to this exchange")


def test_a_party_in_both_lists_is_an_error_of_the_exchange() -> None:
    place, text = problem(extended({**HERO_MARGINAL, "gambits": ["Hero"], "defensive": ["Hero"]}))
    assert place == "exchanges[0]" and "Hero" in text


def test_gambits_in_a_group_exchange_are_an_error() -> None:
    data = extended(
        {"pairs": [{"a": "Hero", "b": "Foe", "rolls": [3, 8]}], "gambits": ["Hero"]},
    )
    place, text = problem(data)
    assert place == "exchanges[0].gambits" and "simple exchange" in text


def test_gambits_must_be_a_list() -> None:
    assert problem(extended({**HERO_MARGINAL, "gambits": "Hero"})) == (
        "exchanges[0].gambits",
        "expected a list, got a string",
    )


# -- gambits in the engine ------------------------------------------------------------------


def duel(extended: bool = True) -> HQContest:
    return new_contest(
        [
            HQParticipant(name="Hero", side="Hero", rating=15),
            HQParticipant(name="Foe", side="Foe", rating=15),
        ],
        HQOptions(extended=extended),
    )


def test_the_engine_refuses_a_gambit_after_a_defensive_response() -> None:
    c, _ = apply(duel(), RespondDefensively(who="Hero"))
    with pytest.raises(RuleError, match="not both"):
        apply(c, Gamble(who="Hero"))


def test_the_engine_refuses_gambits_outside_an_extended_contest() -> None:
    with pytest.raises(RuleError, match="extended"):
        apply(duel(extended=False), Gamble(who="Hero"))


def test_the_log_says_who_gambled() -> None:
    out = resolve(extended({**HERO_MARGINAL, "gambits": ["Hero"]}))
    lines = find_system("heroquest").describe(out.exchanges[0])
    assert lines[0] == "Exchange 1: Hero wins, marginal (2 RP)"
    assert any(line.startswith("  Hero makes a risky gambit") for line in lines)


# -- gambits in the odds ----------------------------------------------------------------------


def level(roll: int, target: int) -> int:
    return 3 if roll == 1 else 0 if roll == 20 else 2 if roll <= target else 1


def exchange_counts(ta: int, tb: int) -> dict[tuple[int, int], int]:
    """(winner 0 or 1, victory 1-4) over the 400 roll pairs, §2.3; ties left out."""
    counts: dict[tuple[int, int], int] = {}
    for ra in range(1, 21):
        for rb in range(1, 21):
            la, lb = level(ra, ta), level(rb, tb)
            if la != lb:
                key = (0 if la > lb else 1, abs(la - lb) + 1)
            elif la == 0 or ra == rb:
                continue
            else:
                key = (0 if ra < rb else 1, 1)
            counts[key] = counts.get(key, 0) + 1
    return counts


def brute_force_extended(first_points: dict[tuple[int, int], int]) -> Fraction:
    """Hero's chance at 5 RP when the first exchange lodges ``first_points`` by (winner,
    victory) and every later one the plain table, Hero and Foe both at 15."""
    counts = exchange_counts(15, 15)
    plain = {1: 1, 2: 2, 3: 3, 4: 5}
    tie = Fraction(400 - sum(counts.values()), 400)

    @cache
    def win(pa: int, pb: int) -> Fraction:
        if pa >= 5:
            return Fraction(1)
        if pb >= 5:
            return Fraction(0)
        total = Fraction(0)
        for (w, v), n in counts.items():
            step = plain[v]
            total += Fraction(n, 400) * (win(pa + step, pb) if w == 0 else win(pa, pb + step))
        return total / (1 - tie)

    first = Fraction(0)
    for (w, v), n in counts.items():
        step = first_points[(w, v)]
        first += Fraction(n, 400) * (win(step, 0) if w == 0 else win(0, step))
    return first + tie * win(0, 0)


def test_extended_odds_count_a_declared_gambit() -> None:
    c, _ = apply(duel(), Gamble(who="Hero"))
    assert isinstance(c, HQContest)
    # Hero gambles: Hero's wins lodge 1 more, Foe's wins 2 more, in this exchange only.
    plain = {1: 1, 2: 2, 3: 3, 4: 5}
    first = {(w, v): plain[v] + (1 if w == 0 else 2) for w in (0, 1) for v in plain}
    odds = heroquest_contest_odds(c)
    assert odds is not None
    assert odds.sides["Hero"] == brute_force_extended(first)
    assert odds.sides["Hero"] != brute_force_extended({(w, v): plain[v] for w, v in first})


def test_extended_odds_count_a_defensive_response_that_lodges_nothing() -> None:
    c, _ = apply(duel(), RespondDefensively(who="Hero"))
    assert isinstance(c, HQContest)
    # Hero responds defensively: Hero's wins lodge 2 fewer (marginal and minor: 0), Foe's 1.
    plain = {1: 1, 2: 2, 3: 3, 4: 5}
    first = {(w, v): max(0, plain[v] - (2 if w == 0 else 1)) for w in (0, 1) for v in plain}
    odds = heroquest_contest_odds(c)
    assert odds is not None
    assert odds.sides["Hero"] == brute_force_extended(first)


# -- group boosts ---------------------------------------------------------------------------

GROUP: dict[str, Any] = {
    "system": "heroquest",
    "participants": [
        {"name": "Tripitaka", "side": "Heroes", "rating": "15", "hero_points": 1},
        {"name": "Sandy", "side": "Heroes", "rating": "15", "hero_points": 2},
        {"name": "Ghoul", "side": "Dead", "rating": "15", "hero_points": 1},
    ],
}
# Tripitaka 3 v Ghoul 8: both succeed, low roll: Tripitaka marginal, 1 RP for the Heroes.
# Sandy 8 v Ghoul 3: Ghoul marginal, 1 RP for the Dead. 1 - 1 = 0: a tie.
TIED_PAIRS = [
    {"a": "Tripitaka", "b": "Ghoul", "rolls": [3, 8]},
    {"a": "Sandy", "b": "Ghoul", "rolls": [8, 3]},
]


def group(boost: Any, pairs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    exchange = {"pairs": pairs or TIED_PAIRS, "boost": boost}
    return {**copy.deepcopy(GROUP), "exchanges": [exchange]}


def test_a_boost_turns_a_tie_into_the_sides_marginal_victory() -> None:
    # Two Heroes: the boost costs 1 (1-3 taking part). Tie -> Heroes, marginal: 1 RP;
    # the Ghoul is hurt, and on a marginal group victory the winners are hurt too.
    out = resolve(group({"side": "Heroes", "paid": {"Sandy": 1}})).to_json()
    ex = out["exchanges"][0]
    assert (ex["winner"], ex["victory"], ex["resolution_points"]) == ("Heroes", "marginal", 1)
    assert ex["consequence"] == {"Tripitaka": "hurt", "Sandy": "hurt", "Ghoul": "hurt"}
    assert ex["boost"] == {"side": "Heroes", "double": False, "paid": {"Sandy": 1}, "cost": 1}
    assert out["winner"] == "Heroes"
    assert out["hero_points"] == {"Tripitaka": 1, "Sandy": 1, "Ghoul": 1}


def test_a_double_boost_raises_two_levels_at_twice_the_price() -> None:
    # Double: 2 hero points; tie -> minor (2 RP): the Ghoul impaired, the Heroes +3 each.
    boost = {"side": "Heroes", "double": True, "paid": {"Tripitaka": 1, "Sandy": 1}}
    ex = resolve(group(boost)).to_json()["exchanges"][0]
    assert (ex["winner"], ex["victory"], ex["resolution_points"]) == ("Heroes", "minor", 2)
    assert ex["consequence"] == {"Ghoul": "impaired"}
    assert ex["benefit"] == {"Tripitaka": 3, "Sandy": 3}


def test_a_boost_never_raises_past_complete() -> None:
    # Tripitaka 1 v Ghoul 20: critical against fumble, complete (5 RP); Sandy 3 v Ghoul 8:
    # marginal (1 RP). Heroes 6 - 0: complete already; the double boost adds nothing.
    pairs = [
        {"a": "Tripitaka", "b": "Ghoul", "rolls": [1, 20]},
        {"a": "Sandy", "b": "Ghoul", "rolls": [3, 8]},
    ]
    boost = {"side": "Heroes", "double": True, "paid": {"Sandy": 2}}
    ex = resolve(group(boost, pairs)).to_json()["exchanges"][0]
    assert (ex["victory"], ex["resolution_points"]) == ("complete", 5)


def test_a_boost_for_the_losing_side_changes_nothing_but_costs_its_points() -> None:
    # Tripitaka 3 v Ghoul 8 (Heroes 1), Sandy 3 v Ghoul 9 (Heroes 1): Heroes 2 - 0, minor.
    # The Ghoul's boost (a side of 1: 1 point) is spent for nothing.
    pairs = [
        {"a": "Tripitaka", "b": "Ghoul", "rolls": [3, 8]},
        {"a": "Sandy", "b": "Ghoul", "rolls": [3, 9]},
    ]
    out = resolve(group({"side": "Dead", "paid": {"Ghoul": 1}}, pairs)).to_json()
    ex = out["exchanges"][0]
    assert (ex["winner"], ex["victory"]) == ("Heroes", "minor")
    assert out["hero_points"]["Ghoul"] == 0


@pytest.mark.parametrize(
    ("boost", "place", "words"),
    [
        ({"side": "Heroes", "paid": {"Sandy": 2}}, "exchanges[0].boost.paid", "costs 1"),
        ({"side": "Heroes", "paid": {}}, "exchanges[0].boost.paid", "not 0"),
        (
            {"side": "Heroes", "double": True, "paid": {"Tripitaka": 2}},
            "exchanges[0].boost.paid.Tripitaka",
            "only 1",
        ),
        ({"side": "Heroes", "paid": {"Ghoul": 1}}, "exchanges[0].boost.paid.Ghoul", "not on side"),
        ({"side": "Heroes", "paid": {"Zed": 1}}, "exchanges[0].boost.paid.Zed", "no participant"),
        ({"side": "Living", "paid": {"Sandy": 1}}, "exchanges[0].boost.side", 'no side "Living"'),
        ({"paid": {"Sandy": 1}}, "exchanges[0].boost.side", "missing"),
        ({"side": "Heroes", "paid": {"Sandy": 1}, "x": 1}, "exchanges[0].boost.x", "unknown key"),
        ({"side": "Heroes", "paid": {"Sandy": -1}}, "exchanges[0].boost.paid.Sandy", "at least 0"),
    ],
)
def test_boost_errors(boost: dict[str, Any], place: str, words: str) -> None:
    got_place, text = problem(group(boost))
    assert got_place == place and words in text


def test_a_boost_in_a_simple_exchange_is_an_error() -> None:
    data = {
        **copy.deepcopy(GROUP),
        "exchanges": [
            {"rolls": {"Tripitaka": 3, "Ghoul": 8}, "boost": {"side": "Heroes", "paid": {}}}
        ],
    }
    place, text = problem(data)
    assert place == "exchanges[0].boost" and "group exchange" in text


def test_the_engine_refuses_a_second_boost_and_points_it_lacks() -> None:
    c = new_contest(
        [
            HQParticipant(name="Tripitaka", side="Heroes", rating=15, hero_points=1),
            HQParticipant(name="Ghoul", side="Dead", rating=15, hero_points=0),
        ]
    )
    c, _ = apply(c, SetPairs(pairs=(Pair(a="Tripitaka", b="Ghoul", roll_a=3, roll_b=8),)))
    with pytest.raises(NoHeroPoints):
        apply(c, Boost(side="Dead", paid=(("Ghoul", 1),)))
    c, _ = apply(c, Boost(side="Heroes", paid=(("Tripitaka", 1),)))
    with pytest.raises(RuleError, match="already has a boost"):
        apply(c, Boost(side="Heroes", paid=()))
