"""The real dashboard and the real players' view, side by side in tmux."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import clean_env, files_of, tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


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
        players.wait_for("Exchange 1: Teran the Swift wins")
        before = files_of(saves)
        players.keys("u", "Enter", "+", "0", "-", "i", "a", "n", "w", "Escape", "r", "Tab")
        # Keys are handled in order: q, sent last (after Tab, so not read as alt+q), quits
        # once every key before it is handled; only then are the files compared. ctrl+p
        # among them: the watcher has no command palette (its "save screenshot" writes).
        players.keys("C-p", "s", "a", "v", "e", "Enter")
        players.keys("q")
        assert wait_for_file(status) == "0"
        assert files_of(saves) == before  # nothing a player types reaches the files
        assert "Exchange 1: Teran the Swift wins" in gm.screen()
    finally:
        gm.kill()
        players.kill()


def without_clock(screen: str) -> str:
    """The watcher's screen without its status line (its clock may read 13:..)."""
    return "\n".join(line for line in screen.splitlines() if "following" not in line)


def test_a_secret_npc_and_aspect_never_reach_the_players_view_nor_the_recap(
    tmp_path: Path,
) -> None:
    """Issue 6: the GM hides Sly Vasquez (Fight +7, Epic; 13 fate points) and the aspect
    Hidden Blade with H, then plays two exchanges. Sly's totals, from the dice typed:
    0000 -> +7 (Epic), +000 -> +8 (Legendary); Cynere's: -000 -> +3, ++00 -> +6."""
    import subprocess

    from core.saves.store import Saves
    from tests.helpers import NAME, knife_fight, leaks

    saves = tmp_path / "saves"
    _, entries = knife_fight()
    Saves(saves).create(NAME, "fate").append(entries)
    env = {"TUSSLE_SAVES": str(saves)}
    gm, players, status = Terminal(), Terminal(), tmp_path / "watch-status"
    screens = []
    try:
        gm.start([*tussle_command(), "open", NAME], env)
        gm.wait_for("Roll keypad")
        # The form's choices: the whole contest, Cynere's numbers, Sly's, then the aspects
        # Muddy Ground and Hidden Blade; Enter hides the one shown.
        gm.keys("H")
        gm.wait_for("Hide from the players")
        gm.keys("Right", "Right")
        gm.wait_for("Sly Vasquez's numbers")
        gm.keys("Enter")
        gm.wait_for("· hidden")  # the GM's participants pane marks him
        gm.keys("H")
        gm.wait_for("Hide from the players")
        gm.keys("Right", "Right", "Right", "Right")
        gm.wait_for("Aspect: Hidden Blade")
        gm.keys("Enter")
        players.start([*tussle_command(), "watch", NAME], env, status)
        screens.append(players.wait_for("??", timeout=30))  # Hidden Blade's place
        for dice, verdict in (
            (("-", "0", "0", "0", "0", "0", "0", "0"), "Exchange 1: Sly Vasquez wins"),
            (("+", "+", "0", "0", "+", "0", "0", "0"), "Exchange 2: Sly Vasquez wins"),
        ):
            gm.keys(*dice, "Enter")
            gm.wait_for(verdict)
            screens.append(players.wait_for(verdict, timeout=30))
        assert "Sly Vasquez: ?? → ??" in screens[-1]
        assert "Cynere: ++00 → Fantastic (+6)" in screens[-1]
        assert [leaks(without_clock(s)) for s in screens] == [[]] * len(screens)

        def export(*extra: str) -> str:
            done = subprocess.run(
                [*tussle_command(), "--saves", str(saves), "export", NAME,
                 "--format", "markdown", *extra],
                capture_output=True, text=True, timeout=60, env=clean_env(),
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            return "\n".join(line for line in done.stdout.splitlines() if "Fate Core ·" not in line)

        recap = export()
        assert "- Sly Vasquez: ?? → ??" in recap
        assert leaks(recap) == []
        assert {"+7", "Epic", "+8", "Legendary"} <= set(leaks(export("--secrets")))

        # The GM shows Sly again: his totals reach the players (the check above can fail).
        gm.keys("H")
        gm.wait_for("Hide from the players")
        gm.keys("Right", "Right")
        gm.wait_for("Sly Vasquez's numbers")
        gm.keys("Enter")
        shown = players.wait_for("Sly Vasquez: +000 → Legendary (+8)", timeout=30)
        assert "Sly Vasquez: 0000 → Epic (+7)" in shown
        players.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        gm.kill()
        players.kill()
