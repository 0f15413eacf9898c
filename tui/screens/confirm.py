"""Ask the GM to confirm something, showing what it will do."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.widgets.lines import Hanging, e


class ConfirmScreen(ModalScreen[bool]):
    """``lines`` to read, then Enter (or y) to go ahead, Escape (or n) to leave it."""

    BINDINGS = [
        Binding("enter,y", "yes", "Yes", id="confirm.yes"),
        Binding("escape,n", "no", "No", id="confirm.no"),
    ]

    def __init__(
        self,
        title: str,
        lines: list[str],
        yes: str = "Enter: yes",
        no: str = "Esc: no, leave it",
    ) -> None:
        super().__init__()
        self.confirm_title = title
        self.lines = lines
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = self.confirm_title
            with VerticalScroll(id="confirm-body"):
                yield Static(Hanging(e(line) for line in self.lines))
            yield Static(f"{self.yes} · {self.no}", id="hint")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
