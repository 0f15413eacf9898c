"""Issue 24, item 2: FORGE characters can die. The roster keeps the Trauma pool (Maximum
Trauma); a contest starts from Current Trauma (the pool less the trauma taken); at 0 or
below a participant is dying (rules §3.4, [I15]: "Current Trauma ≤ 0 → dying"), out of
the contest; the write-back carries the trauma, so the roster shows the character dying.

Damage worked by hand from rules §3.4: tens digit of the attack roll × the multiplier;
no armor here, so all of it is trauma."""

from __future__ import annotations

from pathlib import Path

from core.systems.forge.character import forge_sheet
from tests.tui.conftest import forge_alley, keys, settle, text


async def test_a_forge_combat_ends_with_a_participant_dying(saves: Path) -> None:
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "current trauma 15" in text(app, "#participants")
        # Stage 1: Josef 45 <= 50 deals 4 x 4 = 16; Bobby's dodge 55 > 40 fails: 16
        # trauma, Current Trauma 15 - 16 = -1: Bobby is dying.
        await keys(pilot, "4", "5", "5", "5", "enter")
        log = text(app, "#log")
        assert "Bobby takes 16: 0 absorbed, 16 trauma" in log
        assert "Bobby is dying (current trauma -1)" in log
        participants = text(app, "#participants")
        assert "current trauma -1" in participants
        assert "dying" in participants
        # Bobby is out of the contest: the next stage is not his to act in.
        assert "Bobby · acts" not in participants
        # The GM ends the contest: Josef won the only stage.
        await keys(pilot, "e")
        await settle(pilot)
        await settle(pilot)
        assert "Josef wins" in text(app, "#scoreboard")
        bobby = app.campaign.roster["Bobby"]
        assert (forge_sheet(bobby).trauma_pool, forge_sheet(bobby).trauma) == (
            20,
            21,
        )  # 5 + 16 written back
        await keys(pilot, "enter")  # the summary
        shown = text(app, "#summary")
        assert "Bobby is dying (current trauma -1)" in shown
        assert "Bobby: trauma 5 → 21" in shown
