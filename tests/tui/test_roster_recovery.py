"""A recovery action on the roster (``r``) and a scenario's end (``E``), by keys at 80x24
(issue 28, "What to build" 4). Worked out from the Fate Core SRD, "Recovering from a
Consequence": a moderate needs an overcome at Great (+4), +2 when treating yourself, and
clears a whole session after it; a severe Fantastic (+6), a whole scenario after it; a
star marks a consequence recovering."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.saves.store import Saves
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.stress import Slot
from tests.helpers import wait_for_odds
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text, write
from tui.app import TussleApp
from tui.screens.forms import FormScreen
from tui.screens.roster import RosterScreen

HURT = (
    Slot(severity="mild"),
    Slot(severity="moderate", aspect="Broken Leg", holder="Drisban"),
    Slot(severity="severe", aspect="Nearly Gutted", holder="Drisban"),
)


def state(app: TussleApp, name: str) -> str:
    """The State column of ``name``'s row."""
    return str(app.screen.query_one("#roster-table", DataTable).get_row(name)[2])


async def open_roster(pilot: Pilot[None]) -> None:
    """From the contest screen, once its odds are worked out."""
    await settle(pilot)
    await wait_for_odds(pilot)
    await keys(pilot, "w")
    assert isinstance(pilot.app.screen, RosterScreen)


def seed(saves: Path) -> None:
    seed_campaign(
        saves,
        "The Long Road",
        "fate",
        [
            Character(
                name="Landon",
                ratings={"Fight": 3},
                sheet=FateCharacter(fate_points=3, refresh=3, consequences=HURT),
            ),
            Character(name="Drisban", kind="npc", ratings={"Fight": 2}),
        ],
        [
            Pick(character="Landon", side="Landon", rating="Fight"),
            Pick(character="Drisban", side="Drisban", rating="Fight"),
        ],
    )


async def test_recovery_by_keys_then_sessions_and_a_scenario_clear_it(saves: Path) -> None:
    seed(saves)
    app = new_app(saves, "The Long Road")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_roster(pilot)
        assert "Recovery" in text(app, "KeyBar")
        assert state(app, "Landon") == ("FP 3/3 · moderate: Broken Leg · severe: Nearly Gutted")
        # r, Esc: nothing changes.
        await keys(pilot, "r")
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "escape")
        assert isinstance(app.screen, RosterScreen)
        # Broken Leg (the first offered), Landon treats himself: Great + 2 = Fantastic.
        # A total of Great (+4) falls short: said under the total, the form stays open.
        await keys(pilot, "r", "tab", "right", "tab")
        await write(pilot, "Great")
        await keys(pilot, "enter")
        assert isinstance(app.screen, FormScreen)
        assert "Great (+4) does not reach Fantastic (+6)" in text(app, "#e-result")
        # The total typed again: Fantastic. The roster marks it with a star.
        total = app.screen.query_one("#f-result", Input)
        total.value = ""
        await write(pilot, "Fantastic")
        await keys(pilot, "enter")
        assert isinstance(app.screen, RosterScreen)
        assert state(app, "Landon") == "FP 3/3 · moderate: Broken Leg* · severe: Nearly Gutted"
        # The severe, by someone else, with skill and dice: Great (+4) and ++00 = +6.
        await keys(pilot, "r")
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "tab", "tab", "tab")  # the leg is recovering: only the severe
        await write(pilot, "Great")
        await keys(pilot, "tab")
        await write(pilot, "++00")
        await keys(pilot, "enter")
        assert isinstance(app.screen, RosterScreen)
        assert state(app, "Landon") == "FP 3/3 · moderate: Broken Leg* · severe: Nearly Gutted*"
        # Nothing left to treat: r says so, no form.
        await keys(pilot, "r")
        assert isinstance(app.screen, RosterScreen)
        # S twice: a whole session after the recovery, the leg clears; the severe waits.
        await keys(pilot, "S")
        assert "Broken Leg*" in state(app, "Landon")
        await keys(pilot, "S")
        assert state(app, "Landon") == "FP 3/3 · severe: Nearly Gutted*"
        # E twice: a whole scenario after it, the severe clears.
        await keys(pilot, "E")
        assert state(app, "Landon") == "FP 3/3 · severe: Nearly Gutted*"
        await keys(pilot, "E")
        assert state(app, "Landon") == "FP 3/3"
        assert app.campaign.settings["scenarios"] == 2
        assert fate_sheet(app.campaign.roster["Landon"]).consequences == (
            Slot(severity="mild"),
            Slot(severity="moderate"),
            Slot(severity="severe"),
        )
        await keys(pilot, "u")  # the last scenario's end undone: the severe is back
        assert state(app, "Landon") == "FP 3/3 · severe: Nearly Gutted*"


async def test_the_roster_form_edits_consequences_and_they_reload(saves: Path) -> None:
    # The form shows them as the roster does; Landon (Fair Physique: one slot of each
    # severity, SRD "Consequences") cannot take two moderates: said under the field.
    seed(saves)
    app = new_app(saves, "The Long Road")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_roster(pilot)
        await keys(pilot, "e")
        assert isinstance(app.screen, FormScreen)
        field = app.screen.query_one("#f-consequences", Input)
        assert field.value == "moderate: Broken Leg; severe: Nearly Gutted"
        field.focus()
        field.value = ""
        await write(pilot, "moderate: Broken Leg; moderate: Split Lip")
        await keys(pilot, "enter")
        assert isinstance(app.screen, FormScreen)
        assert 'no moderate slot left for "Split Lip"' in text(app, "#e-consequences")
        field.value = ""
        await write(pilot, "mild: Split Lip; moderate: Broken Leg*")
        await keys(pilot, "enter")
        assert isinstance(app.screen, RosterScreen)
        assert state(app, "Landon") == "FP 3/3 · mild: Split Lip · moderate: Broken Leg*"
        # An edit of something else keeps Drisban's free invoke on the Broken Leg.
        await keys(pilot, "e")
        fate_points = app.screen.query_one("#f-fate_points", Input)
        fate_points.focus()
        fate_points.value = ""
        await write(pilot, "2")
        await keys(pilot, "enter")
        assert isinstance(app.screen, RosterScreen)
    files = Saves(saves).find("The Long Road")  # quit, then opened again from the saves
    assert files is not None
    reopened = files.load()
    assert fate_sheet(reopened.roster["Landon"]).fate_points == 2
    assert fate_sheet(reopened.roster["Landon"]).consequences == (
        Slot(severity="mild", aspect="Split Lip"),
        Slot(severity="moderate", aspect="Broken Leg", holder="Drisban", recovery="treated"),
        Slot(severity="severe"),
    )
