"""The README's 80x24 picture of the Fate demo is what the dashboard draws.

The test plays the demo by keys (three exchanges, the fourth typed on the keypad) and
compares the frame, as text, with the README's block line by line (trailing spaces
ignored). After a change of look, regenerate the block and read the diff:

    TUSSLE_UPDATE_README=1 .venv/bin/pytest tests/tui/test_readme_capture.py
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers import wait_for_odds
from tests.tui.conftest import keys, new_app, settle, write
from tests.tui.screen_text import screen_text

README = Path(__file__).resolve().parents[2] / "README.md"
CAPTION = "The Fate demo after three exchanges, with the fourth typed on the keypad (80x24):"


def readme_block(text: str) -> tuple[int, int]:
    """Line numbers (start, end) of the fenced block after the caption, fences excluded."""
    lines = text.splitlines()
    caption = lines.index(CAPTION)
    start = next(i for i in range(caption + 1, len(lines)) if lines[i].startswith("```")) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    return start, end


async def test_the_readme_capture_is_what_the_dashboard_draws(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # 1: Cynere ---0 (+1) against Teran 0000 (+3); 2: +000 (+5) against -000 (+2);
        # 3: -000 (+3) against 0000 (+3), a tie and its twist; 4: typed, not committed.
        await keys(pilot, *("minus", "minus", "minus", "0"), *["0"] * 4, "enter")
        await keys(pilot, *("plus", "0", "0", "0", "minus", "0", "0", "0"), "enter")
        await keys(pilot, *("minus", "0", "0", "0"), *["0"] * 4, "enter")
        await write(pilot, "Magical Distortions")
        await keys(pilot, "enter")
        await keys(pilot, *["0"] * 4, "plus", "0", "0", "0")
        await wait_for_odds(pilot)
        drawn = screen_text(app)
    text = README.read_text(encoding="utf-8")
    start, end = readme_block(text)
    if os.environ.get("TUSSLE_UPDATE_README"):  # regenerate: the diff is for a person
        lines = text.splitlines()
        lines[start:end] = drawn
        README.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return
    shown = [line.rstrip() for line in text.splitlines()[start:end]]
    assert shown == drawn, "README.md's 80x24 capture is out of date:\n" + "\n".join(drawn)
