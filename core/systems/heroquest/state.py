"""A HeroQuest contest as it stands between commands: its participants, the table's
options, the exchange being entered (parties or pairs, rolls, modifiers, augments, hero
points, gambits, a boost, a ruling) and the resolution points lodged;
``HQContest.target`` and ``party`` give a party as the scoring sees it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import msgspec
from msgspec.structs import replace

from core.errors import RuleError, UnknownName
from core.limits import Count, Int
from core.model import Contest, Event, Participant, Saved
from core.rules.base import JSON, RuleSystem
from core.systems.heroquest.automatic import AutomaticResult
from core.systems.heroquest.extended import climactic, lodged_points, rising_action
from core.systems.heroquest.modifiers import (
    DEFAULT_AUGMENT_BASE,
    EXTRA_OPPONENT_PENALTY,
    STRETCH_PENALTY,
)
from core.systems.heroquest.resolution import Party, TieBreak

CODEC_TAG = "heroquest"  # the saved tags ("heroquest.ExchangeResolved"), as before the split


class HQParticipant(Participant):
    """``rating`` is the linear value of the ability used (``4M`` = 24). ``condition`` is
    what earlier contests left on it (rules §2.6): lingering benefits minus the penalties
    of hurts and impairments; ``bumps_down`` one per injury."""

    rating: Int
    vitality: Int = 0
    hero_points: Count = 0
    condition: Int = 0
    bumps_down: Int = 0


class HQOptions(Saved):
    """The table's rule options (scenario.md spells them; rules.md §4 gives defaults)."""

    tie_break: TieBreak = "low"
    chained: bool = False
    extended: bool = False
    augment_base: Int = DEFAULT_AUGMENT_BASE
    # An extended contest's consequences (rules §2.8.6-7): "rising" action by the final
    # difference, or "climactic" by the points each character had scored against them.
    consequences: Literal["rising", "climactic"] = "rising"
    # HQ2's optional rule: a major or complete victory in the contest of wherewithal
    # (rules §2.6) waives the injury's automatic bump down for the contest it let the
    # character into. ``waived`` names those who won it so (the setup records them).
    wherewithal_waiver: bool = False
    waived: tuple[str, ...] = ()
    # A group extended contest (HQ2; ``group_play``): pairings engaged round by round.
    group_extended: bool = False
    # Its followers, as the setup marks them: (name, role, leader), the role one of
    # ``group_extended.Role`` but "character" (HQ2, Followers); the rest are characters.
    followers: tuple[tuple[str, str, str], ...] = ()

    @property
    def chain(self) -> bool:
        """A chain of exchanges (chained or extended) rather than one simple contest."""
        return self.chained or self.extended or self.group_extended


class Pair(Saved):
    """One pairing of a group simple contest: ``a`` against ``b``, with their rolls."""

    a: str
    b: str
    roll_a: Int | None = None
    roll_b: Int | None = None


class AugmentResult(Saved):
    """An augment, decided: its roll against the augment base and the bonus it gives."""

    recipient: str
    rating: Int
    roll: Int | None
    base: Int
    resistance_roll: Int | None
    bonus: Int


class BoostResult(Saved):
    """A group boost bought for ``side`` (rules §2.7.4): ``paid`` by its members, in
    hero points, ``cost`` in all; ``double`` raises the result two levels, else one."""

    side: str
    double: bool
    paid: tuple[tuple[str, Int], ...]
    cost: Int

    @property
    def steps(self) -> int:
        return 2 if self.double else 1


