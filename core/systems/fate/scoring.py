"""One Fate exchange scored from its totals (rules §1.3): the table's options, teamwork's
bonus, a create-an-advantage roll's outcome (§1.2) and who won the exchange, by how many
victories or with a twist. ``decide``, the keypad's preview and the odds all score
through these functions: one source of truth for the rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from core.limits import Int, Positive
from core.model import Saved

CODEC_TAG = "fate"  # the saved tags ("fate.ExchangeResolved"), as before the split

Outcome = Literal["fail", "tie", "success", "style"]
Effect = Literal["+2", "reroll", "oppose"]


def teamwork(skills: Sequence[int], cap: str = "none") -> tuple[int, int]:
    """The lead's skill and the teamwork bonus for a side whose members have ``skills``.

    The lead is the first highest skill; each other member at Average (+1) or better adds
    +1; with ``cap == "lead_skill"`` the bonus is at most the lead's skill (none at 0 or
    less). ``skills`` lists the members that still help (a helper whose advantage failed
    under "forfeit" is left out).
    """
    if not skills:
        return 0, 0
    lead_index = max(range(len(skills)), key=lambda i: (skills[i], -i))
    lead = skills[lead_index]
    bonus = sum(1 for i, s in enumerate(skills) if i != lead_index and s >= 1)
    if cap == "lead_skill":
        bonus = min(bonus, max(lead, 0))
    return lead, bonus


def advantage_outcome(result: int, opposition: int, style_threshold: int = 3) -> Outcome:
    """The four outcomes of rules §1.2 for a create-an-advantage roll."""
    shifts = result - opposition
    if shifts < 0:
        return "fail"
    if shifts == 0:
        return "tie"
    return "style" if shifts >= style_threshold else "success"


class FateOptions(Saved):
    """The table's rule options (scenario.md spells them; rules.md §4 gives defaults)."""

    mode: Literal["direct", "environment"] = "direct"
    difficulty: Int | None = None
    victories_needed: Positive = 3
    style_threshold: Positive = 3
    style_clause: Literal["core", "fae"] = "core"
    teamwork_cap: Literal["none", "lead_skill"] = "none"
    failed_advantage: Literal["forfeit", "cost"] = "forfeit"
    environment_requires_success: bool = False


class ExchangeScore(Saved):
    """Who won an exchange from the final totals, and what it was worth."""

    winner: str | None
    victories: Int
    twist: bool
    shifts: Mapping[str, Int] | None = None


def score_exchange(options: FateOptions, totals: Mapping[str, int]) -> ExchangeScore:
    """Score an exchange from each rolling side's final total (rules §1.3 step 4).

    Direct mode: the highest total wins by its margin over the next best (two victories
    at ``style_threshold``); a lone roller wins one. Environment mode: shifts against the
    difficulty, with the "no one else" clause unless ``style_clause == "fae"``. A tie for
    the best makes a twist. Nobody rolling scores nothing.
    """
    if not totals:
        return ExchangeScore(winner=None, victories=0, twist=False)
    if options.mode == "environment":
        difficulty = options.difficulty or 0
        shifts = {side: total - difficulty for side, total in totals.items()}
        best = max(shifts.values())
        leaders = [side for side, s in shifts.items() if s == best]
        if options.environment_requires_success and best < 0:
            return ExchangeScore(winner=None, victories=0, twist=False, shifts=shifts)
        if len(leaders) > 1:
            return ExchangeScore(winner=None, victories=0, twist=True, shifts=shifts)
        winner = leaders[0]
        others_style = any(
            s >= options.style_threshold for side, s in shifts.items() if side != winner
        )
        style = best >= options.style_threshold and (
            options.style_clause == "fae" or not others_style
        )
        return ExchangeScore(winner=winner, victories=2 if style else 1, twist=False, shifts=shifts)
    best = max(totals.values())
    leaders = [side for side, t in totals.items() if t == best]
    if len(leaders) > 1:
        return ExchangeScore(winner=None, victories=0, twist=True)
    winner = leaders[0]
    if len(totals) == 1:
        return ExchangeScore(winner=winner, victories=1, twist=False)
    margin = best - max(t for side, t in totals.items() if side != winner)
    return ExchangeScore(
        winner=winner, victories=2 if margin >= options.style_threshold else 1, twist=False
    )
