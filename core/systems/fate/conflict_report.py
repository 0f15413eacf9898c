"""The odds of a Fate conflict as ``tussle odds`` prints them and the dashboard shows
them: each participant's chance of being taken out by the end of the coming exchange, and
each side's chance of winning the conflict from here (``conflict_odds``, exact). The
"coming exchange" is what is left of the one under way: the attacks from whose turn it
is to the last in the turn order.

Each participant rolls their best attack and defense for the conflict's kind (physical:
Fight or Shoot to attack, Athletics or Fight to defend; mental: Provoke, and Will), as
the SRD's Attack and Defend actions allow; what the odds leave out is said in ``note``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from core.chance.common import JSON, pct, prob
from core.systems.fate.conflict_odds import TooManyStates, conflict_odds
from core.systems.fate.conflict_play import FateConflict

ATTACK = {"physical": ("Fight", "Shoot"), "mental": ("Provoke",)}
DEFENSE = {"physical": ("Athletics", "Fight"), "mental": ("Will",)}
NOT_MODELLED = (
    "each attacks the first foe still in, in turn order, with their best skills; invokes, "
    "advantages, boosts, full defense and concessions are not counted"
)


def ratings(c: FateConflict) -> dict[str, tuple[int, int]]:
    """Each participant's (attack, defense) for the conflict's kind: their best."""
    kind = c.conflict.kind
    return {
        p.name: (
            max(c.rating(p.name, s) for s in ATTACK[kind]),
            max(c.rating(p.name, s) for s in DEFENSE[kind]),
        )
        for p in c.participants
    }


def conflict_json(c: FateConflict) -> JSON:
    """``finished``, who is still in (``score``), the coming exchange's chance of each
    one being taken out (``exchange``), each side's chance to win (``contest``), and the
    ``note``."""
    standing = {
        x.name: "taken out" if x.taken_out else "conceded" if x.conceded else "in"
        for x in c.conflict.combatants
    }
    out: JSON = {"conflict": True, "finished": c.finished, "score": standing}
    if c.finished:
        return {**out, "exchange": None, "contest": None, "note": "the conflict is over"}
    notes = [NOT_MODELLED]
    waiting = None
    if c.hit is not None:  # as rolled, its invokes paid: absorbed the policy's way
        waiting = (c.hit.target, c.hit.track, c.hit.shifts)
        notes.append(
            f"the hit waiting on {c.hit.target} ({c.hit.shifts} shifts, invokes included) "
            "is counted as absorbed the way that leaves the most room, or taken out"
        )
    try:  # from whose turn it is to the end of this exchange; the conflict from here
        taken, wins = conflict_odds(c.conflict, ratings(c), waiting=waiting)
    except TooManyStates as error:
        return {**out, "exchange": None, "contest": None, "note": str(error)}
    return {
        **out,
        "exchange": {
            "exchange": c.conflict.exchange,
            "taken_out": {name: prob("chance", p) for name, p in taken.items()},
        },
        "contest": {"sides": {side: prob("win", wins.get(side, Fraction(0))) for side in c.sides}},
        "note": "; ".join(notes),
    }


def score_lines(odds: Mapping[str, object]) -> list[str]:
    score = odds["score"]
    assert isinstance(score, dict)
    return ["Conflict: " + ", ".join(f"{name} {how}" for name, how in score.items())]


def exchange_heading(exchange: Mapping[str, object]) -> str:
    """The exchange the taken-out odds run to the end of: the one under way, which may
    have begun (its number, not "Next exchange")."""
    return f"Exchange {exchange['exchange']}, to its end:"


def exchange_lines(exchange: Mapping[str, object]) -> list[str]:
    taken = exchange["taken_out"]
    assert isinstance(taken, dict)
    width = max(len(n) for n in taken) + 2
    return [
        f"  {name:<{width}}taken out by its end {pct(o['chance'])}" for name, o in taken.items()
    ]
