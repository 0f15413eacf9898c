"""HeroQuest's rule system (HQ2 with the "Children of the Grave" house rules, rules.md
part 2): ``HeroQuestRules`` decides what a command does to a contest (the events, or a
``RuleError``) and evolves the contest by each event, the scoring done by the modules of
their concern (``resolution``, ``modifiers``, ``consequences``, ``extended``) and the
telling by ``wording``. The registry (``core.rules``) loads this module as the system's
rules; the option names are scenario.md's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Literal

from msgspec.structs import replace

from core.dice import DiceKind, check_faces
from core.errors import BadDice, NoPoints, OutOfTurn, RuleError, UnknownName
from core.model import (
    Contest,
    ContestEnded,
    DiceRolled,
    Event,
    ExchangeEvent,
    ModifierSet,
    ResolveExchange,
    RollDice,
    SetModifier,
)
from core.redact import NO_SECRETS, Part, Secrets, render_all
from core.rules.base import JSON, RuleSystem, own, require_open, unknown_command
from core.systems.heroquest.automatic import AutomaticResult, AutomaticRuled, RuleAutomatic
from core.systems.heroquest.consequences import BENEFITS, CONSEQUENCES
from core.systems.heroquest.events import (
    Augment,
    Augmented,
    Boost,
    Boosted,
    DefensiveDeclared,
    ExchangeResolved,
    GambitDeclared,
    Gamble,
    HeroPointsSpent,
    Leave,
    LeaveDeclared,
    PairResult,
    PairsSet,
    PartiesSet,
    RespondDefensively,
    SetPairs,
    SetParties,
    SpendHeroPoints,
    Stretch,
    Stretched,
)
from core.systems.heroquest.extended import EXTENDED_GOAL
from core.systems.heroquest.modifiers import augment_bonus, boost_cost, boosted
from core.systems.heroquest.presets import HQ_PRESETS
from core.systems.heroquest.resolution import (
    MARGINAL,
    RESOLUTION_POINTS,
    VICTORIES,
    group_level,
    ruled_outcome,
    simple_contest,
)
from core.systems.heroquest.state import (
    AugmentResult,
    BoostResult,
    HQContest,
    HQParticipant,
    OpenExchange,
    Pair,
)
from core.systems.heroquest.wording import exchange_json, exchange_lines, points_words


class NoHeroPoints(NoPoints):
    """Hero points spent that the participant does not have."""

    title = "No hero points"


def _scored_against(against: Mapping[str, int], e: ExchangeResolved) -> dict[str, int]:
    """The points scored against each character after exchange ``e``: a simple
    exchange's points against its loser, a group exchange's against each pair's loser
    (rules §2.8.7 counts them per character)."""
    out = dict(against)
    if e.kind == "simple" and e.winner is not None:
        for loser in (p for p in e.parties if p != e.winner):
            out[loser] = out.get(loser, 0) + e.resolution_points
    for pair in e.pairs:
        if pair.winner is not None:
            loser = pair.b if pair.winner == pair.a else pair.a
            out[loser] = out.get(loser, 0) + pair.resolution_points
    return out


def _left_dying(c: HQContest, e: ExchangeResolved) -> tuple[str, ...] | None:
    """Those dying after exchange ``e`` of a chained contest: the earlier ones and the
    losers of a complete defeat (rules §2.6: dying, no actions)."""
    if c.dying is None or not c.states_stand:
        return c.dying
    fallen = (name for name, state in e.consequence.items() if state == "dying")
    return tuple(dict.fromkeys((*c.dying, *fallen)))


def check_pair(contest: HQContest, earlier: Sequence[Pair], pair: Pair) -> None:
    """Raise ``RuleError`` unless ``pair`` may follow ``earlier`` in one group exchange:
    known names on different sides, two sides in all, each name always ``a`` or always
    ``b``, and rolls (when given) a d20's."""
    a = contest.hq_participant(pair.a)
    b = contest.hq_participant(pair.b)
    if a.side == b.side:
        raise RuleError(f"{a.name} and {b.name} are both on side {a.side}")
    sides = {contest.hq_participant(n).side for p in earlier for n in (p.a, p.b)}
    if len(sides | {a.side, b.side}) > 2:
        raise RuleError("a group exchange is between exactly two sides")
    if any(p.b == a.name for p in earlier):
        raise RuleError(f'{a.name} is "b" in an earlier pair: always "a" or always "b"')
    if any(p.a == b.name for p in earlier):
        raise RuleError(f'{b.name} is "a" in an earlier pair: always "a" or always "b"')
    for name, roll in ((a.name, pair.roll_a), (b.name, pair.roll_b)):
        if roll is not None:
            try:
                check_faces(DiceKind.D20, (roll,))
            except BadDice as error:  # which pair, whose roll (play5, item 2)
                raise BadDice(f"{a.name} v {b.name}, {name}'s roll: {error}") from None


