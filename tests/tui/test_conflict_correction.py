"""C on a Fate conflict (issue 28, "What to build" 2: corrections): a conflict's actions
are played by forms (k, a), so a correction on the keypad cannot take them back; C says
so at once and what to do instead (u, then k and a again), before asking for a number.
Before, C put "Attack" and "Absorb" on the keypad with no way to change them, and Enter
failed with "ResolveExchange is not an action". The warehouse conflict is the SRD's, in
tests/conflict_campaigns.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.campaign.corrections import correct, reopen
from core.campaign.log import Correct
from core.errors import RuleError
from core.saves.store import CampaignFiles
from tests.conflict_campaigns import warehouse
from tests.tui.conftest import keys, new_app, settle, text
from tui.app import TussleApp
from tui.screens.contest import ContestScreen

REFUSED = "a conflict's actions are not corrected on the keypad"


def said(app: TussleApp) -> str:
    return str(list(app.told)[-1].message)


async def test_c_on_a_conflict_refuses_at_once_saying_what_to_do(saves: Path) -> None:
    warehouse(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ContestScreen)
        before = app.campaign.contest("c1").state
        await keys(pilot, "C")
        assert isinstance(app.screen, ContestScreen)  # no form, no correction under way
        assert REFUSED in said(app) and "u takes back" in said(app)
        assert app.screen.correcting is None
        assert "Attack" not in text(app, "#keypad")
        await keys(pilot, "enter")  # nothing of a correction to commit
        assert app.campaign.contest("c1").state == before
        # u takes the last action back (Cynere's absorption): the way the refusal says.
        await keys(pilot, "u")
        assert app.campaign.contest("c1").state.hit is not None


def test_the_campaign_refuses_a_correction_of_a_conflict(saves: Path) -> None:
    campaign = CampaignFiles(warehouse(saves)).load()
    with pytest.raises(RuleError, match=REFUSED):
        reopen(campaign, "c1", 1)
    with pytest.raises(RuleError, match=REFUSED):
        correct(campaign, Correct(contest_id="c1", n=1, commands=()))
