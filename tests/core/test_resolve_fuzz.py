"""Fuzzing ``tussle resolve``: broken scenarios never crash it.

Every input either resolves (exit 0, JSON on stdout) or exits 2 with exactly one line,
``PLACE: PROBLEM``, and nothing on stdout. Mutations that are certainly invalid (an
unknown key, a truncated file) must exit 2 and name the right place.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import SCENARIOS
from tests.helpers import tussle_command
from tests.strategies import examples, json_values, paths, place_of
from tui.cli import main

EXAMPLES = [
    json.loads(p.read_text())
    for p in sorted(SCENARIOS.glob("*.json"))
    if not p.name.endswith(".expected.json")
]
# (and a conflict participant's skills: a map keyed by skill names)
NAME_MAPS = {"rolls", "modifiers", "hero_points", "aims", "skills"}
# A place is keys and indexes, and a key may be any string (":" included): the line is
# "PLACE: PROBLEM", one line, ending in a newline.
PLACE_LINE = re.compile(r"^(\(json\)|\(file\)|\(root\)|\S[^\n]*?): \S[^\n]*\n$")


def run(data: bytes, tmp: Path) -> tuple[int, str, str]:
    scenario = tmp / "scenario.json"
    scenario.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["resolve", str(scenario)])
    return code, out.getvalue(), err.getvalue()


def check_outcome(code: int, out: str, err: str) -> None:
    assert code in (0, 2), err
    if code == 0:
        assert err == ""
        assert isinstance(json.loads(out), dict)
    else:
        assert out == ""
        assert PLACE_LINE.match(err), err


def set_at(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


@st.composite
def mutated(draw: st.DrawFn) -> tuple[Any, str]:
    """An example with one random change: a value replaced, a key removed or renamed,
    an item dropped or added. Returns the data and the mutation's kind."""
    data = copy.deepcopy(draw(st.sampled_from(EXAMPLES)))
    path = draw(st.sampled_from(paths(data)))
    kind = draw(st.sampled_from(("replace", "delete", "replace", "duplicate")))
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    if kind == "replace":
        parent[path[-1]] = draw(json_values)
    elif kind == "delete":
        del parent[path[-1]]
    else:
        value = copy.deepcopy(parent[path[-1]])
        if isinstance(parent, list):
            parent.append(value)
        else:
            parent[draw(st.sampled_from(["rolls", "skill", "name", "Hero", "x"]))] = value
    return data, kind


@examples(times=3)
@given(case=mutated())
def test_mutated_scenarios_resolve_or_exit_2_with_one_line(
    case: tuple[Any, str], tmp_path: Path
) -> None:
    data, _ = case
    check_outcome(*run(json.dumps(data).encode(), tmp_path))


@examples(times=2)
@given(example=st.sampled_from(EXAMPLES), data=st.data())
def test_an_unknown_key_anywhere_is_named(
    example: Any, data: st.DataObject, tmp_path: Path
) -> None:
    scenario = copy.deepcopy(example)
    # Maps keyed by names (rolls, modifiers...) have no fixed keys: a stray name there is
    # an unknown participant, tested elsewhere. Every other object has fixed keys.
    objects = [()] + [
        p for p in paths(scenario) if isinstance(_at(scenario, p), dict) and p[-1] not in NAME_MAPS
    ]
    where = data.draw(st.sampled_from(objects))
    _at(scenario, where)["zz_typo"] = data.draw(json_values)
    code, out, err = run(json.dumps(scenario).encode(), tmp_path)
    assert code == 2 and out == ""
    # The examples are otherwise valid, so the typo is the first problem met.
    assert err == f"{place_of((*where, 'zz_typo'))}: unknown key\n"


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


@given(example=st.sampled_from(EXAMPLES), cut=st.floats(0, 0.999))
def test_truncated_json_names_line_and_column(example: Any, cut: float, tmp_path: Path) -> None:
    text = json.dumps(example, indent=2).encode()
    code, out, err = run(text[: int(len(text) * cut)], tmp_path)
    assert code == 2 and out == ""
    assert re.match(r"^\(json\): line \d+ column \d+: .+\n$", err), err


