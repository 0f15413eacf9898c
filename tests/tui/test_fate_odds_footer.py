"""The odds footer under the Fate scoreboard offers "one more +2" only when it matters
(issue 11, defect 12): never for a side already at 100%, or a +2 that moves nothing."""

from __future__ import annotations

from core.model import RollDice
from core.odds.report import odds_for
from core.systems.fate.rules import FATE
from core.systems.fate.state import FateContest, FateParticipant, new_contest
from tui.odds_view import odds_cells


def race() -> FateContest:
    return new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4),
            FateParticipant(name="Teran", side="Teran", skill=3),
        ]
    )


def rolled(contest: FateContest, side: str, faces: tuple[int, ...]) -> FateContest:
    [event] = FATE.decide(contest, RollDice(who=side, faces=faces))
    return FATE.evolve(contest, event)


def test_no_plus_two_line_when_cynere_is_already_sure_to_win() -> None:
    # Cynere +4 with ++++ is +8; Teran +3 with ---- is -1: she wins this exchange for
    # sure, and a +2 for Teran (+1) still loses. No +2 changes anything the GM reads.
    contest = rolled(rolled(race(), "Cynere", (1, 1, 1, 1)), "Teran", (-1, -1, -1, -1))
    cells, footer = odds_cells(odds_for(contest), contest)
    assert "100%" in cells["Cynere"]
    assert "one more +2" not in footer
    assert footer.startswith("tie   0%")


def test_the_plus_two_line_stays_when_it_changes_the_odds() -> None:
    # Before the dice, +2 for either side raises its chance: the line names one of them.
    contest = race()
    _, footer = odds_cells(odds_for(contest), contest)
    assert "one more +2 for " in footer
