"""Markup lines that wrap under their own indent, never back to column 0.

A pane, the help or the summary is a list of lines, some indented under a heading. A
line wider than its widget wraps, and its continuation is indented two more than the
line itself (a hanging indent), so "  Esc  clear the keypad (while correcting: …)" reads
as one entry however narrow the terminal. Wrapping happens at the width the widget is
drawn at, so a resize rewraps.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

MORE = 2  # a continuation's indent beyond its line's own


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
        self.lines = [x if isinstance(x, Content) else Content.from_markup(x) for x in lines]
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

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return max((line.cell_length for line in self.lines), default=0)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self.wrapped(width))
