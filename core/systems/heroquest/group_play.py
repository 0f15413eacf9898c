"""A HeroQuest group extended contest played through the engine (issue 29 item 1).

The rules are ``group_extended``'s pure functions; this module makes them a contest the
engine plays, the log keeps and ``tussle resolve`` reads: :class:`HQGroupContest` (an
``HQContest`` holding the ``GroupContest`` and the coming exchange's declared aims), its
commands and events, and what the rules' ``decide`` and ``evolve`` ask of it
(``HQContest.decide_variant``, ``evolve_variant``).

A round plays each open engagement's exchange in the engagements' order. The coming
exchange is the first engagement still to play this round (the *current pairing*): its
two parties roll, take modifiers, augments, hero points (one per exchange), stretches,
risky gambits and defensive responses exactly as in an extended contest (the rules'
commands, unchanged), and may declare another aim than winning (:class:`DeclareAim`:
disengage, or an asymmetrical "other"). ``ResolveExchange`` plays it through
``group_extended.resolve_exchange``; once every engagement has had its exchange, the next
round begins. Between exchanges: engaging (:class:`Engage`), an assist
(:class:`Assist`), a parting shot (:class:`PartingShot`), removing a follower
(:class:`RemoveFollower`), each a simple contest of its own logged as an exchange, and a
group boost for the round (the rules' ``Boost``). Every event keeps what its pure
function needs, and ``evolve`` runs that function again: one truth for the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import msgspec
from msgspec.structs import replace

from core.dice import DiceKind, check_faces
from core.errors import OutOfTurn, RuleError
from core.limits import Count, Int
from core.model import Command, Contest, ContestEnded, Event, ResolveExchange
from core.redact import Part, secret
from core.rules.base import JSON, RuleSystem
from core.systems.heroquest.automatic import RuleAutomatic
from core.systems.heroquest.events import Boost, Leave, OwnExchange, SetPairs, SetParties
from core.systems.heroquest.group_extended import (
    Aim,
    GroupContest,
    GroupMember,
    GroupRules,
    Move,
    Role,
    apply_exchange,
    assist,
    assist_resistance,
    buy_boost,
    consequences,
    engage,
    exchange_targets,
    new_group_contest,
    next_round,
    parting_shot,
    pending,
    remove_follower,
    resolve_exchange,
    total_against,
)
from core.systems.heroquest.ratings import format_rating
from core.systems.heroquest.resolution import LEVELS, VICTORIES, Outcome
from core.systems.heroquest.state import HQContest, HQOptions, HQParticipant, OpenExchange

CODEC_TAG = "heroquest"  # saved as "heroquest.HQGroupContest"..., beside the contest's


class HQGroupContest(HQContest):
    """A group extended contest: the ``GroupContest`` (engagements, round, who is out)
    and the aims declared for the coming exchange (a party not declared tries to win)."""

    group_state: GroupContest = msgspec.field(default_factory=lambda: GroupContest(members=()))
    aims: Mapping[str, Aim] = msgspec.field(default_factory=dict)

    @property
    def current(self) -> int | None:
        """The engagement whose exchange comes next (None: nobody engaged to play)."""
        todo = pending(self.group_state)
        return todo[0] if todo else None

    @property
    def pairing(self) -> tuple[str, str] | None:
        index = self.current
        if index is None:
            return None
        e = self.group_state.engagements[index]
        return e.a, e.b

    @property
    def parties(self) -> tuple[str, ...]:
        if self.open.kind == "simple":
            return self.open.parties
        return self.pairing or ()

    def move(self, name: str) -> Move:
        """``name``'s move in the coming exchange, from what is entered."""
        o = self.open
        bonus = sum(a.bonus for a in o.augments if a.recipient == name)
        return Move(
            roll=o.rolls.get(name),
            modifier=o.modifiers.get(name, 0) + bonus,
            hero_points=o.hero_points.get(name, 0),
            aim=self.aims.get(name, "win"),
            gambit=name in o.gambits,
            defensive=name in o.defensive,
            stretched=name in o.stretched,
        )

    def target(self, name: str) -> int:
        """``name``'s target in the coming exchange: the pure rules' (rating, vitality,
        condition, modifiers, stretch, the multiple-opponent penalty)."""
        index = self.current
        if index is None or name not in self.parties:
            return super().target(name)
        e = self.group_state.engagements[index]
        ta, tb = exchange_targets(self.group_state, index, self.move(e.a), self.move(e.b))
        return ta if name == e.a else tb

    def extended_result(self) -> tuple[int, dict[str, str]] | None:
        if not self.finished:
            return None
        found = consequences(self.group_state)
        level = max(found.victories.values(), default=0)
        return level, {n: ", ".join(s) for n, s in found.states.items()}

    def decide_variant(self, rules: RuleSystem, command: Any) -> tuple[Event, ...] | None:
        return _decide(self, command)

    def evolve_variant(self, rules: RuleSystem, event: Event) -> Contest | None:
        return _evolve(self, event)

    def final_variant(self) -> JSON | None:
        group = self.group_state
        found = consequences(group) if self.finished else None
        return {
            "hero_points": {p.name: self.hero_points_left[p.name] for p in self.participants},
            "rounds": group.round,
            "status": {m.name: m.status for m in group.members},
            "against": {m.name: total_against(group, m.name) for m in group.members},
            "victories": None
            if found is None
            else {n: VICTORIES[lv] for n, lv in found.victories.items()},
            "consequences": None
            if found is None
            else {n: list(s) for n, s in found.states.items()},
            "ended_by": self.ended_by,
        }


