"""Keys pressed on a contest the GM has already ended change nothing and raise nothing.

Found by the contest-screen state machine: in the FORGE demo, `e` on an empty keypad ends
the contest before its first stage; `0` (a die) or `o` (the roles form) then asked the
keypad's preview for the first stage's roles on an ended contest, and the dashboard died
with an uncaught ContestOver.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.conftest import keys, new_app, settle


@pytest.mark.parametrize("then", ["0", "o", "r", "R", "enter"])
async def test_a_forge_contest_ended_before_its_first_stage_takes_no_more_keys(
    saves: Path, then: str
) -> None:
    app = new_app(saves, campaign="FORGE demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "e")
        record = next(iter(app.campaign.contests.values()))
        assert record.state.finished and not record.exchanges
        entries = app.campaign.entries
        await keys(pilot, "escape")  # back to the contest when e showed the summary
        await keys(pilot, then)
        if then == "o":
            await keys(pilot, "enter")
        await keys(pilot, "escape")
        assert app.is_running  # nothing raised
        assert app.campaign.entries == entries  # nothing recorded
        assert not record.exchanges
