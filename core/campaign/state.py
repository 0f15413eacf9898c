"""A campaign as its log makes it: the roster, the contests, and how each log entry folds
in (``apply``). The log's words (the GM actions and events) are in core.campaign.log.

Deciding a GM action is one layer up, in core.campaign.actions: writing results back and
correcting an exchange ask core.campaign.aftermath and core.campaign.corrections, which read
the state defined here.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field

import msgspec

from core.campaign.log import (
    ActionRecorded,
    ActionRedone,
    ActionUndone,
    Character,
    CharacterAdded,
    CharacterUpdated,
    Compel,
    ContestCorrected,
    ContestStarted,
    Entry,
    Play,
    Played,
    PoolSpent,
    QuickRolled,
    ResultsWritten,
    SecretToggled,
    SessionStarted,
    Setting,
    SettingsChanged,
    SpendFromPool,
)
from core.campaign.runs import Ids
from core.engine import evolve, fold
from core.errors import RuleError, UnknownName
from core.limits import Int
from core.model import AnyContest, AnyExchange, Command, Contest, Event, ExchangeEvent, SavedRecord
from core.redact import Secrets
from core.rules import SYSTEM_NAMES, find_system
from core.rules.base import Pool

CODEC_TAG = (
    "campaign_state"  # the saved tag of ContestRecord, as when this module was campaign_state
)

# -- the campaign --------------------------------------------------------------------------


class ContestRecord(SavedRecord):
    """One contest of the campaign: where it started, where it stands, what happened."""

    contest_id: str
    title: str
    start: AnyContest
    state: AnyContest
    uses: Mapping[str, str] = msgspec.field(default_factory=dict)
    tussle_rolls: tuple[str, ...] = ()  # rollers whose dice Tussle rolls
    actions: list[Int] = msgspec.field(default_factory=list)  # action ids in force, in order
    exchanges: list[AnyExchange] = msgspec.field(default_factory=list)
    written: bool = False  # its results are on the roster
    secret: bool = False  # the whole contest is hidden from the players
    secret_participants: set[str] = msgspec.field(default_factory=set)
    secret_aspects: set[str] = msgspec.field(default_factory=set)

    @property
    def pool_left(self) -> int:
        """What is left of the GM's pool of points for this scene (Fate's fate points),
        as the system keeps it in the contest's state; 0 where it has no pool."""
        pool = find_system(self.state.system).pool
        return 0 if pool is None else pool.left(self.state)

    def hidden(self, kind: str, name: str = "") -> bool:
        """Whether the players must not see this participant's numbers or this aspect."""
        if self.secret:
            return True
        if kind == "participant":
            return name in self.secret_participants
        if kind == "aspect":
            return name in self.secret_aspects
        return False


