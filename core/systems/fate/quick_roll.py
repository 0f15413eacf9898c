"""Fate Core's quick rolls (``tussle roll``, the dashboard's quick roll): ``4dF+3`` is a
skill of +3 and four Fate dice, read on the ladder (``+4 Great``); ``4dF+3 vs 2`` (or
``vs Fair``) is that roll against a passive opposition: fail, tie, success or success
with style and the shifts (rules §1.2, scored by ``fate.advantage_outcome``), with the
exact chance from ``fate.odds``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.campaign.quick_roll import Faces, RollResult, modifiers, percent, split_vs
from core.dice import DiceKind
from core.errors import RuleError
from core.systems.fate.ladder import ladder_label, signed
from core.systems.fate.scoring import advantage_outcome

SYSTEM = "fate"
DICE = re.compile(r"4dF", re.IGNORECASE)
OUTCOMES = {
    "fail": "fail",
    "tie": "tie",
    "success": "success",
    "style": "success with style",
}


def on_ladder(value: int) -> str:
    """``+4 Great``, ``0 Mediocre``, ``-3`` (below the ladder, the number alone)."""
    label = ladder_label(value)
    return signed(value) if label == str(value) else f"{signed(value)} {label}"


@dataclass(frozen=True, slots=True)
class FateRoll:
    """``skill`` + 4dF, against ``opposition`` when there is one."""

    expression: str
    skill: int
    opposition: int | None
    dice: tuple[DiceKind, ...] = (DiceKind.FATE,)
    roles: tuple[str, ...] = ("four Fate dice",)

    def resolve(self, faces: Faces) -> RollResult:
        from core.systems.fate.odds import fate_roll_odds, four_df_at_least

        thrown = sum(faces[0])
        total = self.skill + thrown
        if self.opposition is None:
            return RollResult(
                system=SYSTEM,
                expression=self.expression,
                faces=faces,
                outcome=on_ladder(total),
                chance=f"chance of {on_ladder(total)} or better: "
                f"{percent(four_df_at_least(thrown))}",
            )
        outcome = advantage_outcome(total, self.opposition)
        shifts = total - self.opposition
        said = f"{OUTCOMES[outcome]}, {shifts} shift{'s' if shifts != 1 else ''}"
        if outcome == "fail":
            said = f"fail by {-shifts} shift{'s' if shifts != -1 else ''}"
        odds = fate_roll_odds(self.skill, self.opposition)
        return RollResult(
            system=SYSTEM,
            expression=self.expression,
            faces=faces,
            outcome=f"{on_ladder(total)} vs {on_ladder(self.opposition)}: {said}",
            chance=f"chance of success or better: {percent(odds['success'] + odds['style'])} "
            f"(with style: {percent(odds['style'])})",
        )


class FateQuickRolls:
    """Reads ``4dF``, ``4dF+3``, ``4dF-1+2``, ``4dF+3 vs 2``, ``4dF+3 vs Great``."""

    examples = ("4dF+3", "4dF+3 vs 2")

    def read(self, expression: str) -> FateRoll | None:
        sides = split_vs(expression)
        if not DICE.match(sides[0]):
            return None
        skill = modifiers(sides[0][3:])
        if skill is None:
            raise RuleError(
                f'"{sides[0]}": write 4dF and the skill after it, like 4dF+3 (or 4dF-1)'
            )
        if len(sides) > 2:
            raise RuleError(f'"{expression}": one "vs" at most, like 4dF+3 vs 2')
        if len(sides) == 1:
            return FateRoll(expression, skill, None)
        from core.systems.fate.sheet import difficulty

        try:
            opposition = difficulty(sides[1])
        except RuleError:
            raise RuleError(
                f'"{sides[1]}" is not an opposition: write a number or a ladder name '
                "after vs, like 4dF+3 vs 2 or 4dF+3 vs Fair"
            ) from None
        return FateRoll(expression, skill, opposition)


QUICK_ROLLS = FateQuickRolls()
