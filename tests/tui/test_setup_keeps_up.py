"""Contest setup keeps up with the GM (issue 24, item 10): the highlight follows the
participant just added (so d removes that one, not the first), a row is edited with e or
Enter, u takes back the last change to the setup (U puts it back), and the Character
field says what the character will roll: a letter picks a character by initial and with
them their first skill, which the GM did not see (Landon rolled Fight when Athletics was
meant). By key presses only."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable

from core.campaign.log import Character
from core.campaign.sheet import Pick
from tests.tui.conftest import keys, new_app, seed_campaign, text, write
from tui.app import TussleApp
from tui.screens.confirm import ConfirmScreen
from tui.screens.forms import FormScreen
from tui.screens.setup import SetupScreen
from tui.widgets.choice import Choice

CYNERE = Character(name="Cynere", ratings={"Athletics": 4})
TERAN = Character(name="Teran", kind="npc", ratings={"Lore": 3})
LANDON = Character(name="Landon", ratings={"Fight": 2, "Athletics": 3})


async def fresh_setup(pilot: Pilot[None]) -> SetupScreen:
    await keys(pilot)
    await keys(pilot, "n")
    screen = pilot.app.screen
    assert isinstance(screen, SetupScreen) and not screen.picks
    return screen


def new(saves: Path) -> TussleApp:
    seed_campaign(
        saves,
        "Friday Fate",
        "fate",
        [CYNERE, TERAN, LANDON],
        [
            Pick(character="Cynere", side="Cynere", rating="Athletics"),
            Pick(character="Teran", side="Teran", rating="Lore"),
        ],
    )
    return new_app(saves, "Friday Fate")


def rows(setup: SetupScreen) -> list[str]:
    return [p.character for p in setup.picks]


def highlighted(setup: SetupScreen) -> str:
    return setup.picks[setup.query_one(DataTable).cursor_row].character


def said(app: TussleApp) -> str:
    """The last notification."""
    return str(list(app.told)[-1].message)


def shown(app: TussleApp, key: str) -> str:
    """What a choice of the open form shows."""
    assert isinstance(app.screen, FormScreen)
    choice = app.screen.query_one(f"#f-{key}", Choice)
    return choice.options[choice.index][0]


async def test_the_highlight_follows_the_participant_just_added(saves: Path) -> None:
    app = new(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await fresh_setup(pilot)
        await keys(pilot, "a", "enter")  # the first free: Cynere
        await keys(pilot, "a", "enter")  # then Teran
        assert rows(setup) == ["Cynere", "Teran"]
        assert highlighted(setup) == "Teran"
        await keys(pilot, "d")  # the one just added goes, not the first
        assert rows(setup) == ["Cynere"]


async def test_a_row_is_edited_with_e_or_enter(saves: Path) -> None:
    app = new(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await fresh_setup(pilot)
        await keys(pilot, "a", "t", "enter")  # Teran, his Lore
        await keys(pilot, "a", "l", "tab", "left", "enter")  # Landon, his Fight
        assert setup.picks == [
            Pick(character="Teran", side="Teran", rating="Lore"),
            Pick(character="Landon", side="Landon", rating="Fight"),
        ]
        await keys(pilot, "e")  # Landon's row (just added): the form as he was added
        assert isinstance(app.screen, FormScreen)
        assert shown(app, "character").startswith("Landon")
        assert shown(app, "rating") == "Fight Fair (+2)"
        await keys(pilot, "tab", "right", "enter")  # Athletics instead
        assert setup.picks[1] == Pick(character="Landon", side="Landon", rating="Athletics")
        assert len(setup.picks) == 2 and highlighted(setup) == "Landon"
        # Enter on a row edits it too: Teran joins Landon's side.
        await keys(pilot, "up", "enter")
        assert isinstance(app.screen, FormScreen)
        assert shown(app, "character").startswith("Teran")
        await keys(pilot, "tab", "tab")
        await write(pilot, "Landon")
        await keys(pilot, "enter")
        assert setup.picks[0] == Pick(character="Teran", side="Landon", rating="Lore")
        assert len(setup.picks) == 2


async def test_u_takes_back_the_last_change_to_the_setup(saves: Path) -> None:
    app = new(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await fresh_setup(pilot)
        await keys(pilot, "u")
        assert rows(setup) == []  # nothing to undo: said, and nothing else undone
        assert len(app.campaign.contests) == 1
        await keys(pilot, "a", "enter", "a", "enter", "a", "enter")
        assert rows(setup) == ["Cynere", "Teran", "Landon"]
        await keys(pilot, "up", "d")  # Teran out
        assert rows(setup) == ["Cynere", "Landon"]
        await keys(pilot, "u")  # Teran back, in his place
        assert rows(setup) == ["Cynere", "Teran", "Landon"]
        assert said(app) == "Undone: Teran removed"
        await keys(pilot, "u")  # Landon's adding taken back
        assert rows(setup) == ["Cynere", "Teran"]
        assert said(app) == "Undone: Landon added"
        await keys(pilot, "U")  # and put back
        assert rows(setup) == ["Cynere", "Teran", "Landon"]
        assert said(app) == "Redone: Landon added"
        # A rule option is a change too: Fate's victories needed, from 3 (the default).
        await keys(pilot, "o")
        assert isinstance(app.screen, FormScreen)
        order = [f.key for f in app.screen.fields]
        await keys(pilot, *["tab"] * order.index("victories_needed"))
        await keys(pilot, "backspace")
        await write(pilot, "5")
        await keys(pilot, "enter")
        assert setup.options.get("victories_needed") == 5
        await keys(pilot, "u")
        assert "victories_needed" not in setup.options
        assert rows(setup) == ["Cynere", "Teran", "Landon"]


async def test_the_character_field_says_what_a_letter_picked_them_to_roll(saves: Path) -> None:
    app = new(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await fresh_setup(pilot)
        await keys(pilot, "a")
        assert shown(app, "character") == "Cynere · Athletics Great (+4)"
        await keys(pilot, "t")  # Teran, his Lore
        assert shown(app, "character") == "Teran · Lore Good (+3)"
        await keys(pilot, "l")  # by initial: Landon, who has no Lore: his first skill
        assert shown(app, "character") == "Landon · Fight Fair (+2)"
        await keys(pilot, "tab", "right")  # his Athletics: the Character line follows
        assert shown(app, "character") == "Landon · Athletics Good (+3)"
        await keys(pilot, "right", "right")  # Other: a rating typed for this contest
        assert shown(app, "character") == "Landon · a rating typed below"
        await keys(pilot, "tab")
        await write(pilot, "Superb")
        assert shown(app, "character") == "Landon · Superb, for this contest only"


async def test_a_resistance_from_the_table_is_highlighted_once_added(saves: Path) -> None:
    # HeroQuest's r adds a participant too (a door, a storm): d then removes it.
    kai = Character(name="Kai", ratings={"Sword": 15})
    ghoul = Character(name="Ghoul", kind="npc", ratings={"Claws": 14})
    seed_campaign(
        saves,
        "Ghost Road",
        "heroquest",
        [kai, ghoul],
        [
            Pick(character="Kai", side="Kai", rating="Sword"),
            Pick(character="Ghoul", side="Ghoul", rating="Claws"),
        ],
    )
    app = new_app(saves, "Ghost Road")
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await fresh_setup(pilot)
        await keys(pilot, "a", "enter", "a", "enter")
        await keys(pilot, "up")  # the highlight on Kai, the first
        assert highlighted(setup) == "Kai"
        await keys(pilot, "r")
        await write(pilot, "Storm")
        await keys(pilot, "enter")
        assert rows(setup) == ["Kai", "Ghoul", "Storm"]
        assert highlighted(setup) == "Storm"
        await keys(pilot, "d")
        assert rows(setup) == ["Kai", "Ghoul"]


async def test_a_setup_left_for_the_roster_is_the_one_n_brings_back(saves: Path) -> None:
    """Two participants picked and the options changed, then w to mend a sheet on the
    roster: n there brings back that setup, not an empty one with it hidden behind (Esc
    twice was the only way back to it), and its undo still takes back its last change."""
    app = new(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await fresh_setup(pilot)
        await keys(pilot, "a", "enter", "a", "enter")  # Cynere, then Teran
        await keys(pilot, "w")
        assert type(app.screen).__name__ == "RosterScreen"
        await keys(pilot, "n")
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert rows(setup) == ["Cynere", "Teran"]
        await keys(pilot, "u")  # Teran's adding, taken back
        assert rows(setup) == ["Cynere"]
        await keys(pilot, "escape")  # back to where n was pressed
        assert type(app.screen).__name__ == "RosterScreen"
        await keys(pilot, "escape")  # and no second setup left behind it
        assert not isinstance(app.screen, SetupScreen)


async def test_a_setup_once_started_is_not_brought_back(saves: Path) -> None:
    """Once its contest has started, n from the contest gives an empty setup."""
    app = new(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await fresh_setup(pilot)
        await keys(pilot, "a", "enter", "a", "enter", "f5", "enter")
        assert type(app.screen).__name__ == "ContestScreen"
        setup = await fresh_setup(pilot)
        assert rows(setup) == []


async def test_q_on_a_setup_the_gm_changed_asks_first(saves: Path) -> None:
    """A setup lives on its screen alone until F5: q asks before losing it, on that
    screen or from the roster it was left for (Esc stays, everything kept; y quits)."""
    app = new(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await fresh_setup(pilot)
        await keys(pilot, "q")  # nothing picked yet: nothing to lose
        assert not app.is_running
    app = new_app(saves, "Friday Fate")
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await fresh_setup(pilot)
        await keys(pilot, "a", "enter", "a", "enter")
        await keys(pilot, "q")
        asked = app.screen
        assert isinstance(asked, ConfirmScreen)
        assert "A contest set up in Friday Fate, not started: Cynere, Teran" in text(
            app, "#confirm-body"
        )
        await keys(pilot, "escape")
        assert app.screen is setup and rows(setup) == ["Cynere", "Teran"]
        await keys(pilot, "w", "q")  # left for the roster: still asked
        assert isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "y")
        assert not app.is_running


async def test_q_on_a_copied_setup_not_changed_does_not_ask(saves: Path) -> None:
    """n on a contest's summary copies its sides: nothing the GM typed, nothing lost."""
    app = new(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await fresh_setup(pilot)
        await keys(pilot, "a", "enter", "a", "enter", "f5", "enter")  # started
        await keys(pilot, "k", "enter", "enter", "enter")  # Cynere attacks: it ends; summary
        assert type(app.screen).__name__ == "SummaryScreen"
        await keys(pilot, "n")
        setup = app.screen
        assert isinstance(setup, SetupScreen) and rows(setup) == ["Cynere", "Teran"]
        await keys(pilot, "q")
        assert not app.is_running


async def test_a_setup_left_for_another_campaign_waits_for_its_campaign(saves: Path) -> None:
    """Picked in Friday Fate, then another campaign opened: q lists that setup, and once
    Friday Fate is open again n brings it back (Esc's trail is each campaign's own)."""
    picks = [
        Pick(character=n, side=n, rating=r) for n, r in (("Cynere", "Athletics"), ("Teran", "Lore"))
    ]
    seed_campaign(saves, "Zed Fate", "fate", [CYNERE, TERAN], picks)
    app = new(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await fresh_setup(pilot)
        await keys(pilot, "a", "enter", "a", "enter")
        await keys(pilot, "c", "down", "enter")  # the campaigns: the second, Zed Fate
        assert app.campaign.name == "Zed Fate"
        await keys(pilot, "q")
        assert isinstance(app.screen, ConfirmScreen)
        shown = text(app, "#confirm-body")
        assert "A contest set up in Friday Fate, not started: Cynere, Teran" in shown
        await keys(pilot, "escape", "c", "up", "enter")  # Friday Fate again
        assert app.campaign.name == "Friday Fate"
        await keys(pilot, "n")
        setup = app.screen
        assert isinstance(setup, SetupScreen) and rows(setup) == ["Cynere", "Teran"]