def new_group(
    participants: Sequence[HQParticipant],
    options: HQOptions,
    pairs: Sequence[tuple[str, str]] = (),
    followers: Mapping[str, tuple[Role, str]] | None = None,
) -> HQGroupContest:
    """A group extended contest before its first round, with its first pairings;
    ``followers``: a follower's role and leader by name (the rest are characters)."""
    roles = followers or {}
    members = [
        GroupMember(
            name=p.name,
            side=p.side,
            rating=p.rating,
            vitality=p.vitality,
            condition=p.condition,
            bumps_down=p.bumps_down,
            hero_points=p.hero_points,
            role=roles[p.name][0] if p.name in roles else "character",
            leader=roles[p.name][1] if p.name in roles else None,
        )
        for p in participants
    ]
    rules = GroupRules(consequences=options.consequences, tie_break=options.tie_break)
    group = new_group_contest(members, pairs, rules)
    opts = replace(options, group_extended=True, extended=True, chained=False)
    contest = HQGroupContest(participants=tuple(participants), options=opts, group_state=group)
    return replace(
        contest,
        hero_points_left={p.name: p.hero_points for p in participants},
        resolution_points={side: 0 for side in contest.sides},
        last_parties=contest.pairing or (),
    )


# -- commands -----------------------------------------------------------------------------


class Engage(Command):
    """``a`` engages ``b``: a new pairing at the end of the round's order (or their old
    engagement resumed)."""

    a: str
    b: str


class DeclareAim(Command):
    """``who`` tries something else than winning the coming exchange: "disengage", or
    "other" (an asymmetrical exchange: a win scores nothing)."""

    before_rolls: ClassVar[bool] = True

    who: str
    aim: Aim = "disengage"


class Assist(Command):
    """``helper``, not engaged, assists ``beneficiary`` in its engagement against
    ``against`` (default: its current pairing's, else its first): the helper's roll
    against the assist resistance's (``resistance``: default the escalating class)."""

    helper: str
    beneficiary: str
    roll: Int | None
    resistance_roll: Int | None
    against: str | None = None
    resistance: Int | None = None
    modifier: Int = 0


class PartingShot(Command):
    """``shooter`` takes a parting shot at ``target``, out since last round."""

    shooter: str
    target: str
    roll: Int | None
    defence_roll: Int | None
    modifier: Int = 0


class RemoveFollower(Command):
    """An unengaged ``attacker`` tries to remove ``follower`` from the scene."""

    attacker: str
    follower: str
    roll: Int | None
    defence_roll: Int | None
    modifier: Int = 0


# -- events -------------------------------------------------------------------------------


class Engaged(Event):
    a: str
    b: str


class AimDeclared(Event):
    who: str
    aim: Aim


class RoundBoosted(Event):
    side: str
    paid: tuple[tuple[str, Int], ...]
    double: bool = False


def _outcome_words(out: Outcome, a: str, b: str, points: int | None = None) -> str:
    if out.winner is None:
        return "tie"
    winner = a if out.winner == "a" else b
    rp = "" if points is None else f" ({points} RP)"
    return f"{winner} wins, {VICTORIES[out.victory]}{rp}"


def _level(out: Outcome, i: int) -> str:
    return LEVELS[out.levels[i]]


