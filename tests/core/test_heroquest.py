"""HeroQuest contests: rules.md §2.12's vectors and cases worked from §2.2-§2.9.

Every expected value below is worked out by hand from the rules, in the comment beside it.
Ratings are linear values: "4M" = 4 + 20 = 24, "2M2" = 2 + 40 = 42.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from msgspec.structs import replace

from core.engine import apply, fold
from core.errors import BadDice, ContestOver, OutOfTurn, RuleError, UnknownName
from core.model import ContestEnded, Event, ResolveExchange, RollDice, SetModifier
from core.systems.heroquest.events import (
    Augment,
    ExchangeResolved,
    Leave,
    SetPairs,
    SetParties,
    SpendHeroPoints,
    Stretch,
)
from core.systems.heroquest.modifiers import augment_bonus
from core.systems.heroquest.ratings import format_rating, parse_rating
from core.systems.heroquest.resolution import (
    COMPLETE,
    CRITICAL,
    FAILURE,
    FUMBLE,
    MAJOR,
    MARGINAL,
    MINOR,
    SUCCESS,
    TIE,
    Outcome,
    Party,
    classify,
    group_level,
    simple_contest,
)
from core.systems.heroquest.rules import HEROQUEST, NoHeroPoints
from core.systems.heroquest.state import HQContest, HQParticipant, Pair, new_contest
from tests.core.hq_contests import exchange, hero_foe, play, resolved
from tests.strategies import parties, tie_breaks


def vs(
    a: int | str, b: int | str, roll_a: int | None, roll_b: int | None, tie_break: str = "low"
) -> Outcome:
    """A plain simple contest between two ratings (written or linear)."""

    def value(r: int | str) -> int:
        return parse_rating(r) if isinstance(r, str) else r

    return simple_contest(
        Party(target=value(a), roll=roll_a),
        Party(target=value(b), roll=roll_b),
        tie_break,  # type: ignore[arg-type]
    )


# -- §2.12 vectors: the simple contest ------------------------------------------------------


def test_h1_masteries_cancel_2m_vs_13m_plays_as_2_vs_13() -> None:
    # 2 vs 13: 5 > 2 failure, 14 > 13 failure; equal levels, 5 < 14: A marginal.
    assert vs("2W", "13W", 5, 14) == Outcome(
        levels=(FAILURE, FAILURE), winner="a", victory=MARGINAL
    )


def test_h2_seed_4m_rolling_3_is_a_critical_against_13s_success() -> None:
    # 4M vs 13: one extra mastery. 3 <= 4 success, bumped to critical; 8 <= 13 success.
    assert vs("4W", "13", 3, 8) == Outcome(levels=(CRITICAL, SUCCESS), winner="a", victory=MINOR)


@pytest.mark.parametrize(
    ("rolls", "levels", "winner", "victory"),
    [
        ((5, 9), (SUCCESS, SUCCESS), "a", MARGINAL),  # H3: equal, low roll 5 wins
        ((1, 9), (CRITICAL, SUCCESS), "a", MINOR),  # H4: one level better
        ((1, 17), (CRITICAL, FAILURE), "a", MAJOR),  # H5: two levels (17 > 15)
        ((1, 20), (CRITICAL, FUMBLE), "a", COMPLETE),  # H6: three levels
        ((7, 7), (SUCCESS, SUCCESS), None, TIE),  # H13: equal levels, equal rolls
        ((1, 1), (CRITICAL, CRITICAL), None, TIE),  # H14
        ((20, 20), (FUMBLE, FUMBLE), None, TIE),  # H15: both fumble
        ((13, 20), (FAILURE, FUMBLE), "a", MINOR),  # H16: 13 > 12 failure vs fumble
    ],
    ids=["H3", "H4", "H5", "H6", "H13", "H14", "H15", "H16"],
)
def test_seed_vectors_12_vs_15(
    rolls: tuple[int, int], levels: tuple[int, int], winner: str | None, victory: int
) -> None:
    assert vs(12, 15, *rolls) == Outcome(levels=levels, winner=winner, victory=victory)  # type: ignore[arg-type]


# -- §2.12 H21: ratings and normalisation --------------------------------------------------


def test_h21_normalisation_of_linear_values() -> None:
    assert format_rating(parse_rating("3W") - 6) == "17"  # 23 - 6 = 17
    assert format_rating(parse_rating("7W") + 9) == "16M"  # 27 + 9 = 36 = 16 + 20
    assert format_rating(17 + 6) == "3M"  # 23
    assert format_rating(20) == "20"
    assert format_rating(21) == "1M"
    assert format_rating(40) == "20M"
    assert format_rating(41) == "1M2"


def test_ratings_read_m_or_w_and_a_mastery_count() -> None:
    assert parse_rating("17") == 17
    assert parse_rating("4M") == 24
    assert parse_rating("10M2") == 50
    assert parse_rating("13W2") == 53
    assert parse_rating("20M") == 40


@pytest.mark.parametrize("text", ["0", "21", "4X", "4M1", "M", "", "04", "4m", " 4M", "-3"])
def test_ratings_outside_1_to_20_or_badly_written_are_refused(text: str) -> None:
    with pytest.raises(RuleError, match="not a rating"):
        parse_rating(text)


def test_targets_at_20_or_below_are_plain_numbers_even_negative() -> None:
    assert [format_rating(v) for v in (0, -2, 1, 20)] == ["0", "-2", "1", "20"]


def test_classify_one_is_critical_and_twenty_fumble_whatever_the_base() -> None:
    assert classify(1, 1) == CRITICAL
    assert classify(20, 20) == FUMBLE
    assert classify(2, 2) == SUCCESS
    assert classify(3, 2) == FAILURE
    assert classify(19, 20) == SUCCESS


# -- mastery bumps, hero points, stretch, targets at 0 or less ----------------------------


def test_two_extra_masteries_raise_own_level_then_lower_the_opponent() -> None:
    # 2M2 = 42 vs 13: two bumps. 2 <= 2 success -> critical; the second bump lowers the
    # foe's 8 (success) to failure: critical vs failure, major.
    assert vs("2M2", "13", 2, 8) == Outcome(levels=(CRITICAL, FAILURE), winner="a", victory=MAJOR)


def test_mastery_bumps_from_critical_go_to_the_opponent_and_stop_at_fumble() -> None:
    # 1M3 = 61 vs 10: three bumps, A already critical (roll 1): B's success 5 goes down
    # to fumble after two bumps, the third is wasted: complete.
    assert vs("1M3", "10", 1, 5) == Outcome(levels=(CRITICAL, FUMBLE), winner="a", victory=COMPLETE)


def test_only_the_difference_in_masteries_bumps() -> None:
    # 5M2 (45) vs 3M (23): one bump for A. Bases 5 and 3: 9 > 5 failure -> success;
    # 3 <= 3 success. Equal levels, B's lower roll wins a marginal victory.
    assert vs("5M2", "3M", 9, 3) == Outcome(levels=(SUCCESS, SUCCESS), winner="b", victory=MARGINAL)


def test_the_losing_side_can_have_the_mastery() -> None:
    # 13 vs 1M (21): B gets the bump. A 1 critical; B 15 > 1 failure -> success.
    assert vs(13, 21, 1, 15) == Outcome(levels=(CRITICAL, SUCCESS), winner="a", victory=MINOR)


def test_tie_break_high_gives_equal_levels_to_the_higher_roll() -> None:
    # 12 vs 15, 5 and 9: both successes; with "high", 9 wins a marginal victory.
    assert vs(12, 15, 5, 9, "high") == Outcome(
        levels=(SUCCESS, SUCCESS), winner="b", victory=MARGINAL
    )
    assert vs(12, 15, 7, 7, "high").winner is None  # equal rolls still tie
    assert vs(12, 15, 20, 20, "high").winner is None  # and fumbles too


def test_hero_points_bump_the_spender_up_to_critical_and_never_the_opponent_down() -> None:
    # 12 vs 15, 13 and 9: failure vs success. Two hero points: failure -> critical: minor.
    out = simple_contest(Party(target=12, roll=13, hero_points=2), Party(target=15, roll=9))
    assert out == Outcome(levels=(CRITICAL, SUCCESS), winner="a", victory=MINOR)
    # Already critical (roll 1): a hero point is wasted, B stays at success: still minor.
    out = simple_contest(Party(target=12, roll=1, hero_points=1), Party(target=15, roll=9))
    assert out == Outcome(levels=(CRITICAL, SUCCESS), winner="a", victory=MINOR)


def test_hero_points_come_after_mastery_bumps() -> None:
    # 4M vs 13, A rolls 19 (failure), B 8 (success). The mastery: A success; the first
    # hero point: critical; the second is wasted, never turned on B (that would make B a
    # failure and the victory major). Critical vs success: minor.
    out = simple_contest(Party(target=24, roll=19, hero_points=2), Party(target=13, roll=8))
    assert out == Outcome(levels=(CRITICAL, SUCCESS), winner="a", victory=MINOR)


def test_stretch_caps_the_stretchers_complete_victory_at_minor() -> None:
    # Stretched 18 - 6 = 12 vs 15, 1 vs 20: critical vs fumble would be complete: minor.
    out = simple_contest(Party(target=12, roll=1, stretched=True), Party(target=15, roll=20))
    assert out == Outcome(levels=(CRITICAL, FUMBLE), winner="a", victory=MINOR)


def test_stretch_does_not_limit_the_stretchers_defeat() -> None:
    out = simple_contest(Party(target=12, roll=1), Party(target=15, roll=20, stretched=True))
    assert out.victory == COMPLETE and out.winner == "a"


def test_target_0_or_less_is_a_complete_defeat_without_a_roll() -> None:
    # A at 0 needs no roll; B rolls 8 at 13: success, only for its displayed level.
    out = simple_contest(Party(target=0), Party(target=13, roll=8))
    assert out == Outcome(levels=(FUMBLE, SUCCESS), winner="b", victory=COMPLETE)
    # A roll given for A is ignored (a 1 would otherwise be a critical).
    assert simple_contest(Party(target=-2, roll=1), Party(target=13, roll=8)) == out


def test_the_rolling_party_against_a_target_at_0_keeps_its_own_bumps() -> None:
    # B at 1M (21) rolls 5: failure against base 1, one mastery bump: success.
    out = simple_contest(Party(target=-4), Party(target=21, roll=5, hero_points=1))
    assert out.levels == (FUMBLE, CRITICAL)  # + a hero point: critical


def test_both_targets_at_0_or_less_tie() -> None:
    assert simple_contest(Party(target=0), Party(target=-3)) == Outcome(
        levels=(FUMBLE, FUMBLE), winner=None, victory=TIE
    )


@given(a=parties(), b=parties(), tie_break=tie_breaks)
def test_swapping_the_parties_mirrors_the_result(a: Party, b: Party, tie_break: str) -> None:
    forward = simple_contest(a, b, tie_break)  # type: ignore[arg-type]
    back = simple_contest(b, a, tie_break)  # type: ignore[arg-type]
    swap = {"a": "b", "b": "a", None: None}
    assert back.winner == swap[forward.winner]
    assert back.victory == forward.victory
    assert back.levels == forward.levels[::-1]


@given(a=parties(), b=parties(), tie_break=tie_breaks)
def test_a_tie_has_no_winner_and_a_winner_has_a_victory(a: Party, b: Party, tie_break: str) -> None:
    out = simple_contest(a, b, tie_break)  # type: ignore[arg-type]
    assert (out.winner is None) == (out.victory == TIE)
    if out.winner is not None and (a, b)[out.winner == "b"].stretched:
        assert out.victory <= MINOR


# -- augments (§2.5) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "resistance", "bonus"),
    [
        (1, 20, 20),  # critical vs fumble: complete victory, +20 (a mastery)
        (1, 17, 9),  # critical vs failure: major
        (1, 3, 6),  # critical vs success: minor
        (5, 9, 3),  # success vs success, low roll: marginal
        (7, 7, 0),  # tie
        (9, 5, 0),  # marginal defeat
        (5, 1, 0),  # minor defeat
        (19, 1, 0),  # failure vs critical: major defeat
        (20, 1, -3),  # fumble vs critical: complete defeat
    ],
)
def test_augment_bonus_by_victory_level_18_against_14(
    roll: int, resistance: int, bonus: int
) -> None:
    assert augment_bonus(18, roll, resistance) == bonus


def test_augments_use_masteries_and_the_tie_break() -> None:
    # 1M (21) vs 14: 5 > 1 failure, bumped to success; 9 success; low roll 5: +3.
    assert augment_bonus(21, 5, 9) == 3
    # With "high" the resistance's 9 wins the marginal contest: no bonus.
    assert augment_bonus(18, 5, 9, tie_break="high") == 0
    # Another base, 19: 17 <= 18 success, 19 <= 19 success; 17 < 19: marginal, +3.
    assert augment_bonus(18, 17, 19, augment_base=19) == 3


def test_augment_at_0_or_less_is_a_complete_defeat_without_rolling() -> None:
    assert augment_bonus(0, None, 5) == -3
    assert augment_bonus(10, 5, None, augment_base=0) == 20


# -- group level (§2.7) ---------------------------------------------------------------------


def test_group_level_from_the_difference_of_side_points() -> None:
    assert [group_level(d) for d in range(8)] == [
        TIE,
        MARGINAL,
        MINOR,
        MAJOR,
        MAJOR,
        COMPLETE,
        COMPLETE,
        COMPLETE,
    ]


# -- the engine: one simple contest -----------------------------------------------------------


def test_a_simple_contest_ends_after_one_exchange_won_by_the_winners_side() -> None:
    c, e = exchange(hero_foe("4M", "13"), {"Hero": 3, "Foe": 8})
    assert (e.winner, e.victory, e.resolution_points) == ("Hero", MINOR, 2)
    assert dict(e.consequence) == {"Foe": "impaired"} and dict(e.benefit) == {"Hero": 3}
    assert c.finished and c.winner == "Hero" and c.ended_by == "exchange"
    with pytest.raises(ContestOver, match="ended at exchange 1"):
        apply(c, RollDice(who="Hero", faces=(3,)))


def test_a_tied_simple_contest_finishes_with_no_winner() -> None:
    c, e = exchange(hero_foe(), {"Hero": 7, "Foe": 7})
    assert e.winner is None and e.victory == TIE and e.resolution_points == 0
    assert dict(e.consequence) == {} and dict(e.benefit) == {}
    assert c.finished and c.winner is None


def test_marginal_victory_hurts_the_loser_and_gives_no_benefit() -> None:
    _, e = exchange(hero_foe(), {"Hero": 5, "Foe": 9})
    assert dict(e.consequence) == {"Foe": "hurt"} and dict(e.benefit) == {"Hero": 0}


def test_targets_add_vitality_modifiers_augment_stretch() -> None:
    c = new_contest(
        [
            HQParticipant(name="Hero", side="Hero", rating=17, vitality=2),
            HQParticipant(name="Foe", side="Foe", rating=15, vitality=-1),
        ]
    )
    c, _ = play(
        c,
        SetModifier(who="Hero", value=3),
        # 18 rolls 1 (critical) vs 14 rolls 3 (success): minor, +6. No vitality in it.
        Augment(recipient="Hero", rating=18, roll=1, resistance_roll=3),
        Stretch(who="Hero"),
    )
    assert c.target("Hero") == 17 + 2 + 3 + 6 - 6  # 22 = 2M
    assert c.target("Foe") == 14
    c, e = exchange(c, {"Hero": 2, "Foe": 20})
    # Hero 2 <= 2 success, one mastery bump: critical; Foe fumble: complete, but Hero
    # stretched: minor.
    assert dict(e.targets) == {"Hero": 22, "Foe": 14}
    assert (e.levels["Hero"], e.levels["Foe"], e.victory) == (CRITICAL, FUMBLE, MINOR)
    assert [(a.recipient, a.bonus) for a in e.augments] == [("Hero", 6)]


def test_a_modifier_can_take_a_target_to_0_for_a_complete_defeat() -> None:
    c, _ = play(hero_foe(), SetModifier(who="Hero", value=-12))
    c, log = play(c, RollDice(who="Foe", faces=(18,)), ResolveExchange())
    e = resolved(log)
    # Hero at 0 does not roll; Foe 18 > 15 is a failure, shown as such: Foe complete.
    assert dict(e.levels) == {"Hero": FUMBLE, "Foe": FAILURE}
    assert (e.winner, e.victory, dict(e.consequence)) == ("Foe", COMPLETE, {"Hero": "dying"})


def test_a_party_that_must_roll_is_required_before_resolving() -> None:
    c, _ = play(hero_foe(), RollDice(who="Hero", faces=(3,)))
    with pytest.raises(OutOfTurn, match="Foe has not rolled"):
        apply(c, ResolveExchange())


def test_dice_are_d20s_and_names_are_parties() -> None:
    with pytest.raises(RuleError):
        apply(hero_foe(), RollDice(who="Hero", faces=(21,)))
    with pytest.raises(UnknownName):
        apply(hero_foe(), RollDice(who="Zird", faces=(3,)))


def test_with_three_participants_the_parties_are_named_on_different_sides() -> None:
    c = new_contest(
        [
            HQParticipant(name="Hero", side="PCs", rating=12),
            HQParticipant(name="Friend", side="PCs", rating=10),
            HQParticipant(name="Foe", side="Foes", rating=15),
        ]
    )
    with pytest.raises(OutOfTurn):
        apply(c, RollDice(who="Hero", faces=(3,)))
    with pytest.raises(RuleError, match="both on side PCs"):
        apply(c, SetParties(a="Hero", b="Friend"))
    c, _ = play(c, SetParties(a="Friend", b="Foe"))
    with pytest.raises(RuleError, match="Hero is not a party"):
        apply(c, SetModifier(who="Hero", value=1))
    c, e = exchange(c, {"Friend": 1, "Foe": 9})
    assert (e.winner, c.winner) == ("Friend", "PCs")


def test_one_augment_per_party_per_exchange() -> None:
    c, _ = play(hero_foe(), Augment(recipient="Hero", rating=18, roll=5, resistance_roll=9))
    with pytest.raises(RuleError, match="already has an augment"):
        apply(c, Augment(recipient="Hero", rating=10, roll=1, resistance_roll=20))


def test_hero_points_are_spent_whatever_happens_and_not_more_than_held() -> None:
    c = hero_foe(hero_points=2)
    with pytest.raises(NoHeroPoints, match="Hero has only 2 hero points"):
        apply(c, SpendHeroPoints(who="Hero", count=3))
    with pytest.raises(NoHeroPoints, match="Foe has no hero points"):
        apply(c, SpendHeroPoints(who="Foe", count=1))
    # Two points on 13 (failure) vs 9 (success): critical vs success, minor.
    c, e = exchange(c, {"Hero": 13, "Foe": 9}, SpendHeroPoints(who="Hero", count=2))
    assert (e.winner, e.victory) == ("Hero", MINOR)
    assert c.hero_points_left == {"Hero": 0, "Foe": 0}
    assert HEROQUEST.final_json(c)["hero_points"] == {"Hero": 0, "Foe": 0}


def test_extended_contest_allows_one_hero_point_per_exchange() -> None:
    c = hero_foe(hero_points=3, extended=True)
    with pytest.raises(RuleError, match="at most 1 hero point per exchange"):
        apply(c, SpendHeroPoints(who="Hero", count=2))
    c, _ = play(c, SpendHeroPoints(who="Hero", count=1))
    with pytest.raises(RuleError, match="at most 1"):
        apply(c, SpendHeroPoints(who="Hero", count=1))
    c, _ = exchange(c, {"Hero": 13, "Foe": 9})
    c, _ = play(c, SpendHeroPoints(who="Hero", count=1))  # a new exchange, a new point
    assert c.hero_points_left["Hero"] == 1


def test_stretching_twice_counts_once() -> None:
    c, log = play(hero_foe(), Stretch(who="Hero"), Stretch(who="Hero"))
    assert c.target("Hero") == 12 - 6
    assert len(log) == 2  # PartiesSet and one Stretched


# -- chained and extended contests ----------------------------------------------------------


def test_chained_contest_goes_on_until_a_party_leaves() -> None:
    c = hero_foe(chained=True)
    c, e1 = exchange(c, {"Hero": 1, "Foe": 17})  # critical vs failure: Hero major, 3 RP
    c, e2 = exchange(c, {"Hero": 9, "Foe": 9})  # success vs success, equal rolls: tie
    c, e3 = exchange(c, {"Hero": 20, "Foe": 9})  # fumble vs success: Foe major, 3 RP
    assert not c.finished
    assert (e1.resolution_points, e2.resolution_points, e3.resolution_points) == (3, 0, 3)
    assert dict(c.resolution_points) == {"Hero": 3, "Foe": 3}
    c, e4 = exchange(c, {"Hero": 1, "Foe": 9}, Leave(who="Hero"))
    # Hero wins the exchange (critical vs success, minor) but leaves: Foe wins the chain.
    assert e4.winner == "Hero" and e4.leave == "Hero"
    assert c.finished and c.winner == "Foe" and c.ended_by == "leave"
    assert HEROQUEST.final_json(c)["resolution_points"] == {"Hero": 5, "Foe": 3}


def test_h29_each_marginal_defeat_in_a_chain_hurts_again() -> None:
    c = hero_foe(chained=True)
    c, e1 = exchange(c, {"Hero": 5, "Foe": 9})
    c, e2 = exchange(c, {"Hero": 3, "Foe": 4})
    # Two marginal defeats: two "hurt" consequences (-3 each, -6 together at the table).
    assert dict(e1.consequence) == dict(e2.consequence) == {"Foe": "hurt"}


def test_leave_only_exchange_takes_the_previous_parties() -> None:
    c, _ = exchange(hero_foe(chained=True), {"Hero": 1, "Foe": 17})
    c, log = play(c, Leave(who="Foe"), ResolveExchange())
    e = resolved(log)
    assert (e.kind, e.winner, e.victory, e.resolution_points) == ("leave", None, None, 0)
    assert dict(e.targets) == {} and dict(e.consequence) == {} and e.parties == ("Hero", "Foe")
    assert c.finished and c.winner == "Hero" and c.n == 2


def test_leaving_is_only_for_chained_or_extended_contests() -> None:
    with pytest.raises(RuleError, match="chained or extended"):
        apply(hero_foe(), Leave(who="Hero"))


def test_extended_contest_ends_at_5_resolution_points() -> None:
    c = hero_foe(extended=True)
    c, _ = exchange(c, {"Hero": 1, "Foe": 17})  # major: 3
    assert not c.finished
    c, _ = exchange(c, {"Hero": 1, "Foe": 9})  # minor: 2, 5 in all
    assert c.finished and c.winner == "Hero" and c.ended_by == "resolution_points"


def test_extended_points_decide_when_a_leave_comes_with_the_fifth_point() -> None:
    c = hero_foe(extended=True)
    c, _ = exchange(c, {"Hero": 1, "Foe": 17})  # Hero 3
    c, _ = exchange(c, {"Hero": 1, "Foe": 9}, Leave(who="Hero"))  # Hero 5 and leaves
    assert c.finished and c.winner == "Hero" and c.ended_by == "resolution_points"


def test_extended_leave_before_5_gives_the_chain_to_the_other_side() -> None:
    c = hero_foe(extended=True)
    c, _ = exchange(c, {"Hero": 1, "Foe": 17}, Leave(who="Hero"))  # Hero 3, leaves
    assert c.finished and c.winner == "Foe"


# -- group simple contest (§2.7) ------------------------------------------------------------


def pilgrims_and_demons() -> HQContest:
    return new_contest(
        [
            HQParticipant(name="Monkey", side="Pilgrims", rating=parse_rating("5M")),
            HQParticipant(name="Tripitaka", side="Pilgrims", rating=15, hero_points=1),
            HQParticipant(name="Pigsy", side="Pilgrims", rating=12),
            HQParticipant(name="Demon", side="Demons", rating=16),
            HQParticipant(name="Imp", side="Demons", rating=10),
        ]
    )


def test_group_contest_with_one_character_facing_two_opponents() -> None:
    c, log = play(
        pilgrims_and_demons(),
        SetPairs(
            pairs=(
                Pair(a="Monkey", b="Demon", roll_a=5, roll_b=9),
                Pair(a="Monkey", b="Imp", roll_a=12, roll_b=3),
                Pair(a="Tripitaka", b="Demon", roll_a=14, roll_b=13),
            )
        ),
        SpendHeroPoints(who="Tripitaka", count=1),
        ResolveExchange(),
    )
    e = resolved(log)
    # Monkey: 5M = 25, -3 for the second pair: 22 = 2M, one mastery over both demons.
    assert e.targets["Monkey"] == 22 and e.targets["Demon"] == 16
    # Pair 1: 5 > 2 failure -> success; Demon 9 success; 5 < 9: Monkey marginal, 1 RP.
    # Pair 2: 12 failure -> success; Imp 3 success; 3 < 12: Imp marginal, 1 RP.
    # Pair 3: 14 <= 15 success + hero point: critical; 13 <= 16 success: minor, 2 RP.
    assert [(p.winner, p.victory, p.resolution_points) for p in e.pairs] == [
        ("Monkey", MARGINAL, 1),
        ("Imp", MARGINAL, 1),
        ("Tripitaka", MINOR, 2),
    ]
    # Pilgrims 3, Demons 1: difference 2, a minor group victory worth 2 RP.
    assert dict(e.side_points) == {"Pilgrims": 3, "Demons": 1}
    assert (e.winner, e.victory, e.resolution_points) == ("Pilgrims", MINOR, 2)
    # Everyone on both sides, Pigsy too although he had no pair.
    assert dict(e.consequence) == {"Demon": "impaired", "Imp": "impaired"}
    assert dict(e.benefit) == {"Monkey": 3, "Tripitaka": 3, "Pigsy": 3}
    assert c.finished and c.winner == "Pilgrims"


def test_group_marginal_victory_hurts_the_winners_too() -> None:
    _, log = play(
        pilgrims_and_demons(),
        SetPairs(pairs=(Pair(a="Pigsy", b="Imp", roll_a=5, roll_b=9),)),  # marginal, 1 RP
        ResolveExchange(),
    )
    e = resolved(log)
    assert (e.winner, e.victory) == ("Pilgrims", MARGINAL)
    assert dict(e.consequence) == {
        "Monkey": "hurt",
        "Tripitaka": "hurt",
        "Pigsy": "hurt",
        "Demon": "hurt",
        "Imp": "hurt",
    }
    assert dict(e.benefit) == {"Monkey": 0, "Tripitaka": 0, "Pigsy": 0}


def test_group_pairs_keep_roles_and_two_sides() -> None:
    c = pilgrims_and_demons()
    with pytest.raises(RuleError, match="always"):
        apply(
            c,
            SetPairs(
                pairs=(
                    Pair(a="Monkey", b="Demon", roll_a=1, roll_b=2),
                    Pair(a="Demon", b="Pigsy", roll_a=1, roll_b=2),
                )
            ),
        )
    with pytest.raises(RuleError, match="both on side"):
        apply(c, SetPairs(pairs=(Pair(a="Monkey", b="Pigsy", roll_a=1, roll_b=2),)))


def test_a_pair_roll_no_d20_shows_names_the_pair_and_the_roller() -> None:
    # §2.7: each pairing rolls its own d20s (1 to 20, §2.3); typed on one line for all the
    # pairs, a 0 must say which pair and whose roll (play5, item 2).
    c = pilgrims_and_demons()
    pairs = (
        Pair(a="Monkey", b="Demon", roll_a=1, roll_b=2),
        Pair(a="Pigsy", b="Demon", roll_a=5, roll_b=0),
    )
    with pytest.raises(BadDice, match=r"^Pigsy v Demon, Demon's roll: a d20 shows 1 to 20, not 0$"):
        apply(c, SetPairs(pairs=pairs))


# -- the log ----------------------------------------------------------------------------------


def test_folding_the_events_gives_the_same_state_and_one_exchange_event_each() -> None:
    c0 = hero_foe(hero_points=1, chained=True)
    c1, log1 = play(
        c0,
        RollDice(who="Hero", faces=(3,)),
        RollDice(who="Foe", faces=(8,)),
        SpendHeroPoints(who="Hero"),
        ResolveExchange(),
    )
    c2, log2 = play(c1, Leave(who="Foe"), ResolveExchange())
    assert fold(c0, [*log1, *log2]) == c2
    assert sum(isinstance(e, ExchangeResolved) for e in [*log1, *log2]) == 2
    assert isinstance(log2[-1], ContestEnded)


def test_describe_reads_like_the_table_talks() -> None:
    _, e = exchange(hero_foe("4M", "13"), {"Hero": 3, "Foe": 8})
    # 4M rolls 3 (success, bumped to critical by the mastery) vs 13 rolling 8 (success):
    # one level better, a minor victory worth 2 RP; the loser impaired, the winner +3.
    assert HEROQUEST.describe(e) == [
        "Exchange 1: Hero wins, minor",  # a simple contest: no resolution points (§2.8)
        "  Hero: 3 vs 4M, critical",
        "  Foe: 8 vs 13, success",
        "  → Foe impaired, Hero +3 benefit",
    ]


def test_commands_events_and_state_survive_the_save_codec() -> None:
    from core.files.codec import decode, encode
    from core.model import Command, Contest

    commands: list[object] = [
        SetPairs(
            pairs=(
                Pair(a="Monkey", b="Demon", roll_a=5, roll_b=9),
                Pair(a="Monkey", b="Imp", roll_a=12, roll_b=None),  # Imp at -2: no roll
                Pair(a="Tripitaka", b="Demon", roll_a=14, roll_b=13),
            )
        ),
        Augment(recipient="Monkey", rating=18, roll=1, resistance_roll=3),
        SpendHeroPoints(who="Tripitaka", count=1),
        Stretch(who="Monkey"),
        SetModifier(who="Imp", value=-12),
        ResolveExchange(),
    ]
    c, log = play(pilgrims_and_demons(), *commands)
    for value, base in [*((cmd, Command) for cmd in commands), *((e, Event) for e in log)]:
        assert decode(encode(value), base) == value
    assert decode(encode(c), Contest) == c


def test_resolution_points_are_named_only_where_they_count() -> None:
    """Rules §2.8: resolution points belong to chained and extended contests. A simple
    contest's exchange line names its level alone (issue 24, item 22: "marginal (1 RP)"
    in a simple contest); a chained one keeps its points."""
    from core.systems.heroquest.wording import _result

    simple = ExchangeResolved(
        n=1, kind="simple", parties=("Hero", "Foe"), targets={}, rolls={}, levels={},
        winner="Hero", victory=1, resolution_points=1, lodged_by=None, augments=(),
        hero_points={}, stretched=(), consequence={}, benefit={},
    )  # fmt: skip
    assert _result(simple) == "Hero wins, marginal"
    assert _result(replace(simple, chain=True)) == "Hero wins, marginal (1 RP)"
