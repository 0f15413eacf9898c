"""Iconoclast FORGE: the scoring functions, the engine and ``tussle resolve`` scenarios.

Every expected value is worked by hand from rules.md part 3 and scenario.md "FORGE"; the
comments show the working.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.engine import apply
from core.errors import BadDice, ContestOver, OutOfTurn, RuleError, UnknownName
from core.model import Command, EndContest, ResolveExchange, RollDice, SetModifier
from core.rules.reading import ScenarioError
from core.scenario import resolve
from core.systems.forge.events import ChooseReaction, ExchangeResolved, SetStage
from core.systems.forge.rules import FORGE
from core.systems.forge.scoring import absorb, actor_succeeds, damage, reactor_wins, stage_outcome
from core.systems.forge.state import ForgeContest, ForgeOptions, ForgeParticipant, new_contest
from tests.strategies import Stage, d100, fighters, stages

# -- helpers --------------------------------------------------------------------------------


def scenario(
    exchanges: list[dict[str, Any]],
    participants: list[dict[str, Any]] | None = None,
    **options: Any,
) -> dict[str, Any]:
    return {
        "system": "forge",
        "options": options,
        "participants": participants
        or [{"name": "Hacker", "target": 60}, {"name": "Sysop", "target": 50}],
        "exchanges": exchanges,
    }


def run(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = resolve(data).to_json()
    return out


def error_of(data: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as caught:
        resolve(data)
    return str(caught.value)


def play(contest: ForgeContest, *commands: Command) -> tuple[ForgeContest, list[Any]]:
    events: list[Any] = []
    for command in commands:
        after, new = apply(contest, command)
        assert isinstance(after, ForgeContest)
        contest = after
        events.extend(new)
    return contest, events


def duel(**options: Any) -> ForgeContest:
    return new_contest(
        [
            ForgeParticipant(name="Hacker", side="Hacker", target=60),
            ForgeParticipant(name="Sysop", side="Sysop", target=50),
        ],
        ForgeOptions(**options),
    )


# -- rules.md §3.6 test vectors -------------------------------------------------------------


def test_i1_reactor_higher_within_target_wins() -> None:
    # throws 45; 47 ≤ 50 and 47 > 45
    outcome = stage_outcome(60, 45, 50, 47)
    assert (outcome.thrown, outcome.reactor_success, outcome.actor_wins) == (45, True, False)


def test_i2_tie_goes_to_the_reactor() -> None:
    outcome = stage_outcome(60, 45, 50, 45)
    assert (outcome.thrown, outcome.reactor_success, outcome.actor_wins) == (45, True, False)


def test_i3_reactor_lower_loses() -> None:
    outcome = stage_outcome(60, 45, 50, 44)
    assert (outcome.thrown, outcome.reactor_success, outcome.actor_wins) == (45, False, True)


def test_i4_reactor_outside_own_target_loses() -> None:
    outcome = stage_outcome(60, 45, 50, 51)
    assert (outcome.thrown, outcome.reactor_success, outcome.actor_wins) == (45, False, True)


def test_i5_failed_actor_gives_the_stage_without_a_reactor_roll() -> None:
    outcome = stage_outcome(60, 61, 50, None)
    assert outcome.actor_success is False
    assert outcome.actor_wins is False
    assert outcome.thrown is None
    assert outcome.reactor_success is None


def test_i14_knife_damage_is_tens_times_multiplier() -> None:
    assert damage(53, 3) == 15  # 5 × 3


def test_i15_tens_zero_deals_half_the_multiplier_rounded_half_up() -> None:
    assert damage(5, 3) == 2  # 3 / 2 = 1.5 → 2


def test_i16_fists_on_a_single_digit_and_a_capped_club() -> None:
    assert damage(7, 1) == 1  # 1 / 2 = 0.5 → 1
    assert damage(99, 10, 50) == 50  # min(9 × 10, 50)


def test_i17_armor_absorbs_its_durability_and_loses_capacity() -> None:
    absorbed, left = absorb(23, 10, 100)
    assert (absorbed, 23 - absorbed, left) == (10, 13, 90)


# -- the source example of §3.4 (Josef ×4 target 50, Bobby ×5 target 40) ------------------


def test_josef_and_bobby_damage_from_the_actions_page() -> None:
    assert actor_succeeds(50, 35) and damage(35, 4) == 12  # 3 × 4
    assert actor_succeeds(50, 24) and damage(24, 4) == 8  # 2 × 4
    assert not actor_succeeds(50, 57)  # 57 > 50: a miss
    assert actor_succeeds(40, 39) and damage(39, 5) == 15  # 3 × 5


# -- pure scoring, hand-worked -------------------------------------------------------------


def test_roll_of_100_counts_tens_ten() -> None:
    assert damage(100, 3) == 30
    assert damage(100, 7, 40) == 40


def test_half_multiplier_rounds_half_up_never_to_even() -> None:
    assert damage(9, 5) == 3  # 2.5 → 3 (banker's rounding would give 2)
    assert damage(1, 4) == 2
    assert damage(10, 4) == 4  # tens 1: the full multiplier


def test_max_damage_zero_caps_every_hit_to_nothing() -> None:
    assert damage(88, 6, 0) == 0


def test_automatic_success_and_failure_ignore_the_roll() -> None:
    assert actor_succeeds(100, 100)
    assert actor_succeeds(150, 99)
    assert not actor_succeeds(0, 1)
    assert not actor_succeeds(-20, None)
    assert actor_succeeds(99, 99) and not actor_succeeds(99, 100)


def test_reactor_at_target_zero_fails_whatever_she_rolls() -> None:
    assert not reactor_wins(0, 1, 1)
    assert not reactor_wins(-5, 100, 1)


def test_reactor_wins_ties_false_hands_ties_to_the_actor() -> None:
    assert not reactor_wins(50, 45, 45, reactor_wins_ties=False)
    assert reactor_wins(50, 46, 45, reactor_wins_ties=False)
    outcome = stage_outcome(60, 45, 50, 45, reactor_wins_ties=False)
    assert outcome.actor_wins and outcome.reactor_success is False


def test_combat_dodge_is_measured_against_the_damage_not_the_roll() -> None:
    # 35 × 4 → 12 damage; a dodge of 20 is within 40 and above 12: dodged, nothing hits
    dodged = stage_outcome(50, 35, 40, 20, combat=True, multiplier=4)
    assert (dodged.thrown, dodged.reactor_success, dodged.actor_wins, dodged.hit) == (
        12,
        True,
        False,
        None,
    )
    # a dodge of 11 is under 12: the hit lands
    hit = stage_outcome(50, 35, 40, 11, combat=True, multiplier=4)
    assert (hit.reactor_success, hit.actor_wins, hit.hit) == (False, True, 12)


def test_absorb_takes_the_hit_without_a_roll() -> None:
    outcome = stage_outcome(50, 35, 40, None, combat=True, multiplier=4, reaction="absorb")
    assert (outcome.thrown, outcome.reactor_success, outcome.actor_wins, outcome.hit) == (
        12,
        None,
        True,
        12,
    )


def test_reaction_is_ignored_outside_combat() -> None:
    outcome = stage_outcome(60, 45, 50, 47, reaction="absorb")
    assert outcome.reactor_success is True and outcome.hit is None


def test_unlimited_armor_absorbs_its_durability_every_time() -> None:
    assert absorb(23, 10, None) == (10, None)
    assert absorb(4, 10, None) == (4, None)


def test_limited_armor_runs_out() -> None:
    assert absorb(12, 10, 15) == (10, 5)
    assert absorb(16, 10, 5) == (5, 0)
    assert absorb(8, 10, 0) == (0, 0)


# -- properties ----------------------------------------------------------------------------


@given(stages)
def test_plain_stage_goes_to_the_reactor_exactly_as_rules_3_3_say(s: Stage) -> None:
    a, ta, r, tr = s.actor_roll, s.actor_target, s.reactor_roll, s.reactor_target
    outcome = stage_outcome(ta, a, tr, r)
    # X = a in a plain contest; a > Ta also covers Ta ≤ 0 and never fires at Ta ≥ 100
    assert (not outcome.actor_wins) == (a > ta or (r <= tr and r >= a))


@given(stages)
def test_combat_dodge_goes_to_the_reactor_exactly_as_rules_3_3_say(s: Stage) -> None:
    a, ta, r, tr = s.actor_roll, s.actor_target, s.reactor_roll, s.reactor_target
    outcome = stage_outcome(
        ta, a, tr, r, combat=True, multiplier=s.multiplier, max_damage=s.max_damage
    )
    tens = 10 if a == 100 else a // 10
    x = tens * s.multiplier if tens else (s.multiplier + 1) // 2
    if s.max_damage is not None:
        x = min(x, s.max_damage)
    reactor_gets_it = a > ta or (r <= tr and r >= x)
    assert (not outcome.actor_wins) == reactor_gets_it
    assert outcome.hit == (None if reactor_gets_it else x)


@given(stages)
def test_without_ties_the_reactor_needs_to_roll_strictly_higher(s: Stage) -> None:
    a, ta, r, tr = s.actor_roll, s.actor_target, s.reactor_roll, s.reactor_target
    outcome = stage_outcome(ta, a, tr, r, reactor_wins_ties=False)
    assert (not outcome.actor_wins) == (a > ta or (r <= tr and r > a))


@given(
    st.integers(min_value=0, max_value=200),
    st.integers(min_value=0, max_value=40),
    st.none() | st.integers(min_value=0, max_value=80),
)
def test_armor_never_absorbs_more_than_it_has(hit: int, armor: int, left: int | None) -> None:
    absorbed, after = absorb(hit, armor, left)
    assert 0 <= absorbed <= min(hit, armor)
    if left is None:
        assert after is None and absorbed == min(hit, armor)
    else:
        assert after is not None and after == left - absorbed >= 0


@given(fighters("Josef"), fighters("Bobby"), st.lists(st.tuples(d100, d100), max_size=12))
def test_stage_wins_count_every_stage_and_trauma_adds_up(
    josef: ForgeParticipant, bobby: ForgeParticipant, rolls: list[tuple[int, int]]
) -> None:
    contest = new_contest([josef, bobby], ForgeOptions(combat=True))
    taken = {"Josef": 0, "Bobby": 0}
    contest, _ = play(contest, SetStage(actor="Josef"))
    for a, r in rolls:
        actor = contest.last_reactor or "Josef"
        reactor = "Bobby" if actor == "Josef" else "Josef"
        contest, events = play(
            contest,
            RollDice(who=actor, faces=(a,)),
            RollDice(who=reactor, faces=(r,)),
            ResolveExchange(),
        )
        e = events[-1]
        assert isinstance(e, ExchangeResolved)
        assert e.trauma + e.absorbed == (e.damage or 0)
        taken[reactor] += e.trauma
    assert sum(contest.stage_wins.values()) == contest.n == len(rolls)
    assert dict(contest.trauma) == taken


# -- scenarios: the seed procedure ---------------------------------------------------------


def test_seed_procedure_swaps_roles_and_counts_stage_wins() -> None:
    # Hacker 60, Sysop 50; the actor alternates from Hacker
    out = run(
        scenario(
            [
                {"actor": "Hacker", "rolls": {"Hacker": 75}},  # 75 > 60: fails → Sysop
                {"rolls": {"Sysop": 40, "Hacker": 65}},  # 65 > 60: reactor fails → Sysop
                {"rolls": {"Hacker": 45, "Sysop": 30}},  # 30 < 45 → Hacker
                {"rolls": {"Sysop": 25, "Hacker": 52}},  # 52 > 25 → Hacker
                {"rolls": {"Hacker": 33, "Sysop": 33}, "end": True},  # tie → Sysop
            ]
        )
    )
    stages_out = out["exchanges"]
    assert [s["actor"] for s in stages_out] == ["Hacker", "Sysop", "Hacker", "Sysop", "Hacker"]
    assert [s["reactor"] for s in stages_out] == ["Sysop", "Hacker", "Sysop", "Hacker", "Sysop"]
    assert [s["winner"] for s in stages_out] == ["Sysop", "Sysop", "Hacker", "Hacker", "Sysop"]
    assert [s["thrown"] for s in stages_out] == [None, 40, 45, 25, 33]
    assert [s["actor_success"] for s in stages_out] == [False, True, True, True, True]
    assert [s["reactor_success"] for s in stages_out] == [None, False, False, True, True]
    assert stages_out[1]["targets"] == {"Sysop": 50, "Hacker": 60}
    assert list(stages_out[1]["targets"]) == ["Sysop", "Hacker"]  # the actor first
    assert (out["finished"], out["winner"], out["stage_wins"]) == (
        True,
        "Sysop",
        {"Hacker": 2, "Sysop": 3},
    )


def test_an_open_contest_has_no_winner_yet() -> None:
    out = run(scenario([{"actor": "Hacker", "rolls": {"Hacker": 45, "Sysop": 30}}]))
    assert (out["finished"], out["winner"], out["stage_wins"]) == (
        False,
        None,
        {"Hacker": 1, "Sysop": 0},
    )


def test_equal_stage_wins_at_the_end_leave_no_winner() -> None:
    out = run(
        scenario(
            [
                {"actor": "Hacker", "rolls": {"Hacker": 45, "Sysop": 30}},  # Hacker
                {"rolls": {"Sysop": 40, "Hacker": 20}, "end": True},  # 20 < 40: Sysop
            ]
        )
    )
    assert (out["finished"], out["winner"], out["stage_wins"]) == (
        True,
        None,
        {"Hacker": 1, "Sysop": 1},
    )


def test_stage_wins_list_every_side_and_count_per_side() -> None:
    people = [
        {"name": "Ann", "side": "Crew", "target": 60},
        {"name": "Bea", "side": "Crew", "target": 60},
        {"name": "Cop", "side": "Law", "target": 50},
        {"name": "Dog", "side": "Stray", "target": 50},
    ]
    out = run(
        scenario(
            [
                {"actor": "Ann", "reactor": "Cop", "rolls": {"Ann": 45, "Cop": 30}},  # 30 < 45
                {"actor": "Bea", "reactor": "Cop", "rolls": {"Bea": 20, "Cop": 10}},  # 10 < 20
                {"actor": "Cop", "reactor": "Bea", "rolls": {"Cop": 10, "Bea": 5}, "end": True},
            ],
            people,
        )
    )
    # Ann and Bea win for Crew, Cop's 10 beats Bea's 5 for Law; Stray never played
    assert [s["winner"] for s in out["exchanges"]] == ["Ann", "Bea", "Cop"]
    assert out["stage_wins"] == {"Crew": 2, "Law": 1, "Stray": 0}
    assert out["winner"] == "Crew"


def test_modifiers_change_the_target_not_the_roll() -> None:
    # Hacker 60 − 20 = 40: a roll of 45 fails; Sysop 50 + 10 = 60
    out = run(
        scenario(
            [
                {
                    "actor": "Hacker",
                    "rolls": {"Hacker": 45},
                    "modifiers": {"Hacker": -20, "Sysop": 10},
                }
            ]
        )
    )
    stage = out["exchanges"][0]
    assert stage["targets"] == {"Hacker": 40, "Sysop": 60}
    assert (stage["actor_success"], stage["winner"]) == (False, "Sysop")


def test_modifiers_last_one_stage_only() -> None:
    out = run(
        scenario(
            [
                {"actor": "Hacker", "rolls": {"Hacker": 5, "Sysop": 1}, "modifiers": {"Hacker": 5}},
                {"actor": "Hacker", "rolls": {"Hacker": 5, "Sysop": 1}},
            ]
        )
    )
    assert [s["targets"]["Hacker"] for s in out["exchanges"]] == [65, 60]


# -- scenarios: automatic success and failure --------------------------------------------


def test_actor_at_target_zero_or_less_fails_without_rolling() -> None:
    # 60 − 70 = −10: fails, no roll needed, the reactor's roll is not needed either
    out = run(scenario([{"actor": "Hacker", "modifiers": {"Hacker": -70}}]))
    stage = out["exchanges"][0]
    assert stage["targets"]["Hacker"] == -10
    assert (stage["actor_success"], stage["thrown"], stage["reactor_success"]) == (
        False,
        None,
        None,
    )
    assert stage["winner"] == "Sysop"


def test_actor_at_target_zero_fails_even_on_a_roll_of_one() -> None:
    out = run(scenario([{"actor": "Hacker", "rolls": {"Hacker": 1}, "modifiers": {"Hacker": -60}}]))
    assert out["exchanges"][0]["winner"] == "Sysop"


def test_actor_at_target_zero_still_has_her_roll_checked() -> None:
    data = scenario([{"actor": "Hacker", "rolls": {"Hacker": 0}, "modifiers": {"Hacker": -60}}])
    assert error_of(data).startswith("exchanges[0].rolls.Hacker: ")


def test_reactor_at_target_zero_rolls_and_fails() -> None:
    # Hacker throws 10; Sysop 50 − 50 = 0: a roll of 50 is outside it → Hacker
    out = run(
        scenario(
            [{"actor": "Hacker", "rolls": {"Hacker": 10, "Sysop": 50}, "modifiers": {"Sysop": -50}}]
        )
    )
    stage = out["exchanges"][0]
    assert (stage["reactor_success"], stage["winner"]) == (False, "Hacker")


def test_reactor_at_target_zero_must_still_give_her_roll() -> None:
    data = scenario([{"actor": "Hacker", "rolls": {"Hacker": 10}, "modifiers": {"Sysop": -50}}])
    assert error_of(data) == "exchanges[0].rolls.Sysop: missing"


def test_automatic_success_in_combat_throws_damage_from_a_roll_of_100() -> None:
    # Josef 90 + 20 = 110 ≥ 100 succeeds; 100 → tens 10 × 3 = 30 damage.
    # Bobby dodges with 25: within 50 but under 30 → hit; armor 10 (unlimited): 10 + 20.
    people = [
        {"name": "Josef", "target": 90, "multiplier": 3},
        {"name": "Bobby", "target": 50, "armor": 10},
    ]
    out = run(
        scenario(
            [{"actor": "Josef", "rolls": {"Josef": 100, "Bobby": 25}, "modifiers": {"Josef": 20}}],
            people,
            combat=True,
        )
    )
    stage = out["exchanges"][0]
    assert stage["targets"] == {"Josef": 110, "Bobby": 50}
    assert (stage["actor_success"], stage["thrown"], stage["reactor_success"]) == (True, 30, False)
    assert (stage["damage"], stage["absorbed"], stage["trauma"]) == (30, 10, 20)
    assert stage["winner"] == "Josef"
    assert out["armor_capacity"] == {"Josef": None, "Bobby": None}
    assert out["trauma"] == {"Josef": 0, "Bobby": 20}


def test_automatic_success_still_needs_the_roll_for_its_thrown_number() -> None:
    data = scenario([{"actor": "Hacker", "modifiers": {"Hacker": 40}}])
    assert error_of(data) == "exchanges[0].rolls.Hacker: missing"


# -- scenarios: combat -----------------------------------------------------------------------

KNIGHT_AND_ORC: list[dict[str, Any]] = [
    {"name": "Knight", "target": 30, "armor": 10, "armor_capacity": 15},
    {"name": "Orc", "target": 70, "multiplier": 4},
]


def test_a_successful_dodge_takes_no_damage_and_spares_the_armor() -> None:
    # Orc 32 → 3 × 4 = 12; Knight dodges 20: ≤ 30 and > 12
    out = run(
        scenario(
            [{"actor": "Orc", "rolls": {"Orc": 32, "Knight": 20}}], KNIGHT_AND_ORC, combat=True
        )
    )
    stage = out["exchanges"][0]
    assert (stage["thrown"], stage["reactor_success"], stage["winner"]) == (12, True, "Knight")
    assert (stage["damage"], stage["absorbed"], stage["trauma"]) == (None, 0, 0)
    assert out["armor_capacity"] == {"Knight": 15, "Orc": None}


def test_a_tie_with_the_damage_is_a_dodge() -> None:
    out = run(
        scenario(
            [{"actor": "Orc", "rolls": {"Orc": 32, "Knight": 12}}], KNIGHT_AND_ORC, combat=True
        )
    )
    assert out["exchanges"][0]["winner"] == "Knight"


def test_a_failed_dodge_lets_the_damage_through_armor() -> None:
    # Orc 12 damage; Knight dodges 11 < 12 → hit: 10 absorbed (capacity 15 → 5), 2 trauma
    out = run(
        scenario(
            [{"actor": "Orc", "rolls": {"Orc": 32, "Knight": 11}}], KNIGHT_AND_ORC, combat=True
        )
    )
    stage = out["exchanges"][0]
    assert (stage["reactor_success"], stage["winner"]) == (False, "Orc")
    assert (stage["damage"], stage["absorbed"], stage["trauma"]) == (12, 10, 2)
    assert out["armor_capacity"]["Knight"] == 5
    assert out["trauma"] == {"Knight": 2, "Orc": 0}


def test_a_dodge_over_the_target_fails_however_high() -> None:
    out = run(
        scenario(
            [{"actor": "Orc", "rolls": {"Orc": 32, "Knight": 31}}], KNIGHT_AND_ORC, combat=True
        )
    )
    stage = out["exchanges"][0]
    assert (stage["reactor_success"], stage["damage"]) == (False, 12)


def test_a_miss_deals_no_damage() -> None:
    out = run(scenario([{"actor": "Orc", "rolls": {"Orc": 71}}], KNIGHT_AND_ORC, combat=True))
    stage = out["exchanges"][0]
    assert (stage["actor_success"], stage["thrown"], stage["winner"]) == (False, None, "Knight")
    assert (stage["damage"], stage["absorbed"], stage["trauma"]) == (None, 0, 0)


def test_limited_armor_capacity_runs_out_across_stages() -> None:
    # Knight armor 10, capacity 15, absorbing three Orc attacks:
    #   32 → 12: absorbs min(10, 12, 15) = 10, 2 trauma, 5 left
    #   45 → 16: absorbs min(10, 16, 5) = 5, 11 trauma, 0 left
    #   20 → 8: absorbs nothing, 8 trauma
    attack = {"actor": "Orc", "reaction": "absorb"}
    out = run(
        scenario(
            [
                {**attack, "rolls": {"Orc": 32}},
                {**attack, "rolls": {"Orc": 45}},
                {**attack, "rolls": {"Orc": 20}},
            ],
            KNIGHT_AND_ORC,
            combat=True,
        )
    )
    got = [(s["damage"], s["absorbed"], s["trauma"], s["armor_capacity"]) for s in out["exchanges"]]
    assert got == [(12, 10, 2, 5), (16, 5, 11, 0), (8, 0, 8, 0)]
    assert all(s["reactor_success"] is None for s in out["exchanges"])
    assert out["trauma"] == {"Knight": 21, "Orc": 0}
    assert out["armor_capacity"] == {"Knight": 0, "Orc": None}
    assert out["stage_wins"] == {"Knight": 0, "Orc": 3}


def test_max_damage_caps_the_hit() -> None:
    # club ×10, max 50, target 100 (automatic): 99 → min(90, 50) = 50, absorbed by nothing
    people = [
        {"name": "Brute", "target": 100, "multiplier": 10, "max_damage": 50},
        {"name": "Victim", "target": 40},
    ]
    out = run(
        scenario(
            [{"actor": "Brute", "rolls": {"Brute": 99}, "reaction": "absorb"}],
            people,
            combat=True,
        )
    )
    stage = out["exchanges"][0]
    assert (stage["thrown"], stage["damage"], stage["absorbed"], stage["trauma"]) == (
        50,
        50,
        0,
        50,
    )


def test_combat_reaction_defaults_to_dodge() -> None:
    data = scenario([{"actor": "Orc", "rolls": {"Orc": 32}}], KNIGHT_AND_ORC, combat=True)
    assert error_of(data) == "exchanges[0].rolls.Knight: missing"


def test_reactor_wins_ties_false_gives_ties_to_the_actor() -> None:
    out = run(
        scenario(
            [{"actor": "Hacker", "rolls": {"Hacker": 45, "Sysop": 45}}], reactor_wins_ties=False
        )
    )
    stage = out["exchanges"][0]
    assert (stage["reactor_success"], stage["winner"]) == (False, "Hacker")


def test_plain_output_has_no_combat_keys() -> None:
    stage = run(scenario([{"actor": "Hacker", "rolls": {"Hacker": 45, "Sysop": 30}}]))["exchanges"][
        0
    ]
    assert "damage" not in stage and "trauma" not in stage


# -- scenarios: roles -----------------------------------------------------------------------


THREE: list[dict[str, Any]] = [
    {"name": "Ann", "side": "Crew", "target": 60},
    {"name": "Cop", "side": "Law", "target": 50},
    {"name": "Dog", "side": "Law", "target": 50},
]


def test_roles_default_with_three_participants() -> None:
    out = run(
        scenario(
            [
                {"actor": "Ann", "reactor": "Cop", "rolls": {"Ann": 1, "Cop": 2}},
                {"rolls": {"Cop": 1, "Ann": 2}},  # the last reactor acts, the last actor reacts
                {"actor": "Ann", "reactor": "Dog", "rolls": {"Ann": 1, "Dog": 2}},
                {"rolls": {"Dog": 1, "Ann": 2}},
            ],
            THREE,
        )
    )
    roles = [(s["actor"], s["reactor"]) for s in out["exchanges"]]
    assert roles == [("Ann", "Cop"), ("Cop", "Ann"), ("Ann", "Dog"), ("Dog", "Ann")]


def test_a_named_actor_among_three_faces_the_last_actor() -> None:
    out = run(
        scenario(
            [
                {"actor": "Ann", "reactor": "Cop", "rolls": {"Ann": 1, "Cop": 2}},
                {"actor": "Dog", "rolls": {"Dog": 1, "Ann": 2}},  # reactor: Ann, the last actor
            ],
            THREE,
        )
    )
    assert (out["exchanges"][1]["actor"], out["exchanges"][1]["reactor"]) == ("Dog", "Ann")


def test_default_reactor_on_the_actors_own_side_is_an_error() -> None:
    data = scenario(
        [
            {"actor": "Ann", "reactor": "Cop", "rolls": {"Ann": 1, "Cop": 2}},
            {"actor": "Dog", "rolls": {"Dog": 1, "Ann": 2}},
            {"actor": "Cop"},  # the reactor defaults to the last actor, Dog: Cop's own side
        ],
        THREE,
    )
    assert error_of(data).startswith("exchanges[2]: ")


def test_with_two_participants_the_reactor_is_the_other_one() -> None:
    out = run(
        scenario(
            [
                {"actor": "Hacker", "rolls": {"Hacker": 1, "Sysop": 2}},
                {"actor": "Hacker", "rolls": {"Hacker": 1, "Sysop": 2}},  # same actor again
            ]
        )
    )
    assert [(s["actor"], s["reactor"]) for s in out["exchanges"]] == [("Hacker", "Sysop")] * 2


def test_first_stage_without_a_reactor_among_three_is_missing() -> None:
    assert error_of(scenario([{"actor": "Ann"}], THREE)) == "exchanges[0].reactor: missing"


# -- scenarios: errors -----------------------------------------------------------------------


def test_first_stage_without_an_actor_is_missing() -> None:
    data = scenario([{"rolls": {"Hacker": 45, "Sysop": 30}}])
    assert error_of(data) == "exchanges[0].actor: missing"


def test_unknown_actor_names_the_key() -> None:
    assert error_of(scenario([{"actor": "Zird"}])) == 'exchanges[0].actor: no participant "Zird"'


def test_unknown_name_in_rolls_names_the_entry() -> None:
    data = scenario([{"actor": "Hacker", "rolls": {"Hacker": 45, "Zird": 30}}])
    assert error_of(data) == 'exchanges[0].rolls.Zird: no participant "Zird"'


def test_name_in_modifiers_outside_the_stage_is_an_error() -> None:
    data = scenario([{"actor": "Ann", "reactor": "Cop", "modifiers": {"Dog": 5}}], THREE)
    assert error_of(data).startswith("exchanges[0].modifiers.Dog: ")


@pytest.mark.parametrize("die", [0, 101])
def test_die_out_of_range_names_the_entry(die: int) -> None:
    data = scenario([{"actor": "Hacker", "rolls": {"Hacker": die}}])
    assert error_of(data).startswith("exchanges[0].rolls.Hacker: ")


def test_reactor_die_out_of_range_when_needed() -> None:
    data = scenario([{"actor": "Hacker", "rolls": {"Hacker": 45, "Sysop": 101}}])
    assert error_of(data).startswith("exchanges[0].rolls.Sysop: ")


def test_reactor_roll_not_needed_is_not_checked() -> None:
    # scenario.md: a value the rules ignore (a roll that is not needed) is not checked
    out = run(scenario([{"actor": "Hacker", "rolls": {"Hacker": 75, "Sysop": 0}}]))
    assert out["exchanges"][0]["winner"] == "Sysop"


def test_null_roll_counts_as_left_out() -> None:
    data = scenario([{"actor": "Hacker", "rolls": {"Hacker": 45, "Sysop": None}}])
    assert error_of(data) == "exchanges[0].rolls.Sysop: missing"


def test_stage_after_the_end_is_an_error() -> None:
    data = scenario(
        [{"actor": "Hacker", "rolls": {"Hacker": 45, "Sysop": 30}, "end": True}, {"rolls": {}}]
    )
    assert error_of(data) == "exchanges[1]: the contest ended at exchange 1"


def test_actor_and_reactor_on_the_same_side_names_the_stage() -> None:
    people = [
        {"name": "Ann", "side": "Crew", "target": 60},
        {"name": "Bea", "side": "Crew", "target": 60},
        {"name": "Cop", "side": "Law", "target": 50},
    ]
    data = scenario([{"actor": "Ann", "reactor": "Bea", "rolls": {"Ann": 1, "Bea": 2}}], people)
    assert error_of(data).startswith("exchanges[0]: ")


def test_bad_reaction_in_combat_names_the_key() -> None:
    data = scenario(
        [{"actor": "Orc", "rolls": {"Orc": 32}, "reaction": "deflect"}],
        KNIGHT_AND_ORC,
        combat=True,
    )
    assert error_of(data).startswith("exchanges[0].reaction: ")


def test_reaction_outside_combat_is_not_checked() -> None:
    out = run(scenario([{"actor": "Hacker", "rolls": {"Hacker": 45, "Sysop": 30}, "reaction": 7}]))
    assert out["exchanges"][0]["winner"] == "Hacker"


def test_unknown_exchange_key_comes_first() -> None:
    data = scenario([{"actr": "Hacker", "rolls": {"Zird": 0}}])
    assert error_of(data) == "exchanges[0].actr: unknown key"


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("multiplier", 0, "must be at least 1, got 0"),
        ("armor", -1, "must be at least 0, got -1"),
        ("armor_capacity", -1, "must be at least 0, got -1"),
        ("max_damage", -1, "must be at least 0, got -1"),
        ("target", 1.5, "expected an integer, got a number with a fraction or exponent"),
    ],
)
def test_participant_fields_are_range_checked(field: str, value: Any, problem: str) -> None:
    people: list[dict[str, Any]] = [
        {"name": "Hacker", "target": 60, field: value},
        {"name": "Sysop", "target": 50},
    ]
    assert error_of(scenario([], people)) == f"participants[0].{field}: {problem}"


def test_target_is_required() -> None:
    people: list[dict[str, Any]] = [{"name": "Hacker"}, {"name": "Sysop", "target": 50}]
    assert error_of(scenario([], people)) == "participants[0].target: missing"


def test_unknown_option_is_an_error() -> None:
    assert error_of(scenario([], combta=True)) == "options.combta: unknown key"


# -- the engine (what the dashboard drives) ------------------------------------------------


def test_anything_after_the_end_is_contest_over() -> None:
    contest, _ = play(
        duel(),
        SetStage(actor="Hacker"),
        RollDice(who="Hacker", faces=(45,)),
        RollDice(who="Sysop", faces=(30,)),
        ResolveExchange(),
        EndContest(),
    )
    assert contest.finished and contest.winner == "Hacker"
    with pytest.raises(ContestOver, match="the contest ended at exchange 1"):
        FORGE.decide(contest, RollDice(who="Sysop", faces=(1,)))


def test_d100_faces_are_checked() -> None:
    contest, _ = play(duel(), SetStage(actor="Hacker"))
    for faces in [(0,), (101,), (4, 5)]:
        with pytest.raises(BadDice):
            FORGE.decide(contest, RollDice(who="Hacker", faces=faces))


def test_one_roll_per_participant_per_stage() -> None:
    contest, _ = play(duel(), SetStage(actor="Hacker"), RollDice(who="Hacker", faces=(45,)))
    with pytest.raises(OutOfTurn):
        FORGE.decide(contest, RollDice(who="Hacker", faces=(44,)))


def test_nothing_is_rolled_before_the_first_stage_has_an_actor() -> None:
    with pytest.raises(OutOfTurn):
        FORGE.decide(duel(), RollDice(who="Hacker", faces=(5,)))
    with pytest.raises(OutOfTurn):
        FORGE.decide(duel(), SetStage())


def test_resolving_without_the_needed_roll_is_refused() -> None:
    contest, _ = play(duel(), SetStage(actor="Hacker"), RollDice(who="Hacker", faces=(45,)))
    with pytest.raises(OutOfTurn, match="Sysop"):
        FORGE.decide(contest, ResolveExchange())


def test_unknown_names_are_refused() -> None:
    with pytest.raises(UnknownName):
        FORGE.decide(duel(), SetStage(actor="Zird"))
    contest, _ = play(duel(), SetStage(actor="Hacker"))
    with pytest.raises(UnknownName):
        FORGE.decide(contest, SetModifier(who="Zird", value=5))


def test_reactions_outside_combat_are_refused() -> None:
    contest, _ = play(duel(), SetStage(actor="Hacker"))
    with pytest.raises(RuleError):
        FORGE.decide(contest, ChooseReaction(reaction="absorb"))


def test_changing_roles_keeps_what_the_remaining_party_entered() -> None:
    contest, _ = play(
        duel(),
        SetStage(actor="Hacker"),
        RollDice(who="Hacker", faces=(45,)),
        SetModifier(who="Sysop", value=-5),
        SetStage(actor="Sysop", reactor="Hacker"),
    )
    assert (contest.actor, contest.reactor) == ("Sysop", "Hacker")
    assert dict(contest.rolls) == {"Hacker": 45}
    assert dict(contest.modifiers) == {"Sysop": -5}


def test_next_stage_defaults_swap_roles_without_a_set_stage() -> None:
    _, events = play(
        duel(),
        SetStage(actor="Hacker"),
        RollDice(who="Hacker", faces=(45,)),
        RollDice(who="Sysop", faces=(30,)),
        ResolveExchange(),
        RollDice(who="Sysop", faces=(40,)),
        RollDice(who="Hacker", faces=(20,)),
        ResolveExchange(),
    )
    last = events[-1]
    assert isinstance(last, ExchangeResolved)
    assert (last.actor, last.reactor, last.winner) == ("Sysop", "Hacker", "Sysop")


def test_state_stays_the_same_size_over_ten_thousand_stages() -> None:
    contest, _ = play(duel(), SetStage(actor="Hacker"))
    sizes = []
    for stage in range(10_000):
        actor, reactor = ("Hacker", "Sysop") if stage % 2 == 0 else ("Sysop", "Hacker")
        contest, _ = play(
            contest,
            RollDice(who=actor, faces=(45,)),
            RollDice(who=reactor, faces=(30,)),
            ResolveExchange(),
        )
        if stage in (9, 9_999):
            sizes.append(len(repr(contest)))
    assert contest.n == 10_000
    assert dict(contest.stage_wins) == {"Hacker": 5_000, "Sysop": 5_000}
    assert sizes[1] - sizes[0] <= 12  # only the counters' digits grew


def test_describe_shows_the_reactors_die_even_when_the_actor_failed() -> None:
    """Both dice, always: a failed actor's stage is the reactor's whatever she rolled
    (rules §3.3), but the die the table rolled for her stays in the log."""
    _, events = play(
        duel(),
        SetStage(actor="Hacker", reactor="Sysop"),
        RollDice(who="Hacker", faces=(75,)),
        RollDice(who="Sysop", faces=(88,)),
        ResolveExchange(),
    )
    (stage,) = [x for x in events if isinstance(x, ExchangeResolved)]
    # 75 > 60: Hacker fails, so Sysop's 88 (over her 50 too) does not matter: her stage.
    assert FORGE.describe(stage) == [
        "Stage 1: Sysop wins the stage (0–1)",
        "  Hacker acts vs 60: 75 ✗, over",
        "  Sysop reacts vs 50: 88 (not needed)",
    ]
    assert stage.reactor_roll is None  # the stage did not use it


def test_describe_reads_as_a_stage_for_the_gm() -> None:
    resolution = resolve(
        scenario(
            [
                {"actor": "Hacker", "rolls": {"Hacker": 75}},
                {"actor": "Hacker", "rolls": {"Hacker": 45, "Sysop": 30}},
            ]
        )
    )
    lines = resolution.to_text().splitlines()
    # Stage 1: 75 > 60, the actor fails and the stage is Sysop's without a roll.
    assert lines[1:4] == [
        "Stage 1: Sysop wins the stage (0–1)",
        "  Hacker acts vs 60: 75 ✗, over",
        "  Sysop reacts vs 50: no roll needed",
    ]
    # Stage 2: 45 <= 60 throws 45; Sysop's 30 is within 50 but lower: Hacker's stage.
    assert lines[4:7] == [
        "Stage 2: Hacker wins the stage (1–1)",
        "  Hacker acts vs 60: 45 ✓, throws 45",
        "  Sysop reacts vs 50: 30, lower",
    ]
