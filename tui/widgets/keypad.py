"""The roll keypad: dice typed from the table, the running totals, then commit.

It shows what the contest screen gives it (rows, extras, a verdict) and turns keys into
small messages; it never decides anything itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.events import Key
from textual.message import Message
from textual.widgets import Static

from core.text import visible
from tui.widgets.lines import Hanging, e


@dataclass(frozen=True)
class KeypadRow:
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

    class Typed(Message):
        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    class Erase(Message):
        pass

    class Move(Message):
        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    class RollRequested(Message):
        def __init__(self, everyone: bool) -> None:
            super().__init__()
            self.everyone = everyone

    class CommitRequested(Message):
        pass

    class ClearRequested(Message):
        pass

    KEYS = {
        "backspace": Erase,
        "enter": CommitRequested,
        "escape": ClearRequested,
    }

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
        self.update(Hanging(lines))

    def on_key(self, event: Key) -> None:
        message: Message | None = None
        char = event.character or ""
        if event.key in self.KEYS:
            message = self.KEYS[event.key]()
        elif event.key in ("tab", "right", "down"):
            message = self.Move(1)
        elif event.key in ("shift+tab", "left", "up"):
            message = self.Move(-1)
        elif char and char in "+=-0123456789":
            message = self.Typed(char)
        elif char == "r":
            message = self.RollRequested(False)
        elif char == "R":
            message = self.RollRequested(True)
        if message is not None:
            event.stop()
            event.prevent_default()
            self.post_message(message)
