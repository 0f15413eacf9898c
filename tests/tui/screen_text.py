"""The screen as a person reads it: the characters Textual would draw, line by line.

Read from Textual's public ``App.export_screenshot``: the SVG it renders names each piece
of text with its row (its clip path, ``…-line-N``) and its column (``x``, in cells of
Rich's fixed width), so a test can ask what is visible (not merely what a widget holds)
at 80x24 without reading the screen's private compositor.
"""

from __future__ import annotations

import html
import re

from rich.cells import cell_len
from textual.app import App

# Rich's export_svg: 20 pixels a row's characters, each 0.61 as wide as high.
CELL_WIDTH = 20 * 0.61
TEXT = re.compile(
    r'<text [^>]*?x="(?P<x>[0-9.]+)"[^>]*?clip-path="url\(#[^)]*-line-(?P<row>[0-9]+)\)"'
    r">(?P<text>.*?)</text>",
    re.DOTALL,
)


def frame_lines(app: App[object]) -> list[str]:
    """Each line of the current frame, as drawn, to the screen's width."""
    width, height = app.size
    rows = [""] * height
    for found in TEXT.finditer(app.export_screenshot(simplify=True)):
        row = int(found["row"])
        column = round(float(found["x"]) / CELL_WIDTH)
        text = html.unescape(found["text"]).replace("\xa0", " ")
        line = rows[row]
        rows[row] = line + " " * (column - cell_len(line)) + text
    return [line + " " * (width - cell_len(line)) for line in rows]


def screen_text(app: App[object]) -> list[str]:
    """Each line of the current frame, trailing spaces removed."""
    return [line.rstrip() for line in frame_lines(app)]
