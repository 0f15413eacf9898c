"""Exact odds: the chance of each outcome of the coming exchange, and of the whole contest.

Everything here is counted, not simulated: the dice of every system are few enough to
enumerate (81 throws of 4dF per side, 20x20 d20 pairs, 100x100 d100 pairs), and each
outcome is scored by the system's own pure scoring function (``fate.score_exchange``,
``heroquest.simple_contest``, ``forge.stage_outcome``), never by a second copy of the rules.
Probabilities are :class:`fractions.Fraction`, always exact; a contest with more than
``MAX_SCORES`` possible scores is not solved (its odds are null, with a note).

Assumptions (the README states them too):

* Dice are fair.
* Nobody makes further choices: no more invokes, advantages, hero points, augments or
  stretches than those already entered for the coming exchange. What is entered counts
  for that exchange only (it is one roll's bonus); the contest's later exchanges are
  played plain, between the same sides (Fate: every side rolls its lead skill plus
  teamwork; HeroQuest: the same two parties at rating + vitality).
* Exchanges are independent. A Fate tie (or an exchange where nobody scores) and a
  HeroQuest tie change nothing, so the contest odds are those of the next *scoring*
  exchange, repeated: the geometric series is summed exactly by conditioning on scoring.
* A HeroQuest chained (not extended) contest and a FORGE contest end when somebody leaves
  or the GM says so: they have exchange odds but no contest odds.

How the Fate exchange stays fast with many sides (9^k dice combinations for k sides): when
one side's total is the highest alone, the exchange's outcome depends only on that total
and the best of the others (direct: the margin; environment: the shifts and whether any
other side reaches style). So each side's total is paired with the distribution of the
*maximum of the others* (a product of cumulative counts), and ``score_exchange`` is asked
once per (total, best other) pair, with a two-side table standing for the whole field.
A shared highest total is asked the same way (a tie, or nobody scoring). The tests check
this against ``score_exchange`` on every combination of dice for two to five sides.

The contest is a Markov chain over the score vectors: from each score, each scoring
outcome's weight over the total scoring weight. It is solved backwards over the box of
scores reachable from the current one with integer numerators over powers of the scoring
weight (one division at the end), memoised per (options, ratings), so the dashboard's
next update reuses every score already solved.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, NoReturn

if TYPE_CHECKING:  # the rule modules load on demand (a Fate table never pays for FORGE)
    from core.model import Contest
    from core.rules.fate import FateContest, FateOptions
    from core.rules.forge import ForgeContest
    from core.rules.heroquest import HQContest, Party
    from core.scenario.reader import Node

JSON = dict[str, Any]

# The most scores a contest may have (victories needed to the power of the sides) for its
# odds to be solved: 6 sides first to 5 is 15,625 (about a quarter of a second cold).
MAX_SCORES = 20_000

ASSUMPTIONS = (
    "Assumes fair dice and no further choices (invokes, advantages, hero points) beyond "
    "those entered; later exchanges are played plain."
)


def four_df() -> dict[int, int]:
    """How many of the 81 throws of four Fate dice give each sum (-4..+4)."""
    counts: dict[int, int] = {}
    for faces in itertools.product((-1, 0, 1), repeat=4):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return dict(sorted(counts.items()))


FOUR_DF = four_df()
FOUR_DF_THROWS = 81


# -- the Markov chain of a contest ----------------------------------------------------------

Move = tuple[int, int, int]  # (side index, points gained, weight)
Counts = Mapping[tuple[int, int], int]  # {(side index, points gained): weight}


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


# -- Fate -----------------------------------------------------------------------------------

Spec = tuple[int, bool]  # (base, rolls): base + 4dF when it rolls, else a known total


@dataclass(frozen=True, slots=True)
class ExchangeCounts:
    """One Fate exchange's outcomes counted over ``denominator`` equally likely throws:
    ``one[i]``/``two[i]`` side ``i`` wins one / two victories; ``tie`` a tie for the best
    (a twist); ``none`` nobody scores (and no twist)."""

    denominator: int
    one: tuple[int, ...]
    two: tuple[int, ...]
    tie: int
    none: int


@lru_cache(maxsize=65_536)
def _fate_outcome(options: FateOptions, total: int, best_other: int | None) -> tuple[int, bool]:
    """``score_exchange`` for a side at ``total`` against a field whose best is
    ``best_other`` (None: alone): (victories the side wins, 0 if it does not; twist)."""
    from core.rules.fate import score_exchange

    totals = {"a": total} if best_other is None else {"a": total, "b": best_other}
    scored = score_exchange(options, totals)
    if best_other is not None and total > best_other and scored.winner == "b":
        raise AssertionError("score_exchange: a lone highest total lost")  # pragma: no cover
    return (scored.victories if scored.winner == "a" else 0), scored.twist


def _distribution(spec: Spec) -> tuple[dict[int, int], int]:
    base, rolls = spec
    if not rolls:
        return {base: 1}, 1
    return {base + d: c for d, c in FOUR_DF.items()}, FOUR_DF_THROWS


@lru_cache(maxsize=4096)
def fate_exchange_counts(options: FateOptions, specs: tuple[Spec, ...]) -> ExchangeCounts:
    """Count a Fate exchange's outcomes for sides ``specs`` (see :data:`Spec`)."""
    k = len(specs)
    if k == 0:
        return ExchangeCounts(denominator=1, one=(), two=(), tie=0, none=1)
    dists = [_distribution(s) for s in specs]
    one, two = [0] * k, [0] * k
    tie = none = 0
    if k == 1:
        dist, den = dists[0]
        for t, c in dist.items():
            v, twist = _fate_outcome(options, t, None)
            if v == 1:
                one[0] += c
            elif v == 2:
                two[0] += c
            elif twist:  # pragma: no cover - a lone roller never ties
                tie += c
            else:
                none += c
        return ExchangeCounts(denominator=den, one=tuple(one), two=tuple(two), tie=tie, none=none)

    lo = min(min(d) for d, _ in dists)
    hi = max(max(d) for d, _ in dists)
    span = range(lo - 1, hi + 1)
    # cdf[i][m - lo + 1]: side i's throws with total <= m.
    cdf: list[list[int]] = []
    for dist, _ in dists:
        run, row = 0, []
        for m in span:
            run += dist.get(m, 0)
            row.append(run)
        cdf.append(row)
    # others[i][j]: throws of every side but i with all totals <= lo - 1 + j.
    others: list[list[int]] = []
    for i in range(k):
        row = []
        for j in range(len(span)):
            product = 1
            for o in range(k):
                if o != i:
                    product *= cdf[o][j]
            row.append(product)
        others.append(row)
    for i, (dist, _) in enumerate(dists):
        below = others[i]
        for t, c in dist.items():
            for j in range(1, t - lo + 1):  # the best other total m = lo - 1 + j < t
                ways = below[j] - below[j - 1]
                if not ways:
                    continue
                v, twist = _fate_outcome(options, t, lo - 1 + j)
                if v == 1:
                    one[i] += c * ways
                elif v == 2:
                    two[i] += c * ways
                elif not twist:
                    none += c * ways
                else:  # pragma: no cover - a lone highest total never ties
                    raise AssertionError("score_exchange: a lone highest total tied")
    denominator = 1
    for _, den in dists:
        denominator *= den
    for j in range(1, len(span)):
        m = lo - 1 + j
        best_is_m = 1
        best_below = 1
        for o in range(k):
            best_is_m *= cdf[o][j]
            best_below *= cdf[o][j - 1]
        alone = sum(dists[i][0].get(m, 0) * others[i][j - 1] for i in range(k))
        shared = best_is_m - best_below - alone
        if shared:
            _, twist = _fate_outcome(options, m, m)
            if twist:
                tie += shared
            else:
                none += shared
    return ExchangeCounts(
        denominator=denominator, one=tuple(one), two=tuple(two), tie=tie, none=none
    )


