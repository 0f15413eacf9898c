"""No path a user names is opened in a way that can block (issue 30, item 12): the
roster's import (``I``) named a pipe (FIFO) and the dashboard stopped, waiting for a
writer that never came; ``tussle roster import`` did the same, holding the campaign's
lock. Now the form says what the path is, under it, at once; the command exits 2."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from textual.widgets import Static

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.saves.store import CampaignFiles, Saves
from tests.helpers import tussle
from tests.tui.conftest import keys, new_app, seed_campaign, settle, write
from tui.screens.forms import FormScreen
from tui.screens.roster import RosterScreen

PIPE = "cannot be read (a pipe (FIFO), not a file)"


def night_watch(saves: Path) -> None:
    seed_campaign(
        saves,
        "Night Watch",
        "fate",
        [Character(name="Ana", ratings={"Burglary": 3}), Character(name="Guard", kind="npc")],
        [Pick(character="Ana", side="Ana"), Pick(character="Guard", side="Guard")],
    )


def unblocker(fifo: Path) -> threading.Timer:
    """After 30 s, a writer that comes and goes: whatever waits on the pipe then reads
    its end (so a test of code that waits fails, and does not hang)."""
    timer = threading.Timer(30, lambda: os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)))
    timer.daemon = True
    timer.start()
    return timer


async def test_the_import_form_says_a_pipe_is_no_file_and_keeps_the_path(
    saves: Path, tmp_path: Path
) -> None:
    night_watch(saves)
    fifo = tmp_path / "party.toml"
    os.mkfifo(fifo)
    app = new_app(saves, "Night Watch")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w")
        assert isinstance(app.screen, RosterScreen)
        await keys(pilot, "I")
        form = app.screen
        assert isinstance(form, FormScreen)
        await write(pilot, str(fifo))
        timer = unblocker(fifo)
        try:
            await keys(pilot, "enter")
        finally:
            timer.cancel()
        assert app.screen is form  # the form stays open, the path as typed
        error = form.query_one("#e-path", Static)
        assert error.display and f"{fifo}: {PIPE}" in str(error.visual)
        assert list(app.campaign.roster) == ["Ana", "Guard"]


def test_the_command_refuses_a_pipe_at_once_and_lets_the_lock_go(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    night_watch(saves)
    fifo = tmp_path / "party.toml"
    os.mkfifo(fifo)
    timer = unblocker(fifo)
    try:
        assert tussle(saves, "roster", "import", "Night Watch", str(fifo)) == 2
    finally:
        timer.cancel()
    assert f"{fifo}: {PIPE} (nothing imported)" in capsys.readouterr().err
    files = Saves(saves).find("Night Watch")
    assert files is not None
    files.lock.acquire("Night Watch")  # free again
    files.lock.release()
    assert list(CampaignFiles(files.folder).load().roster) == ["Ana", "Guard"]


def test_a_number_of_5000_digits_in_a_roster_file_is_exit_2_not_a_bug(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 30, item 15: it exited 70, "a bug in Tussle".
    night_watch(saves)
    roster = tmp_path / "party.toml"
    roster.write_text('[[characters]]\nname = "Bo"\nfate_points = ' + "7" * 5000 + "\n")
    assert tussle(saves, "roster", "import", "Night Watch", str(roster)) == 2
    err = capsys.readouterr().err
    assert f"{roster}: a number of thousands of digits: not a roster (nothing imported)" in err
    assert "bug" not in err


def test_a_roster_nested_too_deep_is_refused(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    night_watch(saves)
    roster = tmp_path / "party.json"
    roster.write_text("{" + '"a": {' * 100 + "}" * 100 + "}")
    assert tussle(saves, "roster", "import", "Night Watch", str(roster)) == 2
    assert "nested more than 64 deep" in capsys.readouterr().err
