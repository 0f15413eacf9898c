"""Contest setup gives each participant their own skill (issue 11, defect 3), a rating
typed for this contest only as a choice of its own, and says its options and who rolls
in words a GM reads (defect 12). By key presses only, as a GM at the table would."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.fate.character import FateCharacter
from core.systems.forge.state import ForgeContest
from core.systems.heroquest.character import HeroQuestCharacter
from core.systems.heroquest.state import HQContest
from tests.helpers import wait_for_odds
from tests.tui.conftest import keys, new_app, seed_campaign, text, write
from tui.app import TussleApp
from tui.screens.forms import FormScreen
from tui.screens.setup import SetupScreen
from tui.widgets.choice import Choice

TRIPITAKA = Character(
    name="Tripitaka", ratings={"Fist": 17, "Sword": 24}, sheet=HeroQuestCharacter(hero_points=1)
)
GHOUL = Character(name="Ghoul King", kind="npc", ratings={"Claws": 6})
KASIA = Character(name="Kasia", ratings={"Pistols": 45, "Dodge": 30})
BOBBY = Character(name="Bobby", kind="npc", ratings={"Brawling": 50})
ANA = Character(name="Ana", ratings={"Burglary": 3, "Fight": 2}, sheet=FateCharacter(fate_points=2))
GUARD = Character(name="Guard", kind="npc", ratings={"Athletics": 1})


async def setup_of(pilot: Pilot[None]) -> SetupScreen:
    """From the seeded contest to a fresh setup (no participants yet)."""
    await wait_for_odds(pilot)
    await keys(pilot, "n")
    screen = pilot.app.screen
    assert isinstance(screen, SetupScreen)
    return screen


def seed(saves: Path, system: str, roster: list[Character]) -> str:
    name = f"{system} night"
    first, second = roster[0], roster[1]
    seed_campaign(
        saves,
        name,
        system,
        roster,
        [
            Pick(character=first.name, side=first.name, rating=next(iter(first.ratings))),
            Pick(character=second.name, side=second.name, rating=next(iter(second.ratings))),
        ],
    )
    return name


def rolls(app: TussleApp) -> list[str]:
    """The Rolls choice's options, as the form shows them."""
    assert isinstance(app.screen, FormScreen)
    return [label for label, _ in app.screen.query_one("#f-rating", Choice).options]


def shown_rolls(app: TussleApp) -> str:
    assert isinstance(app.screen, FormScreen)
    choice = app.screen.query_one("#f-rating", Choice)
    return choice.options[choice.index][0]


async def test_a_heroquest_participant_is_offered_their_own_abilities(saves: Path) -> None:
    # The roster lists the Ghoul King first: the old form offered every ability of the
    # roster alphabetically (Claws, Fist, Sword) and gave Tripitaka the Ghoul's Claws 6.
    app = new_app(saves, seed(saves, "heroquest", [GHOUL, TRIPITAKA]))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await setup_of(pilot)
        await keys(pilot, "a", "right")  # the character: Tripitaka, the second
        assert rolls(app) == [
            "Fist 17",
            "Sword 4M",
            "No relevant ability: 6 (rules §2.2)",
            "Other: type a rating (17 or 4M)",
        ]
        assert shown_rolls(app) == "Fist 17"  # the first on his sheet
        await keys(pilot, "left")  # the GM goes back to the Ghoul King: Rolls follows
        assert rolls(app)[0] == "Claws 6"
        assert "Fist 17" not in rolls(app)
        await keys(pilot, "right", "tab", "right")  # Tripitaka again, his second: Sword
        assert shown_rolls(app) == "Sword 4M"
        await keys(pilot, "enter")
        assert setup.picks == [Pick(character="Tripitaka", side="Tripitaka", rating="Sword")]
        assert "Sword 4M" in table_row(setup, 0)


def table_row(setup: SetupScreen, i: int) -> str:
    from textual.widgets import DataTable

    return " | ".join(str(c) for c in setup.query_one(DataTable).get_row_at(i))


async def test_keys_for_own_ability_and_for_a_typed_rating_start_the_right_contest(
    saves: Path,
) -> None:
    """The keys the README gives: a, Enter (their first ability); a, Tab, ←, Tab, the
    rating, Enter (a rating for this contest only)."""
    app = new_app(saves, seed(saves, "heroquest", [TRIPITAKA, GHOUL]))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await setup_of(pilot)
        await keys(pilot, "a", "enter")  # Tripitaka, Fist 17
        await keys(pilot, "a", "tab", "left", "tab")  # the Ghoul King, Other
        await write(pilot, "4M")
        await keys(pilot, "enter")
        assert setup.picks == [
            Pick(character="Tripitaka", side="Tripitaka", rating="Fist"),
            Pick(character="Ghoul King", side="Ghoul King", value=24),  # 4M: 4 + 20
        ]
        assert "4M, for this contest only" in table_row(setup, 1)
        await keys(pilot, "g", "enter")
        latest = app.campaign.latest_contest
        assert latest is not None and isinstance(latest.state, HQContest)
        ratings = {p.name: p.rating for p in latest.state.participants}
        assert ratings == {"Tripitaka": 17, "Ghoul King": 24}


