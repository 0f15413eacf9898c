"""A chained contest's complete defeat leaves the loser dying, and a dying character
takes no actions: it rolls in no later exchange of the chain, and the odds leave it out.

The rules text: a chained contest is a sequence of simple contests between the same
parties (rules.md, "Decisions that bind the engine"; §2.9: "repeat HQ2 simple contests
with a 'continue / leave' prompt after each"; seed 002, line 28: it "runs until one party
opts to leave"). A simple contest's complete defeat leaves the loser in the state of
adversity "Dying", whose effect is "no actions" (§2.6, the table's last row), and
scenario.md: "a dying character cannot take part". An extended contest is not touched:
its consequences come from the final score (§2.8.6-7), not exchange by exchange.

Worked by hand (§2.3): ratings of 15; a 1 is a critical, 10 and 12 successes, a 20 a
fumble. Critical against fumble is three levels better: a complete victory (§2.3's
table, row Critical, column Fumble)."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import RuleError
from core.model import RollDice
from core.odds.report import odds_for
from core.rules.reading import ScenarioError
from core.scenario import resolve
from core.systems.heroquest.events import SetParties
from core.systems.heroquest.state import HQOptions, HQParticipant, new_contest
from tests.core.hq_contests import exchange, play

COMPLETE_FOR_HERO = {"Hero": 1, "Foe": 20}  # critical against fumble: complete


def three(*exchanges: dict[str, Any]) -> dict[str, Any]:
    return {
        "system": "heroquest",
        "options": {"chained": True},
        "participants": [
            {"name": "Hero", "side": "Heroes", "rating": "15"},
            {"name": "Foe", "side": "Foes", "rating": "15"},
            {"name": "Rival", "side": "Rivals", "rating": "15"},
        ],
        "exchanges": list(exchanges),
    }


def chain_of_three() -> Any:
    return new_contest(
        [HQParticipant(name=n, side=n, rating=15) for n in ("Hero", "Foe", "Rival")],
        HQOptions(chained=True),
    )


def test_the_dying_loser_rolls_in_no_later_exchange() -> None:
    with pytest.raises(ScenarioError, match=r"exchanges\[1\].*Foe is dying.*no actions"):
        resolve(three({"rolls": COMPLETE_FOR_HERO}, {"rolls": {"Foe": 10, "Rival": 12}}))


def test_nor_when_named_again_as_a_party() -> None:
    c = chain_of_three()
    c, _ = play(c, SetParties(a="Hero", b="Foe"))
    c, ex = exchange(c, COMPLETE_FOR_HERO)
    assert ex.consequence == {"Foe": "dying"}  # §2.6: a complete defeat
    with pytest.raises(RuleError, match="Foe is dying"):
        play(c, SetParties(a="Rival", b="Foe"))
    with pytest.raises(RuleError, match="Foe is dying"):
        play(c, RollDice(who="Hero", faces=(10,)))  # the same two again
    # The others play on: Hero (10) against Rival (12), successes, low roll: Hero.
    c, _ = play(c, SetParties(a="Hero", b="Rival"))
    _, ex = exchange(c, {"Hero": 10, "Rival": 12})
    assert (ex.winner, ex.resolution_points) == ("Hero", 1)


def test_the_odds_leave_the_dying_one_out() -> None:
    c = chain_of_three()
    c, _ = play(c, SetParties(a="Hero", b="Foe"))
    c, _ = exchange(c, COMPLETE_FOR_HERO)
    out = odds_for(c)
    assert out["exchange"] is None
    assert "Foe is dying" in out["note"]
    # Named again with someone who can act, the odds are back.
    c, _ = play(c, SetParties(a="Hero", b="Rival"))
    assert odds_for(c)["exchange"]["parties"] == ["Hero", "Rival"]


def test_the_chain_can_still_be_left() -> None:
    # A guard (it passed before too): Foe dying, the GM still ends the chain by a leave,
    # and Hero wins it (seed 002, line 28).
    out = resolve(
        {
            "system": "heroquest",
            "options": {"chained": True},
            "participants": [
                {"name": "Hero", "rating": "15"},
                {"name": "Foe", "rating": "15"},
            ],
            "exchanges": [{"rolls": COMPLETE_FOR_HERO}, {"leave": "Foe"}],
        }
    ).to_json()
    assert (out["finished"], out["winner"], out["ended_by"]) == (True, "Hero", "leave")


def test_with_nobody_else_to_name_the_way_on_is_leaving() -> None:
    # Two participants, one dying: there are no "two others" to name (§2.6, §2.9); the
    # refusal and the odds' note say the one way on, leaving the chain (play5, item 1).
    c = new_contest(
        [HQParticipant(name=n, side=n, rating=15) for n in ("Hero", "Foe")],
        HQOptions(chained=True),
    )
    c, _ = exchange(c, COMPLETE_FOR_HERO)
    with pytest.raises(RuleError, match=r"no actions \(rules §2\.6\); leave the chain$"):
        play(c, RollDice(who="Hero", faces=(10,)))
    assert odds_for(c)["note"] == "Foe is dying: no actions (rules §2.6); leave the chain"
    # With a third who may act, naming two others is offered too.
    three_c = chain_of_three()
    three_c, _ = play(three_c, SetParties(a="Hero", b="Foe"))
    three_c, _ = exchange(three_c, COMPLETE_FOR_HERO)
    assert odds_for(three_c)["note"].endswith("name two others, or leave the chain")


def test_a_hurt_earned_in_the_chain_leaves_its_later_targets_as_they_were() -> None:
    # Settled for play5 item 5. scenario.md, HeroQuest: an exchange's `targets` are
    # "rating + vitality + modifiers + augment bonus, -6 when stretched, -3 per extra
    # pair", and a participant's `adversity` is "the states it carries into this
    # contest"; rules.md binds a chained contest as "a sequence of simple contests between
    # the same parties". So a marginal defeat in exchange 1 (Foe hurt, §2.6) is logged and
    # goes to the roster afterwards, but exchange 2's Foe still rolls against 15, not 12.
    # Marginal (§2.3): two successes, the lower roll (10 < 12) wins.
    c = new_contest(
        [HQParticipant(name=n, side=n, rating=15) for n in ("Hero", "Foe")],
        HQOptions(chained=True),
    )
    c, first = exchange(c, {"Hero": 10, "Foe": 12})
    assert (first.winner, dict(first.consequence)) == ("Hero", {"Foe": "hurt"})
    _, second = exchange(c, {"Hero": 10, "Foe": 12})
    assert dict(second.targets) == {"Hero": 15, "Foe": 15}
