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
