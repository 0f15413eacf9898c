"""A Fate conflict played through the engine: its contest (``FateConflict``), the GM's
commands and the events they cause, decided and evolved by :data:`CONFLICT`.

The rules themselves are the pure functions of ``conflict`` (attack outcomes, every way
to absorb a hit, concessions, the end); this module only puts them in order, as the SRD's
"Conflicts" plays them:

* the participants act in turn order (``SetTurnOrder``: the GM's override); on their
  turn, each attacks (``Attack``: the attacker's skill and dice against the defender's
  chosen skill and dice), takes full defense (``FullDefense``: +2 to every defense for
  the rest of the exchange), or does something else the GM plays outside the conflict's
  count (``TakeTurn``: an overcome, an advantage);
* a hit waits for the defender's choice: one of the legal absorptions
  (``Absorb``: a box, consequences named on the spot, each a new aspect with one free
  invoke for the attacker's side), or taken out (``TakeOut``); nothing else happens
  until it is settled;
* a participant concedes (``Concede``) before a roll is made against them: never while
  a hit on them waits (the roll was made);
* the conflict ends (``ConflictEnded``) as soon as fewer than two sides have someone in
  it, or when the GM ends it (``EndConflict``): stress clears, consequences stay as
  aspects, each concession pays its fate points (1 + the consequences taken here).

Invokes (SRD, "Invoking Aspects"; "Conflicts": they work on the attack's and the
defense's rolls as in contests) come with the attack they change (``Attack.invokes``, made
after the dice, in order): +2 or a reroll, paid with a free invoke, a fate point or, for an
NPC, the GM's pool; each is an ``AspectInvoked`` event (the contest's) before the attack's
own, so undo and redo take it back and bring it again with the attack.

Readings chosen: full defense lasts until the exchange ends (the turn order wraps), so it
covers the attacks after it in that exchange; stunts on an attack are the ``bonus`` and
``defense_bonus`` the GM types; an invoke changes the roll of the invoker's side (the
attacker's or the defender's: an ally's invoke helps that roll, SRD "+2 to an ally's roll").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Literal

import msgspec
from msgspec.structs import replace

from core.dice import DiceKind, check_faces, fate_glyphs
from core.errors import OutOfTurn, RuleError, UnknownName
from core.limits import Count, Int, Positive
from core.model import (
    Command,
    Contest,
    ContestEnded,
    Event,
    ExchangeEvent,
    Participant,
    Saved,
)
from core.redact import (
    NO_SECRETS,
    Part,
    Secrets,
    aspect_name,
    render_all,
    secret,
    side_secret,
)
from core.rules.base import JSON, RuleSystem, own, require_open, unknown_command
from core.systems.fate.conflict import (
    Absorption,
    AttackResult,
    Conflict,
    ConflictError,
    absorb,
    attack_result,
    concede,
    concession_points,
    end_conflict,
    gm_order,
    is_over,
    next_turn,
    ordered,
    sides_left,
    take_out,
    winner,
)
from core.systems.fate.events import AspectInvoked
from core.systems.fate.ladder import ladder_with_value
from core.systems.fate.rules import FateRules, invoke_payment
from core.systems.fate.state import Aspect, FateParticipant, InvokeRecord, aspect_key, aspect_like
from core.systems.fate.stress import track_label

CODEC_TAG = "fate"  # saved as "fate.FateConflict", "fate.AttackResolved"...


# -- the contest ------------------------------------------------------------------------------


class Hit(Saved):
    """A hit waiting for its defender's choice: who made it, on whom, on which track,
    how many shifts, and the attack's whole record (to log once it is settled)."""

    by: str
    target: str
    track: str
    shifts: Positive
    attack: AttackRecord


class AttackRecord(Saved):
    """An attack as rolled: skills, ratings, dice, bonuses, totals and the outcome."""

    by: str
    target: str
    skill: str
    rating: Int
    faces: tuple[Int, ...]
    bonus: Int
    defense: str
    defense_rating: Int
    defense_faces: tuple[Int, ...]
    defense_bonus: Int
    full_defense: bool
    total: Int
    defense_total: Int
    track: str
    result: AttackResult
    boost: str | None = None  # the boost's name, when someone gained one
    # The invokes on the attack's roll and on the defense's, each in order (a reroll
    # with its new dice): ``faces``/``defense_faces`` are the dice that count, rerolled.
    invokes: tuple[InvokeRecord, ...] = ()
    defense_invokes: tuple[InvokeRecord, ...] = ()


def plus_two(invokes: Sequence[InvokeRecord]) -> int:
    """What a roll's invokes add to it: +2 each, a reroll nothing."""
    return sum(2 for i in invokes if i.effect == "+2")


class ConflictParticipant(Participant):
    """A participant in a conflict: fate points as in a contest, and their skills by
    name (what their attacks and defenses roll; a missing skill is Mediocre). ``skill``:
    what they rolled in the contest an attack ended (0 when none)."""

    skill: Int = 0
    fate_points: Count = 0
    skills: Mapping[str, Int] = msgspec.field(default_factory=dict)


