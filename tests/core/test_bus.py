"""The bus: one ordered queue, one consumer; nothing is published as applied before it is
on disk. Runs against the real store in a temporary saves folder."""

from __future__ import annotations

import asyncio
import errno
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from core.bus import Applied, Bus, Notice, Rejected, Saved, Unsaved
from core.campaign.actions import Campaign
from core.campaign.log import (
    ActionRecorded,
    ActionUndone,
    AddCharacter,
    Character,
    Play,
    StartContest,
    Undo,
)
from core.errors import OutOfTurn, RuleError
from core.files import disk
from core.model import Command, ResolveExchange, RollDice
from core.saves.store import CampaignFiles, Saves
from core.systems.fate.character import FateCharacter
from core.systems.fate.state import FateParticipant, new_contest

CYNERE = Character(name="Cynere", sheet=FateCharacter(fate_points=3))
TERAN = Character(name="Teran", kind="npc")


class Harness:
    """A bus over a fresh campaign saved in ``saves``, and what its subscriber saw."""

    def __init__(self, saves: Path) -> None:
        self.files = Saves(saves).create("Bus", "fate")
        self.campaign = Campaign(name="Bus", system="fate")
        self.bus = Bus(self.campaign, self.files)
        self.seen: list[Notice] = []
        self.on_disk: list[int] = []  # entries saved on disk when each notice came
        self.bus.subscribe(self.watch)

    def watch(self, notice: Notice) -> None:
        self.seen.append(notice)
        self.on_disk.append(self.saved_entries())

    def saved_entries(self) -> int:
        return CampaignFiles(self.files.folder).load().entries

    async def send(self, *commands: Command) -> None:
        for command in commands:
            self.bus.send(command)
        await asyncio.wait_for(self.bus.drain(), 10)


@pytest.fixture
async def harness(saves: Path) -> AsyncIterator[Harness]:
    h = Harness(saves)
    consumer = asyncio.create_task(h.bus.run())
    yield h
    consumer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await consumer


def kinds(notices: list[Notice]) -> list[str]:
    return [type(n).__name__ for n in notices]


async def test_a_command_is_saved_then_applied_and_on_disk_before_it_is_published(
    harness: Harness,
) -> None:
    command = AddCharacter(character=CYNERE)
    await harness.send(command)

    assert kinds(harness.seen) == ["Saved", "Applied"]
    saved, applied = harness.seen
    assert isinstance(saved, Saved) and isinstance(applied, Applied)
    assert applied.command == command
    assert saved.entries == (applied.entry,)
    assert isinstance(applied.entry, ActionRecorded)
    assert harness.on_disk == [1, 1]  # on disk already when Saved and Applied came
    assert harness.campaign.roster == {"Cynere": CYNERE}
    assert list(CampaignFiles(harness.files.folder).load().roster) == ["Cynere"]


async def test_the_campaign_is_unchanged_while_saved_is_published(saves: Path) -> None:
    h = Harness(saves)
    rosters: list[list[str]] = []
    h.bus.subscribe(lambda notice: rosters.append(list(h.campaign.roster)))
    await h.bus.handle(AddCharacter(character=CYNERE))
    assert rosters == [[], ["Cynere"]]  # applied between Saved and Applied


async def test_a_refused_command_is_rejected_and_nothing_is_saved(harness: Harness) -> None:
    await harness.send(AddCharacter(character=CYNERE))
    harness.seen.clear()
    command = AddCharacter(character=CYNERE)  # a second Cynere

    await harness.send(command)

    [rejected] = harness.seen
    assert isinstance(rejected, Rejected)
    assert rejected.command == command
    assert isinstance(rejected.error, RuleError)
    assert "already on the roster" in str(rejected.error)
    assert harness.saved_entries() == 1
    assert harness.campaign.entries == 1


