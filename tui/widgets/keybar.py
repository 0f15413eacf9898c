"""A one-line key bar: the screen's shown bindings, as text.

Textual's Footer builds a widget per key; this is one Static, which matters on the
dashboard's start-up (measured by ``tussle bench dashboard``). Keys an action's
``check_action`` hides for this contest's system are left out.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Static


def pretty_key(key: str) -> str:
    return {"question_mark": "?", "escape": "Esc", "enter": "Enter", "ctrl+y": "^y"}.get(
        key, key.replace("ctrl+", "^")
    )


class KeyBar(Static):
    """``? Help  u Undo  …  ^p palette`` for the screen it is on."""

    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    def on_mount(self) -> None:
        self.refresh_keys()

    def refresh_keys(self) -> None:
        screen = self.screen
        parts = []
        for binding in screen.BINDINGS:
            if not isinstance(binding, Binding) or not binding.show:
                continue
            if screen.check_action(binding.action, ()) is False:
                continue
            key = pretty_key(binding.key.split(",")[0])
            parts.append(f"[b $accent]{key}[/] {binding.description}")
        parts.append("[b $accent]^p[/] palette")
        self.update("  ".join(parts))