class FateConflict(Contest):
    """A Fate conflict: its participants (fate points and skills), the pure ``conflict``
    (stress, consequences, turn order, exchange and turn), the aspects in
    play (the scene's, the characters', consequences, boosts), the hit waiting to be
    absorbed, who is on full defense this exchange, the fate points owed at the scene's
    end, and the GM's pool as in a contest."""

    system: ClassVar[str] = "fate"
    participants: tuple[ConflictParticipant, ...]
    conflict: Conflict = Conflict()
    aspects: tuple[Aspect, ...] = ()
    hit: Hit | None = None
    defending: frozenset[str] = frozenset()
    owed: Mapping[str, Int] = msgspec.field(default_factory=dict)
    gm_pool: Int = 0
    npcs: frozenset[str] = frozenset()
    ended_by: str | None = None

    @property
    def turn(self) -> str:
        """Whose turn it is."""
        return self.conflict.combatants[self.conflict.turn].name

    def rating(self, who: str, skill: str) -> int:
        for p in self.participants:
            if p.name == who:
                return p.skills.get(skill, 0)
        raise UnknownName(f'no participant "{who}"')


def new_conflict(
    participants: Sequence[FateParticipant],
    skills: Mapping[str, Mapping[str, int]],
    conflict: Conflict,
    aspects: Sequence[Aspect] = (),
) -> FateConflict:
    """A conflict before its first action (``conflict``'s combatants in turn order, one
    for each participant)."""
    names = [p.name for p in participants]
    if sorted(names) != sorted(c.name for c in conflict.combatants):
        raise ConflictError("each participant of a conflict has its stress and consequences")
    return FateConflict(
        participants=tuple(
            ConflictParticipant(
                name=p.name,
                side=p.side,
                skill=p.skill,
                fate_points=p.fate_points,
                skills=dict(skills.get(p.name, {})),
            )
            for p in participants
        ),
        conflict=conflict,
        aspects=tuple(aspects),
    )


# -- commands ---------------------------------------------------------------------------------


class SetTurnOrder(Command):
    """The GM's turn order (every participant once); the turn stays with whoever has it."""

    order: tuple[str, ...]


class ConflictInvoke(Saved):
    """An invoke on an attack's roll, after the dice (SRD, Invoking Aspects): ``by``
    invokes ``aspect`` on their side's roll (the attacker's or the defender's), for +2 or
    a reroll (``faces``: the new dice), paid with a free invoke (``free``), the GM's
    pool (``pool``: for an NPC) or else one of ``by``'s fate points."""

    by: str
    aspect: str
    effect: Literal["+2", "reroll"] = "+2"
    faces: tuple[Int, ...] | None = None
    free: bool = False
    pool: bool = False


class Attack(Command):
    """``by`` (whose turn it is) attacks ``target`` with ``skill`` and its dice; the
    target defends with ``defense`` and its dice. ``track``: the harm's (physical,
    mental, or an extra track the target has). ``bonus``/``defense_bonus``: stunts and
    the like. ``invokes``: the aspects invoked on either roll, in order, after the dice.
    ``take_boost``: on a success with style, one shift less for a boost."""

    by: str
    target: str
    skill: str
    faces: tuple[Int, ...]
    defense: str
    defense_faces: tuple[Int, ...]
    track: str = "physical"
    bonus: Int = 0
    defense_bonus: Int = 0
    take_boost: bool = False
    boost: str = ""  # the boost's name (blank: "<name>'s boost")
    invokes: tuple[ConflictInvoke, ...] = ()


class Absorb(Command):
    """The target of the waiting hit absorbs it the way ``absorption`` says, naming each
    consequence it takes (in the order of its slots)."""

    who: str
    absorption: Absorption
    names: tuple[str, ...] = ()


class TakeOut(Command):
    """The target of the waiting hit is taken out (it cannot, or will not, absorb it)."""

    who: str


class Concede(Command):
    """``who`` concedes, before a roll is made against them."""

    who: str


class FullDefense(Command):
    """``who`` (whose turn it is) spends the turn on full defense."""

    who: str


class TakeTurn(Command):
    """``who`` (whose turn it is) does something else with the turn (``what``: an
    overcome, an advantage), which the GM plays outside the conflict's count."""

    who: str
    what: str = ""


class EndConflict(Command):
    """The GM ends the conflict where it stands (the sides agree, the scene moves on)."""


# -- events -----------------------------------------------------------------------------------


class TurnOrderSet(Event):
    order: tuple[str, ...]


class AttackRolled(Event):
    """An attack rolled that hits: its hit now waits for the defender."""

    hit: Hit


class ConflictAction(ExchangeEvent):
    """Base of a conflict's logged actions: ``exchange`` is the conflict's exchange
    (each participant acts once in it), ``n`` the action's number in the log."""

    exchange: Positive


