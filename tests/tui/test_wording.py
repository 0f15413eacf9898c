"""Words a GM reads, worked from the rules (issue 11, defect 12): no jargon, no raw
values, nothing that exists only in another kind of contest."""

from __future__ import annotations

from pathlib import Path

from core.odds.report import odds_for
from core.systems.heroquest.state import HQContest, HQOptions, HQParticipant, new_contest
from tests.tui.conftest import keys, new_app, settle, text, write
from tui.odds_view import odds_cells
from tui.screens.forms import FormScreen
from tui.systems.heroquest.panes import lingering
from tui.widgets.choice import Choice


def duel(**options: bool) -> HQContest:
    return new_contest(
        [
            HQParticipant(name="Tripitaka", side="Heroes", rating=10),
            HQParticipant(name="Ghoul", side="Ghouls", rating=10),
        ],
        HQOptions(**options),
    )


def test_a_simple_contest_has_no_resolution_points_in_its_odds() -> None:
    """Resolution points exist only in chained and extended contests (rules §2.8-2.9): a
    simple contest is one exchange, so its odds say who wins it, and nothing "to 5 RP"."""
    state = duel()
    cells, footer = odds_cells(odds_for(state), state)
    assert not any("RP" in c for c in cells.values())
    # 10 against 10: the same chance each way, the rest a tie.
    assert cells["Heroes"] == cells["Ghouls"] and cells["Heroes"].startswith("wins ")
    assert footer.startswith("tie")


def test_an_extended_contest_counts_to_five_resolution_points() -> None:
    state = duel(extended=True)
    cells, _ = odds_cells(odds_for(state), state)
    # Rules §2.8: 5 RP end it; the same ratings give each side even odds to get there.
    assert all(c.endswith("to 5 RP  50%") for c in cells.values()), cells


def test_a_chained_contest_shows_the_exchange_only() -> None:
    state = duel(chained=True)  # it ends when a party leaves: no contest odds
    cells, _ = odds_cells(odds_for(state), state)
    assert all(c.startswith("next ") and "RP" not in c for c in cells.values())


def test_what_earlier_contests_left_is_said_in_words() -> None:
    """Rules §2.6: a hurt is −3, an impairment −6 in the target, an injury a bump down;
    a lingering benefit adds to the ability it came from."""
    hurt = HQParticipant(name="A", side="A", rating=17, condition=-3, bumps_down=1)
    assert lingering(hurt) == "−3 from earlier contests (hurt or impaired) · 1 bump down (injured)"
    helped = HQParticipant(name="B", side="B", rating=17, condition=3)
    assert lingering(helped) == "+3 from earlier contests (lingering benefit)"
    assert lingering(HQParticipant(name="C", side="C", rating=17)) == ""
    assert "cond" not in lingering(hurt) + lingering(helped)


async def test_the_augment_form_offers_the_characters_abilities(saves: Path) -> None:
    """g: whose roll it helps, whose ability lends it (anyone on the roster), and that
    character's abilities with their ratings: no rating to remember and type."""
    app = new_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "g")
        form = app.screen
        assert isinstance(form, FormScreen)
        ability = form.query_one("#f-ability", Choice)
        # Tripitaka rolls first; the roster gives him Sword and Shield 4M and Ghost Lore 17.
        assert [label for label, _ in ability.options] == [
            "Sword and Shield 4M",
            "Ghost Lore 17",
            "Other: type a rating (like 17 or 4M)",
        ]
        lender = form.query_one("#f-by", Choice)
        assert [v for _, v in lender.options] == ["Tripitaka", "Ghoul", "Sandy"]
        await keys(pilot, "tab", "tab", "right")  # Ghost Lore
        await keys(pilot, "tab")
        await write(pilot, "5")
        await keys(pilot, "tab")
        await write(pilot, "10")
        await keys(pilot, "enter")
        assert "Augment for Tripitaka: 17 rolls 5" in text(app, "#keypad")


async def test_an_augment_from_someone_else_or_a_typed_rating(saves: Path) -> None:
    app = new_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "g", "tab", "s")  # Sandy, not in the contest, lends a hand
        form = app.screen
        assert isinstance(form, FormScreen)
        ability = form.query_one("#f-ability", Choice)
        assert ability.options[0][0] == "Staff Fighting 15"
        await keys(pilot, "tab", "left")  # "Other": a rating typed for this augment only
        await keys(pilot, "tab")
        await write(pilot, "3M")
        await keys(pilot, "tab")
        await write(pilot, "4")
        await keys(pilot, "tab")
        await write(pilot, "10")
        await keys(pilot, "enter")
        # 3M is 20 + 3 = 23 in linear terms (rules §2.2) and is written back as 3M.
        assert "Augment for Tripitaka: 3M rolls 4" in text(app, "#keypad")
