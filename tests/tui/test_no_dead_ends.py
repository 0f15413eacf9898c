"""No dead ends (issue 24, item 1): every screen reaches the roster, the setup and the
campaigns, by a key and by the command palette, and Esc goes back one step or says why
it cannot. A campaign with no contest yet (an import, or one made on the campaign
screen) opened on a setup or an empty roster where Esc did nothing and neither w nor c
was bound: the only ways out were a throwaway contest or quitting.

By key presses only, as a GM at the table would."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.saves.store import Saves
from tests.tui.conftest import keys, new_app, seed_campaign, write
from tui.app import TussleApp
from tui.cli import main
from tui.screens.campaigns import CampaignScreen
from tui.screens.contest import ContestScreen
from tui.screens.forms import FormScreen
from tui.screens.help import HelpScreen
from tui.screens.roster import RosterScreen
from tui.screens.setup import SetupScreen
from tui.screens.summary import SummaryScreen

ROSTERS = {
    "fate": [
        Character(name="Cynere", ratings={"Athletics": 4}),
        Character(name="Teran", kind="npc", ratings={"Lore": 3}),
    ],
    "heroquest": [
        Character(name="Tripitaka", ratings={"Sword": 17}),
        Character(name="Ghoul", kind="npc", ratings={"Claws": 14}),
    ],
    "forge": [
        Character(name="Kasia", ratings={"Pistols": 45}),
        Character(name="Bobby", kind="npc", ratings={"Brawling": 50}),
    ],
}

# The keys that reach the roster, a setup and the campaigns from each screen, as the help
# lists them. HeroQuest's setup has w for a contest of wherewithal, so its roster is W;
# the campaign screen's n makes a new campaign, so a new contest there is N.
REACH = {
    "contest": {"roster": "w", "setup": "n", "campaigns": "c"},
    "summary": {"roster": "w", "setup": "N", "campaigns": "c"},
    "roster": {"setup": "n", "campaigns": "c"},
    "setup": {"roster": "w", "campaigns": "c"},
    "campaigns": {"roster": "w", "setup": "N"},
}
KINDS: dict[str, type[Screen[None]]] = {
    "contest": ContestScreen,
    "summary": SummaryScreen,
    "roster": RosterScreen,
    "setup": SetupScreen,
    "campaigns": CampaignScreen,
}


def seed(saves: Path, system: str) -> str:
    name = f"{system} night"
    first, second = ROSTERS[system]
    seed_campaign(
        saves,
        name,
        system,
        ROSTERS[system],
        [
            Pick(character=first.name, side=first.name, rating=next(iter(first.ratings))),
            Pick(character=second.name, side=second.name, rating=next(iter(second.ratings))),
        ],
    )
    return name


def on(app: TussleApp) -> str:
    """The kind of screen the GM sees."""
    return next(kind for kind, cls in KINDS.items() if isinstance(app.screen, cls))


def told(app: TussleApp) -> list[str]:
    return [str(n.message) for n in app.told]


async def go_to(pilot: Pilot[None], kind: str) -> None:
    """To a screen ``kind`` by keys alone: to the campaigns (each screen reaches them),
    Enter reopens the campaign on its contest, then that screen's own key."""
    app = pilot.app
    assert isinstance(app, TussleApp)
    if on(app) != "campaigns":
        await keys(pilot, REACH[on(app)]["campaigns"])
    if kind != "campaigns":
        await keys(pilot, "enter")
        assert on(app) == "contest"
        path = {"contest": (), "summary": ("S",), "roster": ("w",), "setup": ("n",)}[kind]
        await keys(pilot, *path)
    assert on(app) == kind


def setup_key(system: str, target: str, key: str) -> str:
    return "W" if (system, target, key) == ("heroquest", "roster", "w") else key


@pytest.mark.parametrize("system", ["fate", "heroquest", "forge"])
async def test_every_screen_reaches_the_roster_the_setup_and_the_campaigns(
    saves: Path, system: str
) -> None:
    app = new_app(saves, seed(saves, system))
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot)
        assert on(app) == "contest"
        for kind, targets in REACH.items():
            for target, key in targets.items():
                await go_to(pilot, kind)
                if kind == "setup":
                    key = setup_key(system, target, key)
                await keys(pilot, key)
                assert on(app) == target, f"{key} on the {kind} screen"


@pytest.mark.parametrize("system", ["fate", "heroquest"])
async def test_every_screen_offers_the_roster_a_setup_and_the_campaigns_in_the_palette(
    saves: Path, system: str
) -> None:
    app = new_app(saves, seed(saves, system))
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot)
        for kind, targets in REACH.items():
            await go_to(pilot, kind)
            titles = {c.title for c in app.get_system_commands(app.screen)}
            wanted = {"roster": "Roster", "setup": "New contest", "campaigns": "Campaigns"}
            for target in targets:
                assert wanted[target] in titles, f"{target} from the {kind} screen"


