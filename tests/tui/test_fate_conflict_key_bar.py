"""The key bar of a Fate contest and of its conflict says what each key does in the state
shown (issue 28's leftovers, items 1 and 6). In a conflict ``a`` absorbs the hit waiting
(SRD, "Stress and Consequences": the defender absorbs a hit before play goes on) and ``i``
invokes on an attack's rolls (SRD, "Invoking Aspects", on an attack and its defense);
neither is the contest's "Advantage" or plain "Invoke". Keys that do nothing in the state
shown are not offered: ``a`` with no hit waiting, ``i`` while one waits (the next attack
waits for it), and both once the contest or the conflict is over (rules §1.4.1: nothing
is invoked or created after the last exchange)."""

from __future__ import annotations

from pathlib import Path

from core.systems.fate.conflict_play import FateConflict
from core.systems.fate.state import FateContest
from tests.conflict_campaigns import start, warehouse
from tests.tui.conftest import (
    keys,
    new_app,
    odds_done,
    settle,
    text,
    warehouse_contest,
    write,
)
from tui.app import TussleApp
from tui.widgets.keybar import KeyBar


def bar(app: TussleApp) -> dict[str, str]:
    """The key bar's keys and what it says each does (before it is fitted to a width)."""
    return dict(app.screen.query_one(KeyBar).keys())


def latest(app: TussleApp) -> object:
    record = app.campaign.latest_contest
    assert record is not None
    return record.state


async def test_in_a_conflict_a_absorbs_and_i_invokes_on_an_attack(saves: Path) -> None:
    start(saves)  # the SRD's warehouse, before anyone acts: Cynere's turn
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_done(pilot)
        assert isinstance(latest(app), FateConflict)
        said = bar(app)
        assert said.get("i") == "Invoke on an attack"
        assert "a" not in said  # no hit waiting: nothing to absorb
        # Cynere attacks with Fight, ++00 against Drisban's Fight -000: a 2-shift hit
        await keys(pilot, "k", "tab", "tab", "tab", "tab")
        await write(pilot, "++00")
        await keys(pilot, "tab", "ctrl+u")
        await write(pilot, "Fight")
        await keys(pilot, "tab")
        await write(pilot, "-000")
        await keys(pilot, "enter")
        await settle(pilot)
        said = bar(app)
        assert said.get("a") == "Absorb the hit"
        assert "i" not in said  # the hit is absorbed before anyone attacks again
        await keys(pilot, "q")


async def test_a_finished_conflict_offers_no_invoke_nor_absorb(saves: Path) -> None:
    warehouse(saves, concede=True)  # Drisban concedes: the conflict is over
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        state = latest(app)
        assert isinstance(state, FateConflict) and state.finished
        said = bar(app)
        assert "i" not in said and "a" not in said, said
        await keys(pilot, "q")


async def test_a_contest_keeps_its_keys_and_loses_them_once_over(saves: Path) -> None:
    app = new_app(saves, warehouse_contest(saves))
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_done(pilot)
        said = bar(app)
        assert said.get("i") == "Invoke" and said.get("a") == "Advantage"
        await keys(pilot, "k", "enter", "enter")  # Cynere attacks: the contest ends
        await settle(pilot)
        state = latest(app)
        assert isinstance(state, FateContest) and state.finished
        said = bar(app)
        assert "i" not in said and "a" not in said, said
        await keys(pilot, "k")  # still goes on: the conflict (README)
        await keys(pilot, "enter")
        await odds_done(pilot)
        assert isinstance(latest(app), FateConflict)
        await keys(pilot, "q")


async def test_a_finished_conflicts_keypad_says_conflict(saves: Path) -> None:
    """Item 2: the keypad of a conflict that is over names it a conflict."""
    warehouse(saves, concede=True)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        said = text(app, "#keypad")
        assert "The conflict is over." in said and "contest" not in said.split("·")[0], said
        await keys(pilot, "q")
