"""The campaign log: GM actions, and undo/redo worked from the design.

Undo takes back exactly one GM action (a whole ``Play``); redo puts back the recorded
events as they were (the dice are never rolled again); both are entries of a log that only
grows. Expected values are worked from Fate Core's contest rules (rules.md §1).
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from core.campaign.actions import Campaign
from core.campaign.log import (
    ActionRecorded,
    ActionUndone,
    AddCharacter,
    Character,
    Entry,
    Play,
    Redo,
    StartContest,
    Undo,
    UpdateCharacter,
)
from core.errors import OutOfTurn, RuleError, UnknownName
from core.model import Command, ResolveExchange, RollDice
from core.systems.fate.character import FateCharacter
from core.systems.fate.events import ExchangeResolved, InvokeAspect
from core.systems.fate.rules import FateRules, NoFatePoints
from core.systems.fate.state import Aspect, FateContest, FateParticipant, new_contest, scene
from tests.strategies import CAMPAIGN_SYSTEMS, CampaignRun, campaign_commands, campaign_runs

# Four Fate dice as faces, named by their sum.
MINUS_3 = (-1, -1, -1, 0)
MINUS_1 = (-1, 0, 0, 0)
ZERO = (0, 0, 0, 0)
PLUS_1 = (1, 0, 0, 0)

ZIRD = "I've Got Zird's Back"
TWIST = "Magical Distortions"


def seed_contest() -> FateContest:
    """The SRD's contest: Cynere (skill 4, 3 fate points) against Teran (skill 3)."""
    return new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4, fate_points=3),
            FateParticipant(name="Teran", side="Teran", skill=3, fate_points=0),
        ],
        [Aspect(name=ZIRD, owner="Cynere")],
    )


def act(campaign: Campaign, command: Command) -> Entry:
    """Decide and apply one GM action, as the bus does (without the store)."""
    entry = campaign.decide(command)
    campaign.apply(entry)
    return entry


def exchange(
    cynere: tuple[int, ...],
    teran: tuple[int, ...],
    *invokes: Command,
    twist: str | None = None,
) -> Play:
    """One whole exchange of contest c1 as one GM action."""
    return Play(
        contest_id="c1",
        commands=(
            RollDice(who="Cynere", faces=cynere),
            RollDice(who="Teran", faces=teran),
            *invokes,
            ResolveExchange(twist=twist),
        ),
    )


FOURTH = exchange(
    ZERO,
    PLUS_1,
    InvokeAspect(by="Cynere", aspect=ZIRD),
    InvokeAspect(by="Cynere", aspect=TWIST),
)


def started() -> Campaign:
    campaign = Campaign(name="Seed", system="fate")
    act(campaign, StartContest(title="The race", contest=seed_contest()))
    return campaign


def snapshot(campaign: Campaign) -> Any:
    """Everything undo and redo may change, as immutable values (roster order included)."""
    return (
        tuple(campaign.roster.items()),
        tuple(
            (cid, r.title, r.start, r.state, tuple(r.uses.items()), tuple(r.exchanges))
            for cid, r in campaign.contests.items()
        ),
        tuple(campaign.done),
        tuple(campaign.undone),
    )


def state(campaign: Campaign) -> FateContest:
    contest = campaign.contest("c1").state
    assert isinstance(contest, FateContest)
    return contest


def fate_points(contest: FateContest) -> dict[str, int]:
    return {p.name: p.fate_points for p in contest.participants}


# -- the seed contest -----------------------------------------------------------------------


