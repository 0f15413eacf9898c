"""A player whose locale is not UTF-8 gets a readable players' view (issue 24, item 18).

tmux draws ``_`` for each character past ASCII to a client that attached with a locale
that is not UTF-8 (``LANG=C``, common over SSH), whatever the program in the window
writes, and no option of the server changes that (``tmux -u`` starting the server only
marks that first client). So the watcher asks tmux, once a second, whether every client
of its session takes UTF-8: while one does not, the view draws in ASCII for all (frames
``+-|``, arrows ``>``, pips ``*.``); once none is left, in UTF-8 again.

The view at 100x29: the score on one line (from 30 rows it is drawn in large digits,
which in ASCII are made of ``_`` and ``|``), so no ``_`` is expected anywhere.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.cli.demo import create_demos
from core.saves.store import Saves
from tests.e2e.seats import PlayersServer, attach, share, wait_until
from tests.e2e.tmux import TMUX, Terminal, unique_socket

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def settled(terminal: Terminal, seconds: float = 30.0) -> str:
    """The screen once two reads half a second apart agree (at most ``seconds``): what
    tmux has finished drawing, not a frame caught halfway through."""
    deadline = time.monotonic() + seconds
    shown = terminal.screen()
    while time.monotonic() < deadline:
        time.sleep(0.5)
        again = terminal.screen()
        if again == shown:
            break
        shown = again
    return shown


def test_a_player_without_utf8_reads_the_view_in_ascii(tmp_path: Path, folder: Path) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    path = folder / f"{socket}-players"
    gm, players = Terminal(socket=socket), PlayersServer(path)
    utf8, ascii_only = Terminal((100, 29)), Terminal((100, 29))
    try:
        assert share(saves, socket, tmp_path, folder).returncode == 0
        gm.wait_for("Roll keypad", target="gm")
        attach(utf8, path, "-r")
        seen = utf8.wait_for("╭─ Last exchanges ─")
        assert "Fate direct · first to 3" in seen
        # The second player's locale says C: tmux takes their terminal as not UTF-8.
        ascii_only.start(
            ["env", "-u", "TMUX", "-u", "LC_ALL", "-u", "LC_CTYPE", "LANG=C",
             "tmux", "-S", str(path), "attach", "-r"],
            {},
        )  # fmt: skip

        def flags() -> list[str]:
            return sorted(players.tmux("list-clients", "-F", "#{client_utf8}").split())

        wait_until(lambda: len(flags()) == 2)
        assert flags() == ["0", "1"]
        ascii_only.wait_for("+- Last exchanges -", timeout=30)
        # The header is ASCII once the view has switched; the rows below it may still be
        # on their way through tmux, so the whole screen is read again until it settles.
        shown = settled(ascii_only)
        assert "Fate direct . first to 3" in shown and "Muddy Ground" in shown
        assert "_" not in shown  # not one character tmux could not show
        assert "+- Last exchanges -" in utf8.wait_for("+- Last exchanges -", timeout=30)
        # The GM's exchange (Cynere ---0 on +4: +1; Teran 0000 on +3: +3) reads in ASCII.
        gm.keys_to("gm", "-", "-", "-", "0", "0", "0", "0", "0", "Enter")
        ascii_only.wait_for("Teran the Swift: 0000 > Good (+3)", timeout=30)
        shown = settled(ascii_only)
        assert "Cynere: ---0 > Average (+1)" in shown and "_" not in shown
        # That player leaves: the others see UTF-8 again.
        ascii_only.kill()
        seen = utf8.wait_for("╭─ Last exchanges ─", timeout=30)
        assert "Teran the Swift: 0000 → Good (+3)" in seen
    finally:
        for server in (ascii_only, utf8, players, gm):
            server.kill()
