"""A campaign: its roster, its contests, and the log of every GM action, with undo.

Event sourced like a contest, one level up. Every GM action is a :class:`Command`; the
campaign decides it into one log *entry* (``ActionRecorded`` with the events it caused,
``ActionUndone`` or ``ActionRedone``); the store saves the entry; then ``apply`` folds it
in. The log only grows: undo is an entry too, and redo applies the recorded events again,
exactly (dice are never rolled again).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from core.errors import RuleError, UnknownName
from core.model import Command, Contest, Event, ExchangeEvent
from core.rules import find_system

SYSTEM_NAMES = ("fate", "heroquest", "forge")
FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Character:
    """A PC or NPC on the roster. ``ratings`` are skills (Fate ladder values), abilities
    (HeroQuest linear values: 24 is 4M) or FORGE targets, by name."""

    name: str
    kind: Literal["pc", "npc"] = "pc"
    ratings: Mapping[str, int] = field(default_factory=dict)
    aspects: tuple[str, ...] = ()
    fate_points: int = 0
    refresh: int = 0
    hero_points: int = 0
    vitality: int = 0
    multiplier: int = 1
    max_damage: int | None = None
    armor: int = 0
    armor_capacity: int = 0


# -- GM actions ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class AddCharacter(Command):
    character: Character


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateCharacter(Command):
    name: str
    character: Character


Setting = bool | int | str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeSettings(Command):
    """The campaign's settings (``players_see_odds``, ``sessions``...); None removes one."""

    changes: Mapping[str, Setting]


@dataclass(frozen=True, slots=True, kw_only=True)
class StartContest(Command):
    """``uses`` names what each participant rolls (``{"Cynere": "Athletics"}``)."""

    title: str
    contest: Contest
    uses: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(Command):
    """Rule commands (``RollDice``, ``InvokeAspect``...) for one contest, as one GM action:
    an exchange committed from the keypad is undone as a whole."""

    contest_id: str
    commands: tuple[Command, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Undo(Command):
    """Take back the last GM action still in force."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Redo(Command):
    """Put back the action undone last (while nothing new was done since)."""


# -- what happened -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CharacterAdded(Event):
    character: Character


@dataclass(frozen=True, slots=True, kw_only=True)
class CharacterUpdated(Event):
    name: str
    character: Character


@dataclass(frozen=True, slots=True, kw_only=True)
class SettingsChanged(Event):
    """New values, and the ones they replaced (so undo puts those back)."""

    changes: Mapping[str, Setting]
    before: Mapping[str, Setting]


@dataclass(frozen=True, slots=True, kw_only=True)
class ContestStarted(Event):
    contest_id: str
    title: str
    contest: Contest
    uses: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Played(Event):
    """One of a contest's own events."""

    contest_id: str
    event: Event


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionRecorded(Event):
    """A GM action and everything it caused: one entry of the saved log."""

    action_id: int
    command: Command
    events: tuple[Event, ...]
    at: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionUndone(Event):
    action_id: int
    at: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionRedone(Event):
    action_id: int
    at: str = ""


Entry = ActionRecorded | ActionUndone | ActionRedone


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def describe_action(command: Command) -> str:
    """A few words for an action, as undo and redo report it."""
    if isinstance(command, Play):
        return ", ".join(describe_action(c) for c in command.commands)
    name = type(command).__name__
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()
    who = getattr(command, "who", None) or getattr(command, "by", None)
    return f"{words} ({who})" if who else words


# -- the campaign --------------------------------------------------------------------------


@dataclass(slots=True)
class ContestRecord:
    """One contest of the campaign: where it started, where it stands, what happened."""

    contest_id: str
    title: str
    start: Contest
    state: Contest
    uses: Mapping[str, str] = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)  # action ids in force, in order
    exchanges: list[ExchangeEvent] = field(default_factory=list)