@dataclass(slots=True)
class CampaignState:
    """The in-memory campaign: mutable, changed only by :meth:`apply` (core.campaign.actions's
    ``Campaign`` adds deciding what a GM action makes)."""

    name: str
    system: str
    settings: dict[str, Setting] = field(default_factory=dict)
    roster: dict[str, Character] = field(default_factory=dict)
    # Plain dicts, or (a campaign opened from its snapshot) mappings that read a contest or
    # an action only when asked for it (core.saves.snapshot).
    contests: MutableMapping[str, ContestRecord] = field(default_factory=dict)
    actions: MutableMapping[int, ActionRecorded] = field(default_factory=dict)
    # The action ids in force and undone, in order (kept as runs: core.campaign.runs).
    done: Ids = field(default_factory=Ids)
    undone: Ids = field(default_factory=Ids)
    sessions: list[str] = field(default_factory=list)  # when each session in force started
    # Rolls outside the contests in force, each with its action's id (a list of pairs: it
    # saves and reads back as it is, in a snapshot too).
    rolls: list[tuple[int, QuickRolled]] = field(default_factory=list)
    entries: int = 0

    def __post_init__(self) -> None:
        if self.system not in SYSTEM_NAMES:
            raise RuleError(f'no rule system "{self.system}"')

    # -- reading -----------------------------------------------------------------------
    def contest(self, contest_id: str) -> ContestRecord:
        try:
            return self.contests[contest_id]
        except KeyError:
            raise UnknownName(f'no contest "{contest_id}"') from None

    @property
    def latest_contest(self) -> ContestRecord | None:
        last = next(reversed(list(self.contests)), None)  # the ids: reads no other contest
        return None if last is None else self.contests[last]

    def contest_log(self, contest_id: str) -> tuple[list[Command], list[Event]]:
        """The rule commands and events in force for a contest, from its start (a
        correction replaces everything before it)."""
        record = self.contest(contest_id)
        commands: list[Command] = []
        events: list[Event] = []
        for action_id in record.actions:
            action = self.actions[action_id]
            for event in action.events:
                if isinstance(event, ContestCorrected) and event.contest_id == contest_id:
                    commands, events = list(event.commands), list(event.events)
                elif isinstance(event, Played) and event.contest_id == contest_id:
                    events.append(event.event)
                elif isinstance(event, PoolSpent) and event.contest_id == contest_id:
                    events.append(self._pool().paid(event.count))
            command = action.command
            if isinstance(command, Play) and command.contest_id == contest_id:
                commands.extend(command.commands)
            elif isinstance(command, Compel) and any(
                isinstance(e, Played) and e.contest_id == contest_id for e in action.events
            ):
                commands.append(self._pool().award(command.who))
            elif isinstance(command, SpendFromPool) and command.contest_id == contest_id:
                commands.append(self._pool().pay(command.by, command.reason, command.count))
        return commands, events

    def playing(self, who: str) -> ContestRecord | None:
        """The unfinished contest ``who`` takes part in (the latest), if any."""
        for contest_id in reversed(list(self.contests)):
            record = self.contests[contest_id]
            if not record.state.finished and any(p.name == who for p in record.state.participants):
                return record
        return None

    def next_contest_id(self) -> str:
        """``c1``, ``c2``...: never reused, even for a contest whose start was undone."""
        started: int | None = getattr(self.actions, "contests_started", None)  # core.saves.lazy's
        if started is None:
            started = sum(
                isinstance(e, ContestStarted) for a in self.actions.values() for e in a.events
            )
        return f"c{started + 1}"

    def acting(self, action_ids: Iterable[int]) -> Iterator[tuple[int, ActionRecorded]]:
        """Each of ``action_ids`` with its action, in order, leaving out those known to do
        nothing but play contests (a campaign opened from its snapshot knows them without
        reading them back from the log: core.saves.snapshot): what looks for roster changes,
        contest starts or results written needs no other."""
        quiet: Container[int] = getattr(self.actions, "plays_only", frozenset())
        for action_id in action_ids:
            if action_id not in quiet:
                yield action_id, self.actions[action_id]

    # -- apply -------------------------------------------------------------------------
    def apply(self, entry: Entry) -> None:
        """Fold one log entry into the campaign (what loading a save does, entry by entry).

        An entry that does not fit (an undo of an action not last in force...) raises
        ``RuleError`` and changes nothing; anything but an entry raises ``TypeError``.
        """
        match entry:
            case ActionRecorded():
                self.actions[entry.action_id] = entry
                self.done.append(entry.action_id)
                self.undone.clear()
                self._play(entry)
            case ActionUndone():
                if not self.done or self.done[-1] != entry.action_id:
                    raise RuleError(f"action {entry.action_id} is not the last one in force")
                self.undone.append(self.done.pop())
                self._unplay(self.actions[entry.action_id])
            case ActionRedone():
                if not self.undone or self.undone[-1] != entry.action_id:
                    raise RuleError(f"action {entry.action_id} was not the last one undone")
                self.done.append(self.undone.pop())
                self._play(self.actions[entry.action_id])
            case _:
                raise TypeError(f"{type(entry).__name__} is not a log entry")
        self.entries += 1

    def _play(self, action: ActionRecorded) -> None:
        touched: set[str] = set()
        for event in action.events:
            match event:
                case Played():
                    record = self.contests[event.contest_id]
                    record.state = evolve(record.state, event.event)
                    if isinstance(event.event, ExchangeEvent):
                        record.exchanges.append(event.event)
                    touched.add(event.contest_id)
                case ContestStarted():
                    start = self._scene(event)
                    self.contests[event.contest_id] = ContestRecord(
                        contest_id=event.contest_id,
                        title=event.title,
                        start=start,
                        state=start,
                        uses=event.uses,
                        tussle_rolls=event.tussle_rolls,
                        secret=event.secret,
                        secret_participants=set(event.secret_participants),
                        secret_aspects=set(event.secret_aspects),
                    )
                case CharacterAdded():
                    self.roster[event.character.name] = event.character
                case CharacterUpdated():
                    self._rename(event.name, event.character)
                case SettingsChanged():
                    self._set(event.changes)
                case ContestCorrected():
                    self._fold(self.contests[event.contest_id], event.events)
                    touched.add(event.contest_id)
                case ResultsWritten():
                    self.contests[event.contest_id].written = True
                case PoolSpent():  # an old log's: the same as a Played PoolPaid
                    record = self.contests[event.contest_id]
                    record.state = evolve(record.state, self._pool().paid(event.count))
                    touched.add(event.contest_id)
                case SecretToggled():
                    self._mark(event, event.secret)
                case SessionStarted():
                    self.sessions.append(event.at)
                case QuickRolled():
                    self.rolls.append((action.action_id, event))
        for contest_id in touched:
            self.contests[contest_id].actions.append(action.action_id)

    def _scene(self, event: ContestStarted) -> Contest:
        """A contest is a scene: where the system has a GM's pool, the pool it starts
        with (decided with the start) and who the pool pays for: every participant who
        is not a PC on the roster as it stands at the start (ad hoc opposition is the
        GM's)."""
        contest = event.contest
        pool = find_system(contest.system).pool
        if pool is None:
            return contest
        npcs = frozenset(
            p.name
            for p in contest.participants
            if p.name not in self.roster or self.roster[p.name].kind != "pc"
        )
        return pool.scene(contest, event.gm_pool, npcs)

    def _pool(self) -> Pool:
        """The GM's pool of the campaign's system; ``RuleError`` where it has none."""
        rules = find_system(self.system)
        if rules.pool is None:
            raise RuleError(f"{rules.title} has no compels and no GM's pool of points")
        return rules.pool

    def _rename(self, old: str, character: Character) -> None:
        self.roster = _renamed(self.roster, old, character)

    def roster_before(self, action_id: int | None = None) -> dict[str, Character]:
        """The roster as the actions in force before ``action_id`` made it (None: all of
        them, which is the roster now)."""
        roster: dict[str, Character] = {}
        before: Iterable[int] = (
            self.done if action_id is None else self.done[: self._index(action_id)]
        )
        for _, action in self.acting(before):
            for event in action.events:
                if isinstance(event, CharacterAdded):
                    roster[event.character.name] = event.character
                elif isinstance(event, CharacterUpdated):
                    roster = _renamed(roster, event.name, event.character)
        return roster

    def _index(self, action_id: int) -> int:
        """Where ``action_id`` is among the actions in force (their count when it is not)."""
        try:
            return self.done.index(action_id)
        except ValueError:
            return len(self.done)

    def _unplay(self, action: ActionRecorded) -> None:
        """Take an action back: the last in force, so replay what stands before it."""
        roster_changed = False
        for event in action.events:
            match event:
                case ContestStarted():
                    self.contests.pop(event.contest_id, None)
                case Played() if event.contest_id in self.contests:
                    self._rebuild(event.contest_id, leaving_out=action.action_id)
                case ContestCorrected() if event.contest_id in self.contests:
                    self._rebuild(event.contest_id, leaving_out=action.action_id)
                case CharacterAdded() | CharacterUpdated():
                    roster_changed = True
                case SettingsChanged():
                    self._set(event.before)
                case ResultsWritten() if event.contest_id in self.contests:
                    self.contests[event.contest_id].written = False
                case PoolSpent() if event.contest_id in self.contests:
                    self._rebuild(event.contest_id, leaving_out=action.action_id)
                case SecretToggled() if event.contest_id in self.contests:
                    self._mark(event, not event.secret)
                case SessionStarted():
                    self.sessions.pop()
                case QuickRolled():
                    self.rolls = [r for r in self.rolls if r[0] != action.action_id]
        if roster_changed:
            self.roster = self.roster_before()

    def _set(self, values: Mapping[str, Setting]) -> None:
        for key, value in values.items():
            if value is None:
                self.settings.pop(key, None)
            else:
                self.settings[key] = value

    def _mark(self, event: SecretToggled, secret: bool) -> None:
        record = self.contests[event.contest_id]
        if event.kind == "contest":
            record.secret = secret
            return
        names = record.secret_participants if event.kind == "participant" else record.secret_aspects
        if secret:
            names.add(event.name)
        else:
            names.discard(event.name)

    @staticmethod
    def _fold(record: ContestRecord, events: tuple[Event, ...] | list[Event]) -> None:
        """Put ``record`` back at its start, then play ``events``."""
        record.state = fold(record.start, events)
        record.exchanges = [e for e in events if isinstance(e, ExchangeEvent)]

    def _rebuild(self, contest_id: str, leaving_out: int) -> None:
        record = self.contests[contest_id]
        if record.actions and record.actions[-1] == leaving_out:
            record.actions.pop()
        self._fold(record, self.contest_log(contest_id)[1])


