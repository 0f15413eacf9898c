"""The players' view at every size a player's terminal may have, and both screens in a
terminal that is not UTF-8 (issue 14).

* From 60x20 (the smallest the README asks for) to 200x60, the whole view shows: the
  score of both sides, the newest exchange whole, the table's aspects and the PCs'
  points. (At 80x24 the exchanges used to run off the bottom of their pane, the newest
  last; on a shared 120x40 window an 80x24 player saw a corner of it.)
* With ``LANG=C`` every character drawn is ASCII (tmux showed ``_`` for the pips, arrows
  and frames): :mod:`tui.glyphs`.

The snapshots were looked at, as pictures, before they were kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.helpers import wait_for_odds
from tests.tui.conftest import fate_demo, keys, new_app, settle, steady
from tests.tui.screen_text import screen_text
from tui import glyphs
from tui.watch import WatchApp, fitting


@pytest.fixture
def ascii_terminal() -> Iterator[None]:
    """Draw as in a terminal that is not UTF-8, for this test alone."""
    before = glyphs.use("ascii")
    try:
        yield
    finally:
        glyphs.use(before)


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30), (120, 40), (200, 60)])
async def test_the_whole_view_shows_at_every_size(saves: Path, size: tuple[int, int]) -> None:
    app = WatchApp(fate_demo(saves, 3))
    async with app.run_test(size=size) as pilot:
        await steady(pilot)
        screen = "\n".join(screen_text(app))
        width, height = size
        assert len(screen_text(app)) == height
        assert max(len(line) for line in screen_text(app)) <= width
        # Both sides and their score (as digits from 30 rows, on one line below).
        assert "Cynere" in screen and "Teran the Swift" in screen
        assert "Cynere wins" in screen  # the title says the race is over
        # The newest exchange, whole; the table and the points.
        assert "Exchange 3: Cynere wins, 1 victory (3–0)" in screen
        assert screen.count("Teran the Swift: 0000 → Good (+3)") >= 1
        assert "Muddy Ground" in screen and "Cynere: 3 fate points" in screen
        if height < 30:
            assert "Cynere  3" in screen and "Teran the Swift  0" in screen


async def test_exchanges_that_do_not_fit_leave_out_the_oldest_and_say_so(saves: Path) -> None:
    app = WatchApp(fate_demo(saves, 3))
    async with app.run_test(size=(60, 20)) as pilot:
        await steady(pilot)
        last = str(app.query_one("#last").visual)
        # Three exchanges of three lines do not fit in 60x20's pane: Exchange 1 goes.
        assert last.startswith("1 more exchange: make the window larger\n")
        assert "Exchange 1:" not in last
        assert last.endswith("Teran the Swift: 0000 → Good (+3)")


def test_fitting_keeps_the_newest_exchanges_whole() -> None:
    # In 10 columns these take 1, 1, 3, 1 and 1 rows: 7 in all. In 40, 1 each: ab 2
    # rows, b 1, cd 2. A note of up to 40 characters takes 1 row at 40 columns.
    ab, b, cd = ["a" * 10, "A" * 10], ["b" * 25], ["c" * 5, "d" * 8]
    assert fitting([ab, b, cd], 10, 0) == ("", [*ab, *b, *cd])  # not laid out yet: all
    assert fitting([ab, b, cd], 10, 7) == ("", [*ab, *b, *cd])
    assert fitting([ab, b, cd], 40, 5) == ("", [*ab, *b, *cd])
    # 4 rows: the note, b and cd; 3 rows: the note and cd.
    assert fitting([ab, b, cd], 40, 4) == ("1 more exchange: make the window larger", [*b, *cd])
    assert fitting([ab, b, cd], 40, 3) == ("2 more exchanges: make the window larger", cd)
    # The newest alone does not fit: its first lines, after a note of 2 rows at 40
    # ("The rest of this exchange: make the" / "window larger").
    assert fitting([["v", "w", "x", "y"]], 40, 3) == (
        "The rest of this exchange: make the window larger",
        ["v"],
    )
    # 4 rows: the note ("1 more exchange and the rest of this" / "one: make the window
    # larger") and v, w.
    assert fitting([ab, ["v", "w", "x", "y"]], 40, 4) == (
        "1 more exchange and the rest of this one: make the window larger",
        ["v", "w"],
    )


async def test_the_watcher_has_no_command_palette(saves: Path) -> None:
    app = WatchApp(fate_demo(saves, 1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert len(app.screen_stack) == 1


def test_snapshot_players_view_at_60x20(snap_compare: Any, saves: Path) -> None:
    app = WatchApp(fate_demo(saves, 2))
    assert snap_compare(app, terminal_size=(60, 20), run_before=steady)


def test_snapshot_players_view_at_200x60(snap_compare: Any, saves: Path) -> None:
    app = WatchApp(fate_demo(saves, 2))
    assert snap_compare(app, terminal_size=(200, 60), run_before=steady)


@pytest.mark.usefixtures("ascii_terminal")
def test_snapshot_players_view_in_ascii(snap_compare: Any, saves: Path) -> None:
    app = WatchApp(fate_demo(saves, 2))
    assert snap_compare(app, terminal_size=(100, 30), run_before=steady)


@pytest.mark.usefixtures("ascii_terminal")
def test_snapshot_dashboard_in_ascii(snap_compare: Any, saves: Path) -> None:
    async def one_exchange_and_dice(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await keys(pilot, *"---00000", "enter", *"+0-")
        await wait_for_odds(pilot)

    assert snap_compare(new_app(saves), terminal_size=(80, 24), run_before=one_exchange_and_dice)


@pytest.mark.usefixtures("ascii_terminal")
async def test_in_ascii_every_character_drawn_is_ascii(saves: Path) -> None:
    app = WatchApp(fate_demo(saves, 2))
    async with app.run_test(size=(80, 24)) as pilot:
        await steady(pilot)
        watched = screen_text(app)
    dashboard = new_app(saves)
    async with dashboard.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *"---00000", "enter", *"+0-")
        await wait_for_odds(pilot)
        shown = screen_text(dashboard)
    for screen in (watched, shown):
        assert all(line.isascii() for line in screen), "\n".join(screen)
    # What stands for what: a frame's corners, the arrow, the pips, the digits.
    assert "+- Last exchanges -" in "\n".join(watched)
    assert "Cynere: ++0- > Superb (+5)" in "\n".join(watched)
    assert any(line.startswith("+- Roll keypad ") and line.endswith("+") for line in shown)
    assert "Cynere: ---0 > Average (+1)" in "\n".join(shown)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "en_GB.UTF-8"}, "unicode"),
        ({"LANG": "C.utf8"}, "unicode"),
        ({"LANG": "C"}, "ascii"),
        ({}, "ascii"),  # no locale at all: tmux too takes the terminal as not UTF-8
        ({"LANG": "en_US.ISO-8859-1"}, "ascii"),
        ({"LANG": "en_GB.UTF-8", "LC_ALL": "C"}, "ascii"),  # LC_ALL first
        ({"LANG": "C", "LC_CTYPE": "de_DE.UTF-8"}, "unicode"),
        # What Python makes of LANG=C at start (PEP 538): LANG still tells.
        ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, "ascii"),
        ({"LANG": "C", "TUSSLE_GLYPHS": "unicode"}, "unicode"),
        ({"LANG": "en_GB.UTF-8", "TUSSLE_GLYPHS": "ASCII"}, "ascii"),
        # A browser seat's terminal (xterm.js) is UTF-8, whatever the server's locale.
        ({"LANG": "C", "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver"}, "unicode"),
    ],
)
def test_the_glyphs_follow_the_locale(environ: dict[str, str], expected: str) -> None:
    assert glyphs.wanted(environ) == expected


def test_each_glyph_takes_the_cells_it_took() -> None:
    from rich.cells import cell_len

    assert glyphs.to_ascii("●●○ → ╭─╮│╰╯ · …") == "**. > +-+|++ . ~"
    assert glyphs.to_ascii("Zoë 名") == "Zo? ??"  # unknown: one ? a cell
    for char, stand_in in glyphs.ASCII.items():
        assert stand_in.isascii() and len(stand_in) == 1 == cell_len(char), char
