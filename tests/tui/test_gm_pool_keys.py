"""The GM's pool and the invoke form, by key presses on the Fate demo (issue 11: defect 5
and the invoke form of defect 12).

The demo: Cynere (a PC, Athletics +4, 3 fate points) against Teran the Swift (an NPC, Lore
+3, no fate points), aspects Muddy Ground and Cynere's I've Got Zird's Back. One PC in the
scene: the GM's pool starts at 1 (Fate Core, "The GM and fate points").
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from core.campaign.log import Play
from core.systems.fate.events import CreateAdvantage
from tests.tui.conftest import keys, new_app, settle, text
from tui.screens.invoke import InvokeForm
from tui.widgets.choice import Choice

# Cynere 0000 (+4), Teran +000 (+4): a tie unless somebody invokes.
DICE = ("0", "0", "0", "0", "plus", "0", "0", "0")
# The invoke, every choice spelled out: i; by: t(eran); Tab, aspect: m(uddy ground);
# Tab, effect stays +2; Tab, paid with: t(he GM's pool); Enter.
POOL_INVOKE = ("i", "t", "tab", "m", "tab", "tab", "t", "enter")


async def test_teran_invokes_paid_from_the_gm_pool(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "GM pool: 1 fate point" in text(app, "#participants")
        assert "Teran the Swift  FP 0" in text(app, "#participants")
        await keys(pilot, *DICE, *POOL_INVOKE)
        keypad = text(app, "#keypad")
        assert "Invoke: Teran the Swift · Muddy Ground (GM's pool) +2" in keypad
        assert "Fantastic (+6)" in keypad  # Good (+3), +1 on the dice, +2
        await keys(pilot, "enter")
        log = text(app, "#log")
        # +6 against +4: Teran wins by 2, one victory.
        assert "Exchange 1: Teran the Swift wins, 1 victory (0–1)" in log
        assert "invokes Muddy Ground (paid from the GM's pool): +2" in log
        assert "GM pool: 0 fate points" in text(app, "#participants")
        assert "Teran the Swift  FP 0" in text(app, "#participants")  # not his to pay


async def test_the_payment_defaults_to_the_pool_for_an_npc_out_of_points(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *DICE, "i", "t", "tab", "m")  # no key on "Paid with"
        form = app.screen
        assert isinstance(form, InvokeForm)
        assert form.query_one("#f-how", Choice).value == "pool"
        await keys(pilot, "shift+tab", "c")  # Cynere is a PC: no pool for her
        how = form.query_one("#f-how", Choice)
        assert [v for _, v in how.options] == ["fate point", "free"]
        assert how.value == "fate point"  # she has 3 points and no free invoke here
        await keys(pilot, "escape")


async def test_the_payment_defaults_to_a_free_invoke_the_side_may_use(saves: Path) -> None:
    # Cynere created "Quick Footwork" with style before the rolls: two free invokes.
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        record = app.campaign.latest_contest
        assert record is not None
        app.send(
            Play(
                contest_id=record.contest_id,
                commands=(
                    CreateAdvantage(by="Cynere", aspect="Quick Footwork", result=6, opposition=3),
                ),
            )
        )
        await settle(pilot)
        await keys(pilot, *DICE, "i", "c", "tab", "q")
        form = app.screen
        assert isinstance(form, InvokeForm)
        assert form.query_one("#f-how", Choice).value == "free"
        await keys(pilot, "shift+tab", "t")  # Teran's side may not use Cynere's free invokes
        assert form.query_one("#f-how", Choice).value == "pool"
        await keys(pilot, "escape")


async def test_a_plain_plus_two_asks_no_dice_and_no_ally(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *DICE, "i")
        form = app.screen
        assert isinstance(form, InvokeForm)

        def shown(key: str) -> bool:
            return bool(form.query_one(f"#f-{key}").display)

        assert shown("by") and shown("aspect") and shown("effect") and shown("how")
        assert not shown("dice") and not shown("ally") and not shown("opposed")
        # No passive opposition in a direct contest: the effect offers none.
        assert "oppose" not in [v for _, v in form.query_one("#f-effect", Choice).options]
        await keys(pilot, "tab", "tab", "r")  # effect: reroll the dice
        assert shown("dice") and not shown("ally")
        await keys(pilot, "left")  # +2 to an ally's roll
        assert form.query_one("#f-effect", Choice).value == "+2"
        await keys(pilot, "right", "right")
        assert form.query_one("#f-effect", Choice).value == "ally"
        assert shown("ally") and not shown("dice")
        assert [v for _, v in form.query_one("#f-ally", Choice).options] == ["Cynere"]
        await keys(pilot, "escape")


async def test_a_bad_reroll_keeps_the_form_open_on_the_dice(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *DICE, "i", "tab", "tab", "r", "tab", "tab")
        form = app.screen
        assert isinstance(form, InvokeForm)
        dice = form.query_one("#f-dice", Input)
        assert dice.has_focus
        await keys(pilot, "x", "enter")
        assert app.screen is form  # still open, on the dice
        assert "Invoke:" not in text(app, "#keypad")
        await keys(pilot, "escape")


async def test_an_empty_pool_refuses_a_second_invoke_and_changes_nothing(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *DICE, *POOL_INVOKE)
        # The one point is spent by the invoke waiting on the keypad; a second one, on
        # Cynere's aspect, finds the pool empty: the form stays open and says so.
        await keys(pilot, "i", "t", "tab", "i", "tab", "tab", "t", "enter")
        form = app.screen
        assert isinstance(form, InvokeForm)
        assert "the GM's fate point pool is empty" in str(form.query_one("#e-how").visual)
        await keys(pilot, "escape")
        assert text(app, "#keypad").count("Invoke:") == 1
        assert "GM pool: 1 fate point" in text(app, "#participants")  # nothing committed
