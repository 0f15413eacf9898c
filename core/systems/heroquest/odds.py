"""HeroQuest's exact odds: the coming simple contest and an extended contest from here.

Every d20 pair still to roll is counted (20x20), each scored by
``heroquest.simple_contest``, never by a second copy of the rules; the coming exchange
lodges what ``HQContest.lodged`` makes of it (risky gambits, defensive responses). An
extended contest's later exchanges are played plain between the same two parties
(rating + vitality, what earlier contests left, injuries' bumps down) as a
:class:`core.chance.solver.Chain` to 5 resolution points; a tie changes nothing. A chained
(not extended) contest ends when somebody leaves: it has exchange odds, no contest odds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from msgspec.structs import replace

from core.chance.common import JSON, contest_json, over, pct, prob
from core.chance.solver import Chain, ContestOdds, merge
from core.model import Contest
from core.rules.base import SystemOdds, own
from core.systems.heroquest.extended import EXTENDED_GOAL
from core.systems.heroquest.group_extended import pending
from core.systems.heroquest.group_extended_odds import (
    elimination_odds,
    exchange_distribution,
    side_win_odds,
)
from core.systems.heroquest.group_play import HQGroupContest
from core.systems.heroquest.ratings import format_rating, normalise
from core.systems.heroquest.resolution import (
    FUMBLE,
    RESOLUTION_POINTS,
    Party,
    bump,
    classify,
    simple_contest,
)
from core.systems.heroquest.state import HQContest, OpenExchange

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
    counts = [[0] * 5, [0] * 5]
    tie = 0
    rolls_a = range(1, 21) if a.roll is None else (a.roll,)
    rolls_b = range(1, 21) if b.roll is None else (b.roll,)
    breaker: Literal["low", "high"] = "high" if tie_break == "high" else "low"
    # Each party as it is, with only its roll changed: whatever the engine scores with
    # (an injury's bumps down, hero points, a stretch) goes into the count too.
    parties_b = [replace(b, roll=rb) for rb in rolls_b]
    for ra in rolls_a:
        party_a = replace(a, roll=ra)
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
    if contest.open.kind == "group" or contest.open.automatic or len(parties) != 2:
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
    if c.dying and (a in c.dying or b in c.dying):  # no actions (rules §2.6)
        return None
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
    _, for_a, for_b = heroquest_counts(a, b, tie_break)
    moves = [(0, RESOLUTION_POINTS[lv], n) for lv, n in enumerate(for_a, start=1)]
    moves += [(1, RESOLUTION_POINTS[lv], n) for lv, n in enumerate(for_b, start=1)]
    return Chain(2, EXTENDED_GOAL, merge(moves))


def heroquest_contest_odds(
    contest: HQContest, a: str | None = None, b: str | None = None
) -> ContestOdds | None:
    """An extended contest: each party's side's chance to lodge 5 resolution points
    first, the coming exchange as entered and later ones plain between the same parties.
    A single simple contest: the chance each side wins it. None for a chained contest
    (it ends when somebody leaves), a finished one, or unknown parties."""
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
    # The coming exchange lodges what its declarations make of its victory (risky
    # gambits, defensive responses: rules §2.8.4-5); later ones are plain.
    first: dict[tuple[int, int], int] = {}
    for i, counts in enumerate((for_a, for_b)):
        winner, loser = (a, b) if i == 0 else (b, a)
        for lv, n in enumerate(counts, start=1):
            key = (i, c.lodged(winner, loser, lv))
            first[key] = first.get(key, 0) + n
    den = (1 if party_a.roll is not None else 20) * (1 if party_b.roll is not None else 20)
    values = chain.odds(score, first, den)
    note = None
    if chain.stuck:
        note = "every plain exchange between these parties ties: the contest may never end"
    return ContestOdds(sides={side_a: values[0], side_b: values[1]}, note=note)


def _heroquest_json(c: HQContest) -> JSON:
    out: JSON = {"finished": c.finished}
    if c.options.chain:
        out["resolution_points"] = {s: c.resolution_points.get(s, 0) for s in c.sides}
    if c.finished:
        return {**out, "exchange": None, "contest": None, "note": over(c)}
    ex = heroquest_exchange_odds(c)
    if ex is None:
        why = (
            "a group exchange's odds are not computed"
            if c.open.kind == "group"
            else "the exchange is ruled automatic: no dice"
            if c.open.automatic
            else _dying_note(c)
            if _dying_parties(c)
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
        "contest": contest_json(contest_odds, extra),
        "note": "; ".join(notes) or None,
    }


def _dying_parties(c: HQContest) -> list[str]:
    """The coming exchange's parties (as far as known) that a chain left dying."""
    return [name for name in c.parties or c.last_parties if name in (c.dying or ())]


def _dying_note(c: HQContest) -> str:
    """Why a chain's coming exchange has no odds when someone in it is dying."""
    dying = _dying_parties(c)
    verb = "is" if len(dying) == 1 else "are"
    return f"{' and '.join(dying)} {verb} dying: no actions (rules §2.6); {c.ways_on()}"


