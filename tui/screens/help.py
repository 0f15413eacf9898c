"""Every key of the screen underneath, with what it does."""

from __future__ import annotations

import re
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from core.dice import DiceKind
from tui.widgets.key_part import allowed, screen_keys
from tui.widgets.keybar import keys_of, pretty_key
from tui.widgets.keypad import RollKeypad
from tui.widgets.lines import Hanging, e
from tui.widgets.panes import TellingScroll

KEY_WIDTH = 16  # the keys' column; a description wraps under itself, past it

# The keypad's keys, by their bindings' ids (``<id>``: its keys now, remapped or not).
FATE_DICE_KEYS = (
    "<keypad.plus> or <keypad.equals>, <keypad.minus>, <keypad.digit_0>",
    "Fate dice, one key per die (the keypad moves on after four)",
)
KEYPAD_KEYS = [
    ("<keypad.next>", "next roller   (<keypad.previous>: previous)"),
    ("<keypad.erase>", "take back the last die typed"),
    (
        "<keypad.roll>",
        "Tussle rolls for the current roller   (<keypad.roll_all>: for everyone left)",
    ),
]
CLEAR_KEY = ("<keypad.clear>", "clear the keypad (while correcting: leave the exchange as it was)")


def commit_key(asks: str) -> tuple[str, str]:
    """Enter on the keypad, and what the rules ask before it commits (``asks``)."""
    first = f" ({asks})" if asks else ""
    return "<keypad.commit>", f"commit the exchange{first}; when over: summary"


def dice_keys(dice: DiceKind) -> tuple[str, str]:
    """How the contest's dice are typed: the keys and what they do."""
    if dice.fudge:
        return FATE_DICE_KEYS
    face = f"a {dice.value} face (moves on when no other digit could follow)"
    if dice.high == 100:
        face += "; tens then units: 0 5 is 5, 0 0 is 100"
    return "<digits>", face


def shown(binding: Binding, app: App[Any]) -> str:
    """``binding``'s keys now (the GM's, from the settings file, or its own), as read."""
    return " / ".join(pretty_key(k) for k in keys_of(binding, app))


def with_keys(text: str, app: App[Any]) -> str:
    """``text`` with each ``<id>`` of a keypad binding replaced by its keys now."""
    keypad = {b.id: b for b in RollKeypad.BINDINGS if isinstance(b, Binding)}
    digits = [shown(keypad[f"keypad.digit_{d}"], app) for d in "0123456789"]
    named = {"digits": "digits" if digits == list("0123456789") else " ".join(digits)}

    def keys(match: re.Match[str]) -> str:
        name = match.group(1)
        return named[name] if name in named else shown(keypad[name], app)

    return re.sub(r"<([a-z_.0-9]+)>", keys, text)


def entry(keys: str, what: str) -> str:
    """One line of help: the keys in their column, then what they do."""
    return f"  [b]{e(keys)}[/b]{' ' * max(1, KEY_WIDTH + 1 - len(keys))}{e(what)}"


class HelpScreen(ModalScreen[None]):
    """Lists the keypad's keys and the bindings of the screen it was opened from."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close", id="help.close")]

    def __init__(self, under: Screen[Any], dice: DiceKind | None = None, asks: str = "") -> None:
        """Help for ``under``; with ``dice`` (a contest's), the keypad's keys first, and
        what Enter ``asks`` first in this contest's rules."""
        super().__init__()
        self.under = under
        self.dice = dice
        self.asks = asks

    def compose(self) -> ComposeResult:
        app = self.app
        lines = ["[b]Keys[/b]", ""]
        if self.dice is not None:  # the contest screen
            lines.append("[b]Roll keypad[/b]")
            keypad = [dice_keys(self.dice), *KEYPAD_KEYS, commit_key(self.asks), CLEAR_KEY]
            lines.extend(entry(with_keys(k, app), with_keys(w, app)) for k, w in keypad)
            lines.append("")
        lines.append("[b]This screen[/b]")
        for binding in screen_keys(self.under):  # its own, and a rule system's among them
            if not allowed(self.under, binding):
                continue
            lines.append(entry(shown(binding, app), binding.description))
        lines += ["", entry("ctrl+p", "every action, by name (command palette)")]
        close = next(b for b in self.BINDINGS if isinstance(b, Binding))
        first = e(pretty_key(keys_of(close, app)[0]))
        lines += ["", f"[dim]{first} closes this help.[/dim]"]
        with TellingScroll(id="help-body") as body:
            body.border_title = "Help"
            yield Static(Hanging(lines, more=KEY_WIDTH + 1))

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
