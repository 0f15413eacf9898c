"""A terminal that is not UTF-8 (``LANG=C``, common over SSH): the dashboard and the
players' view draw ASCII (issue 14: tmux showed ``_`` for pips, arrows and frames)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli.demo import create_demos
from core.saves.store import Saves
from tests.e2e.tmux import TMUX, Terminal
from tests.helpers import tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def test_in_a_c_locale_the_dashboard_and_the_players_view_are_ascii(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    c_locale = {"LANG": "C"}
    gm, players = Terminal((80, 24)), Terminal((60, 20))
    try:
        gm.start([*tussle_command(), "--saves", str(saves)], c_locale)
        players.start([*tussle_command(), "--saves", str(saves), "watch", "Fate demo"], c_locale)
        gm.wait_for("Roll keypad")
        players.wait_for("following")
        # Cynere ---0 +4 = Average (+1) against Teran 0000 +3 = Good (+3): Teran wins.
        gm.keys("-", "-", "-", "0", "0", "0", "0", "0", "Enter")
        dashboard = gm.wait_for("Exchange 1: Teran the Swift wins")
        view = players.wait_for("Teran the Swift: 0000 > Good (+3)")
        for screen in (dashboard, view):
            assert screen.isascii(), screen
        keypad = next(line for line in dashboard.splitlines() if "Roll keypad" in line)
        assert (keypad[0], keypad[-1], len(keypad)) == ("+", "+", 80)
        assert "Cynere: ---0 > Average (+1)" in dashboard
        assert "+- Last exchanges -" in view and "Cynere: ---0 > Average (+1)" in view
    finally:
        gm.kill()
        players.kill()
