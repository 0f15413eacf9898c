"""FORGE's keypad: a dying participant is offered no dice, nor as actor or reactor in
the roles form, and the keypad says why where their dice would be (issue 24's leftovers).

Rules §3.4 ([I15]): at Current Trauma 0 or below a character is dying, out of the
contest, no actions; a dying reactor cannot dodge, the armor absorbs what it can.
Damage by hand: tens digit of the attack roll × the weapon's multiplier."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import forge_alley, keys, settle, text
from tui.app import TussleApp
from tui.screens.contest import ContestScreen
from tui.systems.forge import VIEW


def screen_of(app: TussleApp) -> ContestScreen:
    assert isinstance(app.screen, ContestScreen)
    return app.screen


async def test_a_dying_reactor_is_offered_no_dice_and_the_keypad_says_why(saves: Path) -> None:
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Stage 1: Josef 45 <= 50 throws 4 x 4 = 16; Bobby's dodge 55 > 40 fails: 16
        # trauma, Current Trauma 15 - 16 = -1: Bobby is dying.
        await keys(pilot, "4", "5", "5", "5", "enter")
        assert "Bobby is dying (current trauma -1)" in text(app, "#log")
        keypad = text(app, "#keypad")
        assert "reacts" not in keypad, keypad  # Bobby is not offered as the reactor
        assert "Bobby" in keypad and "dying" in keypad, keypad  # where his dice would be
        assert "Bobby · reacts" not in text(app, "#participants")
        assert "Reaction: absorb (the reactor is dying: no dodge)" in text(app, "#aspects")
        # The scoreboard's odds (Josef's stage for sure: 100%, Bobby's none) name no
        # dying reactor either.
        cells, _ = VIEW.odds_cells(
            {"actor": {"name": "Josef", "win": 1.0}, "reactor": {"name": "Bobby", "win": 0.0}},
            {},
            screen_of(app).state,
        )
        assert cells["Bobby"].split()[-1] == "dying", cells
        assert cells["Josef"].split()[-1] == "acts", cells
        # Josef's 45 leaves the cursor on Josef: nobody else takes dice. A dying Bobby
        # cannot dodge: no armor, all 16 is trauma, and nobody is asked to roll.
        await keys(pilot, "4", "5")
        screen = screen_of(app)
        assert screen.keypad.current() == "Josef"
        keypad = text(app, "#keypad")
        assert "Bobby to roll" not in keypad, keypad
        assert "Josef would win the stage, 16 damage" in keypad, keypad
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "Stage 2: Josef wins the stage (2–0)" in log, log
        assert "Bobby is dying (current trauma -17)" in log, log


async def test_roles_offer_no_dying_participant(saves: Path) -> None:
    from tui.screens.forms import FormScreen

    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "4", "5", "5", "5", "enter")  # Bobby dying, as above
        await keys(pilot, "o")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert "Bobby dying: out of the contest" in form.form_title, form.form_title
