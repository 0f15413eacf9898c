"""A roll half typed is named as such at Enter. Found by playing FORGE in tmux: the GM
typed 0 for the reactor (the tens of a 05) and pressed Enter, and was told "Kara has not
rolled yet", with the 0 on the keypad in front of them. Enter now says what is missing,
sends nothing, and keeps what was typed. By key presses only, on the demos."""

from __future__ import annotations

from pathlib import Path

from core.saves.store import CampaignFiles
from tests.tui.conftest import demo_app, keys, settle, text
from tui.screens.contest import ContestScreen


def entries(saves: Path, slug: str) -> int:
    return CampaignFiles(saves / slug).load().entries


async def test_the_tens_of_a_d100_alone_is_named_at_enter(saves: Path) -> None:
    """FORGE demo: Josef acts (Brawling 50), Bobby reacts (40). Josef 45 (succeeds,
    throws damage), Bobby 0: the tens of a roll from 01 to 09, or of 00 (100)."""
    app = demo_app(saves, "FORGE demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = entries(saves, "forge-demo")
        await keys(pilot, "4", "5", "0", "enter")
        pad = text(app, "#keypad")
        assert "Bobby's roll is not finished" in pad
        assert "one more digit (05 is 5, 00 is 100)" in pad
        assert "has not rolled" not in pad
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        assert screen.draft.typed == {"Josef": "45", "Bobby": "0"}  # kept
        assert entries(saves, "forge-demo") == before  # nothing sent
        await keys(pilot, "5", "enter")  # 05: Bobby 5 ≤ 40 but below the thrown damage
        assert entries(saves, "forge-demo") == before + 1
        assert "Stage 1" in text(app, "#log")


async def test_fate_dice_half_typed_are_counted_at_enter(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = entries(saves, "fate-demo")
        await keys(pilot, "+", "-", "enter")
        pad = text(app, "#keypad")
        assert "Cynere's roll is not finished: 2 of its 4 Fate dice typed, 2 to go" in pad
        assert entries(saves, "fate-demo") == before
