"""The GM's dashboard leaves when its terminal goes, SIGHUP or not (issue 24): started
with SIGHUP ignored (``nohup tussle``), a dashboard whose terminal closed spun on its
stdin's end for ever, holding the campaign's lock (:mod:`tui.terminal` says why). It now
asks, as the players' view does, whether its stdin hung up, and ends as a SIGHUP would
end it: the lock released, what was saved kept."""

from __future__ import annotations

import contextlib
import os
import pty
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.cli.demo import create_demos
from core.files.disk import CampaignLocked
from core.saves.store import CampaignFiles, Saves
from tests.helpers import clean_env, tussle_command
from tests.tui.conftest import settle
from tui.app import make_app


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    reader, writer = os.pipe()
    yield reader, writer
    for fd in (reader, writer):
        with contextlib.suppress(OSError):  # closed by the test
            os.close(fd)


def lock_is_free(folder: Path) -> bool:
    files = CampaignFiles(folder)
    try:
        files.lock.acquire("Fate demo")
    except CampaignLocked:
        return False
    files.lock.release()
    return True


async def test_the_dashboard_leaves_when_its_stdin_hangs_up_and_frees_the_lock(
    saves: Path, pipe: tuple[int, int]
) -> None:
    create_demos(Saves(saves))
    reader, writer = pipe
    app = make_app(saves, "Fate demo", stdin=reader, demos=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause(0.5)  # it asked several times already: its terminal is there
        assert app.return_code is None and app.files is not None
        assert not lock_is_free(saves / "fate-demo")
        os.close(writer)  # the terminal goes
        deadline = time.monotonic() + 30
        while app.return_code is None and time.monotonic() < deadline:
            await pilot.pause(0.1)
        assert app.return_code == 0
        assert lock_is_free(saves / "fate-demo")


def test_nohup_tussle_ends_when_its_terminal_closes(tmp_path: Path) -> None:
    """The real ``tussle``, SIGHUP ignored as ``nohup`` leaves it, in a terminal of its
    own (a pty) that then closes: it ends, and the campaign can be opened again."""
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    master, terminal = pty.openpty()
    shown = bytearray()

    def drain() -> None:  # what it draws, read so that it never blocks writing
        with contextlib.suppress(OSError):
            while chunk := os.read(master, 65536):
                shown.extend(chunk)

    process = subprocess.Popen(
        [*tussle_command(), "--saves", str(saves), "open", "Fate demo"],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=clean_env({"TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}),
        # Its own session, and SIGHUP ignored: no hang-up signal ever reaches it.
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),
    )
    os.close(terminal)
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while b"Roll keypad" not in shown and time.monotonic() < deadline:
            time.sleep(0.1)
        assert b"Roll keypad" in shown, shown.decode("utf-8", "replace")
        assert not lock_is_free(saves / "fate-demo")
        os.close(master)  # the terminal closes (an xterm, an SSH connection)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("the dashboard still runs with its terminal gone")
        assert lock_is_free(saves / "fate-demo")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        with contextlib.suppress(OSError):
            os.close(master)
