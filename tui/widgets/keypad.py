"""The roll keypad: dice typed from the table, the running totals, then commit.

It shows what the contest screen gives it (rows, extras, a verdict) and binds the dice
keys to the screen's actions; it never decides anything itself.
"""

from __future__ import annotations

import msgspec
from textual.binding import Binding
from textual.widgets import Static

from core.text import visible
from tui.widgets.lines import e, show_lines


class KeypadRow(msgspec.Struct, frozen=True):
    """One roller: the name (plain text, escaped here), dice as typed (glyphs or digits)
    and the running total (markup)."""

    who: str
    dice: str
    total: str
    current: bool


class RollKeypad(Static, can_focus=True):
    """Fate dice as ``+``/``=``, ``-``, ``0``; d20 and d100 faces as digits.

    One widget showing its own lines (no inner Static): one widget fewer to compose,
    style and draw before the dashboard's first frame."""

    DEFAULT_CSS = """
    RollKeypad { height: auto; }
    """

    # The keypad's keys are bindings, like the screen's own (m, i, u...): Textual checks
    # every binding when the key reaches the app, one key after the other, so a key typed
    # hard on the heels of another acts after it, never before (a key handled here, on
    # the keypad, would overtake a key bound on the screen that came first: `m r` rolled
    # dice under the modifier form). Their actions run at once, on the screen, which
    # holds the keypad's logic (:class:`tui.keypad.Keypad`: the draft, what each key
    # means); none is shown
    # in the footer (the help lists the dice keys itself).
    BINDINGS = [
        *(
            Binding(
                d, f"screen.keypad_type('{d}')", f"Type {d}", id=f"keypad.digit_{d}", show=False
            )
            for d in "0123456789"
        ),
        Binding("plus", "screen.keypad_type('+')", "Fate die +", id="keypad.plus", show=False),
        Binding(
            "equals_sign",
            "screen.keypad_type('=')",
            "Fate die + (=)",
            id="keypad.equals",
            show=False,
        ),
        Binding("minus", "screen.keypad_type('-')", "Fate die -", id="keypad.minus", show=False),
        Binding(
            "tab,right,down", "screen.keypad_move(1)", "Next roller", id="keypad.next", show=False
        ),
        Binding(
            "shift+tab,left,up",
            "screen.keypad_move(-1)",
            "Previous roller",
            id="keypad.previous",
            show=False,
        ),
        Binding("r", "screen.keypad_roll(False)", "Tussle rolls", id="keypad.roll", show=False),
        Binding(
            "R",
            "screen.keypad_roll(True)",
            "Tussle rolls for all",
            id="keypad.roll_all",
            show=False,
        ),
        Binding(
            "backspace", "screen.keypad_erase", "Take back a die", id="keypad.erase", show=False
        ),
        Binding("enter", "screen.keypad_commit", "Commit", id="keypad.commit", show=False),
        Binding("escape", "screen.keypad_clear", "Clear the keypad", id="keypad.clear", show=False),
    ]

    def show(
        self, rows: list[KeypadRow], extras: list[str], verdict: str, over: bool = False
    ) -> None:
        """Each roller's dice and total, the actions waiting, then a verdict line;
        ``over``: the contest has ended, nobody rolls any more."""
        lines = []
        for row in rows:
            mark = "[b $accent]▶[/]" if row.current else " "
            who = visible(row.who)[:16]  # a name is data: cut as shown, then escaped
            name = e(who) + " " * (16 - len(who))
            lines.append(f"{mark} [b]{name}[/b] {row.dice}  {row.total}")
        if not rows and not over:
            lines.append("  [dim]Nobody to roll yet[/]")
        lines.extend(f"  {x}" for x in extras)
        lines.append(f"  {verdict}" if verdict else "")
        show_lines(self, lines)
