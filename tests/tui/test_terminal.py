"""Screens that need a terminal (issue 23 item 6, issue 30 item 10): without one, the
dashboard and the players' view refuse to start (exit 2, one line) instead of spinning
on stdin's end for ever, the dashboard before it takes the campaign's lock; and the
players' view leaves when its stdin hangs up. :mod:`tui.terminal` says why."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.cli.demo import create_demos
from core.saves.store import Saves
from tests.helpers import clean_env, tussle_command
from tui.terminal import has_terminal, hung_up
from tui.watch import WatchApp


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    reader, writer = os.pipe()
    yield reader, writer
    for fd in (reader, writer):
        with contextlib.suppress(OSError):  # closed by the test
            os.close(fd)


def test_a_pipe_hangs_up_when_its_writer_closes_and_its_waiting_keys_stay(
    pipe: tuple[int, int],
) -> None:
    reader, writer = pipe
    assert not hung_up(reader)
    os.write(writer, b"q")
    assert not hung_up(reader)
    assert os.read(reader, 10) == b"q"  # asking read nothing: the key was still there
    os.close(writer)
    assert hung_up(reader)


def test_a_terminal_hangs_up_when_it_goes() -> None:
    master, terminal = os.openpty()
    try:
        assert not hung_up(terminal)
        os.close(master)  # the SSH connection drops: sshd closes its side
        assert hung_up(terminal)
    finally:
        os.close(terminal)


def test_a_closed_stdin_counts_as_hung_up(pipe: tuple[int, int]) -> None:
    reader, _ = pipe
    os.close(reader)
    assert hung_up(reader)


def test_only_a_terminal_or_a_driver_of_textuals_own_will_do(pipe: tuple[int, int]) -> None:
    reader, _ = pipe
    master, terminal = os.openpty()
    try:
        assert has_terminal({}, terminal)
        assert not has_terminal({}, reader)
        # tussle serve's watchers read its pipe through Textual's web driver.
        web = {"TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver"}
        assert has_terminal(web, reader)
    finally:
        os.close(master)
        os.close(terminal)


async def test_the_view_leaves_when_its_stdin_hangs_up(saves: Path, pipe: tuple[int, int]) -> None:
    create_demos(Saves(saves))
    files = Saves(saves).find("Fate demo")
    assert files is not None
    reader, writer = pipe
    app = WatchApp(files.folder, stdin=reader)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.5)  # it asked several times already: still there
        assert app.return_code is None
        os.close(writer)
        deadline = time.monotonic() + 30
        while app.return_code is None and time.monotonic() < deadline:
            await pilot.pause(0.1)
        assert app.return_code == 0


def everything_under(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("stdin", ["/dev/null", "a pipe at its end"])
@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["open", "Fate demo"], "tussle: the dashboard needs a terminal, and stdin is not one"),
        ([], "tussle: the dashboard needs a terminal, and stdin is not one"),
        (
            ["watch", "Fate demo"],
            "(watch): the players' view needs a terminal, and stdin is not one "
            "(over SSH: ssh -t, not -T)",
        ),
    ],
    ids=["open", "dashboard", "watch"],
)
def test_without_a_terminal_a_screen_refuses_to_start_and_opens_nothing(
    command: list[str], said: str, stdin: str, tmp_path: Path
) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    before = everything_under(saves)
    reader, writer = os.pipe()
    os.close(writer)
    try:
        with open(os.devnull, "rb") as null:
            done = subprocess.run(
                [*tussle_command(), "--saves", str(saves), *command],
                stdin=null if stdin == "/dev/null" else reader,
                capture_output=True,
                text=True,
                timeout=60,  # what it did before: spin for ever, holding the lock
                env=clean_env(),
                cwd=tmp_path,
            )
    finally:
        os.close(reader)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", said + "\n")
    assert everything_under(saves) == before  # no lock taken, nothing written


def test_watch_of_a_name_a_capital_off_names_the_campaign_there_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As `tussle open` does for a close name (README), the players' view of "fate demo"
    says there is "Fate demo", and how to watch it, before anything else (exit 2)."""
    from tui.watch import run_watch

    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    assert run_watch(str(saves), "fate demo") == 2
    assert capsys.readouterr().err == (
        '(watch): no campaign "fate demo" (there is "Fate demo": tussle watch \'Fate demo\')\n'
    )
    assert run_watch(str(saves), "Nobody") == 2
    assert capsys.readouterr().err == '(watch): no campaign "Nobody"\n'
