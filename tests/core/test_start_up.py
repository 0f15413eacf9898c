"""What every start of ``tussle`` pays for: the version is looked up only for
``--version`` (importlib.metadata and its search of the installed distributions cost
some 10 ms, before the dashboard's first frame too)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import SCENARIOS
from tests.helpers import clean_env, tussle_command


def imported_modules(argv: list[str], cwd: Path) -> set[str]:
    """The modules the console script imports (Python's import-time report)."""
    run = subprocess.run(
        [*tussle_command(), *argv],
        cwd=cwd,
        env=clean_env({"PYTHONPROFILEIMPORTTIME": "1"}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return {
        line.rsplit("|", 1)[-1].strip()
        for line in run.stderr.splitlines()
        if line.startswith("import time:")
    }


def test_a_command_does_not_look_up_the_version(tmp_path: Path) -> None:
    loaded = imported_modules(["resolve", str(SCENARIOS / "fate-cynere-vs-teran.json")], tmp_path)
    assert "core.scenario" in loaded  # the report is read right
    assert "importlib.metadata" not in loaded


def test_version_looks_it_up(tmp_path: Path) -> None:
    assert "importlib.metadata" in imported_modules(["--version"], tmp_path)


def test_reading_a_campaign_of_built_in_systems_does_not_scan_installed_packages(
    tmp_path: Path,
) -> None:
    """Decoding the log's own tags ("campaign.ContestStarted") once asked whether
    "campaign" is an installed rule system, reading every package's entry points
    (importlib.metadata) before the dashboard's first frame."""
    saves = tmp_path / "saves"
    from core.cli.demo import create_demos
    from core.saves.store import Saves

    create_demos(Saves(saves))
    loaded = imported_modules(["--saves", str(saves), "export", "Fate demo"], tmp_path)
    assert "core.systems.fate.rules" in loaded  # the log was read, its Fate events too
    assert "importlib.metadata" not in loaded
