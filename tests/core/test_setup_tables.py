"""The tables a GM looks things up in, as rules.md §2.5, §3.2 and §3.4 print them."""

from __future__ import annotations

import pytest

from core.campaign.log import Character
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.errors import RuleError
from core.systems.fate.sheet import difficulty as fate_difficulty
from core.systems.forge.sheet import cover_modifier
from core.systems.forge.sheet import target as forge_target
from core.systems.heroquest.sheet import augment_base as heroquest_augment_base
from core.systems.heroquest.sheet import base_resistance as heroquest_base
from core.systems.heroquest.sheet import resistance as heroquest_resistance
from core.systems.heroquest.state import HQContest


@pytest.mark.parametrize(
    ("sessions", "base", "augment"),
    # rules §2.5's table: sessions 1-2 .. 17-18.
    [(1, 14, 14), (2, 14, 14), (3, 15, 14), (4, 15, 14), (5, 16, 15), (6, 16, 15),
     (7, 17, 15), (9, 18, 16), (13, 20, 17), (17, 22, 18), (18, 22, 18)],
)  # fmt: skip
def test_base_and_augment_resistance_by_sessions_played(
    sessions: int, base: int, augment: int
) -> None:
    assert heroquest_base(sessions) == base
    assert heroquest_augment_base(sessions) == augment


@pytest.mark.parametrize(
    ("resistance_class", "value"),
    # Session 5: the base is 16. Nearly Impossible +W2 = 56 (16W2), Very High 25 (5W),
    # High 22 (2W), Moderate 16, Low 10, Very Low: 16 - 20 = -4 is lower than 6.
    [("Nearly Impossible", 56), ("Very High", 25), ("high", 22), ("Moderate", 16),
     ("Low", 10), ("Very Low", -4)],
)  # fmt: skip
def test_resistance_classes_for_session_five(resistance_class: str, value: int) -> None:
    assert heroquest_resistance(resistance_class, 5) == value


def test_very_low_is_six_once_the_base_has_grown_past_a_mastery() -> None:
    # Sessions 27-28: the base is 13 + 14 = 27; 27 - 20 = 7 is higher than 6: 6.
    assert heroquest_resistance("very low", 27) == 6


def test_an_unknown_class_or_no_sessions_is_a_rule_error() -> None:
    with pytest.raises(RuleError, match="no resistance class"):
        heroquest_resistance("ridiculous", 5)
    with pytest.raises(RuleError):
        heroquest_base(0)


def test_a_resistance_from_the_table_takes_part_without_a_roster_entry() -> None:
    roster = {"Tripitaka": Character(name="Tripitaka", ratings={"Sword": 24})}
    contest = build_contest(
        "heroquest",
        roster,
        [
            Pick(character="Tripitaka", side="Heroes", rating="Sword"),
            Pick(character="Locked Door", side="Door", value=heroquest_resistance("high", 5)),
        ],
    )
    assert isinstance(contest, HQContest)
    assert [p.rating for p in contest.participants] == [24, 22]


def test_forge_target_from_tiers_attribute_and_modifiers() -> None:
    # rules §3.2: Piloting 25 + 4-Wheeled 20 + Racing 10 = 55 before the attribute.
    assert forge_target([25, 20, 10]) == 55
    # With an attribute of 12, at 26-50 yards (-20), half behind cover (-50): -3.
    assert forge_target([25, 20, 10], 12, [-20, cover_modifier(50)]) == -3


@pytest.mark.parametrize(
    ("text", "value"),
    [("Great", 4), ("great", 4), ("+4", 4), ("Mediocre", 0), ("Terrible", -2), ("-3", -3),
     ("Legendary", 8), ("Legendary+2", 10)],
)  # fmt: skip
def test_fate_difficulty_by_ladder_name_or_number(text: str, value: int) -> None:
    assert fate_difficulty(text) == value


def test_a_difficulty_that_is_neither_is_refused() -> None:
    with pytest.raises(RuleError, match="ladder name"):
        fate_difficulty("Hard")
