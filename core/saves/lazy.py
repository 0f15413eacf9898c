"""The containers a campaign holds when it is not all in memory: its actions read back
from the log when asked for, its contests read from their snapshot files when asked for,
a contest's exchanges decoded when read (core.saves.snapshot); and a stand-in for a contest's
exchanges that keeps only their count and digest, for a replay that holds no history
(``tussle check`` and ``export`` of a campaign of any length: core.saves.check)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from typing import Any, SupportsIndex, overload

import msgspec
import msgspec.structs

from core.campaign.log import ActionRecorded, ContestCorrected, ContestStarted, Played, PoolSpent
from core.campaign.runs import IdSet, Places
from core.campaign.state import ContestRecord
from core.files.codec import CodecError, decode, encode
from core.files.disk import BadSave
from core.model import Event, ExchangeEvent
from core.saves.replay import number_problem


def canonical(value: Any) -> bytes:
    """``value`` as JSON bytes, the same for equal values (what digests are taken of)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def plays_only(action: ActionRecorded) -> bool:
    """An action that does nothing but play contests (what most of a long log is)."""
    return all(isinstance(e, Played | PoolSpent | ContestCorrected) for e in action.events)


def starts_in(action: ActionRecorded) -> int:
    return sum(isinstance(e, ContestStarted) for e in action.events)


class Reserve(msgspec.Struct, frozen=True):
    """What entries set aside from a campaign's log took (core.saves.set_aside): the highest
    action id among them and the contests they started. A campaign that goes on without
    them hands out neither again, so they can come back (``tussle check --repair``)."""

    action_id: int = 0
    contests: int = 0

    @classmethod
    def of(cls, data: Any) -> Reserve:
        """The reserve a manifest records (nothing for anything malformed)."""
        if not isinstance(data, dict):
            return cls()
        top, contests = data.get("action_id"), data.get("contests")
        sound = all(type(x) is int and 0 <= x <= 10**9 for x in (top, contests))
        return cls(top, contests) if sound else cls()  # type: ignore[arg-type]

    def json(self) -> dict[str, int]:
        return {"action_id": self.action_id, "contests": self.contests}


class ReservedActions(dict[int, ActionRecorded]):
    """A campaign's actions, all held (a dict), with the ids a :class:`Reserve` took: the
    next action id and contest id come after them."""

    def __init__(self, reserved: Reserve) -> None:
        super().__init__()
        self.reserved = reserved

    @property
    def top(self) -> int:
        return max(max(self, default=0), self.reserved.action_id)

    @property
    def contests_started(self) -> int:
        return sum(starts_in(a) for a in self.values()) + self.reserved.contests


class LazyActions(MutableMapping[int, ActionRecorded]):
    """A campaign's actions by id, each read from the log the first time it is asked for.

    ``plays_only`` and ``contests_started`` answer what the campaign asks of every action
    (core.campaign.state: ``acting``, ``next_contest_id``) without reading them.
    """

    def __init__(self, read: Callable[[int, int], ActionRecorded]) -> None:
        self.where = Places()  # the log entry of each action saved there
        self._kept: dict[int, ActionRecorded] = {}  # of those, the ones read
        self._new: dict[int, ActionRecorded] = {}  # actions whose entry is not known
        self.plays_only = IdSet()
        self.started = 0  # the contests the actions started (undone or not)
        self.highest = 0  # the highest action id
        # Ids taken by entries set aside (core.saves.set_aside): never handed out again.
        self.reserved = Reserve()
        self._read = read
        self._read_back: list[int] = []  # read since the last release()

    @property
    def top(self) -> int:
        """The highest action id taken (the next action's is one more)."""
        return max(self.highest, self.reserved.action_id)

    @top.setter
    def top(self, value: int) -> None:
        self.highest = value

    @property
    def contests_started(self) -> int:
        """Contests started, those of entries set aside counted (ids never reused)."""
        return self.started + self.reserved.contests

    def forget(self, action_id: int, entry: int) -> None:
        """Let go of an action read or applied (at log ``entry``): read again if needed."""
        self.highest = max(self.highest, action_id)
        self.where[action_id] = entry
        self._new.pop(action_id, None)
        self._kept.pop(action_id, None)

    def unplaced(self) -> Iterator[int]:
        """The actions whose place in the log this does not know (saved since it was
        opened: the caller knows where)."""
        return iter(self._new)

    def loaded(self, action_id: int) -> bool:
        return action_id in self._kept or action_id in self._new

    def __getitem__(self, action_id: int) -> ActionRecorded:
        action = self._new.get(action_id) or self._kept.get(action_id)
        if action is None:
            action = self._read(action_id, self.where[action_id])  # KeyError: no such action
            self._kept[action_id] = action
            self._read_back.append(action_id)
        return action

    def release(self) -> None:
        """Let go of every action read back since the last call (read again if needed)."""
        for action_id in self._read_back:
            self._kept.pop(action_id, None)
        self._read_back.clear()

    def __setitem__(self, action_id: int, action: ActionRecorded) -> None:
        self.highest = max(self.highest, action_id)
        if action_id in self.where:
            self._kept[action_id] = action
        else:
            self._new[action_id] = action
        self.started += starts_in(action)
        if plays_only(action):
            self.plays_only.add(action_id)
        else:
            self.plays_only.discard(action_id)

    def __delitem__(self, action_id: int) -> None:
        self.started -= starts_in(self[action_id])
        self.where.pop(action_id, None)
        self._kept.pop(action_id, None)
        self._new.pop(action_id, None)
        self.plays_only.discard(action_id)

    def __contains__(self, action_id: object) -> bool:
        return action_id in self.where or action_id in self._new

    def __iter__(self) -> Iterator[int]:
        yield from self.where
        yield from self._new

    def __len__(self) -> int:
        return len(self.where) + len(self._new)


