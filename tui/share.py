"""``tussle share NAME``: the GM's dashboard and the players' view in one tmux server.

Two sessions on a private tmux server (socket ``tussle``, or ``--socket NAME``): ``gm``
runs the dashboard, ``players`` runs ``tussle watch``. ``window-size manual`` keeps a small
read-only client from shrinking the windows (a read-only client alone would otherwise set
the size).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from core.store import Saves, saves_folder

SOCKET = "tussle"
# Another socket than ``tussle``: two tables on one machine, and the tests (which must
# never touch a real table's server, nor each other's). ``--socket`` says the same.
SOCKET_VARIABLE = "TUSSLE_SHARE_SOCKET"


def socket_name(explicit: str | None = None) -> str:
    """``--socket NAME``, else ``$TUSSLE_SHARE_SOCKET``, else ``tussle``."""
    return explicit or os.environ.get(SOCKET_VARIABLE) or SOCKET


def command(name: str, saves: Path, tussle: str, socket: str = SOCKET) -> list[str]:
    """The one tmux call that sets the table up: both sessions first, then
    ``window-size manual``. (tmux 3.3a's server crashes, "server exited unexpectedly",
    when that option is set between two ``new-session -d``, in one call or in two.)"""
    saves_arg = ["--saves", str(saves)]
    gm = shlex.join([tussle, *saves_arg, "open", name])
    players = shlex.join([tussle, *saves_arg, "watch", name])
    return [
        "tmux", "-L", socket,
        "new-session", "-d", "-s", "gm", "-x", "160", "-y", "48", gm,
        ";", "new-session", "-d", "-s", "players", "-x", "120", "-y", "40", players,
        ";", "set-option", "-g", "window-size", "manual",
    ]  # fmt: skip


def share(saves_arg: str | None, name: str, socket_arg: str | None = None) -> int:
    saves = saves_folder(saves_arg).resolve()
    if Saves(saves).find(name) is None:
        print(f'(share): no campaign "{name}"', file=sys.stderr)
        return 2
    if shutil.which("tmux") is None:
        print("(share): tmux is not installed", file=sys.stderr)
        return 2
    socket = socket_name(socket_arg)
    tmux = ["tmux", "-L", socket]
    if subprocess.run([*tmux, "has-session"], capture_output=True).returncode == 0:
        print(
            f"(share): a tmux server is running on socket {socket} already "
            f"(a table set earlier?): attach to it, or end it with  "
            f"tmux -L {socket} kill-server",
            file=sys.stderr,
        )
        return 2
    tussle = str(Path(sys.argv[0]).resolve()) if sys.argv and sys.argv[0] else "tussle"
    done = subprocess.run(command(name, saves, tussle, socket), capture_output=True, text=True)
    if done.returncode != 0:
        subprocess.run([*tmux, "kill-server"], capture_output=True)  # no half-set table
        print(f"(share): tmux -L {socket} new-session…: {done.stderr.strip()}", file=sys.stderr)
        return 1
    print(
        "The table is set. The GM attaches with\n"
        f"    tmux -L {socket} attach -t gm\n"
        "players (here, or over ssh to this machine) attach read-only with\n"
        f"    tmux -L {socket} attach -r -t players\n"
        f"and everything stops with  tmux -L {socket} kill-server"
    )
    return 0
