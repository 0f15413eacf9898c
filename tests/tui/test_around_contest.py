"""Around the contest, by key presses only: the summary at its end, the results written
back to the roster (and undone), the next contest with the same sides, and a correction of
an old exchange. Expected values are worked from the rules, not read from the app."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.heroquest.character import hq_sheet
from core.systems.heroquest.state import HQContest
from tests.helpers import wait_for_odds
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text, write
from tui.screens.contest import ContestScreen


async def twice(pilot: Pilot[None]) -> None:
    """The write-back is sent when the bus reports the contest's end: one more round."""
    await settle(pilot)
    await settle(pilot)


async def test_a_fate_contest_ends_with_the_summary_and_the_points_spent_and_paid(
    saves: Path,
) -> None:
    seed_campaign(
        saves,
        "Race",
        "fate",
        [
            Character(
                name="Cynere",
                ratings={"Athletics": 4},
                sheet=FateCharacter(aspects=("I've Got Zird's Back",), fate_points=3, refresh=3),
            ),
            Character(
                name="Teran", kind="npc", ratings={"Lore": 3}, sheet=FateCharacter(fate_points=1)
            ),
        ],
        [
            Pick(character="Cynere", side="Cynere", rating="Athletics"),
            Pick(character="Teran", side="Teran", rating="Lore"),
        ],
    )
    app = new_app(saves, "Race")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # 1: Cynere ++++ = 8; Teran ---- = -1, and he pays a fate point to invoke
        # Cynere's own aspect against her (+2 = 1): margin 7, two victories for Cynere.
        # Teran's point goes to Cynere, the aspect's owner, when the contest ends.
        await keys(pilot, *["plus"] * 4, *["minus"] * 4)
        await keys(pilot, "i", "t", "tab", "i", "enter")
        await keys(pilot, "enter")
        assert "Exchange 1: Cynere wins with style, 2 victories (2–0)" in text(app, "#log")
        # 2: the same dice without the invoke: 4-0, the contest is over.
        await keys(pilot, *["plus"] * 4, *["minus"] * 4, "enter")
        await twice(pilot)
        assert "Cynere won, 4 victories to 0" in text(app, "#keypad")
        await pilot.pause(0.2)
        assert log_at_end(app)  # the last exchange is in view, all of it
        await keys(pilot, "enter")  # on a finished contest: its summary
        shown = text(app, "#summary")
        assert "Cynere won, 4 victories to 0" in shown
        assert "Teran spent 1 fate point" in shown
        assert "Cynere is paid 1 fate point for invokes on their aspects" in shown
        assert "Exchange 2: Cynere wins with style, 2 victories (4–0)" in shown
        assert "Written to the roster" in shown
        assert "Cynere: fate points 3 → 4" in shown
        assert "Teran: fate points 1 → 0" in shown
        roster = app.campaign.roster
        assert (
            fate_sheet(roster["Cynere"]).fate_points,
            fate_sheet(roster["Teran"]).fate_points,
        ) == (4, 0)
        # Undo takes back the write-back alone: the contest stays over.
        await keys(pilot, "u")
        assert (roster_points(app, "Cynere"), roster_points(app, "Teran")) == (3, 1)
        assert "For the roster" in text(app, "#summary")
        assert app.campaign.latest_contest is not None
        assert app.campaign.latest_contest.state.finished
        await keys(pilot, "r")  # and r writes it again
        assert (roster_points(app, "Cynere"), roster_points(app, "Teran")) == (4, 0)
        await keys(pilot, "w")  # the roster shows it
        table = text_of_table(app)
        assert "FP 4/3" in row_of(table, "Cynere")  # fate points / refresh
        assert "FP 0/0" in row_of(table, "Teran")


def log_at_end(app: object) -> bool:
    from tui.app import TussleApp
    from tui.widgets.exchange_log import ExchangeLog

    assert isinstance(app, TussleApp)
    log = app.screen.query_one(ExchangeLog)
    return log.scroll_y == log.max_scroll_y


def roster_points(app: object, name: str) -> int:
    from tui.app import TussleApp

    assert isinstance(app, TussleApp)
    return fate_sheet(app.campaign.roster[name]).fate_points


def text_of_table(app: object) -> list[list[str]]:
    from textual.widgets import DataTable

    from tui.app import TussleApp

    assert isinstance(app, TussleApp)
    table = app.screen.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def row_of(table: list[list[str]], name: str) -> list[str]:
    return next((row for row in table if row and row[0] == name), [])


