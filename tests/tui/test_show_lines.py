"""show_lines: a Static as tall as its lines, redrawn in place when its height stays.

It skips Textual's layout when the new lines take as many rows as the old ones; these
tests check that the widget still grows and shrinks with its lines (more lines, a line
that wraps), and that text changed at the same height is what shows."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Static

from tui.widgets.lines import Hanging, show_lines


class Lines(App[None]):
    CSS = "Static { height: auto; width: 30; }"

    def compose(self) -> ComposeResult:
        yield Static(id="lines")


async def shown_after(pilot: Pilot[None], lines: list[str]) -> tuple[int, str]:
    widget = pilot.app.query_one("#lines", Static)
    show_lines(widget, lines)
    await pilot.pause()
    return widget.size.height, str(widget.visual)


async def test_the_widget_follows_its_lines_in_height_and_text() -> None:
    app = Lines()
    async with app.run_test(size=(40, 20)) as pilot:
        assert await shown_after(pilot, ["one", "two"]) == (2, "one\ntwo")
        # Same height, other text: drawn in place, and it is the new text that shows.
        assert await shown_after(pilot, ["uno", "dos"]) == (2, "uno\ndos")
        # A line more: taller.
        assert await shown_after(pilot, ["uno", "dos", "tres"]) == (3, "uno\ndos\ntres")
        # As many lines, one of them wider than the widget's 30 columns:
        # it wraps onto a second row, so the widget is taller though the count is not.
        long = "a line of words much wider than thirty columns"
        height, text = await shown_after(pilot, ["uno", "dos", long])
        assert height == 4
        assert text == f"uno\ndos\n{long}"
        # Fewer: shorter again.
        assert await shown_after(pilot, ["solo"]) == (1, "solo")
        # The same lines again change nothing.
        assert await shown_after(pilot, ["solo"]) == (1, "solo")


async def test_a_style_change_alone_is_drawn() -> None:
    """Same words, other markup: not taken for the lines already shown."""
    app = Lines()
    async with app.run_test(size=(40, 20)) as pilot:
        widget = app.query_one("#lines", Static)
        show_lines(widget, ["[b]Ana[/b] 2"])
        await pilot.pause()
        show_lines(widget, ["Ana 2"])
        await pilot.pause()
        visual = widget.visual
        assert isinstance(visual, Hanging)
        assert [line.spans for line in visual.lines] == [[]]  # the bold is gone
