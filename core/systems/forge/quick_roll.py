"""FORGE's quick rolls (``tussle roll``, the dashboard's quick roll): ``d100 vs 45`` is an
actor's d100 against a target of 45 (rules §3.2-3.3): roll-under, success when the roll is
at most the target, and the number a success throws (outside combat, the roll itself).
Modifiers change the target, never the roll (``d100 vs 45-20``, aiming at a hand). A
target of 100 or more succeeds whatever the roll, and still rolls for the number it throws
(A-I2); one of 0 or less cannot succeed, and rolls nothing. Scored by ``forge.scoring``
(``actor_succeeds``, ``thrown_number``), the chance counted by ``forge.odds``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.campaign.quick_roll import Faces, RollResult, modifiers, percent, split_vs
from core.dice import DiceKind
from core.errors import RuleError
from core.systems.forge.scoring import AUTOMATIC, actor_succeeds, thrown_number

SYSTEM = "forge"
D100 = re.compile(r"d100", re.IGNORECASE)
TARGET = re.compile(r"(?P<target>[0-9]+)(?P<mods>.*)")


@dataclass(frozen=True, slots=True)
class ForgeRoll:
    """An actor's d100 against ``target`` (after modifiers)."""

    expression: str
    target: int

    @property
    def dice(self) -> tuple[DiceKind, ...]:
        return (DiceKind.D100,) if self.target > 0 else ()

    @property
    def roles(self) -> tuple[str, ...]:
        return ("the actor",) if self.target > 0 else ()

    def resolve(self, faces: Faces) -> RollResult:
        from core.systems.forge.odds import forge_success

        chance = f"chance of success: {percent(forge_success(self.target))}"
        if self.target <= 0:
            return RollResult(
                system=SYSTEM,
                expression=self.expression,
                faces=faces,
                outcome=f"failure: a target of {self.target} cannot succeed (no roll)",
                chance=chance,
            )
        roll = faces[0][0]
        if not actor_succeeds(self.target, roll):
            return RollResult(
                system=SYSTEM,
                expression=self.expression,
                faces=faces,
                outcome="failure",
                details=(f"{roll} is over the target, {self.target}",),
                chance=chance,
            )
        automatic = self.target >= AUTOMATIC
        why = (
            f"a target of {self.target} succeeds whatever the roll"
            if automatic
            else f"{roll} is within the target, {self.target}"
        )
        return RollResult(
            system=SYSTEM,
            expression=self.expression,
            faces=faces,
            outcome=f"{'automatic ' if automatic else ''}success: throws {thrown_number(roll)}",
            details=(why,),
            chance=chance,
        )


class ForgeQuickRolls:
    """Reads ``d100 vs 45``, ``d100 vs 45-20``."""

    examples = ("d100 vs 45",)

    def read(self, expression: str) -> ForgeRoll | None:
        sides = split_vs(expression)
        if not D100.fullmatch(sides[0]):
            return None
        match = TARGET.fullmatch(sides[1]) if len(sides) == 2 else None
        extra = modifiers(match["mods"]) if match else None
        if match is None or extra is None:
            raise RuleError(
                f'"{expression}": write the target after vs, then any modifiers, like '
                "d100 vs 45 or d100 vs 45-20"
            )
        return ForgeRoll(expression, int(match["target"]) + extra)


QUICK_ROLLS = ForgeQuickRolls()
