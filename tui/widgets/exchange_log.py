"""The exchange log: every exchange as people read it, fast with thousands.

A ``Log`` (plain lines, cheap to append) showing the tail; earlier exchanges come back a
page at a time on request, so a campaign of 10,000 exchanges opens as fast as one of 10.
Lines wider than the pane wrap under their own indent instead of running off the edge.
"""

from __future__ import annotations

import textwrap

from textual.events import Resize
from textual.widgets import Log

from core.text import visible
from tui.widgets.panes import out_of_sight

PAGE = 200  # exchanges shown at first, and added per "earlier" request


def wrap(line: str, width: int) -> list[str]:
    """``line`` cut to ``width`` at spaces, continuations indented two more."""
    if width < 12 or len(line) <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=True)


class ExchangeLog(Log):
    """Lines set from above: :meth:`show` for a whole contest, :meth:`add` per exchange."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(highlight=False, auto_scroll=True, id=id)
        self.hidden = 0
        self.raw: list[str] = []
        self._pane_width = 0  # not Log._width: that is the longest line, Log's own

    def _wrapped(self, lines: list[str]) -> list[str]:
        width = self.scrollable_content_region.width - 1
        # Plain lines (a Log reads no markup), but names in them are data: a control
        # character is written out, never sent to the terminal.
        return [part for line in lines for part in wrap(visible(line), width)]

    def show(self, lines: list[str], hidden: int) -> None:
        """Replace the log: ``lines`` for the exchanges shown, ``hidden`` earlier ones."""
        self.hidden = hidden
        head = [f"… {hidden:,} earlier exchanges (press b to show more)"] if hidden else []
        self.raw = head + lines
        self.clear()
        self.write_lines(self._wrapped(self.raw))
        self._to_end()

    def add(self, lines: list[str]) -> None:
        """A new exchange: always brought into view (the Log alone only follows when it
        was at its end, which a pane shrinking under it, as the keypad grows, undoes)."""
        self.raw.extend(lines)
        self.write_lines(self._wrapped(lines))
        self._to_end()

    def _to_end(self) -> None:
        # Log.write_lines follows only when the view was at its end already.
        self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.call_after_refresh(self.scroll_end, animate=False, x_axis=False)
        self.call_after_refresh(self.mark)

    def mark(self) -> None:
        """The border's subtitle: lines scrolled out of sight, and the keys to them."""
        seen = self.scrollable_content_region.height
        above = round(self.scroll_y)
        below = max(0, self.virtual_size.height - above - seen)
        self.border_subtitle = out_of_sight(above, below, down="PgDn", up="PgUp")

    def page(self, step: int) -> None:
        """A page toward the newest lines (``step`` 1) or the oldest (-1)."""
        height = max(1, self.scrollable_content_region.height - 1)
        self.scroll_to(y=self.scroll_y + step * height, animate=False, immediate=True)
        self.mark()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.mark()

    def on_resize(self, event: Resize) -> None:
        if event.size.width != self._pane_width:
            self._pane_width = event.size.width
            self.clear()
            self.write_lines(self._wrapped(self.raw))
        self._to_end()  # taller, shorter or rewrapped: the newest lines stay in view
        self.call_after_refresh(self.mark)
