"""The tests give the same answers whatever terminal pytest was started from (issue 11:
from a 120x40 terminal, three of these end-to-end tests failed).

pytest imports readline, and readline sets COLUMNS and LINES (the size of the terminal
pytest runs in) in the process's C-level environment: a child started without ``env=``
inherited them, and so did the tmux server the tests started, and the ``tussle`` in its
80x24 pane drew itself 120 columns wide. Every process the tests start now gets an
explicit environment (``tests.helpers.clean_env``), and conftest cleans the tests' own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import tussle_command

needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

# An odd terminal: bigger than the tests' 80x24, inside some tmux, no colour, no UTF-8,
# and a saves folder of its own.
ODD_TERMINAL = {
    "COLUMNS": "120",
    "LINES": "40",
    "TMUX": "/bogus/tmux-socket,4242,0",
    "TMUX_PANE": "%42",
    "TERM": "dumb",
    "COLORTERM": "24bit",
    "NO_COLOR": "1",
    "LANG": "C",
    "LC_ALL": "C",
}


@pytest.fixture
def odd_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ODD_TERMINAL.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("TUSSLE_SAVES", str(tmp_path / "the-users-own-saves"))


@needs_tmux
@pytest.mark.usefixtures("odd_terminal")
def test_tussle_in_tmux_fills_its_80x24_pane_whatever_terminal_pytest_runs_in(
    tmp_path: Path,
) -> None:
    saves = tmp_path / "saves"
    terminal, status = Terminal(), tmp_path / "status"
    try:
        terminal.start(tussle_command(), {"TUSSLE_SAVES": str(saves)}, status)
        screen = terminal.wait_for("Roll keypad")
        lines = screen.splitlines()
        # The keypad's frame spans the pane's 80 columns exactly (drawn for 120 columns,
        # it was cut at 80, its corner ╮ off screen; without UTF-8, no ╭ at all), and the
        # key bar, the last of 24 lines, is on screen (drawn for 40 lines, it was not).
        keypad = next(line for line in lines if "Roll keypad" in line)
        assert (keypad[0], keypad[-1], len(keypad)) == ("╭", "╮", 80)
        assert len(lines) == 24 and "q Quit" in lines[-1]
        terminal.keys("-", "-", "-", "0", "0", "0", "0", "0", "Enter")
        terminal.wait_for("Exchange 1: Teran the Swift wins")
        terminal.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert (saves / "fate-demo").is_dir()
    assert not (tmp_path / "the-users-own-saves").exists()


@needs_tmux
@pytest.mark.usefixtures("odd_terminal")
def test_a_pane_sees_none_of_the_terminal_pytest_runs_in(tmp_path: Path) -> None:
    seen, size, status = tmp_path / "env", tmp_path / "size", tmp_path / "status"
    terminal = Terminal()
    try:
        terminal.start(["sh", "-c", f"env > {seen}; stty size > {size}"], {}, status)
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert size.read_text() == "24 80\n"
    env = dict(line.split("=", 1) for line in seen.read_text().splitlines() if "=" in line)
    for name in ("COLUMNS", "LINES", "NO_COLOR", "LC_ALL", "TUSSLE_SAVES"):
        assert name not in env, name
    assert env["LANG"] == "C.UTF-8"
    assert f"/{terminal.socket}," in env["TMUX"]  # its own server's, not /bogus


def test_a_child_started_without_env_inherits_no_terminal_size() -> None:
    """What conftest does for the tests' own process: nothing of the terminal, not even
    the COLUMNS and LINES readline sets below ``os.environ`` (they are set here as
    readline does, with putenv, for a run with no terminal to show the same)."""
    os.putenv("COLUMNS", "120")
    os.putenv("LINES", "40")
    try:
        from tests.helpers import neutralise_environment

        neutralise_environment()
        show = "import os; print(os.environ.get('COLUMNS'), os.environ.get('LINES'))"
        done = subprocess.run(
            [sys.executable, "-c", show], capture_output=True, text=True, timeout=30
        )
    finally:
        os.unsetenv("COLUMNS")
        os.unsetenv("LINES")
    assert done.stdout == "None None\n"
