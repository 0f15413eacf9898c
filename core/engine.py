"""The one path every change takes: ``decide(state, command)`` then ``evolve(state, event)``.

Both dispatch to the contest's rule system, and nothing else in ``core/`` or ``tui/``
calls a rule system's ``decide`` or ``evolve`` (``tests/core/test_engine.py`` checks).
Built on the two:

* ``fold`` replays a log of events from a starting state (what opening a campaign does);
* ``apply`` plays one command: decide, then evolve;
* ``play`` plays a list of commands, all or nothing (a refusal raises the rules' error);
* ``play_until_refused`` plays a list of commands as far as the rules allow, and keeps
  each command's events and the contest after it (a preview, a correction replayed).

The rule system is looked up once per call, never per event, and the registry once per
system (a dictionary look-up after that: ``evolve`` is called once per event when a
campaign opens).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from core.errors import RuleError
from core.model import Command, Contest, Event
from core.rules import find_system
from core.rules.base import RuleSystem

_LOADED: dict[str, RuleSystem] = {}


def _rules(contest: Contest) -> RuleSystem:
    """The contest's rule system: the registry's, remembered by name."""
    rules = _LOADED.get(contest.system)
    if rules is None:
        rules = _LOADED[contest.system] = find_system(contest.system)
    return rules


def decide(contest: Contest, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes, or ``RuleError`` when the rules forbid it."""
    return _rules(contest).decide(contest, command)


def evolve(contest: Contest, event: Event) -> Contest:
    """``contest`` after ``event``."""
    return _rules(contest).evolve(contest, event)


def fold(contest: Contest, events: Iterable[Event]) -> Contest:
    """Apply ``events`` in order (replaying a saved log)."""
    rules = _rules(contest)
    for event in events:
        contest = rules.evolve(contest, event)
    return contest


def apply(contest: Contest, command: Command) -> tuple[Contest, tuple[Event, ...]]:
    """Decide, then evolve: the new contest and the events that got it there."""
    rules = _rules(contest)
    events = rules.decide(contest, command)
    for event in events:
        contest = rules.evolve(contest, event)
    return contest, events


def play(contest: Contest, commands: Iterable[Command]) -> tuple[Contest, tuple[Event, ...]]:
    """Play ``commands`` in order, each decided on the contest the ones before it left:
    the contest after them all and every event, in order.

    The first command the rules refuse raises their ``RuleError`` as ``decide`` raised
    it (the same class and message); contests are immutable, so nothing is half done.
    """
    rules = _rules(contest)
    played: list[Event] = []
    for command in commands:
        events = rules.decide(contest, command)
        for event in events:
            contest = rules.evolve(contest, event)
        played.extend(events)
    return contest, tuple(played)


class Step(msgspec.Struct, frozen=True):
    """One command played: the command, the events it caused, the contest after them."""

    command: Command
    events: tuple[Event, ...]
    contest: Contest


class Refusal(msgspec.Struct, frozen=True):
    """The command the rules refused: where it stood in the commands given (from 0),
    the command, and the rules' own error (raise it to refuse as ``decide`` did)."""

    index: int
    command: Command
    error: RuleError


class Run(msgspec.Struct, frozen=True):
    """Commands played from ``start`` as far as they went: one step per command played,
    and the refusal that stopped them, if one did."""

    start: Contest
    steps: tuple[Step, ...]
    refusal: Refusal | None = None

    @property
    def contest(self) -> Contest:
        """The contest after the last command played (``start`` when none did)."""
        return self.steps[-1].contest if self.steps else self.start

    @property
    def commands(self) -> tuple[Command, ...]:
        """The commands that played, in order."""
        return tuple(step.command for step in self.steps)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event the commands that played caused, in order."""
        return tuple(event for step in self.steps for event in step.events)


def play_until_refused(
    contest: Contest, commands: Iterable[Command], *, stop_at_end: bool = False
) -> Run:
    """Play ``commands`` in order until the rules refuse one: what played, step by step,
    and the refusal (``None`` when every command played). Only ``RuleError`` stops it;
    anything else is a bug and raises.

    With ``stop_at_end``, it also stops, without a refusal, before the first command
    met once the contest is over (a replay whose later commands no longer play).
    """
    rules = _rules(contest)
    start = contest
    steps: list[Step] = []
    for index, command in enumerate(commands):
        if stop_at_end and contest.finished:
            break
        try:
            events = rules.decide(contest, command)
        except RuleError as error:
            return Run(start, tuple(steps), Refusal(index, command, error))
        for event in events:
            contest = rules.evolve(contest, event)
        steps.append(Step(command, events, contest))
    return Run(start, tuple(steps))
