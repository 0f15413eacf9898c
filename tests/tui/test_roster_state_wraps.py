"""The roster at 80x24 with a Fate character's consequences (issue 28: "the roster
afterwards"): the State column wraps inside its row, and the Ratings column stays in
sight, instead of the State running off the screen's right edge and taking the Ratings
with it. The warehouse is the SRD's (tests/conflict_campaigns.py); Cynere takes a mild,
a moderate and a severe consequence (SRD, Consequences: 2 + 4 + 6 = 12 shifts, the most
her three slots absorb), Drisban a moderate."""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Play, WriteBack
from core.systems.fate.conflict import Absorption
from core.systems.fate.conflict_play import Absorb, Concede
from tests.conflict_campaigns import attack, start
from tests.helpers import act
from tests.tui.conftest import keys, new_app, settle
from tests.tui.screen_text import screen_text
from tui.screens.roster import RosterScreen


def scarred(saves: Path) -> None:
    """Cynere: Fight +3, ++++: +7, against Drisban's Fight +4, --00: +2: 5 shifts, his
    1-box and a moderate. Drisban: Fight +4, ++++: +8, against her Athletics +4, ----:
    +0: 8 shifts; her mild, moderate and severe (12) take it. He concedes; the results
    are written to the roster."""
    campaign, files, cid = start(saves)
    for command in (
        attack("Cynere", "++++", "--00"),
        Absorb(
            who="Drisban",
            absorption=Absorption(track="physical", boxes=(0,), slots=(1,)),
            names=("Slashed Sword Arm Badly",),
        ),
        attack("Drisban", "++++", "----", defense="Athletics"),
        Absorb(
            who="Cynere",
            absorption=Absorption(track="physical", slots=(0, 1, 2)),
            names=("Bruised Ribs All Over", "Twisted Left Knee", "Deep Gash Across The Face"),
        ),
        Concede(who="Drisban"),
    ):
        act(campaign, files, Play(contest_id=cid, commands=(command,)))
    act(campaign, files, WriteBack(contest_id=cid))


async def test_the_state_column_wraps_and_the_ratings_stay_in_sight(saves: Path) -> None:
    scarred(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w")
        assert isinstance(app.screen, RosterScreen)
        shown = "\n".join(screen_text(app))
        words = " ".join(shown.split())  # the State wrapped over the row's lines
        for told in ("Bruised Ribs All Over", "Twisted Left Knee", "Deep Gash Across The Face"):
            assert told.split()[-1] in shown, shown
        assert "severe: Deep Gash" in words, shown
        assert "Ratings" in shown and "Fight +4" in shown, shown
        assert all(len(line) <= 80 for line in shown.splitlines())
        await keys(pilot, "q")


async def test_the_columns_fit_again_when_the_terminal_narrows(saves: Path) -> None:
    """Opened 200 columns wide (everything on one line a row), then narrowed to 80: the
    State wraps and the Ratings come back in sight, as if opened at 80."""
    scarred(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(200, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w")
        assert "Deep Gash Across The Face" in "\n".join(screen_text(app))
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        shown = "\n".join(screen_text(app))
        assert "Face" in shown and "Fight +4" in shown, shown
        assert "Roster · Warehouse" in shown.splitlines()[0], shown  # the title too
        await keys(pilot, "q")
