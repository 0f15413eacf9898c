"""The coin race's exact odds: the coming exchange, and the race from the score.

The exchange: the coins still to flip are counted over their 2 faces each, those already
flipped as they fell, each throw scored by ``rules.scorer``. With ``k`` sides and nothing
flipped, a side scores with the ``1`` throw of ``2**k`` where its coin alone is heads:
``1/2**k`` each, and the rest is a tie (two sides: 1/4 each, a tie 1/2).

The race: a tie changes nothing, so only scoring exchanges count, and each of those goes
to any side alike (``1/k``); the generic solver (``core.chance.solver.Chain``) sums it.
Two sides at 1–0, first to 3: Ann needs 2 of the next scoring exchanges before Bob gets
3, that is 2 or more of the next 4, ``1 - (1 + 4)/16 = 11/16``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

from core.chance.common import JSON, contest_json, over, pct, prob
from core.chance.solver import MAX_SCORES, Chain, ContestOdds
from core.model import Contest
from core.rules.base import SystemOdds, own
from tests.plugins.coin_race.rules import FACE_NAMES, CoinContest, flippers, scorer


def exchange_counts(c: CoinContest) -> tuple[dict[str, int], int, int]:
    """How many equally likely throws of the coins still to flip each side scores in,
    how many tie, and how many throws there are."""
    sides = {who: c.participant(who).side for who in flippers(c)}
    open_ = [who for who in sides if who not in c.flips]
    wins = dict.fromkeys(c.sides, 0)
    ties = 0
    for faces in itertools.product(FACE_NAMES, repeat=len(open_)):
        coins = {**c.flips, **dict(zip(open_, faces, strict=True))}
        side = scorer({sides[who]: face for who, face in coins.items()})
        if side is None:
            ties += 1
        else:
            wins[side] += 1
    return wins, ties, 2 ** len(open_)


@cache
def chain(sides: int, target: int) -> Chain:
    """A plain exchange: each side scores alike (the weights' ratio is all that counts)."""
    return Chain(sides, target, [(s, 1, 1) for s in range(sides)])


def contest_odds(c: CoinContest) -> ContestOdds | None:
    """Each side's chance to win the race from here, the coins of the coming exchange
    that have fallen counted; None when there are too many scores to solve."""
    k, target = len(c.sides), c.options.target
    if target**k > MAX_SCORES:
        return None
    wins, _, total = exchange_counts(c)
    first = {(i, 1): wins[side] for i, side in enumerate(c.sides)}
    score = [c.points.get(side, 0) for side in c.sides]
    values = chain(k, target).odds(score, first, total)
    return ContestOdds(sides=dict(zip(c.sides, values, strict=True)))


def _json(c: CoinContest) -> JSON:
    out: JSON = {
        "finished": c.finished,
        "score": {side: c.points.get(side, 0) for side in c.sides},
        "target": c.options.target,
    }
    if c.finished:
        return {**out, "exchange": None, "contest": None, "note": over(c)}
    wins, ties, total = exchange_counts(c)
    by_side = {c.participant(who).side: who for who in flippers(c)}
    exchange: JSON = {
        "sides": {
            side: {
                "flipper": by_side[side],
                "coin": FACE_NAMES.get(c.flips.get(by_side[side], 0)),
                **prob("win", Fraction(wins[side], total)),
            }
            for side in c.sides
        },
        **prob("tie", Fraction(ties, total)),
    }
    odds = contest_odds(c)
    note = None
    if odds is None:
        note = f"too many possible scores to solve the race (over {MAX_SCORES:,})"
    return {**out, "exchange": exchange, "contest": contest_json(odds), "note": note}


class CoinOdds(SystemOdds):
    """The coin race's :class:`core.rules.base.SystemOdds`."""

    def odds_json(self, contest: Contest) -> JSON:
        return _json(own(contest, CoinContest))

    def score_lines(self, odds: JSON) -> list[str]:
        score = ", ".join(f"{side} {v}" for side, v in odds["score"].items())
        return [f"Score: {score} (first to {odds['target']})"]

    def exchange_lines(self, exchange: JSON) -> list[str]:
        width = max(len(side) for side in exchange["sides"]) + 2
        lines = []
        for side, o in exchange["sides"].items():
            coin = f"  ({o['coin']} already)" if o["coin"] else ""
            lines.append(f"  {side:<{width}}scores {pct(o['win'])}{coin}")
        lines.append(f"  tie {pct(exchange['tie'])}")
        return lines

    def clear_caches(self) -> None:
        chain.cache_clear()


COIN_ODDS = CoinOdds()
