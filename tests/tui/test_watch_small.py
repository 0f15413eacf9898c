"""The players' view below 60x20 (issue 24, items 18 and 23): a player's small terminal,
a phone's 40 columns. The last exchanges used to vanish with no sign there (at 40x12 their
pane had no room at all); now the score and the newest exchange always show, the table
goes below 20 rows, and the exchanges left out for lack of room are counted ("2 more
exchanges: make the window larger").

The campaign: the Fate demo after three exchanges Cynere wins (++0- on +4: +5, against
Teran's 0000 on +3: +3), one victory each: 3-0, the race won. Each exchange is three lines:
its verdict, then each side's dice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.conftest import fate_demo, steady
from tests.tui.screen_text import screen_text
from tui.watch import WatchApp


def last_pane(app: WatchApp) -> str:
    """The last exchanges' pane as written (before it wraps to the pane's width)."""
    return str(app.query_one("#last").visual)


@pytest.mark.parametrize("size", [(40, 12), (40, 16), (40, 20), (40, 35), (50, 14), (59, 19)])
async def test_the_score_and_the_newest_exchange_show_at_small_sizes(
    saves: Path, size: tuple[int, int]
) -> None:
    app = WatchApp(fate_demo(saves, 3))
    async with app.run_test(size=size) as pilot:
        await steady(pilot)
        lines = screen_text(app)
        width, height = size
        assert len(lines) == height and max(map(len, lines)) <= width
        screen = "\n".join(lines)
        if height < 30:  # the score beside each name (from 30 rows, in large digits)
            assert "Cynere  3" in screen and "Teran the Swift  0" in screen
        else:
            assert "Cynere" in screen and "Teran the Swift" in screen
            assert app.query_one("Digits").value == "3"  # Cynere's, the first side
        # The newest exchange's verdict and both sides' dice, on screen.
        assert "Exchange 3: Cynere wins" in screen
        assert "Cynere: ++0- → Superb (+5)" in screen
        assert "Teran the Swift: 0000 → Good (+3)" in screen
        # What is left out is counted: 3 exchanges, those shown whole, the rest said.
        shown = sum(f"Exchange {n}: Cynere wins" in screen for n in (1, 2, 3))
        pane = last_pane(app)
        if shown < 3:
            more = 3 - shown
            said = "1 more exchange" if more == 1 else f"{more} more exchanges"
            assert pane.startswith(f"{said}: make the window larger\n"), pane
        else:
            assert "make the window larger" not in pane


async def test_at_40x12_the_table_gives_its_room_to_the_exchanges(saves: Path) -> None:
    app = WatchApp(fate_demo(saves, 3))
    async with app.run_test(size=(40, 12)) as pilot:
        await steady(pilot)
        screen = "\n".join(screen_text(app))
        assert "On the table" not in screen  # below 20 rows
        assert "Last exchanges" in screen
        # The pane: 12 rows less the title (2), the score (1), the status (1) and its
        # frame (2): 6 rows, for the note (2 rows at 36 columns: "2 more exchanges: make
        # the window" / "larger") and exchange 3 (its verdict wraps: 4 rows).
        assert last_pane(app).startswith("2 more exchanges: make the window larger\n")
