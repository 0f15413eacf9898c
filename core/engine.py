"""The one path every change takes: ``decide(state, command)`` then ``evolve(state, event)``.

Both dispatch to the contest's rule system. ``apply`` is the two together, and ``fold``
replays a log of events from a starting state (what opening a saved campaign does).
"""

from __future__ import annotations

from collections.abc import Iterable

from core.model import Command, Contest, Event
from core.rules import find_system


def decide(contest: Contest, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes, or ``RuleError`` when the rules forbid it."""
    return find_system(contest.system).decide(contest, command)


def evolve(contest: Contest, event: Event) -> Contest:
    """``contest`` after ``event``."""
    return find_system(contest.system).evolve(contest, event)


def fold(contest: Contest, events: Iterable[Event]) -> Contest:
    """Apply ``events`` in order (replaying a saved log)."""
    rules = find_system(contest.system)
    for event in events:
        contest = rules.evolve(contest, event)
    return contest


def apply(contest: Contest, command: Command) -> tuple[Contest, tuple[Event, ...]]:
    """Decide, then evolve: the new contest and the events that got it there."""
    events = decide(contest, command)
    return fold(contest, events), events