def test_seed_contest_played_as_four_actions_ends_with_cynere_winning_4_to_1() -> None:
    campaign = started()
    act(campaign, exchange(MINUS_3, ZERO))  # 4-3=1 vs 3+0=3: Teran by 2, one victory
    act(campaign, exchange(PLUS_1, MINUS_1))  # 4+1=5 vs 3-1=2: Cynere by 3, with style
    act(campaign, exchange(MINUS_1, ZERO, twist=TWIST))  # 3 vs 3: a tie, a twist
    act(campaign, FOURTH)  # 4+0+2+2=8 vs 3+1=4: Cynere by 4, with style

    final = state(campaign)
    assert final.finished
    assert final.winner == "Cynere"
    assert final.ended_by == "victories"
    assert final.victories == {"Cynere": 4, "Teran": 1}
    assert fate_points(final) == {"Cynere": 1, "Teran": 0}  # 3, less two paid invokes
    assert [a.name for a in final.aspects] == [ZIRD, TWIST]

    exchanges = campaign.contest("c1").exchanges
    assert all(isinstance(e, ExchangeResolved) for e in exchanges)
    resolved = [e for e in exchanges if isinstance(e, ExchangeResolved)]
    assert [e.n for e in resolved] == [1, 2, 3, 4]
    assert [dict(e.totals) for e in resolved] == [
        {"Cynere": 1, "Teran": 3},
        {"Cynere": 5, "Teran": 2},
        {"Cynere": 3, "Teran": 3},
        {"Cynere": 8, "Teran": 4},
    ]
    assert [e.winner for e in resolved] == ["Teran", "Cynere", None, "Cynere"]
    assert [e.victories for e in resolved] == [1, 2, 0, 2]
    assert [e.twist for e in resolved] == [None, None, TWIST, None]
    assert [dict(e.score) for e in resolved][-1] == {"Cynere": 4, "Teran": 1}


# -- undo -----------------------------------------------------------------------------------


def test_undo_takes_back_a_whole_play_and_restores_the_state_before_it() -> None:
    campaign = started()
    act(campaign, exchange(MINUS_3, ZERO))
    before = snapshot(campaign)
    after_one = state(campaign)
    act(campaign, exchange(PLUS_1, MINUS_1))  # three commands, one action
    assert state(campaign).victories == {"Cynere": 2, "Teran": 1}

    entry = act(campaign, Undo())

    assert isinstance(entry, ActionUndone)
    assert snapshot(campaign)[:3] == before[:3]  # roster, contests, actions in force
    assert state(campaign) == after_one
    assert state(campaign).victories == {"Cynere": 0, "Teran": 1}
    assert state(campaign).n == 1
    assert len(campaign.contest("c1").exchanges) == 1


def test_undo_of_the_paid_invokes_gives_the_fate_points_back() -> None:
    campaign = started()
    for action in (
        exchange(MINUS_3, ZERO),
        exchange(PLUS_1, MINUS_1),
        exchange(MINUS_1, ZERO, twist=TWIST),
    ):
        act(campaign, action)
    before = state(campaign)
    act(campaign, FOURTH)
    assert fate_points(state(campaign))["Cynere"] == 1

    act(campaign, Undo())

    assert state(campaign) == before
    assert fate_points(state(campaign)) == {"Cynere": 3, "Teran": 0}
    assert not state(campaign).finished
    assert state(campaign).winner is None
    assert state(campaign).victories == {"Cynere": 2, "Teran": 1}


def test_undo_in_the_middle_of_an_exchange_takes_back_only_the_last_roll() -> None:
    campaign = started()
    act(campaign, Play(contest_id="c1", commands=(RollDice(who="Cynere", faces=PLUS_1),)))
    act(campaign, Play(contest_id="c1", commands=(RollDice(who="Teran", faces=ZERO),)))

    act(campaign, Undo())

    assert dict(state(campaign).open.dice) == {"Cynere": PLUS_1}


def test_undo_with_nothing_to_undo_is_refused() -> None:
    campaign = Campaign(name="Empty", system="fate")
    with pytest.raises(RuleError, match="nothing to undo"):
        campaign.decide(Undo())


def test_undo_after_everything_was_undone_is_refused() -> None:
    campaign = started()
    act(campaign, exchange(MINUS_3, ZERO))
    act(campaign, Undo())
    act(campaign, Undo())
    with pytest.raises(RuleError, match="nothing to undo"):
        campaign.decide(Undo())


def test_redo_with_nothing_undone_is_refused() -> None:
    campaign = started()
    with pytest.raises(RuleError, match="nothing to redo"):
        campaign.decide(Redo())


def test_undo_of_a_start_removes_the_contest() -> None:
    campaign = started()
    act(campaign, Undo())
    assert campaign.contests == {}
    assert campaign.latest_contest is None
    with pytest.raises(UnknownName):
        campaign.decide(exchange(ZERO, ZERO))