class AttackResolved(ConflictAction):
    """An attack settled: the roll, and how the hit was absorbed (the boxes' values and
    the consequences taken, with their names) or that it took the target out."""

    attack: AttackRecord
    absorption: Absorption | None = None
    boxes: tuple[Positive, ...] = ()
    consequences: tuple[tuple[str, str], ...] = ()  # (severity, name)
    taken_out: bool = False


class Conceded(ConflictAction):
    who: str
    points: Count  # what the concession will pay at the end


class FullDefenseTaken(ConflictAction):
    who: str


class TurnTaken(ConflictAction):
    who: str
    what: str = ""


class ConflictEnded(ContestEnded):
    """The conflict is over: each concession's fate points, paid now, and the points
    owed for invokes, credited as the scene ends."""

    paid: Mapping[str, Count] = msgspec.field(default_factory=dict)
    owed: Mapping[str, Int] = msgspec.field(default_factory=dict)


# -- the rules --------------------------------------------------------------------------------


class ConflictRules(RuleSystem):
    """A Fate conflict's part of Fate's rules (``play.FATE`` hands it conflicts)."""

    name: ClassVar[str] = "fate"
    title: ClassVar[str] = "Fate Core conflicts"
    contest_type: ClassVar[type[Contest]] = FateConflict
    dice: ClassVar[DiceKind] = DiceKind.FATE

    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        c = own(contest, FateConflict)
        require_open(c)
        match command:
            case SetTurnOrder():
                return (TurnOrderSet(order=gm_order(_names(c), command.order)),)
            case Attack():
                return self._attack(c, command)
            case Absorb():
                return self._absorb(c, command)
            case TakeOut():
                hit = self._waiting(c, command.who)
                event = AttackResolved(
                    n=c.n + 1, exchange=c.conflict.exchange, attack=hit.attack, taken_out=True
                )
                return self._and_maybe_end(c, event)
            case Concede():
                return self._concede(c, command.who)
            case FullDefense():
                self._on_turn(c, command.who)
                taken = FullDefenseTaken(n=c.n + 1, exchange=c.conflict.exchange, who=command.who)
                return (taken,)
            case TakeTurn():
                self._on_turn(c, command.who)
                what = command.what.strip()
                return (
                    TurnTaken(n=c.n + 1, exchange=c.conflict.exchange, who=command.who, what=what),
                )
            case EndConflict():
                if c.hit is not None:
                    raise OutOfTurn(f"{c.hit.target} has a hit to absorb first (or is taken out)")
                return (self._ended(c, "gm"),)
        raise unknown_command(FateRules.title, command, "conflicts")

    # -- each command -------------------------------------------------------------------
    @staticmethod
    def _no_hit_waiting(c: FateConflict) -> None:
        if c.hit is not None:
            raise OutOfTurn(
                f"{c.hit.target} has {shifts(c.hit.shifts)} hit to absorb first (or is taken out)"
            )

    def _on_turn(self, c: FateConflict, who: str) -> None:
        self._no_hit_waiting(c)
        if not c.conflict.combatant(who).in_conflict:
            raise ConflictError(f"{who} is no longer in the conflict")
        if c.turn != who:
            raise OutOfTurn(f"it is {c.turn}'s turn, not {who}'s")

    def _attack(self, c: FateConflict, cmd: Attack) -> tuple[Event, ...]:
        self._on_turn(c, cmd.by)
        target = c.conflict.combatant(cmd.target)
        if cmd.target == cmd.by:
            raise ConflictError("an attack is on someone else")
        if not target.in_conflict:
            raise ConflictError(f"{cmd.target} is no longer in the conflict")
        target.track(cmd.track)  # UnknownName: no such track
        check_faces(DiceKind.FATE, cmd.faces)
        check_faces(DiceKind.FATE, cmd.defense_faces)
        rating = c.rating(cmd.by, cmd.skill)
        defense_rating = c.rating(cmd.target, cmd.defense)
        attacker_side = c.conflict.combatant(cmd.by).side
        invoked, paid = self._invokes(c, cmd, attacker_side, target.side)
        records = tuple(e.invoke for e in invoked)
        faces, defense_faces = cmd.faces, cmd.defense_faces
        for made in records:
            if made.faces is not None:  # a reroll: its side's dice are the new ones
                if made.side == attacker_side:
                    faces = made.faces
                else:
                    defense_faces = made.faces
        plus = {side: sum(e.bonus for e in invoked if e.invoke.side == side) for side in paid}
        total = rating + sum(faces) + cmd.bonus + plus[attacker_side]
        defense_total = defense_rating + sum(defense_faces) + cmd.defense_bonus + plus[target.side]
        full = cmd.target in c.defending
        options = c.conflict.options
        result = attack_result(
            total,
            defense_total,
            full_defense=full,
            take_boost=cmd.take_boost,
            style_threshold=options.style_threshold,
        )
        boost: str | None = None
        if result.attacker_boost:
            boost = cmd.boost.strip() or f"{cmd.by}'s boost"
        elif result.defender_boost:
            boost = cmd.boost.strip() or f"{cmd.target}'s boost"
        if boost is not None and (same := aspect_like(c.aspects, boost)) is not None:
            raise RuleError(f'"{same.name}" is already in play: name the boost otherwise')
        record = AttackRecord(
            by=cmd.by,
            target=cmd.target,
            skill=cmd.skill,
            rating=rating,
            faces=faces,
            bonus=cmd.bonus,
            defense=cmd.defense,
            defense_rating=defense_rating,
            defense_faces=defense_faces,
            defense_bonus=cmd.defense_bonus,
            full_defense=full,
            total=total,
            defense_total=defense_total + (2 if full else 0),
            track=cmd.track,
            result=result,
            boost=boost,
            invokes=tuple(r for r in records if r.side == attacker_side),
            defense_invokes=tuple(r for r in records if r.side != attacker_side),
        )
        if result.shifts <= 0:
            done = AttackResolved(n=c.n + 1, exchange=c.conflict.exchange, attack=record)
            return (*invoked, done)
        hit = Hit(
            by=cmd.by, target=cmd.target, track=cmd.track, shifts=result.shifts, attack=record
        )
        return (*invoked, AttackRolled(hit=hit))

    def _invokes(
        self, c: FateConflict, cmd: Attack, attacker: str, defender: str
    ) -> tuple[tuple[AspectInvoked, ...], dict[str, set[str]]]:
        """The attack's invokes, each checked as the contest checks one (SRD, Invoking
        Aspects; rules §1.4.1) on the conflict as the invokes before it left it: the
        invoker on the attacker's or the defender's side and still in; the aspect in
        play; a free invoke only where its side holds one (a boost only ever free, then
        gone); one paid invoke per aspect per roll; a fate point the invoker has, or the
        GM's pool for an NPC. A paid point goes to the aspect's owner at the scene's end
        (a consequence's: the one who took it). Also returns the aspects paid for on each
        side's roll (by side)."""
        paid: dict[str, set[str]] = {attacker: set(), defender: set()}
        events: list[AspectInvoked] = []
        now = c
        for inv in cmd.invokes:
            invoker = now.conflict.combatant(inv.by)  # UnknownName: not in the conflict
            side = invoker.side
            if side not in paid:
                raise ConflictError(
                    f"{inv.by} is neither on the attacker's side nor on the defender's: "
                    "an invoke here helps one of the two rolls"
                )
            if not invoker.in_conflict:
                raise ConflictError(f"{inv.by} is no longer in the conflict")
            aspect = next((a for a in now.aspects if a.name == inv.aspect), None)
            if aspect is None:
                raise UnknownName(f'no aspect "{inv.aspect}" in play')
            if inv.effect == "reroll":
                if inv.faces is None:
                    raise RuleError("a reroll needs the new dice")
                check_faces(DiceKind.FATE, inv.faces)
            elif inv.effect != "+2":
                raise RuleError(f'an invoke here gives "+2" or "reroll", not "{inv.effect}"')
            holder = next((p for p in now.participants if p.name == inv.by), None)
            paid_by, paid_to = invoke_payment(
                aspect,
                side,
                inv.by,
                0 if holder is None else holder.fate_points,
                inv.free,
                inv.pool,
                now.npcs,
                now.gm_pool,
                "this roll (one paid invoke per aspect per roll)"
                if not inv.free and aspect.name in paid[side]
                else None,
            )
            if not inv.free:
                paid[side].add(aspect.name)
            event = AspectInvoked(
                invoke=InvokeRecord(
                    by=inv.by,
                    by_side=side,
                    side=side,
                    aspect=aspect.name,
                    free=inv.free,
                    effect=inv.effect,
                    faces=inv.faces if inv.effect == "reroll" else None,
                    pool=inv.pool,
                ),
                paid_by=paid_by,
                paid_to=paid_to,
                bonus=2 if inv.effect == "+2" else 0,
                boost_used=inv.free and aspect.boost,
            )
            events.append(event)
            now = _invoked(now, event)
        return tuple(events), paid

    @staticmethod
    def _waiting(c: FateConflict, who: str) -> Hit:
        if c.hit is None:
            raise OutOfTurn("no hit is waiting to be absorbed")
        if c.hit.target != who:
            raise OutOfTurn(f"the hit waiting is on {c.hit.target}, not {who}")
        return c.hit

    def _absorb(self, c: FateConflict, cmd: Absorb) -> tuple[Event, ...]:
        hit = self._waiting(c, cmd.who)
        options = c.conflict.options
        target = c.conflict.combatant(cmd.who)
        names = tuple(n.strip() for n in cmd.names)
        for name in names:  # case and spacing aside, as every new aspect's name
            if (same := aspect_like(c.aspects, name)) is not None:
                raise RuleError(f'"{same.name}" is already in play: name the consequence otherwise')
        if len({aspect_key(n) for n in names}) != len(names):
            raise RuleError("each consequence has its own name (case aside)")
        absorb(
            target, cmd.absorption, hit.shifts, names, c.conflict.combatant(hit.by).side, options
        )
        track = target.track(cmd.absorption.track)
        event = AttackResolved(
            n=c.n + 1,
            exchange=c.conflict.exchange,
            attack=hit.attack,
            absorption=cmd.absorption,
            boxes=tuple(track.boxes[i].value for i in cmd.absorption.boxes),
            consequences=tuple(
                (target.slots[i].severity, name)
                for i, name in zip(cmd.absorption.slots, names, strict=True)
            ),
        )
        return self._and_maybe_end(c, event)

    def _concede(self, c: FateConflict, who: str) -> tuple[Event, ...]:
        if c.hit is not None and c.hit.target == who:
            raise OutOfTurn(
                f"the roll against {who} is made: absorb the hit or be taken out "
                "(a concession comes before the roll)"
            )
        self._no_hit_waiting(c)
        combatant = c.conflict.combatant(who)
        if not combatant.in_conflict:
            raise ConflictError(f"{who} is no longer in the conflict")
        event = Conceded(
            n=c.n + 1,
            exchange=c.conflict.exchange,
            who=who,
            points=concession_points(combatant),
        )
        return self._and_maybe_end(c, event)

    def _and_maybe_end(self, c: FateConflict, event: ConflictAction) -> tuple[Event, ...]:
        after = self.evolve(c, event)
        assert isinstance(after, FateConflict)
        if is_over(after.conflict):
            return event, self._ended(
                after, "conceded" if isinstance(event, Conceded) else "taken out"
            )
        return (event,)

    @staticmethod
    def _ended(c: FateConflict, how: str) -> ConflictEnded:
        paid = {x.name: concession_points(x) for x in c.conflict.combatants if x.conceded}
        owed = {name: n for name, n in c.owed.items() if n}
        return ConflictEnded(winner=winner(c.conflict), ended_by=how, paid=paid, owed=owed)

    # -- evolve ---------------------------------------------------------------------------
    def evolve(self, contest: Contest, event: Event) -> Contest:
        c = own(contest, FateConflict)
        match event:
            case TurnOrderSet():
                whose = c.turn
                combatants = ordered(c.conflict.combatants, event.order)
                turn = event.order.index(whose)
                return replace(c, conflict=replace(c.conflict, combatants=combatants, turn=turn))
            case AspectInvoked():
                return _invoked(c, event)
            case AttackRolled():
                return replace(c, hit=event.hit)
            case AttackResolved():
                return _next(_settled(c, event), event.n)
            case Conceded():
                conflict = concede(c.conflict, event.who)
                after = replace(c, conflict=conflict, n=event.n)
                if c.turn == event.who:
                    return _advance(after)
                return after
            case FullDefenseTaken():
                return _next(replace(c, defending=c.defending | {event.who}), event.n)
            case TurnTaken():
                return _next(c, event.n)
            case ConflictEnded():
                participants = tuple(
                    replace(
                        p,
                        fate_points=p.fate_points
                        + event.paid.get(p.name, 0)
                        + event.owed.get(p.name, 0),
                    )
                    for p in c.participants
                )
                return replace(
                    c,
                    conflict=end_conflict(c.conflict),
                    participants=participants,
                    owed={},
                    hit=None,
                    defending=frozenset(),
                    finished=True,
                    winner=event.winner,
                    ended_by=event.ended_by,
                )
        raise TypeError(f"{type(event).__name__} is not a Fate conflict's event")

    # -- what generic code asks -----------------------------------------------------------
    def rollers(self, contest: Contest) -> list[str]:
        return []  # a conflict's dice come with its attacks, not an exchange's rolls

    def tally(self, contest: Contest) -> tuple[dict[str, int], str] | None:
        """Each side's count of participants still in the conflict."""
        c = own(contest, FateConflict)
        standing = {side: 0 for side in c.sides}
        for x in c.conflict.combatants:
            if x.in_conflict:
                standing[x.side] += 1
        return standing, "still in"

    def aspects(self, contest: Contest) -> tuple[str, ...]:
        return tuple(a.name for a in own(contest, FateConflict).aspects)

    def situation(self, contest: Contest) -> tuple[str, ...]:
        return tuple(a.name for a in own(contest, FateConflict).aspects if a.owner is None)

    def points(self, contest: Contest, who: str) -> tuple[int, str] | None:
        c = own(contest, FateConflict)
        for p in c.participants:
            if p.name == who:
                return p.fate_points, "fate points"
        raise UnknownName(f'no participant "{who}"')

    def named_aspects(self, event: ExchangeEvent) -> Iterator[str]:
        if isinstance(event, AttackResolved):
            if event.attack.boost:
                yield event.attack.boost
            yield from (name for _, name in event.consequences)
            yield from (i.aspect for i in (*event.attack.invokes, *event.attack.defense_invokes))

    def private_aspects(self, contest: Contest, who: str) -> Iterator[str]:
        """``who``'s consequences (SRD, Consequences): the harm a hidden participant took
        is theirs to keep from the players, as their stress boxes are."""
        c = own(contest, FateConflict)
        for x in c.conflict.combatants:
            if x.name == who:
                yield from (s.aspect for s in x.slots if s.aspect is not None)

    def spent(self, event: Event) -> Iterator[tuple[str, str, int]]:
        """The fate points an attack's invokes spent (a free invoke spends none)."""
        if isinstance(event, AttackResolved):
            for invoke in (*event.attack.invokes, *event.attack.defense_invokes):
                if invoke.pool:
                    yield invoke.by, "fate points from the GM's pool", 1
                elif not invoke.free:
                    yield invoke.by, "fate points", 1

    def created(self, event: ExchangeEvent) -> Iterator[tuple[str, str]]:
        if isinstance(event, AttackResolved):
            if event.attack.boost:
                yield event.attack.boost, f"{event.attack.boost} (boost)"
            for severity, name in event.consequences:
                yield name, f"{name} ({severity} consequence of {event.attack.target})"

    def final_json(self, contest: Contest) -> JSON:
        c = own(contest, FateConflict)
        return {
            "winner": c.winner,
            "ended_by": c.ended_by,
            "fate_points": {p.name: p.fate_points for p in c.participants},
            "taken_out": [x.name for x in c.conflict.combatants if x.taken_out],
            "conceded": [x.name for x in c.conflict.combatants if x.conceded],
            "consequences": {
                x.name: [
                    {"severity": s.severity, "aspect": s.aspect, "holder": s.holder}
                    for s in x.slots
                    if s.aspect is not None
                ]
                for x in c.conflict.combatants
            },
            "aspects": [
                {"name": a.name, "free_invokes": a.free_invokes, "holder": a.holder}
                for a in c.aspects
            ],
        }

    def exchange_json(self, event: ExchangeEvent) -> JSON:
        out: JSON = {"n": event.n, "exchange": _action(event).exchange}
        match event:
            case AttackResolved():
                a = event.attack
                out.update(
                    {
                        "attack": {
                            "by": a.by,
                            "target": a.target,
                            "skill": a.skill,
                            "dice": fate_glyphs(a.faces),
                            "total": a.total,
                            "defense": a.defense,
                            "defense_dice": fate_glyphs(a.defense_faces),
                            "defense_total": a.defense_total,
                            "full_defense": a.full_defense,
                            "outcome": a.result.outcome,
                            "shifts": a.result.shifts,
                            "boost": a.boost,
                            "invokes": [_invoke_json(i) for i in a.invokes],
                            "defense_invokes": [_invoke_json(i) for i in a.defense_invokes],
                        },
                        "track": a.track,
                        "boxes": list(event.boxes),
                        "consequences": [
                            {"severity": s, "aspect": n} for s, n in event.consequences
                        ],
                        "taken_out": event.taken_out,
                    }
                )
            case Conceded():
                out.update({"conceded": event.who, "points": event.points})
            case FullDefenseTaken():
                out["full_defense"] = event.who
            case TurnTaken():
                out.update({"turn": event.who, "what": event.what})
        return out

    def exchange_of(self, event: ExchangeEvent) -> int:
        """The conflict's exchange the action was played in (its log's ``n`` counts
        the actions)."""
        return _action(event).exchange

    def describe(self, event: ExchangeEvent, secrets: Secrets = NO_SECRETS) -> list[str]:
        return render_all(self.lines(event), secrets)

    def recap(
        self, contest: Contest, exchanges: Sequence[ExchangeEvent], secrets: Secrets = NO_SECRETS
    ) -> list[str]:
        """Each participant's harm, SRD "Stress", "Consequences", "Conceding": each hit
        (by whom, its shifts, the box and consequences that absorbed it, or taken out),
        and a concession with the fate points it pays; nobody hit: "unhurt". A hidden
        participant's shifts, boxes and points are ``??``; a hidden aspect's name too."""
        c = own(contest, FateConflict)
        lines: list[list[str | Part]] = []
        for p in c.participants:
            parts: list[str | Part] = []
            for event in exchanges:
                if isinstance(event, AttackResolved) and event.attack.target == p.name:
                    a = event.attack
                    if a.result.shifts <= 0:
                        continue
                    said: list[str | Part] = [
                        f"hit by {a.by} for ",
                        secret(a.result.shifts, a.by, a.target),
                        f" {track_label(a.track).lower()} shifts: ",
                    ]
                    if event.taken_out:
                        said.append("taken out")
                    else:
                        took: list[list[str | Part]] = [
                            ["the ", secret(v, a.target), "-box"] for v in event.boxes
                        ]
                        took += [
                            [secret(f"a {sev}", a.target, mask="a ??"), " (", aspect_name(n), ")"]
                            for sev, n in event.consequences
                        ]
                        for i, t in enumerate(took):
                            said += ([" and "] if i else []) + t
                        if not took:
                            said.append("nothing to absorb")
                    parts += (["; "] if parts else []) + said
                elif isinstance(event, Conceded) and event.who == p.name:
                    plural = "s" if event.points != 1 else ""
                    paid = f"{event.points} fate point{plural}"
                    parts += (["; "] if parts else []) + [
                        "conceded: ",
                        secret(paid, p.name, mask="?? fate points"),
                    ]
            lines.append([f"{p.name}: ", *(parts or ["unhurt"])])
        return ["Harm:", *render_all(lines, secrets)]

    def lines(self, event: ExchangeEvent) -> list[list[str | Part]]:
        """One action of the conflict, for the log: an attack's roll against its
        defense and what the hit did; a concession and what it will pay; a full defense;
        another action. A hidden side's dice and totals stay behind the GM's screen."""
        head = f"Exchange {_action(event).exchange}: "
        match event:
            case AttackResolved():
                a = event.attack
                result = a.result
                lines: list[list[str | Part]] = [
                    [head, f"{a.by} attacks {a.target}, ", *_told(event)]
                ]
                lines.append(
                    _roll_line(
                        a.by, a.skill, a.rating, a.faces, a.bonus + plus_two(a.invokes), a.total
                    )
                )
                lines.extend(_invoke_line(inv) for inv in a.invokes)
                lines.append(
                    _roll_line(
                        a.target,
                        a.defense,
                        a.defense_rating,
                        a.defense_faces,
                        a.defense_bonus
                        + (2 if a.full_defense else 0)
                        + plus_two(a.defense_invokes),
                        a.defense_total,
                    )
                )
                lines.extend(_invoke_line(inv) for inv in a.defense_invokes)
                if a.boost:
                    lines.append(["  boost: ", aspect_name(a.boost)])
                if result.shifts > 0 and not event.taken_out:
                    for severity, name in event.consequences:
                        lines.append(
                            [
                                f"  {a.target} takes ",
                                secret(f"a {severity}", a.target, mask="a ??"),
                                " consequence: ",
                                aspect_name(name),
                            ]
                        )
                return lines
            case Conceded():
                plural = "s" if event.points != 1 else ""
                points = secret(
                    f"{event.points} fate point{plural}", event.who, mask="?? fate points"
                )
                return [[head, f"{event.who} concedes (", points, " at the end)"]]
            case FullDefenseTaken():
                return [[head, f"{event.who} goes on full defense (+2 to defend)"]]
            case TurnTaken():
                what = f": {event.what}" if event.what else ""
                return [[head, f"{event.who} acts{what}"]]
        raise TypeError(f"{type(event).__name__} is not a Fate conflict's action")