class EngagementResolved(OwnExchange):
    """One pairing's exchange in a round: the moves as played (what ``evolve`` runs
    ``apply_exchange`` with), the targets, the outcome, the points lodged, the score of
    the engagement after it, who was taken out and who disengaged."""

    round: Int
    engagement: Count
    a: str
    b: str
    move_a: Move
    move_b: Move
    targets: tuple[Int, Int]
    outcome: Outcome
    points: Count
    score: tuple[Count, Count]  # points against a, against b, after the exchange
    out: tuple[str, ...] = ()
    disengaged: str | None = None
    augments: tuple[tuple[str, Int], ...] = ()  # (kept for what was saved with it)
    presets: Mapping[str, str] = msgspec.field(default_factory=dict)  # modifiers by name

    def lines(self) -> list[list[str | Part]]:
        a, b = self.a, self.b
        out: list[list[str | Part]] = [
            [
                f"Exchange {self.n}, round {self.round}: {a} v {b}: "
                + _outcome_words(self.outcome, a, b, self.points)
            ]
        ]
        for i, (name, move) in enumerate(((a, self.move_a), (b, self.move_b))):
            target = self.targets[i]
            if target <= 0:
                out.append([f"  {name}: ", secret(f"vs {format_rating(target)}, no roll", name)])
            else:
                out.append(
                    [
                        f"  {name}: ",
                        secret(move.roll, name),
                        " vs ",
                        secret(format_rating(target), name),
                        f", {_level(self.outcome, i)}",
                    ]
                )
        for name, label in self.presets.items():
            out.append([f"  {name}: ", secret(label, name)])
        for name, move in ((a, self.move_a), (b, self.move_b)):
            if move.aim == "disengage":
                out.append([f"  {name} tries to disengage: a win scores nothing"])
            elif move.aim == "other":
                out.append([f"  {name} tries something else: a win scores nothing"])
            if move.gambit:
                out.append([f"  {name} makes a risky gambit"])
            if move.defensive:
                out.append([f"  {name} responds defensively"])
            if move.hero_points:
                out.append([f"  {name} spends a hero point"])
            if move.stretched:
                out.append([f"  {name} stretches: −6, victory at most minor"])
        out.append([f"  Against: {a} {self.score[0]}, {b} {self.score[1]}"])
        for name in self.out:
            out.append([f"  {name} is out of the contest"])
        if self.disengaged:
            out.append([f"  {self.disengaged} disengages"])
        return out

    def as_json(self) -> JSON:
        return {
            "n": self.n,
            "round": self.round,
            "pairing": [self.a, self.b],
            "targets": {
                self.a: format_rating(self.targets[0]),
                self.b: format_rating(self.targets[1]),
            },
            "rolls": {self.a: self.move_a.roll, self.b: self.move_b.roll},
            "levels": {self.a: _level(self.outcome, 0), self.b: _level(self.outcome, 1)},
            "winner": None
            if self.outcome.winner is None
            else (self.a if self.outcome.winner == "a" else self.b),
            "victory": VICTORIES[self.outcome.victory],
            "resolution_points": self.points,
            "against": {self.a: self.score[0], self.b: self.score[1]},
            "out": list(self.out),
            "disengaged": self.disengaged,
        }


class SideContest(OwnExchange):
    """A simple contest between exchanges: an assist, a parting shot, a follower's
    removal. ``command`` is what was asked (``evolve`` plays it again)."""

    kind: Literal["assist", "parting shot", "removal"]
    command: Assist | PartingShot | RemoveFollower
    round: Int
    parties: tuple[str, str]
    targets: tuple[Int, Int]
    outcome: Outcome
    change: Int = 0  # an assist's change to the score against its beneficiary

    def lines(self) -> list[list[str | Part]]:
        a, b = self.parties
        c = self.command
        match c:
            case Assist():
                head = f"{c.helper} assists {c.beneficiary}"
                effect = f"{self.change:+d} against {c.beneficiary}"
            case PartingShot():
                head = f"{c.shooter}'s parting shot at {c.target}"
                effect = _outcome_words(self.outcome, a, b)
            case RemoveFollower():
                head = f"{c.attacker} tries to remove {c.follower}"
                effect = _outcome_words(self.outcome, a, b)
        return [
            [f"Exchange {self.n}, round {self.round}: {head}: {effect}"],
            [f"  {a} vs {format_rating(self.targets[0])}, {_level(self.outcome, 0)}"],
            [f"  {b} vs {format_rating(self.targets[1])}, {_level(self.outcome, 1)}"],
        ]

    def as_json(self) -> JSON:
        a, b = self.parties
        out: JSON = {
            "n": self.n,
            "round": self.round,
            "kind": self.kind,
            "parties": [a, b],
            "targets": {a: format_rating(self.targets[0]), b: format_rating(self.targets[1])},
            "levels": {a: _level(self.outcome, 0), b: _level(self.outcome, 1)},
            "winner": None
            if self.outcome.winner is None
            else (a if self.outcome.winner == "a" else b),
            "victory": VICTORIES[self.outcome.victory],
        }
        if self.kind == "assist":
            out["change"] = self.change
        return out


