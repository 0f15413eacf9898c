"""What Tussle draws in a terminal that cannot show UTF-8 (``LANG=C``, common over SSH).

Such a terminal (or tmux, for a client it takes as not UTF-8) shows ``_`` or ``?`` for
every character past ASCII: the pips, arrows, dice faces and frames all go. So, when the
locale says the terminal is not UTF-8, every line Textual draws goes through
:data:`ASCII`, one table of what each of those characters becomes: one ASCII character
for one, so nothing moves (``●●○`` is ``**.``, ``→`` is ``>``, a frame's ``╭─╮`` is
``+-+``); a character the table does not name becomes ``?`` (two for a wide one). The
large digits of the players' view get ASCII shapes of their own.

The choice is made once, at start (:func:`choose`), as tmux makes it for a client: the
first of ``LC_ALL``, ``LC_CTYPE`` and ``LANG`` that is set must name UTF-8.
``TUSSLE_GLYPHS=ascii`` or ``unicode`` overrides it; a browser seat (textual-serve's web
driver) always draws UTF-8.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, Literal

from rich.cells import cell_len

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

# The players' score, three rows a character, for textual.renderables.digits.DIGITS
# (" 0123456789+-^x:ABCDEF$£€()"): row by row, each character three columns wide.
_ASCII_DIGITS = {
    "0": (" _ ", "| |", "|_|"), "1": ("   ", "  |", "  |"), "2": (" _ ", " _|", "|_ "),
    "3": (" _ ", " _|", " _|"), "4": ("   ", "|_|", "  |"), "5": (" _ ", "|_ ", " _|"),
    "6": (" _ ", "|_ ", "|_|"), "7": (" _ ", "  |", "  |"), "8": (" _ ", "|_|", "|_|"),
    "9": (" _ ", "|_|", " _|"), "+": ("   ", "_|_", " | "), "-": ("   ", "___", "   "),
    ":": ("   ", " o ", " o "),
}  # fmt: skip

_mode: Mode = "unicode"
_undo: list[Callable[[], None]] = []


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


def choose(environ: Mapping[str, str] = os.environ) -> Mode:
    """At start: draw as the environment says (:func:`wanted`)."""
    return use(wanted(environ))


def use(new: Mode) -> Mode:
    """Draw in ``new`` mode from now on (Textual's drawing is patched for ASCII, and put
    back for UTF-8); the mode before."""
    global _mode
    before = _mode
    if new == before:
        return before
    while _undo:
        _undo.pop()()
    if new == "ascii":
        _install()
    _mode = new
    _clear_caches()
    return before


def _patch(owner: Any, name: str, value: object) -> None:
    old = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
    setattr(owner, name, value)
    _undo.append(lambda: setattr(owner, name, old))


def _install() -> None:
    """Every line a widget draws, through :func:`to_ascii`; the large digits, in ASCII."""
    from rich.segment import Segment
    from textual.renderables import digits
    from textual.strip import Strip
    from textual.widget import Widget
    from textual.widgets import _data_table, _option_list, _text_area, _tree

    def ascii_lines(render_lines: Callable[..., list[Strip]]) -> Callable[..., list[Strip]]:
        def render(self: Widget, crop: Any) -> list[Strip]:
            return [
                strip
                if all(segment.text.isascii() for segment in strip)
                else Strip(
                    [Segment(to_ascii(s.text), s.style, s.control) for s in strip],
                    strip.cell_length,
                )
                for strip in render_lines(self, crop)
            ]

        return render

    classes = [
        Widget,
        _data_table.DataTable,
        _option_list.OptionList,
        _text_area.TextArea,
        _tree.Tree,
    ]
    for cls in classes:
        _patch(cls, "render_lines", ascii_lines(cls.__dict__["render_lines"]))
    rows = [[], [], []]  # type: list[list[str]]
    for char in digits.DIGITS:
        shape = _ASCII_DIGITS.get(char) or ("   ", f" {to_ascii(char)} ", "   ")
        for row, text in zip(rows, shape, strict=True):
            row.append(text)
    shapes = [text for triple in zip(*rows, strict=True) for text in triple]
    _patch(digits, "DIGITS3X3", shapes)
    _patch(digits, "DIGITS3X3_BOLD", shapes)


def _clear_caches() -> None:
    import sys

    border = sys.modules.get("textual._border")
    if border is not None:
        border.get_box.cache_clear()