def test_contest_ids_are_never_reused_after_an_undone_start() -> None:
    campaign = started()
    act(campaign, Undo())
    act(campaign, StartContest(title="Again", contest=seed_contest()))
    assert list(campaign.contests) == ["c2"]
    assert campaign.contest("c2").title == "Again"


def test_redo_of_a_start_brings_the_same_contest_back() -> None:
    campaign = started()
    before = campaign.contest("c1").state  # the seed's, as a scene: pool 0, both NPCs
    assert before == scene(seed_contest(), 0, frozenset({"Cynere", "Teran"}))
    act(campaign, Undo())
    act(campaign, Redo())
    assert list(campaign.contests) == ["c1"]
    assert campaign.contest("c1").state == before
    assert campaign.contest("c1").title == "The race"


# -- redo -----------------------------------------------------------------------------------


def test_redo_restores_the_state_after_the_action_with_the_same_dice() -> None:
    campaign = started()
    act(campaign, exchange(MINUS_3, ZERO))
    act(campaign, exchange(PLUS_1, MINUS_1))
    after = snapshot(campaign)
    act(campaign, Undo())

    act(campaign, Redo())

    assert snapshot(campaign) == after
    second = campaign.contest("c1").exchanges[1]
    assert isinstance(second, ExchangeResolved)
    assert dict(second.dice) == {"Cynere": PLUS_1, "Teran": MINUS_1}


def test_redo_replays_the_recorded_events_without_asking_the_rules_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    campaign = started()
    act(campaign, exchange(PLUS_1, MINUS_1))
    after = snapshot(campaign)
    act(campaign, Undo())

    def refuse(*_: object) -> None:
        raise AssertionError("redo decided the action again")

    monkeypatch.setattr(FateRules, "decide", refuse)
    act(campaign, Redo())

    assert snapshot(campaign) == after


def test_a_new_action_clears_the_redo_stack() -> None:
    campaign = started()
    act(campaign, exchange(MINUS_3, ZERO))
    act(campaign, Undo())
    assert campaign.undone != []

    act(campaign, exchange(PLUS_1, MINUS_1))

    assert campaign.undone == []
    with pytest.raises(RuleError, match="nothing to redo"):
        campaign.decide(Redo())


def test_undo_twice_then_redo_twice_walks_back_and_forth() -> None:
    campaign = started()
    states = [state(campaign)]
    for action in (exchange(MINUS_3, ZERO), exchange(PLUS_1, MINUS_1)):
        act(campaign, action)
        states.append(state(campaign))

    act(campaign, Undo())
    assert state(campaign) == states[1]
    act(campaign, Undo())
    assert state(campaign) == states[0]
    act(campaign, Redo())
    assert state(campaign) == states[1]
    act(campaign, Redo())
    assert state(campaign) == states[2]


def test_undo_and_redo_are_entries_of_a_log_that_only_grows() -> None:
    campaign = started()  # 1 entry
    act(campaign, exchange(MINUS_3, ZERO))  # 2
    act(campaign, Undo())  # 3
    act(campaign, Redo())  # 4
    assert campaign.entries == 4
    assert sorted(campaign.actions) == [1, 2]


# -- the roster -----------------------------------------------------------------------------

CYNERE = Character(name="Cynere", ratings={"Athletics": 4}, sheet=FateCharacter(fate_points=3))
TERAN = Character(name="Teran", kind="npc", ratings={"Lore": 3})


def test_undo_and_redo_of_adding_a_character() -> None:
    campaign = Campaign(name="Roster", system="fate")
    act(campaign, AddCharacter(character=CYNERE))
    act(campaign, AddCharacter(character=TERAN))

    act(campaign, Undo())
    assert campaign.roster == {"Cynere": CYNERE}
    act(campaign, Redo())
    assert list(campaign.roster.items()) == [("Cynere", CYNERE), ("Teran", TERAN)]


