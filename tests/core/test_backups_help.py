"""Backups that help (issue 23, item 4): ``tussle restore`` offers a point from the last
session, not only the campaign's first minute. The bus (which the dashboard runs for the
campaign it opens) backs the campaign up when it starts, before it saves anything, and
each time a session start is saved; nothing is copied again when nothing changed; the
newest ten and the first are kept.

The seed campaign (tests/helpers.py) has 7 log entries; each action below is one more.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from core.bus import Bus
from core.campaign.log import AddCharacter, Character, StartSession
from core.model import Command
from core.saves.backup import BackupResult, list_backups
from core.saves.store import CampaignFiles
from tests.helpers import seed, tussle

WAIT = 30.0  # seconds; generous: nothing here should take more than a fraction of one


class Opened:
    """The campaign as the dashboard holds it: the lock, and a bus that backs it up."""

    def __init__(self, files: CampaignFiles) -> None:
        self.files = files
        self.campaign = files.load()
        self.backups: list[BackupResult] = []
        self.bus = Bus(self.campaign, files, on_backup=self.backups.append)

    async def backed_up(self, count: int) -> BackupResult:
        """The ``count``-th backup result, once the bus has made it."""
        async with asyncio.timeout(WAIT):
            while len(self.backups) < count:
                await asyncio.sleep(0.01)
        assert len(self.backups) == count
        return self.backups[-1]

    async def send(self, *commands: Command) -> None:
        for command in commands:
            self.bus.send(command)
        await asyncio.wait_for(self.bus.drain(), WAIT)


@asynccontextmanager
async def opened(saves: Path) -> AsyncIterator[Opened]:
    files = CampaignFiles(saves / "seed")
    files.lock.acquire("Seed", what="a test")
    try:
        session = Opened(files)
        consumer = asyncio.create_task(session.bus.run())
        try:
            yield session
        finally:
            consumer.cancel()
            with pytest.raises(asyncio.CancelledError):
                await consumer
    finally:
        files.lock.release()


def add(name: str) -> AddCharacter:
    return AddCharacter(character=Character(name=name))


async def test_a_backup_at_opening_is_made_before_the_first_action_is_saved(
    saves: Path,
) -> None:
    seed(saves)
    async with opened(saves) as session:
        session.bus.send(add("Zird"))  # at once: the backup is still due
        first = await session.backed_up(1)
        await asyncio.wait_for(session.bus.drain(), WAIT)
    assert first.created and first.problem is None and first.backup is not None
    assert first.backup.why == "opened"
    assert first.backup.entries == 7  # the campaign as opened, without Zird
    assert CampaignFiles(saves / "seed").meta()["entries"] == 8


async def test_each_session_start_is_backed_up_and_restore_takes_the_last_ones_back(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(saves)
    async with opened(saves) as session:
        assert (await session.backed_up(1)).backup.entries == 7  # type: ignore[union-attr]
        await session.send(StartSession())  # entry 8
        started = await session.backed_up(2)
        await session.send(add("Zird"), StartSession(), add("Landon"))  # entries 9, 10, 11
        second = await session.backed_up(3)
    assert started.created and started.backup is not None
    assert (started.backup.why, started.backup.entries) == ("session 1 started", 8)
    assert second.created and second.backup is not None
    assert (second.backup.why, second.backup.entries) == ("session 2 started", 10)

    # Opened again: the campaign as the last session left it (11 entries).
    async with opened(saves) as session:
        again = await session.backed_up(1)
    assert again.created and again.backup is not None
    assert (again.backup.why, again.backup.entries) == ("opened", 11)
    # And once more, nothing changed since: no new copy, the newest stands for it.
    async with opened(saves) as session:
        same = await session.backed_up(1)
    assert not same.created and same.backup == again.backup

    backups = list_backups(saves, "seed")
    assert [(b.why, b.entries) for b in backups] == [
        ("opened", 11),
        ("session 2 started", 10),
        ("session 1 started", 8),
        ("opened", 7),
    ]
    capsys.readouterr()
    assert tussle(saves, "restore", "Seed") == 0
    lines = capsys.readouterr().out.splitlines()
    when = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
    for number, (line, made) in enumerate(zip(lines[1:5], backups, strict=True), start=1):
        entries = f"{made.entries} log entries"
        assert re.fullmatch(rf"  {number}  {when}  {entries:>14}  {made.stamp}  {made.why}", line)

    # The last session's start put back: Zird (added before it) is there, Landon not.
    assert tussle(saves, "restore", "Seed", "--backup", "2") == 0
    back = CampaignFiles(saves / "seed").load()
    assert back.entries == 10
    assert list(back.roster) == ["Cynere", "Teran", "Zird"]
    assert len(back.sessions) == 2


async def test_the_newest_ten_and_the_first_are_kept(saves: Path) -> None:
    seed(saves)
    async with opened(saves) as session:
        await session.backed_up(1)  # "opened", 7 entries
        for n in range(1, 13):  # twelve sessions: entries 8 to 19
            await session.send(StartSession())
            await session.backed_up(n + 1)
    kept = list_backups(saves, "seed")
    assert [b.entries for b in kept] == [*range(19, 9, -1), 7]
    assert kept[-1].why == "opened"
    assert [b.why for b in kept[:-1]] == [f"session {n} started" for n in range(12, 2, -1)]
