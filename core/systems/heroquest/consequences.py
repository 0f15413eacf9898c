"""What a simple contest leaves behind (rules §2.6): the loser's state of adversity and the
winner's lingering benefit by victory level, and what states carried into a later
contest do to the rating they relate to."""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import RuleError

CONSEQUENCES = ("", "hurt", "impaired", "injured", "dying")  # §2.6, the loser's state
BENEFITS = (0, 0, 3, 6, 9)  # §2.6, the winner's lingering benefit


ADVERSITY_PENALTIES = {"hurt": 3, "impaired": 6}  # §2.6, on the target; "injured" bumps


def adversity_effects(states: Sequence[str]) -> tuple[int, int]:
    """What states of adversity carried into a contest do to the rating they relate to
    (rules §2.6): ``(condition, bumps_down)``, -3 per hurt and -6 per impairment on the
    target, one bump down per injury. A dying character cannot take part (RuleError)."""
    condition = bumps = 0
    for state in states:
        if state == "dying":
            raise RuleError("a dying character cannot take part in a contest")
        if state == "injured":
            bumps += 1
        elif state in ADVERSITY_PENALTIES:
            condition -= ADVERSITY_PENALTIES[state]
        else:
            raise RuleError(f'"{state}" is not a state of adversity (hurt, impaired, injured)')
    return condition, bumps
