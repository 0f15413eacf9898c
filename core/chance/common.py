"""What every system's odds build their JSON and text from (``core.rules.<system>_odds``).

Like :mod:`core.chance.solver`, this knows no rule system and imports none: the systems'
odds modules build on the two, and the rest of :mod:`core.odds` finds those modules
through the rule system registry.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from core.chance.solver import ContestOdds
from core.model import Contest

JSON = dict[str, Any]


def prob(key: str, value: Fraction | None) -> JSON:
    """``{key: float, key_exact: "a/b"}``, both null for an undefined chance."""
    if value is None:
        return {key: None, f"{key}_exact": None}
    return {key: float(value), f"{key}_exact": str(value)}


def contest_json(odds: ContestOdds | None, extra: JSON | None = None) -> JSON | None:
    """The contest odds as ``tussle odds`` prints them (``extra`` keys first)."""
    if odds is None:
        return None
    out: JSON = dict(extra or {})
    out["sides"] = {side: prob("win", p) for side, p in odds.sides.items()}
    return out


def over(contest: Contest) -> str:
    """The note of a finished contest's odds."""
    won = contest.winner or "nobody"
    return f"the contest is over ({won} won after exchange {contest.n}): nothing left to play"


def pct(value: float | None) -> str:
    """A chance for people, six characters wide: `` 58.4%``, ``   n/a``."""
    return "   n/a" if value is None else f"{value * 100:5.1f}%"
