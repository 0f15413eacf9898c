"""A campaign: its roster, its contests, and the log of every GM action, with undo.

Event sourced like a contest, one level up. Every GM action is a :class:`Command`; the
campaign decides it into one log *entry* (``ActionRecorded`` with the events it caused,
``ActionUndone`` or ``ActionRedone``); the store saves the entry; then ``apply`` folds it
in. The log only grows: undo is an entry too, and redo applies the recorded events again,
exactly (dice are never rolled again).

Deciding is here; the actions and events are in core.campaign.log, the state and how an
entry folds in are in core.campaign.state (below core.campaign.aftermath and
core.campaign.corrections, which decide asks); each is imported from where it is defined.
"""

from __future__ import annotations

from typing import Any

from core.campaign.aftermath import results, scenario_events, session_events
from core.campaign.corrections import correct
from core.campaign.log import (
    ActionRecorded,
    ActionRedone,
    ActionUndone,
    AddCharacter,
    ChangeSettings,
    CharacterAction,
    CharacterAdded,
    CharacterUpdated,
    Compel,
    ContestStarted,
    Correct,
    EndScenario,
    Entry,
    ImportCharacters,
    Play,
    Played,
    QuickRoll,
    QuickRolled,
    Redo,
    ResultsWritten,
    SecretToggled,
    SettingsChanged,
    SpendFromPool,
    StartContest,
    StartSession,
    ToggleSecret,
    Undo,
    UpdateCharacter,
    WriteBack,
    now,
)
from core.campaign.sheet import find_sheet
from core.campaign.state import CampaignState
from core.engine import play
from core.errors import RuleError, UnknownName
from core.files.codec import CodecError, decode, encode
from core.files.disk import entry_problem
from core.model import Command, Event
from core.rules import find_system

__all__ = [
    "Campaign",
]


