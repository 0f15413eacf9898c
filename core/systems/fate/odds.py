"""Fate Core's exact odds: the coming exchange and the contest from here (``tussle odds``).

Every throw is counted, not simulated (81 throws of 4dF per side), and each outcome is
scored by ``fate.score_exchange``, never by a second copy of the rules; the contest is a
:class:`core.chance.solver.Chain` of plain exchanges (every side rolls its lead skill plus
teamwork), what is entered counting for the coming exchange only. A tie (or an exchange
where nobody scores) changes nothing, so the contest odds are those of the next *scoring*
exchange, repeated. A contest with more than ``MAX_SCORES`` possible scores is not solved.

How the exchange stays fast with many sides (9^k dice combinations for k sides): when
one side's total is the highest alone, the exchange's outcome depends only on that total
and the best of the others (direct: the margin; environment: the shifts and whether any
other side reaches style). So each side's total is paired with the distribution of the
*maximum of the others* (a product of cumulative counts), and ``score_exchange`` is asked
once per (total, best other) pair, with a two-side table standing for the whole field.
A shared highest total is asked the same way (a tie, or nobody scoring). The tests check
this against ``score_exchange`` on every combination of dice for two to five sides.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from msgspec.structs import replace

from core.chance.common import JSON, contest_json, over, pct, prob
from core.chance.solver import MAX_SCORES, Chain, ContestOdds
from core.model import Contest
from core.rules.base import SystemOdds, own
from core.systems.fate import conflict_report
from core.systems.fate.conflict_odds import solver
from core.systems.fate.conflict_play import FateConflict
from core.systems.fate.scoring import FateOptions, advantage_outcome, score_exchange
from core.systems.fate.state import FateContest, OpenExchange
from core.systems.fate.throws import FOUR_DF, FOUR_DF_THROWS

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

    # The totals some side can reach, in order: at most nine a rolling side, however far
    # apart the skills (a span from the lowest to the highest would grow with the
    # ratings: a skill of 10^9 took gigabytes).
    grid = sorted({t for dist, _ in dists for t in dist})
    # cdf[i][j]: side i's throws with total <= grid[j - 1] (j = 0: below them all).
    cdf: list[list[int]] = []
    for dist, _ in dists:
        run, row = 0, [0]
        for m in grid:
            run += dist.get(m, 0)
            row.append(run)
        cdf.append(row)
    # others[i][j]: throws of every side but i with all totals <= grid[j - 1].
    others: list[list[int]] = []
    for i in range(k):
        row = []
        for j in range(len(grid) + 1):
            product = 1
            for o in range(k):
                if o != i:
                    product *= cdf[o][j]
            row.append(product)
        others.append(row)
    for i, (dist, _) in enumerate(dists):
        below = others[i]
        for t, c in dist.items():
            for j in range(1, bisect_left(grid, t) + 1):  # the best other total grid[j-1] < t
                ways = below[j] - below[j - 1]
                if not ways:
                    continue
                v, twist = _fate_outcome(options, t, grid[j - 1])
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
    for j in range(1, len(grid) + 1):
        m = grid[j - 1]
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


def _fate_json(c: FateContest) -> JSON:
    out: JSON = {
        "finished": c.finished,
        "score": {s: c.victories.get(s, 0) for s in c.sides},
        "victories_needed": c.options.victories_needed,
    }
    if c.finished:
        return {**out, "exchange": None, "contest": None, "note": over(c)}
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
        "contest": contest_json(contest_odds),
        "note": "; ".join(notes) or None,
    }


class FateOdds(SystemOdds):
    """Fate's odds for ``core.odds`` (:class:`core.rules.base.SystemOdds`)."""

    def odds_json(self, contest: Contest) -> JSON:
        if isinstance(contest, FateConflict):
            return conflict_report.conflict_json(contest)
        return _fate_json(own(contest, FateContest))

    def score_lines(self, odds: JSON) -> list[str]:
        if odds.get("conflict"):
            return conflict_report.score_lines(odds)
        score = ", ".join(f"{s} {v}" for s, v in odds["score"].items())
        return [f"Score: {score} (first to {odds['victories_needed']})"]

    def exchange_heading(self, exchange: JSON) -> str:
        if "taken_out" in exchange:
            return conflict_report.exchange_heading(exchange)
        return super().exchange_heading(exchange)

    def whole_heading(self, odds: JSON) -> str:
        if odds.get("conflict"):
            return "Conflict from here:"
        return super().whole_heading(odds)

    def exchange_lines(self, exchange: JSON) -> list[str]:
        if "taken_out" in exchange:
            return conflict_report.exchange_lines(exchange)
        ex = exchange
        lines: list[str] = []
        width = max(len(n) for n in ex["sides"]) + 2
        for side, o in ex["sides"].items():
            if not o["rolls"]:
                lines.append(f"  {side:<{width}}does not roll")
                continue
            line = f"  {side:<{width}}win {pct(o['win'])}  with style {pct(o['style'])}"
            plus = ex.get("plus_two", {}).get(side)
            # Not when the +2 would change nothing shown (a side already at 100%).
            if plus is not None and pct(plus["win"]) != pct(o["win"]):
                line += f"  with one more +2: {pct(plus['win'])}"
            lines.append(line)
        lines.append(f"  tie {pct(ex['tie'])}   nobody scores {pct(ex['none'])}")
        return lines

    def clear_caches(self) -> None:
        for cached in (_fate_outcome, fate_exchange_counts, fate_chain, solver):
            cached.cache_clear()


FATE_ODDS = FateOdds()


def fate_roll_odds(skill: int, opposition: int, style_threshold: int = 3) -> dict[str, Fraction]:
    """One roll of ``skill`` + 4dF against ``opposition`` outside a contest (a quick roll):
    the chance of each of the four outcomes, every throw scored by
    ``fate.advantage_outcome`` (rules §1.2's table)."""
    counts = dict.fromkeys(("fail", "tie", "success", "style"), 0)
    for dice, ways in FOUR_DF.items():
        counts[advantage_outcome(skill + dice, opposition, style_threshold)] += ways
    return {outcome: Fraction(n, FOUR_DF_THROWS) for outcome, n in counts.items()}


def four_df_at_least(dice: int) -> Fraction:
    """The chance that four Fate dice show ``dice`` or more."""
    return Fraction(sum(n for d, n in FOUR_DF.items() if d >= dice), FOUR_DF_THROWS)
