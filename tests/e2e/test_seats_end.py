"""Seats that end (issue 23, item 6): a players' view whose terminal goes away ends
instead of spinning on its stdin's end for ever, and ``tussle serve`` leaves no watcher
behind, whenever and however its browser leaves, and when ``serve`` itself ends.

Each test asserts that no process is left after a generous wait (``PATIENCE``, 180 s,
asked ten times a second: on two cores under a load of 20 and more, ten watchers that only
refuse to start took 28 s); the time it took is printed (``pytest -s`` shows it), never
asserted. A SIGHUP a test sends reaches a child at its default action, whatever the
tests inherited (``sighup_default``: under ``nohup`` every child ignored it, and waited for
ever). Watchers start ten at a time: a two-core machine starts ten Textual apps in a few
seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import selectors
import shutil
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import aiohttp
import pytest

from core.cli.demo import create_demos
from core.saves.store import Saves
from tests.e2e.seats import (
    PATIENCE,
    Served,
    page,
    sighup_default,
    wait_until,
    watcher_pids,
    watchers,
    zombies_of,
)
from tests.helpers import clean_env, tussle_command

CAMPAIGN = "Fate demo"
SHOWN = b"race across the mud"  # the Fate demo's contest, on the view's first frame
WATCHERS = 20
BATCH = 10
NO_TERMINAL = (
    "(watch): the players' view needs a terminal, and stdin is not one (over SSH: ssh -t, not -T)\n"
)


@pytest.fixture
def demos(tmp_path: Path) -> Path:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    return saves


def watch(saves: Path) -> list[str]:
    return [*tussle_command(), "--saves", str(saves), "watch", CAMPAIGN]


class PtyWatcher:
    """``tussle watch`` in an 80x24 terminal of its own (a pty), in a session of its own:
    when its terminal goes, no SIGHUP reaches it (as when sshd's went to a shell between
    them, or never came)."""

    def __init__(self, saves: Path) -> None:
        self.master, terminal = os.openpty()
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen(
            watch(saves),
            stdin=terminal,
            stdout=terminal,
            stderr=terminal,
            env=clean_env({"TEXTUAL_ANIMATIONS": "none"}),
            start_new_session=True,
            preexec_fn=sighup_default,  # a SIGHUP a test sends reaches it as sshd's would
        )
        os.close(terminal)
        self.shown = b""

    def read(self) -> bool:
        """What the watcher drew since; False once there is nothing more to read."""
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        self.shown += data
        return bool(data)

    def hang_up(self) -> None:
        """The terminal goes (the SSH connection drops): its master side closes."""
        os.close(self.master)
        self.master = -1

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.master >= 0:
            self.hang_up()


def showing(seats: list[PtyWatcher], seconds: float = PATIENCE) -> None:
    """Wait until each watcher shows its first frame (reading what they draw meanwhile,
    so none waits on a full terminal)."""
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as selector:
        for seat in seats:
            selector.register(seat.master, selectors.EVENT_READ, seat)
        while any(SHOWN not in seat.shown for seat in seats) and time.monotonic() < deadline:
            for key, _ in selector.select(0.1):
                if not key.data.read():
                    selector.unregister(key.fd)
    assert [SHOWN in seat.shown for seat in seats] == [True] * len(seats)


def ended(processes: list[subprocess.Popen[bytes]]) -> bool:
    return all(process.poll() is not None for process in processes)


@contextlib.contextmanager
def sighup_ignored() -> Iterator[None]:
    """This process ignores SIGHUP meanwhile, as under ``nohup`` or a CI runner that
    does: what it starts inherits that, unless told otherwise."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, before)


def test_a_sighup_the_tests_send_ends_a_seat_and_serve_even_under_nohup(
    demos: Path, tmp_path: Path
) -> None:
    """Run under ``nohup``, the tests' watchers and ``serve`` ignored the SIGHUP the tests
    send them, and the tests waited out their patience (a CI run on a loaded machine
    failed so: its runner ignored SIGHUP). Started as the tests start them, a SIGHUP's
    default action (POSIX: the process ends) reaches both all the same."""
    with sighup_ignored():
        seat = PtyWatcher(demos)
        server = Served(demos, tmp_path / "serve.log", CAMPAIGN)
    both = [seat.process, server.process]
    try:
        showing([seat])
        asyncio.run(page(server.url))
        for process in both:
            process.send_signal(signal.SIGHUP)
        wait_until(partial(ended, both))
        # Ended by the signal itself (Popen: a negative return code names it).
        assert [process.returncode for process in both] == [-signal.SIGHUP] * 2
    finally:
        seat.close()
        if server.process.poll() is None:
            server.stop(signal.SIGKILL)


