"""HeroQuest contests the GM rules automatic (issue 29 item 3; the seed: "We might decide
some contests are automatic successes").

An automatic success is the named party's victory at the level the GM chooses, an
automatic failure the other party's; it then counts as a simple contest with that result
would: resolution points by §2.7's table lodged in a chain (§2.8.1: marginal 1, minor 2,
major 3, complete 5), an extended contest ending at 5 (§2.8.2), the loser's state of
adversity and the winner's lingering benefit by level (§2.6: marginal hurt/+0, minor
impaired/+3, major injured/+6, complete dying/+9). Every expected value is worked from
those tables in the comment beside it.
"""

from __future__ import annotations

import pytest

from core.engine import apply
from core.errors import OutOfTurn, RuleError
from core.model import ResolveExchange, RollDice, SetModifier
from core.rules.reading import ScenarioError
from core.scenario import resolve
from core.systems.heroquest.automatic import RuleAutomatic
from core.systems.heroquest.events import Gamble, Leave, SetPairs, SpendHeroPoints
from core.systems.heroquest.odds import HEROQUEST_ODDS
from core.systems.heroquest.rules import HEROQUEST
from core.systems.heroquest.state import HQContest, HQOptions, HQParticipant, new_contest
from tests.core.hq_contests import exchange, hero_foe, play, resolved


def test_an_automatic_success_in_a_chain_lodges_its_levels_points_and_leaves_its_state() -> None:
    # §2.8.1 / §2.7 table: a major victory lodges 3 RP; §2.6: the loser is injured, the
    # winner gains +6.
    c, log = play(
        hero_foe(chained=True), RuleAutomatic(who="Hero", victory="major"), ResolveExchange()
    )
    e = resolved(log)
    assert (e.winner, e.victory, e.resolution_points, e.lodged_by) == ("Hero", 3, 3, "Hero")
    assert dict(e.consequence) == {"Foe": "injured"} and dict(e.benefit) == {"Hero": 6}
    assert dict(e.rolls) == {} and dict(e.levels) == {}
    assert dict(c.resolution_points) == {"Hero": 3, "Foe": 0} and not c.finished


def test_an_automatic_failure_is_the_other_partys_victory_at_that_level() -> None:
    # Hero fails automatically, minor: Foe's minor victory, 2 RP (§2.7), Hero impaired
    # and Foe +3 (§2.6).
    c, log = play(
        hero_foe(chained=True),
        RuleAutomatic(who="Hero", result="failure", victory="minor"),
        ResolveExchange(),
    )
    e = resolved(log)
    assert (e.winner, e.resolution_points) == ("Foe", 2)
    assert dict(e.consequence) == {"Hero": "impaired"} and dict(e.benefit) == {"Foe": 3}
    assert dict(c.resolution_points) == {"Hero": 0, "Foe": 2}


def test_automatic_results_count_toward_an_extended_contests_five_points() -> None:
    # Major (3 RP), then a rolled minor for Hero (1 vs 9: critical vs success, 2 RP):
    # 5 RP, the end (§2.8.2). Rising action (§2.8.6): difference 5, a major victory,
    # Foe injured.
    c, _ = play(
        hero_foe(extended=True), RuleAutomatic(who="Hero", victory="major"), ResolveExchange()
    )
    assert not c.finished
    c, _ = exchange(c, {"Hero": 1, "Foe": 9})
    assert c.finished and c.winner == "Hero" and c.ended_by == "resolution_points"
    assert HEROQUEST.final_json(c)["consequences"] == {"Foe": "injured"}


def test_an_automatic_complete_victory_ends_an_extended_contest_at_once() -> None:
    # Complete: 5 RP (§2.7), the goal (§2.8.2); rising action on a difference of 5: major.
    c, _ = play(
        hero_foe(extended=True), RuleAutomatic(who="Foe", victory="complete"), ResolveExchange()
    )
    assert c.finished and c.winner == "Foe"
    assert dict(c.resolution_points) == {"Hero": 0, "Foe": 5}


def test_an_automatic_simple_contest_is_decided_by_the_ruling() -> None:
    # Not a chain: the one exchange decides the contest (§2.3), here Foe's marginal win.
    c, log = play(hero_foe(), RuleAutomatic(who="Hero", result="failure"), ResolveExchange())
    assert c.finished and c.winner == "Foe"
    assert dict(resolved(log).consequence) == {"Hero": "hurt"}


