"""FORGE's commands (what the GM asks: the stage's roles, dodge or absorb) and events
(what happened, down to ``ExchangeResolved``, a stage scored), saved as they are; and the
bases of a round by beats' commands and events (:mod:`core.systems.forge.beats`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import msgspec

from core.limits import Count, Int
from core.model import Command, Event, ExchangeEvent
from core.redact import Part
from core.rules.base import JSON
from core.systems.forge.beat_round import Reaction
from core.systems.forge.state import ForgeContest

CODEC_TAG = "forge"  # the saved tags ("forge.ExchangeResolved"), as before the split


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