@dataclass(frozen=True, slots=True)
class FateSideOdds:
    win: Fraction  # one or two victories
    style: Fraction  # two victories
    rolls: bool = True


@dataclass(frozen=True, slots=True)
class FateExchangeOdds:
    """The coming Fate exchange: per side (all sides, forfeited ones at 0), a tie (a
    twist), nobody scoring, and each rolling side's chance to win with one more +2."""

    sides: Mapping[str, FateSideOdds]
    tie: Fraction
    none: Fraction
    plus_two: Mapping[str, Fraction] = field(default_factory=dict)
    attack: bool = False


@dataclass(frozen=True, slots=True)
class ContestOdds:
    """Each side's chance to win the whole contest; ``note`` says what is unusual
    (nobody can ever score...)."""

    sides: Mapping[str, Fraction]
    note: str | None = None


def _fate_specs(c: FateContest, bonus: Mapping[str, int] | None) -> tuple[list[str], list[Spec]]:
    """The coming exchange's rolling sides and their :data:`Spec`: a known total when the
    dice are in, else rating + bonuses + 4dF."""
    extra = bonus or {}
    names, specs = [], []
    for side in c.rolling_sides:
        known = c.total(side)
        if known is not None:
            specs.append((known + extra.get(side, 0), False))
        else:
            base = (
                c.rating(side)
                + c.open.bonus.get(side, 0)
                + c.open.modifiers.get(side, 0)
                + extra.get(side, 0)
            )
            specs.append((base, True))
        names.append(side)
    return names, specs