def shifts(n: int) -> str:
    """``a 2-shift``, ``an 8-shift``, ``an 11-shift``."""
    article = "an" if str(n).startswith("8") or n in (11, 18) else "a"
    return f"{article} {n}-shift"


def _action(event: ExchangeEvent) -> ConflictAction:
    if not isinstance(event, ConflictAction):
        raise TypeError(f"{type(event).__name__} is not a Fate conflict's action")
    return event


def _told(event: AttackResolved) -> list[str | Part]:
    """What an attack did, with the numbers a hidden participant keeps from the players:
    the shifts (the difference of the totals: the attacker's and the target's secret,
    its article included, "an 8-shift", and "with style", which tells 3 or more), the
    boxes the target checked."""
    a = event.attack
    r = a.result
    track = track_label(a.track).lower()
    if r.outcome == "fail":
        return ["misses"]
    if r.outcome == "tie":
        return ["ties: no harm"]
    size = shifts(r.shifts).removesuffix("-shift")
    hit: list[str | Part] = [secret(size, a.by, a.target, mask="a ??"), f"-shift {track} hit"]
    if r.outcome == "style":  # 3 shifts or more: as secret as the shifts themselves
        hit.append(secret(" with style", a.by, a.target, mask=""))
    if event.taken_out:
        return [*hit, ": taken out"]
    took: list[list[str | Part]] = []
    for v in event.boxes:
        took.append(["the ", secret(v, a.target), "-box"])
    for severity, _ in event.consequences:
        took.append([secret(f"a {severity}", a.target, mask="a ??")])
    told: list[str | Part] = [*hit, ": "]
    for i, part in enumerate(took):
        told += [" and ", *part] if i else part
    return told if took else [*told, "nothing to absorb"]


