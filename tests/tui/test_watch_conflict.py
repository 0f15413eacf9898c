"""A Fate conflict in the players' view (issue 28, item 7): each participant's stress
boxes and consequences on the table, ``??`` for one the GM hides (``H``) as for his
other numbers. Worked from the Fate Core SRD ("Stress", "Consequences") with the
Cynere/Drisban example of "Attack":

* Cynere: Physique Average (+1): boxes 1, 2 and 3 ("Average or Fair adds a 3-box").
  Drisban: no Physique: boxes 1 and 2.
* Cynere attacks with Fight Good (+3) and rolls ++00: Superb (+5); Drisban defends with
  Fight Great (+4) and rolls -000: Good (+3): a 2-shift hit, taken on his 2-box.
* Drisban attacks with Fight Great (+4) and rolls ++00: Fantastic (+6); Cynere defends
  with Athletics Great (+4) and rolls --00: Fair (+2): a 4-shift hit, taken as a
  moderate consequence (moderate 4), "Cracked Ribs".
"""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Play
from core.saves.store import CampaignFiles
from core.systems.fate.conflict_play import EndConflict
from tests.conflict_campaigns import warehouse
from tests.helpers import act
from tests.tui.conftest import steady
from tests.tui.screen_text import screen_text
from tui.views import scoreboard
from tui.watch import WatchApp


def table(app: WatchApp) -> str:
    return str(app.query_one("#table").visual)


async def test_the_players_see_each_ones_stress_boxes_and_consequences(saves: Path) -> None:
    app = WatchApp(warehouse(saves))
    async with app.run_test(size=(80, 24)) as pilot:
        await steady(pilot)
        shown = table(app)
        # Cynere: her three boxes free, the moderate taken; Drisban: his 2-box checked.
        # Mental: Will Mediocre for both, boxes 1 and 2. A line each (80x24 is short).
        assert "Cynere  Physical [1][2][3] · Mental [1][2] · moderate: Cracked Ribs\n" in shown, (
            shown
        )
        assert "Drisban  Physical [1][x2] · Mental [1][2]\n" in shown, shown
        # At 80x24 the table still has room for the aspects and the PC's fate points.
        screen = "\n".join(screen_text(app))
        assert "Drisban  Physical [1][x2]" in screen and "Cynere: 2 fate points" in screen


async def test_a_hidden_participant_shows_nothing_of_his_harm(saves: Path) -> None:
    app = WatchApp(warehouse(saves, hide_drisban=True))
    async with app.run_test(size=(80, 30)) as pilot:
        await steady(pilot)
        shown = table(app)
        assert "Drisban  ??" in shown, shown
        assert "[x2]" not in shown and "[1][x2]" not in shown
        assert "Cynere  Physical [1][2][3]" in shown  # hers still shown


async def test_a_hidden_participants_consequences_are_hidden_too(saves: Path) -> None:
    """The GM hides Cynere (H): her moderate consequence, "Cracked Ribs", is her harm as
    her boxes are (SRD, Consequences: the consequence absorbs the shifts her boxes did
    not). The players' view shows neither its name (the aspects, the log) nor its
    severity (a moderate tells 4 shifts): ``??``. Drisban's harm is still shown."""
    app = WatchApp(warehouse(saves, hide_cynere=True))
    async with app.run_test(size=(80, 30)) as pilot:
        await steady(pilot)
        screen = "\n".join(screen_text(app))
        assert "Cynere  ??" in table(app), table(app)
        assert "Cracked Ribs" not in screen, screen
        assert "moderate" not in screen, screen
        # Nor that Drisban's hit on her was with style: that tells 3 shifts or more.
        assert "style" not in screen, screen
        assert "a ??-shift physical hit: a ??" in screen, screen
        assert "Drisban  Physical [1][x2] · Mental [1][2]" in screen
        # The consequence stays an aspect in play, its name hidden, its free invoke
        # (Drisban's side's) still shown: the players may spend it.
        assert "?? ◆ Drisban" in screen, screen


def test_a_finished_conflict_says_its_exchanges_not_its_actions(saves: Path) -> None:
    """SRD, The Exchange: everyone acts once in each. Exchange 1: Cynere's attack, then
    Drisban's; exchange 2: on Cynere's turn Drisban concedes (SRD, Conceding), the
    conflict ends. Two exchanges (three actions in the log): "After 2 exchanges"."""
    folder = warehouse(saves, concede=True)
    record = CampaignFiles(folder).load().latest_contest
    assert record is not None and record.state.finished
    label = scoreboard(record, "Warehouse")[1]
    assert "After 2 exchanges" in label, label


def test_a_conflict_the_gm_ends_before_anyone_acts_in_an_exchange_had_one(saves: Path) -> None:
    """Exchange 1: Cynere's attack, then Drisban's (SRD, The Exchange: everyone acts once
    in each); then exchange 2 begins, and before anyone acts in it the GM ends the
    conflict (the sides agree, the scene moves on). One exchange was played: "After 1
    exchange", not 2 (the exchange under way when it ended)."""
    folder = warehouse(saves)
    files = CampaignFiles(folder)
    campaign = files.load()
    act(campaign, files, Play(contest_id="c1", commands=(EndConflict(),)))
    record = campaign.latest_contest
    assert record is not None and record.state.finished
    label = scoreboard(record, "Warehouse")[1]
    assert "After 1 exchange " in label, label