async def test_a_heroquest_hurt_reaches_the_roster_and_the_next_contests_target(
    saves: Path,
) -> None:
    seed_campaign(
        saves,
        "Ghouls",
        "heroquest",
        [
            Character(name="Tripitaka", ratings={"Fist": 15}),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 15}),
        ],
        [
            Pick(character="Tripitaka", side="Pilgrims", rating="Fist"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
    )
    app = new_app(saves, "Ghouls")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Both at 15: Tripitaka rolls 10, the Ghoul 5, both successes; the lower roll wins
        # a marginal victory (rules §2.3) and Tripitaka is hurt (§2.6): -3 from now on.
        await keys(pilot, "1", "0", "5", "enter")
        await twice(pilot)
        assert hq_sheet(app.campaign.roster["Tripitaka"]).adversity_of == {"Fist": ("hurt",)}
        await keys(pilot, "enter")
        assert "Tripitaka: adversity none → Fist: hurt" in text(app, "#summary")
        # The next contest with the same sides: 15 - 3 = 12 for Tripitaka. This time
        # Tussle rolls for the Ghouls (T: the second side's choice moved to "Tussle").
        await keys(pilot, "n")
        await keys(pilot, "T", "tab", "right", "enter")
        assert "Tussle rolls for Ghouls; the table for the rest" in text(app, "#setup-summary")
        await keys(pilot, "g")
        await write(pilot, "Round two")
        await keys(pilot, "enter")
        latest = app.campaign.latest_contest
        assert latest is not None and latest.title == "Round two"
        assert isinstance(latest.state, HQContest)
        assert latest.state.target("Tripitaka") == 12
        assert latest.state.target("Ghoul") == 15
        assert "Round two" in text(app, "#scoreboard")
        assert latest.tussle_rolls == ("Ghoul",)
        await keys(pilot, "1", "2", "enter")  # only Tripitaka's die is typed
        played = [a for a in app.campaign.actions.values() if type(a.command).__name__ == "Play"]
        last = played[-1]
        rolls = {
            c.who: c.source for c in getattr(last.command, "commands", ()) if hasattr(c, "faces")
        }
        assert rolls == {"Tripitaka": "table", "Ghoul": "tussle"}
        assert len(latest.exchanges) == 1
        await keys(pilot, "w")  # the first contest's hurt is on the roster
        assert "hurt" in " ".join(row_of(text_of_table(app), "Tripitaka"))


async def test_the_seeds_exchange_2_typed_wrong_is_corrected_by_keys(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        # Exchange 2 typed wrong: 0000 (+4) against -000 (+2): one victory, not two.
        await keys(pilot, "0", "0", "0", "0", "minus", "0", "0", "0", "enter")
        assert "Exchange 2: Cynere wins, 1 victory (1–1)" in text(app, "#log")
        await keys(pilot, "minus", "0", "0", "0", "0", "0", "0", "0", "enter")
        await write(pilot, "Magical Distortions")
        await keys(pilot, "enter")
        await keys(pilot, "0", "0", "0", "0", "plus", "0", "0", "0")
        await keys(pilot, "i", "c", "tab", "i", "enter")
        await keys(pilot, "i", "c", "tab", "m", "enter")
        await keys(pilot, "enter")
        await twice(pilot)
        # With the wrong exchange the contest ends 3-1 at exchange 4.
        assert "Exchange 4: Cynere wins with style, 2 victories (3–1)" in text(app, "#log")
        # Its results went to the roster: correcting is refused until that is taken back.
        await keys(pilot, "C")
        assert isinstance(app.screen, ContestScreen) and app.screen.correcting is None
        await keys(pilot, "u")
        await keys(pilot, "C", "backspace")
        await write(pilot, "2")
        await keys(pilot, "enter")
        assert "Correcting exchange 2" in app.screen.query_one("#keypad").border_title
        await keys(pilot, *["backspace"] * 4, "plus", "0", "0", "0")
        await keys(pilot, "enter")  # what changes, before anything does
        preview = text(app, "#confirm-body")
        assert "was   Exchange 2: Cynere wins, 1 victory (1–1)" in preview
        assert "now   Exchange 2: Cynere wins with style, 2 victories (2–1)" in preview
        assert "now   Exchange 4: Cynere wins with style, 2 victories (4–1)" in preview
        await keys(pilot, "enter")
        await twice(pilot)
        log = text(app, "#log")
        assert "Exchange 2: Cynere wins with style, 2 victories (2–1)" in log
        assert "Exchange 4: Cynere wins with style, 2 victories (4–1)" in log
        assert "Cynere wins" in text(app, "#scoreboard")
        await pilot.pause(0.2)
        assert log_at_end(app)
        record = app.campaign.latest_contest
        assert record is not None
        assert dict(record.state.victories) == {"Cynere": 4, "Teran the Swift": 1}
        assert fate_sheet(app.campaign.roster["Cynere"]).fate_points == 1  # written back again


async def test_odds_arriving_after_the_gm_left_the_contest_are_dropped(saves: Path) -> None:
    # The odds are worked out in a thread; the GM may open the roster meanwhile. The
    # worker's answer then reaches a contest screen that is no longer shown.
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        contest = app.screen
        assert isinstance(contest, ContestScreen)
        await keys(pilot, "w")
        assert type(app.screen).__name__ == "RosterScreen"
        contest.painter.show_odds(({"Cynere": "50%"}, ""))  # arriving late
        await keys(pilot, "escape")
        assert isinstance(app.screen, ContestScreen)
        assert "50%" not in text(app, "#scoreboard")  # the late answer was dropped
        # The odds shown are the contest's own: Cynere (Athletics +4) against Teran
        # (Lore +3), nothing typed yet. Cynere wins when her dice beat his by -1 or more,
        # 8dF >= 0: 3834 of 6561 throws (8dF's counts from -8 up to -1 sum to 2727),
        # 58%.
        await wait_for_odds(pilot)
        cynere = next(line for line in text(app, "#scoreboard").splitlines() if "Cynere" in line)
        assert "58%" in cynere and "50%" not in cynere
