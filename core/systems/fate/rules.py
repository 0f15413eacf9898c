"""Fate Core's rule system (rules.md part 1): ``FateRules`` decides what a command does to
a contest (the events, or a ``RuleError``) and evolves the contest by each event, the
scoring done by ``scoring`` and the telling by ``wording``. The registry (``core.rules``)
loads this module as the system's rules; the option names are scenario.md's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any, ClassVar

from msgspec.structs import replace

from core.dice import DiceKind, check_faces
from core.errors import NoPoints, OutOfTurn, RuleError, UnknownName
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
from core.rules.base import (
    JSON,
    Escalated,
    Pool,
    RuleSystem,
    own,
    require_open,
    unknown_command,
    updated,
)
from core.systems.fate.events import (
    AdvantageCreated,
    AspectInvoked,
    AttackDeclared,
    AwardFatePoint,
    CreateAdvantage,
    DeclareAttack,
    ExchangeResolved,
    FateContestEnded,
    FatePointAwarded,
    InvokeAspect,
    PayFromPool,
    PoolPaid,
)
from core.systems.fate.pool import FatePool
from core.systems.fate.scoring import ExchangeScore, advantage_outcome, score_exchange
from core.systems.fate.state import AdvantageResult, Aspect, FateContest, InvokeRecord, OpenExchange
from core.systems.fate.wording import exchange_json, exchange_lines


class NoFatePoints(NoPoints):
    """A paid invoke by somebody with no fate points left."""

    title = "No fate points"


def check_pool(npcs: Collection[str], gm_pool: int, who: str, count: int = 1) -> None:
    """The pool pays for NPCs only (Fate Core: the GM spends it "on behalf of any NPC"; a
    PC's invokes are the player's to pay), and only what it has."""
    if who and who not in npcs:
        raise RuleError(f"{who} is a PC: the GM's pool pays only for NPCs (PCs pay their own)")
    if gm_pool - count < 0:
        raise NoFatePoints("the GM's fate point pool is empty")


def invoke_payment(
    aspect: Aspect,
    side: str,
    invoker: str,
    fate_points: int,
    free: bool,
    pool: bool,
    npcs: Collection[str],
    gm_pool: int,
    paid_on: str | None,
) -> tuple[str | None, str | None]:
    """Who pays a fate point for ``invoker``'s (of ``side``) invoke of ``aspect``, and who
    gets it: the one rule for a contest's invokes and a conflict's (SRD, Invoking Aspects;
    rules §1.4.1). A free invoke is the side's that holds it (a boost is only ever free);
    a paid one is refused on a roll it was paid for already (``paid_on``: that roll, as
    the message names it), is paid by the invoker or, for an NPC, the GM's pool, and its
    point goes to the aspect's owner, whoever paid it. ``RuleError`` (``NoFatePoints``)
    when it cannot be made."""
    if free and pool:
        raise RuleError("an invoke is either free or paid (from the GM's pool), not both")
    if free:
        if aspect.free_invokes < 1:
            raise RuleError(f'"{aspect.name}" has no free invokes left')
        if aspect.holder is not None and aspect.holder != side:
            raise RuleError(f'the free invokes on "{aspect.name}" belong to {aspect.holder}')
        return None, None
    if aspect.boost:
        raise RuleError(f'"{aspect.name}" is a boost: it is invoked free, never paid')
    if paid_on is not None:
        raise RuleError(f'"{aspect.name}" has already been paid for on {paid_on}')
    paid_by: str | None = None
    if pool:
        check_pool(npcs, gm_pool, invoker)
    elif fate_points < 1:
        hint = ""
        if invoker in npcs and gm_pool > 0:
            hint = f" (the GM's pool has {gm_pool}: pay with it)"
        raise NoFatePoints(f"{invoker} has no fate points left{hint}")
    else:
        paid_by = invoker
    paid_to = aspect.owner if aspect.owner is not None and aspect.owner != invoker else None
    return paid_by, paid_to


class FateRules(RuleSystem):
    """Fate Core contests: a :class:`~core.rules.base.RuleSystem`."""

    name: ClassVar[str] = "fate"
    title: ClassVar[str] = "Fate Core"
    contest_type: ClassVar[type[Contest]] = FateContest
    dice: ClassVar[DiceKind] = DiceKind.FATE
    pool: ClassVar[Pool | None] = FatePool()

    def tally(self, contest: Contest) -> tuple[dict[str, int], str] | None:
        c = own(contest, FateContest)
        return {s: c.victories.get(s, 0) for s in c.sides}, "victories"

    def rollers(self, contest: Contest) -> list[str]:
        c = own(contest, FateContest)
        return [] if c.open.attack is not None else list(c.rolling_sides)  # §1.3: stop

    # decide ---------------------------------------------------------------------------
    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        c = own(contest, FateContest)
        require_open(c)
        match command:
            case CreateAdvantage():
                return (self._advantage(c, command),)
            case RollDice():
                return (self._roll(c, command),)
            case InvokeAspect():
                return (self._invoke(c, command),)
            case SetModifier():
                self._side(c, command.who)
                return (ModifierSet(who=command.who, value=command.value),)
            case AwardFatePoint():
                c.fate_participant(command.who)
                return (FatePointAwarded(who=command.who, pool=command.who in c.npcs),)
            case PayFromPool():
                return (self._pay_from_pool(c, command),)
            case DeclareAttack():
                c.fate_participant(command.by)
                return (AttackDeclared(by=command.by),)
            case ResolveExchange():
                return self._resolve(c, command)
        raise unknown_command(self.title, command)

    @staticmethod
    def _side(c: FateContest, side: str) -> str:
        if side not in c.sides:
            raise UnknownName(f'no side "{side}"')
        return side

    def _advantage(self, c: FateContest, cmd: CreateAdvantage) -> AdvantageCreated:
        creator = c.fate_participant(cmd.by)
        if cmd.on is not None:
            c.fate_participant(cmd.on)
        if not cmd.aspect:
            raise RuleError("an aspect needs a name")
        if c.open.dice:
            raise OutOfTurn("advantages are created before the contest rolls")
        side = creator.side
        outcome = advantage_outcome(cmd.result, cmd.opposition, c.options.style_threshold)
        existing = c.aspect(cmd.aspect)
        other = self._other_side(c, side, cmd.on)
        # scenario.md: free invokes never change hands. The attempt is refused only while
        # the aspect holds free invokes of a side other than the one this attempt would
        # make its holder (the creator's side, or on a failure the other side).
        would_gain = other if outcome == "fail" else side
        if (
            existing is not None
            and existing.free_invokes > 0
            and existing.holder is not None
            and existing.holder != would_gain
        ):
            raise RuleError(
                f'"{cmd.aspect}" has free invokes held by {existing.holder}; '
                f"they must be used before {would_gain} can gain any on it"
            )
        forfeit_side: str | None = None
        lost_helper: str | None = None
        if outcome == "fail" and c.options.failed_advantage == "forfeit":
            if c.lead(side).name == creator.name:
                forfeit_side = side
            elif creator.skill >= 1:
                lost_helper = creator.name
        gainer: str | None
        if existing is None:
            gains = {"fail": 0, "tie": 1, "success": 1, "style": 2}[outcome]
            gainer = side
            if outcome == "fail":
                if c.options.failed_advantage == "cost":
                    gains, gainer = 1, other
                else:
                    gainer = None
        else:
            gains = {"fail": 1, "tie": 1, "success": 1, "style": 2}[outcome]
            gainer = other if outcome == "fail" else side
        return AdvantageCreated(
            advantage=AdvantageResult(
                by=cmd.by,
                aspect=cmd.aspect,
                outcome=outcome,
                free_invokes=gains,
                result=cmd.result,
                opposition=cmd.opposition,
                on=cmd.on,
            ),
            side=side,
            gainer=gainer,
            new_aspect=existing is None and gainer is not None,
            owner=cmd.on if existing is None else None,
            boost=existing.boost if existing is not None else outcome == "tie",
            forfeit_side=forfeit_side,
            lost_helper=lost_helper,
        )

    @staticmethod
    def _other_side(c: FateContest, side: str, on: str | None) -> str:
        """The side that gains from a failed advantage: ``on``'s, else the first other."""
        if on is not None:
            target_side = c.fate_participant(on).side
            if target_side != side:
                return target_side
        return next(s for s in c.sides if s != side)

    def _roll(self, c: FateContest, cmd: RollDice) -> DiceRolled:
        side = self._side(c, cmd.who)
        check_faces(DiceKind.FATE, cmd.faces)
        if side in c.open.forfeited:
            raise RuleError(f"{side} forfeited this exchange's roll (a failed advantage)")
        if side in c.open.dice:
            raise OutOfTurn(f"{side} has already rolled this exchange (invoke for a reroll)")
        return DiceRolled(who=side, faces=cmd.faces, source=cmd.source)

    def _invoke(self, c: FateContest, cmd: InvokeAspect) -> AspectInvoked:
        invoker = c.fate_participant(cmd.by)
        side = invoker.side
        on = self._side(c, cmd.target) if cmd.target is not None else side
        if cmd.effect == "reroll" and on != side:
            raise RuleError("a reroll is of your own side's dice")
        if cmd.effect == "oppose":
            if c.options.mode != "environment":
                raise RuleError("only an environment contest has a passive opposition")
            if on == side:
                raise RuleError("the opposition is raised against another side")
        if on in c.open.forfeited:
            raise RuleError(f"{on} forfeited this exchange and has no roll to invoke on")
        if on not in c.open.dice:
            raise OutOfTurn(f"{on} has not rolled yet: invoke after the roll")
        aspect = c.aspect(cmd.aspect)
        if aspect is None:
            raise UnknownName(f'no aspect "{cmd.aspect}" in play')
        if cmd.effect == "reroll":
            if cmd.faces is None:
                raise RuleError("a reroll needs the new dice")
            check_faces(DiceKind.FATE, cmd.faces)
        elif cmd.effect not in ("+2", "oppose"):
            raise RuleError(f'an invoke gives "+2", "reroll" or "oppose", not "{cmd.effect}"')
        whose = f"{on}'" if on.endswith("s") else f"{on}'s"  # Heroes' roll
        paid_by, paid_to = invoke_payment(
            aspect,
            side,
            invoker.name,
            invoker.fate_points,
            cmd.free,
            cmd.pool,
            c.npcs,
            c.gm_pool,
            f"{whose} roll" if (on, aspect.name) in c.open.paid else None,
        )
        record = InvokeRecord(
            by=cmd.by,
            by_side=side,
            side=on,
            aspect=aspect.name,
            free=cmd.free,
            effect=cmd.effect,
            faces=cmd.faces if cmd.effect == "reroll" else None,
            pool=cmd.pool,
        )
        return AspectInvoked(
            invoke=record,
            paid_by=paid_by,
            paid_to=paid_to,
            bonus={"+2": 2, "reroll": 0, "oppose": -2}[cmd.effect],
            boost_used=cmd.free and aspect.boost,
        )

    @staticmethod
    def _check_pool(c: FateContest, who: str, count: int = 1) -> None:
        check_pool(c.npcs, c.gm_pool, who, count)

    def _pay_from_pool(self, c: FateContest, cmd: PayFromPool) -> PoolPaid:
        if cmd.by:
            c.fate_participant(cmd.by)
        if cmd.count == 0:
            raise RuleError("nothing to pay")
        self._check_pool(c, cmd.by, cmd.count)
        return PoolPaid(by=cmd.by, reason=cmd.reason, count=cmd.count)

    def _resolve(self, c: FateContest, cmd: ResolveExchange) -> tuple[Event, ...]:
        attack = c.open.attack
        # An attack stops the exchange where it is (rules §1.3): the dice rolled before it
        # are kept, nobody else need roll.
        rolled = [s for s in c.rolling_sides if attack is None or s in c.open.dice]
        missing = [s for s in rolled if s not in c.open.dice]
        if missing:
            raise OutOfTurn(f"{missing[0]} has not rolled yet")
        totals: dict[str, int] = {}
        for s in rolled:
            total = c.total(s)
            assert total is not None  # every rolling side has dice, checked above
            totals[s] = total
        n = c.n + 1
        if attack is not None:
            scored = ExchangeScore(winner=None, victories=0, twist=False)
            if c.options.mode == "environment":
                difficulty = c.options.difficulty or 0
                scored = replace(scored, shifts={s: t - difficulty for s, t in totals.items()})
        else:
            scored = score_exchange(c.options, totals)
        twist: str | None = None
        new_twist = False
        if scored.twist:
            twist = cmd.twist or f"Twist {n}"
            new_twist = c.aspect(twist) is None
        score = {s: c.victories.get(s, 0) for s in c.sides}
        if scored.winner is not None:
            score[scored.winner] += scored.victories
        resolved = ExchangeResolved(
            n=n,
            totals=totals,
            shifts=scored.shifts,
            dice={s: c.open.dice[s] for s in rolled},
            winner=scored.winner,
            victories=scored.victories,
            style=scored.victories == 2,
            twist=twist,
            new_twist=new_twist,
            forfeited=tuple(s for s in c.sides if s in c.open.forfeited),
            advantages=c.open.advantages,
            invokes=c.open.invokes,
            score=score,
            attack=attack,
        )
        owed = {name: n for name, n in c.owed.items() if n}
        if attack is not None:
            # The contest becomes a conflict and the scene goes on: nothing is paid yet.
            ended = FateContestEnded(winner=None, ended_by="attack", owed=owed, scene_over=False)
            return resolved, ended
        done = [s for s in c.sides if score[s] >= c.options.victories_needed]
        if done:
            return resolved, FateContestEnded(winner=done[0], ended_by="victories", owed=owed)
        return (resolved,)

    # evolve ---------------------------------------------------------------------------
    def evolve(self, contest: Contest, event: Event) -> Contest:
        c = own(contest, FateContest)
        o = c.open
        match event:
            case AdvantageCreated():
                return self._apply_advantage(c, event)
            case DiceRolled():
                return replace(c, open=replace(o, dice={**o.dice, event.who: event.faces}))
            case AspectInvoked():
                return self._apply_invoke(c, event)
            case ModifierSet():
                return replace(
                    c, open=replace(o, modifiers={**o.modifiers, event.who: event.value})
                )
            case AttackDeclared():
                return replace(c, open=replace(o, attack=event.by))
            case FatePointAwarded() if event.pool:
                return replace(c, gm_pool=c.gm_pool + 1)
            case PoolPaid():
                return replace(c, gm_pool=c.gm_pool - event.count)
            case FatePointAwarded():
                return replace(
                    c,
                    participants=tuple(
                        replace(p, fate_points=p.fate_points + 1) if p.name == event.who else p
                        for p in c.participants
                    ),
                )
            case ExchangeResolved():
                aspects = c.aspects
                if event.twist is not None and event.new_twist:
                    aspects = (*aspects, Aspect(name=event.twist))
                return replace(
                    c, n=event.n, victories=event.score, aspects=aspects, open=OpenExchange()
                )
            case FateContestEnded(scene_over=False):
                # An attack: the scene goes on as a conflict; the points stay owed.
                return replace(c, finished=True, winner=event.winner, ended_by=event.ended_by)
            case ContestEnded():
                # The scene is over (a saved plain ContestEnded, from before the points
                # owed were recorded, always credited them here).
                owed = event.owed if isinstance(event, FateContestEnded) else c.owed
                participants = c.participants
                if owed:
                    participants = tuple(
                        replace(p, fate_points=p.fate_points + owed.get(p.name, 0))
                        for p in participants
                    )
                return replace(
                    c,
                    finished=True,
                    winner=event.winner,
                    ended_by=event.ended_by,
                    participants=participants,
                    owed={},
                )
        raise TypeError(f"{type(event).__name__} is not a Fate event")

    @staticmethod
    def _apply_advantage(c: FateContest, event: AdvantageCreated) -> FateContest:
        adv = event.advantage
        o = c.open
        aspects = list(c.aspects)
        if event.gainer is not None:
            if event.new_aspect:
                aspects.append(
                    Aspect(
                        name=adv.aspect,
                        free_invokes=adv.free_invokes,
                        holder=event.gainer,
                        boost=event.boost,
                        owner=event.owner,
                    )
                )
            else:
                i = next(i for i, a in enumerate(aspects) if a.name == adv.aspect)
                aspects[i] = replace(
                    aspects[i],
                    free_invokes=aspects[i].free_invokes + adv.free_invokes,
                    holder=event.gainer,
                )
        forfeited = o.forfeited | ({event.forfeit_side} if event.forfeit_side else set())
        lost = o.lost_helpers | ({event.lost_helper} if event.lost_helper else set())
        return replace(
            c,
            aspects=tuple(aspects),
            open=replace(
                o,
                advantages=(*o.advantages, adv),
                forfeited=frozenset(forfeited),
                lost_helpers=frozenset(lost),
            ),
        )

    @staticmethod
    def _apply_invoke(c: FateContest, event: AspectInvoked) -> FateContest:
        inv = event.invoke
        o = c.open
        aspects: list[Aspect] = []
        for a in c.aspects:
            if a.name == inv.aspect and inv.free:
                if event.boost_used:
                    continue  # a boost leaves play once used
                a = replace(a, free_invokes=a.free_invokes - 1)
            aspects.append(a)
        participants = c.participants
        if event.paid_by is not None:
            participants = tuple(
                replace(p, fate_points=p.fate_points - 1) if p.name == event.paid_by else p
                for p in participants
            )
        owed = updated(c.owed, event.paid_to, 1) if event.paid_to else c.owed
        gm_pool = c.gm_pool - 1 if inv.pool else c.gm_pool
        dice = o.dice
        if inv.effect == "reroll" and inv.faces is not None:
            dice = {**dice, inv.side: inv.faces}
        paid = o.paid | {(inv.side, inv.aspect)} if not inv.free else o.paid
        return replace(
            c,
            aspects=tuple(aspects),
            participants=participants,
            owed=owed,
            gm_pool=gm_pool,
            open=replace(
                o,
                dice=dice,
                bonus=updated(o.bonus, inv.side, event.bonus),
                paid=paid,
                invokes=(*o.invokes, inv),
            ),
        )

    # -- what generic code asks (core.rules.base) ----------------------------------------
    def aspects(self, contest: Contest) -> tuple[str, ...]:
        return tuple(a.name for a in own(contest, FateContest).aspects)

    def situation(self, contest: Contest) -> tuple[str, ...]:
        return tuple(a.name for a in own(contest, FateContest).aspects if a.owner is None)

    def named_aspects(self, event: ExchangeEvent) -> Iterator[str]:
        if not isinstance(event, ExchangeResolved):
            return
        e = event
        if e.twist:
            yield e.twist
        yield from (advantage.aspect for advantage in e.advantages)
        yield from (invoke.aspect for invoke in e.invokes)

    def created(self, event: ExchangeEvent) -> Iterator[tuple[str, str]]:
        if not isinstance(event, ExchangeResolved):
            return
        e = event
        if e.twist and e.new_twist:
            yield e.twist, f"{e.twist} (twist)"
        for advantage in e.advantages:
            if advantage.outcome != "fail" or advantage.free_invokes:
                yield advantage.aspect, f"{advantage.aspect} ({advantage.outcome})"

    def spent(self, event: Event) -> Iterator[tuple[str, str, int]]:
        if isinstance(event, PoolPaid):  # the GM's pool outside an invoke
            yield event.by or "the GM", "fate points from the GM's pool", event.count
        elif isinstance(event, ExchangeResolved):
            for invoke in event.invokes:
                if invoke.pool:
                    yield invoke.by, "fate points from the GM's pool", 1
                elif not invoke.free:
                    yield invoke.by, "fate points", 1

    def points(self, contest: Contest, who: str) -> tuple[int, str] | None:
        return own(contest, FateContest).fate_participant(who).fate_points, "fate points"

    def escalated(self, contest: Contest) -> Escalated | None:
        if own(contest, FateContest).ended_by != "attack":
            return None
        return Escalated(
            "Ended by an attack: now a conflict",
            "An attack ended the contest: it escalates to a conflict (rules §1.3).",
        )

    # output ---------------------------------------------------------------------------
    def exchange_json(self, event: ExchangeEvent) -> JSON:
        return exchange_json(self._exchange(event))

    def final_json(self, contest: Contest) -> JSON:
        c = own(contest, FateContest)
        return {
            "score": dict(c.victories),
            "fate_points": {p.name: p.fate_points for p in c.participants},
            "aspects": [
                {
                    "name": a.name,
                    "free_invokes": a.free_invokes,
                    "holder": a.holder,
                    "boost": a.boost,
                }
                for a in c.aspects
            ],
            "ended_by": c.ended_by,
        }

    def describe(self, event: ExchangeEvent, secrets: Secrets = NO_SECRETS) -> list[str]:
        """The exchange log's lines, with ``??`` for what ``secrets`` hide."""
        return render_all(self.lines(event), secrets)

    def lines(self, event: ExchangeEvent) -> list[list[str | Part]]:
        """The exchange log's lines, secrets marked (``wording.exchange_lines``)."""
        return exchange_lines(self._exchange(event))

    @staticmethod
    def _exchange(event: ExchangeEvent) -> ExchangeResolved:
        if not isinstance(event, ExchangeResolved):
            raise TypeError(f"{type(event).__name__} is not a Fate exchange")
        return event


FATE = FateRules()
