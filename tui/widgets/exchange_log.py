"""The exchange log: every exchange as people read it, fast with thousands.

A ``Log`` (plain lines, cheap to append) showing the tail; earlier exchanges come back a
page at a time on request, so a campaign of 10,000 exchanges opens as fast as one of 10.
"""

from __future__ import annotations

from textual.widgets import Log

PAGE = 200  # exchanges shown at first, and added per "earlier" request


class ExchangeLog(Log):
    """Lines set from above: :meth:`show` for a whole contest, :meth:`add` per exchange."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(highlight=False, auto_scroll=True, **kwargs)  # type: ignore[arg-type]
        self.hidden = 0

    def show(self, lines: list[str], hidden: int) -> None:
        """Replace the log: ``lines`` for the exchanges shown, ``hidden`` earlier ones."""
        self.hidden = hidden
        self.clear()
        if hidden:
            self.write_line(f"… {hidden:,} earlier exchanges (press b to show more)")
        self.write_lines(lines)

    def add(self, lines: list[str]) -> None:
        self.write_lines(lines)
