"""Exact odds of a Fate conflict (core.systems.fate.conflict_odds): hand-worked values
for small states, and brute force over every dice outcome, attack by attack through the
conflict rules (attack_result, the defender's absorption, absorb), for one against one
over several exchanges (issue 28, "What it must show" 3)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from fractions import Fraction

import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from msgspec.structs import replace

from core.errors import UnknownName
from core.systems.fate.conflict import (
    CORE,
    Absorption,
    Combatant,
    Conflict,
    ConflictOptions,
    absorb,
    absorptions,
    attack_result,
    new_combatant,
)
from core.systems.fate.conflict_odds import (
    ConflictOdds,
    TooManyStates,
    conflict_odds,
    fewest_consequences,
    hit_counts,
    keep_most,
    solver,
)

Ratings = Mapping[str, tuple[int, int]]


def worn(
    c: Combatant, free_boxes: tuple[int, ...] = (), free_slots: tuple[int, ...] = ()
) -> Combatant:
    """``c`` with every physical box checked but those at ``free_boxes`` and every slot
    filled but those at ``free_slots``."""
    track = c.tracks[0]
    boxes = tuple(replace(b, checked=i not in free_boxes) for i, b in enumerate(track.boxes))
    slots = tuple(
        s if i in free_slots else replace(s, aspect="Old Wound") for i, s in enumerate(c.slots)
    )
    return replace(c, tracks=(replace(track, boxes=boxes), *c.tracks[1:]), slots=slots)


# -- one attack ----------------------------------------------------------------------------


def test_one_attack_at_equal_skills_counted_by_hand() -> None:
    """4dF gives -4..+4 in 1, 4, 10, 16, 19, 16, 10, 4, 1 of 81 throws. Attack minus
    defense at equal skills is the difference of two throws: 0 in 1+16+100+256+361+256+
    100+16+1 = 1107 of 6561, so no harm (a fail or a tie) in (6561 + 1107) / 2 = 3834; a
    1-shift hit in 1*4 + 4*10 + 10*16 + 16*19 + 19*16 + 16*10 + 10*4 + 4*1 = 1016; an
    8-shift hit in 1 (all + against all -)."""
    counts = dict(hit_counts(3, 3))
    assert sum(counts.values()) == 6561
    assert counts[0] == 3834 and counts[1] == 1016 and counts[8] == 1
    assert max(counts) == 8
    # Two better: a 9-shift hit at most; no harm only when the defense's throw beats
    # the attack's by 2 or more.
    assert max(dict(hit_counts(5, 3))) == 10


# -- the defender's choice -----------------------------------------------------------------


def test_policies_differ_where_a_mild_keeps_more_than_the_four_box() -> None:
    """Only the 4-box free (of 1, 2, 3, 4) and every slot free; a 2-shift hit. The 4-box
    leaves 0 + 2 + 4 + 6 = 12 shifts of capacity; a mild leaves 4 + 4 + 6 = 14. "Keep
    the most" takes the mild; "fewest consequences" the 4-box."""
    c = worn(new_combatant("Og", "npcs", physique=3), free_boxes=(3,), free_slots=(0, 1, 2))
    assert keep_most(c, "physical", 2) == Absorption(track="physical", slots=(0,))
    assert fewest_consequences(c, "physical", 2) == Absorption(track="physical", boxes=(3,))
    assert keep_most(c, "physical", 17) is None


# -- hand-worked conflicts -----------------------------------------------------------------


def test_last_legs_one_against_one() -> None:
    """Both sides spent: any hit takes either out. At equal skills a hit lands in
    p = 2727/6561 = 101/243 of the attacks. A attacks first, so A wins with p, or after
    two misses from the same state: W = p + (1 - p)^2 W, W = 1 / (2 - p) = 243/385.
    In the coming exchange B is taken out with p = 101/243, A with (1 - p) p = 142 * 101
    / 243^2."""
    a = worn(new_combatant("A", "left"))
    b = worn(new_combatant("B", "right"))
    out, wins = conflict_odds(Conflict(combatants=(a, b)), {"A": (2, 2), "B": (2, 2)})
    assert wins == {"left": Fraction(243, 385), "right": Fraction(142, 385)}
    assert out == {"B": Fraction(101, 243), "A": Fraction(142 * 101, 243 * 243)}


def test_the_turn_counts_and_a_finished_conflict_is_won() -> None:
    """From B's turn the same state is B's 243/385; a conflict with one side left is
    that side's for certain."""
    a = worn(new_combatant("A", "left"))
    b = worn(new_combatant("B", "right"))
    odds = ConflictOdds({"A": (2, 2), "B": (2, 2)})
    assert odds.wins(Conflict(combatants=(a, b), turn=1))["right"] == Fraction(243, 385)
    done = Conflict(combatants=(a, replace(b, taken_out=True)))
    assert odds.wins(done) == {"left": 1}


