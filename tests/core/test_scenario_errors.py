"""Invalid scenarios: exit 2 and one ``PLACE: PROBLEM`` line naming the first problem.

The places follow scenario.md's "Behaviour": keys joined with ``.``, list indexes in
``[ ]``, the reading order system -> unknown top keys -> options -> participants ->
aspects -> exchanges, and unknown keys first inside each object.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from core.model import SetModifier
from core.rules.reading import ScenarioError
from core.scenario import load, resolve
from tests.helpers import in_process

SEED: dict[str, Any] = {
    "system": "fate",
    "participants": [
        {"name": "Cynere", "skill": 4, "fate_points": 1},
        {"name": "Teran", "skill": 3},
    ],
    "aspects": [{"name": "Muddy Ground"}],
    "exchanges": [
        {"rolls": {"Cynere": "-000", "Teran": "0000"}},  # +3 vs +3: a tie
        {"rolls": {"Cynere": "+000", "Teran": "0000"}},  # +5 vs +3: Cynere, 1 victory
    ],
}


def place_of(data: Any) -> str:
    with pytest.raises(ScenarioError) as info:
        resolve(data)
    return info.value.place


def changed(path: str, value: Any) -> dict[str, Any]:
    """SEED with the value at a dotted path (list indexes as numbers) replaced."""
    data = copy.deepcopy(SEED)
    *parents, last = path.split(".")
    node: Any = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node.setdefault(key, {})
    if isinstance(node, list):
        node[int(last)] = value
    elif value is ...:
        del node[last]
    else:
        node[last] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "place"),
    [
        ("system", "gurps", "system"),
        ("system", ..., "system"),
        ("systen", "fate", "systen"),
        ("options.mode", "race", "options.mode"),
        ("options.victories", 3, "options.victories"),
        ("options.mode", "environment", "options.difficulty"),
        ("options.victories_needed", 0, "options.victories_needed"),
        ("options.style_threshold", 3.0, "options.style_threshold"),
        ("options.environment_requires_success", 1, "options.environment_requires_success"),
        ("participants.0.skill", True, "participants[0].skill"),
        ("participants.0.skill", ..., "participants[0].skill"),
        ("participants.1.fate_points", -1, "participants[1].fate_points"),
        ("participants.1.name", "Cynere", "participants[1].name"),
        ("participants.1.name", "Te.ran", "participants[1].name"),
        ("participants.1.name", "", "participants[1].name"),
        ("participants.1.side", "Cynere", "participants"),
        ("participants.1.skil", 3, "participants[1].skil"),
        ("aspects.0.free_invokes", -2, "aspects[0].free_invokes"),
        ("aspects.0.holder", "Zird", "aspects[0].holder"),
        ("aspects.0.name", "", "aspects[0].name"),
        ("exchanges", {"rolls": {}}, "exchanges"),
        ("exchanges.1.roll", {}, "exchanges[1].roll"),
        ("exchanges.1.rolls", {"Cynere": "+000"}, "exchanges[1].rolls.Teran"),
        ("exchanges.1.rolls", ..., "exchanges[1].rolls"),
        ("exchanges.0.rolls", {"Cynere": "+00", "Teran": "0000"}, "exchanges[0].rolls.Cynere"),
        ("exchanges.0.rolls", {"Cynere": "0000", "Zird": "0000"}, "exchanges[0].rolls.Zird"),
        (
            "exchanges.1.invokes",
            [{"by": "Cynere", "aspect": "Muddy Ground"}, {"by": "Zird", "aspect": "Muddy Ground"}],
            "exchanges[1].invokes[1].by",
        ),
        (
            "exchanges.1.invokes",
            [
                {"by": "Cynere", "aspect": "Muddy Ground"},
                {"by": "Cynere", "aspect": "Muddy Ground"},
            ],
            "exchanges[1].invokes[1]",
        ),
        (
            "exchanges.1.invokes",
            [{"by": "Teran", "aspect": "Muddy Ground"}],
            "exchanges[1].invokes[0]",
        ),
        (
            "exchanges.1.invokes",
            [{"by": "Cynere", "aspect": "Mud"}],
            "exchanges[1].invokes[0].aspect",
        ),
        (
            "exchanges.1.invokes",
            [{"by": "Cynere", "aspect": "Muddy Ground", "effect": "reroll"}],
            "exchanges[1].invokes[0].dice",
        ),
        ("exchanges.0.twist", "", "exchanges[0].twist"),
        ("exchanges.0.attack", "Zird", "exchanges[0].attack"),
    ],
)
def test_first_problem_is_named_by_its_place(path: str, value: Any, place: str) -> None:
    assert place_of(changed(path, value)) == place


def test_a_value_the_rules_ignore_is_not_checked() -> None:
    # Exchange 2 does not tie (+5 vs +3), so its twist is ignored, even an empty one.
    data = changed("exchanges.1.twist", "")
    assert resolve(data).contest.n == 2


def test_an_exchange_after_the_end_names_the_item() -> None:
    data = copy.deepcopy(SEED)
    data["options"] = {"victories_needed": 1}
    data["exchanges"].append({"rolls": {"Cynere": "0000", "Teran": "0000"}})
    # Exchange 2 gives Cynere her one needed victory: a third exchange is one too many.
    assert place_of(data) == "exchanges[2]"
    with pytest.raises(ScenarioError, match=r"^exchanges\[2\]: the contest ended at exchange 2$"):
        resolve(data)


def test_a_forfeited_side_must_not_roll() -> None:
    data = copy.deepcopy(SEED)
    data["exchanges"][0]["advantages"] = [
        {"by": "Cynere", "aspect": "Mud", "result": 1, "opposition": 3}
    ]
    assert place_of(data) == "exchanges[0].rolls.Cynere"
    del data["exchanges"][0]["rolls"]["Cynere"]
    assert resolve(data).exchanges[0].winner == "Teran"  # type: ignore[attr-defined]


def test_rule_errors_name_the_item_with_a_sentence_for_the_gm() -> None:
    data = copy.deepcopy(SEED)
    data["exchanges"][1]["invokes"] = [
        {"by": "Cynere", "aspect": "Muddy Ground"},
        {"by": "Cynere", "aspect": "Muddy Ground", "free": True},
    ]
    with pytest.raises(ScenarioError) as info:
        resolve(data)
    assert str(info.value) == 'exchanges[1].invokes[1]: "Muddy Ground" has no free invokes left'


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (b"{", "(json): line 1 column 2: "),
        (b'{"system": NaN}', "(json): line 1 column 12: NaN is not JSON"),
        (b"[]", "(root): expected an object, got a list"),
        (b"\xef\xbb\xbf{}", "(json): line 1 column 1: a byte-order mark is not allowed"),
    ],
)
def test_unreadable_json(text: bytes, line: str) -> None:
    with pytest.raises(ScenarioError) as info:
        load(text)
    assert str(info.value).startswith(line)


def test_the_command_exits_2_with_one_line_and_nothing_on_stdout(tmp_path: Any) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(changed("exchanges.0.rolls", {"Cynere": "0000"})))
    run = in_process("resolve", str(bad))
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr == "exchanges[0].rolls.Teran: missing\n"


def test_a_missing_file_is_a_file_problem(tmp_path: Any) -> None:
    run = in_process("resolve", str(tmp_path / "nope.json"))
    assert run.returncode == 2
    assert run.stderr.startswith("(file): ")
    assert len(run.stderr.splitlines()) == 1


def test_a_modifier_of_0_is_no_modifier() -> None:
    """scenario.md: a modifier may be any integer; 0 changes nothing, and a modifier of 0
    is no value for SetModifier.value (core.limits' NonZero, what the modifier form
    refuses): the exchange plays as with none, and no SetModifier(0) is recorded."""
    seed = {
        "system": "heroquest",
        "participants": [{"name": "Hero", "rating": "4M"}, {"name": "Foe", "rating": "13"}],
        "exchanges": [{"rolls": {"Hero": 3, "Foe": 8}}],
    }
    with_zero = copy.deepcopy(seed)
    with_zero["exchanges"][0]["modifiers"] = {"Hero": 0, "Foe": -3}
    with_minus = copy.deepcopy(seed)
    with_minus["exchanges"][0]["modifiers"] = {"Foe": -3}
    played = resolve(with_zero)
    assert played.to_json() == resolve(with_minus).to_json()
    modifiers = [c for step in played.actions for c in step if isinstance(c, SetModifier)]
    assert modifiers == [SetModifier(who="Foe", value=-3)]
