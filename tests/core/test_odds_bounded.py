"""Odds in bounded memory for any rating a file or a form accepts (issue 30, item 8): a Fate
skill or a ``next.bonus`` of 10^9 took ``tussle odds`` past 3 GB, because the exchange was
counted over every total between the lowest and the highest. Worked out by hand: a side
whose lowest total (skill - 4) is above every other side's highest total (skill + 4) by
three or more wins every throw with style (two victories, Fate Core "Contests")."""

from __future__ import annotations

import json
import tracemalloc
from fractions import Fraction
from typing import Any

import pytest

from core.limits import SIZE
from core.odds.next import load_for_odds
from core.odds.report import odds_for
from core.systems.fate.odds import fate_exchange_counts
from core.systems.fate.scoring import FateOptions

FAR_APART = [0, SIZE, 3]  # the middle side is out of anyone's reach


def peak_mib(work: Any) -> float:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def test_three_sides_a_billion_apart_are_counted_in_a_few_mebibytes() -> None:
    specs = tuple((skill, True) for skill in FAR_APART)
    fate_exchange_counts.cache_clear()
    assert peak_mib(lambda: fate_exchange_counts(FateOptions(), specs)) < 16
    counts = fate_exchange_counts(FateOptions(), specs)
    throws = 81**3
    assert counts.denominator == throws
    assert counts.two == (0, throws, 0)  # style every time: the others never come near
    assert counts.one == (0, 0, 0) and counts.tie == counts.none == 0


def test_sides_far_apart_count_as_they_would_close_together() -> None:
    """Moving every skill by the same amount changes no outcome: +0 against +1 counts as
    +1000 against +1001 (far from each other's neighbours, not from each other)."""
    near = fate_exchange_counts(FateOptions(), ((0, True), (1, True)))
    far = fate_exchange_counts(FateOptions(), ((1000, True), (1001, True)))
    assert near == far
    # +0 against +1 by hand, from the 4dF counts 1 4 10 16 19 16 10 4 1 (-4..+4): the
    # chance the +0 side's total is higher than the +1 side's is the chance its dice beat
    # the other's by two or more.
    df = dict(zip(range(-4, 5), (1, 4, 10, 16, 19, 16, 10, 4, 1), strict=True))
    wins = sum(df[a] * df[b] for a in df for b in df if a - b >= 2)
    assert sum(near.one[:1]) + sum(near.two[:1]) == wins


@pytest.mark.parametrize("where", ["skill", "bonus"])
def test_tussle_odds_with_a_billion_stays_small(where: str) -> None:
    data: dict[str, Any] = {
        "system": "fate",
        "participants": [{"name": "Cynere", "skill": 4}, {"name": "Teran", "skill": 3}],
        "exchanges": [],
    }
    if where == "skill":
        data["participants"][1]["skill"] = SIZE
    else:
        data["next"] = {"bonus": {"Teran": SIZE}}
    scenario = load_for_odds(json.dumps(data).encode())
    fate_exchange_counts.cache_clear()
    out: dict[str, Any] = {}
    assert peak_mib(lambda: out.update(odds_for(scenario))) < 64
    teran = out["exchange"]["sides"]["Teran"]
    assert Fraction(teran["win_exact"]) == 1  # every throw: the margin is far past style