def test_nobody_can_hit_anybody_never_ends() -> None:
    """Attack 0 against defense 9: at best +4 against 9 - 4 = 5, never a hit."""
    a = worn(new_combatant("A", "left"))
    b = worn(new_combatant("B", "right"))
    odds = ConflictOdds({"A": (0, 9), "B": (0, 9)})
    c = Conflict(combatants=(a, b))
    assert odds.wins(c) == {} and odds.endless(c) == 1


# -- brute force ---------------------------------------------------------------------------


def throws() -> dict[int, int]:
    """Every throw of four Fate dice, counted by its sum."""
    counts: dict[int, int] = {}
    for faces in itertools.product((-1, 0, 1), repeat=4):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return counts


Policy = Callable[[Combatant, str, int, ConflictOptions], Absorption | None]


def brute(
    conflict: Conflict, ratings: Ratings, attacks: int, policy: Policy = keep_most
) -> tuple[dict[str, Fraction], Fraction]:
    """Each side's chance of having won within ``attacks`` attacks (in turn order from
    the first), and the chance the conflict is still on: every throw of the attacker's and
    the defender's dice, through attack_result and absorb, the outcomes of one attack
    grouped by the state they lead to (a plain tree: no state is remembered)."""
    dice = throws()
    # Whole numbers over 6561 ** attacks (each attack's 81 x 81 throws), exact and fast.
    wins: dict[str, int] = {}
    still = 0
    chosen: dict[tuple[Combatant, int], Combatant] = {}  # the policy's answer, once asked
    shifts_of: dict[tuple[int, int], dict[int, int]] = {}

    def hit(defender: Combatant, shifts: int, side: str) -> Combatant:
        if (defender, shifts) not in chosen:
            way = policy(defender, "physical", shifts, conflict.options)
            chosen[(defender, shifts)] = (
                replace(defender, taken_out=True)
                if way is None
                else absorb(defender, way, shifts, ("Hurt",) * len(way.slots), by=side)
            )
        return chosen[(defender, shifts)]

    def walk(state: Conflict, t: int, left: int, p: int) -> None:
        nonlocal still
        sides = {c.side for c in state.combatants if c.in_conflict}
        if len(sides) == 1:
            (side,) = sides
            wins[side] = wins.get(side, 0) + p * 6561**left
            return
        if left == 0:
            still += p
            return
        n = len(state.combatants)
        me = state.combatants[t]
        targets = [i for i, c in enumerate(state.combatants) if c.in_conflict and c.side != me.side]
        if not me.in_conflict or not targets:
            walk(state, (t + 1) % n, left - 1, p * 6561)
            return
        target = targets[0]
        defender = state.combatants[target]
        attack, _ = ratings[me.name]
        _, defense = ratings[defender.name]
        if (attack, defense) not in shifts_of:  # every pair of throws, once per ratings
            counted: dict[int, int] = {}
            for x, nx in dice.items():
                for y, ny in dice.items():
                    shifts = attack_result(attack + x, defense + y).shifts
                    counted[shifts] = counted.get(shifts, 0) + nx * ny
            shifts_of[(attack, defense)] = counted
        outcomes: dict[Conflict, int] = {}
        for shifts, count in shifts_of[(attack, defense)].items():
            after = state if shifts == 0 else state.with_combatant(hit(defender, shifts, me.side))
            outcomes[after] = outcomes.get(after, 0) + count
        for after, count in outcomes.items():
            walk(after, (t + 1) % n, left - 1, p * count)

    walk(conflict, conflict.turn, attacks, 1)
    whole = 6561**attacks
    return {side: Fraction(w, whole) for side, w in wins.items()}, Fraction(still, whole)


def test_odds_equal_brute_force_when_the_conflict_must_end_in_two_exchanges() -> None:
    """Attack 9 against defense 0 always hits (9 - 4 - 4 = 1 at worst). A has only the
    2-box (one hit absorbed at most), B the 2-box and the mild: A attacks, B, A, B: by
    the fourth attack someone is out. So four attacks of brute force are the whole
    story, and the solver must agree exactly."""
    a = worn(new_combatant("A", "left"), free_boxes=(1,))
    b = worn(new_combatant("B", "right"), free_boxes=(1,), free_slots=(0,))
    conflict = Conflict(combatants=(a, b))
    ratings = {"A": (9, 0), "B": (9, 0)}
    wins, still = brute(conflict, ratings, attacks=4)
    assert still == 0
    assert sum(wins.values()) == 1
    assert ConflictOdds(ratings).wins(conflict) == wins


