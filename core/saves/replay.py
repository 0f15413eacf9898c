"""A log entry checked and applied: what opening, checking, importing and the snapshot's
lazy reads all do to an entry as saved (the store, check, transfer and the snapshot
import them from here)."""

from __future__ import annotations

import math
from typing import Any

from msgspec.structs import replace

from core.campaign.actions import Campaign
from core.campaign.log import ActionRecorded, ActionRedone, ActionUndone, Entry, SessionStarted
from core.files.codec import CodecError, decode
from core.files.disk import BadSave
from core.limits import SIZE, size_problem
from core.model import Event

# What replaying a damaged entry raises.
REPLAY_ERRORS = (CodecError, ValueError, KeyError, TypeError, RecursionError)

# Every number in a log entry is within core.limits.SIZE and its field's own limit: both
# are declared on the field (core.limits) and checked as the entry decodes (core.files.codec).
# number_problem is for what is not a saved class (the snapshot's head, core.saves.snapshot).


def number_problem(value: Any) -> str | None:
    """What is wrong with a number in ``value`` (a JSON value), naming its place in it
    (``events[0].character.ratings.Fight: must be at most 1000000000 in size, got ...``);
    None when every number is finite and within :data:`core.limits.SIZE`. Walked without
    recursion, so a value nested too deep for the decoder is still told apart."""
    if _sound(value):
        return None
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, place = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, f"{place}.{k}" if place else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{place}[{i}]") for i, v in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            return f"{place or 'the entry'}: {item} is not a number"
        elif isinstance(item, int | float) and not isinstance(item, bool):
            problem = size_problem(item)
            if problem is not None:
                return f"{place or 'the entry'}: {problem}"
    return None


def _sound(value: Any) -> bool:
    """True when :func:`number_problem` finds nothing, found quicker: no place is named
    on the way (a long log is every number of every entry), only when there is one."""
    stack: list[Any] = [value]
    push, pop = stack.append, stack.pop
    while stack:
        item = pop()
        kind = type(item)
        if kind is dict:
            for v in item.values():
                push(v)
        elif kind is list:
            for v in item:
                push(v)
        elif kind is int or kind is float:
            if not -SIZE <= item <= SIZE:
                return False  # NaN too: it compares false with everything
        elif kind is str or kind is bool or item is None:
            continue
        else:  # a float, or anything else: the careful walk says
            return False
    return True


def replay_entry(
    where: str, n: int, raw: dict[str, Any], campaign: Campaign, derive: bool = False
) -> Entry:
    """Check, decode and apply log entry ``n`` to ``campaign``: what opening, checking and
    importing all do, so what one takes the others take. ``BadSave`` naming ``where`` (a
    file, or an import's source) and the entry when it does not fit. ``derive`` (an
    import): the entry's events are the engine's own, worked out again from its command
    (:func:`rederived`); the entry as applied is returned."""
    try:
        entry = decode(raw, Event)  # every number within its field's limit and SIZE
        if not isinstance(entry, ActionRecorded | ActionUndone | ActionRedone):
            raise TypeError(f"a {type(entry).__name__} is an event, not a log entry")
        if isinstance(entry, ActionRecorded) and entry.action_id in campaign.actions:
            raise ValueError(f"action {entry.action_id} is recorded twice")
        if derive:
            entry = rederived(entry, campaign)
        campaign.apply(entry)
    except CodecError as exc:
        problem = number_problem(raw)  # a number beyond SIZE, or NaN: named as it always was
        if problem is not None:
            raise BadSave(f"{where}: log entry {n}: {problem}") from None
        if not exc.path:
            raise BadSave(f"{where}: log entry {n} does not replay: {exc}") from None
        # It names the place and the limit: command.contest.options.victories_needed...
        raise BadSave(f"{where}: log entry {n}: {exc}") from None
    except REPLAY_ERRORS as exc:
        raise BadSave(f"{where}: log entry {n} does not replay: {exc}") from None
    return entry


def rederived(entry: Entry, campaign: Campaign) -> Entry:
    """``entry`` as the engine makes it on ``campaign`` now: an action's events worked out
    again from its command (its dice are in it), keeping the file's action id and times.
    What a file says happened is never trusted (an export can say "Mallory won, 999
    victories" beside dice that say otherwise). An undo or redo is checked as it applies
    (it must name the action the campaign would take back or put back). ``RuleError`` (a
    ``ValueError``) when the rules refuse the command."""
    if isinstance(entry, ActionUndone | ActionRedone):
        return entry
    derived = campaign.decide(entry.command)
    assert isinstance(derived, ActionRecorded)
    times = [e.at for e in entry.events if isinstance(e, SessionStarted)]
    events = tuple(
        replace(e, at=times[0] if times else entry.at) if isinstance(e, SessionStarted) else e
        for e in derived.events
    )
    return replace(entry, events=events)
