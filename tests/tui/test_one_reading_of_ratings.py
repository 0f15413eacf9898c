"""Issue 24, item 11: one reading of ratings everywhere. The Fate ladder's words (rules
§1.1: Great is +4, Good +3, Legendary +8, above it "Legendary+2" is +10) and a FORGE
target's percent sign ("60%" is a target of 60, rules §3.2: everything is on a 100 scale)
are taken by the roster's form as they are by roster files, the setup and difficulties:
one parser per system, in its sheet."""

from __future__ import annotations

import pytest

from core.campaign.roster_file import read_bytes
from core.errors import RuleError
from core.systems.fate import roster_file as fate_file
from core.systems.fate import sheet as fate_sheet
from core.systems.forge import sheet as forge_sheet
from tui.screens.roster import parse_ratings
from tui.systems.fate.roster import ROSTER as FATE_ROSTER
from tui.systems.forge import ROSTER as FORGE_ROSTER


def test_the_fate_character_form_takes_ladder_words() -> None:
    typed = "Athletics Great, Lore +3, Will Legendary+2, Fight great"
    assert parse_ratings(FATE_ROSTER, typed) == {
        "Athletics": 4,
        "Lore": 3,
        "Will": 10,
        "Fight": 4,
    }


def test_the_forge_character_form_takes_a_percent_sign() -> None:
    assert parse_ratings(FORGE_ROSTER, "Brawling 60%, Shooting 45") == {
        "Brawling": 60,
        "Shooting": 45,
    }


def test_a_fate_roster_file_reads_what_the_form_reads() -> None:
    raw = b'[[characters]]\nname = "Cynere"\n[characters.skills]\nWill = "Legendary+2"\n'
    (arrival,) = read_bytes(raw, "fate", "cynere.toml")
    assert arrival.character.ratings == {"Will": 10}


def test_every_layer_calls_the_one_parser() -> None:
    assert FATE_ROSTER.parse_rating is fate_sheet.typed_rating
    assert fate_file.typed_rating is fate_sheet.typed_rating
    assert FORGE_ROSTER.parse_rating is forge_sheet.typed_rating
    assert fate_sheet.difficulty("Great") == fate_sheet.typed_rating("Great") == 4


def test_a_number_past_every_limit_is_refused_in_words() -> None:
    with pytest.raises(RuleError, match="at most"):
        fate_sheet.typed_rating("9" * 12)
    with pytest.raises(RuleError, match="not a target"):
        forge_sheet.typed_rating("Great")


@pytest.mark.parametrize("digits", [13, 20, 5000])
@pytest.mark.parametrize("reading", ["fate", "forge", "default"])
def test_a_number_too_large_is_said_to_be_too_large_not_no_number(
    reading: str, digits: int
) -> None:
    """A rating the GM typed with a few digits too many (a key held down) is a whole
    number, only beyond every limit (core.limits.SIZE, 10**9): the words say so, as the
    forms' numbers do, never that it is no ladder name, no target or no number. "default"
    is the reading a system without its own has (``SystemSheet.typed_rating``)."""
    from core.campaign.setup import typed_rating
    from core.campaign.sheet import SystemSheet, find_sheet

    typed = "9" * digits
    with pytest.raises(RuleError) as refused:
        if reading == "default":
            SystemSheet.typed_rating(find_sheet("fate"), typed)
        else:
            typed_rating(reading, typed)
    said = str(refused.value)
    assert said.startswith("must be at most 1000000000 in size"), said
    assert len(said) < 100  # five thousand nines are not said back
