"""Another Unix user at the players' server (issue 14): let in read-only by
``tussle share --player USER`` (tmux 3.3's ``server-access -r``), so nothing they type
does anything even when they attach without ``-r``, and kept out of the GM's server.

Needs root (to make a throwaway user, removed afterwards), as CI runs; skipped elsewhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.cli.demo import create_demos
from core.saves.store import Saves
from tests.e2e.seats import PlayersServer, sessions, share
from tests.e2e.tmux import TMUX, Terminal, unique_socket
from tests.helpers import clean_env

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed"),
    pytest.mark.skipif(
        not hasattr(os, "geteuid") or os.geteuid() != 0,
        reason="making a throwaway Unix user needs root (CI runs as root)",
    ),
    pytest.mark.skipif(
        shutil.which("useradd") is None or shutil.which("runuser") is None,
        reason="useradd or runuser is missing",
    ),
]


@pytest.fixture
def player() -> Iterator[str]:
    """A Unix user made for this test alone, with no home and no password."""
    name = f"tussle-p{uuid.uuid4().hex[:6]}"
    subprocess.run(["useradd", "--no-create-home", "--shell", "/bin/sh", name], check=True)
    try:
        yield name
    finally:
        subprocess.run(["userdel", name], capture_output=True)


def as_user(user: str, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["runuser", "-u", user, "--", *command],
        capture_output=True,
        text=True,
        timeout=30,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        cwd="/",
    )


def test_another_user_attaches_to_the_players_view_read_only_and_never_to_the_gms(
    tmp_path: Path, player: str
) -> None:
    assert TMUX is not None
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    folder = Path(tempfile.mkdtemp(prefix="tussle-share-"))  # 0700 until share opens it
    path = folder / f"{socket}-players-{player}"  # the player's own server
    gm, players = Terminal(socket=socket), PlayersServer(path)
    common = PlayersServer(folder / f"{socket}-players")  # the GM's own terminals' one
    seat = Terminal((90, 28))  # the player's own terminal
    try:
        done = share(saves, socket, tmp_path, folder, "--player", player)
        assert (done.returncode, done.stderr) == (0, ""), done.stderr
        assert (
            f"user {player} (read-only whatever they type, on a server of their own) with\n"
            f"    tmux -S {path} attach\n"
        ) in done.stdout
        gm.wait_for("Roll keypad", target="gm", timeout=60)
        players.wait_for("following", timeout=60)
        common.wait_for("following", timeout=60)

        # The player attaches WITHOUT -r, as their own user.
        seat.start(["runuser", "-u", player, "--", TMUX, "-S", str(path), "attach"], {})
        seat.wait_for("Last exchanges", timeout=60)
        assert players.tmux("list-clients", "-F", "#{client_readonly} #{client_user}") == (
            f"1 {player}\n"
        )
        # Nothing they do reaches anything: no window, no keys, no quitting the view.
        window = as_user(player, TMUX, "-S", str(path), "new-window")
        assert window.returncode == 1 and "client is read-only" in window.stderr
        keys = as_user(player, TMUX, "-S", str(path), "send-keys", "-t", "players", "q")
        assert keys.returncode == 1 and "client is read-only" in keys.stderr
        seat.keys("q")  # typed at their attached terminal: read-only, it goes nowhere
        seat.keys("C-b", "c")
        assert players.tmux("list-windows", "-F", "#{window_index}").split() == ["0"]
        assert sessions(players) == ["players"]

        # The GM's server is out of reach: its socket sits in a folder only the GM enters.
        gm_socket = gm.tmux("display-message", "-p", "#{socket_path}").strip()
        for command in (["list-sessions"], ["attach", "-r"]):
            tried = as_user(player, TMUX, "-S", gm_socket, *command)
            assert tried.returncode == 1
            assert "Permission denied" in tried.stderr, tried.stderr

        # And the player still sees what the GM commits (Cynere ---0 +4 = +1 against
        # Teran 0000 +3 = +3: Teran wins).
        gm.keys_to("gm", "-", "-", "-", "0", "0", "0", "0", "0", "Enter")
        seen = seat.wait_for("Teran the Swift: 0000 → Good (+3)", timeout=60)
        assert "Exchange 1: Teran the Swift wins" in seen
    finally:
        for server in (seat, players, common, gm):
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_user_the_gm_did_not_name_is_turned_away(tmp_path: Path, player: str) -> None:
    assert TMUX is not None
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    folder = Path(tempfile.mkdtemp(prefix="tussle-share-"))
    path = folder / f"{socket}-players"
    gm, players = Terminal(socket=socket), PlayersServer(path)
    try:
        done = share(saves, socket, tmp_path, folder)  # no --player
        assert done.returncode == 0, done.stderr
        players.wait_for("following")
        tried = as_user(player, TMUX, "-S", str(path), "list-sessions")
        assert tried.returncode == 1
        assert "Permission denied" in tried.stderr, tried.stderr
    finally:
        for server in (players, gm):
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def other_player(player: str) -> Iterator[str]:
    name = f"tussle-q{uuid.uuid4().hex[:6]}"
    subprocess.run(["useradd", "--no-create-home", "--shell", "/bin/sh", name], check=True)
    try:
        yield name
    finally:
        subprocess.run(["userdel", name], capture_output=True)


def test_a_player_reaches_no_other_players_seat(
    tmp_path: Path, player: str, other_player: str
) -> None:
    """Issue 30, item 15: on one players' server, a read-only player could detach every
    other client (``detach-client -s players``), have one run a shell command as its own
    user as it left (``detach-client -E``), and shrink everyone's window with a small
    terminal. Each player named now has a server of their own."""
    assert TMUX is not None
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    folder = Path(tempfile.mkdtemp(prefix="tussle-share-"))
    mine, theirs = (folder / f"{socket}-players-{u}" for u in (player, other_player))
    gm, common = Terminal(socket=socket), PlayersServer(folder / f"{socket}-players")
    servers = [PlayersServer(mine), PlayersServer(theirs)]
    seat, their_seat = Terminal((40, 15)), Terminal((90, 28))
    anyone = Path(tempfile.mkdtemp(prefix="tussle-ran-"))
    anyone.chmod(0o1777)  # where a command run as the other player could write
    marker = anyone / "ran"
    try:
        done = share(saves, socket, tmp_path, folder, "--player", player, "--player", other_player)
        assert done.returncode == 0, done.stderr
        for server in servers:
            server.wait_for("following", timeout=60)
        their_seat.start(
            ["runuser", "-u", other_player, "--", TMUX, "-S", str(theirs), "attach"], {}
        )
        their_seat.wait_for("Last exchanges", timeout=60)
        seat.start(["runuser", "-u", player, "--", TMUX, "-S", str(mine), "attach"], {})
        seat.wait_for("following", timeout=60)
        client = servers[1].tmux("list-clients", "-F", "#{client_name}").strip()
        # Whatever the first player tries, on their server or the other's:
        for command in (
            ["detach-client", "-s", "players"],
            ["detach-client", "-a"],
            ["detach-client", "-t", client, "-E", f"touch {marker}"],
            ["attach", "-d"],
        ):
            for path in (mine, theirs):
                as_user(player, TMUX, "-S", str(path), *command)
        tried = as_user(player, TMUX, "-S", str(theirs), "list-clients")
        assert "access not allowed" in tried.stderr  # the other's server: not even that
        # The other player is still there, their window their own size, nothing was run.
        assert servers[1].tmux("list-clients", "-F", "#{client_user}") == f"{other_player}\n"
        assert (
            servers[1].tmux("display-message", "-p", "#{window_width}x#{window_height}").strip()
            == "90x28"
        )
        assert not marker.exists()
        assert "Last exchanges" in their_seat.screen()
    finally:
        for server in (seat, their_seat, *servers, common, gm):
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(anyone, ignore_errors=True)
