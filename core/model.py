"""The values every rule system shares: a contest, its participants, commands and events.

All are frozen ``msgspec`` structs (:class:`Saved`) changed with
:func:`msgspec.structs.replace`. Maps are typed ``Mapping`` and never mutated after
construction (a new dict replaces an old one).

Each saved class carries its tag, ``"@": "fate.ExchangeResolved"`` in the saves: the
module's ``CODEC_TAG`` (or its last name) and the class's (:class:`Tagged`). A field
typed with a base class that has subclasses (an ``Event``, a ``Command``, a ``Contest``)
is typed with its ``Any…`` marker (:func:`any_of`), so that core.files.codec decodes whichever
kind the tag names, from a rule system loaded on demand too.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from core.limits import Int, NonZero

TAG = "@"  # the field that names a saved object's class


if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**kw: Any) -> Any:  # for type checkers only
        return lambda cls: cls


def _tagged(
    mcls: type, name: str, bases: tuple[type, ...], ns: dict[str, Any], kw: dict[str, Any]
) -> dict[str, Any]:
    if "tag" not in kw:
        module = str(ns.get("__module__", ""))
        prefix = getattr(sys.modules.get(module), "CODEC_TAG", None)
        kw["tag"] = f"{prefix or module.rsplit('.', 1)[-1]}.{name}"
    return kw


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(msgspec.field,))
class Tagged(msgspec.StructMeta):
    """Gives each class its tag: ``"<CODEC_TAG of its module, or the module's last
    name>.<class name>"`` (a module that moved keeps the tags its saves were written with
    by naming them in ``CODEC_TAG``)."""

    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any) -> Tagged:
        cls: Tagged = super().__new__(mcls, name, bases, ns, **_tagged(mcls, name, bases, ns, kw))
        return cls


@dataclass_transform(kw_only_default=True, field_specifiers=(msgspec.field,))
class TaggedRecord(msgspec.StructMeta):
    """:class:`Tagged`, for the mutable records."""

    def __new__(
        mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any
    ) -> TaggedRecord:
        made = super().__new__(mcls, name, bases, ns, **_tagged(mcls, name, bases, ns, kw))
        cls: TaggedRecord = made
        return cls


class Saved(
    msgspec.Struct,
    metaclass=Tagged,
    frozen=True,
    kw_only=True,
    tag_field=TAG,
    forbid_unknown_fields=True,
    gc=False,  # values, never in a cycle: the collector need not track a long log's
):
    """A frozen value the saves hold (a command, an event, a contest, an option...)."""


class SavedRecord(
    msgspec.Struct,
    metaclass=TaggedRecord,
    kw_only=True,
    tag_field=TAG,
    forbid_unknown_fields=True,
):
    """A mutable record the snapshot holds (core.campaign.state's ``ContestRecord``)."""


class AnyOf(type):
    """The type of a marker standing for "any kind of ``base``" in a field's type: an
    instance of any subclass of ``base`` is an instance of the marker."""

    base: type

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, cls.base)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, cls.base)


def any_of(base: type) -> AnyOf:
    """The marker for fields holding any kind of ``base``: core.files.codec decodes such a
    field by its tag. (Type checkers see ``base`` itself: ``AnyEvent = Event`` under
    ``TYPE_CHECKING``.)"""
    return AnyOf(f"Any{base.__name__}", (), {"base": base, "__slots__": ()})


class Participant(Saved):
    """Somebody taking part: a PC, an NPC or a resistance. ``side`` groups a team."""

    name: str
    side: str


class Contest(Saved):
    """One contest's current state. Each rule system subclasses it with its own fields.

    ``n`` counts the exchanges resolved so far; ``winner`` is a side name.
    """

    system: ClassVar[str] = ""
    participants: tuple[AnyParticipant, ...]
    n: Int = 0
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


class Command(Saved):
    """Something the GM asks for, named as an order (``RollDice``).

    ``before_rolls`` marks what must come before an exchange's dice (an advantage, the
    parties, a modifier) when the keypad puts one exchange's commands in order.
    """

    before_rolls: ClassVar[bool] = False


class Event(Saved):
    """Something that happened, named in the past tense (``DiceRolled``)."""


# Commands every system understands. System-specific ones live beside their rules.


class RollDice(Command):
    """Dice for ``who`` (a side in Fate, a participant elsewhere), typed or rolled."""

    who: str
    faces: tuple[Int, ...]
    source: str = "table"  # "table": typed from real dice; "tussle": rolled by the app


class SetModifier(Command):
    """A signed modifier for ``who`` on the coming exchange (replaces an earlier one).
    ``label`` names the rule system's preset it is (``RuleSystem.modifier_presets``: a
    FORGE distance step), None for a number typed."""

    before_rolls: ClassVar[bool] = True

    who: str
    value: NonZero  # a modifier of 0 changes nothing: refused where one is typed
    label: str | None = None


class ResolveExchange(Command):
    """Close the open exchange and score it. ``twist`` names a Fate tie's new aspect."""

    twist: str | None = None


class EndContest(Command):
    """The GM closes the contest (a FORGE contest has no other end)."""


class DiceRolled(Event):
    who: str
    faces: tuple[Int, ...]
    source: str = "table"


class ModifierSet(Event):
    who: str
    value: Int
    label: str | None = None  # the preset's name (SetModifier's)


class ContestEnded(Event):
    """The contest is over: ``winner`` is a side or None; ``ended_by`` says how."""

    winner: str | None
    ended_by: str


class ExchangeEvent(Event):
    """Base of each system's ``ExchangeResolved``: one per exchange, ``n`` from 1."""

    n: Int


if TYPE_CHECKING:
    AnyParticipant = Participant
    AnyContest = Contest
    AnyCommand = Command
    AnyEvent = Event
    AnyExchange = ExchangeEvent
else:
    AnyParticipant = any_of(Participant)
    AnyContest = any_of(Contest)
    AnyCommand = any_of(Command)
    AnyEvent = any_of(Event)
    AnyExchange = any_of(ExchangeEvent)