def _roll_line(
    who: str, skill: str, rating: int, faces: tuple[int, ...], bonus: int, total: int
) -> list[str | Part]:
    extra = f" {bonus:+d}" if bonus else ""
    return [
        f"  {who} ({skill}): ",
        side_secret(fate_glyphs(faces), who),
        extra,
        " → ",
        side_secret(ladder_with_value(total), who),
    ]


def _invoke_json(inv: InvokeRecord) -> JSON:
    out: JSON = {"by": inv.by, "aspect": inv.aspect, "effect": inv.effect}
    out["paid"] = "free" if inv.free else "pool" if inv.pool else "fate point"
    if inv.faces is not None:
        out["dice"] = fate_glyphs(inv.faces)
    return out


def _invoke_line(inv: InvokeRecord) -> list[str | Part]:
    """``    Cynere invokes Muddy Ground (1 FP): +2`` (a reroll: its new dice), under
    the roll it changed."""
    how = "free" if inv.free else "GM's pool" if inv.pool else "1 FP"
    what: list[str | Part] = ["+2"]
    if inv.effect == "reroll" and inv.faces is not None:
        what = ["reroll ", side_secret(fate_glyphs(inv.faces), inv.by)]
    return [f"    {inv.by} invokes ", aspect_name(inv.aspect), f" ({how}): ", *what]