@pytest.mark.parametrize(
    ("physique", "ratings", "policy"),
    [
        ((0, 0), {"A": (3, 2), "B": (2, 3)}, keep_most),
        ((1, 2), {"A": (4, 1), "B": (3, 2)}, keep_most),
        ((0, 1), {"A": (4, 2), "B": (4, 2)}, fewest_consequences),
    ],
)
def test_odds_against_brute_force_over_three_exchanges(
    physique: tuple[int, int], ratings: Ratings, policy: Policy
) -> None:
    """Fresh characters, one against one, three exchanges (six attacks) of every dice
    outcome: what brute force sees won within them is a lower bound of each side's
    chance, and adding what is still undecided an upper bound; and the solver's chance of
    being taken out in the first exchange is brute force's over two attacks, exactly."""
    a = new_combatant("A", "left", physique=physique[0])
    b = new_combatant("B", "right", physique=physique[1])
    conflict = Conflict(combatants=(a, b))
    odds = ConflictOdds(ratings, policy=policy)
    solved = odds.wins(conflict)
    assert sum(solved.values()) == 1
    wins, still = brute(conflict, ratings, attacks=6, policy=policy)
    assert still < 1
    for side in ("left", "right"):
        low = wins.get(side, Fraction(0))
        assert low <= solved[side] <= low + still
    # The coming exchange: taken out within A's attack and B's.
    first, _ = brute(conflict, ratings, attacks=2, policy=policy)
    out = odds.taken_out_next(conflict)
    assert out == {"A": first.get("right", Fraction(0)), "B": first.get("left", Fraction(0))}


def test_odds_against_brute_force_when_nearly_spent() -> None:
    """Worn characters (a few boxes and slots left) end fast: over four exchanges brute
    force leaves little undecided, and the solver lies within it."""
    a = worn(new_combatant("A", "left", physique=2), free_boxes=(0, 2), free_slots=(0,))
    b = worn(new_combatant("B", "right", physique=0), free_boxes=(1,), free_slots=(1,))
    conflict = Conflict(combatants=(a, b))
    ratings = {"A": (3, 2), "B": (4, 1)}
    solved = ConflictOdds(ratings).wins(conflict)
    wins, still = brute(conflict, ratings, attacks=8)
    for side in ("left", "right"):
        low = wins.get(side, Fraction(0))
        assert low <= solved[side] <= low + still


def test_two_against_one_is_solved_too() -> None:
    """Beyond one against one: each attacks the first foe still standing; the chances
    of the two sides and of never ending add up to one, and brute force bounds them."""
    a = worn(new_combatant("A", "pcs"), free_boxes=(1,), free_slots=(0,))
    b = worn(new_combatant("B", "pcs"), free_boxes=(0,))
    og = worn(new_combatant("Og", "npcs", physique=3), free_boxes=(2, 3), free_slots=(0,))
    conflict = Conflict(combatants=(a, og, b))
    ratings = {"A": (2, 2), "B": (1, 1), "Og": (3, 3)}
    odds = ConflictOdds(ratings)
    solved = odds.wins(conflict)
    assert sum(solved.values()) + odds.endless(conflict) == 1
    wins, still = brute(conflict, ratings, attacks=9)
    for side in ("pcs", "npcs"):
        low = wins.get(side, Fraction(0))
        assert low <= solved[side] <= low + still


def test_a_participant_without_ratings_is_named() -> None:
    conflict = Conflict(combatants=(new_combatant("A", "l"), new_combatant("Og", "r")))
    with pytest.raises(UnknownName, match="Og"):
        ConflictOdds({"A": (2, 2)}).wins(conflict)


def test_too_many_states_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import core.systems.fate.conflict_odds as module

    monkeypatch.setattr(module, "MAX_STATES", 10)
    conflict = Conflict(combatants=(new_combatant("A", "l"), new_combatant("B", "r")))
    with pytest.raises(TooManyStates):
        ConflictOdds({"A": (2, 2), "B": (2, 2)}).wins(conflict)


def test_condensed_stress_is_solved_with_its_own_boxes() -> None:
    """Condensed, both spent but one box each: a 1-shift hit is absorbed by the box, a
    2-shift hit takes out. A wins as brute force says over enough attacks."""
    options = ConflictOptions(stress="condensed")
    a = worn(new_combatant("A", "left", options=options), free_boxes=(0,))
    b = worn(new_combatant("B", "right", options=options), free_boxes=(0,))
    conflict = Conflict(options=options, combatants=(a, b))
    ratings = {"A": (9, 0), "B": (9, 0)}  # always a hit: ends within four attacks
    wins, still = brute(conflict, ratings, attacks=4)
    assert still == 0
    assert ConflictOdds(ratings).wins(conflict) == wins
    # By hand: a 1-shift hit only when x - y = -8 (all - against all +): p1 = 1/6561.
    # A's first attack takes B out unless it is that one (the box absorbs it); then B's
    # takes A out unless it is that one too; then B has nothing left and A always hits.
    p1 = Fraction(1, 6561)
    assert wins == {"left": (1 - p1) + p1 * p1, "right": p1 * (1 - p1)}


