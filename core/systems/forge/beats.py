"""FORGE combat rounds by beats (rules.md §3.4 "Beats" [I16], "Actions" [I17]): pure rules.

A round is five beats. Each icon's own beat comes from its Physical Agility
(:func:`beat_of`); beats 1, 2 and 4 are action beats, 3 and 5 reaction beats. Which beats an
icon takes part in is read from the Actions page's two examples (A-I5), a rule option
(:data:`BEAT_PATTERNS`). An attack is *sent* in an action beat (the attacker's roll, and the
damage it deals on a success); its damage *lands* in the target's next reaction beat, where
the target may dodge it (its one reaction of that beat) or takes it on armor, then trauma.

Everything here reuses the stage rules of :mod:`core.systems.forge.scoring` (``actor_succeeds``,
``thrown_number``, ``reactor_wins``, ``absorb``, the contest's targets, armor and dying): the
tracker only adds *when*. :class:`BeatRound` is the tracker's state, a frozen value each
function returns anew; the contest (trauma, armor left) changes only by :func:`land`. Nothing
here is wired to the engine yet: it imports neither the saves nor Textual.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from msgspec.structs import replace

from core.dice import DiceKind, check_faces
from core.errors import OutOfTurn, RuleError, UnknownName
from core.limits import Count, Int
from core.model import (
    Contest,
    DiceRolled,
    Event,
    ModifierSet,
    ResolveExchange,
    RollDice,
    SetModifier,
)
from core.redact import Part, secret
from core.rules.base import JSON
from core.rules.base import own as forge_of
from core.systems.forge.beat_round import (
    BEAT_KINDS,
    BEATS,
    FIRST_BEAT,
    LAST_BEAT,
    BeatAttack,
    BeatHit,
    BeatKind,
    BeatOptions,
    BeatRound,
    Reaction,
    beat_kind,
    beat_of,
    beats_taken,
    landing_beat,
)
from core.systems.forge.events import RoundCommand, RoundEvent, RoundExchange
from core.systems.forge.rules import ForgeRules
from core.systems.forge.scoring import absorb, actor_succeeds, reactor_wins, thrown_number
from core.systems.forge.stage import check_pair
from core.systems.forge.state import ForgeContest
from core.systems.forge.wording import DAMAGE_VERB

CODEC_TAG = "forge"  # the saved tags ("forge.SendAttack"), as the other forge modules


# -- who may do what ----------------------------------------------------------------------


def takes_part(r: BeatRound, name: str, beat: int) -> bool:
    """Whether ``name`` takes part in ``beat`` (its own beat and the pattern)."""
    own = r.icon_beats.get(name)
    if own is None:
        raise UnknownName(f'no icon "{name}" in the round')
    return beat in beats_taken(own, r.options.pattern)


def landing_now(r: BeatRound, target: str | None = None) -> tuple[BeatAttack, ...]:
    """The attacks landing in the current beat (on ``target`` only, when given)."""
    return tuple(
        a for a in r.pending if a.lands_in == r.beat and (target is None or a.target == target)
    )


def may_act(contest: ForgeContest, r: BeatRound, name: str) -> bool:
    """Whether ``name`` may send an attack now: an action beat it takes part in, not yet
    used, and not dying (a dying icon has no actions: rules §3.4, [I15])."""
    return (
        not r.over
        and beat_kind(r.beat) == "action"
        and takes_part(r, name, r.beat)
        and name not in r.used
        and not contest.dying(name)
    )


def may_dodge(contest: ForgeContest, r: BeatRound, name: str) -> bool:
    """Whether ``name`` may dodge a hit now: a reaction beat it takes part in, a hit
    landing on it, its reaction not yet used, and not dying (a dying icon cannot dodge)."""
    return (
        not r.over
        and beat_kind(r.beat) == "reaction"
        and takes_part(r, name, r.beat)
        and name not in r.used
        and not contest.dying(name)
        and bool(landing_now(r, name))
    )


def whose_beat(contest: ForgeContest, r: BeatRound) -> tuple[str, ...]:
    """The icons who may still act (or dodge) in the current beat, in the round's order."""
    return tuple(n for n in r.icon_beats if may_act(contest, r, n) or may_dodge(contest, r, n))


def still_to_do(contest: ForgeContest, r: BeatRound, name: str) -> tuple[tuple[int, BeatKind], ...]:
    """What ``name`` may still do this round: ``(beat, "action" | "reaction")`` for the
    current beat (unless used) and every later one it takes part in; nothing when dying."""
    if r.over or contest.dying(name):
        return ()
    return tuple(
        (b, beat_kind(b))
        for b in beats_taken(r.icon_beats[name], r.options.pattern)
        if b > r.beat or (b == r.beat and name not in r.used)
    )


