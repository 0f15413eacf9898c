"""A quick roll on the dashboard, by keys (issue 16): ctrl+r opens the form, the roll goes
into the campaign's log as one action, the recap (M) lists it as a roll outside the
contests, and u takes it back, leaving the contest as it was.

The Fate demo: 4dF+3 vs 2 with the table's ++0- (+1) is +4 Great against +2 Fair, 2
shifts: a success (rules §1.2; style needs 3). Success or better needs dice of 0 or more:
50 of the 81 throws, 61.7%; style dice of +2 or more: 15 of 81, 18.5%.
"""

from __future__ import annotations

from pathlib import Path

from core.saves.store import CampaignFiles
from tests.tui.conftest import keys, new_app, recap_written, settle, text
from tui.app import TussleApp
from tui.screens.contest import ContestScreen
from tui.screens.forms import FormScreen
from tui.screens.roster import RosterScreen

NAMED = {"+": "plus", "-": "minus", " ": "space"}
LINE = (
    "- 4dF+3 vs 2: ++0- → +4 Great vs +2 Fair: success, 2 shifts · "
    "chance of success or better: 61.7% (with style: 18.5%)"
)


async def typed(pilot: object, words: str) -> None:
    await keys(pilot, *(NAMED.get(c, c) for c in words))  # type: ignore[arg-type]


def toasts(app: TussleApp) -> list[str]:
    return [str(n.message) for n in app.told]


def saved(app: TussleApp) -> CampaignFiles:
    assert app.files is not None
    return CampaignFiles(app.files.folder)  # read from disk, as a restart would


async def test_a_quick_roll_by_keys_is_logged_recapped_and_undone(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        await keys(pilot, *"0000" * 2, "enter")  # exchange 1: Cynere +4, Teran +3
        assert len(screen.record.exchanges) == 1
        await keys(pilot, "ctrl+r")
        assert isinstance(app.screen, FormScreen)
        await typed(pilot, "4dF+3 vs 2")
        await keys(pilot, "tab")
        await typed(pilot, "++0-")
        await keys(pilot, "enter")
        assert app.screen is screen  # the form closed, the contest is back

        # In the log, on disk: one action, the roll with the table's dice.
        ((_, rolled),) = saved(app).load().rolls
        assert rolled.faces == ((1, 1, 0, -1),)
        assert rolled.outcome == "+4 Great vs +2 Fair: success, 2 shifts"
        # Shown with its chance, on the keypad's last line (a toast covered the keypad:
        # issue 24, item 22).
        shown = text(app, "#keypad")
        assert "+4 Great vs +2 Fair: success, 2 shifts" in shown and "61.7%" in shown

        # In the recap M writes, as a roll outside the contests.
        await keys(pilot, "M")
        await recap_written(app)
        (recap,) = (saves / "recaps").glob("*.md")
        lines = recap.read_text(encoding="utf-8").splitlines()
        assert "## Rolls outside the contests" in lines
        assert LINE in lines

        # u takes the roll back, and only the roll: the contest keeps its exchanges.
        await keys(pilot, "u")
        assert saved(app).load().rolls == []
        assert app.campaign.rolls == []
        assert len(screen.record.exchanges) == 1
        assert "Undone: quick roll (4dF+3 vs 2)" in toasts(app)
        assert "Exchange 1: Cynere wins" in text(app, "#log")


async def test_a_roll_the_campaign_cannot_read_keeps_the_form_open(saves: Path) -> None:
    # From the roster: a FORGE roll in the Fate demo is refused under the field, the
    # form keeps it; corrected to a Fate roll that Tussle rolls, it goes in.
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w", "ctrl+r")
        assert isinstance(app.screen, FormScreen)
        await typed(pilot, "d100 vs 45")
        await keys(pilot, "enter")
        assert isinstance(app.screen, FormScreen)
        assert "not a roll Tussle reads" in text(app, "#e-expression")
        assert app.campaign.rolls == []
        await keys(pilot, *["backspace"] * len("d100 vs 45"))
        await typed(pilot, "4dF-1")
        await keys(pilot, "enter")
        assert isinstance(app.screen, RosterScreen)
        ((_, rolled),) = saved(app).load().rolls
        assert rolled.expression == "4dF-1"
        assert len(rolled.faces[0]) == 4  # Tussle rolled four Fate dice


async def test_heroquest_roll_from_the_roster_at_160x48(saves: Path) -> None:
    # 4M vs 14 with 7 and 12 (worked in tests/core/test_quick_roll.py's comment):
    # a failure bumped up to a success against a success, the lower roll wins: marginal.
    app = new_app(saves, campaign="HeroQuest demo")
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await keys(pilot, "w", "ctrl+r")
        await typed(pilot, "4M vs 14")
        await keys(pilot, "tab")
        await typed(pilot, "7 12")
        await keys(pilot, "enter")
        ((_, rolled),) = app.campaign.rolls
        assert rolled.outcome == "marginal victory"
        assert any("chance of victory: 53.3% (tie 2.5%)" in t for t in toasts(app))
        await keys(pilot, "u")
        assert app.campaign.rolls == []
