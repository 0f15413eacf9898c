"""Every key of the screen underneath, with what it does."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from tui.widgets.keybar import pretty_key
from tui.widgets.keypad import RollKeypad
from tui.widgets.lines import Hanging, e
from tui.widgets.panes import TellingScroll

KEY_WIDTH = 16  # the keys' column; a description wraps under itself, past it

DICE_KEYS = [
    ("+ or =, -, 0", "Fate dice, one key per die (the keypad moves on after four)"),
    ("digits", "a d20 or d100 face (moves on when no other digit could follow)"),
    ("Tab / → / ↓", "next roller   (Shift+Tab / ← / ↑: previous)"),
    ("Backspace", "take back the last die typed"),
    ("r", "Tussle rolls for the current roller   (R: for everyone left)"),
    ("Enter", "commit the exchange (a tie asks for the twist's name); when over: summary"),
    ("Esc", "clear the keypad (while correcting: leave the exchange as it was)"),
]


def entry(keys: str, what: str) -> str:
    """One line of help: the keys in their column, then what they do."""
    return f"  [b]{e(keys)}[/b]{' ' * max(1, KEY_WIDTH + 1 - len(keys))}{e(what)}"


class HelpScreen(ModalScreen[None]):
    """Lists the keypad's keys and the bindings of the screen it was opened from."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close", id="help.close")]

    def __init__(self, under: Screen[Any]) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        lines = ["[b]Keys[/b]", ""]
        if self.under.query(RollKeypad):  # the contest screen
            lines.append("[b]Roll keypad[/b]")
            lines.extend(entry(k, what) for k, what in DICE_KEYS)
            lines.append("")
        lines.append("[b]This screen[/b]")
        for binding in self.under.BINDINGS:
            if not isinstance(binding, Binding):
                continue
            if self.under.check_action(binding.action, ()) is False:
                continue
            keys = " / ".join(pretty_key(k) for k in binding.key.split(","))
            lines.append(entry(keys, binding.description))
        lines += ["", entry("ctrl+p", "every action, by name (command palette)")]
        lines += ["", "[dim]Esc closes this help.[/dim]"]
        with TellingScroll(id="help-body") as body:
            body.border_title = "Help"
            yield Static(Hanging(lines, more=KEY_WIDTH + 1))

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
