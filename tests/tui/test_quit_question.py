"""q with work on the keypad asks first, listing that work in the keypad's own words: the
lines the keypad shows as Textual markup are shown as text, not parsed as Rich markup
(which turns ``:fire:`` into an emoji, prints ``[$accent]`` as it is, and refuses a
``[/]`` that closes a Textual tag)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tui.systems.fate as fate_view
from core.model import Command
from core.systems.fate.events import DeclareAttack
from tests.tui.conftest import keys, new_app, settle, text, write
from tests.tui.screen_text import screen_text
from tui.app import TussleApp
from tui.screens.confirm import ConfirmScreen


def question(app: TussleApp) -> str:
    """The quit question as drawn on the screen (80x24), its lines joined."""
    assert isinstance(app.screen, ConfirmScreen), app.screen
    return "\n".join(screen_text(app))


async def test_an_aspect_named_with_colons_is_listed_as_typed(saves: Path) -> None:
    # Cynere rolls 0000; she creates "Ring of :fire:" (+3 against +1) on the keypad.
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "0", "0", "0", "0", "a", "tab")
        await write(pilot, "Ring of :fire:")
        await keys(pilot, "tab", "tab", "3", "tab", "1", "enter")
        line = "Advantage: Cynere creates Ring of :fire: (+3 vs +1)"
        assert line in text(app, "#keypad")
        await keys(pilot, "q")
        shown = question(app)
        assert "Cynere rolled 0000" in shown
        assert line in shown
        assert "🔥" not in shown


async def test_a_keypad_line_in_the_dashboards_markup_is_listed_as_text(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A rule system's dashboard describes what waits on the keypad in Textual markup,
    # theme colours and all (as it colours the scoreboard): an attack, here.
    def described(command: Command) -> str | None:
        if isinstance(command, DeclareAttack):
            return f"[b $text-error]Attack[/] by [$accent]{command.by}[/]: a conflict"
        return None

    monkeypatch.setattr(fate_view.FateView, "describe_extra", staticmethod(described))
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "0", "0", "0", "0", "k", "enter")  # k: Cynere attacks
        assert "Attack by Cynere: a conflict" in text(app, "#keypad")
        await keys(pilot, "q")
        shown = question(app)
        assert "The race across the mud: Attack by Cynere: a conflict" in shown
        listed = [line for line in shown.splitlines() if "The race across the mud:" in line]
        assert len(listed) == 2  # the dice, the attack
        assert not any("[" in line for line in listed), listed  # no tag shown as text
        await keys(pilot, "escape")  # stay: all kept
        assert "Attack by Cynere: a conflict" in text(app, "#keypad")
