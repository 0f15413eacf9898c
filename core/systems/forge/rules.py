"""Iconoclast FORGE contests: an actor throws a number at a reactor, stage by stage, on d100.

The rules are in ``shared/spec/rules.md`` part 3; the option names in ``scenario.md``.
One exchange is one *stage*: the actor rolls under her target and, on a success, throws a
number (her roll; in combat, the damage it deals) to the reactor, who wins the stage by
rolling within her own target and above that number (a tie goes to the reactor unless the
table says otherwise). Roles usually swap for the next stage; the GM ends the contest.

The pure scoring functions at the top (``damage``, ``actor_succeeds``, ``reactor_wins``,
``stage_outcome``, ``absorb``) are the ones ``decide`` uses and the ones the keypad
preview and the odds call: one source of truth for the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec
from msgspec.structs import replace

from core.campaign.log import Character, Sheet
from core.dice import DiceKind, check_faces
from core.errors import OutOfTurn, RuleError, UnknownName
from core.limits import Count, Int, Positive
from core.model import (
    Command,
    Contest,
    ContestEnded,
    DiceRolled,
    EndContest,
    Event,
    ExchangeEvent,
    ModifierSet,
    Participant,
    ResolveExchange,
    RollDice,
    Saved,
    SetModifier,
)
from core.redact import HIDDEN, NO_SECRETS, Part, Secrets, render_all, secret
from core.rules.base import (
    JSON,
    RuleSystem,
    own,
    require_open,
    round_half_up,
    unknown_command,
    updated,
)
from core.systems.forge.beat_round import (
    REACTIONS,
    Agility,
    BeatPattern,
    BeatRound,
    Reaction,
)
from core.systems.forge.modifiers import DISTANCE_PRESETS

CODEC_TAG = "forge"  # the saved tags ("forge.ExchangeResolved"), as before the package


class ForgeCharacter(Sheet):
    """What FORGE keeps on a roster character (its ``Character.sheet``): the weapon's
    damage multiplier and maximum (None: none), armor and what it can still absorb
    (``armor_capacity``; None: no limit, 0: used up, rules A-I4), trauma taken, and the
    Trauma pool, Maximum Trauma (rules §3.4, [I15]): Current Trauma is it less ``trauma``,
    and at 0 or below the character is dying (None: not tracked). ``agility``: Physical
    Agility, the beat of a combat round by beats (None: unknown, beat 4; [I16])."""

    LABELS: ClassVar[Mapping[str, str]] = {
        "armor_capacity": "armor capacity",
        "trauma_pool": "trauma pool",
        "agility": "Physical Agility",
    }
    multiplier: Positive = 1
    max_damage: Count | None = None
    armor: Count = 0
    armor_capacity: Count | None = None
    trauma: Count = 0
    trauma_pool: Count | None = None
    agility: Agility | None = None


def forge_sheet(character: Character) -> ForgeCharacter:
    """``character``'s FORGE sheet (a fresh one where it has none yet)."""
    sheet = character.sheet
    return sheet if isinstance(sheet, ForgeCharacter) else ForgeCharacter()


def with_forge(character: Character, **changes: Any) -> dict[str, Any]:
    """The change to ``character`` that sets ``changes`` on its FORGE sheet (for
    ``replace`` and the write-back)."""
    return {"sheet": replace(forge_sheet(character), **changes)}


AUTOMATIC = 100  # a target at or above this succeeds whatever the roll (rules §3.2)
DAMAGE_VERB = "takes"  # the damage line's verb: "Josef takes 10: 0 absorbed, 10 trauma"


# -- pure scoring -------------------------------------------------------------------------


def damage(roll: int, multiplier: int, max_damage: int | None = None) -> int:
    """Combat damage of a successful ``roll`` (rules §3.4): tens digit × ``multiplier``.

    Rolls 1-9 (tens digit 0) deal half the multiplier rounded half up; a roll of 100 counts
    tens 10 (A-I6); ``max_damage`` caps the result.
    """
    tens = roll // 10
    hit = tens * multiplier if tens else round_half_up(multiplier, 2)
    return hit if max_damage is None else min(hit, max_damage)


def actor_succeeds(target: int, roll: int | None) -> bool:
    """Whether the actor's roll succeeds: always at target ≥ 100, never at ≤ 0 (§3.2).

    Between those ``roll`` must be given: success when it is at most the target.
    """
    if target >= AUTOMATIC:
        return True
    if target <= 0:
        return False
    if roll is None:
        raise ValueError(f"a target of {target} needs a roll")
    return roll <= target


