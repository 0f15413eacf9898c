"""A conflict is called a conflict (issue 28's leftovers, item 2): ``tussle odds --text``
on a Fate conflict heads each side's chance to win with "Conflict from here:" (SRD,
"Conflicts": a conflict is won when the other side has no one left in it), where a
contest's says "Contest from here:"."""

from __future__ import annotations

from core.odds.report import odds_for, odds_text
from core.systems.fate.state import FateContest, FateParticipant
from tests.conflict_campaigns import opening


def test_a_conflicts_odds_say_conflict() -> None:
    lines = odds_text(odds_for(opening())).splitlines()
    assert "Conflict from here:" in lines
    assert "Contest from here:" not in lines


def test_a_contests_odds_still_say_contest() -> None:
    contest = FateContest(
        participants=(
            FateParticipant(name="Cynere", side="Cynere", skill=2),
            FateParticipant(name="Drisban", side="Drisban", skill=1),
        )
    )
    lines = odds_text(odds_for(contest)).splitlines()
    assert "Contest from here:" in lines
