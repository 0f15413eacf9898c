"""The real dashboard and the real players' view, side by side in tmux."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "campaign.lock"
    }


def test_the_watcher_shows_what_the_gm_commits_and_its_keys_change_nothing(
    tmp_path: Path,
) -> None:
    saves = tmp_path / "saves"
    env = {"TUSSLE_SAVES": str(saves)}
    gm, players, status = Terminal(), Terminal(), tmp_path / "watch-status"
    try:
        gm.start(tussle_command(), env)
        gm.wait_for("Roll keypad")
        players.start([*tussle_command(), "watch", "Fate demo"], env, status)
        players.wait_for("following")
        gm.keys("-", "-", "-", "0", "0", "0", "0", "0", "Enter")
        gm.wait_for("Exchange 1: Teran the Swift wins")
        players.wait_for("Exchange 1: Teran the Swift wins", timeout=15)
        before = files_of(saves)
        players.keys("u", "Enter", "+", "0", "-", "i", "a", "n", "w", "Escape", "r", "Tab")
        players.wait_for("Exchange 1: Teran the Swift wins")
        assert files_of(saves) == before  # nothing a player types reaches the files
        players.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        gm.kill()
        players.kill()