def _plain(c: FateContest) -> FateContest:
    """The contest with nothing entered for the coming exchange (how later ones play)."""
    from core.rules.fate import OpenExchange

    return replace(c, open=OpenExchange())


def fate_exchange_odds(
    contest: FateContest, bonus: Mapping[str, int] | None = None
) -> FateExchangeOdds:
    """The coming exchange's odds from everything entered so far (advantages, forfeits,
    dice, invokes, modifiers) plus ``bonus`` {side: extra to its total}."""
    c = contest
    names, specs = _fate_specs(c, bonus)
    counts = fate_exchange_counts(c.options, tuple(specs))
    den = counts.denominator
    sides: dict[str, FateSideOdds] = {}
    for side in c.sides:
        if side in names:
            i = names.index(side)
            sides[side] = FateSideOdds(
                win=Fraction(counts.one[i] + counts.two[i], den), style=Fraction(counts.two[i], den)
            )
        else:
            sides[side] = FateSideOdds(win=Fraction(0), style=Fraction(0), rolls=False)
    if c.open.attack is not None:  # the exchange ends the contest as a conflict
        zero = {
            s: FateSideOdds(win=Fraction(0), style=Fraction(0), rolls=o.rolls)
            for s, o in sides.items()
        }
        return FateExchangeOdds(sides=zero, tie=Fraction(0), none=Fraction(1), attack=True)
    plus_two: dict[str, Fraction] = {}
    for i, side in enumerate(names):
        more = list(specs)
        more[i] = (specs[i][0] + 2, specs[i][1])
        boosted = fate_exchange_counts(c.options, tuple(more))
        plus_two[side] = Fraction(boosted.one[i] + boosted.two[i], boosted.denominator)
    return FateExchangeOdds(
        sides=sides,
        tie=Fraction(counts.tie, den),
        none=Fraction(counts.none, den),
        plus_two=plus_two,
    )


@lru_cache(maxsize=256)
def fate_chain(options: FateOptions, ratings: tuple[int, ...]) -> Chain | None:
    """The contest chain of plain exchanges between sides rolling ``ratings``."""
    if options.victories_needed ** len(ratings) > MAX_SCORES:
        return None
    counts = fate_exchange_counts(options, tuple((r, True) for r in ratings))
    moves = [(i, 1, w) for i, w in enumerate(counts.one)]
    moves += [(i, 2, w) for i, w in enumerate(counts.two)]
    return Chain(len(ratings), options.victories_needed, moves)


def _fate_first_outcomes(
    c: FateContest, bonus: Mapping[str, int] | None
) -> tuple[dict[tuple[int, int], int], int]:
    """The coming exchange's scoring outcomes {(side index, victories): count} and the
    count of all its throws."""
    names, specs = _fate_specs(c, bonus)
    counts = fate_exchange_counts(c.options, tuple(specs))
    index = {side: i for i, side in enumerate(c.sides)}
    out: dict[tuple[int, int], int] = {}
    for j, side in enumerate(names):
        out[(index[side], 1)] = counts.one[j]
        out[(index[side], 2)] = counts.two[j]
    return out, counts.denominator


def fate_contest_odds(
    contest: FateContest, bonus: Mapping[str, int] | None = None
) -> ContestOdds | None:
    """Each side's chance to win the contest from the current score: the coming
    exchange as entered (plus ``bonus``), then plain exchanges. None when the contest is
    over, an attack ends it as a conflict, or it is too large to solve."""
    c = contest
    if c.finished or c.open.attack is not None:
        return None
    plain = _plain(c)
    chain = fate_chain(c.options, tuple(plain.rating(s) for s in c.sides))
    if chain is None:
        return None
    score = tuple(c.victories.get(s, 0) for s in c.sides)
    values = chain.odds(score, *_fate_first_outcomes(c, bonus))
    note = None
    if chain.stuck:
        note = "with these ratings nobody can score a plain exchange: the contest may never end"
    return ContestOdds(sides=dict(zip(c.sides, values, strict=True)), note=note)


# -- HeroQuest ------------------------------------------------------------------------------

LEVEL_NAMES = ("marginal", "minor", "major", "complete")


@dataclass(frozen=True, slots=True)
class HQExchangeOdds:
    """The coming simple contest: for each party (``parties``, a then b), the chance of
    each victory level (index 1..4 of ``heroquest.VICTORIES``); and a tie."""

    parties: tuple[str, str]
    targets: tuple[int, int]
    levels: Mapping[str, tuple[Fraction, Fraction, Fraction, Fraction]]
    tie: Fraction

    def win(self, party: str) -> Fraction:
        return sum(self.levels[party], Fraction(0))