@dataclass(slots=True)
class Campaign:
    """The in-memory campaign: mutable, changed only by :meth:`apply`."""

    name: str
    system: str
    settings: dict[str, Setting] = field(default_factory=dict)
    roster: dict[str, Character] = field(default_factory=dict)
    contests: dict[str, ContestRecord] = field(default_factory=dict)
    actions: dict[int, ActionRecorded] = field(default_factory=dict)
    done: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)
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
        return next(reversed(self.contests.values()), None)

    def next_contest_id(self) -> str:
        """``c1``, ``c2``...: never reused, even for a contest whose start was undone."""
        started = sum(
            isinstance(e, ContestStarted) for a in self.actions.values() for e in a.events
        )
        return f"c{started + 1}"

    # -- decide ------------------------------------------------------------------------
    def decide(self, command: Command) -> Entry:
        """The log entry ``command`` makes; ``RuleError`` when it is not allowed."""
        if isinstance(command, Undo):
            if not self.done:
                raise RuleError("nothing to undo")
            return ActionUndone(action_id=self.done[-1], at=now())
        if isinstance(command, Redo):
            if not self.undone:
                raise RuleError("nothing to redo")
            return ActionRedone(action_id=self.undone[-1], at=now())
        events = self._events(command)
        return ActionRecorded(
            action_id=self._next_action_id(), command=command, events=events, at=now()
        )

    def _next_action_id(self) -> int:
        return max(self.actions, default=0) + 1

    def _events(self, command: Command) -> tuple[Event, ...]:
        match command:
            case Play():
                record = self.contest(command.contest_id)
                rules = find_system(record.state.system)
                state = record.state
                events: list[Event] = []
                for rule_command in command.commands:
                    for event in rules.decide(state, rule_command):
                        state = rules.evolve(state, event)
                        events.append(Played(contest_id=command.contest_id, event=event))
                if not events:
                    raise RuleError("nothing to do")
                return tuple(events)
            case AddCharacter():
                c = command.character
                if not c.name.strip():
                    raise RuleError("a character needs a name")
                if c.name in self.roster:
                    raise RuleError(f'"{c.name}" is already on the roster')
                return (CharacterAdded(character=c),)
            case ChangeSettings():
                before = {key: self.settings.get(key) for key in command.changes}
                return (SettingsChanged(changes=command.changes, before=before),)
            case UpdateCharacter():
                if command.name not in self.roster:
                    raise UnknownName(f'no character "{command.name}"')
                new = command.character.name
                if not new.strip():
                    raise RuleError("a character needs a name")
                if new != command.name and new in self.roster:
                    raise RuleError(f'"{new}" is already on the roster')
                return (CharacterUpdated(name=command.name, character=command.character),)
            case StartContest():
                if command.contest.system != self.system:
                    raise RuleError(
                        f"this campaign plays {self.system}, not {command.contest.system}"
                    )
                contest_id = self.next_contest_id()
                return (
                    ContestStarted(
                        contest_id=contest_id,
                        title=command.title,
                        contest=command.contest,
                        uses=command.uses,
                    ),
                )
        raise RuleError(f"{type(command).__name__} is not a campaign action")

    def act(self, command: Command) -> Entry:
        """Decide and apply at once (for code that saves the entries itself, in bulk:
        the demos, ``--record``, the benchmarks); the entry it made."""
        entry = self.decide(command)
        self.apply(entry)
        return entry

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
                    rules = find_system(record.state.system)
                    record.state = rules.evolve(record.state, event.event)
                    if isinstance(event.event, ExchangeEvent):
                        record.exchanges.append(event.event)
                    touched.add(event.contest_id)
                case ContestStarted():
                    self.contests[event.contest_id] = ContestRecord(
                        contest_id=event.contest_id,
                        title=event.title,
                        start=event.contest,
                        state=event.contest,
                        uses=event.uses,
                    )
                case CharacterAdded():
                    self.roster[event.character.name] = event.character
                case CharacterUpdated():
                    self._rename(event.name, event.character)
                case SettingsChanged():
                    self._set(event.changes)
        for contest_id in touched:
            self.contests[contest_id].actions.append(action.action_id)

    def _rename(self, old: str, character: Character) -> None:
        self.roster = {
            (character.name if k == old else k): (character if k == old else v)
            for k, v in self.roster.items()
        }

    def _unplay(self, action: ActionRecorded) -> None:
        """Take an action back: the last in force, so replay what stands before it."""
        roster_changed = False
        for event in action.events:
            match event:
                case ContestStarted():
                    self.contests.pop(event.contest_id, None)
                case Played() if event.contest_id in self.contests:
                    self._rebuild(event.contest_id, leaving_out=action.action_id)
                case CharacterAdded() | CharacterUpdated():
                    roster_changed = True
                case SettingsChanged():
                    self._set(event.before)
        if roster_changed:
            self.roster = {}
            for action_id in self.done:
                for event in self.actions[action_id].events:
                    if isinstance(event, CharacterAdded):
                        self.roster[event.character.name] = event.character
                    elif isinstance(event, CharacterUpdated):
                        self._rename(event.name, event.character)

    def _set(self, values: Mapping[str, Setting]) -> None:
        for key, value in values.items():
            if value is None:
                self.settings.pop(key, None)
            else:
                self.settings[key] = value

    def _rebuild(self, contest_id: str, leaving_out: int) -> None:
        record = self.contests[contest_id]
        if record.actions and record.actions[-1] == leaving_out:
            record.actions.pop()
        rules = find_system(record.start.system)
        state = record.start
        exchanges: list[ExchangeEvent] = []
        for action_id in record.actions:
            for event in self.actions[action_id].events:
                if isinstance(event, Played) and event.contest_id == contest_id:
                    state = rules.evolve(state, event.event)
                    if isinstance(event.event, ExchangeEvent):
                        exchanges.append(event.event)
        record.state = state
        record.exchanges = exchanges
