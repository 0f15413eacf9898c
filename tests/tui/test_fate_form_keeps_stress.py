"""The roster's character form edits what it shows and keeps what it does not: a Fate
character's stress tracks and consequences (issue 28), brought by an import, stay when
the GM changes their fate points, and reload after a quit."""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.saves.store import CampaignFiles
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.stress import Box, Slot, Track
from tests.helpers import wait_for_odds
from tests.tui.conftest import keys, new_app, seed_campaign, settle, write
from tui.screens.roster import RosterScreen

SHEET = FateCharacter(
    fate_points=1,
    refresh=3,
    stress=(Track(name="Corruption", boxes=(Box(value=1), Box(value=1, checked=True))),),
    consequences=(
        Slot(severity="mild", aspect="Sprained Ankle"),
        Slot(severity="moderate"),
        Slot(severity="severe"),
    ),
)


async def test_editing_fate_points_keeps_stress_and_consequences(saves: Path) -> None:
    seed_campaign(
        saves,
        "Night Watch",
        "fate",
        [
            Character(name="Ana", ratings={"Burglary": 3}, sheet=SHEET),
            Character(name="Guard", kind="npc", ratings={"Fight": 1}),
        ],
        [
            Pick(character="Ana", side="Ana", rating="Burglary"),
            Pick(character="Guard", side="Guard", rating="Fight"),
        ],
    )
    app = new_app(saves, "Night Watch")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await wait_for_odds(pilot)
        await keys(pilot, "w")
        assert isinstance(app.screen, RosterScreen)
        # Ana's row is the first: name, kind, skills, aspects, then fate points.
        await keys(pilot, "e", *["tab"] * 4, "ctrl+u")
        await write(pilot, "4")
        await keys(pilot, "enter")
        ana = fate_sheet(app.campaign.roster["Ana"])
        assert ana.fate_points == 4
        assert (ana.stress, ana.consequences) == (SHEET.stress, SHEET.consequences)
        await keys(pilot, "q")
    reopened = fate_sheet(CampaignFiles(saves / "night-watch").load().roster["Ana"])
    assert reopened == FateCharacter(
        fate_points=4, refresh=3, stress=SHEET.stress, consequences=SHEET.consequences
    )