@lru_cache(maxsize=4096)
def heroquest_counts(a: Party, b: Party, tie_break: str) -> tuple[tuple[int, ...], ...]:
    """Count a simple contest's outcomes over the d20 pairs still to roll: a party whose
    ``roll`` is set keeps it, the other rolls 1-20 (a party at 0 or less rolls too, and
    ``simple_contest`` ignores it). ``((tie,), a's counts by level 1..4, b's)``."""
    from core.rules.heroquest import Party, simple_contest

    counts = [[0] * 5, [0] * 5]
    tie = 0
    rolls_a = range(1, 21) if a.roll is None else (a.roll,)
    rolls_b = range(1, 21) if b.roll is None else (b.roll,)
    breaker: Literal["low", "high"] = "high" if tie_break == "high" else "low"
    parties_b = [
        Party(target=b.target, roll=rb, hero_points=b.hero_points, stretched=b.stretched)
        for rb in rolls_b
    ]
    for ra in rolls_a:
        party_a = Party(target=a.target, roll=ra, hero_points=a.hero_points, stretched=a.stretched)
        for party_b in parties_b:
            out = simple_contest(party_a, party_b, breaker)
            if out.winner is None:
                tie += 1
            else:
                counts[0 if out.winner == "a" else 1][out.victory] += 1
    return (tie,), tuple(counts[0][1:]), tuple(counts[1][1:])


def heroquest_parties(contest: HQContest) -> tuple[str, str] | None:
    """The coming exchange's parties: those set, else the previous exchange's."""
    parties = contest.parties or contest.last_parties
    if contest.open.kind == "group" or len(parties) != 2:
        return None
    return parties[0], parties[1]


def heroquest_exchange_odds(
    contest: HQContest, a: str | None = None, b: str | None = None
) -> HQExchangeOdds | None:
    """The coming simple contest between ``a`` and ``b`` (default: the open exchange's
    parties) with what is entered: targets after modifiers, augments and stretch, hero
    points, rolls already in. None when the parties are not known (or it is a group)."""
    c = contest
    if a is None or b is None:
        parties = heroquest_parties(c)
        if parties is None:
            return None
        a, b = parties
    return _hq_odds(*_hq_parties(c, a, b), c.options.tie_break, (a, b))


def _hq_parties(c: HQContest, a: str, b: str) -> tuple[Party, Party]:
    """The two parties as the scoring sees them, with any roll already entered."""
    return c.party(a, c.open.rolls.get(a)), c.party(b, c.open.rolls.get(b))


def _hq_odds(
    party_a: Party, party_b: Party, tie_break: str, names: tuple[str, str]
) -> HQExchangeOdds:
    (tie,), for_a, for_b = heroquest_counts(party_a, party_b, tie_break)
    den = (1 if party_a.roll is not None else 20) * (1 if party_b.roll is not None else 20)

    def four(counts: tuple[int, ...]) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        w, x, y, z = (Fraction(n, den) for n in counts)
        return w, x, y, z

    return HQExchangeOdds(
        parties=names,
        targets=(party_a.target, party_b.target),
        levels={names[0]: four(for_a), names[1]: four(for_b)},
        tie=Fraction(tie, den),
    )


@lru_cache(maxsize=256)
def heroquest_chain(a: Party, b: Party, tie_break: str) -> Chain:
    """The extended contest's chain of plain exchanges between parties ``a`` and ``b``
    (side 0 and side 1), each lodging its victory's resolution points."""
    from core.rules.heroquest import EXTENDED_GOAL, RESOLUTION_POINTS

    _, for_a, for_b = heroquest_counts(a, b, tie_break)
    moves = [(0, RESOLUTION_POINTS[lv], n) for lv, n in enumerate(for_a, start=1)]
    moves += [(1, RESOLUTION_POINTS[lv], n) for lv, n in enumerate(for_b, start=1)]
    return Chain(2, EXTENDED_GOAL, _merge(moves))


def _merge(moves: Iterable[Move]) -> list[Move]:
    merged: dict[tuple[int, int], int] = {}
    for s, v, w in moves:
        merged[(s, v)] = merged.get((s, v), 0) + w
    return [(s, v, w) for (s, v), w in merged.items()]