def reactor_wins(target: int, roll: int, thrown: int, *, reactor_wins_ties: bool = True) -> bool:
    """Whether the reactor beats the thrown number: within her target and above it (§3.3).

    Equal to it wins too with ``reactor_wins_ties`` (the Contests page's rule, the default).
    A target of 0 or less never wins: no d100 roll is within it.
    """
    if roll > target:
        return False
    return roll > thrown or (reactor_wins_ties and roll == thrown)


def thrown_number(
    roll: int, *, combat: bool = False, multiplier: int = 1, max_damage: int | None = None
) -> int:
    """What a successful actor throws: her roll, or in combat the damage it deals."""
    return damage(roll, multiplier, max_damage) if combat else roll


class StageOutcome(Saved):
    """One stage scored from the targets and the rolls.

    ``reactor_success`` is None when the reactor did not roll for it (the actor failed, or
    the reactor absorbed); ``hit`` is the combat damage that reached the reactor before
    armor (None outside combat, when the actor failed, or when the reactor dodged).
    """

    actor_success: bool
    thrown: Int | None
    reactor_success: bool | None
    actor_wins: bool
    hit: Int | None = None


def stage_outcome(
    actor_target: int,
    actor_roll: int | None,
    reactor_target: int,
    reactor_roll: int | None,
    *,
    combat: bool = False,
    multiplier: int = 1,
    max_damage: int | None = None,
    reaction: Reaction = "dodge",
    reactor_wins_ties: bool = True,
) -> StageOutcome:
    """Score one stage (rules §3.3, with §3.4 in combat).

    The reactor wins exactly when the actor fails (``a > Ta``, or ``Ta ≤ 0``) or she rolls
    within her target at or above the thrown number (above it only, without
    ``reactor_wins_ties``). ``multiplier`` and ``max_damage`` are the actor's weapon;
    ``reaction`` only counts in combat, where ``"absorb"`` takes the hit without a roll.
    ``ValueError`` when a roll the stage needs is None.
    """
    if not actor_succeeds(actor_target, actor_roll):
        return StageOutcome(
            actor_success=False, thrown=None, reactor_success=None, actor_wins=False
        )
    if actor_roll is None:
        raise ValueError("an automatic success still rolls for the number it throws")
    thrown = thrown_number(actor_roll, combat=combat, multiplier=multiplier, max_damage=max_damage)
    if combat and reaction == "absorb":
        return StageOutcome(
            actor_success=True, thrown=thrown, reactor_success=None, actor_wins=True, hit=thrown
        )
    if reactor_roll is None:
        raise ValueError("the reactor must roll against the thrown number")
    won = reactor_wins(reactor_target, reactor_roll, thrown, reactor_wins_ties=reactor_wins_ties)
    return StageOutcome(
        actor_success=True,
        thrown=thrown,
        reactor_success=won,
        actor_wins=not won,
        hit=thrown if combat and not won else None,
    )


def absorb(damage: int, armor: int, capacity_left: int | None) -> tuple[int, int | None]:
    """Armor taking a hit (rules §3.4, A-I4): ``(absorbed, capacity left afterwards)``.

    ``capacity_left`` None is unlimited armor: it absorbs ``min(armor, damage)`` forever.
    Otherwise it absorbs ``min(armor, damage, capacity_left)`` and the capacity drops by
    that much; at 0 the armor absorbs nothing. Trauma is ``damage - absorbed``.
    """
    if capacity_left is None:
        return min(armor, damage), None
    absorbed = min(armor, damage, capacity_left)
    return absorbed, capacity_left - absorbed


# -- state --------------------------------------------------------------------------------


class ForgeParticipant(Participant):
    """``target``: the d100 chance after skill tiers and attribute. The weapon is
    ``multiplier`` and ``max_damage`` (None: no cap); the armor is ``armor`` (its
    durability value) and ``armor_capacity``, the trauma capacity it has left: None is
    unlimited armor, 0 armor used up, which absorbs nothing (A-I4). (A scenario file
    writes unlimited as 0: its reader makes that None.)

    ``current_trauma`` is the character's Current Trauma as the contest starts (rules
    §3.4, [I15]), None when it is not tracked; the trauma taken in the contest comes off
    it, and at 0 or below the character is dying: no more actions, and no dodging."""

    target: Int
    multiplier: Positive = 1
    max_damage: Count | None = None
    armor: Count = 0
    armor_capacity: Count | None = None
    current_trauma: Int | None = None
    agility: Agility | None = None  # Physical Agility: the beat in a round (None: beat 4)


