"""Nothing typed can crash the dashboard: long seeded runs of random keys, every system."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from core.saves.store import CampaignFiles
from tests.tui.conftest import new_app, settle
from tui.app import TussleApp

KEYS = [
    *"+-=0123456789",
    *"abcdefghijklmnopqrstuvwxyz",
    *"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "enter", "escape", "tab", "shift+tab", "backspace", "left", "right", "up", "down",
    "space", "question_mark", "ctrl+y", "f1", "f5",
]  # fmt: skip


@pytest.mark.parametrize("campaign", ["Fate demo", "HeroQuest demo", "FORGE demo"])
async def test_random_keys_never_crash_the_dashboard(saves: Path, campaign: str) -> None:
    rng = random.Random(campaign)
    app = new_app(saves, campaign)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(200):
            key = rng.choice(KEYS)
            if key == "q":  # quitting is allowed, but ends the run too soon to be useful
                continue
            await pilot.press(key)
        await settle(pilot)
        assert app.is_running
        assert isinstance(app, TussleApp)
        # Whatever was done on screen is what is on disk: reload and compare.
        if app.files is not None:
            contests = {k: r.state for k, r in app.campaign.contests.items()}
            reloaded = CampaignFiles(app.files.folder).load()
            assert {k: r.state for k, r in reloaded.contests.items()} == contests
            assert reloaded.roster == app.campaign.roster
