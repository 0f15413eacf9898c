"""The screen as a person reads it: the characters Textual would draw, line by line.

``App.export_screenshot`` renders the same frame into an SVG; this renders it into plain
text, so a test can ask what is visible (not merely what a widget holds) at 80x24.
"""

from __future__ import annotations

import io

from rich.console import Console
from textual.app import App


def screen_text(app: App[object]) -> list[str]:
    """Each line of the current frame, trailing spaces removed."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    frame = app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens, simplify=True
    )
    console.print(frame)
    return [line.rstrip() for line in console.export_text(styles=False).splitlines()]