def _busy(contest: ForgeContest, r: BeatRound, beat: int) -> bool:
    """Whether anybody may do anything in ``beat``: someone (not dying) acts in an action
    beat; a hit lands in a reaction beat."""
    if beat_kind(beat) == "reaction":
        return any(a.lands_in == beat for a in r.pending)
    return any(takes_part(r, n, beat) and not contest.dying(n) for n in r.icon_beats)


def _first_busy(contest: ForgeContest, r: BeatRound, after: int) -> BeatRound:
    for b in BEATS:
        if b > after and _busy(contest, r, b):
            return replace(r, beat=b, used=())
    return replace(r, over=True, used=())


# -- steps --------------------------------------------------------------------------------


def new_round(
    contest: ForgeContest,
    agility: Mapping[str, int | None],
    options: BeatOptions | None = None,
    number: int = 1,
) -> BeatRound:
    """A round's first busy beat, every participant of ``contest`` in its beat from its
    Physical Agility (a name missing from ``agility``: unknown, beat 4)."""
    for name in agility:
        contest.participant(name)
    beats = {p.name: beat_of(agility.get(p.name)) for p in contest.participants}
    r = BeatRound(icon_beats=beats, options=options or BeatOptions(), number=number)
    return _first_busy(contest, r, FIRST_BEAT - 1)


def send(
    contest: ForgeContest, r: BeatRound, attacker: str, target: str, roll: int | None
) -> BeatRound:
    """``attacker`` attacks ``target`` in this action beat (rules §3.3-3.4, [I17]): her
    roll against her target; on a success the damage it deals (tens × weapon) is on its
    way, to land in the target's next reaction beat. A miss sends nothing. It is her one
    action of the beat."""
    if not may_act(contest, r, attacker):
        raise OutOfTurn(_why_not(contest, r, attacker, "act"))
    check_pair(contest.participant(attacker), contest.participant(target))
    aim = contest.target(attacker)
    try:
        hit = actor_succeeds(aim, roll)
    except ValueError as e:
        raise RuleError(f"{attacker}'s target of {aim} needs a roll") from e
    if hit and roll is None:
        raise RuleError(f"{attacker} succeeds automatically but still rolls for the damage")
    weapon = contest.participant(attacker)
    attack = BeatAttack(attacker=attacker, target=target, sent_in=r.beat, roll=roll, hit=hit)
    if hit and roll is not None:
        attack = replace(
            attack,
            damage=thrown_number(
                roll, combat=True, multiplier=weapon.multiplier, max_damage=weapon.max_damage
            ),
            lands_in=landing_beat(r.beat, r.icon_beats[target], r.options.pattern),
        )
    return replace(r, sent=(*r.sent, attack), used=(*r.used, attacker))


def land(
    contest: ForgeContest,
    r: BeatRound,
    attack: BeatAttack,
    reaction: Reaction = "absorb",
    dodge_roll: int | None = None,
) -> tuple[ForgeContest, BeatRound, BeatHit]:
    """``attack`` lands in this reaction beat. ``"dodge"`` is the target's one reaction of
    the beat: a roll within her target and at or above the damage avoids it (above only
    without the contest's ``reactor_wins_ties``). Otherwise (absorbed, or a dodge that
    failed) armor takes what it can and the rest is trauma (rules §3.4, [I8], A-I4). The
    contest comes back with the target's trauma and armor left changed."""
    if attack not in landing_now(r):
        raise OutOfTurn(
            f"{attack.attacker}'s attack on {attack.target} does not land in beat {r.beat}"
        )
    who = attack.target
    damage = attack.damage or 0
    dodged = False
    used = r.used
    if reaction == "dodge":
        if not may_dodge(contest, r, who):
            raise OutOfTurn(_why_not(contest, r, who, "dodge"))
        if dodge_roll is None:
            raise RuleError(f"{who}'s dodge needs a roll")
        dodged = reactor_wins(
            contest.target(who),
            dodge_roll,
            damage,
            reactor_wins_ties=contest.options.reactor_wins_ties,
        )
        used = (*used, who)
    elif dodge_roll is not None:
        raise RuleError("an absorbed hit takes no roll")
    absorbed, trauma, left = 0, 0, contest.armor_left.get(who)
    if not dodged:
        absorbed, left = absorb(damage, contest.participant(who).armor, left)
        trauma = damage - absorbed
        contest = replace(
            contest,
            armor_left={**contest.armor_left, who: left},
            trauma={**contest.trauma, who: contest.trauma.get(who, 0) + trauma},
        )
    hit = BeatHit(
        attack=attack,
        beat=r.beat,
        reaction=reaction,
        dodge_roll=dodge_roll,
        dodged=dodged,
        absorbed=absorbed,
        trauma=trauma,
        armor_left=left,
    )
    return contest, replace(r, landed=(*r.landed, hit), used=used), hit


