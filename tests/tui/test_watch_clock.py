"""The players' view's "updated" clock moves only when what the players see changes
(issue 30, item 15): it moved with every action the GM took inside a secret contest,
telling the table that something was going on, and when."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from core.campaign.log import Play
from core.saves.store import CampaignFiles, Saves
from tests.helpers import EXCHANGES, HIDE_ALL, HIDE_SLY, knife_fight
from tui.watch import WatchApp

BEFORE = "12:34:56"  # a time no clock shows now: what the status said before


def status(app: WatchApp) -> str:
    return str(app.query_one("#status").visual)


async def poll(pilot: Pilot[None], app: WatchApp) -> None:
    app.poll()
    await pilot.pause()


def saved(saves: Path, *secrets: object) -> CampaignFiles:
    campaign, entries = knife_fight(*secrets)  # type: ignore[arg-type]
    files = Saves(saves).create(campaign.name, campaign.system)
    files.append(entries)
    return files


def play_exchange(files: CampaignFiles, n: int) -> None:
    campaign = CampaignFiles(files.folder).load()
    files.append([campaign.decide(Play(contest_id="c1", commands=EXCHANGES[n]))])


async def test_the_clock_stands_still_while_the_gm_plays_a_secret_contest(saves: Path) -> None:
    files = saved(saves, HIDE_ALL)
    app = WatchApp(files.folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await poll(pilot, app)
        assert "The GM keeps this contest secret" in str(app.query_one("#last").visual)
        app.updated = BEFORE  # as if the view had been painted at 12:34:56
        app.paint()
        for n in range(2):  # two exchanges in the secret contest
            play_exchange(files, n)
            await poll(pilot, app)
            assert f"updated {BEFORE}" in status(app)


async def test_the_clock_moves_when_the_players_see_something_new(saves: Path) -> None:
    files = saved(saves, HIDE_SLY)  # only Sly's numbers hidden: the exchanges show
    app = WatchApp(files.folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await poll(pilot, app)
        app.updated = BEFORE
        app.paint()
        play_exchange(files, 0)
        await poll(pilot, app)
        assert "Exchange 1" in str(app.query_one("#last").visual)
        assert "updated " in status(app) and f"updated {BEFORE}" not in status(app)
