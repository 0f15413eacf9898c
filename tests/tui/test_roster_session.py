"""The session's housekeeping on the roster, by key presses only: a session's start
(Fate refresh, HeroQuest hurts recovering and hero points reset), compels, undo, and the
states earlier contests leave, edited by the GM."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.errors import RuleError
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.stress import Slot
from core.systems.forge.character import ForgeCharacter, forge_sheet
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet
from tests.helpers import wait_for_odds
from tests.tui.conftest import keys, new_app, opaque_modals, seed_campaign, settle, text, write
from tui.app import TussleApp
from tui.screens.forms import FormScreen
from tui.screens.roster import RosterScreen
from tui.systems.heroquest.roster import parse_states


def roster(app: TussleApp) -> dict[str, str]:
    """The roster table as shown: each row's cells after the name, by name."""
    table = app.screen.query_one("#roster-table", DataTable)
    rows: dict[str, str] = {}
    for i in range(table.row_count):
        name, *cells = (str(cell) for cell in table.get_row_at(i))
        rows[name] = " | ".join(cells)
    return rows


def state(app: TussleApp, name: str) -> str:
    """The State column of ``name``'s row."""
    table = app.screen.query_one("#roster-table", DataTable)
    return str(table.get_row(name)[2])


async def open_roster(pilot: Pilot[None]) -> None:
    """From the contest screen, once its odds are worked out (a worker finishing after
    the contest screen has gone would paint a screen that is not there)."""
    await settle(pilot)
    await wait_for_odds(pilot)
    await keys(pilot, "w")
    assert isinstance(pilot.app.screen, RosterScreen)


def seed_fate(saves: Path) -> None:
    # Ana is not in the contest; Bo plays it against the Guard.
    seed_campaign(
        saves,
        "Night Watch",
        "fate",
        [
            Character(
                name="Ana", ratings={"Burglary": 3}, sheet=FateCharacter(fate_points=1, refresh=3)
            ),
            Character(
                name="Bo", ratings={"Fight": 2}, sheet=FateCharacter(fate_points=5, refresh=3)
            ),
            Character(name="Guard", kind="npc", ratings={"Fight": 1}),
        ],
        [
            Pick(character="Bo", side="Bo", rating="Fight"),
            Pick(character="Guard", side="Guard", rating="Fight"),
        ],
    )