def test_an_automatic_exchange_takes_no_dice_nor_anything_that_would_bump_it() -> None:
    auto = RuleAutomatic(who="Hero", victory="major")
    c = hero_foe(hero_points=2, extended=True)
    for first in (
        RollDice(who="Hero", faces=(3,)),
        SetModifier(who="Foe", value=3),
        SpendHeroPoints(who="Hero"),
        Gamble(who="Hero"),
    ):
        with pytest.raises(RuleError, match="takes no dice"):
            play(c, first, auto)
    ruled, _ = play(c, auto)
    for after in (
        RollDice(who="Foe", faces=(3,)),
        SpendHeroPoints(who="Hero"),
        SetModifier(who="Hero", value=6),
        RuleAutomatic(who="Foe"),
    ):
        with pytest.raises(RuleError, match="ruled an automatic success for Hero"):
            apply(ruled, after)
    assert HEROQUEST.rollers(ruled) == []  # nobody rolls for it


def test_an_automatic_ruling_names_a_party_of_a_simple_exchange() -> None:
    three = new_contest(
        [
            HQParticipant(name="Hero", side="Heroes", rating=12),
            HQParticipant(name="Sidekick", side="Heroes", rating=10),
            HQParticipant(name="Foe", side="Foes", rating=15),
        ],
        HQOptions(chained=True),
    )
    with pytest.raises(OutOfTurn, match="name the exchange's two parties"):
        apply(three, RuleAutomatic(who="Hero"))
    with pytest.raises(RuleError, match="group exchange"):
        play(three, SetPairs(pairs=()), RuleAutomatic(who="Hero"))


def test_an_automatic_exchange_with_a_leave_ends_the_chain_for_the_other_side() -> None:
    # §2.9: the party who leaves hands the chain to the other, whoever won the exchange.
    c, _ = play(
        hero_foe(chained=True),
        RuleAutomatic(who="Hero", victory="minor"),
        Leave(who="Hero"),
        ResolveExchange(),
    )
    assert c.finished and c.winner == "Foe" and c.ended_by == "leave"


def test_the_log_says_the_ruling_and_that_no_dice_were_rolled() -> None:
    _, log = play(
        hero_foe(chained=True), RuleAutomatic(who="Hero", victory="major"), ResolveExchange()
    )
    lines = HEROQUEST.describe(resolved(log))
    assert lines[0] == "Exchange 1: Hero wins, major (3 RP)"
    assert lines[1] == "  automatic success for Hero (major), no dice"


def test_odds_say_a_ruled_exchange_needs_no_dice() -> None:
    c, _ = play(hero_foe(extended=True), RuleAutomatic(who="Hero"))
    assert isinstance(c, HQContest)
    odds = HEROQUEST_ODDS.odds_json(c)
    assert odds["exchange"] is None and odds["note"] == "the exchange is ruled automatic: no dice"


def scenario(*exchanges: object, **options: object) -> dict[str, object]:
    return {
        "system": "heroquest",
        "options": options,
        "participants": [{"name": "Hero", "rating": "12"}, {"name": "Gate", "rating": "15"}],
        "exchanges": list(exchanges),
    }


def test_scenario_key_automatic() -> None:
    # Major success (3 RP), a tie (5 vs 5), then Gate's automatic failure at minor: Hero
    # 2 more, 5 in all (§2.8.2); difference 5 by rising action: major, Gate injured.
    got = resolve(
        scenario(
            {"automatic": {"who": "Hero", "victory": "major"}},
            {"rolls": {"Hero": 5, "Gate": 5}},
            {"automatic": {"who": "Gate", "result": "failure", "victory": "minor"}},
            extended=True,
        )
    ).to_json()
    first, _, third = got["exchanges"]
    assert first["automatic"] == {"who": "Hero", "result": "success", "victory": "major"}
    assert (first["winner"], first["resolution_points"], first["rolls"]) == ("Hero", 3, {})
    assert (third["winner"], third["victory"], third["resolution_points"]) == ("Hero", "minor", 2)
    assert got["resolution_points"] == {"Hero": 5, "Gate": 0}
    assert (got["winner"], got["victory"], got["consequences"]) == (
        "Hero",
        "major",
        {"Gate": "injured"},
    )


@pytest.mark.parametrize(
    ("exchange", "place"),
    [
        ({"automatic": {"who": "Hero"}, "rolls": {"Hero": 3, "Gate": 4}}, "exchanges[0].rolls"),
        ({"automatic": {"who": "Nobody"}}, "exchanges[0].automatic.who"),
        ({"automatic": {"who": "Hero", "victory": "huge"}}, "exchanges[0].automatic.victory"),
        ({"automatic": {"who": "Hero", "result": "maybe"}}, "exchanges[0].automatic.result"),
        ({"automatic": {"who": "Hero", "level": 3}}, "exchanges[0].automatic.level"),
    ],
)
def test_scenario_automatic_errors_name_their_place(exchange: object, place: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        resolve(scenario(exchange, chained=True))
    assert str(caught.value).startswith(place)
