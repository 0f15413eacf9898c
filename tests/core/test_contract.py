"""One contract, every rule system (Harlequin's plug-in suite is the model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.engine import apply, fold
from core.errors import RuleError
from core.model import Command
from core.rules import SYSTEM_NAMES, find_system
from core.scenario import load
from tests.conftest import SCENARIOS

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
def test_folding_a_contests_events_again_gives_the_same_state(scenario: Path) -> None:
    resolution = load(scenario.read_bytes())
    state, events = resolution.start, []
    for commands in resolution.actions:
        for command in commands:
            state, new = apply(state, command)
            events.extend(new)
    assert state == resolution.contest
    assert fold(resolution.start, events) == resolution.contest


@pytest.mark.parametrize("scenario", EXAMPLES, ids=lambda p: p.stem)
def test_a_command_the_rules_refuse_changes_nothing(scenario: Path) -> None:
    resolution = load(scenario.read_bytes())
    rules = find_system(resolution.contest.system)
    before = resolution.contest
    with pytest.raises(RuleError):
        rules.decide(before, Command())  # no system knows a bare command
    assert resolution.contest == before
    assert json.dumps(rules.final_json(before))  # the output is JSON all the way down