def seed_heroquest(saves: Path) -> None:
    seed_campaign(
        saves,
        "Ghost Road",
        "heroquest",
        [
            Character(
                name="Tripitaka",
                ratings={"Fist": 17},
                sheet=HeroQuestCharacter(hero_points=0, adversity=("hurt", "impaired")),
            ),
            Character(
                name="Ghoul",
                kind="npc",
                ratings={"Claws": 17},
                sheet=HeroQuestCharacter(hero_points=2, adversity=("hurt",)),
            ),
        ],
        [
            Pick(character="Tripitaka", side="Heroes", rating="Fist"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
    )


async def test_more_hurts_than_a_typing_slip_stay_editable(saves: Path) -> None:
    """Hurts stack (rules §2.6: two marginal defeats, -6), so contests' results can leave
    a character more than 9 of one state, which the form writes "hurt×12": the GM edits
    another field and the form keeps them (it refused its own line before); a count
    above the one held is still a slip: "hurt×13" is refused."""
    seed_campaign(
        saves,
        "Ghost Road",
        "heroquest",
        [
            Character(
                name="Tripitaka",
                ratings={"Fist": 17},
                sheet=HeroQuestCharacter(adversity=("hurt",) * 12),
            ),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 17}),
        ],
        [
            Pick(character="Tripitaka", side="Heroes", rating="Fist"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
    )
    app = opaque_modals(new_app(saves, "Ghost Road"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_roster(pilot)
        await keys(pilot, "e", *["tab"] * 3, "ctrl+u")  # hero points
        await write(pilot, "2")
        await keys(pilot, "enter")
        assert not isinstance(app.screen, FormScreen), "the form refused its own states"
        sheet = hq_sheet(app.campaign.roster["Tripitaka"])
        assert (sheet.hero_points, sheet.adversity) == (2, ("hurt",) * 12)
        await keys(pilot, "e", *["tab"] * 5, "ctrl+u")
        await write(pilot, "hurt x13")
        await keys(pilot, "enter")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert "1 to 12 times" in str(form.query_one("#e-adversity", Static).visual)


async def test_a_session_test_refresh_a_compel_and_hurts_recovering(saves: Path) -> None:
    """A session test: refresh, a compel, and hurts recovering, checked on the roster."""
    seed_fate(saves)
    app = new_app(saves, "Night Watch")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_roster(pilot)
        assert roster(app) == {
            "Ana": "PC | FP 1/3 | Burglary +3",
            "Bo": "PC | FP 5/3 | Fight +2",
            "Guard": "NPC | FP 0/0 | Fight +1",
        }
        # At 80 columns the bar shortens its labels to fit them all (r Recovery too).
        bar = text(app, "KeyBar")
        assert "S Start" in bar and "k Compel" in bar and "r Recovery" in bar
        # Fate Core refresh: Ana has 1 < 3, she goes up to 3; Bo's 5 > 3 stay 5; the
        # Guard (an NPC, refresh 0) is left alone.
        await keys(pilot, "S")
        assert state(app, "Ana") == "FP 3/3"
        assert state(app, "Bo") == "FP 5/3"
        assert state(app, "Guard") == "FP 0/0"
        assert "session 1" in text(app, "#title")
        assert app.campaign.settings["sessions"] == 1
        assert fate_sheet(app.campaign.roster["Ana"]).fate_points == 3
        assert fate_sheet(app.campaign.roster["Bo"]).fate_points == 5
        # Ana (the first row) accepts a compel: 3 + 1 on the roster.
        await keys(pilot, "k")
        assert state(app, "Ana") == "FP 4/3"
        assert fate_sheet(app.campaign.roster["Ana"]).fate_points == 4
        # Undo takes the compel back; a second undo takes the session start back.
        await keys(pilot, "u")
        assert state(app, "Ana") == "FP 3/3"
        assert fate_sheet(app.campaign.roster["Ana"]).fate_points == 3
        await keys(pilot, "u")
        assert state(app, "Ana") == "FP 1/3"
        assert "session" not in text(app, "#title")
        assert "sessions" not in app.campaign.settings
        await keys(pilot, "U")  # redo: the session is started again
        assert state(app, "Ana") == "FP 3/3"
        # Bo is in the unfinished contest: his compel's fate point goes there (5 + 1),
        # the roster keeps 5 until the contest is written back.
        await keys(pilot, "down", "k")
        assert state(app, "Bo") == "FP 5/3 (6 in play)"
        assert fate_sheet(app.campaign.roster["Bo"]).fate_points == 5
        bo = next(p for p in app.campaign.contests["c1"].state.participants if p.name == "Bo")
        assert getattr(bo, "fate_points", None) == 6
        assert state(app, "Ana") == "FP 3/3"


async def test_a_heroquest_session_heals_hurts_and_resets_hero_points(saves: Path) -> None:
    seed_heroquest(saves)
    app = opaque_modals(new_app(saves, "Ghost Road"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_roster(pilot)
        assert state(app, "Tripitaka") == "HP 0 · hurt, impaired"
        assert state(app, "Ghoul") == "HP 2 · hurt"
        assert "Compel" not in text(app, "KeyBar")  # a Fate rule
        await keys(pilot, "k")
        assert isinstance(app.screen, RosterScreen)
        # A session: hurts recover (§2.6), impairments stay; the PCs' hero points are
        # reset to 3, the Ghoul (an NPC) keeps its 2.
        await keys(pilot, "S")
        assert isinstance(app.screen, FormScreen)
        assert app.screen.query_one(Input).value == ""  # no session set them before
        await write(pilot, "3")
        await keys(pilot, "enter")
        assert state(app, "Tripitaka") == "HP 3 · impaired"
        assert state(app, "Ghoul") == "HP 2"
        assert hq_sheet(app.campaign.roster["Tripitaka"]).adversity == ("impaired",)
        assert hq_sheet(app.campaign.roster["Tripitaka"]).hero_points == 3
        assert hq_sheet(app.campaign.roster["Ghoul"]).hero_points == 2
        assert hq_sheet(app.campaign.roster["Ghoul"]).adversity == ()
        # The next session's form offers the value used last.
        await keys(pilot, "S")
        assert app.screen.query_one(Input).value == "3"
        await keys(pilot, "escape")
        assert app.campaign.settings["sessions"] == 1
        # Undo on the roster takes the session back.
        await keys(pilot, "u")
        assert state(app, "Tripitaka") == "HP 0 · hurt, impaired"
        assert hq_sheet(app.campaign.roster["Ghoul"]).adversity == ("hurt",)


async def test_the_gm_edits_adversity_benefits_and_trauma(saves: Path) -> None:
    seed_heroquest(saves)
    app = opaque_modals(new_app(saves, "Ghost Road"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_roster(pilot)
        await keys(pilot, "e")
        # Name, kind, abilities, hero points, vitality, then the states of adversity.
        await keys(pilot, *["tab"] * 5, "ctrl+u")
        await write(pilot, "hurt x2, injured")
        await keys(pilot, "tab", "ctrl+u")
        await write(pilot, "fist +3")
        await keys(pilot, "enter")
        tripitaka = app.campaign.roster["Tripitaka"]
        assert hq_sheet(tripitaka).adversity == ("hurt", "hurt", "injured")
        assert hq_sheet(tripitaka).benefits == {"Fist": 3}  # spelled as the ability is
        assert tripitaka.ratings == {"Fist": 17}
        assert state(app, "Tripitaka") == "HP 0 · hurt×2, injured · Fist +3"
        # A state that is not one is refused, and nothing changes.
        await keys(pilot, "e", *["tab"] * 5, "ctrl+u")
        await write(pilot, "bruised")
        await keys(pilot, "enter")
        assert app.campaign.roster["Tripitaka"] == tripitaka
        await keys(pilot, "escape")
        # Hurt none times is no state (rules §2.6: a state is a defeat's, counted by the
        # defeats): refused under the field, not kept as a state, nor silently dropped.
        for typed in ("hurt x0", "Fist hurt*0", "hurt x" + "9" * 30):
            await keys(pilot, "e", *["tab"] * 5, "ctrl+u")
            await write(pilot, typed)
            await keys(pilot, "enter")
            form = app.screen
            assert isinstance(form, FormScreen), typed
            said = str(form.query_one("#e-adversity", Static).visual)
            assert "1 to 9 times" in said and "9" * 21 not in said, said
            await keys(pilot, "escape")
            assert app.campaign.roster["Tripitaka"] == tripitaka
        with pytest.raises(RuleError, match="1 to 9 times"):  # as the roster writes it
            parse_states("hurt×0", {})
        await keys(pilot, "q")

    seed_campaign(
        saves,
        "Alley",
        "forge",
        [
            Character(
                name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4, trauma=5)
            ),
            Character(
                name="Bobby",
                kind="npc",
                ratings={"Brawling": 40},
                sheet=ForgeCharacter(armor=10, armor_capacity=90),
            ),
        ],
        [
            Pick(character="Josef", side="Josef", rating="Brawling"),
            Pick(character="Bobby", side="Bobby", rating="Brawling"),
        ],
        {"combat": True},
    )
    app = opaque_modals(new_app(saves, "Alley"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_roster(pilot)
        assert state(app, "Josef") == "×4 · trauma 5"
        assert state(app, "Bobby") == "×1 · armor 10 (90 left)"
        # Josef heals 3 of his 5 trauma: the GM writes 2 in the last field.
        await keys(pilot, "e", *["tab"] * 7, "ctrl+u")
        await write(pilot, "2")
        await keys(pilot, "enter")
        assert forge_sheet(app.campaign.roster["Josef"]).trauma == 2
        assert state(app, "Josef") == "×4 · trauma 2"
        assert roster(app)["Josef"] == "PC | ×4 · trauma 2 | Brawling 50%"
        # A FORGE session start only counts the session.
        await keys(pilot, "S")
        assert app.campaign.settings["sessions"] == 1
        assert "session 1" in text(app, "#title")
        assert forge_sheet(app.campaign.roster["Josef"]).trauma == 2


async def test_the_fate_roster_shows_the_consequences_a_conflict_left(saves: Path) -> None:
    """A conflict writes its consequences on the sheet (SRD: they stay until they
    recover): the roster's State column shows each one written, with its severity, and
    nothing for a free slot."""
    seed_campaign(
        saves,
        "After the Mud",
        "fate",
        [
            Character(
                name="Cynere",
                ratings={"Fight": 4},
                sheet=FateCharacter(
                    fate_points=3,
                    refresh=3,
                    consequences=(
                        Slot(severity="mild", aspect="Bruised Shoulder", holder="Teran"),
                        Slot(severity="moderate"),
                        Slot(severity="severe"),
                    ),
                ),
            ),
            Character(name="Teran", kind="npc", ratings={"Athletics": 2}),
        ],
        [
            Pick(character="Cynere", side="Cynere", rating="Fight"),
            Pick(character="Teran", side="Teran", rating="Athletics"),
        ],
    )
    app = new_app(saves, "After the Mud")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_roster(pilot)
        assert state(app, "Cynere") == "FP 3/3 · mild: Bruised Shoulder"
        assert state(app, "Teran") == "FP 0/0"
