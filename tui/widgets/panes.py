"""The scoreboard, participants and aspects panes: text set from above.

A side pane can hold more than an 80x24 terminal leaves it room for (a team of six, a
dozen aspects, a keypad grown by pending actions). It never hides a line silently: its
border's subtitle says how many lines are out of sight (``▼ 2 more · ] scrolls``), and ``]`` /
``[`` on the contest screen scroll it.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.widgets.lines import show_lines


def out_of_sight(above: int, below: int, down: str, up: str) -> str:
    """A pane's subtitle for ``above`` lines scrolled past and ``below`` still to come,
    naming the keys that reach them; "" when everything shows."""
    if above and below:
        return f"▲ {above} ▼ {below} · {up} {down} scroll"
    if below:
        return f"▼ {below} more · {down} scrolls"
    if above:
        return f"▲ {above} above · {up} scrolls"
    return ""


class Scoreboard(Static):
    """Contest, system, exchange number, each side's victories and odds; the winner."""

    def show(self, lines: list[str]) -> None:
        show_lines(self, lines)


class TellingScroll(VerticalScroll):
    """A scrolling box whose border subtitle says what is out of sight, and which keys
    (``KEYS``: down, up) reach it."""

    KEYS = ("PgDn", "PgUp")

    def hidden_lines(self) -> tuple[int, int]:
        """Lines above and below the view."""
        seen = self.scrollable_content_region.height
        total = self.virtual_size.height
        above = round(self.scroll_y)
        return above, max(0, total - above - seen)

    def mark(self) -> None:
        down, up = self.KEYS
        self.border_subtitle = out_of_sight(*self.hidden_lines(), down=down, up=up)

    def page(self, step: int) -> None:
        """Scroll a page down (``step`` 1) or up (-1), a line kept for context."""
        height = max(1, self.scrollable_content_region.height - 1)
        self.scroll_to(y=self.scroll_y + step * height, animate=False, immediate=True)
        self.mark()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.mark()

    def on_resize(self) -> None:
        self.call_after_refresh(self.mark)

    def on_mount(self) -> None:
        self.call_after_refresh(self.mark)


class Pane(TellingScroll, can_focus=False):
    """A bordered pane of markup lines (wrapped under their own indent) that scrolls,
    and says in its subtitle what it cannot show."""

    DEFAULT_CSS = """
    Pane { scrollbar-size-vertical: 1; }
    Pane > Static { width: 1fr; }
    """
    KEYS = ("]", "[")  # the contest screen's keys that scroll the side panes

    def compose(self) -> ComposeResult:
        yield Static()

    def show(self, lines: list[str]) -> None:
        show_lines(self.query_one(Static), lines)
        self.call_after_refresh(self.mark)


class ParticipantsPane(Pane):
    """Sides, members, what they roll, their points and states."""


class AspectsPane(Pane):
    """Situation aspects, twists and boosts with their free invokes and holders."""