def test_twenty_watchers_without_a_terminal_and_twenty_sent_sighup_all_end(
    demos: Path, tmp_path: Path
) -> None:
    started: list[subprocess.Popen[bytes]] = []
    seats: list[PtyWatcher] = []
    try:
        # Stdin at its end and no terminal anywhere: /dev/null, or a pipe whose writer is
        # gone (ssh -T once the player leaves). Refused in one line, before any frame.
        for batch in range(WATCHERS // BATCH):
            these = []
            for number in range(BATCH):
                reader, writer = os.pipe()
                os.close(writer)
                stdin = subprocess.DEVNULL if number % 2 else reader
                log = tmp_path / f"no-terminal-{batch}-{number}.err"
                with log.open("wb") as err:
                    these.append(
                        subprocess.Popen(
                            watch(demos), stdin=stdin, stdout=err, stderr=err, env=clean_env()
                        )
                    )
                os.close(reader)
            started += these
            taken = wait_until(partial(ended, these))
            print(f"{BATCH} watchers without a terminal: all ended {taken:.2f} s after start")
            assert ended(these)
        assert [process.returncode for process in started] == [2] * WATCHERS
        logs = sorted(tmp_path.glob("no-terminal-*.err"))
        assert [log.read_text() for log in logs] == [NO_TERMINAL] * WATCHERS

        # Twenty in a terminal, sent SIGHUP (the SSH connection drops, sshd says so).
        for _ in range(WATCHERS // BATCH):
            these_seats = [PtyWatcher(demos) for _ in range(BATCH)]
            seats += these_seats
            showing(these_seats)
            hung = [seat.process for seat in these_seats]
            for process in hung:
                process.send_signal(signal.SIGHUP)
            taken = wait_until(partial(ended, hung))
            print(f"{BATCH} watchers sent SIGHUP: all ended {taken:.2f} s after it")
            assert ended(hung)
        assert watchers(demos) == 0
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait()
        for seat in seats:
            seat.close()


def test_twenty_watchers_whose_terminal_goes_without_a_sighup_end(demos: Path) -> None:
    seats: list[PtyWatcher] = []
    try:
        for _ in range(WATCHERS // BATCH):
            these = [PtyWatcher(demos) for _ in range(BATCH)]
            seats += these
            showing(these)
            for seat in these:
                seat.hang_up()
            gone = [seat.process for seat in these]
            taken = wait_until(partial(ended, gone))
            print(f"{BATCH} watchers whose terminal went: all ended {taken:.2f} s after it")
            assert ended(gone)
            # They left as when the players leave: nobody is watching any more.
            assert [process.returncode for process in gone] == [0] * BATCH
        assert watchers(demos) == 0
    finally:
        for seat in seats:
            seat.close()


# -- browser seats ------------------------------------------------------------------------


def served(saves: Path, tmp_path: Path) -> Served:
    server = Served(saves, tmp_path / "serve.log", CAMPAIGN)
    asyncio.run(page(server.url))
    return server


async def first_frame(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Read the seat until its watcher has drawn the contest: it runs."""
    received = b""
    deadline = time.monotonic() + PATIENCE
    while SHOWN not in received:
        message = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
        assert message.type == aiohttp.WSMsgType.BINARY, message
        received += message.data


def no_watcher_left(saves: Path, server: Served, what: str) -> None:
    """Wait until no watcher reads ``saves``; say how long it took; none left, and no
    zombie of ``serve`` (while it runs)."""
    taken = wait_until(lambda: watchers(saves) == 0)
    print(f"{what}: no watcher left {taken:.2f} s after")
    assert watchers(saves) == 0
    if server.process.poll() is None:
        # A watcher that has just ended is a zombie until serve waits for it (at once,
        # but not in the same instant): none may stay.
        wait_until(lambda: zombies_of(server.process.pid) == [])
        assert zombies_of(server.process.pid) == []


def test_browsers_that_leave_while_their_page_loads_leave_no_watcher(
    demos: Path, tmp_path: Path
) -> None:
    server = served(demos, tmp_path)

    async def visit(session: aiohttp.ClientSession, stay: float, drop: bool) -> None:
        """A page that opens its websocket and leaves ``stay`` seconds later, while its
        watcher starts: closing the websocket, or dropping the connection outright."""
        ws = await session.ws_connect(f"{server.url}/ws?width=100&height=30")
        await ws.send_json(["resize", {"width": 100, "height": 30}])
        await asyncio.sleep(stay)
        if drop:
            assert ws._response is not None  # aiohttp's client has no public abort
            connection = ws._response.connection
            assert connection is not None and connection.transport is not None
            connection.transport.abort()
        else:
            await ws.close()

    async def visits() -> None:
        async with aiohttp.ClientSession() as session:
            stays = (0.0, 0.1, 0.3, 0.6, 1.0, 1.5, 2.0, 3.0)
            await asyncio.gather(
                *(visit(session, stay, drop) for stay in stays for drop in (False, True))
            )

    try:
        asyncio.run(visits())
        no_watcher_left(demos, server, "16 browsers that left while their page loaded")
        assert server.process.poll() is None  # serve itself goes on
    finally:
        assert server.stop() == 0, server.log.read_text()


def test_a_watcher_that_does_not_answer_is_ended_all_the_same(demos: Path, tmp_path: Path) -> None:
    server = served(demos, tmp_path)
    stuck: list[int] = []

    async def leave_a_stuck_watcher() -> None:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"{server.url}/ws?width=100&height=30")
            await first_frame(ws)
            stuck.extend(watcher_pids(demos))
            for pid in stuck:
                os.kill(pid, signal.SIGSTOP)  # it answers nothing, not even SIGTERM
            await ws.close()

    try:
        asyncio.run(leave_a_stuck_watcher())
        assert len(stuck) == 1
        no_watcher_left(demos, server, "a watcher stopped, its browser gone")
    finally:
        for pid in stuck:
            if pid in watcher_pids(demos):
                os.kill(pid, signal.SIGKILL)
        server.stop()


@pytest.mark.parametrize(
    "how", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=lambda how: how.name
)
def test_serve_ending_ends_every_watcher_it_started(
    how: signal.Signals, demos: Path, tmp_path: Path
) -> None:
    server = served(demos, tmp_path)
    counted: list[int] = []

    async def two_seats_then_serve_ends() -> None:
        async with aiohttp.ClientSession() as session:
            sockets = [await session.ws_connect(f"{server.url}/ws") for _ in range(2)]
            await asyncio.gather(*(first_frame(ws) for ws in sockets))
            counted.append(watchers(demos))
            server.process.send_signal(how)  # the GM's Ctrl+C, terminal closed, kill -9
            await asyncio.to_thread(server.process.wait, PATIENCE)
            for ws in sockets:
                await ws.close()

    try:
        asyncio.run(two_seats_then_serve_ends())
        assert counted == [2]
        no_watcher_left(demos, server, f"serve ended by {how.name}")
        if how == signal.SIGTERM:
            assert server.process.returncode == 0
    finally:
        for pid in watcher_pids(demos):
            os.kill(pid, signal.SIGKILL)
        if server.process.poll() is None:
            server.stop()


BROWSER = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)


@pytest.mark.skipif(BROWSER is None, reason="no headless browser (chromium) is installed")
def test_a_real_browser_that_leaves_while_its_page_loads_leaves_no_watcher(
    demos: Path, tmp_path: Path
) -> None:
    assert BROWSER is not None
    server = served(demos, tmp_path)
    try:
        for stay in (0.5, 1.0, 2.0, 3.0, 5.0):
            browser = subprocess.Popen(
                [
                    BROWSER,
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    f"--user-data-dir={tmp_path / f'browser-{stay}'}",
                    server.url,
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=clean_env(),
            )
            time.sleep(stay)
            browser.kill()  # the tab, the window, the browser: gone at once
            browser.wait()
        no_watcher_left(demos, server, "5 real browsers killed while their page loaded")
    finally:
        assert server.stop() == 0, server.log.read_text()
