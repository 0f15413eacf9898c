"""The async message bus between the GM's actions and everything that shows them.

One ordered queue, one consumer. A command goes in; the consumer has the campaign decide
it, has the store save the entry, applies it, and only then publishes :class:`Applied`
(or :class:`Rejected`) to its subscribers. So nothing is shown that is not saved.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from core.campaign import Campaign, Entry
from core.errors import RuleError
from core.model import Command
from core.store import CampaignFiles, StoreError


@dataclass(frozen=True, slots=True)
class Applied:
    """``command`` was decided, saved and applied: ``entry`` is what the log gained."""

    command: Command
    entry: Entry


@dataclass(frozen=True, slots=True)
class Rejected:
    """``command`` was not done: the rules forbid it, or the save failed."""

    command: Command
    error: RuleError | StoreError


@dataclass(frozen=True, slots=True)
class Saved:
    """The store wrote an entry (published between decide and Applied; for tests)."""

    entry: Entry


Notice = Applied | Rejected | Saved
Subscriber = Callable[[Notice], None]


def refusal(error: Exception) -> RuleError | StoreError:
    """Why a command was not done, as the GM is told: the rules, the disk, or a bug (the
    action is refused and the table goes on)."""
    if isinstance(error, RuleError | StoreError):
        return error
    if isinstance(error, OSError):
        return StoreError(f"could not save: {error}")
    bug = RuleError(f"Tussle hit a bug and did nothing: {error!r}")
    bug.title = "Bug"
    return bug


class Bus:
    """Commands in, notices out, in order."""

    def __init__(self, campaign: Campaign, files: CampaignFiles | None) -> None:
        self.campaign = campaign
        self.files = files
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

    async def handle(self, command: Command) -> Notice:
        """Decide, save, apply, publish one command; what was published."""
        try:
            entry = self.campaign.decide(command)
            if self.files is not None:
                await asyncio.to_thread(self.files.append, [entry])
                self._publish(Saved(entry))
        except Exception as error:
            rejected = Rejected(command, refusal(error))
            self._publish(rejected)
            return rejected
        self.campaign.apply(entry)
        applied = Applied(command, entry)
        self._publish(applied)
        return applied

    async def run(self) -> None:
        """The consumer: handle commands one at a time, forever."""
        while True:
            command = await self._queue.get()
            try:
                await self.handle(command)
            finally:
                self.handled += 1
                self._queue.task_done()

    async def drain(self) -> None:
        """Wait until every queued command has been handled."""
        await self._queue.join()
