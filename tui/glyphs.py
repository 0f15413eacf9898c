"""What Tussle draws in a terminal that cannot show UTF-8 (``LANG=C``, common over SSH).

Such a terminal (or tmux, for a client it takes as not UTF-8) shows ``_`` or ``?`` for
every character past ASCII: the pips, arrows, dice faces and frames all go. So, when the
locale says the terminal is not UTF-8, every line Textual draws goes through
:data:`ASCII`, one table of what each of those characters becomes: one ASCII character
for one, so nothing moves (``●●○`` is ``**.``, ``→`` is ``>``, a frame's ``╭─╮`` is
``+-+``); a character the table does not name becomes ``?`` (two for a wide one). The
large digits of the players' view get ASCII shapes of their own.

The choke point is public Textual: an app's line filters (``App.get_line_filters``,
which every widget's every line goes through, frames included, after it is rendered and
before it is written). An app that can draw ASCII mixes in :class:`DrawsGlyphs`; nothing
of Textual is patched, so the mode can change while the app runs (a widget refreshed
redraws in the new mode). Textual's own ``NO_COLOR`` and ANSI-colour filters go the same
way; its ``textual.filter`` notes that filters are mostly its own business, so the
snapshots and ``test_in_ascii_every_character_drawn_is_ascii`` would tell if a Textual
stopped asking the app for them. A driver class (the other public choke point) would not
do: the tests' headless driver and screenshots never pass through it, and it sees
characters, not the rows of the large digits.

The choice is made once, at start (:func:`choose`), as tmux makes it for a client: the
first of ``LC_ALL``, ``LC_CTYPE`` and ``LANG`` that is set must name UTF-8.
``TUSSLE_GLYPHS=ascii`` or ``unicode`` overrides it; a browser seat (textual-serve's web
driver) always draws UTF-8.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Literal

from rich.cells import cell_len
from rich.segment import Segment
from textual.app import App
from textual.color import Color
from textual.filter import LineFilter
from textual.renderables.digits import DIGITS, DIGITS3X3, DIGITS3X3_BOLD

Mode = Literal["unicode", "ascii"]
VARIABLE = "TUSSLE_GLYPHS"

# Each character Tussle or Textual draws past ASCII, and what stands for it. Frames and
# lines (U+2500-U+257F) are worked out from their names below.
ASCII: dict[str, str] = {
    "●": "*", "○": ".", "◆": "*", "█": "#", "░": ".", "▒": "#", "▓": "#",
    "→": ">", "←": "<", "↑": "^", "↓": "v", "⇒": ">", "▶": ">", "◀": "<", "▲": "^", "▼": "v",
    "·": ".", "…": "~", "×": "x", "−": "-", "–": "-", "—": "-", "“": '"', "”": '"',
    "‘": "'", "’": "'", "§": "#", "⚠": "!", "✓": "v", "✔": "v", "✗": "x", "•": "*",
    "⚀": "1", "⚁": "2", "⚂": "3", "⚃": "4", "⚄": "5", "⚅": "6", "⏎": "<", "⌫": "<",
    "▔": " ", "▏": "|", "▕": "|", "▎": "|", "▍": "|", "▌": "|", "▐": "|", "▊": "|",
    "▋": "|", "▉": "|", "▀": " ", "▄": " ", "▁": " ", "▂": " ", "▃": " ", "▅": " ",
    "▆": " ", "▇": " ", "╸": "-", "╺": "-", "╹": "|", "╻": "|",
}  # fmt: skip


def _frame(char: str) -> str:
    """A box-drawing character as ASCII: a line across is ``-``, a line down ``|``,
    anything that turns or joins ``+``."""
    name = unicodedata.name(char, "")
    across = "HORIZONTAL" in name or name.endswith((" LEFT", " RIGHT"))
    down = "VERTICAL" in name or name.endswith((" UP", " DOWN"))
    if across and not down and " AND " not in name:
        return "-"
    if down and not across and " AND " not in name:
        return "|"
    return "+"


for _code in range(0x2500, 0x2580):
    ASCII.setdefault(chr(_code), _frame(chr(_code)))

# The players' score, three rows a character (Textual's Digits widget draws each in 3x3
# cells of frame pieces, textual.renderables.digits): row by row, three columns wide.
_ASCII_DIGITS = {
    "0": (" _ ", "| |", "|_|"), "1": ("   ", "  |", "  |"), "2": (" _ ", " _|", "|_ "),
    "3": (" _ ", " _|", " _|"), "4": ("   ", "|_|", "  |"), "5": (" _ ", "|_ ", " _|"),
    "6": (" _ ", "|_ ", "|_|"), "7": (" _ ", "  |", "  |"), "8": (" _ ", "|_|", "|_|"),
    "9": (" _ ", "|_|", " _|"), "+": ("   ", "_|_", " | "), "-": ("   ", "___", "   "),
    ":": ("   ", " o ", " o "),
}  # fmt: skip

# Each row of a digit as Textual draws it (its plain and bold tables), and that row of
# the digit's ASCII shape. A row is told by its three cells alone: for the digits and the
# minus no two digits draw one row differently (a test says so), and a score is those.
DIGIT_ROWS: dict[str, str] = {
    table[DIGITS.index(char) * 3 + row].ljust(3): shape[row]
    for table in (DIGITS3X3, DIGITS3X3_BOLD)
    for char, shape in _ASCII_DIGITS.items()
    if char.isdigit() or char == "-"
    for row in range(3)
}

_mode: Mode = "unicode"


def wanted(environ: Mapping[str, str] = os.environ) -> Mode:
    """The mode this process should draw in, from its environment."""
    forced = environ.get(VARIABLE, "").strip().lower()
    if forced in ("ascii", "unicode"):
        return "ascii" if forced == "ascii" else "unicode"
    if "web_driver" in environ.get("TEXTUAL_DRIVER", ""):
        return "unicode"
    locale = environ.get("LC_ALL") or environ.get("LC_CTYPE") or environ.get("LANG") or ""
    # Python turns a C locale into LC_CTYPE=C.UTF-8 in its own environment at start (PEP
    # 538): the terminal is no UTF-8 one for that. LANG then says what the user had.
    if not environ.get("LC_ALL") and environ.get("LC_CTYPE") == "C.UTF-8":
        locale = environ.get("LANG") or ""
    normal = locale.lower().replace("-", "")
    return "unicode" if "utf8" in normal else "ascii"


def mode() -> Mode:
    return _mode


def to_ascii(text: str) -> str:
    """``text`` as an ASCII terminal shows it, each character taking the cells it took."""
    if text.isascii():
        return text
    out = []
    for char in text:
        if char.isascii():
            out.append(char)
        else:
            width = max(1, cell_len(char))
            out.append((ASCII.get(char) or "?").ljust(width, "?"))
    return "".join(out)


def digits_to_ascii(text: str) -> str | None:
    """A row of the large digits (what Textual's Digits widget writes as one piece of a
    line: three cells a digit) in their ASCII shapes; None if ``text`` is no such row."""
    if not text or len(text) % 3 or text.isascii():
        return None
    rows = [DIGIT_ROWS.get(text[i : i + 3]) for i in range(0, len(text), 3)]
    return None if None in rows else "".join(row or "" for row in rows)


class AsciiFilter(LineFilter):
    """Every line as an ASCII terminal shows it (:func:`to_ascii`), a row of the large
    digits in their own shapes (:func:`digits_to_ascii`)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(segment.text.isascii() for segment in segments):
            return segments
        return [
            Segment(digits_to_ascii(text) or to_ascii(text), style, control)
            for text, style, control in segments
        ]


# One filter for the process: Textual keeps each line filtered by it (Strip.apply_filter
# caches by filter), so the same object must come back each time.
ASCII_FILTER = AsciiFilter()


def line_filters(filters: Sequence[LineFilter]) -> list[LineFilter]:
    """An app's line filters (``filters``, Textual's own), with the ASCII one last while
    the mode is ASCII."""
    return [*filters, ASCII_FILTER] if _mode == "ascii" else list(filters)


class DrawsGlyphs(App[None]):
    """An app that draws ASCII while :func:`mode` says so (a mixin)."""

    def get_line_filters(self) -> Sequence[LineFilter]:
        return line_filters(super().get_line_filters())


def choose(environ: Mapping[str, str] = os.environ) -> Mode:
    """At start: draw as the environment says (:func:`wanted`)."""
    return use(wanted(environ))


def use(new: Mode) -> Mode:
    """Draw in ``new`` mode from now on (in an app that mixes in :class:`DrawsGlyphs`,
    from its next frame for a widget refreshed); the mode before."""
    global _mode
    before, _mode = _mode, new
    return before