def heroquest_contest_odds(
    contest: HQContest, a: str | None = None, b: str | None = None
) -> ContestOdds | None:
    """An extended contest: each party's side's chance to lodge 5 resolution points
    first, the coming exchange as entered and later ones plain between the same parties.
    A single simple contest: the chance each side wins it. None for a chained contest
    (it ends when somebody leaves), a finished one, or unknown parties."""
    from core.rules.heroquest import RESOLUTION_POINTS, OpenExchange

    c = contest
    if c.finished or (c.options.chained and not c.options.extended):
        return None
    odds = heroquest_exchange_odds(c, a, b)
    if odds is None:
        return None
    a, b = odds.parties
    side_a, side_b = c.hq_participant(a).side, c.hq_participant(b).side
    if not c.options.extended:
        return ContestOdds(sides={side_a: odds.win(a), side_b: odds.win(b)})
    plain = replace(c, open=OpenExchange(kind="simple", parties=(a, b)))
    chain = heroquest_chain(plain.party(a, None), plain.party(b, None), c.options.tie_break)
    score = (c.resolution_points.get(side_a, 0), c.resolution_points.get(side_b, 0))
    party_a, party_b = _hq_parties(c, a, b)
    _, for_a, for_b = heroquest_counts(party_a, party_b, c.options.tie_break)
    first: dict[tuple[int, int], int] = {}
    for i, counts in enumerate((for_a, for_b)):
        for lv, n in enumerate(counts, start=1):
            key = (i, RESOLUTION_POINTS[lv])
            first[key] = first.get(key, 0) + n
    den = (1 if party_a.roll is not None else 20) * (1 if party_b.roll is not None else 20)
    values = chain.odds(score, first, den)
    note = None
    if chain.stuck:
        note = "every plain exchange between these parties ties: the contest may never end"
    return ContestOdds(sides={side_a: values[0], side_b: values[1]}, note=note)


# -- FORGE ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ForgeStageOdds:
    """The coming stage: the actor's chance to win it (the reactor wins the rest), with
    the reaction chosen; in combat also the chance for each reaction (dodge, absorb)."""

    actor: str
    reactor: str
    targets: tuple[int, int]
    actor_wins: Fraction
    reaction: str | None = None
    by_reaction: Mapping[str, Fraction] = field(default_factory=dict)


@lru_cache(maxsize=1024)
def forge_actor_wins(
    actor_target: int,
    actor_roll: int | None,
    reactor_target: int,
    reactor_roll: int | None,
    combat: bool,
    multiplier: int,
    max_damage: int | None,
    reaction: str,
    reactor_wins_ties: bool,
) -> Fraction:
    """The actor's chance to win a stage, over the d100 rolls still to come, each pair
    scored by ``forge.stage_outcome``. A roll ``stage_outcome`` does not need (it accepts
    None for it) is not enumerated."""
    from core.rules.forge import stage_outcome

    def outcome(a: int | None, r: int | None) -> bool:
        return stage_outcome(
            actor_target,
            a,
            reactor_target,
            r,
            combat=combat,
            multiplier=multiplier,
            max_damage=max_damage,
            reaction="absorb" if reaction == "absorb" else "dodge",
            reactor_wins_ties=reactor_wins_ties,
        ).actor_wins

    def over_reactor(a: int | None) -> Fraction:
        if reactor_roll is not None:
            return Fraction(int(outcome(a, reactor_roll)))
        try:
            return Fraction(int(outcome(a, None)))  # the reactor's roll is not needed
        except ValueError:
            return Fraction(sum(outcome(a, r) for r in range(1, 101)), 100)

    if actor_roll is not None:
        return over_reactor(actor_roll)
    try:
        return over_reactor(None)  # the actor's roll is not needed (target <= 0)
    except ValueError:
        return sum((over_reactor(a) for a in range(1, 101)), Fraction(0)) / 100


def forge_stage_odds(contest: ForgeContest) -> ForgeStageOdds | None:
    """The open stage's odds with its roles (set, or the defaults), modifiers, reaction
    and any roll already in. None when the roles are not known yet."""
    from core.errors import RuleError
    from core.rules.forge import reaction_of, stage_roles

    c = contest
    try:
        actor, reactor = stage_roles(c)
    except RuleError:
        return None
    weapon = c.participant(actor)
    reaction = reaction_of(c)

    def chance(how: str) -> Fraction:
        return forge_actor_wins(
            c.target(actor),
            c.rolls.get(actor),
            c.target(reactor),
            c.rolls.get(reactor),
            c.options.combat,
            weapon.multiplier,
            weapon.max_damage,
            how,
            c.options.reactor_wins_ties,
        )

    by_reaction = {how: chance(how) for how in ("dodge", "absorb")} if reaction else {}
    return ForgeStageOdds(
        actor=actor,
        reactor=reactor,
        targets=(c.target(actor), c.target(reactor)),
        actor_wins=chance(reaction or "dodge"),
        reaction=reaction,
        by_reaction=by_reaction,
    )


# -- JSON -----------------------------------------------------------------------------------


def prob(key: str, value: Fraction | None) -> JSON:
    """``{key: float, key_exact: "a/b"}``, both null for an undefined chance."""
    if value is None:
        return {key: None, f"{key}_exact": None}
    return {key: float(value), f"{key}_exact": str(value)}


