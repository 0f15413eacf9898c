"""The coin race with a sheet of its own (issue 26, "What it must show" 1): a character's
luck, written only under tests/plugins/coin_race, through the real console script. A
roster imported with luck (``roster import``), a session's start refreshing it, a
contest by keys where Ann spends a point of luck to flip again, the luck left written
back, the players' view with and without Ann hidden (``H``), the recap, ``check``, and
``roster export`` read back by ``roster import``.

Worked from the rules (tests/plugins/coin_race): the only heads scores, anything else
ties; a reflip costs one luck; a session's start brings a PC's luck up to their refresh.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.tmux import TMUX, Pane, Terminal, wait_for_file
from tests.helpers import clean_env, tussle_command
from tests.plugins.installed import plugin_env, write_distribution

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

# Ann comes with 1 luck of a refresh of 2; Bob with no luck at all.
ROSTER = """system = "coin"

[[characters]]
name = "Ann"
luck = 1
refresh = 2

[[characters]]
name = "Bob"
kind = "pc"
"""


def run(saves: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*tussle_command(), "--saves", str(saves), *args],
        env=clean_env(env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_luck_imported_spent_on_a_reflip_written_back_watched_and_exported(
    tmp_path: Path,
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    env = plugin_env(write_distribution(tmp_path / "site"))
    command = [*tussle_command(), "--saves", str(saves)]
    made = run(saves, env, "resolve", "--help")  # the plug-in's console script runs
    assert made.returncode == 0, made.stderr

    gm_terminal, players, status = Terminal(), Terminal(), tmp_path / "gm-status"
    gm = Pane(gm_terminal)
    try:
        # A new coin campaign, left at once, then its roster imported from a file.
        gm_terminal.start([*command, "open", "Coins", "--system", "coin"], env, status)
        gm.wait_for("Roster · Coins")
        gm.keys("q")
        assert wait_for_file(status) == "0"
        gm_terminal.kill()
        (tmp_path / "roster.toml").write_text(ROSTER)
        imported = run(saves, env, "roster", "import", "Coins", str(tmp_path / "roster.toml"))
        assert imported.returncode == 0, imported.stderr
        assert "Ann (PC" in imported.stdout and "luck 1, luck refresh 2" in imported.stdout

        gm_terminal = Terminal()
        gm = Pane(gm_terminal)
        status.unlink()
        gm_terminal.start([*command, "open", "Coins"], env, status)
        gm.wait_for("A new contest")  # a roster and no contest yet: the setup first
        gm.keys("w")
        gm.wait_for("Roster · Coins", "luck 1")
        # A session's start: Ann's luck back up to her refresh, 2; Bob's stays 0.
        gm.keys("S")
        gm.wait_for("session 1", "Ann   PC    luck 2", "Bob   PC    luck 0")

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
        gm.keys("g")
        gm.dialog("Start the contest")
        gm.accept("Start the contest")
        gm.wait_for("Roll keypad", "Coin race · first to 2", "Ann · 2 luck")

        # Ann tails (1), Bob heads (2): Bob would score; Ann spends a luck to flip again,
        # heads: two heads, a tie, and she has 1 luck left.
        gm.keys("1", "2")
        gm.wait_for("⇒ Bob would score")
        gm.keys("l")
        gm.dialog("Ann flips again (a point of luck)")
        gm.fill("Ann flips again (a point of luck)", "The new coin: 1 tails, 2 heads", "2")
        gm.accept("Ann flips again (a point of luck)")
        gm.wait_for("⇒ a tie: nobody scores")
        gm.keys("Enter")
        gm.wait_for("Exchange 1: a tie (0–0)", "Ann: heads (flipped again: 1 luck)")
        gm.wait_for("Ann · 1 luck")

        # The players see Ann's luck left, then (hidden by H) not.
        players.start([*command, "watch", "Coins"], env)
        seen = Pane(players)
        seen.wait_for("Exchange 1: a tie (0–0)", "Ann: 1 luck", "Bob: 0 luck")
        gm.keys("H")
        gm.dialog("Hide from the players")
        gm.choose("Hide from the players", "What", "Ann's numbers")
        gm.accept("Hide from the players")
        shown = seen.wait_for("Ann: ?? luck")
        assert "Ann: heads" not in shown and "Bob: 0 luck" in shown

        # Ann heads, Bob tails twice: Ann reaches 2 and wins; the summary's write-back
        # takes her spent luck off her sheet: 2 -> 1.
        gm.keys("2", "1", "Enter")
        gm.wait_for("Exchange 2: Ann scores (1–0)")
        gm.keys("2", "1", "Enter")
        gm.wait_for("Ann wins")
        gm.keys("S")
        gm.wait_for("Ann: luck 2 → 1")
        gm.keys("w")  # write the results back, and on to the roster
        gm.wait_for("Roster · Coins", "Ann   PC    luck 1", "Bob   PC    luck 0")
        gm.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        gm_terminal.kill()
        players.kill()

    recap = run(saves, env, "export", "Coins", "--format", "markdown")
    assert recap.returncode == 0, recap.stderr
    assert "**Points spent:** Ann (luck) ??" in recap.stdout  # hidden: her numbers
    secrets = run(saves, env, "export", "Coins", "--format", "markdown", "--secrets")
    assert "**Points spent:** Ann (luck) 1" in secrets.stdout, secrets.stdout
    check = run(saves, env, "check", "Coins")
    assert check.returncode == 0, check.stderr
    assert check.stdout.startswith('OK "Coins" (coins): coin,'), check.stdout

    exported = run(saves, env, "roster", "export", "Coins")
    assert exported.returncode == 0, exported.stderr
    assert 'name = "Ann"\nkind = "pc"\nluck = 1\nrefresh = 2' in exported.stdout
    assert 'name = "Bob"\nkind = "pc"\nluck = 0\nrefresh = 0' in exported.stdout
    (tmp_path / "back.toml").write_text(exported.stdout)
    again = run(saves, env, "roster", "import", "Coins", str(tmp_path / "back.toml"), "--replace")
    assert again.returncode == 0, again.stderr
    assert "luck 1, luck refresh 2" in again.stdout
