"""One FORGE stage scored (rules §3.2-3.4): whether the actor succeeds, the number she
throws (in combat, the damage: ``damage``), whether the reactor beats it, and what armor
absorbs. ``decide``, the keypad's preview, the odds, the rounds by beats and the quick roll
all score through these functions: one source of truth for the rules."""

from __future__ import annotations

from core.limits import Int
from core.model import Saved
from core.rules.base import round_half_up
from core.systems.forge.beat_round import Reaction

CODEC_TAG = "forge"  # the saved tags ("forge.StageOutcome"), as before the split

AUTOMATIC = 100  # a target at or above this succeeds whatever the roll (rules §3.2)


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
