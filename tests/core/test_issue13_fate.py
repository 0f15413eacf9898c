"""Issue 13, Fate: free invokes on an aspect already in play, and points owed for invokes.

Expected values are worked from scenario.md's create-an-advantage list ("free invokes never
change hands") and rules §1.4.1 ("usable only after the scene").
"""

from __future__ import annotations

from typing import Any

import pytest

from core.engine import apply, fold
from core.errors import RuleError
from core.files.codec import decode, encode
from core.model import ContestEnded, Event, ResolveExchange, RollDice
from core.rules.reading import ScenarioError
from core.scenario import resolve
from core.systems.fate.events import CreateAdvantage, DeclareAttack, FateContestEnded, InvokeAspect
from core.systems.fate.scoring import FateOptions
from core.systems.fate.state import Aspect, FateContest, FateParticipant, new_contest

ZERO = (0, 0, 0, 0)


def play(contest: FateContest, *commands: object) -> tuple[FateContest, list[Event]]:
    log: list[Event] = []
    state = contest
    for command in commands:
        new, events = apply(state, command)  # type: ignore[arg-type]
        assert isinstance(new, FateContest)
        state = new
        log.extend(events)
    return state, log


def smoke(holder: str | None, free: int, failed_advantage: str = "forfeit") -> FateContest:
    """Ana (Fair) against Bo (Fair), "Smoke" in play with ``free`` invokes of ``holder``."""
    return new_contest(
        [
            FateParticipant(name="Ana", side="Ana", skill=2),
            FateParticipant(name="Bo", side="Bo", skill=2),
        ],
        [Aspect(name="Smoke", free_invokes=free, holder=holder)],
        FateOptions(failed_advantage=failed_advantage),  # type: ignore[arg-type]
    )


# -- 1. free invokes never change hands -----------------------------------------------------


def test_a_failure_that_would_give_the_holder_one_more_is_accepted() -> None:
    # Ana holds 2 on Smoke. Bo fails on it (1 vs 2): the free invoke goes to the other
    # side, Ana, who already holds them: nothing changes hands, so it is allowed.
    c, _ = play(smoke("Ana", 2), CreateAdvantage(by="Bo", aspect="Smoke", result=1, opposition=2))
    assert c.aspect("Smoke") == Aspect(name="Smoke", free_invokes=3, holder="Ana")
    assert c.rolling_sides == ("Ana",)  # Bo's failure forfeits Bo's roll (Core)


def test_a_failure_that_would_hand_the_creators_invokes_to_the_opposition_is_refused() -> None:
    # Ana holds 2 and fails on her own aspect: the 1 would go to Bo, and Bo becoming the
    # holder would move Ana's 2 to Bo. Refused; nothing changes.
    c = smoke("Ana", 2)
    with pytest.raises(RuleError, match="held by Ana"):
        apply(c, CreateAdvantage(by="Ana", aspect="Smoke", result=0, opposition=1))
    assert c.aspect("Smoke") == Aspect(name="Smoke", free_invokes=2, holder="Ana")


def test_a_success_by_the_other_side_is_still_refused_while_invokes_are_held() -> None:
    with pytest.raises(RuleError, match="held by Ana"):
        apply(smoke("Ana", 1), CreateAdvantage(by="Bo", aspect="Smoke", result=3, opposition=2))


def test_the_holder_adds_to_its_own_invokes() -> None:
    # Ana holds 1 and succeeds with style (5 vs 1, 4 shifts): 1 + 2 = 3, still Ana's.
    c, _ = play(smoke("Ana", 1), CreateAdvantage(by="Ana", aspect="Smoke", result=5, opposition=1))
    assert c.aspect("Smoke") == Aspect(name="Smoke", free_invokes=3, holder="Ana")


def test_once_the_invokes_are_used_the_other_side_may_gain_the_aspect() -> None:
    # Ana held 0 left: Bo's success (1 free invoke) makes Bo the holder.
    c, _ = play(smoke("Ana", 0), CreateAdvantage(by="Bo", aspect="Smoke", result=3, opposition=2))
    assert c.aspect("Smoke") == Aspect(name="Smoke", free_invokes=1, holder="Bo")


def test_cost_failure_on_your_own_side_gives_the_invoke_to_the_first_other_side() -> None:
    # Three sides: Ana, Bo, Cy. With "cost", Ana fails on a new aspect placed on Ana herself:
    # "on" names the creator's own side, so the invoke goes to the first other side, Bo.
    c = new_contest(
        [
            FateParticipant(name="Ana", side="Ana", skill=2),
            FateParticipant(name="Bo", side="Bo", skill=2),
            FateParticipant(name="Cy", side="Cy", skill=2),
        ],
        options=FateOptions(failed_advantage="cost"),
    )
    c, _ = play(c, CreateAdvantage(by="Ana", aspect="Dazzled", on="Ana", result=0, opposition=2))
    assert c.aspect("Dazzled") == Aspect(name="Dazzled", free_invokes=1, holder="Bo", owner="Ana")
    assert c.rolling_sides == ("Ana", "Bo", "Cy")  # cost: Ana keeps her roll
    # On Cy, the invoke goes to Cy's side.
    c, _ = play(c, CreateAdvantage(by="Ana", aspect="Glare", on="Cy", result=0, opposition=2))
    assert c.aspect("Glare") == Aspect(name="Glare", free_invokes=1, holder="Cy", owner="Cy")


