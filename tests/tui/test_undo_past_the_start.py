"""u once too often on a contest takes its start back (every GM action is one step of
undo, README "Running an evening"): the GM is back where they were before starting it,
its setup with the same participants and options, and U there starts it again, as U
redoes the last action taken back on every other screen. Played on the Fate demo
(README "The dashboard": Cynere racing Teran the Swift, first to 3)."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import keys, new_app, settle, text
from tui.screens.contest import ContestScreen
from tui.screens.roster import RosterScreen
from tui.screens.setup import SetupScreen


async def test_undoing_a_start_brings_its_setup_back_and_u_redoes_it(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "The race across the mud" in text(app, "#scoreboard")
        await keys(pilot, "u")  # nothing on the keypad, no exchange: the start itself
        await settle(pilot)
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert [p.character for p in setup.picks] == ["Cynere", "Teran the Swift"]
        assert app.campaign.contests == {}
        await keys(pilot, "U")
        await settle(pilot)
        assert isinstance(app.screen, ContestScreen)
        assert "The race across the mud" in text(app, "#scoreboard")
        assert len(app.campaign.contests) == 1


async def test_a_setup_changed_since_keeps_its_own_redo(saves: Path) -> None:
    """Once the GM changed the setup that came back, U is the setup's own again: it
    never throws their change away for the old start."""
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "u")
        await settle(pilot)
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        await keys(pilot, "d", "U")  # Teran out (the highlighted row), then U
        await settle(pilot)
        assert app.screen is setup and len(setup.picks) == 1
        assert app.campaign.contests == {}


async def test_u_on_the_roster_goes_on_past_a_start(saves: Path) -> None:
    """On the roster, u after u takes back one action after another, a contest's start
    among them (the demo's log: Cynere added, Teran added, the race started): the GM
    stays on the roster, and the next u takes Teran back."""
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w")
        await settle(pilot)
        roster = app.screen
        assert isinstance(roster, RosterScreen)
        await keys(pilot, "u")  # the race's start
        await settle(pilot)
        assert app.screen is roster and app.campaign.contests == {}
        await keys(pilot, "u")  # Teran
        await settle(pilot)
        assert app.screen is roster and list(app.campaign.roster) == ["Cynere"]


async def test_the_undone_exchange_comes_back_with_the_start(saves: Path) -> None:
    """u takes back the first exchange (its dice come back on the keypad, README's keys
    table: "u / U"), u again the start (the setup shows), U starts the contest again: the
    keypad holds those dice again, as it did before the second u. Cynere +000 (Great +4
    and +1: Superb +5) against Teran -000 (Good +3 and -1: Fair +2): 3 shifts, with
    style, 2 victories (rules §1.3)."""
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "+", "0", "0", "0", "-", "0", "0", "0", "enter")
        await settle(pilot)
        assert "Exchange 1: Cynere wins with style, 2" in text(app, "#log")
        await keys(pilot, "u")
        await settle(pilot)
        keypad = text(app, "#keypad")
        assert "[+][0][0][0]" in keypad and "[-][0][0][0]" in keypad
        await keys(pilot, "u")
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)
        await keys(pilot, "U")
        await settle(pilot)
        assert isinstance(app.screen, ContestScreen)
        keypad = text(app, "#keypad")
        assert "[+][0][0][0]" in keypad and "[-][0][0][0]" in keypad, keypad
        await keys(pilot, "enter")  # committed again: the same exchange
        await settle(pilot)
        assert "Exchange 1: Cynere wins with style, 2" in text(app, "#log")
