"""A new campaign named close to one there (issue 24, item 19): "friday fate" beside
"Friday Fate" was made at once, a second, empty campaign the GM did not mean. The form
names the one there; Enter again makes the new one all the same, Esc keeps to the list.
(``tussle open``'s side: tests/e2e/test_open_close_match.py.)"""

from __future__ import annotations

from pathlib import Path

from core.saves.store import Saves
from tests.tui.conftest import keys, new_app, write
from tui.screens.campaigns import CampaignScreen
from tui.screens.forms import FormScreen
from tui.screens.roster import RosterScreen


async def test_a_new_campaign_close_to_one_there_is_made_only_when_asked_twice(
    saves: Path,
) -> None:
    Saves(saves).create("Friday Fate", "fate")
    app = new_app(saves, "Friday Fate")
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot)
        await keys(pilot, "c", "n")
        await write(pilot, "friday fate")
        await keys(pilot, "enter")
        form = app.screen
        assert isinstance(form, FormScreen)  # not made: the form says why
        said = str(form.query_one("#e-name").visual)
        assert 'there is "Friday Fate" already' in said and "Enter again" in said
        assert [c.name for c in Saves(saves).campaigns()] == ["Friday Fate"]
        await keys(pilot, "enter")  # asked twice: made beside it
        assert isinstance(app.screen, RosterScreen)
        assert app.campaign.name == "friday fate"
        assert sorted(c.name for c in Saves(saves).campaigns()) == ["Friday Fate", "friday fate"]
        # A name far from every one is made at once.
        await keys(pilot, "c", "n")
        await write(pilot, "Saturday Spirits")
        await keys(pilot, "enter")
        assert not isinstance(app.screen, (FormScreen, CampaignScreen))
        assert app.campaign.name == "Saturday Spirits"
