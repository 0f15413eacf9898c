"""HeroQuest's commands (what the GM asks: parties, pairs, augments, hero points,
stretches, gambits, defensive responses, boosts, leaving a chain) and events (what
happened, down to ``ExchangeResolved``, an exchange scored), saved as they are."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Literal

import msgspec

from core.limits import Count, Int
from core.model import Command, Event, ExchangeEvent, Saved
from core.redact import Part
from core.rules.base import JSON
from core.systems.heroquest.automatic import AutomaticResult
from core.systems.heroquest.state import AugmentResult, BoostResult, Pair

CODEC_TAG = "heroquest"  # the saved tags ("heroquest.ExchangeResolved"), as before the split


class SetParties(Command):
    """Name the exchange's two parties (needed with more than two participants)."""

    before_rolls: ClassVar[bool] = True

    a: str
    b: str


class Augment(Command):
    """``recipient``'s augment this exchange: ``rating`` (linear, no vitality) rolls
    ``roll`` against the augment base, which rolls ``resistance_roll``."""

    before_rolls: ClassVar[bool] = True

    recipient: str
    rating: Int
    roll: Int | None
    resistance_roll: Int | None


class SpendHeroPoints(Command):
    who: str
    count: Count = 1


class Stretch(Command):
    """``who`` uses a stretched ability: -6, and its own victory is at most minor."""

    before_rolls: ClassVar[bool] = True

    who: str


class Gamble(Command):
    """``who`` makes a risky gambit this exchange of an extended contest (rules §2.8.4):
    a win lodges 1 more resolution point, a defeat lets the opponent lodge 2 more (both
    gambling: the winner lodges 2 more)."""

    before_rolls: ClassVar[bool] = True

    who: str


class RespondDefensively(Command):
    """``who`` responds defensively this exchange of an extended contest (rules §2.8.5):
    a win lodges 2 fewer resolution points, a defeat lets the opponent lodge 1 fewer."""

    before_rolls: ClassVar[bool] = True

    who: str


class Boost(Command):
    """A group boost for ``side`` (rules §2.7.4), bought before the rolls with hero
    points ``paid`` by its members (name, count): one level up on a tie or the side's
    win, two when ``double`` (at twice the price). The points go whatever happens."""

    before_rolls: ClassVar[bool] = True

    side: str
    paid: tuple[tuple[str, Count], ...]  # none pays fewer than 0
    double: bool = False


class SetPairs(Command):
    """Make the exchange a group simple contest of these pairs (rules §2.7)."""

    before_rolls: ClassVar[bool] = True

    pairs: tuple[Pair, ...]


class Leave(Command):
    """``who`` leaves the chain after this exchange; the other party's side wins it."""

    who: str


class PartiesSet(Event):
    a: str
    b: str


class Augmented(Event):
    augment: AugmentResult


class HeroPointsSpent(Event):
    who: str
    count: Count


class Stretched(Event):
    who: str


class GambitDeclared(Event):
    who: str


class DefensiveDeclared(Event):
    who: str


class Boosted(Event):
    boost: BoostResult


class PairsSet(Event):
    pairs: tuple[Pair, ...]


class LeaveDeclared(Event):
    who: str


class PairResult(Saved):
    """One pairing of a group exchange, scored."""

    a: str
    b: str
    targets: tuple[Int, Int]
    rolls: tuple[Int | None, Int | None]
    levels: tuple[Int, Int]
    winner: str | None
    victory: Int
    resolution_points: Int


class OwnExchange(ExchangeEvent):
    """An exchange of a variant of the contest (``group_play``) that says itself: its
    log lines and its output, where ``ExchangeResolved``'s are the rules' own."""

    def lines(self) -> list[list[str | Part]]:
        raise NotImplementedError

    def as_json(self) -> JSON:
        raise NotImplementedError


class ExchangeResolved(ExchangeEvent):
    """One exchange, scored: everything the log and ``tussle resolve`` print.

    ``kind`` is "simple", "group" or "leave" (a leave-only exchange). ``winner`` is a
    participant in a simple exchange and a side in a group one; ``victory`` is None only
    for a leave-only exchange. ``lodged_by`` is the side credited with the resolution
    points; ``totals`` the resolution points of every side after this exchange.
    """

    kind: Literal["simple", "group", "leave"]
    parties: tuple[str, ...]
    targets: Mapping[str, Int]
    rolls: Mapping[str, Int | None]
    levels: Mapping[str, Int]
    winner: str | None
    victory: Int | None
    resolution_points: Int
    lodged_by: str | None
    augments: tuple[AugmentResult, ...]
    hero_points: Mapping[str, Int]
    stretched: tuple[str, ...]
    consequence: Mapping[str, str]
    benefit: Mapping[str, Int]
    pairs: tuple[PairResult, ...] = ()
    side_points: Mapping[str, Int] = msgspec.field(default_factory=dict)
    leave: str | None = None
    totals: Mapping[str, Int] = msgspec.field(default_factory=dict)
    chain: bool = False
    gambits: tuple[str, ...] = ()
    defensive: tuple[str, ...] = ()
    boost: BoostResult | None = None
    # An extended contest's exchange: its ``consequence`` and ``benefit`` are a simple
    # contest's, which never apply here (rules §2.8: the final difference decides them).
    # False in an exchange saved before this was kept.
    extended: bool = False
    automatic: AutomaticResult | None = None  # ruled without dice: no rolls, no levels
    # The presets used (``presets.HQ_PRESETS``): party -> "situation: advantage +3".
    modifier_labels: Mapping[str, str] = msgspec.field(default_factory=dict)