def test_undo_and_redo_of_a_rename_keep_the_roster_order() -> None:
    campaign = Campaign(name="Roster", system="fate")
    act(campaign, AddCharacter(character=CYNERE))
    act(campaign, AddCharacter(character=TERAN))
    bold = Character(
        name="Cynere the Bold", ratings={"Athletics": 5}, sheet=FateCharacter(fate_points=2)
    )

    act(campaign, UpdateCharacter(name="Cynere", character=bold))
    assert list(campaign.roster.items()) == [("Cynere the Bold", bold), ("Teran", TERAN)]

    act(campaign, Undo())
    assert list(campaign.roster.items()) == [("Cynere", CYNERE), ("Teran", TERAN)]

    act(campaign, Redo())
    assert list(campaign.roster.items()) == [("Cynere the Bold", bold), ("Teran", TERAN)]


def test_a_rename_onto_another_character_is_refused() -> None:
    campaign = Campaign(name="Roster", system="fate")
    act(campaign, AddCharacter(character=CYNERE))
    act(campaign, AddCharacter(character=TERAN))
    with pytest.raises(RuleError, match="already on the roster"):
        campaign.decide(UpdateCharacter(name="Cynere", character=TERAN))


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_character_needs_a_name_when_added_or_renamed(blank: str) -> None:
    campaign = Campaign(name="Roster", system="fate")
    with pytest.raises(RuleError, match="needs a name"):
        campaign.decide(AddCharacter(character=Character(name=blank)))
    act(campaign, AddCharacter(character=CYNERE))
    with pytest.raises(RuleError, match="needs a name"):
        campaign.decide(UpdateCharacter(name="Cynere", character=Character(name=blank)))


# -- refusals change nothing ----------------------------------------------------------------


def test_a_refused_play_changes_nothing_even_when_its_first_commands_were_legal() -> None:
    campaign = started()
    act(campaign, exchange(MINUS_3, ZERO))
    before = snapshot(campaign)
    entries = campaign.entries
    # Both roll (legal), then Teran, with no fate points, pays to invoke (refused).
    action = Play(
        contest_id="c1",
        commands=(
            RollDice(who="Cynere", faces=ZERO),
            RollDice(who="Teran", faces=ZERO),
            InvokeAspect(by="Teran", aspect=ZIRD),
        ),
    )
    with pytest.raises(NoFatePoints):
        campaign.decide(action)
    assert snapshot(campaign) == before
    assert campaign.entries == entries


def test_a_play_out_of_turn_is_refused_and_changes_nothing() -> None:
    campaign = started()
    before = snapshot(campaign)
    with pytest.raises(OutOfTurn):
        campaign.decide(Play(contest_id="c1", commands=(ResolveExchange(),)))
    assert snapshot(campaign) == before


def test_a_contest_of_another_system_is_refused() -> None:
    campaign = Campaign(name="HQ", system="heroquest")
    with pytest.raises(RuleError, match="heroquest"):
        campaign.decide(StartContest(title="Wrong", contest=seed_contest()))
    assert campaign.contests == {}


def test_an_undo_entry_that_is_not_for_the_last_action_is_refused_and_changes_nothing() -> None:
    campaign = started()
    act(campaign, exchange(MINUS_3, ZERO))
    before = snapshot(campaign)
    entries = campaign.entries
    with pytest.raises(RuleError, match="not the last one in force"):
        campaign.apply(ActionUndone(action_id=1))
    assert snapshot(campaign) == before
    assert campaign.entries == entries


def test_an_event_that_is_not_a_log_entry_is_refused() -> None:
    campaign = started()
    entries = campaign.entries
    with pytest.raises(TypeError):
        campaign.apply(RollDice(who="Cynere", faces=ZERO))  # type: ignore[arg-type]
    assert campaign.entries == entries


# -- properties over random runs ------------------------------------------------------------

# Each property runs for every system (parametrized, so none is left to chance), as many
# times as the Hypothesis profile says (tests/conftest.py: 100 in CI and a plain pytest).
# ``run.report()`` counts in the statistics the runs that resolved an exchange, undid an
# action and finished a contest (``--hypothesis-show-statistics``).
each_system = pytest.mark.parametrize("system", CAMPAIGN_SYSTEMS)