# -- decide -------------------------------------------------------------------------------

_NOT_HERE = (SetParties, SetPairs, Leave, RuleAutomatic)


def _decide(c: HQGroupContest, command: Any) -> tuple[Event, ...] | None:
    between = not c.open.kind and not c.aims
    match command:
        case Engage():
            if not between:
                raise OutOfTurn("engage between exchanges, not during one")
            a, b = c.named(command.a).name, c.named(command.b).name
            engage(c.group_state, a, b)  # the rules' refusal, if any
            return (Engaged(a=a, b=b),)
        case DeclareAim():
            pairing = c.pairing
            who = c.named(command.who).name
            if pairing is None or who not in pairing:
                raise RuleError(f"{who} is not a party to the coming exchange")
            other = pairing[1] if who == pairing[0] else pairing[0]
            if command.aim != "win" and c.aims.get(other, "win") != "win":
                raise RuleError("at least one party tries to win the exchange")
            return (AimDeclared(who=who, aim=command.aim),)
        case Assist() | PartingShot() | RemoveFollower():
            if not between:
                raise OutOfTurn("this is a contest of its own: between exchanges")
            second = (
                command.resistance_roll if isinstance(command, Assist) else command.defence_roll
            )
            for roll in (command.roll, second):
                if roll is not None:
                    check_faces(DiceKind.D20, (roll,))  # a d20 shows 1 to 20
            return _side_contest(c, command)
        case Boost():
            paid = {c.named(n).name: k for n, k in command.paid}
            buy_boost(c.group_state, command.side, paid, command.double)
            return (
                RoundBoosted(side=command.side, paid=tuple(paid.items()), double=command.double),
            )
        case ResolveExchange():
            return _resolve(c)
        case _ if isinstance(command, _NOT_HERE):
            raise RuleError(
                "a group extended contest is played by its pairings: engage (and disengage) instead"
            )
    if c.pairing is None:
        raise OutOfTurn("nobody is engaged: engage a pairing first")
    return None  # the rules' own (rolls, modifiers, hero points, gambits...)


def _resolve(c: HQGroupContest) -> tuple[Event, ...]:
    index = c.current
    if index is None or c.open.kind != "simple":
        raise OutOfTurn("nothing to resolve yet: roll first")
    e = c.group_state.engagements[index]
    a, b = c.move(e.a), c.move(e.b)
    after, report = resolve_exchange(c.group_state, index, a, b)
    done = EngagementResolved(
        n=c.n + 1,
        round=c.group_state.round,
        engagement=index,
        a=e.a,
        b=e.b,
        move_a=a,
        move_b=b,
        targets=report.targets,
        outcome=report.outcome,
        points=report.points,
        score=(after.engagements[index].against_a, after.engagements[index].against_b)
        if index < len(after.engagements)
        else (0, 0),
        out=report.out,
        disengaged=report.disengaged,
        presets=c.open.modifier_labels,
    )
    return (done, *_ending(after))


def _ending(group: GroupContest) -> tuple[Event, ...]:
    if group.finished:
        return (ContestEnded(winner=group.winner, ended_by="group"),)
    return ()


def _side_contest(
    c: HQGroupContest, cmd: Assist | PartingShot | RemoveFollower
) -> tuple[Event, ...]:
    group, out, parties, targets, change = _play_side(c.group_state, cmd)
    kind: Literal["assist", "parting shot", "removal"] = (
        "assist"
        if isinstance(cmd, Assist)
        else "parting shot"
        if isinstance(cmd, PartingShot)
        else "removal"
    )
    done = SideContest(
        n=c.n + 1,
        kind=kind,
        command=cmd,
        round=c.group_state.round,
        parties=parties,
        targets=targets,
        outcome=out,
        change=change,
    )
    return (done, *_ending(group))


