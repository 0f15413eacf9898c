"""A one-line key bar: the screen's shown bindings (a rule system's keys among them), as text.

Textual's Footer builds a widget per key; this is one Static, which matters on the
dashboard's start-up (measured by ``tussle bench dashboard``). Keys an action's
``check_action`` hides for this contest's system are left out. The bar always fits its
line: past the width, descriptions shorten to their first word, then the last keys give
way (help, first, and the palette, last, always stay: both list every key).
"""

from __future__ import annotations

import re
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.content import Content
from textual.events import Resize
from textual.keys import key_to_character
from textual.widgets import Static

from tui.config import Settings
from tui.widgets.key_part import allowed, screen_keys

PRETTY = {
    "question_mark": "?",
    "escape": "Esc",
    "enter": "Enter",
    "ctrl+y": "^y",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "space": "Space",
    "tab": "Tab",
    "shift+tab": "Shift+Tab",
    "backspace": "Backspace",
    "right": "→",
    "left": "←",
    "up": "↑",
    "down": "↓",
    "plus": "+",
    "minus": "-",
}


def pretty_key(key: str) -> str:
    """A key as the GM reads it: ``question_mark`` -> ``?``, ``ctrl+z`` -> ``^z``,
    ``f5`` -> ``F5`` (as the README and the keyboard write it)."""
    if key in PRETTY:
        return PRETTY[key]
    if re.fullmatch(r"f\d{1,2}", key):  # a function key as the keyboard says it: F5
        return key.upper()
    character = key_to_character(key)
    if character is not None and character.isprintable() and not character.isspace():
        return character
    return key.replace("ctrl+", "^")


def keys_of(binding: Binding, app: App[Any]) -> list[str]:
    """The keys that do ``binding`` now: the GM's (the keymap of the app's settings file,
    :mod:`tui.config`, normalised there as Textual's ``set_keymap`` is given it) or its
    own. An app without Tussle's settings has the bindings' own keys."""
    settings = getattr(app, "settings", None)  # the dashboard's (tui.looks.Looks)
    keymap = settings.keymap if isinstance(settings, Settings) else {}
    keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
    return [k.strip() for k in keys.split(",")]


SHORT = {"Key help": "Help"}  # where the first word alone would not say it


def short(description: str) -> str:
    """A description in a word: "Back to the contest" -> "Back", "Key help" -> "Help"."""
    return SHORT.get(description, description.split(" ", 1)[0])


def fit(keys: list[tuple[str, str]], width: int) -> list[tuple[str, str]]:
    """``keys`` ((key, description) pairs, the palette last) made to fit ``width``
    cells joined by two spaces: the longest descriptions cut to their first word, one
    at a time, then, if that is not enough, the last keys before the palette left out."""

    def length(pairs: list[tuple[str, str]]) -> int:
        return sum(len(k) + 1 + len(d) for k, d in pairs) + 2 * (len(pairs) - 1)

    pairs = list(keys)
    while width > 0 and length(pairs) > width:
        long = [i for i, (_, d) in enumerate(pairs) if " " in d]
        if not long:
            break
        i = max(long, key=lambda i: len(pairs[i][1]))
        pairs[i] = (pairs[i][0], short(pairs[i][1]))
    while width > 0 and len(pairs) > 2 and length(pairs) > width:
        del pairs[-2]
    return pairs


class KeyBar(Static):
    """``? Help  u Undo  …  ^p palette`` for the screen it is on."""

    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    def on_mount(self) -> None:
        self.refresh_keys()

    def on_resize(self, event: Resize) -> None:
        self.refresh_keys()

    def keys(self) -> list[tuple[str, str]]:
        """(key, description) for each key shown, the palette last."""
        screen = self.screen
        pairs = []
        for binding in screen_keys(screen):  # its own, and a rule system's among them
            if not binding.show or not allowed(screen, binding):
                continue
            pairs.append((pretty_key(keys_of(binding, self.app)[0]), binding.description))
        pairs.append(("^p", "palette"))
        return pairs

    def refresh_keys(self) -> None:
        width = self.content_region.width or self.app.size.width - 2
        shown = fit(self.keys(), width)
        parts = [Content.assemble((k, "b $accent"), f" {d}") for k, d in shown]
        # One line high whatever it says: drawn in place, never a new layout of the
        # screen (it is refreshed after every key, issue 25).
        self.update(Content("  ").join(parts), layout=False)
