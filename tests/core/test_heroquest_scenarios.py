"""HeroQuest scenarios through ``core.scenario.resolve``: the output and the error places
of scenario.md's "HeroQuest" section. Expected values are worked out from the rules."""

from __future__ import annotations

from typing import Any

import pytest

from core.rules.reading import ScenarioError
from core.scenario import resolve

HERO_FOE = [
    {"name": "Hero", "rating": "17", "hero_points": 1},
    {"name": "Foe", "rating": "15"},
]


def scenario(*exchanges: dict[str, Any], participants: Any = None, **options: Any) -> Any:
    return {
        "system": "heroquest",
        "options": options,
        "participants": HERO_FOE if participants is None else participants,
        "exchanges": list(exchanges),
    }


def out(*exchanges: dict[str, Any], **kw: Any) -> Any:
    return resolve(scenario(*exchanges, **kw)).to_json()


def error(*exchanges: dict[str, Any], **kw: Any) -> str:
    with pytest.raises(ScenarioError) as caught:
        resolve(scenario(*exchanges, **kw))
    return str(caught.value)


# -- output ---------------------------------------------------------------------------------


def test_simple_exchange_output_keys() -> None:
    got = out({"rolls": {"Hero": 3, "Foe": 8}})
    # 3 <= 17 and 8 <= 15: two successes, Hero's lower roll: marginal.
    ex = got["exchanges"][0]
    assert ex["n"] == 1
    assert ex["targets"] == {"Hero": "17", "Foe": "15"}
    assert ex["levels"] == {"Hero": "success", "Foe": "success"}
    assert (ex["winner"], ex["victory"], ex["resolution_points"]) == ("Hero", "marginal", 1)
    assert (ex["consequence"], ex["benefit"], ex["augments"]) == ({"Foe": "hurt"}, {"Hero": 0}, [])
    assert (got["finished"], got["winner"]) == (True, "Hero")
    assert got["hero_points"] == {"Hero": 1, "Foe": 0}
    assert "resolution_points" not in got  # only for chained or extended contests


def test_full_exchange_from_the_spec_example() -> None:
    got = out(
        {
            "rolls": {"Hero": 3, "Foe": 8},
            "modifiers": {"Hero": -3},
            "augments": [{"for": "Hero", "rating": "18", "roll": 1, "resistance_roll": 3}],
            "hero_points": {"Hero": 1},
            "stretch": ["Hero"],
        }
    )
    ex = got["exchanges"][0]
    # Augment 18 vs 14: 1 critical vs 3 success, minor: +6. Target 17 - 3 + 6 - 6 = 14.
    assert ex["augments"] == [{"for": "Hero", "bonus": 6}]
    assert ex["targets"] == {"Hero": "14", "Foe": "15"}
    # 3 <= 14 success + 1 hero point: critical; Foe 8 success: minor (stretch allows it).
    assert ex["levels"] == {"Hero": "critical", "Foe": "success"}
    assert (ex["winner"], ex["victory"]) == ("Hero", "minor")
    assert got["hero_points"] == {"Hero": 0, "Foe": 0}


def test_targets_are_written_with_m_above_20() -> None:
    got = out({"rolls": {"Hero": 3, "Foe": 8}, "modifiers": {"Hero": 24, "Foe": -15}})
    # 17 + 24 = 41 = 1M2; 15 - 15 = 0: Foe's complete defeat without a roll.
    ex = got["exchanges"][0]
    assert ex["targets"] == {"Hero": "1M2", "Foe": "0"}
    assert ex["levels"]["Foe"] == "fumble" and ex["victory"] == "complete"


def test_a_party_at_0_needs_no_roll_and_its_roll_is_not_checked() -> None:
    for roll in (None, 25, "x"):
        got = out({"rolls": {"Hero": roll, "Foe": 18}, "modifiers": {"Hero": -20}})
        ex = got["exchanges"][0]
        # Hero at -3 loses completely; Foe 18 > 15 is shown as a failure.
        assert ex["levels"] == {"Hero": "fumble", "Foe": "failure"}
        assert (ex["winner"], ex["victory"], ex["consequence"]) == (
            "Foe",
            "complete",
            {"Hero": "dying"},
        )


