"""The contest summary (``S``) of a Fate conflict has its harm (issue 28, item 7): the
recap's own account, each one's hits, what absorbed them, taken out, a concession and
what it pays. Worked from the Fate Core SRD in tests/conflict_campaigns.py: Drisban's
2-shift hit on his 2-box, Cynere's 4 shifts on a moderate (Cracked Ribs), and Drisban
conceding before any roll of exchange 2: "a fate point for choosing to concede" and
none for consequences (he took none)."""

from __future__ import annotations

from pathlib import Path

from core.campaign.aftermath import summary
from core.saves.store import CampaignFiles
from tests.conflict_campaigns import warehouse
from tests.tui.conftest import keys, new_app, settle, text
from tui.screens.summary import SummaryScreen

HARM = [
    "Harm:",
    "Cynere: hit by Drisban for 4 physical shifts: a moderate (Cracked Ribs)",
    "Drisban: hit by Cynere for 2 physical shifts: the 2-box; conceded: 1 fate point",
]


def test_the_summary_of_a_conflict_has_the_harm(saves: Path) -> None:
    campaign = CampaignFiles(warehouse(saves, concede=True)).load()
    record = campaign.contest(next(iter(campaign.contests)))
    shown = summary(campaign, record)
    assert list(shown.account) == HARM
    assert "Drisban is paid 1 fate point for conceding" in shown.costs


def test_the_gm_summary_shows_a_hidden_participants_numbers(saves: Path) -> None:
    # The players' view and the recap hide Drisban's numbers; the GM's summary does not.
    campaign = CampaignFiles(warehouse(saves, concede=True, hide_drisban=True)).load()
    record = campaign.contest(next(iter(campaign.contests)))
    assert list(summary(campaign, record).account) == HARM


async def test_s_shows_the_harm_at_80x24(saves: Path) -> None:
    warehouse(saves, concede=True)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "S")
        assert isinstance(app.screen, SummaryScreen)
        shown = " ".join(text(app, "#summary").split())
        assert (
            "Harm Cynere: hit by Drisban for 4 physical shifts: a moderate (Cracked Ribs)" in shown
        )
        assert (
            "Drisban: hit by Cynere for 2 physical shifts: the 2-box; conceded: 1 fate point"
            in shown
        )