class HeroQuestRules(RuleSystem):
    """HeroQuest contests: a :class:`~core.rules.base.RuleSystem`."""

    name: ClassVar[str] = "heroquest"
    title: ClassVar[str] = "HeroQuest"
    contest_type: ClassVar[type[Contest]] = HQContest
    dice: ClassVar[DiceKind] = DiceKind.D20

    def modifier_presets(self, contest: Contest) -> tuple[tuple[str, int], ...]:
        """HQ2's situational modifiers and ability adjustments (rules §2.4)."""
        return HQ_PRESETS

    def tally(self, contest: Contest) -> tuple[dict[str, int], str] | None:
        c = own(contest, HQContest)
        if not c.options.chain or not c.resolution_points:  # a simple contest: its level
            return None
        return {s: c.resolution_points.get(s, 0) for s in c.sides}, "resolution points"

    def rollers(self, contest: Contest) -> list[str]:
        c = own(contest, HQContest)
        return [] if c.open.kind == "group" or c.open.automatic else list(c.parties)

    # decide ---------------------------------------------------------------------------
    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        c = own(contest, HQContest)
        require_open(c)
        own_way = c.decide_variant(self, command)
        if own_way is not None:
            return own_way
        match command:
            case SetParties():
                return (self._set_parties(c, command),)
            case SetPairs():
                return (self._set_pairs(c, command),)
            case Leave():
                return (self._leave(c, command),)
            case ResolveExchange():
                return self._resolve(c)
            case Boost():
                return (self._boost(c, command),)
            case RuleAutomatic():
                start = self._start_simple(c)
                started = own(self.evolve(c, start[0]), HQContest) if start else c
                return (*start, _automatic(started, command))
            case Gamble() | RespondDefensively():
                self._check_declaration(c)
                start = self._start_simple(c)
                started = own(self.evolve(c, start[0]), HQContest) if start else c
                return (*start, *self._party_action(started, command))
            case RollDice() | SetModifier() | Augment() | SpendHeroPoints() | Stretch():
                start = self._start_simple(c)
                started = own(self.evolve(c, start[0]), HQContest) if start else c
                return (*start, *self._party_action(started, command))
        raise unknown_command(self.title, command)

    @staticmethod
    def _set_parties(c: HQContest, cmd: SetParties) -> PartiesSet:
        if c.open.kind:
            raise OutOfTurn("this exchange's parties are already set")
        a, b = c.named(cmd.a), c.named(cmd.b)
        if a.side == b.side:
            raise RuleError(f"{a.name} and {b.name} are both on side {a.side}")
        c.can_act(a.name)
        c.can_act(b.name)
        return PartiesSet(a=a.name, b=b.name)

    @staticmethod
    def _set_pairs(c: HQContest, cmd: SetPairs) -> PairsSet:
        if c.open.kind:
            raise OutOfTurn("this exchange's parties are already set")
        if not cmd.pairs:
            raise RuleError("a group exchange needs at least one pair")
        pairs = tuple(
            replace(pair, a=c.named(pair.a).name, b=c.named(pair.b).name) for pair in cmd.pairs
        )
        for i, pair in enumerate(pairs):
            check_pair(c, pairs[:i], pair)
            c.can_act(pair.a)
            c.can_act(pair.b)
        return PairsSet(pairs=pairs)

    @staticmethod
    def _start_simple(c: HQContest) -> tuple[Event, ...]:
        """An exchange needs no SetParties with two participants (the first action names
        both of them), nor with more after an exchange of two (the same two again)."""
        if c.open.kind:
            return ()
        if len(c.participants) == 2:
            a, b = (p.name for p in c.participants)
        elif len(c.last_parties) == 2:
            a, b = c.last_parties
        else:
            return ()
        c.can_act(a)
        c.can_act(b)
        return (PartiesSet(a=a, b=b),)

    @staticmethod
    def _require_party(c: HQContest, name: str, parties: tuple[str, ...]) -> HQParticipant:
        p = c.hq_participant(name)
        if not parties:
            raise OutOfTurn("name the exchange's two parties first")
        if name not in parties:
            raise RuleError(f"{name} is not a party to this exchange")
        return p

    def _party_action(self, c: HQContest, cmd: Any) -> tuple[Event, ...]:
        o = c.open
        p = self._require_party(
            c, cmd.recipient if isinstance(cmd, Augment) else cmd.who, c.parties
        )
        if o.automatic is not None:
            raise RuleError(f"this exchange is ruled an {o.automatic.words()}: {_NO_DICE}")
        match cmd:
            case RollDice():
                if o.kind == "group":
                    raise OutOfTurn("in a group exchange the rolls go with the pairs")
                check_faces(DiceKind.D20, cmd.faces)
                if p.name in o.rolls:
                    raise OutOfTurn(f"{p.name} has already rolled this exchange")
                return (DiceRolled(who=p.name, faces=cmd.faces, source=cmd.source),)
            case SetModifier():
                label = self.preset_label(c, cmd.label, cmd.value)
                return (ModifierSet(who=p.name, value=cmd.value, label=label),)
            case Augment():
                return (self._augment(c, cmd),)
            case SpendHeroPoints():
                return (self._spend(c, p, cmd.count),)
            case Stretch():
                return () if p.name in o.stretched else (Stretched(who=p.name),)
            case Gamble():
                if p.name in o.defensive:
                    raise RuleError(_both(p.name))
                return () if p.name in o.gambits else (GambitDeclared(who=p.name),)
            case RespondDefensively():
                if p.name in o.gambits:
                    raise RuleError(_both(p.name))
                return () if p.name in o.defensive else (DefensiveDeclared(who=p.name),)
        raise unknown_command(self.title, cmd)  # pragma: no cover - decide() filters

    @staticmethod
    def _check_declaration(c: HQContest) -> None:
        """Risky gambits and defensive responses: an extended contest's simple exchange."""
        if not c.options.extended:
            raise RuleError(
                "risky gambits and defensive responses are for an extended contest's exchanges"
            )
        if c.open.kind == "group":
            raise RuleError(
                "risky gambits and defensive responses are for a simple exchange, not a group one"
            )

    @staticmethod
    def _boost(c: HQContest, cmd: Boost) -> Boosted:
        o = c.open
        if o.kind != "group":
            raise RuleError("a boost is for a group exchange: set its pairs first")
        if o.boost is not None:
            raise RuleError(f"this exchange already has a boost, for {o.boost.side}")
        sides = {c.hq_participant(n).side for p in o.pairs for n in (p.a, p.b)}
        if cmd.side not in c.sides:
            raise UnknownName(f'no side "{cmd.side}"')
        if cmd.side not in sides:
            raise RuleError(f"{cmd.side} has nobody in this group exchange")
        members = [p for p in c.participants if p.side == cmd.side]
        cost = boost_cost(len(members), cmd.double)
        paid: dict[str, int] = {}
        for name, count in cmd.paid:
            who = c.hq_participant(name)
            if who.side != cmd.side:
                raise RuleError(f"{name} is not on side {cmd.side}: only its members pay")
            if count < 0:
                raise RuleError("hero points paid cannot be negative")
            paid[name] = paid.get(name, 0) + count
            left = c.hero_points_left.get(name, 0)
            if paid[name] > left:
                has = "no hero points" if left == 0 else f"only {points_words(left)}"
                raise NoHeroPoints(f"{name} has {has}")
        total = sum(paid.values())
        if total != cost:
            kind = "a double boost" if cmd.double else "a boost"
            raise RuleError(
                f"{kind} for {cmd.side} ({len(members)} taking part) costs {points_words(cost)}, "
                f"not {total}"
            )
        return Boosted(
            boost=BoostResult(
                side=cmd.side,
                double=cmd.double,
                paid=tuple((n, k) for n, k in paid.items() if k),
                cost=cost,
            )
        )

    @staticmethod
    def _augment(c: HQContest, cmd: Augment) -> Augmented:
        if any(a.recipient == cmd.recipient for a in c.open.augments):
            raise RuleError(f"{cmd.recipient} already has an augment this exchange")
        base = c.options.augment_base
        # A side at 0 or less does not roll (rules §2.2): its roll is ignored.
        roll = cmd.roll if cmd.rating > 0 else None
        resistance = cmd.resistance_roll if base > 0 else None
        if cmd.rating > 0 and roll is None:
            raise OutOfTurn("the augment needs its roll")
        if base > 0 and resistance is None:
            raise OutOfTurn("the augment needs the resistance roll")
        for needed in (roll, resistance):
            if needed is not None:
                check_faces(DiceKind.D20, (needed,))
        bonus = augment_bonus(cmd.rating, roll, resistance, base, c.options.tie_break)
        return Augmented(
            augment=AugmentResult(
                recipient=cmd.recipient,
                rating=cmd.rating,
                roll=roll,
                base=base,
                resistance_roll=resistance,
                bonus=bonus,
            )
        )

    @staticmethod
    def _spend(c: HQContest, p: HQParticipant, count: int) -> HeroPointsSpent:
        if count < 0:
            raise RuleError("hero points spent cannot be negative")
        left = c.hero_points_left.get(p.name, 0)
        if count > left:
            has = "no hero points" if left == 0 else f"only {points_words(left)}"
            raise NoHeroPoints(f"{p.name} has {has}")
        already = c.open.hero_points.get(p.name, 0)
        if c.options.extended and already + count > 1:
            raise RuleError(
                f"{p.name} may spend at most 1 hero point per exchange in an extended contest"
            )
        return HeroPointsSpent(who=p.name, count=count)

    def _leave(self, c: HQContest, cmd: Leave) -> LeaveDeclared:
        c.hq_participant(cmd.who)
        if not c.options.chain:
            raise RuleError("only a chained or extended contest can be left")
        parties = c.parties or c.last_parties
        if not parties:
            raise OutOfTurn("no earlier exchange to take the parties from: name them first")
        self._require_party(c, cmd.who, parties)
        return LeaveDeclared(who=cmd.who)

    def _resolve(self, c: HQContest) -> tuple[Event, ...]:
        o = c.open
        if o.kind == "simple":
            resolved = self._resolve_simple(c)
        elif o.kind == "group":
            resolved = self._resolve_group(c)
        elif o.leave is not None:
            parties = c.parties or c.last_parties
            resolved = self._empty(c, "leave", parties)
        else:
            raise OutOfTurn("nothing to resolve yet: roll first")
        if o.leave is not None and o.leave not in resolved.parties:
            raise RuleError(f"{o.leave} is not a party to this exchange")
        return (resolved, *self._ending(c, resolved))

    def _empty(
        self, c: HQContest, kind: Literal["leave"], parties: tuple[str, ...]
    ) -> ExchangeResolved:
        return ExchangeResolved(
            n=c.n + 1,
            kind=kind,
            parties=parties,
            targets={},
            rolls={},
            levels={},
            winner=None,
            victory=None,
            resolution_points=0,
            lodged_by=None,
            augments=(),
            hero_points={},
            stretched=(),
            consequence={},
            benefit={},
            leave=c.open.leave,
            totals=dict(c.resolution_points),
            chain=c.options.chain,
            extended=c.options.extended,
        )

    def _resolve_simple(self, c: HQContest) -> ExchangeResolved:
        o = c.open
        a, b = o.parties
        if o.automatic is not None:
            out = ruled_outcome(o.automatic, a)
        else:
            for name in (a, b):
                if c.target(name) > 0 and name not in o.rolls:
                    raise OutOfTurn(f"{name} has not rolled yet")
            out = simple_contest(
                c.party(a, o.rolls.get(a)), c.party(b, o.rolls.get(b)), c.options.tie_break
            )
        winner = None if out.winner is None else (a if out.winner == "a" else b)
        loser = None if winner is None else (b if winner == a else a)
        consequence = {loser: CONSEQUENCES[out.victory]} if loser else {}
        benefit = {winner: BENEFITS[out.victory]} if winner else {}
        lodged_by = c.hq_participant(winner).side if winner else None
        points = c.lodged(winner, loser, out.victory) if winner and loser else 0
        return self._scored(
            c,
            kind="simple",
            points=points,
            parties=(a, b),
            rolls={} if o.automatic else {a: o.rolls.get(a), b: o.rolls.get(b)},
            levels={} if o.automatic else {a: out.levels[0], b: out.levels[1]},
            winner=winner,
            victory=out.victory,
            lodged_by=lodged_by,
            consequence=consequence,
            benefit=benefit,
        )

    def _resolve_group(self, c: HQContest) -> ExchangeResolved:
        o = c.open
        side_points = {side: 0 for side in c.sides}
        results: list[PairResult] = []
        for i, pair in enumerate(o.pairs, start=1):
            for name, roll in ((pair.a, pair.roll_a), (pair.b, pair.roll_b)):
                if roll is None and c.target(name) > 0:
                    raise OutOfTurn(f"{name} has not rolled in pair {i}")
            out = simple_contest(
                c.party(pair.a, pair.roll_a), c.party(pair.b, pair.roll_b), c.options.tie_break
            )
            winner = None if out.winner is None else (pair.a if out.winner == "a" else pair.b)
            if winner is not None:
                side = c.hq_participant(winner).side
                side_points[side] += out.resolution_points
            results.append(
                PairResult(
                    a=pair.a,
                    b=pair.b,
                    targets=(c.target(pair.a), c.target(pair.b)),
                    rolls=(pair.roll_a, pair.roll_b),
                    levels=out.levels,
                    winner=winner,
                    victory=out.victory,
                    resolution_points=out.resolution_points,
                )
            )
        first = o.pairs[0]
        side_a = c.hq_participant(first.a).side
        side_b = c.hq_participant(first.b).side
        difference = side_points[side_a] - side_points[side_b]
        victory = group_level(difference)
        winner_side = None if difference == 0 else (side_a if difference > 0 else side_b)
        boost = o.boost
        if boost is not None and winner_side in (None, boost.side):
            victory, winner_side = boosted(victory, boost.steps), boost.side
        consequence: dict[str, str] = {}
        benefit: dict[str, int] = {}
        if winner_side is not None:
            loser_side = side_b if winner_side == side_a else side_a
            for p in c.participants:
                if p.side == loser_side:
                    consequence[p.name] = CONSEQUENCES[victory]
                elif p.side == winner_side:
                    benefit[p.name] = BENEFITS[victory]
                    if victory == MARGINAL:
                        consequence[p.name] = CONSEQUENCES[MARGINAL]
        return self._scored(
            c,
            kind="group",
            points=RESOLUTION_POINTS[victory],
            parties=c.parties,
            rolls={},
            levels={},
            winner=winner_side,
            victory=victory,
            lodged_by=winner_side,
            consequence=consequence,
            benefit=benefit,
            pairs=tuple(results),
            side_points=side_points,
        )

    @staticmethod
    def _scored(
        c: HQContest,
        *,
        kind: Literal["simple", "group"],
        points: int,
        parties: tuple[str, ...],
        rolls: Mapping[str, int | None],
        levels: Mapping[str, int],
        winner: str | None,
        victory: int,
        lodged_by: str | None,
        consequence: Mapping[str, str],
        benefit: Mapping[str, int],
        pairs: tuple[PairResult, ...] = (),
        side_points: Mapping[str, int] | None = None,
    ) -> ExchangeResolved:
        o = c.open
        totals = dict(c.resolution_points)
        if lodged_by is not None:
            totals[lodged_by] = totals.get(lodged_by, 0) + points
        return ExchangeResolved(
            n=c.n + 1,
            kind=kind,
            parties=parties,
            targets={name: c.target(name) for name in parties},
            rolls=rolls,
            levels=levels,
            winner=winner,
            victory=victory,
            resolution_points=points,
            lodged_by=lodged_by,
            augments=o.augments,
            hero_points={n: k for n, k in o.hero_points.items() if k},
            stretched=o.stretched,
            consequence=consequence,
            benefit=benefit,
            pairs=pairs,
            side_points=side_points or {},
            leave=o.leave,
            totals=totals,
            chain=c.options.chain,
            extended=c.options.extended,
            gambits=o.gambits,
            defensive=o.defensive,
            boost=o.boost,
            automatic=o.automatic,
            modifier_labels=o.modifier_labels,
        )

    @staticmethod
    def _ending(c: HQContest, e: ExchangeResolved) -> tuple[Event, ...]:
        """The contest's end after exchange ``e``, if it ends there."""
        if not c.options.chain:
            side = e.lodged_by if e.winner is not None else None
            return (ContestEnded(winner=side, ended_by="exchange"),)
        if c.options.extended:
            reached = [side for side in c.sides if e.totals.get(side, 0) >= EXTENDED_GOAL]
            if reached:
                return (ContestEnded(winner=reached[0], ended_by="resolution_points"),)
        if e.leave is not None:
            leaver_side = c.hq_participant(e.leave).side
            sides = {c.hq_participant(n).side for n in e.parties}
            others = [s for s in c.sides if s in sides and s != leaver_side]
            return (ContestEnded(winner=others[0] if others else None, ended_by="leave"),)
        return ()

    # evolve ---------------------------------------------------------------------------
    def evolve(self, contest: Contest, event: Event) -> Contest:
        c = own(contest, HQContest)
        changed = c.evolve_variant(self, event)
        if changed is not None:
            return changed
        o = c.open
        match event:
            case PartiesSet():
                return replace(c, open=replace(o, kind="simple", parties=(event.a, event.b)))
            case PairsSet():
                return replace(c, open=replace(o, kind="group", pairs=event.pairs))
            case DiceRolled():
                return replace(c, open=replace(o, rolls={**o.rolls, event.who: event.faces[0]}))
            case ModifierSet():
                labels = {k: v for k, v in o.modifier_labels.items() if k != event.who}
                if event.label is not None:
                    labels[event.who] = f"{event.label} {event.value:+d}"
                modifiers = {**o.modifiers, event.who: event.value}
                return replace(c, open=replace(o, modifiers=modifiers, modifier_labels=labels))
            case Augmented():
                return replace(c, open=replace(o, augments=(*o.augments, event.augment)))
            case HeroPointsSpent():
                left = {**c.hero_points_left}
                left[event.who] = left.get(event.who, 0) - event.count
                spent = {**o.hero_points}
                spent[event.who] = spent.get(event.who, 0) + event.count
                return replace(c, hero_points_left=left, open=replace(o, hero_points=spent))
            case Stretched():
                return replace(c, open=replace(o, stretched=(*o.stretched, event.who)))
            case LeaveDeclared():
                return replace(c, open=replace(o, leave=event.who))
            case GambitDeclared():
                return replace(c, open=replace(o, gambits=(*o.gambits, event.who)))
            case DefensiveDeclared():
                return replace(c, open=replace(o, defensive=(*o.defensive, event.who)))
            case AutomaticRuled():
                return replace(c, open=replace(o, automatic=event.automatic))
            case Boosted():
                left = {**c.hero_points_left}
                for name, count in event.boost.paid:
                    left[name] = left.get(name, 0) - count
                return replace(c, hero_points_left=left, open=replace(o, boost=event.boost))
            case ExchangeResolved():
                return replace(
                    c,
                    n=event.n,
                    open=OpenExchange(),
                    resolution_points=event.totals,
                    last_parties=event.parties,
                    against=_scored_against(c.against, event),
                    dying=_left_dying(c, event),
                )
            case ContestEnded():
                return replace(c, finished=True, winner=event.winner, ended_by=event.ended_by)
        raise TypeError(f"{type(event).__name__} is not a HeroQuest event")

    # -- what generic code asks (core.rules.base) ----------------------------------------
    def spent(self, event: Event) -> Iterator[tuple[str, str, int]]:
        if isinstance(event, ExchangeResolved):
            for who, count in event.hero_points.items():
                yield who, "hero points", count

    def points(self, contest: Contest, who: str) -> tuple[int, str] | None:
        return own(contest, HQContest).hero_points_left.get(who, 0), "hero points"

    def consequences(self, contest: Contest) -> Mapping[str, str] | None:
        result = own(contest, HQContest).extended_result()
        return None if result is None else result[1]

    def ending(self, contest: Contest) -> str:
        return ", the other party left" if own(contest, HQContest).ended_by == "leave" else ""

    # output ---------------------------------------------------------------------------
    def exchange_json(self, event: ExchangeEvent) -> JSON:
        return exchange_json(event)

    def final_json(self, contest: Contest) -> JSON:
        c = own(contest, HQContest)
        own_way = c.final_variant()
        if own_way is not None:
            return own_way
        out: JSON = {"hero_points": {p.name: c.hero_points_left[p.name] for p in c.participants}}
        if c.options.chain:
            out["resolution_points"] = {side: c.resolution_points.get(side, 0) for side in c.sides}
        result = c.extended_result()
        out["victory"] = None if result is None else VICTORIES[result[0]]
        out["consequences"] = None if result is None else result[1]
        out["ended_by"] = c.ended_by
        return out

    def describe(self, event: ExchangeEvent, secrets: Secrets = NO_SECRETS) -> list[str]:
        """The exchange log's lines, with ``??`` for what ``secrets`` hide."""
        return render_all(self.lines(event), secrets)

    def lines(self, event: ExchangeEvent) -> list[list[str | Part]]:
        """The exchange log's lines, secrets marked (``wording.exchange_lines``)."""
        return exchange_lines(event)


