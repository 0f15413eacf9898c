"""``tussle share --ssh-key FILE``, ``resolve FILE`` and ``odds FILE`` read the file only
if it is one (issue 30, item 12: no path a user names is opened in a way that can block):
a pipe was waited on for ever."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from core.cli.demo import create_demos
from core.saves.store import Saves
from tui.share import authorized_keys


def test_a_pipe_for_a_key_file_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    fifo = tmp_path / "keys.pub"
    os.mkfifo(fifo)
    # After 30 s, a writer that comes and goes: code that waits on the pipe then goes on
    # (and this test fails instead of hanging).
    timer = threading.Timer(30, lambda: os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)))
    timer.daemon = True
    timer.start()
    try:
        assert authorized_keys(str(saves), "Fate demo", str(fifo)) == 2
    finally:
        timer.cancel()
    assert capsys.readouterr().err == (f"(share): cannot read {fifo}: a pipe (FIFO), not a file\n")


@pytest.mark.parametrize("command", ["resolve", "odds"])
def test_a_pipe_for_a_scenario_is_refused_at_once(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.helpers import tussle

    (tmp_path / "saves").mkdir()
    fifo = tmp_path / "race.json"
    os.mkfifo(fifo)
    timer = threading.Timer(30, lambda: os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)))
    timer.daemon = True
    timer.start()
    try:
        assert tussle(tmp_path / "saves", command, str(fifo)) == 2
    finally:
        timer.cancel()
    assert "a pipe (FIFO), not a file" in capsys.readouterr().err
