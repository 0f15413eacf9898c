"""The values every rule system shares: a contest, its participants, commands and events.

All are frozen, slotted dataclasses changed with :func:`dataclasses.replace`. Maps are typed
``Mapping`` and never mutated after construction (a new dict replaces an old one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True, kw_only=True)
class Participant:
    """Somebody taking part: a PC, an NPC or a resistance. ``side`` groups a team."""

    name: str
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Contest:
    """One contest's current state. Each rule system subclasses it with its own fields.

    ``n`` counts the exchanges resolved so far; ``winner`` is a side name.
    """

    system: ClassVar[str] = ""
    participants: tuple[Participant, ...]
    n: int = 0
    finished: bool = False
    winner: str | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        """Side names in order of first appearance among the participants."""
        return tuple(dict.fromkeys(p.side for p in self.participants))

    def participant(self, name: str) -> Participant:
        for p in self.participants:
            if p.name == name:
                return p
        from core.errors import UnknownName

        raise UnknownName(f'no participant "{name}"')

    def members(self, side: str) -> tuple[Participant, ...]:
        return tuple(p for p in self.participants if p.side == side)


@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    """Something the GM asks for, named as an order (``RollDice``).

    ``before_rolls`` marks what must come before an exchange's dice (an advantage, the
    parties, a modifier) when the keypad puts one exchange's commands in order.
    """

    before_rolls: ClassVar[bool] = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Something that happened, named in the past tense (``DiceRolled``)."""


# Commands every system understands. System-specific ones live beside their rules.


@dataclass(frozen=True, slots=True, kw_only=True)
class RollDice(Command):
    """Dice for ``who`` (a side in Fate, a participant elsewhere), typed or rolled."""

    who: str
    faces: tuple[int, ...]
    source: str = "table"  # "table": typed from real dice; "tussle": rolled by the app


@dataclass(frozen=True, slots=True, kw_only=True)
class SetModifier(Command):
    """A signed modifier for ``who`` on the coming exchange (replaces an earlier one)."""

    before_rolls: ClassVar[bool] = True

    who: str
    value: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ResolveExchange(Command):
    """Close the open exchange and score it. ``twist`` names a Fate tie's new aspect."""

    twist: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EndContest(Command):
    """The GM closes the contest (a FORGE contest has no other end)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DiceRolled(Event):
    who: str
    faces: tuple[int, ...]
    source: str = "table"


@dataclass(frozen=True, slots=True, kw_only=True)
class ModifierSet(Event):
    who: str
    value: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ContestEnded(Event):
    """The contest is over: ``winner`` is a side or None; ``ended_by`` says how."""

    winner: str | None
    ended_by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ExchangeEvent(Event):
    """Base of each system's ``ExchangeResolved``: one per exchange, ``n`` from 1."""

    n: int
