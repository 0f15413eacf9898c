"""``tussle bench engine`` resolves made-up contests of 1,000 and 10,000 exchanges: each
must be a contest the rules allow to its end, or the bench fails with a traceback where
its figures should be (it did once the HeroQuest keypad kept the dying rule, §2.6: a
complete defeat midway through its chain left the Foe dying, and his next roll was
refused). No timing here: ``tussle bench`` measures, this checks what it measures."""

from __future__ import annotations

import random

import pytest

from core.cli.bench import ENGINE_CASES, SEED
from core.scenario import resolve


@pytest.mark.parametrize(("label", "make"), ENGINE_CASES, ids=[c[0] for c in ENGINE_CASES])
def test_the_benchs_contests_play_to_their_end(label: str, make: object) -> None:
    assert callable(make)
    # The bench's own two (its SEED), and two other draws: the rolls are chosen by rule.
    for n, seed in [(1_000, SEED), (10_000, SEED), (1_000, SEED + 1), (1_000, SEED + 2)]:
        scenario = make(n, random.Random(seed))
        assert len(resolve(scenario).exchanges) == n, (label, seed)
