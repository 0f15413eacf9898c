"""A small modal form: labelled fields, Enter to accept, Escape to cancel.

Every dialog of the dashboard (an invoke, an advantage, a character, a new campaign) is
one of these, so they all work the same way from the keyboard.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from tui.screens.fields import Answers, Field
from tui.widgets.choice import Choice

__all__ = ["Answers", "Field", "FormScreen"]


class FormScreen(ModalScreen[Answers | None]):
    """Ask for ``fields``; dismiss with the answers (strings), or None when cancelled."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
        Binding("enter", "accept", "OK", id="form.accept"),
    ]

    def __init__(self, title: str, fields: list[Field], hint: str = "") -> None:
        super().__init__()
        self.form_title = title
        self.fields = fields
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = self.form_title
            for f in self.fields:
                yield Label(f.label, classes="field-label")
                if f.choices:
                    yield Choice(list(f.choices), f.default, id=f"f-{f.key}")
                else:
                    yield Input(
                        value=f.default, placeholder=f.placeholder, id=f"f-{f.key}", compact=True
                    )
            yield Static(
                self.hint or "Enter: OK · Tab: next field · ←/→: change a choice · Esc: cancel",
                id="hint",
            )
            yield Static("", id="error")

    def answers(self) -> Answers:
        out: Answers = {}
        for f in self.fields:
            widget = self.query_one(f"#f-{f.key}")
            if isinstance(widget, Choice):
                out[f.key] = widget.value
            elif isinstance(widget, Input):
                out[f.key] = widget.value.strip()
        return out

    def fail(self, message: str) -> None:
        """Show a problem and keep the form open (for callers that validate)."""
        self.query_one("#error", Static).update(f"[b $error]{message}[/]")

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_accept()

    def action_accept(self) -> None:
        answers = self.answers()
        missing = [f.label for f in self.fields if f.required and not answers[f.key]]
        if missing:
            self.fail(f"{missing[0]}: required")
            return
        self.dismiss(answers)

    def action_cancel(self) -> None:
        self.dismiss(None)
