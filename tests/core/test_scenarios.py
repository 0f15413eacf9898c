"""The shared example scenarios, through the engine and through the real command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.scenario import load
from tests.conftest import SCENARIOS
from tests.helpers import contains, in_process, tussle_command

EXAMPLES = sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(".expected.json"))


def test_every_system_has_examples() -> None:
    assert {p.name.split("-")[0] for p in EXAMPLES} == {"fate", "heroquest", "forge"}


@pytest.mark.parametrize("scenario", EXAMPLES, ids=lambda p: p.stem)
def test_example_output_contains_the_expected(scenario: Path) -> None:
    expected = json.loads(scenario.with_suffix(".expected.json").read_text())
    actual = load(scenario.read_bytes()).to_json()
    assert contains(expected, actual) is None


def test_the_tussle_command_prints_the_same_json_for_every_example() -> None:
    # The command's entry point, in this process (an interpreter per example cost more
    # than the example); the console script itself reads stdin and prints text below.
    for scenario in EXAMPLES:
        run = in_process("resolve", str(scenario))
        assert run.returncode == 0, run.stderr
        expected = json.loads(scenario.with_suffix(".expected.json").read_text())
        assert contains(expected, json.loads(run.stdout)) is None, scenario.name


def test_resolve_reads_standard_input() -> None:
    scenario = SCENARIOS / "fate-cynere-vs-teran.json"
    run = subprocess.run(
        [*tussle_command(), "resolve", "-"],
        input=scenario.read_bytes(),
        capture_output=True,
        timeout=60,
    )
    assert run.returncode == 0
    assert json.loads(run.stdout)["winner"] == "Cynere"


def test_text_output_tells_the_seed_contest_for_people() -> None:
    run = subprocess.run(
        [*tussle_command(), "resolve", "--text", str(SCENARIOS / "fate-cynere-vs-teran.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0
    assert "Magical Distortions" in run.stdout
    assert "Exchange 2: Cynere wins with style, 2 victories (2–1)" in run.stdout
    assert run.stdout.strip().endswith("Cynere wins.")


CHECK_MODULES = (
    "import sys, io, contextlib\n"
    "from tui.cli import main\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    for f in sys.argv[1:]:\n"
    "        assert main(['resolve', f]) == 0\n"
    "loaded = {m.split('.')[0] for m in sys.modules}\n"
    "dashboard = {m for m in sys.modules if m.startswith('tui.')} - {'tui.cli'}\n"
    "print(sorted(loaded & {'textual', 'tinydb', 'rich'} | dashboard))\n"
)


def test_resolve_never_loads_textual_or_tinydb() -> None:
    run = subprocess.run(
        [sys.executable, "-c", CHECK_MODULES, *map(str, EXAMPLES)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
