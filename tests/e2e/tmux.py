"""Driving the real ``tussle`` in a real terminal: a private tmux server per use."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import time
import uuid
from pathlib import Path

from tests.helpers import clean_env

TMUX = shutil.which("tmux")


def unique_socket() -> str:
    """A tmux socket name no user's server and no parallel test uses."""
    return f"tussle-test-{uuid.uuid4().hex[:8]}"


class Terminal:
    """A tmux server of its own with one window running ``command``.

    Every tmux call gets an explicit, clean environment (``clean_env``): the server
    started by the first one passes it to the panes, so the terminal pytest runs in (its
    COLUMNS and LINES, its TMUX, its locale) never reaches the ``tussle`` inside.
    """

    def __init__(self, size: tuple[int, int] = (80, 24), socket: str | None = None) -> None:
        assert TMUX is not None
        self.socket = socket or unique_socket()
        self.size = size

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            [TMUX, "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=30,
            env=clean_env(),
            stdin=subprocess.DEVNULL,
        )
        return done.stdout

    def start(self, command: list[str], env: dict[str, str], status: Path | None = None) -> None:
        line = shlex.join(command)
        if status is not None:
            line = f"{line}; echo $? > {shlex.quote(str(status))}"
        exports = [arg for k, v in env.items() for arg in ("-e", f"{k}={v}")]
        self.tmux(
            "new-session", "-d", "-x", str(self.size[0]), "-y", str(self.size[1]),
            "-e", "COLORTERM=truecolor", "-e", "TEXTUAL_ANIMATIONS=none", *exports,
            f"sh -c {shlex.quote(line)}",
            ";", "set-option", "-g", "escape-time", "10",
            ";", "set-option", "-g", "remain-on-exit", "on",
        )  # fmt: skip

    def screen(self, target: str | None = None) -> str:
        """What the pane shows (of session ``target``, on a server with several)."""
        return self.tmux("capture-pane", "-p", *(("-t", target) if target else ()))

    def wait_for(self, text: str, timeout: float = 30.0, target: str | None = None) -> str:
        deadline = time.monotonic() + timeout
        shown = ""
        while time.monotonic() < deadline:
            shown = self.screen(target)
            if text in shown:
                return shown
            time.sleep(0.05)
        raise AssertionError(f"{text!r} did not appear in {timeout} s; the screen:\n{shown}")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", *keys)

    def keys_to(self, target: str, *keys: str) -> None:
        """Keys for session ``target``, on a server with several."""
        self.tmux("send-keys", "-t", target, *keys)

    def kill(self) -> None:
        self.tmux("kill-server")


def wait_for_file(path: Path, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        time.sleep(0.05)
    raise AssertionError(f"{path} was not written in {timeout} s")