def secrets_of(record: ContestRecord) -> Secrets:
    """The secrets of ``record`` as the GM has set them (what core.redact hides)."""
    state = record.state
    hidden = frozenset(p.name for p in state.participants if record.hidden("participant", p.name))
    sides = frozenset(p.side for p in state.participants if p.name in hidden)
    aspects = set(record.secret_aspects)
    rules = find_system(state.system)
    for name in sorted(hidden):  # what is a hidden participant's own (their harm)
        aspects |= set(rules.private_aspects(state, name))
    if record.secret:  # every aspect named (read through every exchange only then)
        aspects |= set(_aspect_names(record))
    return Secrets(
        contest=record.secret, participants=hidden, sides=sides, aspects=frozenset(aspects)
    )


def _aspect_names(record: ContestRecord) -> Iterable[str]:
    """The aspects in play, and those the exchanges named (a boost used up, a twist)."""
    rules = find_system(record.state.system)
    yield from rules.aspects(record.state)
    for event in record.exchanges:
        yield from rules.named_aspects(event)


def _renamed(
    roster: Mapping[str, Character], old: str, character: Character
) -> dict[str, Character]:
    """``roster`` with ``old`` replaced by ``character`` (perhaps renamed), in place."""
    return {
        (character.name if k == old else k): (character if k == old else v)
        for k, v in roster.items()
    }


__all__ = [
    "CampaignState",
    "ContestRecord",
    "secrets_of",
]
