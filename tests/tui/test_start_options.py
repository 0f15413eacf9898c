"""What the dashboard is started with (issue 11): a ``--system`` that contradicts the
campaign is refused, not ignored, and a saves folder named with ``--saves`` gets no demos.
(The command line refuses both before the app starts: tests/core/test_saves_option.py.)"""

from __future__ import annotations

from pathlib import Path

from core.cli.demo import create_demos
from core.saves.store import Saves
from tests.tui.conftest import settle
from tui.app import make_app
from tui.screens.campaigns import CampaignScreen


async def test_a_system_contradicting_the_campaign_opens_nothing_and_says_why(
    saves: Path,
) -> None:
    create_demos(Saves(saves))
    app = make_app(saves, campaign="Fate demo", system="heroquest")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        assert app.files is None  # nothing opened, no lock taken
        assert [str(n.message) for n in app.told] == [
            '"Fate demo" is a fate campaign, not heroquest'
        ]


async def test_a_saves_folder_named_on_the_command_line_gets_no_demos(saves: Path) -> None:
    app = make_app(saves, demos=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
    assert Saves(saves).campaigns() == []