def test_both_parties_at_0_tie_without_rolls() -> None:
    got = out({"rolls": {}, "modifiers": {"Hero": -17, "Foe": -20}})
    ex = got["exchanges"][0]
    assert (ex["winner"], ex["victory"], ex["consequence"], ex["benefit"]) == (
        None,
        "tie",
        {},
        {},
    )
    assert got["finished"] is True and got["winner"] is None


def test_integer_ratings_are_linear_values() -> None:
    people = [{"name": "Hero", "rating": 53}, {"name": "Foe", "rating": "13M2"}]
    got = out({"rolls": {"Hero": 5, "Foe": 14}}, participants=people)
    # 53 = 13M2 both: masteries cancel, 13 vs 13: 5 success, 14 failure: minor.
    assert got["exchanges"][0]["targets"] == {"Hero": "13M2", "Foe": "13M2"}
    assert got["exchanges"][0]["victory"] == "minor"


def test_vitality_is_added_to_every_target_but_not_to_augments() -> None:
    people = [{"name": "Hero", "rating": "12", "vitality": 3}, {"name": "Foe", "rating": "15"}]
    got = out(
        {
            "rolls": {"Hero": 14, "Foe": 9},
            # 18 vs 14, 5 and 9: marginal, +3 (18 + 3 vitality would not change that).
            "augments": [{"for": "Hero", "rating": "18", "roll": 5, "resistance_roll": 9}],
        },
        participants=people,
    )
    ex = got["exchanges"][0]
    assert ex["targets"]["Hero"] == "18"  # 12 + 3 + 3
    assert ex["levels"]["Hero"] == "success"  # 14 <= 18


def test_chained_contest_with_a_leave_only_exchange() -> None:
    got = out(
        {"rolls": {"Hero": 1, "Foe": 17}},  # critical vs failure: major, Hero 3 RP
        {"rolls": {"Hero": 7, "Foe": 7}},  # tie: nothing lodged
        {"leave": "Hero"},  # Hero leaves: Foe wins the chain
        chained=True,
    )
    assert [ex["resolution_points"] for ex in got["exchanges"]] == [3, 0, 0]
    last = got["exchanges"][2]
    assert (last["winner"], last["victory"], last["targets"], last["levels"]) == (
        None,
        None,
        {},
        {},
    )
    assert (got["finished"], got["winner"]) == (True, "Foe")
    assert got["resolution_points"] == {"Hero": 3, "Foe": 0}


def test_unfinished_chain_has_no_winner() -> None:
    got = out({"rolls": {"Hero": 1, "Foe": 17}}, chained=True)
    assert (got["finished"], got["winner"]) == (False, None)


def test_extended_contest_finishes_at_five_points() -> None:
    got = out(
        {"rolls": {"Hero": 1, "Foe": 17}},  # major: 3
        {"rolls": {"Hero": 2, "Foe": 18}},  # success vs failure: minor, 2: 5 in all
        extended=True,
    )
    assert (got["finished"], got["winner"], got["resolution_points"]) == (
        True,
        "Hero",
        {"Hero": 5, "Foe": 0},
    )


def test_tie_break_high_option() -> None:
    ex = out({"rolls": {"Hero": 3, "Foe": 8}}, tie_break="high")["exchanges"][0]
    assert (ex["winner"], ex["victory"]) == ("Foe", "marginal")


def test_augment_base_option() -> None:
    # Base 1: 18 rolls 5 (success) vs 1 rolls 2 (failure, 2 > 1): minor, +6.
    got = out(
        {
            "rolls": {"Hero": 3, "Foe": 8},
            "augments": [{"for": "Hero", "rating": 18, "roll": 5, "resistance_roll": 2}],
        },
        augment_base=1,
    )
    assert got["exchanges"][0]["augments"] == [{"for": "Hero", "bonus": 6}]


GROUP = [
    {"name": "Tripitaka", "side": "Pilgrims", "rating": "15"},
    {"name": "Sandy", "side": "Pilgrims", "rating": "13"},
    {"name": "Resistance", "side": "World", "rating": "14"},
]


