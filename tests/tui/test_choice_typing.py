"""Typing at a choice (◀ x ▶, tui/widgets/choice.py) picks as its help line says (issue
28's leftovers, item 4): a letter, the next option with a word starting with it; letters
one after another, the option whose word starts with them; a letter no word starts with,
nothing. Played on the absorb form of the SRD's warehouse ("Stress", "Consequences"):
Drisban takes a 2-shift hit, which his 2-box, a mild, a moderate or a severe can take,
or he is taken out; five ways in that order."""

from __future__ import annotations

from pathlib import Path

from tests.conflict_campaigns import start
from tests.tui.conftest import keys, new_app, odds_done, settle, text, write
from tui.screens.forms import FormScreen
from tui.widgets.choice import Choice


async def test_letters_typed_at_a_choice_pick_by_a_words_start(saves: Path) -> None:
    start(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_done(pilot)
        await keys(pilot, "k", "tab", "tab", "tab", "tab")  # Cynere attacks Drisban
        await write(pilot, "++00")
        await keys(pilot, "tab", "ctrl+u")
        await write(pilot, "Fight")
        await keys(pilot, "tab")
        await write(pilot, "-000")
        await keys(pilot, "enter", "a")
        assert isinstance(app.screen, FormScreen)
        assert "←/→ or letters: choose" in text(app, "#hint")
        how = app.screen.query_one("#f-how", Choice)

        def shown() -> str:
            return how.options[how.index][0]

        assert shown() == "the 2-box"
        await keys(pilot, "m")
        assert shown() == "a mild"
        await keys(pilot, "o")  # "mo": a moderate
        assert shown() == "a moderate"
        await keys(pilot, "x")  # no word starts with "mox" nor "x": nothing changes
        assert shown() == "a moderate"
        await keys(pilot, "left", "s")  # after an arrow, a letter of its own: "s"
        assert shown() == "a severe"
        await keys(pilot, "t")  # the next one with a word in "t" after it
        assert shown() == "taken out"
        await keys(pilot, "t")  # and again, round to the first
        assert shown() == "the 2-box"
        await keys(pilot, "escape")
        await settle(pilot)
        await keys(pilot, "q")


async def test_a_letter_picks_the_label_it_starts_before_a_word_inside_another(
    saves: Path,
) -> None:
    """HeroQuest's resistances (HQ2: Moderate, High, Very High, Nearly Impossible): "h" at
    the Resistance choice is High, the one a GM means; it picked Very High, the next with
    a word starting h, and the resistance came out 5M, not 2M (16 + 6 = 22 in session 5)."""
    app = new_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n", "a", "enter", "r")
        await write(pilot, "Locked Door")
        await keys(pilot, "tab", "tab", "h")
        assert app.screen.query_one("#f-class", Choice).value == "high"