class ForgeOptions(Saved):
    """The table's rule options (scenario.md spells them; rules.md §4 gives defaults).
    ``beat_pattern``: which beats of a combat round each icon takes part in (A-I5,
    :data:`core.systems.forge.beat_round.BEAT_PATTERNS`)."""

    reactor_wins_ties: bool = True
    combat: bool = False
    beat_pattern: BeatPattern = "every_later_beat"


class ForgeContest(Contest):
    """A FORGE contest between stages or during one.

    The open stage is ``actor``/``reactor`` (None until the GM sets them: the defaults of
    :func:`stage_roles` apply), its ``rolls``, ``modifiers`` and ``reaction``. The
    previous stage's roles give the defaults. ``armor_left`` is each participant's armor
    capacity left (None: unlimited); ``trauma`` the damage each has taken past armor.
    The stages themselves live in the event log, not here.
    """

    system: ClassVar[str] = "forge"
    participants: tuple[ForgeParticipant, ...]
    options: ForgeOptions = ForgeOptions()
    actor: str | None = None
    reactor: str | None = None
    rolls: Mapping[str, Int] = msgspec.field(default_factory=dict)
    modifiers: Mapping[str, Int] = msgspec.field(default_factory=dict)
    reaction: Reaction = "dodge"
    last_actor: str | None = None
    last_reactor: str | None = None
    stage_wins: Mapping[str, Int] = msgspec.field(default_factory=dict)
    armor_left: Mapping[str, Int | None] = msgspec.field(default_factory=dict)
    trauma: Mapping[str, Int] = msgspec.field(default_factory=dict)
    modifier_labels: Mapping[str, str] = msgspec.field(default_factory=dict)  # presets' names
    round: BeatRound | None = None  # a combat round by beats, the last one started
    # this beat's attacks the GM aimed (attacker: target); the others go to the default
    beat_targets: Mapping[str, str] = msgspec.field(default_factory=dict)

    @property
    def stages(self) -> int:
        """The stages played so far: each has one winner, so the stage wins add up to
        them; a round by beats scores none (its attacks and hits are exchanges, not
        stages)."""
        return sum(self.stage_wins.values())

    @property
    def in_round(self) -> bool:
        """Whether a round by beats is under way (started, not over): no stages then."""
        return self.round is not None and not self.round.over

    def participant(self, name: str) -> ForgeParticipant:
        for p in self.participants:
            if p.name == name:
                return p
        raise UnknownName(f'no participant "{name}"')

    def target(self, name: str) -> int:
        """``name``'s target for the open stage, this stage's modifier included."""
        return self.participant(name).target + self.modifiers.get(name, 0)

    def current_trauma(self, name: str) -> int | None:
        """``name``'s Current Trauma now (None: not tracked): what it started with, less
        the trauma taken in this contest."""
        start = self.participant(name).current_trauma
        return None if start is None else start - self.trauma.get(name, 0)

    def dying(self, name: str) -> bool:
        """Current Trauma at 0 or below: dying (rules §3.4), not dead."""
        now = self.current_trauma(name)
        return now is not None and now <= 0


def new_contest(
    participants: Sequence[ForgeParticipant], options: ForgeOptions | None = None
) -> ForgeContest:
    """A contest before its first stage. A dying participant (Current Trauma at 0 or
    below) cannot take part: the GM heals them first."""
    contest = ForgeContest(participants=tuple(participants), options=options or ForgeOptions())
    for p in contest.participants:
        if p.current_trauma is not None and p.current_trauma <= 0:
            raise RuleError(
                f"{p.name} is dying (current trauma {p.current_trauma}): "
                "heal them before another contest"
            )
    return replace(
        contest,
        stage_wins={side: 0 for side in contest.sides},
        armor_left={p.name: p.armor_capacity for p in contest.participants},
        trauma={p.name: 0 for p in contest.participants},
    )


def default_actor(contest: ForgeContest) -> str | None:
    """The actor when the GM names none: the previous stage's reactor (None at first),
    unless that reactor is now dying (no actions): then the previous stage's actor."""
    for name in (contest.last_reactor, contest.last_actor):
        if name is not None and not contest.dying(name):
            return name
    return contest.last_reactor


def default_reactor(contest: ForgeContest, actor: str) -> str | None:
    """The reactor when the GM names none: with two participants the one who is not
    ``actor``; with more, the previous stage's actor (None before the first stage)."""
    if len(contest.participants) == 2:
        return next(p.name for p in contest.participants if p.name != actor)
    return contest.last_actor


