"""A form with a choice that follows other answers (the invoke form's payment).

Who invokes, which aspect, what it does and how it is paid, in one form; what only one
kind of invoke needs is asked only for that kind (``Field.shown_when``). The payment's
options and default are worked out again whenever the invoker or the aspect changes
(``Follow``): the rule system's screen part says how.
"""

from __future__ import annotations

from textual import on

from core.model import Command
from tui.fields import Follow
from tui.screens.forms import FormScreen
from tui.widgets.choice import Choice


class InvokeForm(FormScreen[Command]):
    """A :class:`FormScreen` whose choice ``follow.key`` takes its options and default
    from ``follow.options`` of the answers, again whenever a field in ``follow.on``
    changes."""

    follow: Follow

    def on_mount(self) -> None:
        self._follow()

    @on(Choice.Changed)
    def _follows(self, event: Choice.Changed) -> None:
        if (event.choice.id or "").removeprefix("f-") in self.follow.on:
            self._follow()

    def _follow(self) -> None:
        options, default = self.follow.options(self.answers())
        self.query_one(f"#f-{self.follow.key}", Choice).set_options(list(options), default)