def _names(c: FateConflict) -> tuple[str, ...]:
    return tuple(x.name for x in c.conflict.combatants)


def _settled(c: FateConflict, event: AttackResolved) -> FateConflict:
    """The conflict after an attack settled: the target's boxes and slots, or taken out;
    each consequence a new aspect, its free invoke for the attacker's side (its owner
    the target); a boost for whoever gained it."""
    a = event.attack
    conflict = c.conflict
    aspects = list(c.aspects)
    target = conflict.combatant(a.target)
    by_side = conflict.combatant(a.by).side
    if event.taken_out:
        conflict = conflict.with_combatant(take_out(target))
    elif event.absorption is not None:
        names = tuple(name for _, name in event.consequences)
        after = absorb(target, event.absorption, a.result.shifts, names, by_side, conflict.options)
        conflict = conflict.with_combatant(after)
        aspects += [Aspect(name=n, free_invokes=1, holder=by_side, owner=a.target) for n in names]
    if a.boost:
        gainer = by_side if a.result.attacker_boost else target.side
        aspects.append(Aspect(name=a.boost, free_invokes=1, holder=gainer, boost=True))
    return replace(c, conflict=conflict, aspects=tuple(aspects), hit=None)


def _invoked(c: FateConflict, event: AspectInvoked) -> FateConflict:
    """An invoke paid: a free invoke spent (on the aspect, and on the consequence slot
    it is written in, so the roster keeps the count), a boost gone once used; a fate
    point from the invoker or the GM's pool; one owed to the aspect's owner."""
    inv = event.invoke
    aspects: list[Aspect] = []
    for a in c.aspects:
        if a.name == inv.aspect and inv.free:
            if event.boost_used:
                continue
            a = replace(a, free_invokes=a.free_invokes - 1)
        aspects.append(a)
    conflict = c.conflict
    if inv.free:
        for x in conflict.combatants:
            if any(s.aspect == inv.aspect and s.free_invokes > 0 for s in x.slots):
                slots = tuple(
                    replace(s, free_invokes=s.free_invokes - 1) if s.aspect == inv.aspect else s
                    for s in x.slots
                )
                conflict = conflict.with_combatant(replace(x, slots=slots))
    participants = tuple(
        replace(p, fate_points=p.fate_points - 1) if p.name == event.paid_by else p
        for p in c.participants
    )
    owed = dict(c.owed)
    if event.paid_to is not None:
        owed[event.paid_to] = owed.get(event.paid_to, 0) + 1
    return replace(
        c,
        aspects=tuple(aspects),
        conflict=conflict,
        participants=participants,
        owed=owed,
        gm_pool=c.gm_pool - 1 if inv.pool else c.gm_pool,
    )


def _next(c: FateConflict, n: int) -> FateConflict:
    return _advance(replace(c, n=n))


def _advance(c: FateConflict) -> FateConflict:
    """The turn to the next participant still in; a new exchange clears full defense."""
    if len(sides_left(c.conflict)) < 2:
        return c
    conflict = next_turn(c.conflict)
    defending = c.defending if conflict.exchange == c.conflict.exchange else frozenset()
    return replace(c, conflict=conflict, defending=defending)


CONFLICT = ConflictRules()


__all__ = [
    "CONFLICT",
    "Absorb",
    "Attack",
    "AttackResolved",
    "AttackRolled",
    "Concede",
    "Conceded",
    "ConflictEnded",
    "ConflictInvoke",
    "ConflictRules",
    "EndConflict",
    "FateConflict",
    "FullDefense",
    "FullDefenseTaken",
    "SetTurnOrder",
    "TakeOut",
    "TakeTurn",
    "TurnOrderSet",
    "TurnTaken",
    "new_conflict",
]