def _contest_json(odds: ContestOdds | None, extra: JSON | None = None) -> JSON | None:
    if odds is None:
        return None
    out: JSON = dict(extra or {})
    out["sides"] = {side: prob("win", p) for side, p in odds.sides.items()}
    return out


def odds_for(contest: Contest) -> JSON:
    """The odds of the coming exchange and of the contest from here, JSON-ready: what
    ``tussle odds`` prints and the dashboard shows. ``note`` explains a null."""
    from core.rules.base import own

    out: JSON = {"system": contest.system, "after_exchange": contest.n}
    if contest.system == "fate":
        from core.rules.fate import FateContest

        out.update(_fate_json(own(contest, FateContest)))
    elif contest.system == "heroquest":
        from core.rules.heroquest import HQContest

        out.update(_heroquest_json(own(contest, HQContest)))
    else:
        from core.rules.forge import ForgeContest

        out.update(_forge_json(own(contest, ForgeContest)))
    return out


def _over(contest: Contest) -> str:
    won = contest.winner or "nobody"
    return f"the contest is over ({won} won after exchange {contest.n}): nothing left to play"


def _fate_json(c: FateContest) -> JSON:
    out: JSON = {
        "finished": c.finished,
        "score": {s: c.victories.get(s, 0) for s in c.sides},
        "victories_needed": c.options.victories_needed,
    }
    if c.finished:
        return {**out, "exchange": None, "contest": None, "note": _over(c)}
    ex = fate_exchange_odds(c)
    notes: list[str] = []
    exchange: JSON = {
        "sides": {
            side: {**prob("win", o.win), **prob("style", o.style), "rolls": o.rolls}
            for side, o in ex.sides.items()
        },
        **prob("tie", ex.tie),
        **prob("none", ex.none),
    }
    contest_odds = fate_contest_odds(c)
    if ex.attack:
        notes.append("an attack was declared: this exchange ends the contest as a conflict")
    else:
        plain = _plain(c)
        chain = fate_chain(c.options, tuple(plain.rating(s) for s in c.sides))
        plus: JSON = {}
        for side, win in ex.plus_two.items():
            entry = prob("win", win)
            more = fate_contest_odds(c, {side: 2})
            entry.update(prob("contest", None if more is None else more.sides[side]))
            plus[side] = entry
        exchange["plus_two"] = plus
        if chain is None:
            notes.append(
                f"too many possible scores to solve the contest (over {MAX_SCORES:,}: "
                "victories needed to the power of the sides)"
            )
    if contest_odds is not None and contest_odds.note:
        notes.append(contest_odds.note)
    return {
        **out,
        "exchange": exchange,
        "contest": _contest_json(contest_odds),
        "note": "; ".join(notes) or None,
    }


def _heroquest_json(c: HQContest) -> JSON:
    from core.rules.heroquest import format_rating

    out: JSON = {"finished": c.finished}
    if c.options.chain:
        out["resolution_points"] = {s: c.resolution_points.get(s, 0) for s in c.sides}
    if c.finished:
        return {**out, "exchange": None, "contest": None, "note": _over(c)}
    ex = heroquest_exchange_odds(c)
    if ex is None:
        why = (
            "a group exchange's odds are not computed"
            if c.open.kind == "group"
            else "name the coming exchange's two parties"
        )
        return {**out, "exchange": None, "contest": None, "note": why}
    exchange: JSON = {
        "parties": list(ex.parties),
        "targets": {n: format_rating(t) for n, t in zip(ex.parties, ex.targets, strict=True)},
        "sides": {party: _levels_json(ex, party) for party in ex.parties},
        **prob("tie", ex.tie),
    }
    contest_odds = heroquest_contest_odds(c)
    notes: list[str] = []
    if c.options.chained and not c.options.extended:
        notes.append("a chained contest ends when a party leaves: no contest odds")
    elif contest_odds is not None and contest_odds.note:
        notes.append(contest_odds.note)
    extra: JSON = {"goal": 5} if c.options.extended else {}
    return {
        **out,
        "exchange": exchange,
        "contest": _contest_json(contest_odds, extra),
        "note": "; ".join(notes) or None,
    }


def _levels_json(ex: HQExchangeOdds, party: str) -> JSON:
    out = prob("win", ex.win(party))
    for name, p in zip(LEVEL_NAMES, ex.levels[party], strict=True):
        out.update(prob(name, p))
    return out