def stage_roles(contest: ForgeContest) -> tuple[str, str]:
    """The open stage's (actor, reactor): the ones set, else the defaults."""
    actor = contest.actor or default_actor(contest)
    if actor is None:
        raise OutOfTurn("the first stage needs an actor")
    reactor = contest.reactor or default_reactor(contest, actor)
    if reactor is None:
        raise OutOfTurn("the first stage needs a reactor")
    return actor, reactor


def _not_dying(c: ForgeContest, who: str) -> None:
    """A dying participant is out of the contest (rules §3.4, [I15]): no actions, no rolls."""
    if c.dying(who):
        raise RuleError(
            f"{who} is dying (current trauma {c.current_trauma(who)}): "
            "out of the contest, no actions"
        )


def check_pair(actor: Participant, reactor: Participant) -> None:
    """``RuleError`` unless ``actor`` and ``reactor`` are on different sides."""
    if actor.name == reactor.name:
        raise RuleError(f"{actor.name} cannot be both the actor and the reactor")
    if actor.side == reactor.side:
        raise RuleError(f"{actor.name} and {reactor.name} are both on side {actor.side}")


def reaction_of(contest: ForgeContest) -> Reaction | None:
    """The open stage's reaction: None outside combat, where reactions do not exist. A
    dying reactor cannot dodge: the armor absorbs what it can."""
    if not contest.options.combat:
        return None
    try:
        _, reactor = stage_roles(contest)
    except RuleError:
        return contest.reaction
    return "absorb" if contest.dying(reactor) else contest.reaction


def actor_roll_needed(contest: ForgeContest) -> bool:
    """Whether the open stage needs the actor's roll (not when her target is 0 or less)."""
    actor, _ = stage_roles(contest)
    return contest.target(actor) > 0


def reactor_roll_needed(contest: ForgeContest) -> bool:
    """Whether the open stage needs the reactor's roll: the actor succeeded and the
    reactor does not absorb. ``ValueError`` while the actor's needed roll is missing."""
    actor, _ = stage_roles(contest)
    if not actor_succeeds(contest.target(actor), contest.rolls.get(actor)):
        return False
    return reaction_of(contest) != "absorb"


def missing_roll(contest: ForgeContest) -> str | None:
    """The participant whose roll the open stage still needs, or None when it can be
    resolved."""
    actor, reactor = stage_roles(contest)
    if actor not in contest.rolls and actor_roll_needed(contest):
        return actor
    if reactor not in contest.rolls and reactor_roll_needed(contest):
        return reactor
    return None


def leading_side(stage_wins: Mapping[str, int]) -> str | None:
    """The side with the most stage wins, or None when the most is shared."""
    if not stage_wins:
        return None
    best = max(stage_wins.values())
    leaders = [side for side, wins in stage_wins.items() if wins == best]
    return leaders[0] if len(leaders) == 1 else None


# -- commands and events --------------------------------------------------------------------


class SetStage(Command):
    """Name the open stage's actor and reactor; None takes the default
    (:func:`default_actor`, :func:`default_reactor`). Rolls and modifiers already entered
    for somebody who stays in the stage are kept."""

    before_rolls: ClassVar[bool] = True

    actor: str | None = None
    reactor: str | None = None


class ChooseReaction(Command):
    """In combat, how the reactor meets the attack: ``"dodge"`` (rolls) or ``"absorb"``."""

    reaction: str


class RoundCommand(Command):
    """A command of a combat round by beats (:mod:`core.systems.forge.beats` defines them
    and decides them: the rules hand them over, so the round's logic stays in its
    module)."""

    def decide_in(self, contest: ForgeContest) -> tuple[Event, ...]:
        raise NotImplementedError


class RoundEvent(Event):
    """An event of a round by beats; it applies itself to the contest."""

    def apply_to(self, contest: ForgeContest) -> ForgeContest:
        raise NotImplementedError


class RoundExchange(ExchangeEvent):
    """A round's step the exchange log shows (an attack sent, a hit landing): it applies
    itself, and says its own lines and JSON."""

    def apply_to(self, contest: ForgeContest) -> ForgeContest:
        raise NotImplementedError

    def lines(self) -> list[list[str | Part]]:
        raise NotImplementedError

    def json(self) -> JSON:
        raise NotImplementedError


