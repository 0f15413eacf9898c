"""``tussle share``: the real console script sets a table up in tmux (issue 11: on tmux
3.3a it failed with "server exited unexpectedly"), and a player attaches read-only.

Each test gives ``share`` a tmux socket of its own (``TUSSLE_SHARE_SOCKET``), never the
real ``tussle`` one a GM may have running, and kills that server afterwards.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from core.demo import create_demos
from core.store import Saves
from tests.e2e.tmux import TMUX, Terminal, unique_socket
from tests.helpers import clean_env, tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def share(saves: Path, socket: str, home: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``tussle --saves SAVES share "Fate demo"`` on tmux socket ``socket`` (and a HOME
    with no ``.tmux.conf``: share runs tmux as a GM would, with their configuration)."""
    return subprocess.run(
        [*tussle_command(), "--saves", str(saves), "share", "Fate demo", *extra],
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env({"TUSSLE_SHARE_SOCKET": socket, "HOME": str(home)}),
        stdin=subprocess.DEVNULL,
    )


def window_size(table: Terminal, session: str) -> str:
    return table.tmux("display-message", "-p", "-t", session, "#{window_width}x#{window_height}")


def test_share_sets_the_table_and_a_read_only_player_sees_the_gms_commit(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    table = Terminal(socket=socket)  # the server share starts: read, keys, killed at the end
    player = Terminal((100, 30))  # a player's terminal, smaller than the players' window
    try:
        done = share(saves, socket, tmp_path)
        assert (done.returncode, done.stderr) == (0, "")
        assert f"tmux -L {socket} attach -t gm\n" in done.stdout
        assert f"tmux -L {socket} attach -r -t players\n" in done.stdout
        assert table.tmux("list-sessions", "-F", "#{session_name}").split() == ["gm", "players"]
        assert table.tmux("show-options", "-gv", "window-size") == "manual\n"

        gm = table.wait_for("Roll keypad", target="gm")
        assert "The race across the mud · Fate demo" in gm
        watcher = table.wait_for("following", target="players")
        assert "No exchange yet" in watcher and "Muddy Ground" in watcher

        # A player attaches read-only, from a terminal of their own (a pty: a second tmux).
        player.start(
            ["env", "-u", "TMUX", "tmux", "-L", socket, "attach", "-r", "-t", "players"], {}
        )
        seen = player.wait_for("Last exchanges")
        assert "The race across the mud" in seen and "No exchange yet" in seen
        assert (
            table.tmux("list-clients", "-F", "#{client_readonly} #{session_name}") == "1 players\n"
        )
        # window-size manual: the 100x30 player did not shrink the players' window.
        assert (window_size(table, "players"), window_size(table, "gm")) == ("120x40\n", "160x48\n")
        # What the player types reaches nothing: q would quit the watcher, u undo.
        player.keys("q", "u", "Enter")

        # The GM's exchange: Cynere's ---0 on Athletics +4 is +1 (Average), Teran's 0000
        # on Lore +3 is +3 (Good): Teran wins, by 2, one victory.
        table.keys_to("gm", "-", "-", "-", "0", "0", "0", "0", "0", "Enter")
        table.wait_for("Exchange 1: Teran the Swift wins", target="gm")
        seen = player.wait_for("Exchange 1: Teran the Swift wins", timeout=15)
        assert "Cynere: ---0 → Average (+1)" in seen
        assert "Teran the Swift: 0000 → Good (+3)" in seen
    finally:
        player.kill()
        table.kill()


def test_a_second_share_on_a_busy_socket_is_refused_and_leaves_the_table_alone(
    tmp_path: Path,
) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    table = Terminal(socket=socket)
    try:
        assert share(saves, socket, tmp_path).returncode == 0
        table.wait_for("Roll keypad", target="gm")
        again = share(saves, socket, tmp_path)
        assert (again.returncode, again.stdout) == (2, "")
        assert again.stderr == (
            f"(share): a tmux server is running on socket {socket} already (a table set "
            f"earlier?): attach to it, or end it with  tmux -L {socket} kill-server\n"
        )
        assert table.tmux("list-sessions", "-F", "#{session_name}").split() == ["gm", "players"]
        assert "Roll keypad" in table.screen("gm")
    finally:
        table.kill()


def test_the_socket_option_beats_the_variable(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    by_variable, by_option = unique_socket(), unique_socket()
    tables = [Terminal(socket=by_variable), Terminal(socket=by_option)]
    try:
        done = share(saves, by_variable, tmp_path, "--socket", by_option)
        assert done.returncode == 0, done.stderr
        assert f"tmux -L {by_option} attach -r -t players" in done.stdout
        assert tables[1].tmux("list-sessions", "-F", "#{session_name}").split() == ["gm", "players"]
        assert tables[0].tmux("list-sessions") == ""
    finally:
        for table in tables:
            table.kill()
