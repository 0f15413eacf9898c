"""The players' window is not shrunk by the smallest player (issue 24, item 18): with
``window-size smallest``, one player at 40x12 made everyone's view 40x12, where the last
exchanges did not show at all. The players' server now takes the largest player's size.

Each test gives ``share`` a tmux socket and a folder of its own (tests/e2e/test_share.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli.demo import create_demos
from core.saves.store import Saves
from tests.e2e.seats import PlayersServer, attach, share, window_size
from tests.e2e.tmux import TMUX, Terminal, unique_socket

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def test_a_small_player_does_not_shrink_everyones_view(tmp_path: Path, folder: Path) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    path = folder / f"{socket}-players"
    gm, players = Terminal(socket=socket), PlayersServer(path)
    large, small = Terminal((100, 30)), Terminal((40, 12))
    try:
        assert share(saves, socket, tmp_path, folder).returncode == 0
        gm.wait_for("Roll keypad", target="gm")
        attach(large, path, "-r")
        large.wait_for("On the table")
        assert window_size(players) == "100x30"
        attach(small, path, "-r")
        small.wait_for("Fate direct")  # the title: the small player is in
        assert window_size(players) == "100x30"
        # The GM's exchange (Cynere ---0 on +4: +1; Teran 0000 on +3: +3) reaches the
        # large player's view whole, the table beside it.
        gm.keys_to("gm", "-", "-", "-", "0", "0", "0", "0", "0", "Enter")
        gm.wait_for("Exchange 1: Teran the Swift wins", target="gm")
        seen = large.wait_for("Teran the Swift: 0000 → Good (+3)", timeout=30)
        assert "Exchange 1: Teran the Swift wins" in seen
        assert "Cynere: ---0 → Average (+1)" in seen
        assert "On the table" in seen and "Muddy Ground" in seen
        assert window_size(players) == "100x30"
    finally:
        for server in (small, large, players, gm):
            server.kill()
