"""The async message bus between the GM's actions and everything that shows them.

One ordered queue, one consumer. A command goes in; the consumer has the campaign decide
it, has the store save the entry, applies it, and only then publishes :class:`Applied`
(or :class:`Rejected`) to its subscribers. So nothing is shown that is not saved.

With one exception, when the disk itself fails (full, read-only): the action is kept in
memory and applied, published as :class:`Unsaved` so the screen can say so, and saved
again (in order, before anything newer) every ``retry_seconds`` until the disk takes it.
Nothing already saved is touched by a failed save.

Given ``on_backup``, the bus also backs the campaign up (:mod:`core.saves.backup`): when it
starts, before it saves anything (once the first command comes, or half a second after
it starts, so the backup never delays the first frame), and each time a session start is
saved; in a thread, the commands waiting until it is done.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from core.campaign.actions import Campaign
from core.campaign.log import ActionRecorded, Entry, SessionStarted
from core.errors import RuleError
from core.files.disk import StoreError
from core.model import Command
from core.saves.store import CampaignFiles

if TYPE_CHECKING:
    from core.saves.backup import BackupResult

BACKUP_DELAY = 0.5  # seconds the backup at the start waits for a first command


class Applied(msgspec.Struct, frozen=True):
    """``command`` was decided and applied: ``entry`` is what the log gained (saved,
    unless an :class:`Unsaved` said otherwise just before)."""

    command: Command
    entry: Entry


class Rejected(msgspec.Struct, frozen=True):
    """``command`` was not done: the rules forbid it (or a bug stopped it)."""

    command: Command
    error: RuleError | StoreError


class Saved(msgspec.Struct, frozen=True):
    """The store wrote these entries: on disk now."""

    entries: tuple[Entry, ...]


class Unsaved(msgspec.Struct, frozen=True):
    """The disk refused: these entries are applied but only in memory, retried later."""

    entries: tuple[Entry, ...]
    error: StoreError


Notice = Applied | Rejected | Saved | Unsaved
Subscriber = Callable[[Notice], None]


def refusal(error: Exception) -> RuleError | StoreError:
    """Why a command was not done, as the GM is told: the rules, or a bug (the action
    is refused and the table goes on)."""
    if isinstance(error, RuleError | StoreError):
        return error
    bug = RuleError(f"Tussle hit a bug and did nothing: {error!r}")
    bug.title = "Bug"
    return bug


def disk_trouble(error: Exception) -> StoreError:
    if isinstance(error, StoreError):
        return error
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return StoreError(f"could not save: {reason}")


class Bus:
    """Commands in, notices out, in order."""

    def __init__(
        self,
        campaign: Campaign,
        files: CampaignFiles | None,
        retry_seconds: float = 2.0,
        on_backup: Callable[[BackupResult], None] | None = None,
    ) -> None:
        self.campaign = campaign
        self.files = files
        self.retry_seconds = retry_seconds
        # Backups are made (see the module's docstring) only when someone hears of them.
        self.on_backup = on_backup
        self.unsaved: list[Entry] = []
        self._queue: asyncio.Queue[Command] = asyncio.Queue()
        self._subscribers: list[Subscriber] = []
        self.handled = 0

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    def _publish(self, notice: Notice) -> None:
        for subscriber in self._subscribers:
            subscriber(notice)

    def send(self, command: Command) -> None:
        """Queue a command (never blocks: the queue has no bound)."""
        self._queue.put_nowait(command)

    async def _save(self, entries: list[Entry]) -> StoreError | None:
        """Append ``entries`` after anything still unsaved; the error, if the disk
        refused (then all of them wait, in order, for the next try)."""
        if self.files is None:
            return None
        waiting = [*self.unsaved, *entries]
        try:
            await asyncio.to_thread(self.files.append, waiting)
        except (OSError, StoreError) as error:
            self.unsaved = waiting
            trouble = disk_trouble(error)
            self._publish(Unsaved(tuple(waiting), trouble))
            return trouble
        self.unsaved = []
        self._publish(Saved(tuple(waiting)))
        return None

    async def handle(self, command: Command) -> Notice:
        """Decide, save, apply, publish one command; what was published last."""
        try:
            entry = self.campaign.decide(command)
        except Exception as error:
            rejected = Rejected(command, refusal(error))
            self._publish(rejected)
            return rejected
        await self._save([entry])
        self.campaign.apply(entry)
        applied = Applied(command, entry)
        self._publish(applied)
        now = not isinstance(entry, ActionRecorded)  # an undo or redo: costly to replay
        files = self.files
        if files is not None and not self.unsaved and files.snapshot_due(self.campaign, now):
            await asyncio.to_thread(files.keep_snapshot, self.campaign, now)
        if isinstance(entry, ActionRecorded) and not self.unsaved:
            for event in entry.events:
                if isinstance(event, SessionStarted):
                    from core.saves.backup import session_started

                    await self._back_up(session_started(event.number))
        return applied

    async def _back_up(self, why: str) -> None:
        """Back up the campaign as saved (in a thread), and say how it went."""
        if self.files is None or self.on_backup is None:
            return
        from core.saves.backup import backup

        result = await asyncio.to_thread(backup, self.files, why=why)
        self.on_backup(result)

    async def retry(self) -> bool:
        """Try the unsaved entries again; True when nothing is left unsaved."""
        if self.unsaved:
            await self._save([])
        return not self.unsaved

    async def run(self) -> None:
        """The consumer: handle commands one at a time, forever; while something is
        unsaved, retry it whenever no command came for ``retry_seconds``."""
        if self.on_backup is not None:  # the campaign as opened, before anything is saved
            first: Command | None = None
            with contextlib.suppress(TimeoutError):
                first = await asyncio.wait_for(self._queue.get(), BACKUP_DELAY)
            from core.saves.backup import OPENED

            await self._back_up(OPENED)
            if first is not None:
                await self._handle_counted(first)
        while True:
            if self.unsaved:
                try:
                    command = await asyncio.wait_for(self._queue.get(), self.retry_seconds)
                except TimeoutError:
                    await self.retry()
                    continue
            else:
                command = await self._queue.get()
            await self._handle_counted(command)

    async def _handle_counted(self, command: Command) -> None:
        """:meth:`handle` a command taken from the queue, and count it as handled."""
        try:
            await self.handle(command)
        finally:
            self.handled += 1
            self._queue.task_done()

    async def drain(self) -> None:
        """Wait until every queued command has been handled."""
        await self._queue.join()
