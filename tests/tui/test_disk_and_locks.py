"""Disk trouble and a campaign held elsewhere, as the GM sees them."""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot

from core.files import disk
from core.saves.store import CampaignFiles
from tests.helpers import HOLD_DEMO
from tests.tui.conftest import keys, new_app, settle, text
from tui.widgets.choice import Choice


def full_disk(path: Path) -> None:
    raise OSError(errno.ENOSPC, "No space left on device", str(path))


async def test_a_full_disk_marks_the_exchange_unsaved_and_saves_it_when_room_returns(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.bus is not None
        app.bus.retry_seconds = 0.05
        on_disk = len(list(CampaignFiles(saves / "fate-demo").raw_entries()))
        monkeypatch.setattr(disk, "WRITE_FAULTS", [full_disk])
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        # Shown, and said not to be saved; the files are as they were.
        assert "Exchange 1: Teran the Swift wins" in text(app, "#log")
        assert "1 action NOT SAVED" in text(app, "#scoreboard")
        assert len(list(CampaignFiles(saves / "fate-demo").raw_entries())) == on_disk
        monkeypatch.setattr(disk, "WRITE_FAULTS", [])
        for _ in range(200):  # the bus retries every 0.05 s here; wait generously
            if not app.bus.unsaved:
                break
            await pilot.pause(0.05)
        await settle(pilot)
        assert "NOT SAVED" not in text(app, "#scoreboard")
        saved = CampaignFiles(saves / "fate-demo").load()
        assert len(saved.contest("c1").exchanges) == 1


HOLD = HOLD_DEMO


async def test_a_campaign_held_elsewhere_opens_read_only_on_request(saves: Path) -> None:
    first = new_app(saves)
    async with first.run_test(size=(80, 24)) as pilot:  # makes the demos
        await settle(pilot)
        await keys(pilot, "q")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(saves / "fate-demo")], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        app = new_app(saves, "Fate demo")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert f"pid {holder.pid}" in text(app, "#dialog")
            assert "Open it read-only" in str(app.screen.query_one(Choice).render())
            await keys(pilot, "enter")
            assert "READ-ONLY" in text(app, "#scoreboard")
            await keys(pilot, "0", "0", "0", "0", "0", "0", "0", "0", "enter")
            assert "Exchange 1" not in text(app, "#log")  # nothing is sent, nothing saved
            assert app.files is not None
            assert len(CampaignFiles(app.files.folder).load().contest("c1").exchanges) == 0
    finally:
        holder.kill()
        holder.wait()


async def test_each_session_starts_with_a_backup_and_tussle_restore_lists_it(saves: Path) -> None:
    from core.saves.backup import list_backups

    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await backed_up(pilot, saves, 1)  # made just after the first frame
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter", "q")
    [first] = list_backups(saves, "fate-demo")  # before the exchange: 3 entries
    again = new_app(saves)
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await backed_up(pilot, saves, 2)
    backups = list_backups(saves, "fate-demo")
    assert len(backups) == 2  # the second session saw the exchange: a new backup
    assert backups[-1] == first  # newest first


async def backed_up(pilot: Pilot[None], saves: Path, count: int) -> None:
    from core.saves.backup import list_backups

    for _ in range(100):  # generous: the backup is due half a second after opening
        if len(list_backups(saves, "fate-demo")) >= count:
            return
        await pilot.pause(0.05)
    raise AssertionError(f"no backup {count} after 5 s")
