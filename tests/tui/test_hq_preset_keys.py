"""The modifier form (m) offers HeroQuest's presets by name (issue 29 item 4; rules.md
§2.4): the situation's +6/+3/−3/−6 and the ability adjustments; the keypad and the log
name the one chosen. Values: a rating 15 with "situation: disadvantage" (−3) is 12."""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.rules import find_system
from core.saves.store import Saves
from core.systems.heroquest.character import HeroQuestCharacter
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text


def duel(saves: Path) -> None:
    """Hero (Sword 15, a hero point) against Foe (Claws 15), a simple contest."""
    seed_campaign(
        saves,
        "Duel",
        "heroquest",
        [
            Character(name="Hero", ratings={"Sword": 15}, sheet=HeroQuestCharacter(hero_points=1)),
            Character(name="Foe", kind="npc", ratings={"Claws": 15}),
        ],
        [
            Pick(character="Hero", side="Hero", rating="Sword"),
            Pick(character="Foe", side="Foe", rating="Claws"),
        ],
    )


async def test_a_preset_by_keys_is_named_on_the_keypad_and_in_the_log(saves: Path) -> None:
    duel(saves)
    app = new_app(saves, "Duel")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # none, strong advantage, advantage, disadvantage: three to the right.
        await keys(pilot, "m", "tab", "tab", "right", "right", "right", "enter")
        pad = text(app, "#keypad")
        assert "Modifier: Hero -3 (situation: disadvantage)" in pad
        assert "vs 12" in pad
        await keys(pilot, "3", "8", "enter")
        assert "Hero: situation: disadvantage -3" in text(app, "#log")
    files = Saves(saves).find("Duel")  # quit and read back: the name is saved
    assert files is not None
    (record,) = files.load().contests.values()
    (exchange,) = record.exchanges
    assert "  Hero: situation: disadvantage -3" in find_system("heroquest").describe(exchange)