class Campaign(CampaignState):
    """The in-memory campaign: mutable, changed only by :meth:`apply`; :meth:`decide`
    works out the log entry a GM action makes."""

    __slots__ = ()

    # -- decide ------------------------------------------------------------------------
    def decide(self, command: Command) -> Entry:
        """The log entry ``command`` makes; ``RuleError`` when it is not allowed."""
        if isinstance(command, Undo):
            if not self.done:
                raise RuleError("nothing to undo")
            self._ready(self.done[-1])
            return ActionUndone(action_id=self.done[-1], at=now())
        if isinstance(command, Redo):
            if not self.undone:
                raise RuleError("nothing to redo")
            self._ready(self.undone[-1])
            return ActionRedone(action_id=self.undone[-1], at=now())
        events = self._events(command)
        return reloads(
            ActionRecorded(
                action_id=self._next_action_id(), command=command, events=events, at=now()
            )
        )

    def _ready(self, action_id: int) -> None:
        """Read now what undoing or redoing ``action_id`` will need: a campaign opened from
        its snapshot reads older actions from the log when first needed (core.saves.snapshot),
        and a log that cannot be read must refuse the undo, not fail once it is saved."""
        action = self.actions[action_id]
        for event in action.events:
            record = self.contests.get(getattr(event, "contest_id", ""))
            for other in record.actions if record is not None else ():
                self.actions[other]
            if isinstance(event, CharacterAdded | CharacterUpdated):
                self.roster_before()

    def _next_action_id(self) -> int:
        top: int | None = getattr(self.actions, "top", None)  # core.saves.lazy's: knows it
        return (max(self.actions, default=0) if top is None else top) + 1

    def _events(self, command: Command) -> tuple[Event, ...]:
        match command:
            case Play():
                record = self.contest(command.contest_id)
                _, played = play(record.state, command.commands)
                if not played:
                    raise RuleError("nothing to do")
                return tuple(Played(contest_id=command.contest_id, event=e) for e in played)
            case AddCharacter():
                c = command.character
                if not c.name.strip():
                    raise RuleError("a character needs a name")
                if c.name in self.roster:
                    raise RuleError(f'"{c.name}" is already on the roster')
                return (CharacterAdded(character=c),)
            case ImportCharacters():
                return self._import(command)
            case ChangeSettings():
                before = {key: self.settings.get(key) for key in command.changes}
                return (SettingsChanged(changes=command.changes, before=before),)
            case WriteBack():
                record = self.contest(command.contest_id)
                if not record.state.finished:
                    raise RuleError(f'"{record.title}" has not ended yet')
                if record.written:
                    raise RuleError(f'the results of "{record.title}" are already on the roster')
                changed = results(self, record)
                return (
                    *(CharacterUpdated(name=c.name, character=c) for c in changed),
                    ResultsWritten(contest_id=record.contest_id),
                )
            case Correct():
                return (correct(self, command).event,)
            case ToggleSecret():
                return (self._secret(command),)
            case StartSession():
                return session_events(self, command.reset)
            case EndScenario():
                return scenario_events(self)
            case CharacterAction():
                if command.who not in self.roster:
                    raise UnknownName(f'no character "{command.who}"')
                character = find_sheet(self.system).act(self.roster[command.who], command.action)
                return (CharacterUpdated(name=command.who, character=character),)
            case Compel():
                return self._compel(command.who)
            case QuickRoll():
                return (self._quick_roll(command),)
            case SpendFromPool():
                pay = self._pool().pay(command.by, command.reason, command.count)
                return self._events(Play(contest_id=command.contest_id, commands=(pay,)))
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
                # A contest is a scene: where the system has a GM's pool, it starts
                # with what the PCs in it give (Fate: one fate point each).
                pool = find_system(self.system).pool
                pcs = sum(
                    1
                    for p in command.contest.participants
                    if p.name in self.roster and self.roster[p.name].kind == "pc"
                )
                return (
                    ContestStarted(
                        contest_id=self.next_contest_id(),
                        title=command.title,
                        contest=command.contest,
                        uses=command.uses,
                        gm_pool=pool.opening(pcs) if pool is not None else 0,
                        tussle_rolls=command.tussle_rolls,
                        **_start_secrets(command),
                    ),
                )
        raise RuleError(f"{type(command).__name__} is not a campaign action")

    def _quick_roll(self, command: QuickRoll) -> QuickRolled:
        """A roll outside the contests, read by the campaign's system with the dice it
        came with (core.campaign.quick_roll); ``RuleError`` for one the system does not read."""
        from core.campaign.quick_roll import resolve

        roll = resolve(command.expression, command.faces, self.system)
        return QuickRolled(
            expression=roll.expression,
            faces=roll.faces,
            outcome=roll.outcome,
            details=roll.details,
            chance=roll.chance,
        )

    def _import(self, command: ImportCharacters) -> tuple[Event, ...]:
        """One event per character: added, or (with ``replace``) replacing the one of
        that name; refused whole when one cannot go in."""
        if not command.characters:
            raise RuleError("nothing to import: no characters")
        seen: set[str] = set()
        events: list[Event] = []
        for c in command.characters:
            if not c.name.strip():
                raise RuleError("a character needs a name")
            if c.name in seen:
                raise RuleError(f'"{c.name}" comes twice in what is imported')
            seen.add(c.name)
            if c.name not in self.roster:
                events.append(CharacterAdded(character=c))
            elif command.replace:
                events.append(CharacterUpdated(name=c.name, character=c))
            else:
                raise RuleError(
                    f'"{c.name}" is already on the roster (import with replace to overwrite it)'
                )
        return tuple(events)

    def _secret(self, command: ToggleSecret) -> SecretToggled:
        record = self.contest(command.contest_id)
        aspects = find_system(self.system).aspects(record.state)
        if command.kind == "participant":
            record.state.participant(command.name)  # UnknownName when not in it
        elif command.kind == "aspect" and command.name not in aspects:
            raise UnknownName(f'no aspect "{command.name}" in "{record.title}"')
        return SecretToggled(
            contest_id=command.contest_id,
            kind=command.kind,
            name=command.name,
            secret=not record.hidden(command.kind, command.name)
            if command.kind != "contest"
            else not record.secret,
        )

    def _compel(self, who: str) -> tuple[Event, ...]:
        """A compel accepted: a point in the contest ``who`` is playing (the system's
        GM's pool says which command), else on their sheet (the system's sheet says
        how)."""
        award = self._pool().award(who)
        record = self.playing(who)
        if record is not None:
            return self._events(Play(contest_id=record.contest_id, commands=(award,)))
        if who not in self.roster:
            raise UnknownName(f'no character "{who}"')
        character = find_sheet(self.system).award(self.roster[who])
        return (CharacterUpdated(name=who, character=character),)

    def act(self, command: Command) -> Entry:
        """Decide and apply at once (for code that saves the entries itself, in bulk:
        the demos, ``--record``, the benchmarks); the entry it made."""
        entry = self.decide(command)
        self.apply(entry)
        return entry


def _start_secrets(command: StartContest) -> dict[str, Any]:
    """What ``command`` hides from its first moment, each name checked against the
    contest (``UnknownName`` otherwise), in order, once."""
    contest = command.contest
    for name in command.secret_participants:
        contest.participant(name)  # UnknownName when not in it
    aspects = find_system(contest.system).aspects(contest)
    for name in command.secret_aspects:
        if name not in aspects:
            raise UnknownName(f'no aspect "{name}" in "{command.title}"')
    return {
        "secret": command.secret,
        "secret_participants": tuple(dict.fromkeys(command.secret_participants)),
        "secret_aspects": tuple(dict.fromkeys(command.secret_aspects)),
    }


def reloads(entry: ActionRecorded) -> ActionRecorded:
    """``entry`` when it reads back from the log as it is (every field within the limit
    declared on it, core.limits; within core.files.disk's bounds on a log entry); else
    ``RuleError`` naming the place or the bound, so nothing is saved that the next
    opening would refuse."""
    saved = encode(entry)
    try:
        decode(saved, Event)
    except CodecError as exc:
        raise RuleError(str(exc)) from None
    problem = entry_problem(saved)  # what core.files.disk would refuse to read back
    if problem is not None:
        raise RuleError(f"not saved: {problem}")
    return entry
