"""Golden pictures of the dashboard, looked at by a person before they were kept.

Update them with ``pytest tests/tui/test_snapshots.py --snapshot-update`` after a change
to the look, then look at the new SVGs (``snapshot_report.html``) before committing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from core.dice import RandomDice
from tests.helpers import wait_for_odds
from tests.tui.conftest import keys, new_app, settle, write
from tui.app import make_app

SIZES = [(80, 24), (160, 48)]


def after(*presses: str, then: str = "") -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await keys(pilot, *presses)
        if then:
            await write(pilot, then)
            await keys(pilot, "enter")
        await wait_for_odds(pilot)

    return run_before


class TestFateDashboard:
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_after_a_tie_with_dice_on_the_keypad(
        self, snap_compare: Any, saves: Path, size: tuple[int, int]
    ) -> None:
        presses = (
            *("minus", "minus", "minus", "0", "0", "0", "0", "0", "enter"),
            *("plus", "0", "0", "0", "minus", "0", "0", "0", "enter"),
            *("minus", "0", "0", "0", "0", "0", "0", "0", "enter"),
        )
        run = after(*presses, then="Magical Distortions")

        async def and_type(pilot: Pilot[None]) -> None:
            await run(pilot)
            await keys(pilot, "0", "0", "plus")
            await wait_for_odds(pilot)

        assert snap_compare(new_app(saves), terminal_size=size, run_before=and_type)

    def test_at_sixteen_colours(self, snap_compare: Any, saves: Path) -> None:
        app = make_app(saves, dice=RandomDice(7), ansi_color=True)
        presses = ("minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        assert snap_compare(app, terminal_size=(80, 24), run_before=after(*presses))


class TestHeroQuestDashboard:
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_after_one_exchange(
        self, snap_compare: Any, saves: Path, size: tuple[int, int]
    ) -> None:
        app = new_app(saves, "HeroQuest demo")
        assert snap_compare(
            app, terminal_size=size, run_before=after("7", "1", "5", "enter", "1", "2")
        )


class TestForgeDashboard:
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_after_one_stage(self, snap_compare: Any, saves: Path, size: tuple[int, int]) -> None:
        app = new_app(saves, "FORGE demo")
        assert snap_compare(
            app, terminal_size=size, run_before=after("3", "5", "5", "5", "enter", "3", "9")
        )


class TestPlayersView:
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def test_after_two_exchanges(
        self, snap_compare: Any, saves: Path, size: tuple[int, int]
    ) -> None:
        from core.campaign.log import Play
        from core.cli.demo import create_demos
        from core.model import ResolveExchange, RollDice
        from core.saves.store import CampaignFiles, Saves
        from tui.watch import WatchApp

        create_demos(Saves(saves))
        files = CampaignFiles(saves / "fate-demo")
        campaign = files.load()
        for cynere, teran in (((-1, -1, -1, 0), (0, 0, 0, 0)), ((1, 0, 0, 0), (-1, 0, 0, 0))):
            rolls = (
                RollDice(who="Cynere", faces=cynere),
                RollDice(who="Teran the Swift", faces=teran),
            )
            entry = campaign.decide(Play(contest_id="c1", commands=(*rolls, ResolveExchange())))
            files.append([entry])
            campaign.apply(entry)
        app = WatchApp(files.folder)

        async def steady(pilot: Pilot[None]) -> None:
            app.updated = "12:00:00"  # the clock would change the picture every run
            app.paint()
            await pilot.pause()

        assert snap_compare(app, terminal_size=size, run_before=steady)
