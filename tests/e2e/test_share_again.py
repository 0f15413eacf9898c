"""``tussle share`` after the GM quit (issue 24, item 17): the players' server outlives
the dashboard, and a second ``share`` refused and told the GM to end the players'
server (dropping every player). Now the table is taken up again: the GM's dashboard
comes back, the players' view stays as it is, and the GM is told that ``tussle open
NAME`` would do too. A players' view of another campaign is left alone, and said.

Each test has tmux sockets and a players' folder of its own (tests/e2e/seats.py).
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from core.cli.demo import create_demos
from core.saves.store import Saves
from tests.e2e.seats import PlayersServer, attach, sessions, share
from tests.e2e.tmux import TMUX, Terminal, unique_socket
from tests.helpers import clean_env, tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def test_share_after_the_gm_quit_takes_the_table_up_again(tmp_path: Path, folder: Path) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    socket = unique_socket()
    path = folder / f"{socket}-players"
    gm, players, player = Terminal(socket=socket), PlayersServer(path), Terminal((100, 30))
    try:
        assert share(saves, socket, tmp_path, folder).returncode == 0
        gm.wait_for("Roll keypad", target="gm")
        attach(player, path, "-r")
        player.wait_for("Last exchanges")
        gm.keys_to("gm", "q")  # the GM quits: their server ends, the players' stays
        deadline = time.monotonic() + 30
        while sessions(gm) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sessions(gm) == [] and sessions(players) == ["players"]

        again = share(saves, socket, tmp_path, folder)
        assert (again.returncode, again.stderr) == (0, "")
        assert again.stdout == (
            "The players' view of Fate demo was still up, and stays (the players need do "
            "nothing). The GM's dashboard is back; the GM attaches with\n"
            f"    tmux -L {socket} attach -t gm\n"
            "(tussle open 'Fate demo' in any terminal of the GM's is enough too: the "
            "players' view follows the saves, whichever dashboard writes them)\n"
        )
        gm.wait_for("Roll keypad", target="gm")
        assert sessions(players) == ["players"]  # the same server: the player never left
        # Cynere's ---0 on Athletics +4 is Average (+1), Teran's 0000 on Lore +3 Good
        # (+3): Teran wins the exchange, and the player, still attached, sees it.
        gm.keys_to("gm", "-", "-", "-", "0", "0", "0", "0", "0", "Enter")
        player.wait_for("Exchange 1: Teran the Swift wins", timeout=30)
    finally:
        for server in (player, players, gm):
            server.kill()


def test_share_of_another_campaign_leaves_the_players_view_alone(
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
        gm.kill()  # the GM's server gone, the players' view of the Fate demo still up
        other = subprocess.run(
            [*tussle_command(), "--saves", str(saves), "share", "HeroQuest demo"],
            capture_output=True,
            text=True,
            timeout=60,
            env=clean_env(
                {"TUSSLE_SHARE_SOCKET": socket, "TUSSLE_SHARE_FOLDER": str(folder)}
                | {"HOME": str(tmp_path)}
            ),
            stdin=subprocess.DEVNULL,
        )
        assert (other.returncode, other.stdout) == (2, "")
        assert other.stderr == (
            f"(share): a players' view of another table is still up on socket {socket}: "
            f"end it with  tmux -S {path} kill-server, or share on another --socket\n"
        )
        assert sessions(gm) == [] and sessions(players) == ["players"]
        assert "Fate demo" in players.screen() or "Muddy Ground" in players.screen()
    finally:
        players.kill()
        gm.kill()
