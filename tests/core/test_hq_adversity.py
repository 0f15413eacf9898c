"""Issue 13, HeroQuest in ``tussle resolve``: participants' ``adversity`` (rules §2.6, §2.3
step 5) and an extended contest's final ``victory`` and ``consequences`` (rules §2.8.6, the
rising-action table as scenario.md settles it). Values worked by hand beside each case.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from core.rules.reading import ScenarioError
from core.scenario import resolve


def duel(
    hero: dict[str, Any] | None = None, options: dict[str, Any] | None = None, *exchanges: Any
) -> dict[str, Any]:
    return {
        "system": "heroquest",
        "options": options or {},
        "participants": [
            {"name": "Hero", "rating": "15", **(hero or {})},
            {"name": "Foe", "rating": "15"},
        ],
        "exchanges": list(copy.deepcopy(exchanges)),
    }


def first(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = resolve(data).to_json()["exchanges"][0]
    return out


@pytest.mark.parametrize(
    ("states", "target"),
    [
        (["hurt"], "12"),  # 15 - 3
        (["hurt", "hurt"], "9"),  # hurts stack: -6 (H29)
        (["hurt", "impaired"], "6"),  # 15 - 3 - 6
        (["injured"], "15"),  # an injury bumps the result, not the target
    ],
)
def test_adversity_on_the_target(states: list[str], target: str) -> None:
    ex = first(duel({"adversity": states}, None, {"rolls": {"Hero": 5, "Foe": 9}}))
    assert ex["targets"]["Hero"] == target


def test_an_injury_bumps_the_result_down() -> None:
    # Hero 3 against 15: success, bumped down to failure; Foe 8: success. Foe, minor.
    ex = first(duel({"adversity": ["injured"]}, None, {"rolls": {"Hero": 3, "Foe": 8}}))
    assert ex["levels"] == {"Hero": "failure", "Foe": "success"}
    assert (ex["winner"], ex["victory"]) == ("Foe", "minor")


def test_an_injury_at_fumble_is_wasted() -> None:
    # Hero 20: fumble, nothing lower; Foe 17 > 15: failure. Foe, minor.
    ex = first(duel({"adversity": ["injured"]}, None, {"rolls": {"Hero": 20, "Foe": 17}}))
    assert ex["levels"] == {"Hero": "fumble", "Foe": "failure"}
    assert (ex["winner"], ex["victory"]) == ("Foe", "minor")


def test_hero_points_come_after_the_injury() -> None:
    # (A-H2) masteries, adversity, hero points: Hero 3 success, bumped down to failure,
    # the hero point brings it back to success; Foe 8 success; the low roll 3: Hero.
    data = duel(
        {"adversity": ["injured"], "hero_points": 1},
        None,
        {"rolls": {"Hero": 3, "Foe": 8}, "hero_points": {"Hero": 1}},
    )
    ex = first(data)
    assert ex["levels"] == {"Hero": "success", "Foe": "success"}
    assert (ex["winner"], ex["victory"]) == ("Hero", "marginal")


@pytest.mark.parametrize(
    ("states", "place", "words"),
    [
        (["dying"], "participants[0].adversity[0]", "dying"),
        (["hurt", "sad"], "participants[0].adversity[1]", '"sad" is not one of'),
        ([3], "participants[0].adversity[0]", "expected a string"),
        ("hurt", "participants[0].adversity", "expected a list"),
    ],
)
def test_adversity_errors(states: Any, place: str, words: str) -> None:
    with pytest.raises(ScenarioError) as info:
        resolve(duel({"adversity": states}, None, {"rolls": {"Hero": 3, "Foe": 8}}))
    assert info.value.place == place and words in info.value.problem


# -- the final victory and consequences -----------------------------------------------------

EXTENDED = {"extended": True}
FOE_MINOR = {"rolls": {"Hero": 8, "Foe": 1}}  # Foe critical v success: minor, 2 RP
HERO_COMPLETE = {"rolls": {"Hero": 1, "Foe": 20}}  # critical v fumble: complete, 5 RP


def final(data: dict[str, Any]) -> tuple[Any, Any]:
    out = resolve(data).to_json()
    return out["victory"], out["consequences"]


def test_a_difference_of_one_hurts_the_winners_too() -> None:
    # Foe 2 + 2 = 4, then Hero 5: Hero 5 - 4 = 1: marginal; Foe hurt, and Hero hurt.
    data = duel(None, EXTENDED, FOE_MINOR, FOE_MINOR, HERO_COMPLETE)
    assert final(data) == ("marginal", {"Hero": "hurt", "Foe": "hurt"})


def test_a_difference_of_five_is_major_and_injures() -> None:
    assert final(duel(None, EXTENDED, HERO_COMPLETE)) == ("major", {"Foe": "injured"})


def test_a_difference_of_three_is_minor_and_impairs() -> None:
    # Foe 2, then Hero 5: 5 - 2 = 3.
    assert final(duel(None, EXTENDED, FOE_MINOR, HERO_COMPLETE)) == ("minor", {"Foe": "impaired"})


def test_eight_or_more_is_complete_and_dead() -> None:
    # Hero 3 v Foe 8: marginal 1, + 1 for Hero's gamble = 2. Then Hero complete, the
    # loser Foe gambling: 5 + 2 = 7. Hero 9 - 0 = 9: complete, dead.
    data = duel(
        None,
        EXTENDED,
        {"rolls": {"Hero": 3, "Foe": 8}, "gambits": ["Hero"]},
        {**HERO_COMPLETE, "gambits": ["Foe"]},
    )
    assert final(data) == ("complete", {"Foe": "dead"})


def test_seven_is_complete_and_dying() -> None:
    # Hero minor 2 (Hero 1 v Foe 8: critical v success), then complete 5: 7 - 0.
    data = duel(None, EXTENDED, {"rolls": {"Hero": 1, "Foe": 8}}, HERO_COMPLETE)
    assert final(data) == ("complete", {"Foe": "dying"})


def test_a_leave_at_no_difference_counts_as_one() -> None:
    data = duel(None, EXTENDED, {"rolls": {"Hero": 5, "Foe": 5}, "leave": "Foe"})  # a tie
    assert final(data) == ("marginal", {"Hero": "hurt", "Foe": "hurt"})


def test_no_final_victory_unless_an_extended_contest_has_a_winner() -> None:
    assert final(duel(None, None, HERO_COMPLETE)) == (None, None)  # a simple contest
    assert final(duel(None, EXTENDED, FOE_MINOR)) == (None, None)  # not over
    assert final(duel(None, {"chained": True}, {**HERO_COMPLETE, "leave": "Foe"})) == (None, None)
