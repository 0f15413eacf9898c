"""The dashboard's screens are Screens to Textual's CSS too. TextIsNoKey, mixed in before
each one's Screen base, was a DOMNode, and Textual gives a class the CSS of its first
DOMNode base only: the contest, roster, setup and campaign screens lost Screen's own
rules (their background among them, so each frame was drawn see-through over the blank
screen beneath), and the summary lost ModalScreen's (its dimmed see-through background
was none). Every screen is reached by keys, as the GM does."""

from __future__ import annotations

from pathlib import Path

from textual.color import Color
from textual.screen import ModalScreen

from tests.tui.conftest import demo_app, keys, settle
from tui.app import TussleApp


def background(app: TussleApp) -> Color:
    return Color.parse(app.get_css_variables()["background"])


async def test_every_main_screen_has_the_screens_solid_background(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        seen = []
        for key in ("", "w", "n", "c"):  # the contest, the roster, a setup, the campaigns
            if key:
                await keys(pilot, key)
            screen = app.screen
            seen.append(type(screen).__name__)
            assert screen.styles.background == background(app), type(screen).__name__
        assert seen == ["ContestScreen", "RosterScreen", "SetupScreen", "CampaignScreen"]


async def test_the_summary_is_dimmed_over_its_contest_as_a_modal_is(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "k", "enter", "enter", "enter")  # Cynere attacks: over; summary
        screen = app.screen
        assert type(screen).__name__ == "SummaryScreen" and isinstance(screen, ModalScreen)
        assert screen.styles.background == background(app).with_alpha(0.6)
