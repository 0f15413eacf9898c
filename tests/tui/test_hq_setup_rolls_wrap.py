"""The contest setup at 80x24 with a HeroQuest character carrying states and benefits
(play5, item 4): the Rolls column wraps inside its row instead of running off the right
edge, so every state and benefit a GM needs stays in sight.

Expected words from rules §2.6: hurts stack (two marginal defeats = −6), an impairment
is −6, an injury bumps the result down, lingering benefits add (+6, and +3 from Dance,
related to Sword and Shield)."""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.heroquest.character import HeroQuestCharacter
from tests.tui.conftest import keys, new_app, seed_campaign, settle
from tests.tui.screen_text import screen_text
from tui.screens.setup import SetupScreen

SWORD = "Sword and Shield"


def battered(saves: Path) -> None:
    tripitaka = Character(
        name="Tripitaka",
        ratings={SWORD: 24, "Dance": 17},  # 4M: 4 and a mastery (§2.2)
        sheet=HeroQuestCharacter(
            hero_points=3,
            adversity_of={SWORD: ("hurt", "hurt", "impaired", "injured")},
            benefits={SWORD: 6, "Dance": 3},
            related={SWORD: ("Dance",)},
        ),
    )
    ghoul = Character(name="Ghoul King", kind="npc", ratings={"Claws": 17})
    sandy = Character(name="Sandy", ratings={"Staff": 15})
    seed_campaign(
        saves,
        "Crypt",
        "heroquest",
        [tripitaka, ghoul, sandy],
        [
            Pick(character="Sandy", side="Sandy", rating="Staff"),
            Pick(character="Ghoul King", side="Ghouls", rating="Claws"),
        ],
    )


async def test_the_rolls_column_wraps_and_keeps_every_state_and_benefit(saves: Path) -> None:
    battered(saves)
    app = new_app(saves, "Crypt")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n")
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)
        await keys(pilot, "a", "enter")  # the form's first: Tripitaka, Sword and Shield
        await settle(pilot)
        shown = "\n".join(screen_text(app))
        words = " ".join(shown.split())  # the Rolls wrapped over the row's lines
        for told in ("hurt×2 -6", "impaired -6", "injured: 1 bump down", f"{SWORD} +6", "Dance +3"):
            assert told in words, shown
        assert all(len(line) <= 80 for line in shown.splitlines())
        # Wider, the row is one line again.
        await pilot.resize_terminal(160, 24)
        await settle(pilot)
        lines = screen_text(app)
        assert any("Dance +3" in line and "hurt×2 -6" in line for line in lines), lines
