"""Iconoclast FORGE contests: an actor throws a number at a reactor, stage by stage, on d100.

The rules are in ``shared/spec/rules.md`` part 3; the option names in ``scenario.md``.
One exchange is one *stage*: the actor rolls under her target and, on a success, throws a
number (her roll; in combat, the damage it deals) to the reactor, who wins the stage by
rolling within her own target and above that number (a tie goes to the reactor unless the
table says otherwise). Roles usually swap for the next stage; the GM ends the contest.

``ForgeRules`` decides what a command does to a contest (the events, or a ``RuleError``)
and evolves the contest by each event, the scoring done by ``scoring`` (the pure functions
the keypad's preview and the odds call too), the open stage's roles by ``stage``, and the
telling by ``wording``. The registry (``core.rules``) loads :mod:`core.systems.forge.beats`,
which extends this with rounds by beats.
"""

from __future__ import annotations

from typing import Any, ClassVar

from msgspec.structs import replace

from core.dice import DiceKind, check_faces
from core.errors import OutOfTurn, RuleError
from core.model import (
    Command,
    Contest,
    ContestEnded,
    DiceRolled,
    EndContest,
    Event,
    ExchangeEvent,
    ModifierSet,
    ResolveExchange,
    RollDice,
    SetModifier,
)
from core.redact import NO_SECRETS, Part, Secrets, render_all
from core.rules.base import JSON, RuleSystem, own, require_open, unknown_command, updated
from core.systems.forge.beat_round import REACTIONS
from core.systems.forge.events import (
    ChooseReaction,
    ExchangeResolved,
    ReactionChosen,
    RoundCommand,
    RoundEvent,
    RoundExchange,
    SetStage,
    StageSet,
)
from core.systems.forge.modifiers import DISTANCE_PRESETS
from core.systems.forge.scoring import absorb, stage_outcome
from core.systems.forge.stage import (
    check_not_dying,
    check_pair,
    default_actor,
    default_reactor,
    leading_side,
    missing_roll,
    reaction_of,
    reactor_roll_needed,
    stage_roles,
)
from core.systems.forge.state import ForgeContest
from core.systems.forge.wording import exchange_json, exchange_lines, final_json


def _no_round(c: ForgeContest) -> None:
    """Stages wait while a round by beats is under way."""
    if c.in_round and c.round is not None:
        raise OutOfTurn(
            f"round {c.round.number} by beats is under way (beat {c.round.beat}): "
            "attacks are sent in beats until it ends"
        )


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
                check_not_dying(c, command.who)
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
        check_not_dying(c, actor)
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
        check_not_dying(c, actor)
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
        return exchange_json(event)

    def final_json(self, contest: Contest) -> JSON:
        return final_json(own(contest, ForgeContest))

    def describe(self, event: ExchangeEvent, secrets: Secrets = NO_SECRETS) -> list[str]:
        """The exchange log's lines, with ``??`` for what ``secrets`` hide."""
        return render_all(self.lines(event), secrets)

    def lines(self, event: ExchangeEvent) -> list[list[str | Part]]:
        """The exchange log's lines, secrets marked (``wording.exchange_lines``)."""
        return exchange_lines(event)


FORGE = ForgeRules()
