"""``tussle share NAME``: the GM's dashboard and the players' view in one tmux server.

Two sessions on a private tmux server (socket ``tussle``): ``gm`` runs the dashboard,
``players`` runs ``tussle watch``. ``window-size manual`` keeps a small read-only client
from shrinking the windows (a read-only client alone would otherwise set the size).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from core.store import Saves, saves_folder

SOCKET = "tussle"


def commands(name: str, saves: Path, tussle: str) -> list[list[str]]:
    """The tmux calls that set the table up."""
    base = ["tmux", "-L", SOCKET]
    saves_arg = ["--saves", str(saves)]
    gm = shlex.join([tussle, *saves_arg, "open", name])
    players = shlex.join([tussle, *saves_arg, "watch", name])
    return [
        [*base, "new-session", "-d", "-s", "gm", "-x", "160", "-y", "48", gm],
        [*base, "set-option", "-g", "window-size", "manual"],
        [*base, "new-session", "-d", "-s", "players", "-x", "120", "-y", "40", players],
    ]


def share(saves_arg: str | None, name: str) -> int:
    saves = saves_folder(saves_arg).resolve()
    if Saves(saves).find(name) is None:
        print(f'(share): no campaign "{name}"', file=sys.stderr)
        return 2
    if shutil.which("tmux") is None:
        print("(share): tmux is not installed", file=sys.stderr)
        return 2
    tussle = str(Path(sys.argv[0]).resolve()) if sys.argv and sys.argv[0] else "tussle"
    for call in commands(name, saves, tussle):
        done = subprocess.run(call, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"(share): {' '.join(call[:5])}…: {done.stderr.strip()}", file=sys.stderr)
            return 1
    print(
        "The table is set. The GM attaches with\n"
        f"    tmux -L {SOCKET} attach -t gm\n"
        "players (here, or over ssh to this machine) attach read-only with\n"
        f"    tmux -L {SOCKET} attach -r -t players\n"
        f"and everything stops with  tmux -L {SOCKET} kill-server"
    )
    return 0
