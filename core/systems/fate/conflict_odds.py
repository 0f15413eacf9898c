"""Exact odds of a Fate conflict: being taken out in the coming exchange, and each side's
chance of winning the conflict from here.

The model (what is counted, and what is not):

* Each participant still in the conflict attacks once per exchange, in turn order, the
  first participant of another side still in it (in turn order: ``target_policy``); the
  attack is ``attack`` + 4dF against the target's ``defense`` + 4dF (two independent
  throws, 81 x 81 equally likely); the hit is the margin (``conflict.attack_result``,
  a success with style taking no boost). Invokes, advantages, boosts, full defense and
  concessions are not modelled: the odds are those of plain rolls from the state now. A
  hit already rolled and waiting for its absorption is counted as it stands (its shifts
  include the invokes paid on its rolls), absorbed by the ``policy``.
* The defender absorbs a hit by the ``policy`` (default :func:`keep_most`: the way that
  leaves the most capacity for the next hit; :func:`fewest_consequences` is the other),
  chosen among ``conflict.absorptions``; none: taken out. Stress stays checked for the
  whole conflict, so every hit that lands fills something: the state only shrinks.
* The chance of winning is a memoised recursion over states (every participant's
  tracks, slots and whether still in): within one state, the exchanges where nobody is
  hit come back to it, a geometric series solved exactly (``Fraction``). A state where
  nobody can ever hit anybody again (margins of -9 or less) never ends: that mass is
  nobody's win (:attr:`ConflictOdds.endless`).

Exact for one against one and for small groups: the states are the product of each
participant's (at most 2^(boxes+slots)), and the solver refuses (``TooManyStates``) past
``MAX_STATES``. Measured (2 vCPU, exact fractions), one against one, fresh characters,
attack 3 against defense 2 both ways: Core, Physique Mediocre each 2,050 entries in
0.2 s; Fair 7,008 in 0.6 s; Great 23,660 in 2.3 s; Condensed, Great, 1,344 in 0.15 s (its
boxes of one value are alike). Slow enough that a dashboard asks it in a worker. The
throws of one attack are grouped by the state they lead to (whole counts over 6561)
before any fraction is multiplied.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache

from msgspec.structs import replace

from core.errors import RuleError, UnknownName
from core.systems.fate.conflict import (
    CORE,
    Absorption,
    Combatant,
    Conflict,
    ConflictOptions,
    absorb,
    absorptions,
    attack_result,
    capacity,
)
from core.systems.fate.throws import FOUR_DF, FOUR_DF_THROWS

MAX_STATES = 200_000

Policy = Callable[[Combatant, str, int, ConflictOptions], Absorption | None]


class TooManyStates(RuleError):
    """A conflict whose states are too many to count exactly."""

    title = "Too many to count"


# -- the defender's choice ------------------------------------------------------------------


def _left(c: Combatant, a: Absorption, track: str, shifts: int, options: ConflictOptions) -> int:
    """The capacity left on ``track`` once ``a`` absorbed the hit."""
    after = absorb(c, a, shifts, ("?",) * len(a.slots), options=options)
    return capacity(after, track, options)


def _weight(c: Combatant, a: Absorption) -> int:
    return sum(c.slots[i].shifts for i in a.slots)


def keep_most(
    c: Combatant, track: str, shifts: int, options: ConflictOptions = CORE
) -> Absorption | None:
    """The way that leaves the most capacity (the largest hit still absorbable on
    ``track``); ties: fewer consequences, then lighter ones, then the first listed."""
    ways = absorptions(c, track, shifts, options)
    if not ways:
        return None
    return max(
        ways,
        key=lambda a: (_left(c, a, track, shifts, options), -len(a.slots), -_weight(c, a)),
    )


def fewest_consequences(
    c: Combatant, track: str, shifts: int, options: ConflictOptions = CORE
) -> Absorption | None:
    """Stress first: the fewest consequences, then the lightest, then the most capacity
    left, then the first listed."""
    ways = absorptions(c, track, shifts, options)
    if not ways:
        return None
    return max(
        ways,
        key=lambda a: (-len(a.slots), -_weight(c, a), _left(c, a, track, shifts, options)),
    )


# -- one attack -----------------------------------------------------------------------------


@lru_cache(maxsize=256)
def hit_counts(attack: int, defense: int, style_threshold: int = 3) -> tuple[tuple[int, int], ...]:
    """How many of the 81 x 81 throws give each hit (shifts, count); 0 is no harm."""
    counts: dict[int, int] = {}
    for a, na in FOUR_DF.items():
        for d, nd in FOUR_DF.items():
            shifts = attack_result(attack + a, defense + d, style_threshold=style_threshold).shifts
            counts[shifts] = counts.get(shifts, 0) + na * nd
    return tuple(sorted(counts.items()))


THROWS = FOUR_DF_THROWS * FOUR_DF_THROWS


def _plain(c: Combatant) -> Combatant:
    """What of a participant matters to the odds: boxes checked, slots filled, in or out
    (not the consequences' names, nor who holds their invokes)."""
    return replace(
        c,
        slots=tuple(
            replace(s, aspect="?" if s.aspect else None, holder=None, free_invokes=0)
            for s in c.slots
        ),
        taken_here=0,
    )


def default_target(conflict: Conflict, attacker: int) -> int | None:
    """The first participant of another side still in the conflict, in turn order."""
    side = conflict.combatants[attacker].side
    for i, c in enumerate(conflict.combatants):
        if c.in_conflict and c.side != side:
            return i
    return None


class ConflictOdds:
    """The exact odds of one conflict's rolls.

    ``ratings``: each participant's (attack, defense) for this conflict's kind (Fight or
    Shoot and Athletics or Fight; Provoke and Will). ``track``: the track the attacks
    hit (the conflict's kind)."""

    def __init__(
        self,
        ratings: Mapping[str, tuple[int, int]],
        track: str = "physical",
        policy: Policy = keep_most,
        target_policy: Callable[[Conflict, int], int | None] = default_target,
        options: ConflictOptions | None = None,
    ) -> None:
        self.ratings = dict(ratings)
        self.track = track
        self.policy = policy
        self.target_policy = target_policy
        self.options = options
        self._hits: dict[tuple[Combatant, int], Combatant] = {}
        self._values: dict[tuple[tuple[Combatant, ...], int], dict[str, Fraction]] = {}
        self._known = 0  # states solved before the solve under way (MAX_STATES is a solve's)
        # One question at a time: a dashboard asks from a worker thread, and a newer
        # question may come while an older one is still being answered.
        self.lock = threading.Lock()

    def _attack(self, conflict: Conflict, attacker: int) -> dict[Conflict, int]:
        """One attack's outcomes: each state it leads to, with how many of the 81 x 81
        throws lead there (a miss: ``conflict`` itself, the very object)."""
        me = conflict.combatants[attacker]
        target = self.target_policy(conflict, attacker) if me.in_conflict else None
        if target is None:
            return {conflict: THROWS}
        options = self.options or conflict.options
        defender = conflict.combatants[target]
        attack, _ = self.ratings[me.name]
        _, defense = self.ratings[defender.name]
        out: dict[Conflict, int] = {}
        for shifts, count in hit_counts(attack, defense, options.style_threshold):
            after = (
                conflict
                if shifts == 0
                else conflict.with_combatant(self._hit(defender, shifts, options))
            )
            out[after] = out.get(after, 0) + count
        return out

    def _hit(self, defender: Combatant, shifts: int, options: ConflictOptions) -> Combatant:
        """The defender after a hit, as the policy absorbs it (or taken out), kept in
        the solver's plain form (consequences unnamed)."""
        found = self._hits.get((defender, shifts))
        if found is None:
            way = self.policy(defender, self.track, shifts, options)
            if way is None:
                found = replace(defender, taken_out=True)
            else:
                found = absorb(defender, way, shifts, ("?",) * len(way.slots), options=options)
                found = _plain(found)
            self._hits[(defender, shifts)] = found
        return found

    def _rated(self, conflict: Conflict) -> None:
        missing = [c.name for c in conflict.combatants if c.name not in self.ratings]
        if missing:
            raise UnknownName(f"no attack and defense for {', '.join(missing)}")

    def wins(self, conflict: Conflict, turn: int | None = None) -> dict[str, Fraction]:
        """Each side's chance of winning the conflict from here (from ``turn``: by
        default ``conflict.turn``; past the last, the next exchange's first). A side
        already the winner has 1; ``endless`` (:meth:`endless`) is the rest."""
        self._rated(conflict)
        if len(self._values) >= MAX_STATES:  # kept from earlier questions: start afresh
            self._values.clear()
            self._hits.clear()
        self._known = len(self._values)
        plain = replace(conflict, combatants=tuple(_plain(c) for c in conflict.combatants))
        first = conflict.turn if turn is None else turn
        return dict(self._solve(plain, first % len(conflict.combatants)))

    def absorbed(self, conflict: Conflict, target: str, track: str, shifts: int) -> Conflict:
        """``conflict`` once ``target`` has absorbed a hit of ``shifts`` on ``track`` (a
        hit waiting, its shifts as rolled, invokes included) the policy's way, or been
        taken out by it where no way is left."""
        options = self.options or conflict.options
        defender = conflict.combatant(target)
        way = self.policy(defender, track, shifts, options)
        if way is None:
            after = replace(defender, taken_out=True)
        else:
            after = absorb(defender, way, shifts, ("?",) * len(way.slots), options=options)
        return conflict.with_combatant(after)

    def endless(self, conflict: Conflict) -> Fraction:
        """The chance that the conflict never ends (nobody can hit anybody any more)."""
        return 1 - sum(self.wins(conflict).values(), Fraction(0))

    def _solve(self, conflict: Conflict, turn: int) -> dict[str, Fraction]:
        key = (conflict.combatants, turn)
        found = self._values.get(key)
        if found is not None:
            return found
        left = tuple(dict.fromkeys(c.side for c in conflict.combatants if c.in_conflict))
        if len(left) < 2:
            value = {left[0]: Fraction(1)} if left else {}
            self._values[key] = value
            return value
        if len(self._values) - self._known >= MAX_STATES:
            raise TooManyStates(f"more than {MAX_STATES} states to count")
        n = len(conflict.combatants)
        # Around the turn order from ``turn``: V_t = m_t V_(t+1) + r_t, where m_t is the
        # chance of no change (a miss, or nobody to attack) and r_t what the hits bring.
        misses: list[Fraction] = []
        rests: list[dict[str, Fraction]] = []
        for k in range(n):
            t = (turn + k) % n
            miss = 0
            rest: dict[str, Fraction] = {}
            for after, count in self._attack(conflict, t).items():
                if after is conflict:
                    miss += count
                    continue
                for side, q in self._solve(after, (t + 1) % n).items():
                    rest[side] = rest.get(side, Fraction(0)) + q * count
            misses.append(Fraction(miss, THROWS))
            rests.append({side: q / THROWS for side, q in rest.items()})
        loop = Fraction(1)
        for m in misses:
            loop *= m
        values: list[dict[str, Fraction]] = [{} for _ in range(n)]
        if loop != 1:  # else nobody can ever be hit again: no side wins from here
            first: dict[str, Fraction] = {}
            carry = Fraction(1)
            for k in range(n):
                for side, q in rests[k].items():
                    first[side] = first.get(side, Fraction(0)) + carry * q
                carry *= misses[k]
            values[0] = {side: q / (1 - loop) for side, q in first.items()}
            for k in range(n - 1, 0, -1):
                following = values[(k + 1) % n]
                sides = set(rests[k]) | set(following)
                values[k] = {
                    s: rests[k].get(s, Fraction(0)) + misses[k] * following.get(s, Fraction(0))
                    for s in sides
                }
        for k in range(n):
            self._values[(key[0], (turn + k) % n)] = values[k]
        return values[0]

    def taken_out_next(
        self, conflict: Conflict, turn: int | None = None, since: Conflict | None = None
    ) -> dict[str, Fraction]:
        """Each participant's chance of being taken out by the end of the coming exchange
        (the attacks from ``turn``, by default ``conflict.turn``, to the last in turn
        order), counting from ``since`` (by default ``conflict``: one taken out by a hit
        waiting, absorbed in ``conflict``, is taken out in this exchange)."""
        self._rated(conflict)
        before = conflict if since is None else since
        states: dict[Conflict, Fraction] = {conflict: Fraction(1)}
        first = conflict.turn if turn is None else turn
        for t in range(first, len(conflict.combatants)):
            following: dict[Conflict, Fraction] = {}
            for state, p in states.items():
                for after, count in self._attack(state, t).items():
                    following[after] = following.get(after, Fraction(0)) + p * count / THROWS
            states = following
        return {
            c.name: sum(
                (p for s, p in states.items() if s.combatants[i].taken_out and not c.taken_out),
                Fraction(0),
            )
            for i, c in enumerate(before.combatants)
        }


@lru_cache(maxsize=4)
def solver(
    ratings: tuple[tuple[str, tuple[int, int]], ...],
    track: str,
    policy: Policy,
    options: ConflictOptions,
) -> ConflictOdds:
    """The solver of the conflicts with these ratings, track, policy and options, kept
    with what it has solved: the dashboard asks again after every action, and the state
    an action leads to was most often solved already, on the way to the answer before
    (stress stays checked: the states only shrink). The SRD's warehouse, asked again
    after a hit absorbed: 0.017 s, against 0.2 s afresh. The last four conflicts asked
    about are kept (a GM runs one at a time)."""
    return ConflictOdds(dict(ratings), track=track, policy=policy, options=options)


def conflict_odds(
    conflict: Conflict,
    ratings: Mapping[str, tuple[int, int]],
    policy: Policy = keep_most,
    waiting: tuple[str, str, int] | None = None,
) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """(each participant's chance of being taken out in the coming exchange, each side's
    chance of winning the conflict from here), for a conflict of its own ``kind``.
    ``waiting``: a hit rolled and not yet absorbed, (target, track, shifts), made by the
    one whose turn it is: counted first, absorbed the policy's way (or taking the target
    out), then the attacks from the next in turn order."""
    odds = solver(tuple(sorted(ratings.items())), conflict.kind, policy, conflict.options)
    with odds.lock:
        if waiting is None:
            return odds.taken_out_next(conflict), odds.wins(conflict)
        after = odds.absorbed(conflict, *waiting)
        turn = conflict.turn + 1
        return odds.taken_out_next(after, turn, since=conflict), odds.wins(after, turn)