def next_beat(contest: ForgeContest, r: BeatRound) -> BeatRound:
    """On to the next beat in which anybody may do anything (``over`` after the last).
    ``OutOfTurn`` while a hit that lands in this beat has not been met: the GM has it
    absorbed (or dodged) first."""
    if r.over:
        raise OutOfTurn(f"round {r.number} is over")
    waiting = landing_now(r)
    if waiting:
        names = ", ".join(sorted({a.target for a in waiting}))
        raise OutOfTurn(f"{len(waiting)} hit(s) land in beat {r.beat} first (on {names})")
    return _first_busy(contest, r, r.beat)


# -- the GM's overrides -------------------------------------------------------------------


def move_icon(r: BeatRound, name: str, beat: int) -> BeatRound:
    """The GM puts ``name`` in another beat (a surprise, a power): it takes part from
    there on by the pattern; what it already did this round stands."""
    if name not in r.icon_beats:
        raise UnknownName(f'no icon "{name}" in the round')
    if beat not in BEAT_KINDS:
        raise RuleError(f"a round has beats {FIRST_BEAT} to {LAST_BEAT}, not {beat}")
    if r.icon_beats[name] == beat:  # a move that moves nothing is no action to log
        raise RuleError(f"{name} is in beat {beat} already: choose another beat")
    return replace(r, icon_beats={**r.icon_beats, name: beat})


def skip(r: BeatRound, name: str) -> BeatRound:
    """``name`` lets this beat go by: its action (or reaction) of the beat is spent."""
    if name not in r.icon_beats:
        raise UnknownName(f'no icon "{name}" in the round')
    return r if name in r.used else replace(r, used=(*r.used, name))


def end_round(r: BeatRound) -> BeatRound:
    """The GM ends the round now. Attacks sent that had not landed stay in ``pending``,
    for the GM to see (they are not applied)."""
    return replace(r, over=True, used=())


def next_round(contest: ForgeContest, r: BeatRound) -> BeatRound:
    """The round after ``r`` (ended or not): the same icons in the beats they are in now,
    nothing sent yet."""
    fresh = BeatRound(icon_beats=r.icon_beats, options=r.options, number=r.number + 1)
    return _first_busy(contest, fresh, FIRST_BEAT - 1)


def _why_not(contest: ForgeContest, r: BeatRound, name: str, what: str) -> str:
    if r.over:
        return f"round {r.number} is over"
    if contest.dying(name):
        return f"{name} is dying: no actions"
    kind = beat_kind(r.beat)
    if what == "act" and kind != "action":
        return f"beat {r.beat} is a reaction beat: nobody acts in it"
    if what == "dodge" and kind != "reaction":
        return f"beat {r.beat} is an action beat: nobody reacts in it"
    if not takes_part(r, name, r.beat):
        return f"{name} (beat {r.icon_beats[name]}) takes no part in beat {r.beat}"
    if name in r.used:
        return f"{name} has already {'acted' if kind == 'action' else 'reacted'} in beat {r.beat}"
    return f"no hit lands on {name} in beat {r.beat}"


# -- the engine's commands and events (rules.py hands them over: RoundCommand) ---------------


def _round(c: ForgeContest) -> BeatRound:
    """The round under way; ``OutOfTurn`` when none is."""
    if c.round is None or c.round.over:
        last = "" if c.round is None else f" (round {c.round.number} is over)"
        raise OutOfTurn(f"no round by beats is under way{last}: start one first")
    return c.round


class RoundChanged(RoundEvent):
    """The round as it stands after a GM's step: started, on to the next beat, an icon
    moved to another beat, a beat skipped, the round ended. Rolls and modifiers typed for
    the beat before go (they were that beat's)."""

    round: BeatRound

    def apply_to(self, contest: ForgeContest) -> ForgeContest:
        return replace(
            contest,
            round=self.round,
            rolls={},
            modifiers={},
            modifier_labels={},
            beat_targets={},
        )