def _levels_json(ex: HQExchangeOdds, party: str) -> JSON:
    out = prob("win", ex.win(party))
    for name, p in zip(LEVEL_NAMES, ex.levels[party], strict=True):
        out.update(prob(name, p))
    return out


ROUND_ODDS_LIMIT = 4
"""Pairings still to play this round beyond which the round's odds are not worked out: the
exact count of every way the round can go grows about tenfold with each (4 take about a
second and a half, 6 a minute and a half)."""


def _group_json(c: HQGroupContest) -> JSON:
    """A group extended contest's odds (``group_extended_odds``): the current pairing's
    coming exchange as entered (its boost and lodging included), then the rest of the
    round played plain in order: each active character's chance of being out by its
    end, and each side's chance that the contest ends this round with its win."""
    out: JSON = {"finished": c.finished, "round": c.group_state.round}
    if c.finished:
        return {**out, "exchange": None, "contest": None, "next_round": None, "note": over(c)}
    index, pairing = c.current, c.pairing
    if index is None or pairing is None:
        why = "nobody is engaged: engage a pairing first"
        return {**out, "exchange": None, "contest": None, "next_round": None, "note": why}
    a, b = pairing
    moves = (c.move(a), c.move(b))
    levels: dict[str, list[Fraction]] = {a: [Fraction(0)] * 4, b: [Fraction(0)] * 4}
    tie = Fraction(0)
    for (winner, victory, _), p in exchange_distribution(c.group_state, index, *moves).items():
        if winner is None:
            tie += p
        else:
            levels[a if winner == "a" else b][victory - 1] += p
    exchange: JSON = {
        "parties": [a, b],
        "targets": {a: format_rating(c.target(a)), b: format_rating(c.target(b))},
        "sides": {},
        **prob("tie", tie),
    }
    for name in (a, b):
        side = prob("win", sum(levels[name], Fraction(0)))
        for level_name, chance in zip(LEVEL_NAMES, levels[name], strict=True):
            side.update(prob(level_name, chance))
        exchange["sides"][name] = side
    given = {index: moves}
    exchange["round"] = c.group_state.round
    todo = len(pending(c.group_state))
    if todo > ROUND_ODDS_LIMIT:
        note = (
            f"{todo} pairings still to play this round: the round's odds are worked out "
            f"from {ROUND_ODDS_LIMIT} or fewer"
        )
        return {**out, "exchange": exchange, "contest": None, "next_round": None, "note": note}
    next_round: JSON = {
        "out": {n: prob("out", p) for n, p in elimination_odds(c.group_state, given).items()},
        "ends": {s: prob("win", p) for s, p in side_win_odds(c.group_state, given).items()},
    }
    exchange["out"] = {n: o["out"] for n, o in next_round["out"].items()}
    note = "a group extended contest's odds are for this round: the rest of it plain"
    return {**out, "exchange": exchange, "contest": None, "next_round": next_round, "note": note}


class HeroQuestOdds(SystemOdds):
    """HeroQuest's odds for ``core.odds`` (:class:`core.rules.base.SystemOdds`)."""

    def odds_json(self, contest: Contest) -> JSON:
        if isinstance(contest, HQGroupContest):
            return _group_json(contest)
        return _heroquest_json(own(contest, HQContest))

    def score_lines(self, odds: JSON) -> list[str]:
        if odds.get("next_round"):
            found = odds["next_round"]
            lines = [f"Round {odds['round']}: out by its end:"]
            lines += [f"  {n} {pct(o['out'])}" for n, o in found["out"].items()]
            lines.append("  the contest ends this round: ")
            lines[-1] += ", ".join(f"{s} wins {pct(o['win'])}" for s, o in found["ends"].items())
            return lines
        if "resolution_points" not in odds:
            return []
        points = ", ".join(f"{s} {v}" for s, v in odds["resolution_points"].items())
        return [f"Resolution points: {points}"]

    def exchange_lines(self, exchange: JSON) -> list[str]:
        ex = exchange
        lines: list[str] = []
        width = max(len(n) for n in ex["sides"]) + 2
        for party, o in ex["sides"].items():
            target = ex["targets"][party]
            levels = "  ".join(f"{n} {pct(o[n])}" for n in LEVEL_NAMES)
            lines.append(f"  {party:<{width}}({target}) win {pct(o['win'])}: {levels}")
        lines.append(f"  tie {pct(ex['tie'])}")
        return lines

    def clear_caches(self) -> None:
        for cached in (heroquest_counts, heroquest_chain):
            cached.cache_clear()


HEROQUEST_ODDS = HeroQuestOdds()


def heroquest_roll_levels(target: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """One d20 against ``target`` with no opponent (a quick roll): the chance of each
    level (fumble, failure, success, critical; ``heroquest.LEVELS``), each roll classified
    by ``heroquest.classify`` and its masteries each a bump up (``heroquest.bump``)."""
    base, masteries = normalise(target)
    counts = [0, 0, 0, 0]
    for roll in range(1, 21):
        counts[bump(classify(roll, base), FUMBLE, masteries)[0]] += 1
    w, x, y, z = (Fraction(n, 20) for n in counts)
    return w, x, y, z
