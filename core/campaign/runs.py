"""Whole numbers kept as runs of consecutive ones: what a campaign holds of every action
(which are in force, where each is in the log, which only play) grows with its log, but
its runs only with its contests and undos. So opening a long campaign from its snapshot,
and saving one more action into it, builds and checks a few runs, not one item per entry.

    Ids        the action ids in force (``done``) or undone, in order: a list of numbers
    Places     action id -> log entry: runs ``[id, entry, count]``
    IdSet      a set of action ids: runs ``[id, id, count]`` (as Places maps each to itself)

A run is ``[a, b, count]``: ``a`` to ``a + count - 1``, mapped to ``b`` onwards (the
snapshot's form of them on disk: core.saves.snapshot).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Iterator, MutableMapping, MutableSequence, MutableSet
from typing import Any, SupportsIndex, overload

Run = list[int]  # [a, b, count]


def runs(pairs: Iterable[tuple[int, int]]) -> list[Run]:
    """``(a, b)`` pairs as runs ``[a0, b0, count]`` of pairs each one more than the last."""
    out: list[Run] = []
    for a, b in pairs:
        if out and a == out[-1][0] + out[-1][2] and b == out[-1][1] + out[-1][2]:
            out[-1][2] += 1
        else:
            out.append([a, b, 1])
    return out


def joined(*parts: Iterable[Run]) -> list[Run]:
    """Runs one after another, a run that goes on where the last stopped joined to it."""
    out: list[Run] = []
    for a, b, count in itertools.chain(*parts):
        if out and a == out[-1][0] + out[-1][2] and b == out[-1][1] + out[-1][2]:
            out[-1][2] += count
        elif count:
            out.append([a, b, count])
    return out


class Ids(MutableSequence[int]):
    """A list of whole numbers kept as runs ``[first, count]`` of consecutive ones: the
    action ids in force or undone. Appending, popping and reading the last are O(1),
    looking one up O(runs); what a list does besides (inserting or setting in the middle)
    rebuilds the runs. Equal to a list of the same numbers."""

    __slots__ = ("_len", "_runs")

    def __init__(self, items: Iterable[int] = ()) -> None:
        self._runs: list[list[int]] = []
        self._len = 0
        for item in items:
            self.append(item)

    @classmethod
    def from_runs(cls, spans: Iterable[Run]) -> Ids:
        """From runs ``[first, _, count]`` (the snapshot's form; the middle is ignored)."""
        ids = cls()
        for first, _, count in spans:
            ids._add(first, count)
        return ids

    def runs(self) -> list[Run]:
        """As runs ``[first, first, count]`` (the snapshot's form)."""
        return [[first, first, count] for first, count in self._runs]

    def _add(self, first: int, count: int) -> None:
        if count <= 0:
            return
        if self._runs and first == self._runs[-1][0] + self._runs[-1][1]:
            self._runs[-1][1] += count
        else:
            self._runs.append([first, count])
        self._len += count

    def append(self, value: int) -> None:
        self._add(value, 1)

    def pop(self, index: int = -1) -> int:
        if not self._len:
            raise IndexError("pop from empty list")
        if index not in (-1, self._len - 1):
            items = list(self)
            value = items.pop(index)
            self._load(items)
            return value
        last = self._runs[-1]
        last[1] -= 1
        self._len -= 1
        if not last[1]:
            self._runs.pop()
        return last[0] + last[1]

    def clear(self) -> None:
        self._runs, self._len = [], 0

    def _load(self, items: Iterable[int]) -> None:
        self.clear()
        for item in items:
            self.append(item)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[int]:
        for first, count in self._runs:
            yield from range(first, first + count)

    def __reversed__(self) -> Iterator[int]:
        for first, count in reversed(self._runs):
            yield from reversed(range(first, first + count))

    def __contains__(self, value: object) -> bool:
        return type(value) is int and any(f <= value < f + c for f, c in self._runs)

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        if start or stop is not None:  # a window: as a list does
            return list(self).index(value, start, len(self) if stop is None else stop)
        at = 0
        for first, count in self._runs:
            if type(value) is int and first <= value < first + count:
                return at + value - first
            at += count
        raise ValueError(f"{value!r} is not in list")

    def count(self, value: Any) -> int:
        return sum(type(value) is int and f <= value < f + c for f, c in self._runs)

    @overload
    def __getitem__(self, index: SupportsIndex) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> list[int]: ...
    def __getitem__(self, index: SupportsIndex | slice) -> int | list[int]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)
            if step == 1:
                return list(itertools.islice(self, start, max(start, stop)))
            return list(self)[index]
        position = index.__index__()
        if position < 0:
            position += self._len
        if not 0 <= position < self._len:
            raise IndexError("list index out of range")
        if position >= self._len - self._runs[-1][1]:  # the last run: reading the last
            first, count = self._runs[-1]
            return first + position - (self._len - count)
        for first, count in self._runs:
            if position < count:
                return first + position
            position -= count
        raise AssertionError("not reached")

    @overload
    def __setitem__(self, index: SupportsIndex, value: int) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[int]) -> None: ...
    def __setitem__(self, index: SupportsIndex | slice, value: Any) -> None:
        items = list(self)
        items[index] = value
        self._load(items)

    def __delitem__(self, index: SupportsIndex | slice) -> None:
        items = list(self)
        del items[index]
        self._load(items)

    def insert(self, index: SupportsIndex, value: int) -> None:
        if index.__index__() >= self._len:
            self.append(value)
            return
        items = list(self)
        items.insert(index, value)
        self._load(items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Ids):
            return self._runs == other._runs
        if isinstance(other, list):
            return len(other) == self._len and list(self) == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))

    def copy(self) -> Ids:
        ids = Ids()
        ids._runs, ids._len = [list(run) for run in self._runs], self._len
        return ids


