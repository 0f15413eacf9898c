"""The invoke form (Fate): a form whose payment follows the invoker and the aspect.

Who invokes, which aspect, what it does and how it is paid, in one form; what only one
kind of invoke needs (a reroll's new dice, the ally helped, the side facing a raised
opposition) is asked only for that kind (``Field.shown_when``). The payment's options and
default are worked out again whenever the invoker or the aspect changes: a free invoke
when the aspect has one that side may use, the GM's pool only for an NPC.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on

from core.model import Command
from tui.screens.forms import FormScreen
from tui.systems import fate as fate_view
from tui.widgets.choice import Choice

if TYPE_CHECKING:
    from core.model import Contest


class InvokeForm(FormScreen[Command]):
    """A :class:`FormScreen` for an invoke on ``state`` (the contest as the keypad
    leaves it: its free invokes and pool already spent by invokes waiting there)."""

    state: Contest

    def on_mount(self) -> None:
        self._payment()

    @on(Choice.Changed)
    def _payment_follows(self, event: Choice.Changed) -> None:
        if event.choice.id in ("f-by", "f-aspect"):
            self._payment()

    def _payment(self) -> None:
        answers = self.answers()
        by, aspect = answers.get("by", ""), answers.get("aspect", "")
        how = self.query_one("#f-how", Choice)
        how.set_options(
            list(fate_view.payments(self.state, by)),
            fate_view.default_payment(self.state, by, aspect),
        )