async def test_commands_are_handled_in_the_order_sent(harness: Harness) -> None:
    contest = new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4, fate_points=3),
            FateParticipant(name="Teran", side="Teran", skill=3),
        ]
    )
    # Resolving before Teran rolls is out of turn: the third command must be refused, and
    # only because the second has been applied first.
    commands: list[Command] = [
        StartContest(title="Race", contest=contest),
        Play(contest_id="c1", commands=(RollDice(who="Cynere", faces=(1, 0, 0, 0)),)),
        Play(contest_id="c1", commands=(ResolveExchange(),)),
        Play(contest_id="c1", commands=(RollDice(who="Teran", faces=(0, 0, 0, 0)),)),
        Play(contest_id="c1", commands=(ResolveExchange(),)),
        Undo(),
    ]

    await harness.send(*commands)

    published = [n for n in harness.seen if not isinstance(n, Saved)]
    assert [n.command for n in published] == commands
    assert kinds(published) == ["Applied", "Applied", "Rejected", "Applied", "Applied", "Applied"]
    refused = published[2]
    assert isinstance(refused, Rejected) and isinstance(refused.error, OutOfTurn)
    last = published[-1]
    assert isinstance(last, Applied) and isinstance(last.entry, ActionUndone)
    assert last.entry.action_id == 4  # the resolve: actions 1, 2, 3 (Teran), 4
    assert harness.bus.handled == len(commands)
    loaded = CampaignFiles(harness.files.folder).load()
    assert loaded.entries == 5
    assert loaded.contest("c1").state == harness.campaign.contest("c1").state


def refuse_writes(errno_: int, message: str) -> Callable[[Path], None]:
    def fault(path: Path) -> None:
        raise OSError(errno_, message, str(path))

    return fault


@pytest.mark.parametrize(
    ("errno_", "message"),
    [(errno.ENOSPC, "No space left on device"), (errno.EROFS, "Read-only file system")],
)
async def test_disk_trouble_keeps_the_action_in_memory_marks_it_unsaved_and_retries(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, errno_: int, message: str
) -> None:
    await harness.send(AddCharacter(character=CYNERE))
    harness.seen.clear()
    monkeypatch.setattr(disk, "WRITE_FAULTS", [refuse_writes(errno_, message)])
    await harness.send(AddCharacter(character=TERAN))
    await harness.send(AddCharacter(character=Character(name="Landon")))

    # Each action is shown (applied in memory) but said to be unsaved, the first kept
    # in front of the second.
    assert kinds(harness.seen) == ["Unsaved", "Applied", "Unsaved", "Applied"]
    unsaved = harness.seen[2]
    assert isinstance(unsaved, Unsaved) and message in str(unsaved.error)
    assert [e.command.character.name for e in unsaved.entries] == ["Teran", "Landon"]  # type: ignore[union-attr]
    assert list(harness.campaign.roster) == ["Cynere", "Teran", "Landon"]
    # What was saved before is untouched and still loads.
    assert list(CampaignFiles(harness.files.folder).load().roster) == ["Cynere"]

    assert not await harness.bus.retry()  # the disk still refuses
    monkeypatch.setattr(disk, "WRITE_FAULTS", [])
    assert await harness.bus.retry()  # and now takes both, in order
    saved = harness.seen[-1]
    assert isinstance(saved, Saved) and len(saved.entries) == 2
    assert harness.bus.unsaved == []
    assert list(CampaignFiles(harness.files.folder).load().roster) == ["Cynere", "Teran", "Landon"]


async def test_the_consumer_retries_unsaved_actions_by_itself(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = Harness(saves)
    h.bus.retry_seconds = 0.05
    consumer = asyncio.create_task(h.bus.run())
    try:
        monkeypatch.setattr(disk, "WRITE_FAULTS", [refuse_writes(errno.ENOSPC, "full")])
        await h.send(AddCharacter(character=CYNERE))
        assert h.bus.unsaved
        monkeypatch.setattr(disk, "WRITE_FAULTS", [])
        for _ in range(200):  # generous: the retry comes within a few hundredths
            if not h.bus.unsaved:
                break
            await asyncio.sleep(0.05)
        assert h.bus.unsaved == []
        assert h.saved_entries() == 1
    finally:
        consumer.cancel()
        with pytest.raises(asyncio.CancelledError):
            await consumer


async def test_a_bus_without_files_applies_without_saving(saves: Path) -> None:
    campaign = Campaign(name="Scratch", system="fate")
    bus = Bus(campaign, None)
    seen: list[Notice] = []
    bus.subscribe(seen.append)
    notice = await asyncio.wait_for(bus.handle(AddCharacter(character=CYNERE)), 10)
    assert isinstance(notice, Applied)
    assert kinds(seen) == ["Applied"]
    assert list(campaign.roster) == ["Cynere"]
    assert list(saves.iterdir()) == []
