"""A one-line choice for forms: ◀ value ▶, changed with the arrows or by typing."""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding
from textual.content import Content
from textual.events import Key
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from core.text import visible


class Choice(Widget, can_focus=True):
    """Pick one of ``options`` ((label, value) pairs) without leaving the line.

    Left/right (or space) step through them. A letter (or digit) picks the next option
    with a word that starts with it ("m": "a mild"; "m" again: "a moderate"); letters
    typed one after another spell that word's start ("mo": "a moderate", from the one
    shown on). A letter no word starts with changes nothing (and goes on to the form).
    Enter is left to the form, which accepts.
    """

    DEFAULT_CSS = """
    Choice { height: 1; width: 1fr; padding: 0 1; background: $boost; }
    Choice:focus { background: $accent 30%; text-style: bold; }
    Choice:ansi:focus { background: $accent; color: ansi_black; }
    """
    BINDINGS = [
        Binding("left", "step(-1)", "Previous", id="choice.previous", show=False),
        Binding("right,space", "step(1)", "Next", id="choice.next", show=False),
    ]

    index: reactive[int] = reactive(0)

    class Changed(Message):
        """The chosen value changed (by a key, or because the options did)."""

        def __init__(self, choice: Choice) -> None:
            super().__init__()
            self.choice = choice

    def __init__(
        self, options: list[tuple[str, str]], value: str = "", *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.options = options
        # Called at once when the value changes (before the next key is handled, unlike
        # the Changed message): a form shows or hides the fields that depend on it.
        self.on_change: Callable[[Choice], None] | None = None
        values = [v for _, v in options]
        self.set_reactive(Choice.index, values.index(value) if value in values else 0)
        self.typed = ""  # letters typed since the choice last moved otherwise

    @property
    def value(self) -> str:
        return self.options[self.index][1] if self.options else ""

    def set_options(self, options: list[tuple[str, str]], value: str = "") -> None:
        """Offer ``options`` instead, on ``value`` (or the first when it is not one)."""
        before = self.value
        self.typed = ""
        self.options = options
        values = [v for _, v in options]
        self.set_reactive(Choice.index, values.index(value) if value in values else 0)
        self.refresh()
        if self.value != before:
            self._changed()

    def watch_index(self, old: int, new: int) -> None:
        if old != new:
            self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)
        self.post_message(self.Changed(self))

    def render(self) -> Content:
        """Plain text, never markup: a label holds names (a character, an aspect)."""
        if not self.options:
            return Content("(nothing to choose)")
        label = visible(self.options[self.index][0])
        return Content(f"◀ {label} ▶  ({self.index + 1}/{len(self.options)})")

    def action_step(self, step: int) -> None:
        self.typed = ""
        if self.options:
            self.index = (self.index + step) % len(self.options)

    def on_blur(self) -> None:
        self.typed = ""

    def matching(self, typed: str, start: int) -> int | None:
        """The first option from ``start`` on (round to the first) whose label starts with
        ``typed``; failing any, the first one of whose label's words does. The label's
        start first: "h" is High, not Very High after it (a GM setting a HeroQuest
        resistance got Very High so); "m" still finds "a mild", which no label starts."""
        typed = typed.casefold()
        n = len(self.options)
        order = [(start + offset) % n for offset in range(n)]
        labels = [visible(self.options[i][0]).casefold() for i in order]
        for i, label in zip(order, labels, strict=True):
            if label.startswith(typed):
                return i
        for i, label in zip(order, labels, strict=True):
            if any(w.startswith(typed) for w in label.split()):
                return i
        return None

    def on_key(self, event: Key) -> None:
        char = event.character
        if not char or not char.isalnum() or not self.options:
            return
        # more of a word: the first option from this one on that it still starts;
        # else a letter of its own: the next option with a word it starts
        tries = [(self.typed + char, self.index)] if self.typed else []
        for typed, start in [*tries, (char, self.index + 1)]:
            i = self.matching(typed, start)
            if i is not None:
                self.typed = typed
                self.index = i
                event.stop()
                return
        self.typed = ""
