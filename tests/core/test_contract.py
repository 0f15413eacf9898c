"""One contract, every rule system (Harlequin's plug-in suite is the model)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from core.codec import decode, encode
from core.engine import apply, decide, fold
from core.errors import RuleError
from core.model import Command, Contest, Event, ExchangeEvent
from core.rules import SYSTEM_NAMES, find_system
from core.scenario import Resolution, load
from tests.helpers import SCENARIOS, contains
from tests.strategies import rule_commands

EXAMPLES = sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("name", SYSTEM_NAMES)
def test_each_system_says_what_it_rolls_and_is_found_by_name(name: str) -> None:
    rules = find_system(name)
    assert rules.name == name
    assert rules.dice.value in {"fate": "4dF", "heroquest": "d20", "forge": "d100"}[name]


def test_an_unknown_system_is_a_rule_error() -> None:
    with pytest.raises(RuleError, match='no rule system "gurps"'):
        find_system("gurps")


@pytest.mark.parametrize("scenario", EXAMPLES, ids=lambda p: p.stem)
def test_a_contests_saved_events_alone_replay_to_the_outcome_worked_by_hand(
    scenario: Path,
) -> None:
    """What opening a saved campaign does: the events, written as JSON and read back,
    folded from the start without a single command. The result must be the outcome the
    scenario's .expected.json works out from the rules, not merely what ``apply`` made."""
    resolution = load(scenario.read_bytes())
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
    expected = json.loads(scenario.with_suffix(".expected.json").read_text())
    assert contains(expected, shown) is None


@pytest.mark.parametrize("name", SYSTEM_NAMES)
def test_a_command_no_system_knows_is_refused(name: str) -> None:
    start = load(next(p for p in EXAMPLES if p.name.startswith(name)).read_bytes()).start
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


@pytest.mark.parametrize("scenario", EXAMPLES, ids=lambda p: p.stem)
def test_the_final_json_is_plain_json(scenario: Path) -> None:
    """Lists, not tuples; string keys; nothing JSON would change on the way back."""
    contest = load(scenario.read_bytes()).contest
    final = find_system(contest.system).final_json(contest)
    assert json.loads(json.dumps(final)) == final
