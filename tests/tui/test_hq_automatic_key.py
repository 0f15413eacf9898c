"""HeroQuest's automatic result (A): the GM rules an exchange of a chain won or lost at a
level, without dice (issue 29 item 3). Values: §2.7's table lodges major 3 RP, minor 2
(§2.8.1); §2.6 leaves the loser injured (major) and gives the winner +6."""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.heroquest.character import HeroQuestCharacter
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text
from tui.screens.contest import ContestScreen


def chain(saves: Path) -> None:
    seed_campaign(
        saves,
        "Gate",
        "heroquest",
        [
            Character(name="Hero", ratings={"Sword": 15}, sheet=HeroQuestCharacter(hero_points=1)),
            Character(name="Gate", kind="npc", ratings={"Bars": 15}),
        ],
        [
            Pick(character="Hero", side="Hero", rating="Sword"),
            Pick(character="Gate", side="Gate", rating="Bars"),
        ],
        {"chained": True},
    )


async def test_an_automatic_success_is_committed_without_dice_and_logged(saves: Path) -> None:
    chain(saves)
    app = new_app(saves, "Gate")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # A, then the level two steps right of marginal: major.
        await keys(pilot, "A", "tab", "tab", "right", "right", "enter")
        pad = text(app, "#keypad")
        assert "Automatic success for Hero: major, no dice" in pad
        assert "Hero would win: major (3 RP)" in pad
        # A die typed now has nobody to go to: said, not dropped in silence.
        await keys(pilot, "5")
        assert "Nobody rolls on the keypad in this exchange" in text(app, "#keypad")
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "Exchange 1: Hero wins, major (3 RP)" in log
        assert "automatic success for Hero (major)" in log
        assert "Gate injured, Hero +6 benefit" in log
        assert "Hero  3 RP" in text(app, "#scoreboard")
        # An automatic failure for Hero at minor: Gate's minor victory, 2 RP.
        await keys(pilot, "A", "tab", "right", "tab", "right", "enter", "enter")
        assert "Exchange 2: Gate wins, minor (2 RP)" in text(app, "#log")


async def test_dice_on_the_keypad_stop_an_automatic_result(saves: Path) -> None:
    chain(saves)
    app = new_app(saves, "Gate")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "7", "A")
        # No form: the keypad keeps the 7, and the notice says how to take it back.
        assert isinstance(app.screen, ContestScreen)
        assert "Hero             [ 7]" in text(app, "#keypad")
        assert any("takes no dice" in str(n.message) for n in app.told)