async def test_esc_on_every_screen_goes_back_or_says_why(saves: Path) -> None:
    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot)
        for kind in [*KINDS, "help"]:
            await go_to(pilot, "contest" if kind == "help" else kind)
            if kind == "help":
                await keys(pilot, "question_mark")
                assert isinstance(app.screen, HelpScreen)
            before, said = app.screen, len(told(app))
            await keys(pilot, "escape")
            moved = app.screen is not before
            assert moved or len(told(app)) > said, f"Esc did nothing on the {kind} screen"
            if not moved:  # the contest's empty keypad: it says so, and where to go
                assert kind == "contest"
                assert "The keypad is empty" in told(app)[-1]
                assert "w: roster" in told(app)[-1] and "c: campaigns" in told(app)[-1]


async def test_esc_goes_back_one_step_along_the_way_the_gm_came(saves: Path) -> None:
    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot)
        await keys(pilot, "w", "n", "c")  # contest, roster, setup, campaigns
        assert on(app) == "campaigns"
        await keys(pilot, "escape")
        assert on(app) == "setup"
        await keys(pilot, "escape")
        assert on(app) == "roster"
        await keys(pilot, "escape")
        assert on(app) == "contest"
        # Summary, a modal over the contest: Esc closes it.
        await keys(pilot, "S")
        assert on(app) == "summary"
        await keys(pilot, "escape")
        assert on(app) == "contest"


async def test_the_setup_left_for_the_roster_comes_back_as_it_was(saves: Path) -> None:
    # A GM setting up a contest finds a character missing: w, a (the character), Esc.
    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot)
        await keys(pilot, "n", "a", "enter")  # Cynere, her Athletics
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert [p.character for p in setup.picks] == ["Cynere"]
        await keys(pilot, "w", "a")
        await write(pilot, "Zird")
        await keys(pilot, "enter")
        assert "Zird" in app.campaign.roster
        await keys(pilot, "escape")
        again = app.screen
        assert isinstance(again, SetupScreen) and again is not setup
        assert [p.character for p in again.picks] == ["Cynere"]
        await keys(pilot, "a", "right", "enter")  # Teran is next, then Zird: Zird
        assert [p.character for p in again.picks] == ["Cynere", "Zird"]


async def test_a_new_campaign_made_on_the_campaign_screen_is_no_dead_end(saves: Path) -> None:
    # The evening: c n "friday fate" Enter gave an empty roster with no way out.
    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot)
        await keys(pilot, "c", "n")
        await write(pilot, "friday fate")
        await keys(pilot, "enter")
        assert on(app) == "roster" and app.campaign.name == "friday fate"
        assert app.get_system_commands(app.screen)  # the palette has them (see above)
        await keys(pilot, "escape")  # back one step: the campaigns, where it was made
        assert on(app) == "campaigns"
        await keys(pilot, "escape")  # and back to the campaign open
        assert on(app) == "roster" and app.campaign.name == "friday fate"
        await keys(pilot, "n")
        assert on(app) == "setup"
        await keys(pilot, "w")
        assert on(app) == "roster"
        await keys(pilot, "c")
        assert on(app) == "campaigns"


async def test_a_campaign_opened_on_its_setup_is_left_by_esc(saves: Path) -> None:
    # An import and no contest yet: the dashboard opens on the setup ("A new contest").
    seed(saves, "fate")
    Saves(saves).create("Children of the Grave", "heroquest")
    party = Path(__file__).parent.parent / "data" / "roster" / "party-heroquest.toml"
    imported = main(
        ["--saves", str(saves), "roster", "import", "Children of the Grave", str(party)]
    )
    assert imported == 0
    app = new_app(saves, "Children of the Grave")
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot)
        assert on(app) == "setup"
        await keys(pilot, "escape")
        assert on(app) == "campaigns"
        await keys(pilot, "escape")
        assert on(app) == "setup"
        await keys(pilot, "W")
        assert on(app) == "roster"
        await keys(pilot, "escape")
        assert on(app) == "setup"


async def test_with_no_campaign_open_the_campaign_screen_says_why_nothing_opens(
    tmp_path: Path,
) -> None:
    saves = tmp_path / "empty"
    saves.mkdir()
    from tui.app import make_app

    app = make_app(saves, demos=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await keys(pilot)
        assert on(app) == "campaigns"
        for key, words in (("escape", "nothing to go back to"), ("w", "No campaign is open")):
            said = len(told(app))
            await keys(pilot, key)
            assert on(app) == "campaigns"
            assert len(told(app)) > said and words in told(app)[-1]
        await keys(pilot, "N")
        assert on(app) == "campaigns" and "No campaign is open" in told(app)[-1]
        assert not isinstance(app.screen, FormScreen)