def replayed(run: CampaignRun) -> Campaign:
    fresh = Campaign(name=run.campaign.name, system=run.campaign.system)
    for entry in run.entries:
        fresh.apply(entry)
    return fresh


@each_system
@given(data=st.data())
def test_replaying_the_log_into_a_fresh_campaign_gives_an_equal_campaign(
    system: str, data: st.DataObject
) -> None:
    run: CampaignRun = data.draw(campaign_runs(system))
    run.report()
    fresh = replayed(run)
    assert snapshot(fresh) == snapshot(run.campaign)
    assert fresh == run.campaign
    assert fresh.entries == len(run.entries)


@each_system
@given(data=st.data())
def test_a_campaign_stands_as_if_only_the_actions_in_force_had_been_played(
    system: str, data: st.DataObject
) -> None:
    """Undo leaves what the actions still in force make, however they were interleaved."""
    run: CampaignRun = data.draw(campaign_runs(system))
    run.report()
    live = run.campaign
    model = Campaign(name=live.name, system=live.system)
    for action_id in live.done:
        model.apply(live.actions[action_id])
    assert snapshot(model)[:3] == snapshot(live)[:3]
    for cid, record in live.contests.items():
        assert model.contests[cid].actions == record.actions


@each_system
@given(data=st.data())
def test_undo_then_redo_is_the_identity(system: str, data: st.DataObject) -> None:
    run: CampaignRun = data.draw(campaign_runs(system))
    run.report()
    campaign = run.campaign
    if not campaign.done:
        event("undo takes back: nothing (refused)")
        with pytest.raises(RuleError, match="nothing to undo"):
            campaign.decide(Undo())
        return
    last = campaign.actions[campaign.done[-1]].command
    event(f"undo takes back: {type(last).__name__}")
    before = snapshot(campaign)
    undone = act(campaign, Undo())
    assert isinstance(undone, ActionUndone)
    assert undone.action_id == before[2][-1]
    # Undone, the campaign stands as the actions still in force alone make it.
    model = Campaign(name=campaign.name, system=campaign.system)
    for action_id in campaign.done:
        model.apply(campaign.actions[action_id])
    assert snapshot(campaign)[:2] == snapshot(model)[:2]
    act(campaign, Redo())
    assert snapshot(campaign) == before


@each_system
@given(data=st.data())
def test_every_recorded_action_is_either_in_force_or_undone_or_superseded(
    system: str, data: st.DataObject
) -> None:
    run: CampaignRun = data.draw(campaign_runs(system))
    run.report()
    campaign = run.campaign
    recorded = [e.action_id for e in run.entries if isinstance(e, ActionRecorded)]
    assert sorted(campaign.actions) == recorded  # ids grow, never reused
    assert not set(campaign.done) & set(campaign.undone)
    assert set(campaign.done) | set(campaign.undone) <= set(recorded)


@each_system
@given(data=st.data())
def test_deciding_an_action_changes_nothing_whether_it_is_allowed_or_not(
    system: str, data: st.DataObject
) -> None:
    run: CampaignRun = data.draw(campaign_runs(system))
    run.report()
    campaign = run.campaign
    before = snapshot(campaign)
    entries = campaign.entries
    command = data.draw(campaign_commands(campaign))
    with contextlib.suppress(RuleError):
        campaign.decide(command)
    assert snapshot(campaign) == before
    assert campaign.entries == entries


def test_settings_change_as_actions_and_undo_puts_the_old_value_back() -> None:
    from core.campaign.log import ChangeSettings

    campaign = Campaign(name="Settings", system="fate", settings={"sessions": 4})
    for command in (
        ChangeSettings(changes={"players_see_odds": True, "sessions": 5}),
        ChangeSettings(changes={"players_see_odds": None}),
    ):
        campaign.apply(campaign.decide(command))
    assert campaign.settings == {"sessions": 5}
    campaign.apply(campaign.decide(Undo()))
    assert campaign.settings == {"sessions": 5, "players_see_odds": True}
    campaign.apply(campaign.decide(Undo()))
    assert campaign.settings == {"sessions": 4}
    campaign.apply(campaign.decide(Redo()))
    assert campaign.settings == {"sessions": 5, "players_see_odds": True}
