"""A second dashboard, read-only on a campaign another Tussle holds, follows what that
Tussle saves: exchanges, undo, a new contest (issue 11, defect 10)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from core.campaign.actions import Campaign
from core.campaign.log import Play, StartContest, Undo
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.cli.demo import create_demos
from core.model import Command, ResolveExchange, RollDice
from core.saves.store import CampaignFiles, Saves
from tests.tui.conftest import keys, new_app, settle, text
from tui.app import TussleApp
from tui.screens.contest import ContestScreen


async def until(pilot: Pilot[None], shown: Callable[[], bool], seconds: float = 60.0) -> None:
    """Wait (generously) for the screen to show something; fail if it never does. How
    soon it shows is ``tussle bench watch``'s to measure, not a test's."""
    deadline = time.monotonic() + seconds
    while not shown():
        assert time.monotonic() < deadline, "the read-only dashboard never showed it"
        await asyncio.sleep(0.05)
        await pilot.pause()


def exchange(cynere: tuple[int, ...], teran: tuple[int, ...]) -> Play:
    return Play(
        contest_id="c1",
        commands=(
            RollDice(who="Cynere", faces=cynere),
            RollDice(who="Teran the Swift", faces=teran),
            ResolveExchange(),
        ),
    )


class Writer:
    """The GM's Tussle, in this process: it holds the lock and saves GM actions."""

    def __init__(self, folder: Path) -> None:
        self.files = CampaignFiles(folder)
        self.files.lock.acquire("Fate demo")
        self.campaign: Campaign = self.files.load()

    def does(self, *commands: Command) -> None:
        self.files.append([self.campaign.act(c) for c in commands])

    def close(self) -> None:
        self.files.lock.release()


def scoreboard(app: TussleApp) -> str:
    return " ".join(text(app, "#scoreboard").split())  # however the columns are spaced


async def test_a_read_only_dashboard_follows_the_gm(saves: Path) -> None:
    create_demos(Saves(saves))
    gm = Writer(saves / "fate-demo")
    try:
        app = new_app(saves, "Fate demo")
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await keys(pilot, "enter")  # the lock is taken: "Open it read-only"
            assert app.read_only
            assert "READ-ONLY" in scoreboard(app)
            assert "Exchange 1" not in text(app, "#log")

            # 1: ---0 (+1) against 0000 (+3): Teran wins a victory.
            # 2: +000 (+5) against -000 (+2): Cynere, with style, two victories.
            gm.does(exchange((-1, -1, -1, 0), (0, 0, 0, 0)))
            gm.does(exchange((1, 0, 0, 0), (-1, 0, 0, 0)))
            await until(pilot, lambda: "Exchange 2" in text(app, "#log"))
            log = text(app, "#log")
            assert "Exchange 1: Teran the Swift wins, 1 victory (0–1)" in log
            assert "Exchange 2: Cynere wins with style, 2 victories (2–1)" in log
            assert "Exchange 3" in scoreboard(app)
            assert "Cynere ●●○ 2" in scoreboard(app)

            # The GM takes exchange 2 back: it leaves the read-only log too.
            gm.does(Undo())
            await until(pilot, lambda: "Exchange 2" not in text(app, "#log"))
            assert "Exchange 1: Teran the Swift wins" in text(app, "#log")
            assert "Cynere ○○○ 0" in scoreboard(app)

            # The GM plays on to the end: 3 victories for Cynere (with style twice).
            gm.does(exchange((1, 1, 0, 0), (-1, -1, 0, 0)))
            gm.does(exchange((1, 1, 0, 0), (-1, -1, 0, 0)))
            await until(pilot, lambda: "Cynere wins" in scoreboard(app))

            # A new contest: the read-only dashboard moves to it.
            picks = [
                Pick(character="Cynere", side="Cynere", rating="Athletics"),
                Pick(character="Teran the Swift", side="Teran the Swift", rating="Lore"),
            ]
            contest = build_contest("fate", gm.campaign.roster, picks, {})
            gm.does(StartContest(title="The rematch", contest=contest))
            await until(pilot, lambda: "The rematch" in scoreboard(app))
            screen = app.screen
            assert isinstance(screen, ContestScreen) and screen.contest_id != "c1"
            assert "READ-ONLY" in scoreboard(app)
            assert "Exchange 1" not in text(app, "#log")
    finally:
        gm.close()
