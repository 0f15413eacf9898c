"""Markup lines that wrap under their own indent, never back to column 0.

A pane, the help or the summary is a list of lines, some indented under a heading. A
line wider than its widget wraps, and its continuation is indented two more than the
line itself (a hanging indent), so "  Esc  clear the keypad (while correcting: …)" reads
as one entry however narrow the terminal. Wrapping happens at the width the widget is
drawn at, so a resize rewraps.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.content import Content
from textual.css.styles import RulesMap
from textual.markup import MarkupError
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widgets import Static

from core.text import visible

MORE = 2  # a continuation's indent beyond its line's own


WORD_JOINER = "\u2060"  # zero width: keeps a name's last backslash off the next tag


def e(text: object) -> str:
    """``text`` (a name: data, never markup) shown as it is inside Textual markup.

    Control characters are written out (``\\x1b``: core.text), a line break too: a
    name is one line (escape the lines of a message one by one). Every ``[`` is escaped:
    Textual reads ``[2 `` and ``[$accent]`` as the start of a tag where Rich's ``escape``
    sees none (``Pinned [2`` before ``[dim]…[/]`` raised MarkupError). Textual has no
    escape for a backslash, and one just before a tag (``[b]Teran\\[/b]``) would escape
    the tag: a trailing backslash gets a zero-width word joiner after it.
    """
    shown = visible(str(text)).replace("[", "\\[")
    return shown + WORD_JOINER if shown.endswith("\\") else shown


def data_cell(text: str) -> Text:
    """A DataTable cell showing ``text`` as it is: the table reads a plain ``str`` as
    Rich markup, and a cell holds names."""
    return Text(visible(text), end="")


def to_content(markup: str) -> Content:
    """A markup line as Content. Names reach markup through :func:`e`; should one ever
    slip in unescaped and break the markup, the line shows as plain text (control
    characters written out) rather than stop the dashboard."""
    try:
        return Content.from_markup(markup)
    except MarkupError:
        return Content(visible(markup))


def break_offsets(plain: str, width: int, indent: int) -> list[int]:
    """Where to cut ``plain`` so that its first piece fits ``width`` and each later
    piece, once indented by ``indent``, fits too: at the last space that allows it, or
    mid-word when a word alone is too long."""
    offsets: list[int] = []
    start, limit = 0, width
    while len(plain) - start > limit:
        cut = plain.rfind(" ", start + 1, start + limit + 1)
        if cut <= start:
            cut = start + limit
        offsets.append(cut)
        start = cut
        while start < len(plain) and plain[start] == " ":
            start += 1
        limit = width - indent
    return offsets


def hang(line: Content, width: int, more: int = MORE) -> list[Content]:
    """``line`` cut to ``width``, its continuations indented ``more`` beyond its own
    indent (less when that would leave too little room)."""
    plain = line.plain
    if width < 8 or line.cell_length <= width:
        return [line]
    indent = len(plain) - len(plain.lstrip(" ")) + more
    if indent > width // 2:
        indent = more
    pieces = line.divide(break_offsets(plain, width, indent))
    out = [pieces[0].rstrip()]
    for piece in pieces[1:]:
        text = piece.plain
        skip = len(text) - len(text.lstrip(" "))
        if skip < len(text):
            out.append(Content(" " * indent) + piece[skip:].rstrip())
    return out


class Hanging(Visual):
    """``lines`` (markup or Content), each wrapped with a hanging indent at the width it
    is drawn at. ``str()`` gives the plain lines as written, before wrapping."""

    def __init__(self, lines: Iterable[str | Content], more: int = MORE) -> None:
        self.lines = [x if isinstance(x, Content) else to_content(x) for x in lines]
        self.more = more
        self._wrapped: tuple[int, list[Content]] | None = None

    def __str__(self) -> str:
        return "\n".join(line.plain for line in self.lines)

    def wrapped(self, width: int) -> list[Content]:
        if self._wrapped is None or self._wrapped[0] != width:
            out = [part for line in self.lines for part in hang(line, width, self.more)]
            self._wrapped = (width, out)
        return self._wrapped[1]

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        joined = Content("\n").join(self.wrapped(width))
        return joined.render_strips(width, height, style, options)

    def same_as(self, other: Hanging) -> bool:
        """Whether ``other`` shows the same lines, styles and all."""
        return [(x.plain, x.spans) for x in self.lines] == [(x.plain, x.spans) for x in other.lines]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return max((line.cell_length for line in self.lines), default=0)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self.wrapped(width))


def show_lines(widget: Static, lines: Iterable[str | Content]) -> None:
    """Show ``lines`` in ``widget`` (a Static as tall as its lines) as :class:`Hanging`.

    What already shows is left alone, and lines that take as many rows at the widget's
    width as those they replace are drawn in place: the screen is laid out again only
    when the widget's height may change. (A keypad key updated the keypad and the
    scoreboard, and each update laid the whole screen out: most of what a key cost,
    issue 25.)"""
    new = Hanging(lines)
    old = widget.visual
    width = widget.content_size.width
    if not isinstance(old, Hanging) or width <= 0:
        widget.update(new)
    elif not new.same_as(old):
        widget.update(new, layout=len(new.wrapped(width)) != len(old.wrapped(width)))
