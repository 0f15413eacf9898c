"""The coin race, a rule system installed from outside (tests/plugins/coin_race, by its
entry point on PYTHONPATH), in the real console script in a real terminal: a new coin
campaign set up and played by keys, undone and redone, followed by the players' view,
then checked (issue 12, point 1)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.tmux import TMUX, Pane, Terminal, wait_for_file
from tests.helpers import clean_env, tussle_command
from tests.plugins.installed import plugin_env, write_distribution

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def test_a_coin_race_played_by_keys_and_watched(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    env = plugin_env(write_distribution(tmp_path / "site"))
    gm_terminal, players, status = Terminal(), Terminal(), tmp_path / "gm-status"
    gm = Pane(gm_terminal)
    try:
        command = [*tussle_command(), "--saves", str(saves), "--mkdir"]
        gm_terminal.start([*command, "open", "Coins", "--system", "coin"], env, status)
        gm.wait_for("Roster · Coins")
        for name in ("Ann", "Bob"):
            gm.keys("a")
            gm.fill("A new character", "Name", name)
            gm.accept("A new character")
            gm.wait_for(f" {name} ")
        gm.keys("n")
        gm.wait_for("A new contest")
        for name in ("Ann", "Bob"):
            gm.keys("a")
            gm.dialog("Add a participant")
            gm.accept("Add a participant")
            gm.wait_for(f"{name}   A coin")
        gm.keys("o")
        gm.fill("Rule options", "Target", "2")
        gm.accept("Rule options")
        gm.wait_for("first to 2 points")
        gm.keys("g")
        gm.dialog("Start the contest")
        gm.accept("Start the contest")
        gm.wait_for("Roll keypad", "Coin race · first to 2")

        # Ann heads (2), Bob tails (1): Ann alone heads scores, 1–0.
        gm.keys("2", "1")
        gm.wait_for("⇒ Ann would score")
        gm.keys("Enter")
        gm.wait_for("Exchange 1: Ann scores (1–0)")
        # Both heads: a tie; undone (the coins back on the keypad), then redone.
        gm.keys("2", "2", "Enter")
        gm.wait_for("Exchange 2: a tie (1–0)")
        gm.keys("u")
        gm.wait_gone("Exchange 2: a tie")
        gm.wait_for("⇒ a tie: nobody scores")
        gm.keys("U")
        gm.wait_for("Exchange 2: a tie (1–0)")
        # Ann tails, Bob heads: 1–1; then Ann alone heads: 2–1, and Ann reaches 2.
        gm.keys("1", "2", "Enter")
        gm.wait_for("Exchange 3: Bob scores (1–1)")
        gm.keys("2", "1", "Enter")
        gm.wait_for("Ann wins")

        players.start([*command, "watch", "Coins"], env)
        watched = players.wait_for("Exchange 4: Ann scores (2–1)")
        assert "Coin race · first to 2" in watched
        assert "Exchange 3: Bob scores (1–1)" in watched

        gm.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        gm_terminal.kill()
        players.kill()

    check = subprocess.run(
        [*tussle_command(), "--saves", str(saves), "check", "Coins"],
        env=clean_env(env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    # 2 characters, the start, 4 exchanges, one undone and redone (2 more), and the
    # results written back at the end: 10 entries.
    assert check.stdout.strip() == (
        'OK "Coins" (coins): coin, 10 log entries, 2 characters, 1 contest, 4 exchanges'
    ), check.stderr