SCENARIO: dict[str, Any] = {
    "system": "fate",
    "options": {"failed_advantage": "cost"},
    "participants": [{"name": "Ana", "skill": 2}, {"name": "Bo", "skill": 2}],
    "aspects": [{"name": "Smoke", "free_invokes": 2, "holder": "Ana"}],
    "exchanges": [],
}


def test_resolve_accepts_a_failure_that_adds_to_the_holders_invokes() -> None:
    data = {
        **SCENARIO,
        "exchanges": [
            {
                "advantages": [{"by": "Bo", "aspect": "Smoke", "result": 0, "opposition": 2}],
                "rolls": {"Ana": "+000", "Bo": "0000"},  # 3 vs 2: Ana, no twist
            }
        ],
    }
    out = resolve(data).to_json()
    assert out["exchanges"][0]["advantages"] == [
        {"by": "Bo", "aspect": "Smoke", "outcome": "fail", "free_invokes": 1}
    ]
    assert out["aspects"] == [{"name": "Smoke", "free_invokes": 3, "holder": "Ana", "boost": False}]


def test_resolve_refuses_a_failure_that_would_move_the_creators_invokes() -> None:
    data = {
        **SCENARIO,
        "exchanges": [
            {
                "advantages": [{"by": "Ana", "aspect": "Smoke", "result": 0, "opposition": 2}],
                "rolls": {"Ana": "0000", "Bo": "0000"},
            }
        ],
    }
    with pytest.raises(ScenarioError) as info:
        resolve(data)
    assert info.value.place == "exchanges[0].advantages[0]"
    assert "held by Ana" in info.value.problem


# -- 2. points owed for invokes are paid after the scene (rules §1.4.1) ---------------------


def temper() -> FateContest:
    """Ana (1 fate point) pays to invoke Bo's Temper, an aspect of Bo's: Bo is owed 1."""
    c = new_contest(
        [
            FateParticipant(name="Ana", side="Ana", skill=2, fate_points=1),
            FateParticipant(name="Bo", side="Bo", skill=0, fate_points=0),
        ],
        [Aspect(name="Bo's Temper", owner="Bo"), Aspect(name="Zed's Debt", owner="Zed")],
        FateOptions(victories_needed=1),
    )
    c, _ = play(c, RollDice(who="Ana", faces=ZERO), RollDice(who="Bo", faces=ZERO))
    c, _ = play(c, InvokeAspect(by="Ana", aspect="Bo's Temper"))
    return c


def ended(log: list[Event]) -> FateContestEnded:
    found = [e for e in log if isinstance(e, ContestEnded)]
    assert len(found) == 1 and isinstance(found[0], FateContestEnded)
    return found[0]


def test_an_attack_leaves_the_points_owed_the_scene_goes_on() -> None:
    c, log = play(temper(), DeclareAttack(by="Bo"), ResolveExchange())
    assert c.finished and c.ended_by == "attack"
    # Ana paid her one point; Bo gets nothing yet: the conflict is the same scene.
    assert c.fate_participant("Ana").fate_points == 0
    assert c.fate_participant("Bo").fate_points == 0
    assert dict(c.owed) == {"Bo": 1}
    end = ended(log)
    assert (dict(end.owed), end.scene_over) == ({"Bo": 1}, False)


def test_victories_end_the_scene_and_pay_the_owners_in_it() -> None:
    # Ana 2 + 0 + 2 (invoke) = 4 against Bo 0: Ana wins her one victory; the scene ends.
    c, log = play(temper(), ResolveExchange())
    assert c.finished and c.ended_by == "victories"
    assert c.fate_participant("Bo").fate_points == 1
    assert dict(c.owed) == {}
    end = ended(log)
    assert (dict(end.owed), end.scene_over) == ({"Bo": 1}, True)


def test_owners_outside_the_contest_are_recorded_in_the_end_event() -> None:
    c = new_contest(
        [
            FateParticipant(name="Ana", side="Ana", skill=2, fate_points=2),
            FateParticipant(name="Bo", side="Bo", skill=0),
        ],
        [Aspect(name="Zed's Debt", owner="Zed")],
    )
    c, _ = play(c, RollDice(who="Ana", faces=ZERO), RollDice(who="Bo", faces=ZERO))
    c, log = play(
        c, InvokeAspect(by="Ana", aspect="Zed's Debt"), DeclareAttack(by="Ana"), ResolveExchange()
    )
    assert (dict(ended(log).owed), ended(log).scene_over) == ({"Zed": 1}, False)


def test_the_end_event_is_saved_and_replayed_as_it_was() -> None:
    start = temper()
    c, log = play(start, DeclareAttack(by="Bo"), ResolveExchange())
    back = [decode(encode(e), Event) for e in log]
    assert back == log
    assert fold(start, back) == c


def test_a_saved_plain_end_event_still_pays_at_once() -> None:
    # Saves written before the points owed were recorded end with a plain ContestEnded:
    # replayed, they keep what they did then (the owners credited as the contest ended).
    c = fold(temper(), [ContestEnded(winner=None, ended_by="attack")])
    assert c.fate_participant("Bo").fate_points == 1 and dict(c.owed) == {}