class OpenExchange(Saved):
    """What has been entered for the exchange being played, before it is resolved.

    ``kind`` is "" until something fixes it: "simple" (two parties) or "group" (pairs).
    """

    kind: Literal["", "simple", "group"] = ""
    parties: tuple[str, ...] = ()
    rolls: Mapping[str, Int] = msgspec.field(default_factory=dict)
    modifiers: Mapping[str, Int] = msgspec.field(default_factory=dict)
    augments: tuple[AugmentResult, ...] = ()
    hero_points: Mapping[str, Int] = msgspec.field(default_factory=dict)  # spent this exchange
    stretched: tuple[str, ...] = ()
    pairs: tuple[Pair, ...] = ()
    leave: str | None = None
    gambits: tuple[str, ...] = ()  # parties making a risky gambit (extended, §2.8.4)
    defensive: tuple[str, ...] = ()  # parties responding defensively (extended, §2.8.5)
    boost: BoostResult | None = None  # a group exchange's boost (§2.7.4)
    automatic: AutomaticResult | None = None  # ruled without dice (``automatic``)
    modifier_labels: Mapping[str, str] = msgspec.field(default_factory=dict)  # presets named


class HQContest(Contest):
    """A HeroQuest contest. The exchanges played are in the log, not here."""

    system: ClassVar[str] = "heroquest"
    participants: tuple[HQParticipant, ...]
    options: HQOptions = HQOptions()
    open: OpenExchange = OpenExchange()
    hero_points_left: Mapping[str, Int] = msgspec.field(default_factory=dict)
    resolution_points: Mapping[str, Int] = msgspec.field(default_factory=dict)  # lodged, by side
    last_parties: tuple[str, ...] = ()  # the previous exchange's, for a leave-only one
    ended_by: str | None = None
    against: Mapping[str, Int] = msgspec.field(default_factory=dict)  # RP scored against each one
    # A chained (not extended) contest's exchanges are simple contests whose states of
    # adversity stand (rules §2.9, §2.6): those a complete defeat left dying, "no actions".
    # None in a contest saved before the rule was kept: its log replays as it was played.
    dying: tuple[str, ...] | None = None

    def decide_variant(self, rules: RuleSystem, command: Any) -> tuple[Event, ...] | None:
        """A variant of the contest deciding ``command`` its own way (a group extended
        contest: ``group_play.HQGroupContest``); None: as every HeroQuest contest."""
        return None

    def evolve_variant(self, rules: RuleSystem, event: Event) -> Contest | None:
        """A variant's own ``evolve`` of ``event``; None: as every HeroQuest contest."""
        return None

    def final_variant(self) -> JSON | None:
        """A variant's own final output (``tussle resolve``); None: the usual one."""
        return None

    @property
    def states_stand(self) -> bool:
        """Whether each exchange is a simple contest of its own whose consequences stand
        (a chained contest, rules §2.9), not one of the exchanges of an extended contest
        whose consequences come from its final score (§2.8.6-7)."""
        o = self.options
        return o.chained and not o.extended and not o.group_extended

    def can_act(self, name: str) -> None:
        """Raise ``RuleError`` when ``name`` was left dying by a complete defeat in an
        earlier exchange of this chain: a dying character takes no actions (§2.6)."""
        if self.dying and name in self.dying:
            raise RuleError(
                f"{name} is dying after a complete defeat: no actions (rules §2.6); "
                f"{self.ways_on()}"
            )

    def ways_on(self) -> str:
        """What a GM may do when a party of the coming exchange is dying: name two others
        when two who may still act are on different sides, else only leave the chain."""
        return "name two others, or leave the chain" if self.others_may_act else "leave the chain"

    @property
    def others_may_act(self) -> bool:
        """Whether two participants on different sides are not dying (a chain's coming
        exchange may be between them)."""
        able = {p.side for p in self.participants if p.name not in (self.dying or ())}
        return len(able) > 1

    def hq_participant(self, name: str) -> HQParticipant:
        for p in self.participants:
            if p.name == name:
                return p
        raise UnknownName(f'no participant "{name}"')

    def named(self, name: str) -> HQParticipant:
        """The participant a GM names: exactly, or else the only one whose name matches
        whatever the case ("ghoul king" for "Ghoul King"); ``UnknownName`` otherwise,
        naming those who take part."""
        typed = name.strip()
        for p in self.participants:
            if p.name == typed:
                return p
        found = [p for p in self.participants if p.name.casefold() == typed.casefold()]
        if len(found) == 1:
            return found[0]
        names = ", ".join(p.name for p in self.participants)
        raise UnknownName(f'no participant "{name}" (taking part: {names})')

    @property
    def parties(self) -> tuple[str, ...]:
        """The open exchange's parties: its two, its pairs' members, or (before anything
        fixes them) the two participants of a two-participant contest, and with more the
        previous exchange's two (remembered until the GM names others)."""
        o = self.open
        if o.kind == "simple":
            return o.parties
        if o.kind == "group":
            return tuple(dict.fromkeys(n for p in o.pairs for n in (p.a, p.b)))
        if len(self.participants) == 2:
            return tuple(p.name for p in self.participants)
        return self.last_parties if len(self.last_parties) == 2 else ()

    def pairs_as_a(self, name: str) -> int:
        return sum(1 for p in self.open.pairs if p.a == name)

    def target(self, name: str) -> int:
        """``name``'s linear target in the open exchange, after everything entered so far:
        rating + vitality + condition + modifier + augment, -6 stretched, -3 per extra pair
        as ``a``."""
        p = self.hq_participant(name)
        o = self.open
        value = p.rating + p.vitality + p.condition + o.modifiers.get(name, 0)
        value += sum(a.bonus for a in o.augments if a.recipient == name)
        if name in o.stretched:
            value -= STRETCH_PENALTY
        extra = self.pairs_as_a(name) - 1
        if extra > 0:
            value -= EXTRA_OPPONENT_PENALTY * extra
        return value

    def extended_result(self) -> tuple[int, dict[str, str]] | None:
        """An extended contest's final victory level and consequences (rules §2.8.6, the
        rising-action method, as scenario.md settles it), or None while it has no winner
        (or is not extended). Every side but the winner loses, each by its own difference:
        what the winning side lodged less what that side lodged, and its participants
        take that difference's state; the victory level follows the closest loser (the
        smallest difference), and at 1 the winners are hurt too."""
        if not self.options.extended or self.winner is None:
            return None
        if self.options.consequences == "climactic":
            losers = [p.name for p in self.participants if p.side != self.winner]
            return climactic(
                {p.name: self.against.get(p.name, 0) for p in self.participants}, losers
            )
        points = self.resolution_points
        won = points.get(self.winner, 0)
        differences = {
            side: max(won - points.get(side, 0), 1) for side in self.sides if side != self.winner
        }
        closest = min(differences.values(), default=1)
        victory, _ = rising_action(closest)
        consequences = {
            p.name: rising_action(differences[p.side])[1]
            for p in self.participants
            if p.side in differences
        }
        if closest == 1:
            consequences.update(
                {p.name: "hurt" for p in self.participants if p.side == self.winner}
            )
        return victory, {
            p.name: consequences[p.name] for p in self.participants if p.name in consequences
        }

    def lodged(self, winner: str, loser: str, victory: int) -> int:
        """The resolution points ``winner`` lodges against ``loser`` with ``victory`` in
        the open exchange, with the gambits and defensive responses declared."""
        o = self.open
        return lodged_points(
            victory,
            winner_gambled=winner in o.gambits,
            loser_gambled=loser in o.gambits,
            winner_defensive=winner in o.defensive,
            loser_defensive=loser in o.defensive,
        )

    def party(self, name: str, roll: int | None) -> Party:
        """``name`` as the scoring sees it, with ``roll``."""
        return Party(
            target=self.target(name),
            roll=roll,
            hero_points=self.open.hero_points.get(name, 0),
            stretched=name in self.open.stretched,
            bumps_down=self.hq_participant(name).bumps_down,
        )


def new_contest(
    participants: Sequence[HQParticipant], options: HQOptions | None = None
) -> HQContest:
    """A contest before its first exchange."""
    contest = HQContest(participants=tuple(participants), options=options or HQOptions())
    return replace(
        contest,
        hero_points_left={p.name: p.hero_points for p in contest.participants},
        resolution_points={side: 0 for side in contest.sides},
        dying=(),
    )
