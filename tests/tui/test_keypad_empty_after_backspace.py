"""The keypad is empty once the dice typed are taken back: one question (Draft.empty)
every key that cares asks. FORGE's e ends the contest now on an empty keypad (with
something on it, it marks the end for after the stage); Esc on an empty keypad says
there is nothing to clear."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import keys, new_app, settle
from tui.screens.contest import ContestScreen


async def test_dice_typed_and_taken_back_leave_forge_s_e_ending_the_contest_now(
    saves: Path,
) -> None:
    """A 3 typed for Josef, then Backspace: the keypad is empty again, so e ends the
    contest now (with something on the keypad it would only mark the end for after
    the stage)."""
    app = new_app(saves, "FORGE demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        await keys(pilot, "3", "backspace", "e")
        await settle(pilot)
        assert screen.record.state.finished
        assert not screen.draft.end_after


async def test_dice_typed_and_taken_back_leave_esc_nothing_to_clear(saves: Path) -> None:
    app = new_app(saves, "FORGE demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "3", "backspace", "escape")
        assert any(n.title == "Nothing to clear" for n in app.told), [n.title for n in app.told]
