"""The generic exact solver: a race to a goal as a Markov chain, solved in fractions.

Nothing here knows a rule system: each system's odds (``core.rules.<system>_odds``) counts
one exchange's scoring outcomes with its own scoring function and hands them to a
:class:`Chain`, which gives each side's exact chance to win the contest from a score.

The contest is a Markov chain over the score vectors: from each score, each scoring
outcome's weight over the total scoring weight. It is solved backwards over the box of
scores reachable from the current one with integer numerators over powers of the scoring
weight (one division at the end), and each system memoises its chains per (options,
ratings), so the dashboard's next update reuses every score already solved.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

# The most scores a contest may have (victories needed to the power of the sides) for its
# odds to be solved: 6 sides first to 5 is 15,625 (about a quarter of a second cold).
MAX_SCORES = 20_000

Move = tuple[int, int, int]  # (side index, points gained, weight)
Counts = Mapping[tuple[int, int], int]  # {(side index, points gained): weight}


@dataclass(frozen=True, slots=True)
class ContestOdds:
    """Each side's chance to win the whole contest; ``note`` says what is unusual
    (nobody can ever score...)."""

    sides: Mapping[str, Fraction]
    note: str | None = None


def merge(moves: Iterable[Move]) -> list[Move]:
    """``moves`` with the weights of the same (side, points) added up."""
    merged: dict[tuple[int, int], int] = {}
    for s, v, w in moves:
        merged[(s, v)] = merged.get((s, v), 0) + w
    return [(s, v, w) for (s, v), w in merged.items()]


class Chain:
    """A race to ``goal`` points between ``k`` sides, one side scoring per exchange.

    ``moves`` are the scoring outcomes of one plain exchange, ``(side, points, weight)``
    with integer weights over any common denominator; the rest of that denominator (ties,
    nobody scoring) repeats the exchange, so only the weights' ratios matter. A side at
    ``goal`` or more has won. :meth:`odds` gives each side's exact chance to win from a
    score, the coming exchange having its own outcomes.

    Values are integer numerators ``U(x)`` over ``W ** h(x)``, ``W`` the total scoring
    weight and ``h(x) = k * (goal - 1) + 1 - sum(x)``: a scoring step from ``x`` to a live
    ``y`` gains ``v`` points, so ``h(y) = h(x) - v`` and the step's factor is
    ``w * W ** (v - 1)``; a step that wins is ``w * W ** (h(x) - 1)``. The ``k``
    numerators of a score are packed into one integer, ``bits`` bits each (they are never
    negative and sum to ``W ** h(x)``, so no slot overflows): one step is one
    multiply-add, which makes this faster than the same chain in floats. Scores are
    numbered in base ``goal``.
    """

    def __init__(self, k: int, goal: int, moves: Sequence[Move]) -> None:
        self.k = k
        self.goal = goal
        self.moves = tuple(m for m in moves if m[2] > 0)
        self.total = sum(m[2] for m in self.moves)
        self.horizon = k * (goal - 1) + 1
        self.bits = self.horizon * max(self.total.bit_length(), 1) + 1
        self.radix = tuple(goal**i for i in range(k))
        self._packed: dict[int, int] = {}
        self._powers = [1]
        self._odds: dict[tuple[object, ...], tuple[Fraction, ...]] = {}

    @property
    def stuck(self) -> bool:
        """Nobody can ever score a plain exchange: the contest may never end."""
        return self.total == 0

    def index(self, score: Sequence[int]) -> int:
        return sum(map(operator.mul, score, self.radix))

    def _power(self, e: int) -> int:
        while len(self._powers) <= e:
            self._powers.append(self._powers[-1] * self.total)
        return self._powers[e]

    def _solve(self, start: tuple[int, ...]) -> None:
        """Solve every live score reachable from ``start`` (the box above it), the
        highest first so that each score's successors are known."""
        memo, goal, bits, radix = self._packed, self.goal, self.bits, self.radix
        if self.index(start) in memo:
            return
        box = sorted(itertools.product(*(range(s, goal) for s in start)), key=sum, reverse=True)
        steps = [
            (s, v, w << (s * bits), w * self._power(v - 1), v * radix[s]) for s, v, w in self.moves
        ]
        for y in box:
            here = sum(map(operator.mul, y, radix))
            if here in memo:
                continue
            win = self._power(self.horizon - sum(y) - 1)
            acc = 0
            for s, v, slot, factor, jump in steps:
                if y[s] + v >= goal:
                    acc += slot * win
                else:
                    acc += factor * memo[here + jump]
            memo[here] = acc

    def odds(self, score: Sequence[int], first: Counts, denominator: int) -> tuple[Fraction, ...]:
        """Each side's chance to win from live ``score`` when the coming exchange's
        scoring outcomes are counted ``first`` over ``denominator`` (the rest scores
        nothing) and later exchanges are plain. 0 for a side that can never win."""
        start = tuple(score)
        key = (start, tuple(sorted(first.items())), denominator)
        found = self._odds.get(key)
        if found is None:
            found = self._odds[key] = self._compute(start, first, denominator)
        return found

    def _compute(
        self, start: tuple[int, ...], first: Counts, denominator: int
    ) -> tuple[Fraction, ...]:
        k, goal = self.k, self.goal
        stay = denominator - sum(first.values())
        live: list[tuple[int, tuple[int, ...]]] = []  # (count, score) still to play
        won = [0] * k
        for (s, v), n in first.items():
            if not n:
                continue
            if start[s] + v >= goal:
                won[s] += n
            else:
                live.append((n, (*start[:s], start[s] + v, *start[s + 1 :])))
        if stay:
            live.append((stay, start))
        if self.stuck:  # only the coming exchange can score
            return tuple(Fraction(n, denominator) for n in won)
        self._solve(start)  # every score after the coming exchange with it
        top = self._power(self.horizon - sum(start))
        numerators = [n * top for n in won]
        mask = (1 << self.bits) - 1
        for n, y in live:
            packed = self._packed[self.index(y)]
            factor = n * self._power(sum(y) - sum(start))
            for i in range(k):  # unpacked: these sums may outgrow a slot
                numerators[i] += factor * ((packed >> (i * self.bits)) & mask)
        return tuple(Fraction(u, denominator * top) for u in numerators)