_NO_DICE = "no dice, modifiers, augments, stretches, hero points or declarations"


def _automatic(c: HQContest, cmd: RuleAutomatic) -> AutomaticRuled:
    """The GM's ruling (``automatic``): a simple exchange of two parties, with nothing
    entered that dice would need (the ruling replaces the roll, so nothing bumps it)."""
    o = c.open
    if o.kind == "group":
        raise RuleError("a group exchange is played by its pairs, not ruled automatic")
    if not c.parties:
        raise OutOfTurn("name the exchange's two parties first")
    who = c.named(cmd.who).name
    if who not in c.parties:
        raise RuleError(f"{who} is not a party to this exchange")
    if o.automatic is not None:
        raise RuleError(f"this exchange is already ruled an {o.automatic.words()}")
    entered = [
        what
        for what, there in (
            ("rolls", o.rolls),
            ("modifiers", any(o.modifiers.values())),
            ("augments", o.augments),
            ("hero points", o.hero_points),
            ("stretches", o.stretched),
            ("risky gambits", o.gambits),
            ("defensive responses", o.defensive),
        )
        if there
    ]
    if entered:
        raise RuleError(
            f"an automatic result takes no dice: this exchange has {', '.join(entered)} already"
        )
    return AutomaticRuled(
        automatic=AutomaticResult(who=who, result=cmd.result, victory=cmd.victory)
    )


def _both(name: str) -> str:
    return f"{name} makes a risky gambit or a defensive response, not both"


HEROQUEST = HeroQuestRules()