class Places(MutableMapping[int, int]):
    """Whole numbers mapped to whole numbers, kept as runs ``[a, b, count]`` (``a + k`` to
    ``b + k``) sorted by ``a``: where each action is in the log. Looking one up, adding
    one and removing one are O(log runs) to find it (adding past the last, the usual case,
    joins the last run)."""

    __slots__ = ("_firsts", "_len", "_runs")

    def __init__(self) -> None:
        self._runs: list[Run] = []
        self._firsts: list[int] = []  # each run's a, for bisect
        self._len = 0

    @classmethod
    def from_runs(cls, spans: Iterable[Run]) -> Places:
        """From runs, in any order; ``ValueError`` when two of them overlap."""
        places = cls()
        for a, b, count in sorted(spans):
            if count <= 0:
                continue
            if places._runs and a < places._runs[-1][0] + places._runs[-1][2]:
                raise ValueError(f"runs overlap at {a}")
            places._runs.append([a, b, count])
            places._firsts.append(a)
            places._len += count
        return places

    def runs(self) -> list[Run]:
        return joined(self._runs)

    def _find(self, key: object) -> int | None:
        """The index of the run holding ``key``, if any."""
        if type(key) is not int:
            return None
        at = bisect.bisect_right(self._firsts, key) - 1
        if at >= 0 and key < self._runs[at][0] + self._runs[at][2]:
            return at
        return None

    def covers(self, first: int, count: int) -> bool:
        """Whether every one of ``first`` to ``first + count - 1`` is a key."""
        while count > 0:
            at = self._find(first)
            if at is None:
                return False
            a, _, n = self._runs[at]
            step = min(count, a + n - first)
            first, count = first + step, count - step
        return True

    def __getitem__(self, key: int) -> int:
        at = self._find(key)
        if at is None:
            raise KeyError(key)
        a, b, _ = self._runs[at]
        return b + key - a

    def __setitem__(self, key: int, value: int) -> None:
        at = self._find(key)
        if at is not None:
            if self[key] == value:
                return
            del self[key]
        at = bisect.bisect_right(self._firsts, key)  # the run before is at - 1
        if (
            at
            and key == self._end(at - 1)
            and value == self._runs[at - 1][1] + (key - self._runs[at - 1][0])
        ):
            self._runs[at - 1][2] += 1
        else:
            self._runs.insert(at, [key, value, 1])
            self._firsts.insert(at, key)
        self._len += 1

    def _end(self, at: int) -> int:
        return self._runs[at][0] + self._runs[at][2]

    def __delitem__(self, key: int) -> None:
        at = self._find(key)
        if at is None:
            raise KeyError(key)
        a, b, count = self._runs[at]
        parts = [[a, b, key - a], [key + 1, b + key - a + 1, a + count - key - 1]]
        kept = [part for part in parts if part[2] > 0]
        self._runs[at : at + 1] = kept
        self._firsts[at : at + 1] = [part[0] for part in kept]
        self._len -= 1

    def __contains__(self, key: object) -> bool:
        return self._find(key) is not None

    def __iter__(self) -> Iterator[int]:
        for a, _, count in list(self._runs):
            yield from range(a, a + count)

    def __len__(self) -> int:
        return self._len

    def __repr__(self) -> str:
        return f"Places({self.runs()!r})"


class IdSet(MutableSet[int]):
    """A set of whole numbers kept as runs (a :class:`Places` mapping each to itself)."""

    __slots__ = ("_places",)

    def __init__(self, items: Iterable[int] = ()) -> None:
        self._places = Places()
        for item in items:
            self.add(item)

    @classmethod
    def from_runs(cls, spans: Iterable[Run]) -> IdSet:
        """From runs ``[a, _, count]``; ``ValueError`` when two of them overlap."""
        ids = cls()
        ids._places = Places.from_runs([a, a, count] for a, _, count in spans)
        return ids

    def runs(self) -> list[Run]:
        """As runs ``[a, a, count]``, in order."""
        return self._places.runs()

    def add(self, value: int) -> None:
        self._places[value] = value

    def discard(self, value: int) -> None:
        if value in self._places:
            del self._places[value]

    def __contains__(self, value: object) -> bool:
        return value in self._places

    def __iter__(self) -> Iterator[int]:
        return iter(self._places)

    def __len__(self) -> int:
        return len(self._places)

    def __repr__(self) -> str:
        return f"IdSet({self.runs()!r})"