def _no_round(c: ForgeContest) -> None:
    """Stages wait while a round by beats is under way."""
    if c.in_round and c.round is not None:
        raise OutOfTurn(
            f"round {c.round.number} by beats is under way (beat {c.round.beat}): "
            "attacks are sent in beats until it ends"
        )


class StageSet(Event):
    actor: str
    reactor: str


class ReactionChosen(Event):
    reaction: Reaction


class ExchangeResolved(ExchangeEvent):
    """One stage, scored: everything the log and ``tussle resolve`` print, and every fact
    ``evolve`` applies (who won, which side, the reactor's trauma and armor left).

    ``actor_roll`` is None when the actor's target was 0 or less and no roll was given;
    ``reactor_roll`` is None when the stage did not use it; ``reactor_rolled`` is the
    reactor's die as the table rolled it, used or not (the log shows both dice: a GM
    checking a stage wants to see what was rolled). ``reaction`` is None outside combat.
    ``damage`` is the hit before armor (None when nothing hit, or outside combat).
    """

    actor: str
    reactor: str
    actor_target: Int
    reactor_target: Int
    actor_roll: Int | None
    reactor_roll: Int | None
    actor_success: bool
    thrown: Int | None
    reactor_success: bool | None
    winner: str
    winner_side: str
    combat: bool
    reaction: Reaction | None
    reactor_wins_ties: bool
    damage: Int | None = None
    absorbed: Int = 0
    trauma: Count = 0
    armor_left: Int | None = None
    stage_wins: Mapping[str, Int] = msgspec.field(default_factory=dict)
    reactor_rolled: Int | None = None
    current_trauma: Int | None = None  # the reactor's after the stage (None: not tracked)
    armor: Count | None = None  # the reactor's durability value (None: a stage saved without it)
    modifier_labels: Mapping[str, str] = msgspec.field(default_factory=dict)  # presets by name


# -- the rule system ------------------------------------------------------------------------


