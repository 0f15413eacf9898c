"""Nothing typed can crash the dashboard: long seeded runs of random keys, every system."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from core.saves.store import CampaignFiles
from tests.tui.conftest import keys, new_app, settle
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
        chosen = [rng.choice(KEYS) for _ in range(200)]
        # Quitting is allowed, but ends the run too soon to be useful. Each key once the
        # app is done with the one before, as a GM types (conftest.keys).
        await keys(pilot, *[key for key in chosen if key != "q"])
        assert app.is_running
        assert isinstance(app, TussleApp)
        # Whatever was done on screen is what is on disk: reload and compare.
        if app.files is not None:
            contests = {k: r.state for k, r in app.campaign.contests.items()}
            reloaded = CampaignFiles(app.files.folder).load()
            assert {k: r.state for k, r in reloaded.contests.items()} == contests
            assert reloaded.roster == app.campaign.roster
