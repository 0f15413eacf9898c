"""What the tests of ``tussle share`` share: the players' tmux server reached by its
socket's path, running ``share`` with sockets of the test's own, and reading a server."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.e2e.tmux import TMUX, Terminal
from tests.helpers import clean_env, tussle_command


class PlayersServer(Terminal):
    """The players' server share starts, reached by its socket's path (``tmux -S``)."""

    def __init__(self, path: Path) -> None:
        super().__init__(socket=str(path))
        self.path = path

    def tmux(self, *args: str) -> str:
        return self.run(*args).stdout

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        assert TMUX is not None
        return subprocess.run(
            [TMUX, "-S", str(self.path), *args],
            capture_output=True,
            text=True,
            timeout=30,
            env=clean_env(),
            stdin=subprocess.DEVNULL,
        )

    def kill(self) -> None:
        super().kill()
        self.path.unlink(missing_ok=True)


def share(
    saves: Path, socket: str, home: Path, folder: Path, *extra: str
) -> subprocess.CompletedProcess[str]:
    """``tussle --saves SAVES share "Fate demo"`` on tmux socket ``socket``, the players'
    socket in ``folder`` (and a HOME with no ``.tmux.conf``: share runs the GM's server
    as a GM would, with their configuration)."""
    return subprocess.run(
        [*tussle_command(), "--saves", str(saves), "share", "Fate demo", *extra],
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(
            {"TUSSLE_SHARE_SOCKET": socket, "TUSSLE_SHARE_FOLDER": str(folder), "HOME": str(home)}
        ),
        stdin=subprocess.DEVNULL,
    )


def window_size(server: Terminal) -> str:
    return server.tmux("display-message", "-p", "#{window_width}x#{window_height}").strip()


def sessions(server: Terminal) -> list[str]:
    return server.tmux("list-sessions", "-F", "#{session_name}").split()


def attach(player: Terminal, path: Path, *options: str) -> None:
    """A player's terminal of its own (a pty: a second tmux) attached to the players'
    server."""
    player.start(["env", "-u", "TMUX", "tmux", "-S", str(path), "attach", *options], {})
