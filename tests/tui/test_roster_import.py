"""The roster screen's import key (``I``, issue 16), by key presses only: a file's
characters come in as one action, the notification says what came in and what was left
out, ``u`` takes the whole import back; a bad path or a bad file is said in the form,
which keeps the path as typed, and adds nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.fate.character import FateCharacter, fate_sheet
from tests.helpers import ROSTER_FILES, wait_for_odds
from tests.tui.conftest import keys, new_app, seed_campaign, settle, write
from tui.app import TussleApp
from tui.screens.forms import FormScreen
from tui.screens.roster import RosterScreen


def names(app: TussleApp) -> list[str]:
    table = app.screen.query_one("#roster-table", DataTable)
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


def notes(app: TussleApp) -> list[str]:
    return [str(n.message) for n in app.told]


def seed(saves: Path) -> None:
    seed_campaign(
        saves,
        "Night Watch",
        "fate",
        [
            Character(
                name="Ana", ratings={"Burglary": 3}, sheet=FateCharacter(fate_points=1, refresh=3)
            ),
            Character(name="Guard", kind="npc", ratings={"Fight": 1}),
        ],
        [
            Pick(character="Ana", side="Ana", rating="Burglary"),
            Pick(character="Guard", side="Guard", rating="Fight"),
        ],
    )


async def open_import(pilot: Pilot[None]) -> FormScreen[object]:
    await settle(pilot)
    await wait_for_odds(pilot)
    await keys(pilot, "w")
    assert isinstance(pilot.app.screen, RosterScreen)
    title = pilot.app.screen.query_one("#title", Static)
    assert "I import" in str(title.visual)  # the key is said where the GM looks (in full or short)
    await keys(pilot, "I")
    form = pilot.app.screen
    assert isinstance(form, FormScreen)
    return form


def error_under_path(form: FormScreen[object]) -> str:
    line = form.query_one("#e-path", Static)
    return str(line.visual) if line.display else ""


async def test_the_import_key_adds_a_file_as_one_action_that_u_takes_back(
    saves: Path, tmp_path: Path
) -> None:
    seed(saves)
    sheet = shutil.copy(ROSTER_FILES / "fari-v3-cynere.json", tmp_path / "cynere.json")
    app = new_app(saves, "Night Watch")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_import(pilot)
        await write(pilot, str(sheet))
        await keys(pilot, "enter")
        assert isinstance(app.screen, RosterScreen)
        assert names(app) == ["Ana", "Guard", "Cynere"]
        cynere = app.campaign.roster["Cynere"]
        # From the sheet: Athletics "+4", Burglary "3", Fight "4", Notice "+2"; the main
        # point counter 2 of max 3.
        assert cynere.ratings == {"Athletics": 4, "Burglary": 3, "Fight": 4, "Notice": 2}
        assert (fate_sheet(cynere).fate_points, fate_sheet(cynere).refresh) == (2, 3)
        said = "\n".join(notes(app))
        assert "Cynere (PC, added)" in said
        # What the sheet held that Tussle left out, by name: a stunt, the notes; its two
        # stress tracks and its consequence came in (issue 28), and the report says so.
        assert "left out: " in said
        for what in ("Stunt #1", "Notes"):
            assert what in said, what
        assert "stress Physical [x1][2][3], Mental [1][2]" in said
        assert "mild: Sprained Ankle" in said
        await keys(pilot, "u")
        assert names(app) == ["Ana", "Guard"]
        assert "Cynere" not in app.campaign.roster
        assert any("Undone: import of 1 character from cynere.json" in n for n in notes(app))


async def test_a_bad_path_or_file_is_said_in_the_form_with_the_path_kept(
    saves: Path, tmp_path: Path
) -> None:
    seed(saves)
    broken = shutil.copy(ROSTER_FILES / "fari-bad-skill.json", tmp_path / "bart.json")
    app = new_app(saves, "Night Watch")
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_import(pilot)
        missing = str(tmp_path / "nowhere.toml")
        await write(pilot, missing)
        await keys(pilot, "enter")
        assert app.screen is form  # still open
        assert "cannot be read" in error_under_path(form)
        field = form.query_one("#f-path", Input)
        assert field.value == missing and field.has_focus
        field.value = ""
        await write(pilot, str(broken))
        await keys(pilot, "enter")
        assert app.screen is form
        said = error_under_path(form)
        assert "skill “Shoot”" in said and '"4X" is not a whole number' in said
        assert form.query_one("#f-path", Input).value == str(broken)
        await keys(pilot, "escape")
        assert isinstance(app.screen, RosterScreen)
        assert names(app) == ["Ana", "Guard"]  # nothing of the file was added


async def test_a_character_already_there_is_refused_unless_replace_is_chosen(
    saves: Path, tmp_path: Path
) -> None:
    seed(saves)
    party = tmp_path / "ana.toml"
    party.write_text('[[characters]]\nname = "Ana"\nskills = { Stealth = 5 }\n')
    app = new_app(saves, "Night Watch")
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_import(pilot)
        await write(pilot, str(party))
        await keys(pilot, "enter")
        assert app.screen is form
        assert '"Ana" is already on the roster' in error_under_path(form)
        await keys(pilot, "tab", "right", "enter")  # Replace: Yes
        assert isinstance(app.screen, RosterScreen)
        assert app.campaign.roster["Ana"].ratings == {"Stealth": 5}
        await keys(pilot, "u")
        assert app.campaign.roster["Ana"].ratings == {"Burglary": 3}