class LazyContests(MutableMapping[str, ContestRecord]):
    """A campaign's contests by id, each read from its snapshot file when first asked for."""

    def __init__(self, read: Callable[[str, str], ContestRecord]) -> None:
        self._items: dict[str, ContestRecord | str] = {}  # a str: its file, not yet read
        self._sizes: dict[str, int] = {}  # of those files, their size in bytes
        self._read = read

    def pend(self, contest_id: str, file: str, size: int = 0) -> None:
        self._items[contest_id] = file
        self._sizes[contest_id] = size

    def saved_as(self, contest_id: str) -> tuple[str, int] | None:
        """The snapshot file and size of a contest not read (so not changed) since."""
        file = self.file_of(contest_id)
        return None if file is None else (file, self._sizes.get(contest_id, 0))

    def file_of(self, contest_id: str) -> str | None:
        """The snapshot file of a contest not read (so not changed) since it was opened."""
        item = self._items.get(contest_id)
        return item if isinstance(item, str) else None

    def __getitem__(self, contest_id: str) -> ContestRecord:
        item = self._items[contest_id]
        if isinstance(item, str):
            item = self._read(contest_id, item)
            self._items[contest_id] = item
        return item

    def __setitem__(self, contest_id: str, record: ContestRecord) -> None:
        self._items[contest_id] = record

    def __delitem__(self, contest_id: str) -> None:
        del self._items[contest_id]

    def __contains__(self, contest_id: object) -> bool:
        return contest_id in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


class LazyExchanges(list[ExchangeEvent]):
    """A contest's exchanges as its snapshot file holds them, each decoded when first
    read: the dashboard shows the last few of a contest of thousands, and reads no other.
    Anything else than reading one, a slice or iterating decodes them all first."""

    def _at(self, index: int) -> ExchangeEvent:
        item: Any = list.__getitem__(self, index)
        if type(item) is dict:
            try:
                decoded = decode(item, Event)  # every number within its field's limits
            except CodecError:
                problem = number_problem(item)  # named as the log's entries are
                if problem is not None:
                    raise BadSave(f"a snapshot's exchange {index + 1}: {problem}") from None
                raise
            item = decoded
            list.__setitem__(self, index, item)
        event: ExchangeEvent = item
        return event

    def decoded(self) -> LazyExchanges:
        for index in range(len(self)):
            self._at(index)
        return self

    def saved(self) -> list[Any]:
        """The exchanges as JSON, those never decoded as they were read."""
        items: list[Any] = list(list.__iter__(self))
        return [item if type(item) is dict else encode(item) for item in items]

    @overload
    def __getitem__(self, index: SupportsIndex) -> ExchangeEvent: ...
    @overload
    def __getitem__(self, index: slice) -> list[ExchangeEvent]: ...
    def __getitem__(self, index: SupportsIndex | slice) -> ExchangeEvent | list[ExchangeEvent]:
        if isinstance(index, slice):
            return [self._at(k) for k in range(*index.indices(len(self)))]
        position = index.__index__()
        return self._at(position + len(self) if position < 0 else position)

    def __iter__(self) -> Iterator[ExchangeEvent]:
        k = 0
        while k < len(self):
            yield self._at(k)
            k += 1

    def __reversed__(self) -> Iterator[ExchangeEvent]:
        for k in reversed(range(len(self))):
            yield self._at(k)

    def __eq__(self, other: object) -> bool:
        return list.__eq__(self.decoded(), other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __contains__(self, item: object) -> bool:
        return list.__contains__(self.decoded(), item)

    def __repr__(self) -> str:
        return list.__repr__(self.decoded())

    def copy(self) -> list[ExchangeEvent]:
        return list(self)

    def index(self, *args: Any) -> int:
        return list.index(self.decoded(), *args)

    def count(self, item: Any) -> int:
        return list.count(self.decoded(), item)

    def pop(self, index: SupportsIndex = -1) -> ExchangeEvent:
        self.decoded()
        return list.pop(self, index)

    def remove(self, item: ExchangeEvent) -> None:
        list.remove(self.decoded(), item)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        list.sort(self.decoded(), *args, **kwargs)

    def reverse(self) -> None:
        list.reverse(self.decoded())


def record_json(record: ContestRecord) -> Any:
    """A contest record as its snapshot file holds it (exchanges read lazily kept as read)."""
    exchanges = record.exchanges
    data = encode(msgspec.structs.replace(record, exchanges=[]))
    data["exchanges"] = (
        exchanges.saved() if isinstance(exchanges, LazyExchanges) else encode(exchanges)
    )
    return data


class ExchangeDigest(list[ExchangeEvent]):
    """A contest's exchanges, kept as their count and the sha256 of each as saved (the
    codec's JSON): what a replay that holds no history keeps of them. Appending adds to
    both; nothing can be read back (:func:`core.saves.check.exchanges_of` reads them from the
    log again)."""

    def __init__(self, items: Iterable[ExchangeEvent] = ()) -> None:
        super().__init__()
        self._count = 0
        self._sha = hashlib.sha256()
        for item in items:
            self.append(item)

    def append(self, item: ExchangeEvent) -> None:
        self.add_saved(encode(item))

    def add_saved(self, saved: Any) -> None:
        self._count += 1
        self._sha.update(canonical(saved))

    def digest(self) -> str:
        return self._sha.hexdigest()

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[ExchangeEvent]:
        raise TypeError("a replay that holds no history kept only the exchanges' digest")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ExchangeDigest):
            return (self._count, self.digest()) == (other._count, other.digest())
        return isinstance(other, list) and self == ExchangeDigest(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None
