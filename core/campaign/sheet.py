"""What a rule system keeps on a character and does around a contest: the base class of
each system's sheet (``core/systems/<name>/sheet.py``), and how to find one.

The generic modules ask the sheet of the campaign's system: setting up a contest
(core.campaign.setup), writing a finished contest back onto the roster, a new session, the
costs at a contest's end (core.campaign.aftermath), a point awarded outside a contest
(core.campaign.actions). None of them names a system.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import msgspec

from core.campaign.log import Character, Sheet
from core.campaign.state import CampaignState, ContestRecord
from core.errors import RuleError
from core.limits import fields_of, written_whole
from core.model import Command, Contest, Event, Participant
from core.rules import find_plugin, load, not_a

OptionsT = TypeVar("OptionsT")

# (character name, function: the character as it stands -> the fields to replace): a
# write-back is a list of differences added to the roster as it stands, so a point the
# roster gained meanwhile (a compel outside the contest) is kept.
# (A function typed Any: mypy cannot type the lambdas with default arguments it is.)
Change = tuple[str, Any]


class Pick(msgspec.Struct, frozen=True, kw_only=True):
    """One participant: a roster character on ``side`` using ``rating`` (a skill,
    ability or target name; None or one the character lacks: the system's rule for no
    relevant skill, ``NO_SKILL``). ``value`` sets the rating outright (a rating typed
    for this contest only, a HeroQuest resistance from the table, a FORGE target built
    from tiers); with it, ``character`` need not be on the roster (an unnamed
    opposition)."""

    character: str
    side: str
    rating: str | None = None
    value: int | None = None

    def rating_of(self, character: Character, fallback: int) -> int:
        """The value this participant rolls: typed, from the sheet, or ``fallback``."""
        if self.value is not None:
            return self.value
        if self.rating is None:
            return fallback
        return character.ratings.get(self.rating, fallback)


def options(kind: type[OptionsT], opts: Mapping[str, Any]) -> OptionsT:
    """A system's options struct from ``opts``; an unknown name is a ``RuleError``,
    not a ``TypeError`` from the dataclass."""
    known = set(fields_of(kind))
    for key in opts:
        if key not in known:
            raise RuleError(f'no option "{key}" (try {", ".join(sorted(known))})')
    return kind(**opts)


class Demo(msgspec.Struct, frozen=True, kw_only=True):
    """A demo campaign: its roster and one contest ready to play."""

    characters: tuple[Character, ...]
    title: str
    picks: tuple[Pick, ...]
    options: Mapping[str, Any] = msgspec.field(default_factory=dict)
    aspects: tuple[str, ...] = ()


class SystemSheet(ABC):
    """What one rule system keeps on a character and does around a contest: its
    plug-in's ``sheet`` is an instance of a subclass (Fate's ``FateSheet``). A system
    says how its contest is built (:meth:`build_contest`) and its options read; every
    other hook has a default a small system keeps (no ratings to speak of, nothing
    written back, a session that changes nothing, no points awarded outside a contest).

    ``ROSTER_FILE`` names (``"module:attribute"``) the ``core.campaign.roster_file.RosterFormat``
    that reads and writes the system's roster files, ``QUICK_ROLL``
    the module whose ``QUICK_ROLLS`` (a ``core.campaign.quick_roll.QuickRolls``) are its rolls
    outside a contest (``tussle roll``, the dashboard's quick roll), each loaded when
    first needed; None: no roster import or export, or no quick rolls."""

    NO_SKILL: ClassVar[int] = 0  # what a character with no relevant skill rolls
    ROSTER_FILE: ClassVar[str | None] = None
    QUICK_ROLL: ClassVar[str | None] = None
    # The system's own part of a character (``Character.sheet``), where it has one: the
    # roster files (without a ``ROSTER_FILE``) and the roster's form read and write its
    # fields by default, each within the limit declared on it.
    CHARACTER: ClassVar[type[Sheet] | None] = None

    @abstractmethod
    def describe_options(self, opts: Mapping[str, Any]) -> list[str]:
        """The rule options in force, in words a GM reads; ``RuleError`` for an option
        the system does not have."""

    @abstractmethod
    def build_contest(
        self,
        chosen: Sequence[tuple[Pick, Character]],
        opts: Mapping[str, Any],
        situation_aspects: Sequence[str],
    ) -> Contest:
        """The starting contest (``opts``: the rule options chosen); ``RuleError`` when
        it cannot be played."""

    def rating_label(self, value: int) -> str:
        """A rating as the system writes it: ``Great (+4)``, ``4M``, ``50``; the number
        by default."""
        return str(value)

    def typed_rating(self, text: str) -> int:
        """A rating the GM typed for one contest; ``RuleError`` saying what to write. A
        whole number by default."""
        try:
            value = written_whole(text)
        except ValueError as too_large:
            raise RuleError(str(too_large)) from None
        if value is None:
            raise RuleError(f'"{text}" is not a whole number')
        return value

    def rolled(self, participant: Participant) -> int | None:
        """The rating a participant of a contest rolls (its skill, ability, target);
        ``NO_SKILL`` by default. None: it rolled no one rating (a Fate conflict's
        participants roll a skill per action), so a setup made like it picks theirs as a
        new contest does."""
        return self.NO_SKILL

    def newcomer(self, participant: Participant) -> Character:
        """A roster character (an NPC) for a participant a recorded scenario brings that
        the roster does not know yet (``tussle resolve --record``); by default its name."""
        return Character(name=participant.name, kind="npc")

    def conditions(self, character: Character, ability: str | None) -> str:
        """What the character's states and benefits do to ``ability`` when rolled
        (``hurt -3, Sword +3``); none by default."""
        return ""

    def write_back(self, campaign: CampaignState, record: ContestRecord) -> Iterator[Change]:
        """What a finished contest leaves on its participants' sheets; nothing by
        default."""
        return iter(())

    def new_session(self, character: Character, reset: int | None) -> Character:
        """The character at a new session's start (refresh, recovery...); ``reset`` is
        what the table resets the system's points to for every PC, where it does (the
        roster part's ``session_reset`` names them). Unchanged by default."""
        return character

    def upgrade_entries(self, version: int, entries: list[dict[str, Any]]) -> None:
        """Log ``entries`` of a campaign of this system, as saved (JSON objects), brought
        from format ``version`` to the next, in place, where the system's own records
        changed meaning (core.saves.migrate calls it, before its own changes of the
        format); nothing by default."""
        return

    def session_news(self, old: Character, new: Character) -> list[str]:
        """What a session's start (or a scenario's end) changed on a character, in words
        for the GM (``Cynere refreshed to 3 fate points``); nothing by default."""
        return []

    def end_scenario(self, character: Character) -> Character:
        """The character once a scenario ends (Fate: severe consequences recovering
        clear); unchanged by default."""
        return character

    def act(self, character: Character, action: Command) -> Character:
        """The character after ``action``, one of the system's own actions outside a
        contest (Fate: a recovery action); ``RuleError`` when the rules refuse it, and
        by default (a system with none)."""
        raise RuleError("this rule system has no such action outside a contest")

    def award(self, character: Character) -> Character:
        """A point the rules award outside a contest (Fate: a compel accepted), where
        the system's pool (``RuleSystem.pool``) awards one; ``RuleError`` by default."""
        raise RuleError("no points are awarded outside a contest in this system")

    def costs(self, record: ContestRecord, events: Sequence[Event]) -> Iterator[str]:
        """What the contest cost, for the summary: points spent, damage taken...;
        nothing by default."""
        return iter(())

    def demo(self) -> Demo:
        """The demo campaign a first run creates (where the plug-in names one)."""
        raise RuleError("this rule system has no demo campaign")

    def level(self, record: ContestRecord) -> str:
        """A won contest's level after the winner's name where it has no count to
        give (`` (major victory)``); ``""`` by default."""
        return ""


def find_sheet(system: str) -> SystemSheet:
    """The sheet of the rule system called ``system`` (its plug-in's ``sheet``),
    loaded when first asked for; ``RuleError`` when it is not a :class:`SystemSheet`."""
    reference = find_plugin(system).sheet
    if not isinstance(sheet := load(reference), SystemSheet):
        raise not_a(reference, SystemSheet)
    return sheet
