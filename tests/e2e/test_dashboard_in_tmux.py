"""The real ``tussle`` console script in a real terminal (tmux), end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import clean_env, tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def test_an_exchange_typed_in_the_terminal_is_there_after_a_restart(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    env = {"TUSSLE_SAVES": str(saves)}
    first, status = Terminal(), tmp_path / "status"
    try:
        first.start(tussle_command(), env, status)
        first.wait_for("Roll keypad")
        first.keys("-", "-", "-", "0", "0", "0", "0", "0")
        first.wait_for("[-][-][-][0]")
        first.keys("Enter")
        first.wait_for("Exchange 1: Teran the Swift wins")
        first.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        first.kill()
    again = Terminal()
    try:
        again.start(tussle_command(), env)
        again.wait_for("Teran the Swift  ●○○ 1")  # the scoreboard, from the saved log
        assert "Exchange 1: Teran the Swift wins" in again.wait_for("Roll keypad")
    finally:
        again.kill()


def test_recording_into_a_campaign_the_dashboard_holds_exits_3_naming_it(tmp_path: Path) -> None:
    import subprocess

    from tests.conftest import SCENARIOS

    saves = tmp_path / "saves"
    terminal = Terminal()
    try:
        terminal.start(tussle_command(), {"TUSSLE_SAVES": str(saves)})
        terminal.wait_for("Roll keypad")
        done = subprocess.run(
            [
                *tussle_command(), "--saves", str(saves), "resolve",
                str(SCENARIOS / "fate-cynere-vs-teran.json"),
                "--record", "Fate demo", "--wait", "1",
            ],
            capture_output=True, text=True, timeout=60, env=clean_env(),
        )  # fmt: skip
    finally:
        terminal.kill()
    assert done.returncode == 3
    assert done.stdout == ""
    assert '"Fate demo" is open in the dashboard (pid ' in done.stderr