# -- the solver kept between questions ------------------------------------------------------
#
# The dashboard asks conflict_odds again after every action; it keeps the solver, with the
# states it has solved, for the next question. Its answers must be a fresh solver's,
# whatever was asked before: other states of the conflict, reached by absorptions the
# policy would not choose, and other conflicts with the same ratings and other options.

CONDENSED = ConflictOptions(stress="condensed")


@st.composite
def worn_conflicts(draw: st.DrawFn, options: ConflictOptions) -> Conflict:
    """One against one, each with a few boxes and slots free (a few states: quick)."""

    def fighter(name: str, side: str) -> Combatant:
        c = new_combatant(name, side, physique=draw(st.integers(0, 2)), options=options)
        boxes = range(len(c.tracks[0].boxes))
        free_boxes = draw(st.lists(st.sampled_from(boxes), max_size=2, unique=True))
        free_slots = draw(st.lists(st.sampled_from(range(len(c.slots))), max_size=2, unique=True))
        return worn(c, tuple(free_boxes), tuple(free_slots))

    return Conflict(options=options, combatants=(fighter("A", "left"), fighter("B", "right")))


def fresh(conflict: Conflict, ratings: Ratings) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    odds = ConflictOdds(ratings, track=conflict.kind)
    return odds.taken_out_next(conflict), odds.wins(conflict)


@given(data=st.data())
def test_the_kept_solver_answers_as_a_fresh_one_along_a_conflict(data: st.DataObject) -> None:
    """A conflict asked about, then again after each hit the GM absorbed (any legal way,
    or taken out where none is left), on conflicts of either stress option with the same
    ratings in turn: each answer is a fresh solver's."""
    ratings = {"A": data.draw(st.sampled_from(((2, 2), (3, 1)))), "B": (2, 2)}
    solver.cache_clear()
    for options in data.draw(st.permutations((CORE, CONDENSED))):
        conflict = data.draw(worn_conflicts(options))
        for _ in range(data.draw(st.integers(0, 3))):
            assert conflict_odds(conflict, ratings) == fresh(conflict, ratings)
            standing = [c for c in conflict.combatants if c.in_conflict]
            if len(standing) < 2:
                break
            target = data.draw(st.sampled_from(standing))
            shifts = data.draw(st.integers(1, 4))
            ways = absorptions(target, "physical", shifts, options)
            if ways:
                way = data.draw(st.sampled_from(ways))
                hit = absorb(target, way, shifts, ("Wound",) * len(way.slots), options=options)
            else:
                hit = replace(target, taken_out=True)
            conflict = conflict.with_combatant(hit)
        standing = {c.side for c in conflict.combatants if c.in_conflict}
        event(f"asked last: {'a conflict over' if len(standing) < 2 else 'one going on'}")
        assert conflict_odds(conflict, ratings) == fresh(conflict, ratings)


def test_states_kept_from_earlier_questions_do_not_count_against_a_new_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MAX_STATES bounds what one question solves. Two conflicts of the same ratings and
    options (one solver), between other people (no state in common): asked about the
    smaller first, then with the bound set to just what the larger needs afresh, the
    larger is answered, not refused for the states kept from the first question."""
    import core.systems.fate.conflict_odds as module

    ratings = {name: (2, 2) for name in "ABCD"}

    def duel(one: str, other: str, free: tuple[int, ...]) -> Conflict:
        return Conflict(
            combatants=tuple(
                worn(new_combatant(name, name), free_boxes=free, free_slots=free)
                for name in (one, other)
            )
        )

    def needs(conflict: Conflict) -> int:
        """The smallest bound a fresh solver answers ``conflict`` within (refusing is
        monotone in the bound: a binary search)."""
        low, high = 1, 10_000
        while low < high:
            bound = (low + high) // 2
            monkeypatch.setattr(module, "MAX_STATES", bound)
            try:
                ConflictOdds(ratings).wins(conflict)
            except TooManyStates:
                low = bound + 1
            else:
                high = bound
        return low

    small, large = duel("A", "B", (0,)), duel("C", "D", (0, 1))
    bound = needs(large)
    assert 1 < needs(small) < bound
    solver.cache_clear()
    monkeypatch.setattr(module, "MAX_STATES", bound)
    conflict_odds(small, ratings)
    assert conflict_odds(large, ratings) == fresh(large, ratings)
