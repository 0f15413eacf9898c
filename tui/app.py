"""The Textual app. For now a placeholder screen on the real entry point (``tussle``)."""

from __future__ import annotations

import argparse

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class TussleApp(App[None]):
    """The GM's dashboard."""

    TITLE = "Tussle"
    SUB_TITLE = "contests at the table"
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(
            "The contest engine is ready: try `tussle resolve FILE`.\n"
            "The dashboard comes next (see the issues).",
            id="placeholder",
        )
        yield Footer()


def make_app() -> TussleApp:
    """The one factory the CLI and the tests share."""
    return TussleApp()


def run(args: argparse.Namespace) -> int:
    make_app().run()
    return 0
