"""FORGE's exact odds: the coming stage, counted over the d100 rolls still to come.

Each pair of rolls (100x100) is scored by ``forge.stage_outcome``, never by a second copy
of the rules. A FORGE contest ends when the GM says so: it has stage odds, no contest
odds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from core.chance.common import JSON, over, pct, prob
from core.errors import RuleError
from core.model import Contest
from core.rules.base import SystemOdds, own
from core.systems.forge.scoring import actor_succeeds, stage_outcome
from core.systems.forge.stage import reaction_of, stage_roles
from core.systems.forge.state import ForgeContest


@dataclass(frozen=True, slots=True)
class ForgeStageOdds:
    """The coming stage: the actor's chance to win it (the reactor wins the rest), with
    the reaction chosen; in combat also the chance for each reaction (dodge, absorb)."""

    actor: str
    reactor: str
    targets: tuple[int, int]
    actor_wins: Fraction
    reaction: str | None = None
    by_reaction: Mapping[str, Fraction] = field(default_factory=dict)


@lru_cache(maxsize=1024)
def forge_actor_wins(
    actor_target: int,
    actor_roll: int | None,
    reactor_target: int,
    reactor_roll: int | None,
    combat: bool,
    multiplier: int,
    max_damage: int | None,
    reaction: str,
    reactor_wins_ties: bool,
) -> Fraction:
    """The actor's chance to win a stage, over the d100 rolls still to come, each pair
    scored by ``forge.stage_outcome``. A roll ``stage_outcome`` does not need (it accepts
    None for it) is not enumerated."""

    def outcome(a: int | None, r: int | None) -> bool:
        return stage_outcome(
            actor_target,
            a,
            reactor_target,
            r,
            combat=combat,
            multiplier=multiplier,
            max_damage=max_damage,
            reaction="absorb" if reaction == "absorb" else "dodge",
            reactor_wins_ties=reactor_wins_ties,
        ).actor_wins

    def over_reactor(a: int | None) -> Fraction:
        if reactor_roll is not None:
            return Fraction(int(outcome(a, reactor_roll)))
        try:
            return Fraction(int(outcome(a, None)))  # the reactor's roll is not needed
        except ValueError:
            return Fraction(sum(outcome(a, r) for r in range(1, 101)), 100)

    if actor_roll is not None:
        return over_reactor(actor_roll)
    try:
        return over_reactor(None)  # the actor's roll is not needed (target <= 0)
    except ValueError:
        return sum((over_reactor(a) for a in range(1, 101)), Fraction(0)) / 100


def forge_stage_odds(contest: ForgeContest) -> ForgeStageOdds | None:
    """The open stage's odds with its roles (set, or the defaults), modifiers, reaction
    and any roll already in. None when the roles are not known yet."""
    c = contest
    try:
        actor, reactor = stage_roles(c)
    except RuleError:
        return None
    weapon = c.participant(actor)
    reaction = reaction_of(c)

    def chance(how: str) -> Fraction:
        return forge_actor_wins(
            c.target(actor),
            c.rolls.get(actor),
            c.target(reactor),
            c.rolls.get(reactor),
            c.options.combat,
            weapon.multiplier,
            weapon.max_damage,
            how,
            c.options.reactor_wins_ties,
        )

    by_reaction = {how: chance(how) for how in ("dodge", "absorb")} if reaction else {}
    return ForgeStageOdds(
        actor=actor,
        reactor=reactor,
        targets=(c.target(actor), c.target(reactor)),
        actor_wins=chance(reaction or "dodge"),
        reaction=reaction,
        by_reaction=by_reaction,
    )


def _forge_json(c: ForgeContest) -> JSON:
    out: JSON = {
        "finished": c.finished,
        "stage_wins": {s: c.stage_wins.get(s, 0) for s in c.sides},
    }
    if c.finished:
        return {**out, "exchange": None, "contest": None, "note": over(c)}
    if c.in_round and c.round is not None:
        note = f"round {c.round.number} by beats: no odds for a beat"
        return {**out, "exchange": None, "contest": None, "note": note}
    stage = forge_stage_odds(c)
    if stage is None:
        return {**out, "exchange": None, "contest": None, "note": "name the first stage's actor"}
    exchange: JSON = {
        "actor": {"name": stage.actor, "target": stage.targets[0], **prob("win", stage.actor_wins)},
        "reactor": {
            "name": stage.reactor,
            "target": stage.targets[1],
            **prob("win", 1 - stage.actor_wins),
        },
        "combat": c.options.combat,
        "reaction": stage.reaction,
    }
    if stage.by_reaction:
        exchange["reactions"] = {how: prob("actor_win", p) for how, p in stage.by_reaction.items()}
    return {
        **out,
        "exchange": exchange,
        "contest": None,
        "note": "a FORGE contest ends when the GM ends it: no contest odds",
    }


class ForgeOdds(SystemOdds):
    """FORGE's odds for ``core.odds`` (:class:`core.rules.base.SystemOdds`)."""

    def odds_json(self, contest: Contest) -> JSON:
        return _forge_json(own(contest, ForgeContest))

    def score_lines(self, odds: JSON) -> list[str]:
        wins = ", ".join(f"{s} {v}" for s, v in odds["stage_wins"].items())
        return [f"Stage wins: {wins}"]

    def exchange_lines(self, exchange: JSON) -> list[str]:
        ex = exchange
        lines: list[str] = []
        width = max(len(n) for n in (ex["actor"]["name"], ex["reactor"]["name"])) + 2
        for role in ("actor", "reactor"):
            o = ex[role]
            lines.append(
                f"  {role:<8}{o['name']:<{width}}target {o['target']:>4}  wins {pct(o['win'])}"
            )
        for how, o in ex.get("reactions", {}).items():
            lines.append(f"  if the reactor chooses {how}: actor wins {pct(o['actor_win'])}")
        return lines

    def clear_caches(self) -> None:
        forge_actor_wins.cache_clear()


FORGE_ODDS = ForgeOdds()


def forge_success(target: int) -> Fraction:
    """The chance that one d100 succeeds against ``target`` (a quick roll), each roll
    scored by ``forge.actor_succeeds`` (rules §3.2: roll-under, automatic at 100 or more,
    impossible at 0 or less)."""
    return Fraction(sum(actor_succeeds(target, roll) for roll in range(1, 101)), 100)