class ForgeRules(RuleSystem):
    """Iconoclast FORGE contests: a :class:`~core.rules.base.RuleSystem`."""

    name: ClassVar[str] = "forge"
    title: ClassVar[str] = "FORGE"
    contest_type: ClassVar[type[Contest]] = ForgeContest
    dice: ClassVar[DiceKind] = DiceKind.D100

    def modifier_presets(self, contest: Contest) -> tuple[tuple[str, int], ...]:
        """The distance steps, the last one (suicide range, +100) included (§3.4, [I11])."""
        return DISTANCE_PRESETS

    def tally(self, contest: Contest) -> tuple[dict[str, int], str] | None:
        c = own(contest, ForgeContest)
        return {s: c.stage_wins.get(s, 0) for s in c.sides}, "stages"

    def implicit(self, contest: Contest) -> list[Command]:
        """The first stage, while nobody has named its actor: the first participant acts
        against the first of another side (the GM changes the roles otherwise)."""
        c = own(contest, ForgeContest)
        if c.finished or c.in_round or default_actor(c) is not None or c.actor is not None:
            return []
        actor = c.participants[0]
        reactor = next(p for p in c.participants if p.side != actor.side)
        return [SetStage(actor=actor.name, reactor=reactor.name)]

    def rollers(self, contest: Contest) -> list[str]:
        c = own(contest, ForgeContest)
        if c.in_round:
            return []  # a round's rolls go with its commands (an attack, a dodge)
        try:
            return list(stage_roles(c))
        except RuleError:  # the first stage before anybody is named
            return []

    # decide ---------------------------------------------------------------------------
    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        c = own(contest, ForgeContest)
        require_open(c)
        match command:
            case RoundCommand():
                return command.decide_in(c)
            case EndContest():
                return (ContestEnded(winner=leading_side(c.stage_wins), ended_by="gm"),)
        _no_round(c)
        match command:
            case SetStage():
                return (self._set_stage(c, command),)
            case RollDice():
                self._party(c, command.who)
                _not_dying(c, command.who)
                check_faces(DiceKind.D100, command.faces)
                if command.who in c.rolls:
                    raise OutOfTurn(f"{command.who} has already rolled this stage")
                return (DiceRolled(who=command.who, faces=command.faces, source=command.source),)
            case SetModifier():
                self._party(c, command.who)
                label = self.preset_label(c, command.label, command.value)
                return (ModifierSet(who=command.who, value=command.value, label=label),)
            case ChooseReaction():
                return (self._reaction(c, command),)
            case ResolveExchange():
                return (self._resolve(c),)
        raise unknown_command(self.title, command)

    @staticmethod
    def _set_stage(c: ForgeContest, cmd: SetStage) -> StageSet:
        actor = cmd.actor or default_actor(c)
        if actor is None:
            raise OutOfTurn("the first stage needs an actor")
        acting = c.participant(actor)
        _not_dying(c, actor)
        reactor = cmd.reactor or default_reactor(c, actor)
        if reactor is None:
            raise OutOfTurn("the first stage needs a reactor (with more than two taking part)")
        check_pair(acting, c.participant(reactor))
        return StageSet(actor=actor, reactor=reactor)

    @staticmethod
    def _party(c: ForgeContest, who: str) -> None:
        """``who`` must be the open stage's actor or reactor."""
        c.participant(who)
        actor, reactor = stage_roles(c)
        if who not in (actor, reactor):
            raise RuleError(f"{who} is neither the actor ({actor}) nor the reactor ({reactor})")

    @staticmethod
    def _reaction(c: ForgeContest, cmd: ChooseReaction) -> ReactionChosen:
        if not c.options.combat:
            raise RuleError("reactions (dodge, absorb) are for combat contests")
        for reaction in REACTIONS:
            if cmd.reaction == reaction:
                return ReactionChosen(reaction=reaction)
        raise RuleError(f'a reaction is "dodge" or "absorb", not "{cmd.reaction}"')

    @staticmethod
    def _resolve(c: ForgeContest) -> ExchangeResolved:
        actor, reactor = stage_roles(c)
        acting, reacting = c.participant(actor), c.participant(reactor)
        check_pair(acting, reacting)
        _not_dying(c, actor)
        missing = missing_roll(c)
        if missing is not None:
            raise OutOfTurn(f"{missing} has not rolled yet")
        reaction = reaction_of(c)
        actor_roll = c.rolls.get(actor)
        reactor_roll = c.rolls.get(reactor) if reactor_roll_needed(c) else None
        outcome = stage_outcome(
            c.target(actor),
            actor_roll,
            c.target(reactor),
            reactor_roll,
            combat=c.options.combat,
            multiplier=acting.multiplier,
            max_damage=acting.max_damage,
            reaction=reaction or "dodge",
            reactor_wins_ties=c.options.reactor_wins_ties,
        )
        absorbed, armor_left = 0, c.armor_left.get(reactor)
        if outcome.hit is not None:
            absorbed, armor_left = absorb(outcome.hit, reacting.armor, armor_left)
        winner = acting if outcome.actor_wins else reacting
        trauma = 0 if outcome.hit is None else outcome.hit - absorbed
        now = c.current_trauma(reactor)
        return ExchangeResolved(
            n=c.n + 1,
            actor=actor,
            reactor=reactor,
            actor_target=c.target(actor),
            reactor_target=c.target(reactor),
            actor_roll=actor_roll,
            reactor_roll=reactor_roll,
            actor_success=outcome.actor_success,
            thrown=outcome.thrown,
            reactor_success=outcome.reactor_success,
            winner=winner.name,
            winner_side=winner.side,
            combat=c.options.combat,
            reaction=reaction,
            reactor_wins_ties=c.options.reactor_wins_ties,
            damage=outcome.hit,
            absorbed=absorbed,
            trauma=trauma,
            armor_left=armor_left,
            reactor_rolled=c.rolls.get(reactor),
            stage_wins=updated(c.stage_wins, winner.side, 1),
            current_trauma=None if now is None else now - trauma,
            armor=reacting.armor,
            modifier_labels={
                name: f"{label} {c.modifiers.get(name, 0):+d}"
                for name, label in c.modifier_labels.items()
                if name in (actor, reactor)
            },
        )

    # evolve ---------------------------------------------------------------------------
    def evolve(self, contest: Contest, event: Event) -> Contest:
        c = own(contest, ForgeContest)
        match event:
            case RoundEvent() | RoundExchange():
                return event.apply_to(c)
            case StageSet():
                stage = (event.actor, event.reactor)
                return replace(
                    c,
                    actor=event.actor,
                    reactor=event.reactor,
                    rolls={k: v for k, v in c.rolls.items() if k in stage},
                    modifiers={k: v for k, v in c.modifiers.items() if k in stage},
                    modifier_labels={k: v for k, v in c.modifier_labels.items() if k in stage},
                )
            case DiceRolled():
                return replace(c, rolls={**c.rolls, event.who: event.faces[0]})
            case ModifierSet():
                labels = {k: v for k, v in c.modifier_labels.items() if k != event.who}
                if event.label is not None:
                    labels[event.who] = event.label
                return replace(
                    c, modifiers={**c.modifiers, event.who: event.value}, modifier_labels=labels
                )
            case ReactionChosen():
                return replace(c, reaction=event.reaction)
            case ExchangeResolved():
                return replace(
                    c,
                    n=event.n,
                    actor=None,
                    reactor=None,
                    rolls={},
                    modifiers={},
                    modifier_labels={},
                    reaction="dodge",
                    last_actor=event.actor,
                    last_reactor=event.reactor,
                    stage_wins=event.stage_wins,
                    armor_left={**c.armor_left, event.reactor: event.armor_left},
                    trauma=updated(c.trauma, event.reactor, event.trauma),
                )
            case ContestEnded():
                return replace(c, finished=True, winner=event.winner)
        raise TypeError(f"{type(event).__name__} is not a FORGE event")

    # output ---------------------------------------------------------------------------
    def exchange_json(self, event: ExchangeEvent) -> JSON:
        if isinstance(event, RoundExchange):
            return event.json()
        e = self._exchange(event)
        rolls = {e.actor: e.actor_roll, e.reactor: e.reactor_roll}
        out: JSON = {
            "n": e.n,
            "actor": e.actor,
            "reactor": e.reactor,
            "targets": {e.actor: e.actor_target, e.reactor: e.reactor_target},
            "rolls": {name: roll for name, roll in rolls.items() if roll is not None},
            "actor_success": e.actor_success,
            "thrown": e.thrown,
            "reactor_success": e.reactor_success,
            "winner": e.winner,
        }
        if e.combat:
            out.update(
                {
                    "reaction": e.reaction,
                    "damage": e.damage,
                    "absorbed": e.absorbed,
                    "trauma": e.trauma,
                    "armor_capacity": e.armor_left,
                }
            )
            if e.current_trauma is not None:
                out["current_trauma"] = e.current_trauma
                out["dying"] = e.current_trauma <= 0
        out["stage_wins"] = dict(e.stage_wins)
        return out

    def final_json(self, contest: Contest) -> JSON:
        c = own(contest, ForgeContest)
        out: JSON = {"stage_wins": {side: c.stage_wins.get(side, 0) for side in c.sides}}
        if c.options.combat:
            out["trauma"] = {p.name: c.trauma.get(p.name, 0) for p in c.participants}
            out["armor_capacity"] = {p.name: c.armor_left.get(p.name) for p in c.participants}
            tracked = [p.name for p in c.participants if p.current_trauma is not None]
            if tracked:
                out["current_trauma"] = {name: c.current_trauma(name) for name in tracked}
                out["dying"] = [name for name in tracked if c.dying(name)]
        if c.round is not None:
            r = c.round
            out["round"] = {
                "number": r.number,
                "beat": None if r.over else r.beat,
                "over": r.over,
                "beats": dict(r.icon_beats),
                "pending": [{"attacker": a.attacker, "target": a.target} for a in r.pending],
            }
        return out

    def describe(self, event: ExchangeEvent, secrets: Secrets = NO_SECRETS) -> list[str]:
        """The exchange log's lines, with ``??`` for what ``secrets`` hide."""
        return render_all(self.lines(event), secrets)

    def lines(self, event: ExchangeEvent) -> list[list[str | Part]]:
        """The stage's winner first, then the actor's line and the reactor's (the log
        pane is narrow), then the damage.

        What a hidden participant keeps from the players: their target, their roll, and
        the words that bound the target ("automatic", "cannot succeed"); a hidden actor,
        what they throw and the damage line (the damage is their weapon's); a hidden
        reactor, what their armour absorbs and has left (and so the trauma, the rest of
        the damage). How a reaction compared with the throw, when either is hidden, shows
        only as ✓ or ✗, which the stage's winner tells anyway: "a tie" would give the
        hidden roll or throw exactly (it equals the other), so, not to tell a tie from the
        rest, "lower" and "higher" go too. Who won the stage, the score and the actor's ✓
        or ✗ stay: the table sees them (a failed action hands the stage over, §3.3).
        A round's step (an attack sent, a hit landing) says its own."""
        if isinstance(event, RoundExchange):
            return event.lines()
        e = self._exchange(event)
        wins = "–".join(str(w) for w in e.stage_wins.values())
        # The stage's number: one winner a stage, so the wins after it add up to it (a
        # round's attacks and hits, exchanges too, are no stages); a stage saved without
        # its wins says its exchange's number.
        stage = sum(e.stage_wins.values()) or e.n
        lines: list[list[str | Part]] = [[f"Stage {stage}: {e.winner} wins the stage ({wins})"]]
        verb = "attacks" if e.combat else "acts"
        actor: list[str | Part] = [
            f"  {e.actor} {verb} vs ",
            secret(e.actor_target, e.actor),
            *self._preset(e, e.actor),
            ":",
        ]
        if not e.actor_success:
            if e.actor_roll is None:
                actor.append(secret(" cannot succeed", e.actor, mask=f" {HIDDEN} ✗"))
            else:
                actor += [" ", secret(e.actor_roll, e.actor), " ✗"]
                if e.actor_target <= 0:
                    actor.append(secret(" (cannot succeed)", e.actor, mask=""))
                else:
                    actor.append(", over")
            lines.append(actor)
            lines.append(self._unneeded_reaction(e))
        else:
            auto = secret(" (automatic)", e.actor, mask="") if e.actor_target >= AUTOMATIC else ""
            what = "damage" if e.combat else "throws"
            actor += [" ", secret(e.actor_roll, e.actor), " ✓", auto]
            lines.append([*actor, f", {what} ", secret(e.thrown, e.actor)])
            if e.reaction == "absorb":
                lines.append([f"  {e.reactor} absorbs"])
            else:
                dodge = "dodges" if e.combat else "reacts"
                lines.append(
                    [
                        f"  {e.reactor} {dodge} vs ",
                        secret(e.reactor_target, e.reactor),
                        *self._preset(e, e.reactor),
                        ": ",
                        secret(e.reactor_roll, e.reactor),
                        self._reactor_verdict(e),
                    ]
                )
        if e.damage is not None:
            both = (e.actor, e.reactor)
            line: list[str | Part] = [
                f"  {e.reactor} {DAMAGE_VERB} ",
                secret(e.damage, e.actor),
                ": ",
                secret(e.absorbed, *both),
                " absorbed, ",
                secret(e.trauma, *both),
                " trauma",
            ]
            if e.armor_left is not None and e.armor != 0:  # no armor: nothing to use up
                line += [", armor ", secret(e.armor_left, *both), " left"]
            lines.append(line)
        if e.current_trauma is not None and e.current_trauma <= 0:
            # The table sees a character go down; how far below 0 is the GM's.
            lines.append(
                [
                    f"  {e.reactor} is dying (current trauma ",
                    secret(e.current_trauma, e.reactor),
                    ")",
                ]
            )
        return lines

    @staticmethod
    def _unneeded_reaction(e: ExchangeResolved) -> list[str | Part]:
        """The reactor's line when the actor failed: the stage is hers whatever she
        rolled (rules §3.3), but a die the table rolled is still shown."""
        if e.reaction == "absorb":
            return [f"  {e.reactor} absorbs: nothing to absorb"]
        dodge = "dodges" if e.combat else "reacts"
        line: list[str | Part] = [
            f"  {e.reactor} {dodge} vs ",
            secret(e.reactor_target, e.reactor),
            *ForgeRules._preset(e, e.reactor),
            ": ",
        ]
        if e.reactor_rolled is None:
            return [*line, "no roll needed"]
        return [*line, secret(e.reactor_rolled, e.reactor), " (not needed)"]

    @staticmethod
    def _preset(e: ExchangeResolved, who: str) -> list[str | Part]:
        """The preset ``who``'s target took, by name (`` (distance 51-75 yd -40)``): as
        secret as the target it changed."""
        label = e.modifier_labels.get(who)
        return [] if label is None else [secret(f" ({label})", who, mask="")]

    @staticmethod
    def _reactor_verdict(e: ExchangeResolved) -> Part:
        """How the reaction went; ✓ or ✗ alone when either side is hidden."""
        assert e.reactor_roll is not None and e.thrown is not None  # she rolled
        if e.reactor_roll > e.reactor_target:
            return secret(" ✗, over", e.reactor, mask=" ✗")
        held = " ✗" if e.winner == e.actor else " ✓"
        if e.reactor_roll < e.thrown:
            word = ", lower"
        elif e.reactor_roll > e.thrown:
            word = ", higher"
        else:
            word = ", a tie (to the reactor)" if e.reactor_wins_ties else ", a tie (to the actor)"
        return secret(word, e.actor, e.reactor, mask=held)

    @staticmethod
    def _exchange(event: ExchangeEvent) -> ExchangeResolved:
        if not isinstance(event, ExchangeResolved):
            raise TypeError(f"{type(event).__name__} is not a FORGE stage")
        return event


FORGE = ForgeRules()
