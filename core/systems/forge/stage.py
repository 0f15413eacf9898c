"""The open stage of a FORGE contest (rules §3.3): who acts and who reacts (the GM's
choice, else the defaults from the stage before), whether either is dying, the reaction in
combat, whose roll the stage still needs, and the side ahead on stage wins."""

from __future__ import annotations

from collections.abc import Mapping

from core.errors import OutOfTurn, RuleError
from core.model import Participant
from core.systems.forge.beat_round import Reaction
from core.systems.forge.scoring import actor_succeeds
from core.systems.forge.state import ForgeContest


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


def check_not_dying(c: ForgeContest, who: str) -> None:
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
