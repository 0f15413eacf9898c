"""The campaign screen by key presses: rename, archive and delete a campaign.

The app starts on the Fate demo (a fresh saves folder gets the three demos); ``c`` shows
the campaigns, by name: Fate demo (3 actions, open, highlighted at first), FORGE demo
(3 actions), HeroQuest demo (4 actions).
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import OptionList

from core.cli.demo import create_demos
from core.saves.backup import list_backups
from core.saves.store import CampaignFiles, Saves
from tests.tui.conftest import keys, new_app, settle, text, write
from tui.app import TussleApp
from tui.cli import main
from tui.screens.campaigns import CampaignScreen, ConfirmDeleteScreen
from tui.screens.contest import ContestScreen
from tui.screens.forms import FormScreen


def listed(app: TussleApp) -> list[str]:
    """The campaign list as shown, one line per campaign (markup left in)."""
    listing = app.screen.query_one(OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


def names(app: TussleApp) -> list[str]:
    return [line.split("  ")[0] for line in listed(app)]


def toasts(app: TussleApp) -> list[str]:
    return [str(n.message) for n in app.told]


async def to_campaigns(pilot: Pilot[None]) -> None:
    """From the contest screen, once its first odds are shown (a contest screen left while
    its odds worker runs fails when the worker ends: a problem of its own, not tested here).
    The odds are the screen's painter's: looked for on the screen itself, they were never
    there, and every wait ran its 4 s out."""
    await settle(pilot)
    app = pilot.app
    for _ in range(3000):  # generous: the first odds come 0.3 s after the first frame
        await pilot.pause(0.01)
        screen = app.screen
        idle = all(w.is_finished for w in app.workers if w.group == "odds")
        if isinstance(screen, ContestScreen) and screen.painter.odds is not None and idle:
            break
    else:
        raise AssertionError(f"no odds on the contest screen after 30 s: {app.screen_stack}")
    await keys(pilot, "c")
    assert isinstance(pilot.app.screen, CampaignScreen)


async def test_a_renamed_campaign_is_listed_by_its_new_name(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_campaigns(pilot)
        assert names(app) == ["Fate demo", "FORGE demo", "HeroQuest demo"]
        await keys(pilot, "down", "down", "r")  # the HeroQuest demo
        await write(pilot, "Glorantha")  # the old name is selected: typing replaces it
        await keys(pilot, "enter")
        assert isinstance(app.screen, CampaignScreen)
        assert names(app) == ["Fate demo", "FORGE demo", "Glorantha"]
        assert listed(app)[2] == "Glorantha  [dim]HeroQuest · 4 actions[/]"
        assert '"HeroQuest demo" is now "Glorantha".' in toasts(app)

        # A name another campaign has is refused: the form stays open with the name
        # typed and says why under it; Esc leaves everything as it was.
        await keys(pilot, "r")
        await write(pilot, "FORGE demo")
        await keys(pilot, "enter")
        assert isinstance(app.screen, FormScreen)
        assert app.screen.answers()["name"] == "FORGE demo"
        assert 'a campaign called "FORGE demo" already exists' in text(app, "#e-name")
        await keys(pilot, "escape")
        assert names(app) == ["Fate demo", "FORGE demo", "Glorantha"]
    found = Saves(saves).find("Glorantha")
    assert found is not None and found.slug == "heroquest-demo"  # same folder
    assert found.load().entries == 4
    assert Saves(saves).find("HeroQuest demo") is None


async def test_the_open_campaign_is_renamed_too_and_keeps_its_new_name(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_campaigns(pilot)
        await keys(pilot, "r")  # the Fate demo, open in this dashboard
        await write(pilot, "Dresden")
        await keys(pilot, "enter")
        assert names(app) == ["Dresden", "FORGE demo", "HeroQuest demo"]
        assert app.sub_title == "Dresden · fate"
        await keys(pilot, "enter")  # back to it
        assert "Dresden" in text(app, "#scoreboard")
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        assert "Exchange 1" in text(app, "#log")
    saved = CampaignFiles(saves / "fate-demo")
    assert saved.meta()["name"] == "Dresden"
    assert saved.meta()["entries"] == 4  # the 3 of the demo and the exchange


async def test_an_archived_campaign_leaves_the_list_but_not_the_disk(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_campaigns(pilot)
        await keys(pilot, "down", "a")  # the FORGE demo
        assert names(app) == ["Fate demo", "HeroQuest demo"]
        assert "1 archived (A shows them)" in text(app, "#title")
        assert CampaignFiles(saves / "forge-demo").load().entries == 3

        await keys(pilot, "A")
        assert listed(app)[1] == "FORGE demo  [dim]FORGE · 3 actions · archived[/]"
        assert "archived ones shown (A hides them)" in text(app, "#title")
        await keys(pilot, "up", "a")  # from the HeroQuest demo, up to the FORGE demo
        await keys(pilot, "A")
        assert names(app) == ["Fate demo", "FORGE demo", "HeroQuest demo"]
        assert "archived" not in text(app, "#title")
    assert CampaignFiles(saves / "forge-demo").meta()["archived"] is False


async def test_delete_asks_escape_keeps_and_the_typed_name_deletes_keeping_a_backup(
    saves: Path,
) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_campaigns(pilot)
        log = list(CampaignFiles(saves / "heroquest-demo").raw_entries())
        await keys(pilot, "down", "down", "d")  # the HeroQuest demo
        assert isinstance(app.screen, ConfirmDeleteScreen)
        await keys(pilot, "escape")
        assert names(app) == ["Fate demo", "FORGE demo", "HeroQuest demo"]

        await keys(pilot, "d")
        await write(pilot, "HeroQuest")  # not quite its name
        await keys(pilot, "enter")
        assert isinstance(app.screen, ConfirmDeleteScreen)
        assert "nothing is deleted" in text(app, "#e-name")
        await keys(pilot, "escape")
        assert (saves / "heroquest-demo" / "manifest.json").is_file()
        assert list_backups(saves, "heroquest-demo") == []  # never opened: none yet

        await keys(pilot, "d")
        await write(pilot, "HeroQuest demo")
        await keys(pilot, "enter")
        assert isinstance(app.screen, CampaignScreen)
        assert names(app) == ["Fate demo", "FORGE demo"]
        [kept] = list_backups(saves, "heroquest-demo")
        command = f"tussle restore heroquest-demo --backup {kept.stamp}"
        assert any(m.endswith(f"to get it back: {command}") for m in toasts(app))
    assert not (saves / "heroquest-demo").exists()
    # What the message says brings it back as it was.
    assert main(["--saves", str(saves), *command.split()[1:]]) == 0
    back = Saves(saves).find("HeroQuest demo")
    assert back is not None
    assert list(back.raw_entries()) == log


async def test_the_campaign_open_here_is_not_deleted(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_campaigns(pilot)
        await keys(pilot, "d")  # the Fate demo, open in this dashboard
        assert isinstance(app.screen, CampaignScreen)  # not even asked
        assert any("open in this dashboard" in m for m in toasts(app))
        assert names(app) == ["Fate demo", "FORGE demo", "HeroQuest demo"]
    assert CampaignFiles(saves / "fate-demo").load().entries == 3


async def test_a_damaged_campaign_can_be_highlighted_told_about_and_deleted(saves: Path) -> None:
    """A damaged save was listed but could not be highlighted, so neither deleted nor
    archived from the screen: the GM was left with a row they could do nothing about."""
    create_demos(Saves(saves))  # as the app's first start would
    (saves / "forge-demo" / "manifest.json").write_text("garbage{")
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_campaigns(pilot)
        assert listed(app)[1].startswith("⚠ forge-demo: damaged")
        await keys(pilot, "down", "enter")  # onto it: Enter says why and what to do
        assert isinstance(app.screen, CampaignScreen)
        [told] = [m for m in toasts(app) if "forge-demo cannot be opened" in m]
        assert "tussle check forge-demo" in told
        assert "tussle restore forge-demo" in told
        await keys(pilot, "d")
        assert isinstance(app.screen, ConfirmDeleteScreen)
        await write(pilot, "forge-demo")  # a damaged save goes by its folder's name
        await keys(pilot, "enter")
        assert isinstance(app.screen, CampaignScreen)
        assert names(app) == ["Fate demo", "HeroQuest demo"]
    assert not (saves / "forge-demo").exists()
    [kept] = list_backups(saves, "forge-demo")
    assert (kept.folder / "manifest.json").read_text() == "garbage{"