def test_group_exchange_against_a_shared_resistance() -> None:
    got = out(
        {
            "pairs": [
                # 14 <= 15 success vs 13 <= 14 success, 13 lower: Resistance marginal, 1.
                {"a": "Tripitaka", "b": "Resistance", "rolls": [14, 13]},
                # 1 critical vs 18 failure: Sandy major, 3.
                {"a": "Sandy", "b": "Resistance", "rolls": [1, 18]},
            ]
        },
        participants=GROUP,
    )
    ex = got["exchanges"][0]
    assert ex["side_points"] == {"Pilgrims": 3, "World": 1}
    # Difference 2: minor group victory, 2 RP.
    assert (ex["winner"], ex["victory"], ex["resolution_points"]) == ("Pilgrims", "minor", 2)
    assert ex["targets"] == {"Tripitaka": "15", "Resistance": "14", "Sandy": "13"}  # no -3 for b
    assert [(p["winner"], p["victory"], p["resolution_points"]) for p in ex["pairs"]] == [
        ("Resistance", "marginal", 1),
        ("Sandy", "major", 3),
    ]
    assert ex["pairs"][0]["levels"] == {"Tripitaka": "success", "Resistance": "success"}
    assert ex["consequence"] == {"Resistance": "impaired"}
    assert ex["benefit"] == {"Tripitaka": 3, "Sandy": 3}
    assert "levels" not in ex
    assert got["winner"] == "Pilgrims"


def test_group_a_in_two_pairs_takes_minus_3() -> None:
    people = [
        {"name": "Monkey", "side": "Pilgrims", "rating": "15"},
        {"name": "Demon", "side": "Demons", "rating": "12"},
        {"name": "Imp", "side": "Demons", "rating": "12"},
    ]
    got = out(
        {
            "pairs": [
                # Monkey 15 - 3 = 12: 13 > 12 failure; Demon 5 success: Demon minor, 2.
                {"a": "Monkey", "b": "Demon", "rolls": [13, 5]},
                # 1 critical vs 12 success: Monkey minor, 2.
                {"a": "Monkey", "b": "Imp", "rolls": [1, 12]},
            ]
        },
        participants=people,
    )
    ex = got["exchanges"][0]
    assert ex["targets"]["Monkey"] == "12"
    assert ex["side_points"] == {"Pilgrims": 2, "Demons": 2}
    assert (ex["winner"], ex["victory"], ex["consequence"], ex["benefit"]) == (
        None,
        "tie",
        {},
        {},
    )


# -- errors and their places ----------------------------------------------------------------


def test_unknown_keys_are_reported_first() -> None:
    assert error({"rols": {"Hero": 3}}) == "exchanges[0].rols: unknown key"
    with pytest.raises(ScenarioError, match=r"^options\.tiebreak: unknown key$"):
        resolve(scenario(tiebreak="low"))
    people = [{"name": "Hero", "rating": "17", "vigour": 1}, {"name": "Foe", "rating": "15"}]
    assert error(participants=people) == "participants[0].vigour: unknown key"
    assert error(
        {"rolls": {"Hero": 3, "Foe": 8}, "augments": [{"for": "Hero", "ratng": "12"}]}
    ).startswith("exchanges[0].augments[0].ratng: unknown key")


def test_bad_rating_string() -> None:
    people = [{"name": "Hero", "rating": "4X"}, {"name": "Foe", "rating": "15"}]
    assert error(participants=people).startswith("participants[0].rating: ")
    people = [{"name": "Hero", "rating": "21"}, {"name": "Foe", "rating": "15"}]
    assert error(participants=people).startswith("participants[0].rating: ")


def test_die_out_of_range() -> None:
    assert error({"rolls": {"Hero": 21, "Foe": 8}}).startswith("exchanges[0].rolls.Hero: ")
    assert error({"rolls": {"Hero": 0, "Foe": 8}}).startswith("exchanges[0].rolls.Hero: ")
    assert error(
        {
            "rolls": {"Hero": 3, "Foe": 8},
            "augments": [{"for": "Hero", "rating": "18", "roll": 1, "resistance_roll": 21}],
        }
    ).startswith("exchanges[0].augments[0].resistance_roll: ")