class StartRound(RoundCommand):
    """A combat round by beats: the first, each icon in its beat from its Physical Agility
    (rules §3.4 [I16]; unknown: beat 4), or the next one, the icons in the beats they
    are in now. Combat contests only; not while one is under way."""

    def decide_in(self, contest: ForgeContest) -> tuple[Event, ...]:
        c = contest
        if not c.options.combat:
            raise RuleError("rounds by beats are for combat contests (the combat option)")
        if c.in_round and c.round is not None:
            raise OutOfTurn(f"round {c.round.number} is under way: end it first")
        if c.actor is not None or c.rolls or c.modifiers:
            raise OutOfTurn("a stage is open: resolve it (or clear it) before a round")
        if c.round is not None:
            return (RoundChanged(round=next_round(c, c.round)),)
        agility = {p.name: p.agility for p in c.participants}
        options = BeatOptions(pattern=c.options.beat_pattern)
        return (RoundChanged(round=new_round(c, agility, options)),)


class NextBeat(RoundCommand):
    """On to the next beat anybody may do anything in (the round is over after the
    last); refused while a hit lands in this one and has not been met."""

    def decide_in(self, contest: ForgeContest) -> tuple[Event, ...]:
        return (RoundChanged(round=next_beat(contest, _round(contest))),)


class MoveIcon(RoundCommand):
    """The GM's override: ``who`` is in ``beat`` from now on (a surprise, a power)."""

    who: str
    beat: Int

    def decide_in(self, contest: ForgeContest) -> tuple[Event, ...]:
        return (RoundChanged(round=move_icon(_round(contest), self.who, self.beat)),)


class SkipBeat(RoundCommand):
    """The GM's override: ``who`` lets this beat go by (its action or reaction spent)."""

    who: str

    def decide_in(self, contest: ForgeContest) -> tuple[Event, ...]:
        return (RoundChanged(round=skip(_round(contest), self.who)),)


class EndRound(RoundCommand):
    """The GM's override: the round ends now; hits on their way are not applied."""

    def decide_in(self, contest: ForgeContest) -> tuple[Event, ...]:
        return (RoundChanged(round=end_round(_round(contest))),)


class ChooseTarget(RoundCommand):
    """Whom ``attacker`` attacks in this action beat (with more than two icons the GM
    names one; else :func:`default_target`): an icon of another side, not dying
    (a dying icon is out of the contest, rules §3.4 [I15]). It goes with the beat's
    rolls: Enter sends the attack to ``target``."""

    before_rolls: ClassVar[bool] = True

    attacker: str
    target: str

    def decide_in(self, contest: ForgeContest) -> tuple[Event, ...]:
        r = _round(contest)
        if not may_act(contest, r, self.attacker):
            raise OutOfTurn(_why_not(contest, r, self.attacker, "act"))
        check_pair(contest.participant(self.attacker), contest.participant(self.target))
        if contest.dying(self.target):
            raise RuleError(f"{self.target} is dying: out of the contest, not a target")
        return (TargetChosen(attacker=self.attacker, target=self.target),)


class TargetChosen(RoundEvent):
    """The GM named whom ``attacker`` attacks in this beat."""

    attacker: str
    target: str

    def apply_to(self, contest: ForgeContest) -> ForgeContest:
        return replace(contest, beat_targets={**contest.beat_targets, self.attacker: self.target})


def attack_target(contest: ForgeContest, attacker: str) -> str:
    """Whom ``attacker`` attacks in this beat: the GM's choice, else the default."""
    return contest.beat_targets.get(attacker) or default_target(contest, attacker)


def living_opponents(contest: ForgeContest, attacker: str) -> tuple[str, ...]:
    """Whom ``attacker`` may attack: the icons of other sides who are not dying."""
    side = contest.participant(attacker).side
    return tuple(
        p.name for p in contest.participants if p.side != side and not contest.dying(p.name)
    )


class SendAttack(RoundCommand):
    """``attacker`` attacks ``target`` in this action beat with ``roll`` (None only when
    her target is 0 or less): on a success its damage lands in the target's next
    reaction beat (rules §3.4 [I17])."""

    attacker: str
    target: str
    roll: Int | None = None

    def decide_in(self, contest: ForgeContest) -> tuple[Event, ...]:
        r = _round(contest)
        if self.roll is not None and not 1 <= self.roll <= 100:
            raise RuleError(f"a d100 shows 1 to 100, not {self.roll}")
        after = send(contest, r, self.attacker, self.target, self.roll)
        return (
            AttackSent(
                n=contest.n + 1,
                number=r.number,
                attack=after.sent[-1],
                aim=contest.target(self.attacker),
                round=after,
            ),
        )


