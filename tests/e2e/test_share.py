"""``tussle share``: the real console script sets the table up on two tmux servers, the
GM's and the players' (issue 14: on one server, a player attached read-only pressed
``C-b )`` and saw the GM's dashboard), and a player attaches read-only.

Each test gives ``share`` a tmux socket of its own (``TUSSLE_SHARE_SOCKET``) and a folder
of its own for the players' socket (``TUSSLE_SHARE_FOLDER``), never the real ``tussle``
ones a GM may have running, and kills both servers afterwards.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli.demo import create_demos
from core.saves.store import Saves
from tests.e2e.seats import PlayersServer, attach, sessions, share, window_size
from tests.e2e.tmux import TMUX, Pane, Terminal, unique_socket

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def showing(terminal: Terminal, *lines: str) -> str:
    """The screen once one whole frame shows every one of ``lines`` (30 s at most)."""
    return Pane(terminal).wait_until(
        lambda shown: all(line in shown for line in lines), f"a frame with {lines}"
    )


def test_share_sets_two_servers_and_a_read_only_player_sees_the_gms_commit(
    tmp_path: Path, folder: Path
) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    path = folder / f"{socket}-players"
    gm = Terminal(socket=socket)  # the GM's server share starts: read, keys, killed at the end
    players = PlayersServer(path)
    player = Terminal((100, 30))  # a player's terminal, smaller than the players' window
    small = Terminal((62, 21))  # and a smaller one
    try:
        done = share(saves, socket, tmp_path, folder)
        assert (done.returncode, done.stderr) == (0, "")
        assert f"tmux -L {socket} attach -t gm\n" in done.stdout
        assert f"tmux -S {path} attach -r\n" in done.stdout
        # Two servers: the GM's holds the dashboard alone, the players' the view alone.
        assert sessions(gm) == ["gm"]
        assert sessions(players) == ["players"]
        assert players.tmux("list-windows", "-F", "#{window_index}").split() == ["0"]
        gm.wait_for("Roll keypad", target="gm")
        showing(players, "following", "No exchange yet", "Muddy Ground")
        # The players' window runs the watcher itself, not a shell that started it.
        pid = players.tmux("display-message", "-p", "#{pane_pid}").strip()
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert b"watch" in argv and not any(a.endswith(b"sh") for a in argv[:1])
        # No key but detach: C-b s, C-b ), C-b : and the rest are unbound there.
        assert players.tmux("list-keys") == "bind-key -T prefix d detach-client\n"
        assert players.tmux("show-options", "-gv", "window-size") == "largest\n"
        assert players.tmux("show-options", "-gv", "remain-on-exit") == "off\n"

        attach(player, path, "-r")
        # The whole view, read as one frame: as the player attaches, the window takes
        # their size and the view repaints, and a read caught mid-frame held "Last
        # exchanges" over a screen of empty borders (CI's odd-environment pass, under load).
        showing(player, "Last exchanges", "The race across the mud", "No exchange yet")
        assert players.tmux("list-clients", "-F", "#{client_readonly} #{session_name}") == (
            "1 players\n"
        )
        # The window is the player's size, so they see all of it.
        assert window_size(players) == "100x30"
        attach(small, path, "-r")
        small.wait_for("Last exchanges")
        # window-size largest: a smaller terminal does not shrink it (tests/e2e/
        # test_share_sizes.py); the smaller player sees a part of it.
        assert window_size(players) == "100x30"
        # Where the one server had a gm session next door: C-b ) and C-b s reach nothing,
        # and switch-client finds no GM.
        player.keys("C-b", ")")
        player.keys("C-b", "s")
        player.keys("q", "u", "Enter")  # and keys reach nothing either (read-only)
        switched = players.run("switch-client", "-t", "gm")
        assert switched.returncode == 1 and "can't find session: gm" in switched.stderr
        assert sessions(players) == ["players"]

        # The GM's exchange: Cynere's ---0 on Athletics +4 is +1 (Average), Teran's 0000
        # on Lore +3 is +3 (Good): Teran wins, by 2, one victory.
        gm.keys_to("gm", "-", "-", "-", "0", "0", "0", "0", "0", "Enter")
        gm.wait_for("Exchange 1: Teran the Swift wins", target="gm")
        for terminal in (player, small):
            # All three lines in one frame: under load the view may paint once more after
            # the smaller client's resize, and one read can hold the one without the other.
            seen = showing(
                terminal,
                "Exchange 1: Teran the Swift wins",
                "Teran the Swift: 0000 → Good (+3)",
                "Cynere: ---0 → Average (+1)",
            )
            assert "Roll keypad" not in seen  # the players' view, never the GM's
    finally:
        for server in (small, player, players, gm):
            server.kill()


def test_a_second_share_on_a_busy_socket_is_refused_and_leaves_the_table_alone(
    tmp_path: Path, folder: Path
) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    path = folder / f"{socket}-players"
    gm, players = Terminal(socket=socket), PlayersServer(path)
    try:
        assert share(saves, socket, tmp_path, folder).returncode == 0
        gm.wait_for("Roll keypad", target="gm")
        again = share(saves, socket, tmp_path, folder)
        assert (again.returncode, again.stdout) == (2, "")
        assert again.stderr == (
            f"(share): a tmux server is running on socket {socket} already (a table set "
            f"earlier?): attach to it, or end it with  tmux -L {socket} kill-server\n"
        )
        assert (sessions(gm), sessions(players)) == (["gm"], ["players"])
        assert "Roll keypad" in gm.screen("gm")
        # The GM's server gone, the players' still there: the table is taken up again
        # (tests/e2e/test_share_again.py).
    finally:
        players.kill()
        gm.kill()


def test_the_socket_option_beats_the_variable(tmp_path: Path, folder: Path) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    by_variable, by_option = unique_socket(), unique_socket()
    servers = [
        Terminal(socket=by_variable),
        Terminal(socket=by_option),
        PlayersServer(folder / f"{by_variable}-players"),
        PlayersServer(folder / f"{by_option}-players"),
    ]
    try:
        done = share(saves, by_variable, tmp_path, folder, "--socket", by_option)
        assert done.returncode == 0, done.stderr
        assert f"tmux -S {folder / by_option}-players attach -r" in done.stdout
        assert [sessions(server) for server in servers] == [[], ["gm"], [], ["players"]]
    finally:
        for server in servers:
            server.kill()


def test_an_unknown_player_is_refused_before_anything_starts(tmp_path: Path, folder: Path) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    gm = Terminal(socket=socket)
    try:
        done = share(saves, socket, tmp_path, folder, "--player", "no-such-user-14")
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == '(share): no user "no-such-user-14" on this machine (--player)\n'
        assert sessions(gm) == []
    finally:
        gm.kill()
