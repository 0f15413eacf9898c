"""The GM's evening in Fate, by key presses only, checked on the panes."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import keys, new_app, settle, text, write


async def test_the_seed_contest_played_with_entered_dice(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Cynere" in text(app, "#participants")
        assert "Teran the Swift" in text(app, "#participants")
        assert "Muddy Ground" in text(app, "#aspects")
        # 1: Cynere ---0 (4-3 = +1), Teran 0000 (+3): Teran wins one victory.
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        assert "Exchange 1: Teran the Swift wins, 1 victory (0–1)" in text(app, "#log")
        # 2: +000 (+5) vs -000 (+2): margin 3, style, two victories.
        await keys(pilot, "plus", "0", "0", "0", "minus", "0", "0", "0", "enter")
        assert "Exchange 2: Cynere wins with style, 2 victories (2–1)" in text(app, "#log")
        # 3: -000 (+3) vs 0000 (+3): a tie; the GM names the twist.
        await keys(pilot, "minus", "0", "0", "0", "0", "0", "0", "0", "enter")
        await write(pilot, "Magical Distortions")
        await keys(pilot, "enter")
        assert "Exchange 3: tie, twist: Magical Distortions (2–1)" in text(app, "#log")
        assert "Magical Distortions" in text(app, "#aspects")
        # 4: 0000 (+4) vs +000 (+4); Cynere pays two fate points for two invokes: +8.
        await keys(pilot, "0", "0", "0", "0", "plus", "0", "0", "0")
        await keys(pilot, "i", "c", "tab", "i", "enter")  # by Cynere, I've Got Zird's Back
        await keys(pilot, "i", "c", "tab", "m", "enter")  # by Cynere, Magical Distortions
        assert "Legendary (+8)" in text(app, "#keypad")
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "Exchange 4: Cynere wins with style, 2 victories (4–1)" in log
        assert "invokes I've Got Zird's Back (fate point): +2" in log
        assert "Cynere wins" in text(app, "#scoreboard")
        assert "Cynere  FP 1" in text(app, "#participants")  # 3 - 2 fate points