def _forge_json(c: ForgeContest) -> JSON:
    out: JSON = {
        "finished": c.finished,
        "stage_wins": {s: c.stage_wins.get(s, 0) for s in c.sides},
    }
    if c.finished:
        return {**out, "exchange": None, "contest": None, "note": _over(c)}
    stage = forge_stage_odds(c)
    if stage is None:
        return {**out, "exchange": None, "contest": None, "note": "name the first stage's actor"}
    exchange: JSON = {
        "actor": {"name": stage.actor, "target": stage.targets[0], **prob("win", stage.actor_wins)},
        "reactor": {
            "name": stage.reactor,
            "target": stage.targets[1],
            **prob("win", 1 - stage.actor_wins),
        },
        "combat": c.options.combat,
        "reaction": stage.reaction,
    }
    if stage.by_reaction:
        exchange["reactions"] = {how: prob("actor_win", p) for how, p in stage.by_reaction.items()}
    return {
        **out,
        "exchange": exchange,
        "contest": None,
        "note": "a FORGE contest ends when the GM ends it: no contest odds",
    }


# -- text -----------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "   n/a" if value is None else f"{value * 100:5.1f}%"


def odds_text(odds: JSON) -> str:
    """``odds_for``'s JSON as lines for people (``tussle odds --text``)."""
    lines: list[str] = []
    system = odds["system"]
    title = {"fate": "Fate Core", "heroquest": "HeroQuest", "forge": "FORGE"}[system]
    lines.append(f"{title} odds after exchange {odds['after_exchange']}")
    ex, contest = odds.get("exchange"), odds.get("contest")
    if system == "fate":
        score = ", ".join(f"{s} {v}" for s, v in odds["score"].items())
        lines.append(f"Score: {score} (first to {odds['victories_needed']})")
    elif "resolution_points" in odds:
        points = ", ".join(f"{s} {v}" for s, v in odds["resolution_points"].items())
        lines.append(f"Resolution points: {points}")
    elif "stage_wins" in odds:
        wins = ", ".join(f"{s} {v}" for s, v in odds["stage_wins"].items())
        lines.append(f"Stage wins: {wins}")
    if ex is not None:
        lines.append("Next exchange:")
        width = max(len(n) for n in _names(system, ex)) + 2
        if system == "fate":
            for side, o in ex["sides"].items():
                if not o["rolls"]:
                    lines.append(f"  {side:<{width}}does not roll")
                    continue
                line = f"  {side:<{width}}win {_pct(o['win'])}  with style {_pct(o['style'])}"
                plus = ex.get("plus_two", {}).get(side)
                # Not when the +2 would change nothing shown (a side already at 100%).
                if plus is not None and _pct(plus["win"]) != _pct(o["win"]):
                    line += f"  with one more +2: {_pct(plus['win'])}"
                lines.append(line)
            lines.append(f"  tie {_pct(ex['tie'])}   nobody scores {_pct(ex['none'])}")
        elif system == "heroquest":
            for party, o in ex["sides"].items():
                target = ex["targets"][party]
                levels = "  ".join(f"{n} {_pct(o[n])}" for n in LEVEL_NAMES)
                lines.append(f"  {party:<{width}}({target}) win {_pct(o['win'])}: {levels}")
            lines.append(f"  tie {_pct(ex['tie'])}")
        else:
            for role in ("actor", "reactor"):
                o = ex[role]
                lines.append(
                    f"  {role:<8}{o['name']:<{width}}target {o['target']:>4}  wins {_pct(o['win'])}"
                )
            for how, o in ex.get("reactions", {}).items():
                lines.append(f"  if the reactor chooses {how}: actor wins {_pct(o['actor_win'])}")
    if contest is not None:
        lines.append("Contest from here:")
        width = max(len(s) for s in contest["sides"]) + 2
        for side, o in contest["sides"].items():
            lines.append(f"  {side:<{width}}wins {_pct(o['win'])}")
    if odds.get("note"):
        lines.append(f"Note: {odds['note']}")
    if ex is not None:
        lines.append(ASSUMPTIONS)
    return "\n".join(lines)


def _names(system: str, ex: JSON) -> list[str]:
    if system == "forge":
        return [ex["actor"]["name"], ex["reactor"]["name"]]
    return list(ex["sides"])


# -- the scenario's ``next`` ----------------------------------------------------------------

NEXT_KEYS = {
    "fate": ("bonus",),
    "heroquest": ("parties", "modifiers", "augments", "hero_points", "stretch"),
    "forge": ("actor", "reactor", "modifiers", "reaction"),
}


def load_for_odds(data: bytes) -> Contest:
    """Scenario bytes with an optional top-level ``next`` (what is known of the coming
    exchange) as the contest ``odds_for`` reads. ``ScenarioError`` names the first
    problem's place: the scenario's own first, then ``next``'s."""
    from core.scenario import parse_json, resolve
    from core.scenario.reader import Node

    raw = parse_json(data)
    upcoming: Any = None
    if isinstance(raw, dict) and "next" in raw:
        raw = dict(raw)
        upcoming = raw.pop("next")
    contest = resolve(raw).contest
    return apply_next(contest, None if upcoming is None else Node(upcoming, "next"))


