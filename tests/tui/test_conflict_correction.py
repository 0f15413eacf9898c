"""C on a Fate conflict (issue 28, "What to build" 2: "Undo, redo and corrections work as
everywhere else"): an attack's dice corrected in a form (the last attack by default), its
absorption asked again when the hit's shifts changed, what changes shown and asked, then
made through the engine (core.campaign.corrections) as one action that u takes back.
Before, C refused and sent the GM to u, k and a. The warehouse conflict is the SRD's, in
tests/conflict_campaigns.py: Cynere's 2-shift hit on Drisban's 2-box, then Drisban's on
Cynere: Fight Great (+4), ++00: Fantastic (+6), against her Athletics Great (+4), --00:
Fair (+2): 4 shifts, taken as a moderate, "Cracked Ribs".

Expected values from the Fate Core SRD: "Resolving Attacks" (the shifts are the margin),
"Stress" (a box covers what it absorbs: her 3-box covers 3), "Consequences" (moderate 4)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from core.campaign.log import Play
from core.saves.store import CampaignFiles
from core.systems.fate.conflict_play import FateConflict
from tests.conflict_campaigns import attack, warehouse
from tests.helpers import act
from tests.tui.conftest import keys, new_app, settle, text, write
from tui.app import TussleApp
from tui.screens.confirm import ConfirmScreen
from tui.screens.contest import ContestScreen
from tui.screens.forms import FormScreen
from tui.widgets.choice import Choice


def state(app: TussleApp) -> FateConflict:
    s = app.campaign.contest("c1").state
    assert isinstance(s, FateConflict)
    return s


def said(app: TussleApp) -> str:
    return str(list(app.told)[-1].message)


def shown(app: TussleApp) -> str:
    """The form or question on top: its title, its hint and what it lists."""
    screen = app.screen
    parts = [str(screen.query_one("#dialog").border_title)]
    parts += [str(s.visual) for s in screen.query(Static)]
    parts += [str(c.render()) for c in screen.query(Choice)]
    return "\n".join(parts)


def cracked_ribs(app: TussleApp) -> str | None:
    return state(app).conflict.combatant("Cynere").slots[1].aspect


async def test_c_corrects_the_last_attacks_dice_and_asks_the_absorption_again(
    saves: Path,
) -> None:
    """Cynere's dice were -000, not --00: Good (+3) against Fantastic (+6), a 3-shift hit
    (not 4). The moderate is no longer what it was: the absorption is asked again, her
    3-box first (it covers 3). The question lists what changes; Enter makes it: the
    3-box checked, no Cracked Ribs. u takes the correction back."""
    warehouse(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "C")
        assert isinstance(app.screen, FormScreen)
        assert "Drisban on Cynere, ++00 vs --00" in shown(app)  # the last attack first
        await keys(pilot, "enter")
        assert "Correct Drisban's attack on Cynere (exchange 1)" in shown(app)
        assert "a 4-shift physical hit with style" in shown(app)
        await keys(pilot, "tab", "ctrl+u")
        await write(pilot, "-000")
        await keys(pilot, "enter")
        assert isinstance(app.screen, FormScreen)
        assert "Cynere absorbs a 3-shift physical hit" in shown(app)
        assert "◀ the 3-box ▶" in shown(app)
        await keys(pilot, "enter")
        assert isinstance(app.screen, ConfirmScreen)
        told = shown(app)
        assert "was   Exchange 1: Drisban attacks Cynere, a 4-shift physical hit" in told
        assert "now   Exchange 1: Drisban attacks Cynere, a 3-shift physical hit" in told
        assert cracked_ribs(app) == "Cracked Ribs"  # nothing changed yet
        await keys(pilot, "enter")
        assert isinstance(app.screen, ContestScreen)
        cynere = state(app).conflict.combatant("Cynere")
        assert [b.checked for b in cynere.track("physical").boxes] == [False, False, True]
        assert cracked_ribs(app) is None
        assert "Drisban's attack on Cynere (exchange 1) corrected" in said(app)
        assert "Cynere (Athletics): -000 → Good (+3)" in text(app, "#log")
        reloaded = CampaignFiles(saves / "warehouse").load().contest("c1").state
        assert reloaded == state(app)
        await keys(pilot, "u")
        assert cracked_ribs(app) == "Cracked Ribs"
        await keys(pilot, "q")


async def test_the_same_shifts_keep_the_absorption_and_esc_corrects_nothing(
    saves: Path,
) -> None:
    """Cynere's attack (the first of two, chosen with ←) was +++0 against -0+0: Fight +3
    + 3 = Fantastic (+6) against Fight +4 + 0 = Great (+4): 2 shifts, as before: his 2-box
    as it was, not asked again: straight to what changes. Esc there, and Esc on the dice
    form, correct nothing."""
    warehouse(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = state(app)
        await keys(pilot, "C", "escape")  # the choice
        await keys(pilot, "C", "enter", "escape")  # the dice
        assert isinstance(app.screen, ContestScreen) and state(app) == before
        await keys(pilot, "C", "left")
        assert "Cynere on Drisban, ++00 vs -000" in shown(app)
        await keys(pilot, "enter", "ctrl+u")
        await write(pilot, "+++0")
        await keys(pilot, "tab", "ctrl+u")
        await write(pilot, "-0+0")
        await keys(pilot, "enter")
        assert isinstance(app.screen, ConfirmScreen)  # no absorption asked
        assert "same  Exchange 1: Cynere attacks Drisban, a 2-shift physical hit" in shown(app)
        await keys(pilot, "escape")
        assert isinstance(app.screen, ContestScreen) and state(app) == before
        await keys(pilot, "q")


async def test_an_attack_whose_hit_waits_is_taken_back_with_u_not_corrected(
    saves: Path,
) -> None:
    """A hit waiting for its absorption is not in the log yet: C says u takes the attack
    back (one action) and k plays it again; no form opens."""
    files = CampaignFiles(warehouse(saves))
    campaign = files.load()
    act(campaign, files, Play(contest_id="c1", commands=(attack("Cynere", "++00", "-000"),)))
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert state(app).hit is not None
        await keys(pilot, "C")
        assert isinstance(app.screen, ContestScreen)
        assert "u takes the attack back" in said(app)
        await keys(pilot, "q")


async def test_a_conflict_whose_results_are_on_the_roster_is_not_corrected(
    saves: Path,
) -> None:
    """Drisban conceded and the results went onto the roster: C says so before any form
    (as for a contest's exchange), and that u takes the writing back first."""
    from core.campaign.log import WriteBack

    files = CampaignFiles(warehouse(saves, concede=True))
    campaign = files.load()
    act(campaign, files, WriteBack(contest_id="c1"))
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "C")
        assert isinstance(app.screen, ContestScreen)
        assert "Its results are on the roster" in said(app)
        await keys(pilot, "q")
