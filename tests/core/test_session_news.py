"""What a session's start tells the GM about each character comes from the system's sheet
(``session_news``), not from the roster screen reading Fate's and HeroQuest's fields."""

from __future__ import annotations

from core.campaign.log import Character
from core.campaign.sheet import find_sheet
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.forge.character import ForgeCharacter
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet


def test_fate_says_who_refreshed_and_to_how_many() -> None:
    # Fate Core: a PC's fate points come back up to their refresh (1 -> 3), never down.
    cynere = Character(name="Cynere", sheet=FateCharacter(fate_points=1, refresh=3))
    sheet = find_sheet("fate")
    after = sheet.new_session(cynere, None)
    assert fate_sheet(after).fate_points == 3
    assert sheet.session_news(cynere, after) == ["Cynere refreshed to 3 fate points"]
    rich = Character(
        name="Zird", sheet=FateCharacter(fate_points=5, refresh=3)
    )  # above refresh: kept
    assert sheet.session_news(rich, sheet.new_session(rich, None)) == []


def test_heroquest_counts_the_hurts_healed() -> None:
    # §2.6: hurts recover between sessions, the one on every ability and the one tied
    # to Sword alike: two hurts healed; an injury stays and is not news.
    kai = Character(
        name="Kai",
        sheet=HeroQuestCharacter(adversity=("hurt", "injured"), adversity_of={"Sword": ("hurt",)}),
    )
    sheet = find_sheet("heroquest")
    after = sheet.new_session(kai, None)
    assert hq_sheet(after).adversity == ("injured",)
    assert sheet.session_news(kai, after) == ["Kai's 2 hurts healed"]


def test_a_system_with_nothing_to_say_says_nothing() -> None:
    bo = Character(name="Bo", kind="pc", sheet=ForgeCharacter(trauma=3))
    sheet = find_sheet("forge")
    assert sheet.session_news(bo, sheet.new_session(bo, None)) == []
