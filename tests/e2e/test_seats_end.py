"""Seats that end (issue 23, item 6): a players' view whose terminal goes away ends
instead of spinning on its stdin's end for ever, and ``tussle serve`` leaves no watcher
behind, whenever and however its browser leaves, and when ``serve`` itself ends.

Each test asserts that no process is left after a generous wait (30 s, asked ten times a
second); the time it took is printed (``pytest -s`` shows it), never asserted. Watchers
start ten at a time: a two-core machine starts ten Textual apps in a few seconds.
"""

from __future__ import annotations

import fcntl
import os
import selectors
import signal
import struct
import subprocess
import termios
import time
from functools import partial
from pathlib import Path

import pytest

from core.demo import create_demos
from core.store import Saves
from tests.e2e.seats import wait_until, watchers
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


def showing(seats: list[PtyWatcher], seconds: float = 60.0) -> None:
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