# Dice no system accepts as its own (rules.md): Fate's are four of "+", "0", "-" in a
# string; a d20 shows 1 to 20; a d100 1 to 100. Each value below breaks that, for its
# system (21 is a fine d100, so it is bad only for the d20).
BAD_DICE = {
    "fate": [0, 4, "++++0", "+0-", "abcd", 3.5, True, [], {}],
    "heroquest": [0, 21, -1, "12", 3.5, True, [], {}],
    "forge": [0, 101, -1, "50", 3.5, True, [], {}],
}


def rolls_places(scenario: Any) -> list[tuple[Any, ...]]:
    """Where dice are, by roller (a contest's ``rolls``) or by key (a Fate conflict's
    ``attack``: its ``dice`` and ``defense_dice``)."""
    return [p for p in paths(scenario) if p[-1] in ("rolls", "attack")]


# The examples with a contest's ``rolls`` (dice by side or participant; a Fate conflict
# has its dice in its attacks, under fixed keys).
BY_ROLLER = [e for e in EXAMPLES if any(p[-1] == "rolls" for p in paths(e))]


WITH_ROLLS = [e for e in EXAMPLES if rolls_places(e)]  # (a FORGE round gives one "roll" a step)


@examples(times=2)
@given(example=st.sampled_from(WITH_ROLLS), data=st.data())
def test_bad_dice_are_refused_with_the_roll_named(
    example: Any, data: st.DataObject, tmp_path: Path
) -> None:
    scenario = copy.deepcopy(example)
    path = data.draw(st.sampled_from(rolls_places(scenario)))
    rolls = _at(scenario, path)
    keys = ("dice", "defense_dice") if path[-1] == "attack" else sorted(rolls)
    who = data.draw(st.sampled_from(keys))
    rolls[who] = data.draw(st.sampled_from(BAD_DICE[scenario["system"]]))
    code, out, err = run(json.dumps(scenario).encode(), tmp_path)
    assert (code, out) == (2, ""), err
    assert err.startswith(f"{place_of((*path, who))}: "), err
    assert PLACE_LINE.match(err), err


@given(example=st.sampled_from(BY_ROLLER), data=st.data())
def test_dice_for_somebody_not_in_the_contest_are_refused_with_the_name(
    example: Any, data: st.DataObject, tmp_path: Path
) -> None:
    """Good dice, but for "Nobody": never a result (exit 0) that drops them."""
    scenario = copy.deepcopy(example)
    path = data.draw(st.sampled_from([p for p in rolls_places(scenario) if p[-1] == "rolls"]))
    rolls = _at(scenario, path)
    rolls["Nobody"] = next(iter(rolls.values()))  # dice that are good for this system
    code, out, err = run(json.dumps(scenario).encode(), tmp_path)
    assert (code, out) == (2, ""), err
    side_or_participant = "side" if scenario["system"] == "fate" else "participant"
    assert err == f'{place_of((*path, "Nobody"))}: no {side_or_participant} "Nobody"\n'


@pytest.mark.parametrize(
    "text",
    [
        b'{"system": "fate", "participants": "Cynere"}',
        b'{"system": "heroquest", "participants": '
        b'[{"name": "A", "rating": "21"}, {"name": "B", "rating": 3}]}',
        b'{"system": "forge", "participants": [{"name": "A", "target": 50}, '
        b'{"name": "B", "target": 40}], "exchanges": [{"rolls": {"A": 5}}]}',
        b"\xff\xfe",
        b"",
    ],
)
def test_the_real_command_never_prints_a_traceback(text: bytes, tmp_path: Path) -> None:
    scenario = tmp_path / "s.json"
    scenario.write_bytes(text)
    done = subprocess.run(
        [*tussle_command(), "resolve", str(scenario)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert PLACE_LINE.match(done.stderr), done.stderr