class LandHit(RoundCommand):
    """The first hit landing in this reaction beat (on ``target``, when named) is met:
    ``"absorb"`` (armor, then trauma) or ``"dodge"`` with the target's ``roll``."""

    reaction: Reaction = "absorb"
    roll: Int | None = None
    target: str | None = None

    def decide_in(self, contest: ForgeContest) -> tuple[Event, ...]:
        r = _round(contest)
        landing = landing_now(r, self.target)
        if not landing:
            on = "" if self.target is None else f" on {self.target}"
            raise OutOfTurn(f"no hit lands{on} in beat {r.beat}")
        if self.roll is not None and not 1 <= self.roll <= 100:
            raise RuleError(f"a d100 shows 1 to 100, not {self.roll}")
        attack = landing[0]
        aim = contest.target(attack.target)
        after, r2, hit = land(contest, r, attack, self.reaction, self.roll)
        who = attack.target
        return (
            HitLanded(
                n=contest.n + 1,
                number=r.number,
                hit=hit,
                aim=aim,
                reactor_wins_ties=contest.options.reactor_wins_ties,
                armor=contest.participant(who).armor,
                trauma_taken=after.trauma.get(who, 0),
                current_trauma=after.current_trauma(who),
                round=r2,
            ),
        )


class AttackSent(RoundExchange):
    """An attack sent in an action beat (its ``attack``: roll, hit, damage, where it
    lands), against the attacker's target ``aim`` then; ``round`` as it stands after."""

    number: Int
    attack: BeatAttack
    aim: Int
    round: BeatRound

    def apply_to(self, contest: ForgeContest) -> ForgeContest:
        return replace(contest, n=self.n, round=self.round)

    def lines(self) -> list[list[str | Part]]:
        a = self.attack
        head: list[str | Part] = [f"Beat {a.sent_in}: {a.attacker} attacks {a.target}"]
        line: list[str | Part] = [f"  {a.attacker} attacks vs ", secret(self.aim, a.attacker)]
        if a.roll is None:
            return [head, [*line, ": ", secret("cannot succeed", a.attacker, mask="✗")]]
        line += [": ", secret(a.roll, a.attacker)]
        if not a.hit:
            return [head, [*line, " ✗, misses"]]
        return [
            head,
            [*line, " ✓, damage ", secret(a.damage, a.attacker), f", lands in beat {a.lands_in}"],
        ]

    def json(self) -> JSON:
        a = self.attack
        return {
            "n": self.n,
            "round": self.number,
            "beat": a.sent_in,
            "attacker": a.attacker,
            "target": a.target,
            "aim": self.aim,
            "roll": a.roll,
            "hit": a.hit,
            "damage": a.damage,
            "lands_in": a.lands_in,
        }


class HitLanded(RoundExchange):
    """A hit landing in the target's reaction beat, met (``hit``: dodged, or absorbed and
    the trauma); the target's dodge target ``aim``, armor, trauma taken in the contest
    and Current Trauma after it (None: not tracked)."""

    number: Int
    hit: BeatHit
    aim: Int
    reactor_wins_ties: bool
    armor: Count
    trauma_taken: Count
    current_trauma: Int | None
    round: BeatRound

    def apply_to(self, contest: ForgeContest) -> ForgeContest:
        who = self.hit.attack.target
        return replace(
            contest,
            n=self.n,
            round=self.round,
            trauma={**contest.trauma, who: self.trauma_taken},
            armor_left={**contest.armor_left, who: self.hit.armor_left},
        )

    def lines(self) -> list[list[str | Part]]:
        h, a = self.hit, self.hit.attack
        who, both = a.target, (a.attacker, a.target)
        lines: list[list[str | Part]] = [[f"Beat {h.beat}: {a.attacker}'s attack lands on {who}"]]
        if h.reaction == "dodge":
            verdict = " ✓, dodged" if h.dodged else " ✗"
            lines.append(
                [
                    f"  {who} dodges vs ",
                    secret(self.aim, who),
                    ": ",
                    secret(h.dodge_roll, who),
                    verdict,
                ]
            )
        else:
            lines.append([f"  {who} absorbs"])
        if not h.dodged:
            line: list[str | Part] = [
                f"  {who} {DAMAGE_VERB} ",
                secret(a.damage, a.attacker),
                ": ",
                secret(h.absorbed, *both),
                " absorbed, ",
                secret(h.trauma, *both),
                " trauma",
            ]
            if h.armor_left is not None and self.armor != 0:
                line += [", armor ", secret(h.armor_left, *both), " left"]
            lines.append(line)
        if self.current_trauma is not None and self.current_trauma <= 0:
            lines.append(
                [f"  {who} is dying (current trauma ", secret(self.current_trauma, who), ")"]
            )
        return lines

    def json(self) -> JSON:
        h, a = self.hit, self.hit.attack
        out: JSON = {
            "n": self.n,
            "round": self.number,
            "beat": h.beat,
            "attacker": a.attacker,
            "target": a.target,
            "reaction": h.reaction,
            "dodge_roll": h.dodge_roll,
            "dodged": h.dodged,
            "damage": a.damage,
            "absorbed": h.absorbed,
            "trauma": h.trauma,
            "armor_capacity": h.armor_left,
        }
        if self.current_trauma is not None:
            out["current_trauma"] = self.current_trauma
            out["dying"] = self.current_trauma <= 0
        return out


