"""What the headless commands load. The layers themselves (tui above core, the core
without Textual, the rule systems apart, no import cycle) are import-linter's contracts in
pyproject.toml, which .ci/run checks with ``lint-imports``; these tests check behaviour:
the real ``tussle`` console script, asked for a headless command, loads neither Textual
nor the dashboard, and reading a campaign leaves TinyDB unloaded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import SCENARIOS, clean_env, tussle_command

ROOT = Path(__file__).resolve().parents[2]
# ``tussle`` itself is tui.cli (the console script's home): the package and that module
# load for every command, and nothing else of the dashboard may.
ENTRY_POINT = {"tui", "tui.cli"}


def loaded_by(
    argv: list[str], cwd: Path, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run the console script; the modules it imported (Python's import-time report)."""
    run = subprocess.run(
        [*tussle_command(), *argv],
        cwd=cwd,
        env=clean_env({"PYTHONPROFILEIMPORTTIME": "1", **(env or {})}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    modules = {
        line.rsplit("|", 1)[-1].strip()
        for line in run.stderr.splitlines()
        if line.startswith("import time:") and not line.endswith("imported package")
    }
    return run, modules


def unwanted(modules: set[str]) -> list[str]:
    return sorted(
        m
        for m in modules
        if m.split(".")[0] in ("textual", "rich")
        or (m.split(".")[0] == "tui" and m not in ENTRY_POINT)
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["resolve", str(SCENARIOS / "fate-cynere-vs-teran.json")],
        ["resolve", "--text", str(SCENARIOS / "heroquest-complete.json")],
        ["odds", str(SCENARIOS / "forge-seed-procedure.json")],
    ],
    ids=["resolve", "resolve-text", "odds"],
)
def test_resolve_and_odds_load_neither_textual_nor_the_dashboard(argv: list[str]) -> None:
    run, modules = loaded_by(argv, ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "core.rules" in modules and "tui.cli" in modules  # the report was read
    assert unwanted(modules) == []


@pytest.mark.parametrize("command", ["check", "export"])
def test_the_save_commands_load_neither_textual_nor_the_dashboard(
    command: str, tmp_path: Path
) -> None:
    from core.cli.demo import create_demos
    from core.saves.store import Saves

    create_demos(Saves(tmp_path))
    slug = Saves(tmp_path).campaigns()[0].slug
    run, modules = loaded_by(["--saves", str(tmp_path), command, slug], tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "core.saves.store" in modules  # the report was read
    assert unwanted(modules) == []


def test_the_check_sees_textual_where_a_command_loads_it(tmp_path: Path) -> None:
    """The checks above can fail: a ``tussle check`` that loads Textual and the players'
    view is seen doing so. No headless command loads them any more (a refused
    ``tussle watch`` used to, before it refused: tui/watch_refusal.py), so a
    sitecustomize on the interpreter's path loads them here, as a stray import would."""
    (tmp_path / "sitecustomize.py").write_text("import textual.app\nimport tui.watch\n")
    run, modules = loaded_by(
        ["--saves", str(tmp_path), "check", "Nobody"],
        tmp_path,
        {"PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])},
    )
    assert run.returncode == 2, run.stderr[-2000:]
    assert "textual" in unwanted(modules) and "tui.watch" in unwanted(modules)


def test_reading_a_campaign_leaves_tinydb_unloaded_and_writing_loads_it(saves: Path) -> None:
    """The dashboard reads its campaign before the first frame: TinyDB, for writing (its
    table operations, each file's in one atomic write: issue 30, items 1 and 2), can wait
    until then."""
    from core.cli.demo import create_demos
    from core.saves.store import Saves

    create_demos(Saves(saves))
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from core.saves.store import CampaignFiles, Saves\n"
        f"saves = Saves(Path({str(saves)!r}))\n"
        "infos = saves.campaigns()\n"
        "files = CampaignFiles(saves.folder / infos[0].slug)\n"
        "campaign = files.load()\n"
        "print(len(infos), 'tinydb' in sys.modules)\n"
        "saves.create('Another', 'fate')\n"
        "print('tinydb' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["3", "False", "True"]
