"""One contract, every rule system (Harlequin's plug-in suite is the model): the three
built in and the coin race (tests/plugins/coin_race/), installed for these tests as any
plug-in is, through its entry point."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from core.campaign.roster_file import RosterFormat, roster_format
from core.campaign.sheet import SystemSheet, find_sheet
from core.engine import apply, decide, fold
from core.errors import RuleError
from core.files.codec import decode, encode
from core.model import Command, Contest, Event, ExchangeEvent
from core.rules import BUILT_IN, SYSTEM_NAMES, Plugin, find_odds, find_reader, find_system
from core.rules.base import RuleSystem, SystemOdds
from core.rules.reading import SystemReader
from core.scenario import Resolution, load
from tests.helpers import SCENARIOS, contains
from tests.plugins.installed import installed
from tests.strategies import rule_commands

EXAMPLES = sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(".expected.json"))
PLUGINS = [*BUILT_IN, "coin"]  # every installed plug-in: the built in, and the coin race

# Ann against Bob, first to 2. Exchange 1: Ann alone heads, she scores (1-0). Exchange 2:
# both heads, a tie (1-0). Exchange 3: Ann alone heads again: 2-0, she has reached 2.
COIN_RACE = {
    "system": "coin",
    "options": {"target": 2},
    "participants": [{"name": "Ann"}, {"name": "Bob"}],
    "exchanges": [
        {"flips": {"Ann": "heads", "Bob": "tails"}},
        {"flips": {"Ann": "heads", "Bob": "heads"}},
        {"flips": {"Ann": "heads", "Bob": "tails"}},
    ],
}
COIN_EXPECTED = {
    "finished": True,
    "winner": "Ann",
    "score": {"Ann": 2, "Bob": 0},
    "exchanges": [
        {"n": 1, "winner": "Ann", "score": {"Ann": 1, "Bob": 0}},
        {"n": 2, "winner": None, "score": {"Ann": 1, "Bob": 0}},
        {"n": 3, "winner": "Ann", "score": {"Ann": 2, "Bob": 0}},
    ],
}
# Every example: each scenario file with the outcome its .expected.json works out by
# hand, and the coin race's above.
CASES = [
    *((p.stem, p.read_bytes(), p.with_suffix(".expected.json")) for p in EXAMPLES),
    ("coin-race", json.dumps(COIN_RACE).encode(), COIN_EXPECTED),
]


@pytest.fixture(autouse=True, scope="module")
def coin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The coin race installed for these tests (and uninstalled after them)."""
    with installed(tmp_path_factory.mktemp("site")):
        yield


def expected_of(expected: Path | dict[str, object]) -> object:
    return json.loads(expected.read_text()) if isinstance(expected, Path) else expected


@pytest.mark.parametrize("name", PLUGINS)
def test_each_system_says_what_it_rolls_and_is_found_by_name(name: str) -> None:
    rules = find_system(name)
    assert rules.name == name
    dice = {"fate": "4dF", "heroquest": "d20", "forge": "d100", "coin": "d2"}[name]
    assert rules.dice.value == dice


@pytest.mark.parametrize("name", PLUGINS)
def test_each_part_of_each_plugin_is_of_its_contract_class(name: str) -> None:
    """What ``mypy --strict`` checks of a plug-in's classes holds of what it installed:
    each part it names is an instance of the contract's base class."""
    from tui.systems import SystemView, view

    assert name in SYSTEM_NAMES
    assert isinstance(find_system(name), RuleSystem)
    assert isinstance(find_odds(name), SystemOdds)
    assert isinstance(find_reader(name), SystemReader)
    assert isinstance(find_sheet(name), SystemSheet)
    assert isinstance(view(name), SystemView)
    assert isinstance(roster_format(name), RosterFormat)  # its own, or its sheet type's


def test_a_part_that_is_not_of_its_contract_class_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plug-in naming a module where its sheet object should be (the old contract):
    a ``RuleError`` naming the part, not an ``AttributeError`` somewhere later."""
    import core.rules

    plugin = core.rules.find_plugin("coin")
    wrong = Plugin(**{**{f: getattr(plugin, f) for f in plugin.__slots__}, "sheet": "json"})
    monkeypatch.setitem(core.rules.BUILT_IN, "coin", wrong)
    with pytest.raises(RuleError, match="the rule system part json is not a SystemSheet"):
        find_sheet("coin")


def test_an_unknown_system_is_a_rule_error() -> None:
    with pytest.raises(RuleError, match='no rule system "gurps"'):
        find_system("gurps")


@pytest.mark.parametrize(("name", "scenario", "expected"), CASES, ids=[c[0] for c in CASES])
def test_a_contests_saved_events_alone_replay_to_the_outcome_worked_by_hand(
    name: str, scenario: bytes, expected: Path | dict[str, object]
) -> None:
    """What opening a saved campaign does: the events, written as JSON and read back,
    folded from the start without a single command. The result must be the outcome the
    scenario's .expected.json works out from the rules, not merely what ``apply`` made."""
    resolution = load(scenario)
    state, events = resolution.start, []
    for commands in resolution.actions:
        for command in commands:
            state, new = apply(state, command)
            events.extend(new)
    saved = json.loads(json.dumps(encode(events)))
    replayed = fold(resolution.start, decode(saved, list[Event]))
    assert replayed == state == resolution.contest
    exchanges = tuple(e for e in events if isinstance(e, ExchangeEvent))
    shown = Resolution(start=resolution.start, contest=replayed, exchanges=exchanges).to_json()
    assert contains(expected_of(expected), shown) is None


@pytest.mark.parametrize("name", PLUGINS)
def test_a_command_no_system_knows_is_refused(name: str) -> None:
    start = load(next(c[1] for c in CASES if c[0].startswith(name))).start
    with pytest.raises(RuleError):
        find_system(name).decide(start, Command())  # a bare command, of no system


def states_of(scenario: Path) -> list[Contest]:
    """Every state a scenario passes through, its start and end included."""
    resolution = load(scenario.read_bytes())
    states = [resolution.start]
    for commands in resolution.actions:
        for command in commands:
            states.append(apply(states[-1], command)[0])
    return states


STATES = [state for scenario in EXAMPLES for state in states_of(scenario)]


@given(state=st.sampled_from(STATES), data=st.data())
def test_deciding_never_changes_the_contest_it_is_given(
    state: Contest, data: st.DataObject
) -> None:
    """A refused command changes nothing, and neither does deciding an allowed one:
    ``decide`` only reads. The contests are frozen, but their maps (dice rolled, victories,
    modifiers) are plain dicts inside, which a careless ``decide`` could write to before
    it refuses. A deep copy taken before is the witness."""
    before = copy.deepcopy(state)
    commands = data.draw(st.lists(rule_commands(state), min_size=1, max_size=4))
    for command in commands:
        try:
            decide(state, command)
        except RuleError:
            event("a command was refused")
        else:
            event("a command was allowed")
        assert state == before, command


@pytest.mark.parametrize(("name", "scenario", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_final_json_is_plain_json(
    name: str, scenario: bytes, expected: Path | dict[str, object]
) -> None:
    """Lists, not tuples; string keys; nothing JSON would change on the way back."""
    contest = load(scenario).contest
    final = find_system(contest.system).final_json(contest)
    assert json.loads(json.dumps(final)) == final
