"""The players' view follows the files and survives them going wrong."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot

from core.cli.demo import create_demos
from core.saves.migrate import read_manifest, write_manifest
from core.saves.store import Saves
from tui.watch import WatchApp


def status(app: WatchApp) -> str:
    return str(app.query_one("#status").visual)


def shown(app: WatchApp, selector: str) -> str:
    return str(app.query_one(selector).visual)


async def poll(pilot: Pilot[None], app: WatchApp) -> None:
    app.poll()
    await pilot.pause()
    await app.workers.wait_for_complete()  # the odds, worked out in a thread
    await pilot.pause()


async def test_the_watcher_follows_new_exchanges_and_keeps_the_last_good_state(
    saves: Path,
) -> None:
    create_demos(Saves(saves))
    folder = saves / "fate-demo"
    app = WatchApp(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await poll(pilot, app)
        assert "The race across the mud" in shown(app, "#title")
        assert "No exchange yet" in shown(app, "#last")
        # The GM plays an exchange (another process in real life: here, the same files).
        from core.campaign.log import Play
        from core.model import ResolveExchange, RollDice
        from core.saves.store import CampaignFiles

        files = CampaignFiles(folder)
        campaign = files.load()
        rolls = (
            RollDice(who="Cynere", faces=(-1, -1, -1, 0)),
            RollDice(who="Teran the Swift", faces=(0, 0, 0, 0)),
        )
        entry = campaign.decide(Play(contest_id="c1", commands=(*rolls, ResolveExchange())))
        files.append([entry])
        await poll(pilot, app)
        assert "Exchange 1: Teran the Swift wins" in shown(app, "#last")

        good = (folder / "manifest.json").read_bytes()
        (folder / "manifest.json").write_text('{"_default": {"1": {"app": ')  # corrupt
        await poll(pilot, app)
        assert "cannot read the save" in status(app)
        assert "Exchange 1: Teran the Swift wins" in shown(app, "#last")  # last good state

        (folder / "manifest.json").unlink()  # briefly missing
        await poll(pilot, app)
        assert "missing" in status(app)
        assert "Exchange 1" in shown(app, "#last")

        (folder / "manifest.json").write_bytes(good)  # back again
        await poll(pilot, app)
        assert "following" in status(app)
        assert "Exchange 1" in shown(app, "#last")


async def test_a_replaced_campaign_is_read_again_from_the_start(saves: Path) -> None:
    create_demos(Saves(saves))
    folder = saves / "fate-demo"
    app = WatchApp(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await poll(pilot, app)
        assert "The race across the mud" in shown(app, "#title")
        # Replace the whole campaign with the HeroQuest demo's files (a restore, say: its
        # manifest names this folder, as a backup of this campaign's would).
        shutil.rmtree(folder)
        shutil.copytree(saves / "heroquest-demo", folder)
        write_manifest(folder, {**read_manifest(folder), "slug": folder.name})
        await poll(pilot, app)
        assert "Ghouls in the graveyard" in shown(app, "#title")
        assert app.campaign is not None
        assert app.campaign.system == "heroquest"
        assert list(app.campaign.roster) == ["Tripitaka", "Ghoul", "Sandy"]


async def test_the_players_see_the_odds_only_when_the_gm_allows_it(saves: Path) -> None:
    from core.campaign.log import ChangeSettings
    from core.saves.store import CampaignFiles

    create_demos(Saves(saves))
    folder = saves / "fate-demo"
    app = WatchApp(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await poll(pilot, app)
        await pilot.pause()
        assert all(str(s.visual) == "" for s in app.query(".odds"))
        files = CampaignFiles(folder)
        campaign = files.load()
        files.append([campaign.decide(ChangeSettings(changes={"players_see_odds": True}))])
        await poll(pilot, app)
        await pilot.pause()
        shown = [str(s.visual) for s in app.query(".odds")]
        assert len(shown) == 2 and all("next" in s for s in shown)


async def test_the_view_is_painted_while_its_odds_are_still_being_worked_out(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The odds come from a thread, never from painting (issue 30, item 8): a solve that
    takes long (here: held until the test lets it go) leaves the contest on screen, its
    odds blank until they come."""
    import threading

    import core.odds.report
    from core.campaign.log import ChangeSettings
    from core.saves.store import CampaignFiles

    create_demos(Saves(saves))
    folder = saves / "fate-demo"
    files = CampaignFiles(folder)
    campaign = files.load()
    files.append([campaign.decide(ChangeSettings(changes={"players_see_odds": True}))])
    go_on = threading.Event()
    real = core.odds.report.odds_for

    def slow(*args: object, **kwargs: object) -> object:
        assert go_on.wait(60), "the test never let the odds go"
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(core.odds.report, "odds_for", slow)
    app = WatchApp(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        app.poll()
        await pilot.pause()
        assert "The race across the mud" in shown(app, "#title")
        assert [str(s.visual) for s in app.query(".odds")] == ["", ""]
        go_on.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        odds = [str(s.visual) for s in app.query(".odds")]
        assert len(odds) == 2 and all("next" in s for s in odds)