def _play_side(
    group: GroupContest, cmd: Assist | PartingShot | RemoveFollower
) -> tuple[GroupContest, Outcome, tuple[str, str], tuple[int, int], int]:
    """The side contest played on ``group``: the group after it, the outcome, the two
    parties, their targets, an assist's change to the score."""
    from core.systems.heroquest.group_extended import _plain_target

    match cmd:
        case Assist():
            index = _assisted(group, cmd)
            before = group.engagements[index].against(cmd.beneficiary)
            resistance = (
                assist_resistance(group, cmd.beneficiary)
                if cmd.resistance is None
                else cmd.resistance
            )
            move = Move(roll=cmd.roll, modifier=cmd.modifier)
            after, out = assist(
                group, cmd.helper, cmd.beneficiary, index, move, cmd.resistance_roll, resistance
            )
            change = after.engagements[index].against(cmd.beneficiary) - before
            target = _plain_target(group, cmd.helper, move)
            return after, out, (cmd.helper, "resistance"), (target, resistance), change
        case PartingShot():
            shot = Move(roll=cmd.roll, modifier=cmd.modifier)
            defence = Move(roll=cmd.defence_roll)
            after, out = parting_shot(group, cmd.shooter, cmd.target, shot, defence)
            targets = (
                _plain_target(group, cmd.shooter, shot),
                _plain_target(group, cmd.target, defence),
            )
            return after, out, (cmd.shooter, cmd.target), targets, 0
        case RemoveFollower():
            attack = Move(roll=cmd.roll, modifier=cmd.modifier)
            defence = Move(roll=cmd.defence_roll)
            after, out = remove_follower(group, cmd.attacker, cmd.follower, attack, defence)
            targets = (
                _plain_target(group, cmd.attacker, attack),
                _plain_target(group, cmd.follower, defence),
            )
            return after, out, (cmd.attacker, cmd.follower), targets, 0


def _assisted(group: GroupContest, cmd: Assist) -> int:
    """The engagement an assist helps in: against ``cmd.against``, else the
    beneficiary's first open one."""
    group.member(cmd.beneficiary)
    engaged = group.open_engagements(cmd.beneficiary)
    if cmd.against is not None:
        group.member(cmd.against)
        found = [i for i in engaged if group.engagements[i].has(cmd.against)]
        if not found:
            raise RuleError(f"{cmd.beneficiary} is not engaged with {cmd.against}")
        return found[0]
    if not engaged:
        raise RuleError(f"{cmd.beneficiary} is not engaged: nothing to assist in")
    return engaged[0]


# -- evolve -------------------------------------------------------------------------------


def _settled(c: HQGroupContest, group: GroupContest) -> HQGroupContest:
    """``c`` with ``group``, the next round begun once every engagement has played."""
    if not group.finished and not pending(group) and group.done:
        group = next_round(group)
    c = replace(c, group_state=group)
    return replace(c, last_parties=c.pairing or ())


def _evolve(c: HQGroupContest, event: Event) -> Contest | None:
    match event:
        case Engaged():
            return _settled(c, engage(c.group_state, event.a, event.b))
        case AimDeclared():
            return replace(c, aims={**c.aims, event.who: event.aim})
        case RoundBoosted():
            left = {**c.hero_points_left}
            for name, count in event.paid:
                left[name] = left.get(name, 0) - count
            group = buy_boost(c.group_state, event.side, dict(event.paid), event.double)
            return replace(c, group_state=group, hero_points_left=left)
        case EngagementResolved():
            winner = event.outcome.winner
            group, _, _ = apply_exchange(
                c.group_state, event.engagement, event.move_a, event.move_b, winner, event.points
            )
            lodged = dict(c.resolution_points)
            if winner is not None and event.points:
                side = c.hq_participant(event.a if winner == "a" else event.b).side
                lodged[side] = lodged.get(side, 0) + event.points
            c = replace(c, n=event.n, open=OpenExchange(), aims={}, resolution_points=lodged)
            return _settled(c, group)
        case SideContest():
            group = _play_side(c.group_state, event.command)[0]
            return _settled(replace(c, n=event.n), group)
        case ContestEnded():
            return replace(c, finished=True, winner=event.winner, ended_by=event.ended_by)
    return None


__all__ = [
    "Assist",
    "DeclareAim",
    "Engage",
    "EngagementResolved",
    "HQGroupContest",
    "PartingShot",
    "RemoveFollower",
    "SideContest",
    "new_group",
]
