"""Fate's commands (what the GM asks: advantages, invokes, an attack, fate points awarded
or paid from the GM's pool) and events (what happened, down to ``ExchangeResolved``, an
exchange scored), saved as they are."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import msgspec

from core.limits import Int, Positive
from core.model import Command, ContestEnded, Event, ExchangeEvent
from core.systems.fate.scoring import Effect
from core.systems.fate.state import AdvantageResult, InvokeRecord

CODEC_TAG = "fate"  # the saved tags ("fate.ExchangeResolved"), as before the split


class CreateAdvantage(Command):
    """A create-an-advantage attempt before the contest rolls (its result already known)."""

    before_rolls: ClassVar[bool] = True

    by: str
    aspect: str
    result: Int
    opposition: Int
    on: str | None = None


class InvokeAspect(Command):
    """Invoke ``aspect``, free, paid by ``by`` or (``pool``, for an NPC) paid from the
    GM's pool: +2 to a roll (``by``'s own side's, or ``target``'s, an ally helped), a
    reroll of ``by``'s side's dice (``faces``), or ``"oppose"``: +2 to the passive
    opposition ``target`` faces (environment mode)."""

    by: str
    aspect: str
    free: bool = False
    pool: bool = False
    effect: Effect = "+2"
    faces: tuple[Int, ...] | None = None
    target: str | None = None


class DeclareAttack(Command):
    """``by`` tries to harm another participant: the contest ends as a conflict.

    Rules §1.3, "Attacks end contests": the GM stops and the scene becomes a conflict,
    so the exchange needs no dice (the keypad puts the attack before them, and asks
    nobody to roll once it is there)."""

    before_rolls: ClassVar[bool] = True

    by: str


class AwardFatePoint(Command):
    """A compel accepted during the contest: ``who`` gains a fate point now (an NPC's
    goes into the GM's pool, which pays for NPCs)."""

    who: str


class FatePointAwarded(Event):
    who: str
    pool: bool = False  # the point went into the GM's pool (``who`` is an NPC)


class PayFromPool(Command):
    """The GM spends ``count`` of the pool's points for NPC ``by`` outside an invoke:
    refusing a compel, a stunt (``reason`` says which). Invokes say ``pool`` instead."""

    by: str = ""
    reason: str = ""
    count: Positive = 1


class PoolPaid(Event):
    by: str
    reason: str
    count: Positive = 1


class AdvantageCreated(Event):
    """An attempt's outcome and its effects, decided: what ``evolve`` applies as is."""

    advantage: AdvantageResult
    side: str
    gainer: str | None  # the side whose free invokes these are (None: nobody gains)
    new_aspect: bool
    boost: bool
    forfeit_side: str | None
    lost_helper: str | None
    # A new aspect placed on a participant is theirs: a fate point paid to invoke it goes
    # to them (rules §1.4.1, SRD: "This includes advantages created on your character").
    # None: placed on the scene (or an event saved before owners were kept).
    owner: str | None = None


class AspectInvoked(Event):
    invoke: InvokeRecord
    paid_by: str | None  # the participant who paid a fate point (not the pool)
    paid_to: str | None  # the aspect's owner, credited when the contest ends
    bonus: Int
    boost_used: bool


class AttackDeclared(Event):
    by: str


class FateContestEnded(ContestEnded):
    """The contest is over, with the fate points it owes (rules §1.4.1): a point paid to
    invoke an aspect that belongs to another character goes to that character, "usable
    only after the scene". ``owed`` counts them by owner (participant or not).

    ``scene_over``: the scene ended with the contest (a side reached its victories), so
    the owners among the participants are credited as it ends. False when an attack
    turned the contest into a conflict: the scene goes on, nobody is credited here, and
    the points stay owed until that scene is over (the contest keeps them in ``owed``)."""

    owed: Mapping[str, Int] = msgspec.field(default_factory=dict)
    scene_over: bool = True


class ExchangeResolved(ExchangeEvent):
    """One exchange, scored. Everything the log and ``tussle resolve`` print."""

    totals: Mapping[str, Int]
    shifts: Mapping[str, Int] | None
    dice: Mapping[str, tuple[Int, ...]]
    winner: str | None
    victories: Int
    style: bool
    twist: str | None
    new_twist: bool
    forfeited: tuple[str, ...]
    advantages: tuple[AdvantageResult, ...]
    invokes: tuple[InvokeRecord, ...]
    score: Mapping[str, Int]
    attack: str | None = None