async def test_a_typed_rating_written_wrong_keeps_the_form(saves: Path) -> None:
    app = new_app(saves, seed(saves, "heroquest", [TRIPITAKA, GHOUL]))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await setup_of(pilot)
        await keys(pilot, "a", "tab", "left")  # Other: the rating field appears
        form = app.screen
        assert isinstance(form, FormScreen)
        await keys(pilot, "enter")  # nothing typed in it
        assert app.screen is form
        assert app.focused is form.query_one("#f-typed")
        await write(pilot, "five")
        await keys(pilot, "enter")
        assert app.screen is form and form.answers()["typed"] == "five"
        assert '"five" is not a rating' in str(form.query_one("#e-typed", Static).visual)
        assert setup.picks == []


async def test_a_forge_participant_rolls_her_own_target(saves: Path) -> None:
    # The old form defaulted to Brawling, first of the whole roster's targets: Bobby's.
    app = new_app(saves, seed(saves, "forge", [KASIA, BOBBY]))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await setup_of(pilot)
        await keys(pilot, "a")
        assert rolls(app)[:2] == ["Pistols 45", "Dodge 30"]
        assert "Brawling 50" not in rolls(app)
        await keys(pilot, "enter", "a", "enter", "g", "enter")
        latest = app.campaign.latest_contest
        assert latest is not None and isinstance(latest.state, ForgeContest)
        assert {p.name: p.target for p in latest.state.participants} == {
            "Kasia": 45,
            "Bobby": 50,
        }
        assert setup.picks[0].rating == "Pistols"


async def test_a_fate_participant_sees_the_ladder(saves: Path) -> None:
    app = new_app(saves, seed(saves, "fate", [ANA, GUARD]))
    async with app.run_test(size=(80, 24)) as pilot:
        await setup_of(pilot)
        await keys(pilot, "a")
        assert rolls(app)[:3] == [
            "Burglary Good (+3)",
            "Fight Fair (+2)",
            "No relevant skill: Mediocre (+0)",
        ]


async def test_setup_says_its_options_and_who_rolls_in_words(saves: Path) -> None:
    app = new_app(saves, seed(saves, "heroquest", [TRIPITAKA, GHOUL]))
    async with app.run_test(size=(80, 24)) as pilot:
        await setup_of(pilot)
        summary = text(app, "#setup-summary")
        # The augment base left blank: the table's for the sessions played (issue 24).
        assert (
            "simple contest · ties: lower roll wins · augments against the base for the "
            "sessions played" in summary
        )
        assert "Dice: the table rolls for everyone (T to change)" in summary
        assert "True" not in summary and "False" not in summary
        await keys(pilot, "o", "right", "tab", "right", "enter")  # chained, ties high
        await keys(pilot, "a", "enter", "a", "enter")
        await keys(pilot, "T", "tab", "right", "enter")  # Tussle rolls for the Ghoul King
        summary = text(app, "#setup-summary")
        assert "chained contest · ties: higher roll wins" in summary
        assert "Dice: Tussle rolls for Ghoul King; the table for the rest" in summary


async def test_forge_options_in_words(saves: Path) -> None:
    app = new_app(saves, seed(saves, "forge", [KASIA, BOBBY]))
    async with app.run_test(size=(80, 24)) as pilot:
        await setup_of(pilot)
        await keys(pilot, "o", "right", "enter")  # combat: yes
        summary = text(app, "#setup-summary")
        assert "combat (damage thrown, dodge or absorb) · the reactor wins ties" in summary
        assert "True" not in summary


async def test_no_relevant_ability_is_a_choice_the_form_takes(saves: Path) -> None:
    # Found playing at 80x24: the form refused "No relevant ability: 6" as "required",
    # since that choice's value is blank. Rules §2.2: with no relevant ability, the
    # character rolls against 6.
    app = new_app(saves, seed(saves, "heroquest", [TRIPITAKA, GHOUL]))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await setup_of(pilot)
        await keys(pilot, "a", "enter")  # Tripitaka, Fist 17
        await keys(pilot, "a", "tab", "right")  # the Ghoul King: Claws 6, then no ability
        assert shown_rolls(app) == "No relevant ability: 6 (rules §2.2)"
        await keys(pilot, "enter")
        assert not isinstance(app.screen, FormScreen), "the form took the choice"
        assert setup.picks[1] == Pick(character="Ghoul King", side="Ghoul King", rating=None)
        await keys(pilot, "g", "enter")
        latest = app.campaign.latest_contest
        assert latest is not None and isinstance(latest.state, HQContest)
        ratings = {p.name: p.rating for p in latest.state.participants}
        assert ratings == {"Tripitaka": 17, "Ghoul King": 6}
