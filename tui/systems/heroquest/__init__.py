"""HeroQuest on the dashboard: ratings as 4M, hero points, states of adversity, RP; and
HeroQuest's keys on the contest screen (hero points, augments, stretches, group contests,
risky gambits, defensive responses and group boosts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.systems.heroquest.keys import SCREEN
from tui.systems.heroquest.panes import (
    ASPECTS_TITLE,
    ROUND,
    aspects,
    describe_extra,
    gm_notes,
    lingering,
    odds_cells,
    participants,
    rows,
    score,
    twist_pending,
    verdict,
)

if TYPE_CHECKING:
    from tui.systems.roster_part import RosterPart
    from tui.systems.setup_part import SetupPart


def __getattr__(name: str) -> RosterPart | SetupPart:
    """The roster's and the setup's parts, loaded when their screen first opens: the
    contest screen, shown first, needs neither (start-up time is a benchmark)."""
    if name == "ROSTER":
        from tui.systems.heroquest.roster import ROSTER

        return ROSTER
    if name == "SETUP":
        from tui.systems.heroquest.setup import SETUP

        return SETUP
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ASPECTS_TITLE",
    "ROSTER",
    "ROUND",
    "SCREEN",
    "SETUP",
    "aspects",
    "describe_extra",
    "gm_notes",
    "lingering",
    "odds_cells",
    "participants",
    "rows",
    "score",
    "twist_pending",
    "verdict",
]