def apply_next(contest: Contest, node: Node | None) -> Contest:
    """``contest`` with the scenario's ``next`` applied through the rules' ``decide``,
    as the dashboard would enter it; ``ScenarioError`` at the place of a problem."""
    if node is not None:
        node.check_keys(NEXT_KEYS[contest.system])
        if contest.finished:
            node.fail(f"the contest ended at exchange {contest.n}")
    if contest.finished:
        return contest
    steps = {"fate": _fate_next, "heroquest": _heroquest_next, "forge": _forge_next}
    state = [contest]
    for place, command in steps[contest.system](node, lambda: state[0]):
        _run(state, place, command)
    return state[0]


def _run(state: list[Contest], place: str, command: Any) -> None:
    from core.engine import apply
    from core.errors import RuleError
    from core.scenario.reader import ScenarioError

    try:
        state[0], _ = apply(state[0], command)
    except RuleError as error:
        raise ScenarioError(place, str(error)) from None


Steps = Iterable[tuple[str, Any]]


def _fate_next(node: Node | None, current: Callable[[], Contest]) -> Steps:
    from core.model import SetModifier

    bonus = None if node is None else node.get("bonus")
    sides = current().sides
    for side, value in bonus.entries() if bonus is not None else ():
        if side not in sides:
            value.fail(f'no side "{side}"')
        yield value.place, SetModifier(who=side, value=value.as_int())


def _heroquest_next(node: Node | None, current: Callable[[], Contest]) -> Steps:
    from core.rules.base import own
    from core.rules.heroquest import HQContest, SetParties
    from core.scenario.common import name_in
    from core.scenario.heroquest import HeroQuestReader

    def state() -> HQContest:
        return own(current(), HQContest)

    c = state()
    names = [p.name for p in c.participants]
    given = None if node is None else node.get("parties")
    if given is not None:
        items = list(given.items())
        if len(items) != 2:
            given.fail(f"expected the two parties' names, got a list of {len(items)}")
        a, b = (name_in(item, names) for item in items)
        yield given.place, SetParties(a=a, b=b)
    elif not c.open.kind and len(c.participants) > 2:
        if len(c.last_parties) != 2:
            _missing(node, "parties", "with more than two participants, name the two parties")
        yield (
            ("next" if node is None else node.place),
            SetParties(a=c.last_parties[0], b=c.last_parties[1]),
        )
    if node is not None:
        yield from HeroQuestReader._party_keys(node, state)


def _forge_next(node: Node | None, current: Callable[[], Contest]) -> Steps:
    from core.model import SetModifier
    from core.rules.base import own
    from core.rules.forge import (
        REACTIONS,
        ChooseReaction,
        ForgeContest,
        SetStage,
        default_actor,
        default_reactor,
        stage_roles,
    )
    from core.scenario.common import name_in

    def state() -> ForgeContest:
        return own(current(), ForgeContest)

    c = state()
    names = [p.name for p in c.participants]
    actor_node = None if node is None else node.get("actor")
    reactor_node = None if node is None else node.get("reactor")
    actor = None if actor_node is None else name_in(actor_node, names)
    reactor = None if reactor_node is None else name_in(reactor_node, names)
    acting = actor or default_actor(c)
    if acting is None:
        _missing(node, "actor", "the first stage needs an actor")
    elif reactor is None and default_reactor(c, acting) is None:
        _missing(node, "reactor", "with more than two taking part, name the reactor")
    yield ("next" if node is None else node.place), SetStage(actor=actor, reactor=reactor)
    if node is None:
        return
    stage = stage_roles(state())
    modifiers = node.get("modifiers")
    for name, value in modifiers.entries() if modifiers is not None else ():
        if name not in names:
            value.fail(f'no participant "{name}"')
        if name not in stage:
            value.fail(f"{name} is neither the actor ({stage[0]}) nor the reactor ({stage[1]})")
        yield value.place, SetModifier(who=name, value=value.as_int())
    reaction = node.get("reaction")
    if reaction is not None and state().options.combat:
        yield reaction.place, ChooseReaction(reaction=reaction.as_str(REACTIONS))


def _missing(node: Node | None, key: str, why: str) -> NoReturn:
    """``next.KEY: missing (why)``, or ``next: missing (why: give next.KEY)`` without
    a ``next``."""
    from core.scenario.reader import ScenarioError

    if node is None:
        raise ScenarioError("next", f"missing ({why}: give next.{key})")
    node.fail_key(key, f"missing ({why})")


def clear_caches() -> None:
    """Forget every memoised count and chain (for a cold measurement)."""
    for cached in (
        _fate_outcome,
        fate_exchange_counts,
        fate_chain,
        heroquest_counts,
        heroquest_chain,
        forge_actor_wins,
    ):
        cached.cache_clear()
