"""The keypad moves on by itself once a roll is complete; a GM's Tab right after it is
that same move, not a second one. Found by playing: in a two-sided HeroQuest contest,
typing 1 4 Tab 9 moved on after 14, then Tab went round to the first roller again, and
the 9 was refused there ("This d20 is typed already (14)"). By key presses only."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import demo_app, keys, settle, text
from tui.app import TussleApp
from tui.screens.contest import ContestScreen

# The HeroQuest demo's keypad: Tripitaka (Sword and Shield) then the Ghoul, a d20 each.
# The Fate demo's: Cynere then Teran the Swift, four Fate dice each.


def keypad_of(app: TussleApp) -> ContestScreen:
    screen = app.screen
    assert isinstance(screen, ContestScreen)
    return screen


def refusals(app: TussleApp) -> list[str]:
    return [str(n.message) for n in app.told if n.severity == "error"]


async def test_a_tab_after_a_complete_d20_is_the_move_already_made(saves: Path) -> None:
    app = demo_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "1", "4", "tab", "9")
        assert keypad_of(app).draft.typed == {"Tripitaka": "14", "Ghoul": "9"}
        assert refusals(app) == []
        assert "Ghoul has not rolled yet" not in text(app, "#keypad")


async def test_a_second_tab_moves_on_as_ever(saves: Path) -> None:
    app = demo_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "1", "4", "tab", "tab")  # taken, then round to Tripitaka
        assert keypad_of(app).draft.cursor == 0
        assert "▶ Tripitaka" in text(app, "#keypad")


async def test_a_tab_after_a_roll_that_could_go_on_moves(saves: Path) -> None:
    # "1" could still be 10 to 19: the keypad waits, and Tab is the GM's move to the Ghoul.
    app = demo_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "1", "tab", "9")
        assert keypad_of(app).draft.typed == {"Tripitaka": "1", "Ghoul": "9"}
        assert refusals(app) == []


async def test_fate_dice_then_tab_then_the_other_roll(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "+", "+", "0", "0", "tab", "-", "0", "0", "0")
        assert keypad_of(app).draft.typed == {"Cynere": "++00", "Teran the Swift": "-000"}
        assert refusals(app) == []


async def test_going_back_right_after_the_keypad_moved_on_goes_back(saves: Path) -> None:
    # Only "next" is the move already made; shift+tab (or ←, ↑) goes back to fix a roll,
    # and so does a next key once anything else happened in between (here a Backspace).
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "+", "+", "0", "0", "shift+tab")
        assert keypad_of(app).draft.cursor == 0
        await keys(pilot, "tab", "-", "backspace", "tab")
        assert keypad_of(app).draft.cursor == 0  # moved on, then round: Teran, Cynere
