"""A log entry checked and applied: what opening, checking, importing and the snapshot's
lazy reads all do to an entry as saved (core.store re-exports these names)."""

from __future__ import annotations

import math
from typing import Any

from core.campaign import ActionRecorded, ActionRedone, ActionUndone, Campaign, Entry
from core.codec import CodecError, decode
from core.disk import BadSave
from core.model import Event

# What replaying a damaged entry raises.
REPLAY_ERRORS = (CodecError, ValueError, KeyError, TypeError, RecursionError)

# Every number in a log entry is within this (no rating, die, point or id comes near it),
# and these fields are never below their minimum: as the scenario reader and the forms
# take them from the GM, so a log (a save, an import) cannot hold what play would refuse.
NUMBER_LIMIT = 10**9
MINIMUM = {
    "fate_points": 0,
    "refresh": 0,
    "hero_points": 0,
    "free_invokes": 0,
    "armor": 0,
    "armor_capacity": 0,
    "max_damage": 0,
    "trauma": 0,
    "count": 0,
    "multiplier": 1,
    "victories_needed": 1,
    "style_threshold": 1,
    "action_id": 1,
}


def number_problem(value: Any) -> str | None:
    """What is wrong with a number in ``value`` (a JSON value), naming its place in it
    (``events[0].character.fate_points: must be at least 0, got -3``); None when every
    number is finite, within :data:`NUMBER_LIMIT` and its field's minimum. Walked without
    recursion."""
    if _sound(value):
        return None
    stack: list[tuple[Any, str, str]] = [(value, "", "")]
    while stack:
        item, place, key = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, f"{place}.{k}" if place else str(k), str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{place}[{i}]", key) for i, v in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            return f"{place or 'the entry'}: {item} is not a number"
        elif isinstance(item, int | float) and not isinstance(item, bool):
            if abs(item) > NUMBER_LIMIT:
                return f"{place}: must be at most {NUMBER_LIMIT} in size, got {_short(item)}"
            if key in MINIMUM and item < MINIMUM[key]:
                return f"{place}: must be at least {MINIMUM[key]}, got {item}"
    return None


def _sound(value: Any) -> bool:
    """True when :func:`number_problem` finds nothing, found quicker: no place is named
    on the way (a long log is every number of every entry), only when there is one."""
    stack: list[tuple[Any, Any]] = [(value, "")]
    push, pop = stack.append, stack.pop
    while stack:
        item, key = pop()
        kind = type(item)
        if kind is dict:
            for k, v in item.items():
                push((v, k))
        elif kind is list:
            for v in item:
                push((v, key))
        elif kind is int:
            if not -NUMBER_LIMIT <= item <= NUMBER_LIMIT or item < MINIMUM.get(key, item):
                return False
        elif kind is float:
            if not -NUMBER_LIMIT <= item <= NUMBER_LIMIT or item < MINIMUM.get(key, item):
                return False  # NaN too: it compares false with everything
        elif kind is str or kind is bool or item is None:
            continue
        else:  # a float, or anything else: the careful walk says
            return False
    return True


def _short(number: float) -> str:
    try:
        text = str(number)
    except ValueError:  # more digits than Python converts
        return "a number of thousands of digits"
    return text if len(text) <= 20 else f"{text[:8]}... ({len(text)} digits)"


def replay_entry(where: str, n: int, raw: dict[str, Any], campaign: Campaign) -> Entry:
    """Check, decode and apply log entry ``n`` to ``campaign``: what opening, checking and
    importing all do, so what one takes the others take. ``BadSave`` naming ``where`` (a
    file, or an import's source) and the entry when it does not fit."""
    problem = number_problem(raw)
    if problem is not None:
        raise BadSave(f"{where}: log entry {n}: {problem}")
    try:
        entry = decode(raw, Event)
        if not isinstance(entry, ActionRecorded | ActionUndone | ActionRedone):
            raise TypeError(f"a {type(entry).__name__} is an event, not a log entry")
        if isinstance(entry, ActionRecorded) and entry.action_id in campaign.actions:
            raise ValueError(f"action {entry.action_id} is recorded twice")
        campaign.apply(entry)
    except REPLAY_ERRORS as exc:
        raise BadSave(f"{where}: log entry {n} does not replay: {exc}") from None
    return entry