# -- the keypad's way through a round: the rolls of the beat, then Enter ----------------------


def default_target(contest: ForgeContest, attacker: str) -> str:
    """Whom ``attacker`` attacks when the GM names nobody: the first participant of another
    side who is not dying (with two, the other one)."""
    side = contest.participant(attacker).side
    for p in contest.participants:
        if p.side != side and not contest.dying(p.name):
            return p.name
    raise RuleError(f"{attacker} has nobody left to attack")


def beat_steps(contest: ForgeContest) -> list[RoundCommand]:
    """What Enter plays in the current beat, from the rolls typed: in an action beat each
    icon who may act and rolled attacks (no roll: it lets the beat go by, unless its target
    is 0 or less, a miss without a roll); in a reaction beat each hit landing is dodged by
    its target when she rolled and may still react, else absorbed. Then on to the next
    beat."""
    r = _round(contest)
    steps: list[RoundCommand] = []
    if beat_kind(r.beat) == "action":
        for name in whose_beat(contest, r):
            roll = contest.rolls.get(name)
            if roll is None and contest.target(name) > 0:
                steps.append(SkipBeat(who=name))
                continue
            steps.append(SendAttack(attacker=name, target=attack_target(contest, name), roll=roll))
    else:
        dodging = {a.target for a in landing_now(r) if may_dodge(contest, r, a.target)}
        for a in landing_now(r):
            roll = contest.rolls.get(a.target) if a.target in dodging else None
            dodging.discard(a.target)  # one reaction a beat: the first hit on her
            steps.append(
                LandHit(reaction="absorb" if roll is None else "dodge", roll=roll, target=a.target)
            )
    steps.append(NextBeat())
    return steps


class ForgeRoundRules(ForgeRules):
    """FORGE's rules with the keypad's way through a round by beats: while one is under
    way the rollers are those who may act (or dodge) in the beat, their dice are that
    beat's rolls, a modifier is for this beat, and Enter (``ResolveExchange``) plays the
    beat (:func:`beat_steps`). Stages are :class:`ForgeRules`' own."""

    def rollers(self, contest: Contest) -> list[str]:
        c = forge_of(contest, ForgeContest)
        if c.in_round and c.round is not None and not c.finished:
            return list(whose_beat(c, c.round))
        return super().rollers(contest)

    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        c = forge_of(contest, ForgeContest)
        if not c.in_round or c.round is None or c.finished:
            return super().decide(contest, command)
        r = c.round
        match command:
            case RollDice():
                c.participant(command.who)
                if command.who not in whose_beat(c, r):
                    what = "act" if beat_kind(r.beat) == "action" else "dodge"
                    raise OutOfTurn(_why_not(c, r, command.who, what))
                check_faces(DiceKind.D100, command.faces)
                if command.who in c.rolls:
                    raise OutOfTurn(f"{command.who} has already rolled in beat {r.beat}")
                return (DiceRolled(who=command.who, faces=command.faces, source=command.source),)
            case SetModifier():
                c.participant(command.who)
                label = self.preset_label(c, command.label, command.value)
                return (ModifierSet(who=command.who, value=command.value, label=label),)
            case ResolveExchange():
                events: list[Event] = []
                now = c
                for step in beat_steps(c):
                    for event in step.decide_in(now):
                        events.append(event)
                        now = forge_of(self.evolve(now, event), ForgeContest)
                return tuple(events)
        return super().decide(contest, command)


FORGE = ForgeRoundRules()
