"""What the tests of the players' seats share: the players' tmux server reached by its
socket's path, running ``share`` with sockets of the test's own, and reading a server;
``tussle serve`` on a port of its own, and the watcher processes reading a saves folder."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp

from core.campaign.log import Play
from core.saves.store import Saves
from tests.e2e.tmux import TMUX, Terminal
from tests.helpers import (
    CID,
    EXCHANGES,
    HIDE_BLADE,
    HIDE_SLY,
    NAME,
    clean_env,
    knife_fight,
    tussle_command,
)


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


# -- browser seats (tussle serve) ------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def watcher_pids(saves: Path) -> list[int]:
    """The ``tussle … watch`` processes that read ``saves`` (a zombie has no command line:
    not one of them)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            argv = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
        script = any(arg.endswith(b"/tussle") for arg in argv[:2])  # python3 tussle …
        if script and b"watch" in argv and str(saves).encode() in argv:
            found.append(int(cmdline.parent.name))
    return found


def watchers(saves: Path) -> int:
    """How many ``tussle … watch`` processes read ``saves``."""
    return len(watcher_pids(saves))


def zombies_of(pid: int) -> list[int]:
    """The children of process ``pid`` that ended and were never waited for."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] == "Z" and int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


# How long a test waits for what a process does before its assert says it did not: long
# enough for a two-core machine under a load of 20 and more, where ten watchers that only
# refuse to start took 28 s between them. A wait ends as soon as what it waits for holds,
# so a quiet machine loses nothing.
PATIENCE = 180.0


def sighup_default() -> None:
    """(A child's ``preexec_fn``.) SIGHUP at its default action, whatever the tests
    inherited: run under ``nohup`` or a CI runner that ignores SIGHUP, every child would
    ignore it too, and a test that sends one would wait for an end that never comes."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def wait_until(done: Callable[[], bool], seconds: float = PATIENCE) -> float:
    """Seconds until ``done()`` held, asked ten times a second for at most ``seconds``
    (then the test's own assert says what did not happen)."""
    start = time.monotonic()
    while not done() and time.monotonic() - start < seconds:
        time.sleep(0.1)
    return time.monotonic() - start


# The table's link on serve's start line: http://127.0.0.1:PORT/KEY/.
LINK = re.compile(r"^    (http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+/)$", re.MULTILINE)


class Served:
    """``tussle serve`` on a free port of 127.0.0.1, stopped (SIGTERM) at the end.
    ``url`` is the table's secret link (without its last slash: ``url + "/ws"`` is the
    websocket), as the line ``serve`` starts with gives it; ``origin`` is the server's."""

    def __init__(self, saves: Path, log: Path, name: str = NAME) -> None:
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self._url = ""
        self.log = log
        self.process = subprocess.Popen(
            [*tussle_command(), "--saves", str(saves), "serve", name, "--port", str(self.port)],
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=clean_env(),
            preexec_fn=sighup_default,  # a SIGHUP a test sends reaches it as a GM's would
        )

    @property
    def url(self) -> str:
        """The link ``serve`` printed (waited for): printed once it listens, so a request
        sent at once is answered."""
        deadline = time.monotonic() + PATIENCE
        while not self._url:
            found = LINK.search(self.log.read_text())
            if found is not None:
                self._url = found[1].rstrip("/")
            elif time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"serve gave no link: {self.log.read_text()}")
            else:
                time.sleep(0.1)
        return self._url

    def stop(self, how: signal.Signals = signal.SIGTERM) -> int:
        self.process.send_signal(how)
        try:
            return self.process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


async def page(url: str) -> str:
    """The page at ``url`` (200), asked once."""
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        return str(await response.text())


# What a terminal makes of the bytes: escape sequences (colours, cursor moves) out.
ESCAPES = re.compile(
    r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\-_])"
)


def saved_knife_fight(saves: Path) -> None:
    campaign, entries = knife_fight(HIDE_SLY, HIDE_BLADE)
    entries += [campaign.act(Play(contest_id=CID, commands=c)) for c in EXCHANGES]
    Saves(saves).create(NAME, "fate").append(entries)


async def raw_seat(
    url: str,
    until: str,
    size: tuple[int | str, int | str] = (100, 30),
    headers: dict[str, str] | None = None,
) -> str:
    """What a browser's terminal receives over the websocket (as text, escapes kept),
    once it holds ``until``; the websocket stays open until then."""
    width, height = size
    received = b""
    address = f"{url}/ws?width={width}&height={height}"
    async with (
        asyncio.timeout(60),  # the websocket's opening and closing included
        aiohttp.ClientSession() as session,
        session.ws_connect(address, headers=headers) as ws,
    ):
        await ws.send_json(["resize", {"width": width, "height": height}])
        deadline = time.monotonic() + 30
        while until not in ESCAPES.sub("", received.decode("utf-8", "replace")):
            left = deadline - time.monotonic()
            assert left > 0, ESCAPES.sub("", received.decode("utf-8", "replace"))
            message = await ws.receive(timeout=left)
            if message.type == aiohttp.WSMsgType.BINARY:
                received += message.data
            elif message.type == aiohttp.WSMsgType.TEXT:
                received += message.data.encode()
            else:
                raise AssertionError(f"the websocket closed: {message}")
    return received.decode("utf-8", "replace")


async def seat(
    url: str,
    until: str,
    size: tuple[int, int] = (100, 30),
    headers: dict[str, str] | None = None,
) -> str:
    """What a browser's terminal shows (as text, escapes out), once it holds ``until``."""
    return ESCAPES.sub("", await raw_seat(url, until, size, headers))