def test_missing_roll_names_the_map_entry() -> None:
    assert error({"rolls": {"Hero": 3}}) == "exchanges[0].rolls.Foe: missing"
    assert error({"rolls": {"Hero": 3, "Foe": None}}) == "exchanges[0].rolls.Foe: missing"
    assert error({}) == "exchanges[0].rolls: missing"


def test_names_that_are_not_parties() -> None:
    assert error({"rolls": {"Hero": 3, "Foe": 8}, "modifiers": {"Zird": 1}}) == (
        'exchanges[0].modifiers.Zird: no participant "Zird"'
    )
    assert error({"rolls": {"Hero": 3, "Foe": 8}, "stretch": ["Zird"]}) == (
        'exchanges[0].stretch[0]: no participant "Zird"'
    )
    assert error({"rolls": {"Hero": 3, "Zird": 8}}) == (
        'exchanges[0].rolls.Zird: no participant "Zird"'
    )
    three = [*HERO_FOE, {"name": "Friend", "side": "Hero", "rating": "10"}]
    assert error(
        {"rolls": {"Hero": 3, "Foe": 8}, "hero_points": {"Friend": 1}}, participants=three
    ).startswith("exchanges[0].hero_points.Friend: Friend is not a party")
    assert error({"rolls": {"Hero": 3, "Friend": 8}}, participants=three).startswith(
        "exchanges[0].rolls: "
    )
    assert error({"rolls": {"Hero": 3}}, participants=three).startswith("exchanges[0].rolls: ")


def test_a_null_map_entry_counts_as_left_out() -> None:
    got = out({"rolls": {"Hero": 3, "Foe": 8}, "modifiers": {"Zird": None, "Hero": None}})
    assert got["exchanges"][0]["targets"] == {"Hero": "17", "Foe": "15"}


def test_hero_points_too_many() -> None:
    assert error({"rolls": {"Hero": 3, "Foe": 8}, "hero_points": {"Hero": 2}}) == (
        "exchanges[0].hero_points.Hero: Hero has only 1 hero point"
    )
    assert error({"rolls": {"Hero": 3, "Foe": 8}, "hero_points": {"Hero": -1}}).startswith(
        "exchanges[0].hero_points.Hero: "
    )
    people = [{"name": "Hero", "rating": "17", "hero_points": 2}, {"name": "Foe", "rating": "15"}]
    assert error(
        {"rolls": {"Hero": 3, "Foe": 8}, "hero_points": {"Hero": 2}},
        participants=people,
        extended=True,
    ).startswith("exchanges[0].hero_points.Hero: ")


def test_second_augment_for_a_party_names_the_item() -> None:
    aug = {"for": "Hero", "rating": "18", "roll": 1, "resistance_roll": 3}
    assert error({"rolls": {"Hero": 3, "Foe": 8}, "augments": [aug, aug]}).startswith(
        "exchanges[0].augments[1]: "
    )


def test_leave_outside_a_chain_and_exchanges_after_the_end() -> None:
    assert error({"rolls": {"Hero": 3, "Foe": 8}, "leave": "Hero"}).startswith(
        "exchanges[0].leave: "
    )
    assert error({"rolls": {"Hero": 3, "Foe": 8}}, {"rolls": {"Hero": 3, "Foe": 8}}) == (
        "exchanges[1]: the contest ended at exchange 1"
    )


def test_group_errors_name_the_pair() -> None:
    assert error(
        {"pairs": [{"a": "Tripitaka", "b": "Sandy", "rolls": [1, 2]}]}, participants=GROUP
    ).startswith("exchanges[0].pairs[0]: ")
    assert error(
        {
            "pairs": [
                {"a": "Tripitaka", "b": "Resistance", "rolls": [1, 2]},
                {"a": "Resistance", "b": "Sandy", "rolls": [1, 2]},
            ]
        },
        participants=GROUP,
    ).startswith("exchanges[0].pairs[1]: ")
    assert error(
        {"pairs": [{"a": "Tripitaka", "b": "Resistance", "rolls": [1, 22]}]}, participants=GROUP
    ).startswith("exchanges[0].pairs[0].rolls[1]: ")
    assert error(
        {"pairs": [{"a": "Tripitaka", "b": "Resistance", "rolls": [1, 2]}], "rolls": {}},
        participants=GROUP,
    ).startswith("exchanges[0]: ")
