"""A Fate contest as it stands between commands: its participants and their sides,
aspects in play with their free invokes, the exchange being entered (dice, advantages,
invokes, modifiers), the victories so far and the GM's pool in a campaign's scene."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar

import msgspec
from msgspec.structs import replace

from core.errors import UnknownName
from core.limits import Count, Int
from core.model import Contest, Participant, Saved
from core.systems.fate.scoring import Effect, FateOptions, Outcome, teamwork

CODEC_TAG = "fate"  # the saved tags ("fate.ExchangeResolved"), as before the split


class FateParticipant(Participant):
    skill: Int
    fate_points: Count = 0


class Aspect(Saved):
    """An aspect in play. ``holder`` is the side that may spend its free invokes (None:
    anyone); ``owner`` is the participant a paid invoke's fate point goes to."""

    name: str
    free_invokes: Count = 0
    holder: str | None = None
    boost: bool = False
    owner: str | None = None


class AdvantageResult(Saved):
    by: str
    aspect: str
    outcome: Outcome
    free_invokes: Count
    result: Int
    opposition: Int
    on: str | None = None


class InvokeRecord(Saved):
    """An invoke made: ``side`` is the side whose roll it changed (the invoker's own,
    an ally's, or the one facing a raised opposition)."""

    by: str
    side: str
    aspect: str
    free: bool
    effect: Effect
    faces: tuple[Int, ...] | None = None
    by_side: str = ""
    pool: bool = False  # paid from the GM's pool (for an NPC), not by ``by``


class OpenExchange(Saved):
    """What has been entered for the exchange being played, before it is resolved."""

    advantages: tuple[AdvantageResult, ...] = ()
    forfeited: frozenset[str] = frozenset()
    lost_helpers: frozenset[str] = frozenset()
    dice: Mapping[str, tuple[Int, ...]] = msgspec.field(default_factory=dict)
    bonus: Mapping[str, Int] = msgspec.field(default_factory=dict)
    modifiers: Mapping[str, Int] = msgspec.field(default_factory=dict)
    paid: frozenset[tuple[str, str]] = frozenset()  # (side, aspect) paid for on this roll
    invokes: tuple[InvokeRecord, ...] = ()
    attack: str | None = None


def aspect_key(name: str) -> str:
    """An aspect's name as the table hears it, case and spacing aside: "Bruised Ribs"
    and "bruised  ribs" are one aspect said twice, not two on one character."""
    return " ".join(name.split()).casefold()


def aspect_like(aspects: Iterable[Aspect], name: str) -> Aspect | None:
    """The aspect of ``aspects`` that ``name`` would be again (:func:`aspect_key`): a
    new aspect by that name is refused."""
    key = aspect_key(name)
    return next((a for a in aspects if aspect_key(a.name) == key), None)


class FateContest(Contest):
    system: ClassVar[str] = "fate"
    participants: tuple[FateParticipant, ...]
    options: FateOptions = FateOptions()
    aspects: tuple[Aspect, ...] = ()
    victories: Mapping[str, Int] = msgspec.field(default_factory=dict)
    ended_by: str | None = None
    open: OpenExchange = OpenExchange()
    owed: Mapping[str, Int] = msgspec.field(default_factory=dict)  # fate points due at scene end
    # The GM's fate points for this scene (a contest is a scene) and the participants they
    # may pay for. Fate Core, "The GM and fate points": the scene starts with one point per
    # PC in it; the GM spends them "on behalf of any NPC" (invokes, refusing compels,
    # stunts), and an NPC that accepts a compel adds one. PCs pay with their own points,
    # so a PC never draws on the pool. The campaign sets both (``scene``); a contest read
    # from a scenario file has no pool.
    gm_pool: Int = 0
    npcs: frozenset[str] = frozenset()

    def fate_participant(self, name: str) -> FateParticipant:
        for p in self.participants:
            if p.name == name:
                return p
        raise UnknownName(f'no participant "{name}"')

    def aspect(self, name: str) -> Aspect | None:
        for a in self.aspects:
            if a.name == name:
                return a
        return None

    def side_skills(self, side: str, leave_out: frozenset[str] = frozenset()) -> list[int]:
        return [p.skill for p in self.participants if p.side == side and p.name not in leave_out]

    def lead(self, side: str) -> FateParticipant:
        members = [p for p in self.participants if p.side == side]
        return max(members, key=lambda p: (p.skill, -members.index(p)))

    def rating(self, side: str) -> int:
        """Lead skill plus teamwork for ``side`` this exchange (before dice and invokes)."""
        lead, bonus = teamwork(
            self.side_skills(side, self.open.lost_helpers), self.options.teamwork_cap
        )
        return lead + bonus

    def total(self, side: str) -> int | None:
        """The side's total so far this exchange, or None before it rolls."""
        faces = self.open.dice.get(side)
        if faces is None:
            return None
        return (
            self.rating(side)
            + sum(faces)
            + self.open.bonus.get(side, 0)
            + self.open.modifiers.get(side, 0)
        )

    @property
    def rolling_sides(self) -> tuple[str, ...]:
        return tuple(s for s in self.sides if s not in self.open.forfeited)


def scene(contest: FateContest, gm_pool: int, npcs: frozenset[str]) -> FateContest:
    """``contest`` as a scene of a campaign: the GM's pool and who it may pay for."""
    return replace(contest, gm_pool=gm_pool, npcs=npcs)


def new_contest(
    participants: Sequence[FateParticipant],
    aspects: Sequence[Aspect] = (),
    options: FateOptions | None = None,
) -> FateContest:
    """A contest before its first exchange."""
    contest = FateContest(
        participants=tuple(participants),
        aspects=tuple(aspects),
        options=options or FateOptions(),
    )
    return replace(contest, victories={side: 0 for side in contest.sides})
