"""The codec: frozen dataclasses <-> JSON, for the saved log.

The values come from playing the shared scenarios (every rule system's contests, commands
and events) and from random campaigns; each must come back equal after a trip through
``json.dumps``/``json.loads``. Bad data is refused with ``CodecError``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.campaign.log import (
    ActionRecorded,
    ActionRedone,
    ActionUndone,
    Character,
    ContestStarted,
    Play,
    Played,
    StartContest,
)
from core.files.codec import CodecError, decode, encode
from core.model import Command, Contest, DiceRolled, Event, ExchangeEvent, RollDice
from core.rules import find_system
from core.rules.reading import Node, parse_json
from core.scenario import Resolution, load, read_start
from core.systems.fate.events import AspectInvoked, InvokeAspect
from core.systems.fate.state import FateContest, InvokeRecord
from tests.conftest import SCENARIOS
from tests.strategies import (
    CAMPAIGN_SYSTEMS,
    CampaignRun,
    campaign_runs,
    characters,
    fate_commands,
    fate_contests,
)

EXAMPLES = sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(".expected.json"))


@dataclass
class Playthrough:
    """A scenario played through, keeping every command and event on the way."""

    resolution: Resolution
    commands: list[Command]
    events: list[Event]


def play(path: Path) -> Playthrough:
    """As ``core.scenario.resolve`` does, but keeping the commands and all the events."""
    data = path.read_bytes()
    root = Node(parse_json(data))
    reader, contest = read_start(root)
    rules = find_system(contest.system)
    commands: list[Command] = []
    events: list[Event] = []
    state = [contest]
    node = root.get("exchanges")
    for ex in node.items() if node is not None else ():
        for _place, command in reader.exchange_steps(ex, lambda: state[0]):
            commands.append(command)
            for event in rules.decide(state[0], command):
                events.append(event)
                state[0] = rules.evolve(state[0], event)
    resolution = load(data)
    assert state[0] == resolution.contest  # the same play as the scenario module's
    return Playthrough(resolution, commands, events)


def through_json(value: Any, hint: Any) -> Any:
    """``value`` saved as JSON text and read back as ``hint``."""
    text = json.dumps(encode(value))
    return decode(json.loads(text), hint)


# The examples read once for the module (its fixture): one worker.
pytestmark = pytest.mark.xdist_group("codec")


@pytest.fixture(scope="module", params=EXAMPLES, ids=lambda p: p.stem)
def played(request: pytest.FixtureRequest) -> Playthrough:
    return play(request.param)


# -- round trips of the shared scenarios ----------------------------------------------------


def test_every_system_is_covered_by_the_examples() -> None:
    systems = {play(p).resolution.start.system for p in EXAMPLES}
    assert systems == {"fate", "heroquest", "forge"}


def test_start_and_final_contests_come_back_equal(played: Playthrough) -> None:
    res = played.resolution
    start = through_json(res.start, Contest)
    final = through_json(res.contest, Contest)
    assert start == res.start
    assert final == res.contest
    assert type(final) is type(res.contest)


def test_every_command_comes_back_equal(played: Playthrough) -> None:
    assert played.commands, "the scenario gave no commands"
    for command in played.commands:
        back = through_json(command, Command)
        assert back == command
        assert type(back) is type(command)


def test_every_event_comes_back_equal(played: Playthrough) -> None:
    assert played.events, "the scenario gave no events"
    for event in played.events:
        back = through_json(event, Event)
        assert back == event
        assert type(back) is type(event)


def test_exchanges_come_back_as_their_own_systems_exchange(played: Playthrough) -> None:
    res = played.resolution
    assert res.exchanges
    for exchange in res.exchanges:
        back = through_json(exchange, ExchangeEvent)
        assert back == exchange
        # The system's own package (HeroQuest's group extended exchanges are in its
        # group_play module, beside the rules; a FORGE round's steps in its beats module;
        # Fate's conflicts in its conflict_play module).
        assert type(back).__module__.startswith(f"core.systems.{res.start.system}.")


def test_a_scenario_as_campaign_entries_comes_back_equal(played: Playthrough) -> None:
    res = played.resolution
    entries = [
        ActionRecorded(
            action_id=1,
            command=StartContest(title="Example", contest=res.start, uses={"a": "b"}),
            events=(ContestStarted(contest_id="c1", title="Example", contest=res.start),),
            at="2024-01-01T00:00:00+00:00",
        ),
        ActionRecorded(
            action_id=2,
            command=Play(contest_id="c1", commands=tuple(played.commands)),
            events=tuple(Played(contest_id="c1", event=e) for e in played.events),
        ),
        ActionUndone(action_id=2),
        ActionRedone(action_id=2),
    ]
    for entry in entries:
        assert through_json(entry, Event) == entry


def test_tags_name_the_system_of_same_named_classes() -> None:
    tags = {
        encode(play(p).resolution.exchanges[0])["@"]
        for p in EXAMPLES
        if p.name.startswith(("fate-cynere", "heroquest-minor", "forge-seed"))
    }
    assert tags == {"fate.ExchangeResolved", "heroquest.ExchangeResolved", "forge.ExchangeResolved"}


def test_tuples_and_frozensets_are_json_lists() -> None:
    record = InvokeRecord(
        by="Cynere", side="Cynere", aspect="Mud", free=True, effect="reroll", faces=(1, 0, 0, -1)
    )
    data = encode(record)
    assert data["faces"] == [1, 0, 0, -1]
    assert data["@"] == "fate.InvokeRecord"
    contest = FateContest(participants=())
    assert encode(contest)["open"]["forfeited"] == []


# -- properties -----------------------------------------------------------------------------


@given(fate_contests())
def test_any_fate_contest_comes_back_equal(contest: FateContest) -> None:
    assert through_json(contest, Contest) == contest


@given(fate_contests().flatmap(fate_commands))
def test_any_fate_command_comes_back_equal(command: Command) -> None:
    assert through_json(command, Command) == command


@given(characters())
def test_any_character_comes_back_equal(character: Character) -> None:
    assert through_json(character, Character) == character


@given(st.sampled_from(CAMPAIGN_SYSTEMS).flatmap(campaign_runs))
def test_every_log_entry_of_a_random_campaign_comes_back_equal(run: CampaignRun) -> None:
    run.report()
    for entry in run.entries:
        assert through_json(entry, Event) == entry


# -- refusals -------------------------------------------------------------------------------


def rolled() -> dict[str, Any]:
    data = encode(DiceRolled(who="Cynere", faces=(1, 0, 0, -1)))
    assert isinstance(data, dict)
    return data


def test_a_valid_object_decodes() -> None:
    assert decode(rolled(), Event) == DiceRolled(who="Cynere", faces=(1, 0, 0, -1))


@pytest.mark.parametrize(
    "tag",
    ["fate.NoSuchEvent", "model.Dicerolled", "", "DiceRolled"],
)
def test_an_unknown_tag_is_refused(tag: str) -> None:
    with pytest.raises(CodecError, match="is not a kind of Event"):
        decode({**rolled(), "@": tag}, Event)


def test_a_tag_of_another_kind_of_value_is_refused() -> None:
    with pytest.raises(CodecError, match="not a kind of Event"):
        decode(encode(Character(name="Cynere")), Event)
    with pytest.raises(CodecError, match="not a kind of Command"):
        decode(rolled(), Command)


@pytest.mark.parametrize("tag", [["model.DiceRolled"], 7, None, {"x": 1}])
def test_a_tag_that_is_not_a_string_is_refused(tag: object) -> None:
    with pytest.raises(CodecError):
        decode({**rolled(), "@": tag}, Event)


def test_an_object_without_a_tag_is_refused() -> None:
    data = rolled()
    del data["@"]
    with pytest.raises(CodecError, match="expected a tagged Event"):
        decode(data, Event)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("who", 5),  # a number for a name
        ("who", None),
        ("faces", "+00-"),  # a string for a tuple
        ("faces", [1, 0, "0", -1]),
        ("faces", [True, 0, 0, 0]),  # a bool is not an int here
        ("faces", {"0": 1}),
        ("source", ["table"]),
    ],
)
def test_a_value_of_the_wrong_type_is_refused(field: str, value: object) -> None:
    with pytest.raises(CodecError):
        decode({**rolled(), field: value}, Event)


def test_a_value_not_in_a_literal_is_refused() -> None:
    data = encode(InvokeAspect(by="Cynere", aspect="Mud"))
    data["effect"] = "+3"
    with pytest.raises(CodecError, match=r"'\+3' is not one of"):
        decode(data, Command)


def test_a_pair_with_three_items_is_refused() -> None:
    contest = encode(FateContest(participants=()))
    contest["open"]["paid"] = [["Cynere", "Mud", "extra"]]
    with pytest.raises(CodecError, match="expected 2 items, got 3"):
        decode(contest, Contest)


def test_an_unknown_field_is_refused_by_name() -> None:
    with pytest.raises(CodecError, match="DiceRolled has no field 'loaded'"):
        decode({**rolled(), "loaded": True}, Event)


def test_a_missing_field_is_refused() -> None:
    data = rolled()
    del data["faces"]
    with pytest.raises(CodecError, match="DiceRolled"):
        decode(data, Event)


def test_a_nested_error_is_a_codec_error_too() -> None:
    data = encode(
        AspectInvoked(
            invoke=InvokeRecord(by="C", side="C", aspect="A", free=False, effect="+2"),
            paid_by="C",
            paid_to=None,
            bonus=2,
            boost_used=False,
        )
    )
    data["invoke"]["free"] = "no"
    with pytest.raises(CodecError):
        decode(data, Event)


def test_a_list_where_an_object_belongs_is_refused() -> None:
    with pytest.raises(CodecError):
        decode([1, 2], Event)
    with pytest.raises(CodecError):
        decode({**encode(Character(name="A")), "ratings": [1]}, Character)


def test_a_value_that_cannot_be_saved_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="cannot save a object"):
        encode(RollDice(who="C", faces=(object(),)))  # type: ignore[arg-type]
