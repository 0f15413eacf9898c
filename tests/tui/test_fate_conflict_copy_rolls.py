"""A setup made like a conflict and switched back to a contest (issue 28's leftovers,
item 5). The warehouse's conflict (tests/conflict_campaigns.py) was started with no
rating rolled: a conflict rolls each action's own skill (SRD, Attack, Defend). Its
setup (n on the summary), turned into a contest by k, said "Mediocre (0), for this
contest only" for both, a number typed by nobody. Each now rolls what a new contest's
Add offers first, the roster's first skill: Cynere Fight Good (+3), Drisban Fight
Great (+4) (rules §1.1: a character rolls a skill of their sheet)."""

from __future__ import annotations

from pathlib import Path

from tests.conflict_campaigns import warehouse
from tests.tui.conftest import keys, new_app, rolls_column, settle
from tui.screens.setup import SetupScreen


async def test_a_conflicts_setup_made_a_contest_rolls_the_rosters_skills(saves: Path) -> None:
    warehouse(saves, concede=True)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "enter", "n")
        assert isinstance(app.screen, SetupScreen)
        await keys(pilot, "k", "left", "enter")  # a contest, not a conflict
        assert rolls_column(app) == {
            "Cynere": "Fight Good (+3)",
            "Drisban": "Fight Great (+4)",
        }
        await keys(pilot, "q")
