"""Issue 23's B1, as the GM met it, in the real ``tussle`` in tmux: a new campaign, two
characters, a contest, and ``0`` typed into "Victories needed" while retyping the 3. The
options form says why (a contest needs at least one victory to win) and stays open; Esc
leaves the options as they were; the contest starts; after quitting, the campaign opens
again and ``tussle check`` passes. (The other rows of the table, by Pilot:
tests/tui/test_forms.py.)"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import clean_env, tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def test_victories_needed_0_is_refused_and_the_campaign_reopens(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    status, again = tmp_path / "status", tmp_path / "status-again"
    terminal = Terminal()
    try:
        terminal.start(
            [*tussle_command(), "--saves", str(saves), "--mkdir", "open", "R"], {}, status
        )
        terminal.wait_for("Roster · R")
        for name, skill in (("Cynere", "Athletics 4"), ("Teran", "Lore 3")):
            terminal.keys("a")
            terminal.wait_for("A new character")
            terminal.keys(name, "Tab", "Tab", skill, "Enter")
            terminal.wait_for(f" {name} ")
        terminal.keys("n")
        terminal.wait_for("A new contest")
        terminal.keys("a", "Enter")
        terminal.wait_for("Athletics Great (+4)")
        terminal.keys("a", "Enter")
        terminal.wait_for("Lore Good (+3)")
        terminal.keys("o")
        terminal.wait_for("Rule options")
        terminal.keys("Tab", "Tab", "C-u", "0", "Enter")
        screen = terminal.wait_for("must be at least 1, got 0")
        assert "Rule options" in screen  # the form stays open, with the 0 typed
        terminal.keys("Escape")
        assert "first to 3 victories" in terminal.wait_for("Options: direct")
        terminal.keys("g")
        terminal.wait_for("Start the contest")
        terminal.keys("Enter")
        terminal.wait_for("Roll keypad")
        terminal.keys("q")
        assert wait_for_file(status) == "0"
        # The next start: the campaign opens where it was.
        terminal.kill()
        terminal = Terminal()
        terminal.start([*tussle_command(), "--saves", str(saves)], {}, again)
        assert "first to 3" in terminal.wait_for("Roll keypad")
        terminal.keys("q")
        assert wait_for_file(again) == "0"
    finally:
        terminal.kill()
    done = subprocess.run(
        [*tussle_command(), "--saves", str(saves), "check", "R"],
        capture_output=True,
        text=True,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith('OK "R"')
