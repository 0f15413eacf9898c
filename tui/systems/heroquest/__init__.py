"""HeroQuest on the dashboard: ratings as 4M, hero points, states of adversity, RP; and
HeroQuest's keys on the contest screen (hero points, augments, stretches, group contests,
risky gambits, defensive responses and group boosts)."""

from __future__ import annotations

from tui.systems.common import later_parts
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

__getattr__ = later_parts(__name__)  # ROSTER and SETUP, loaded when first used

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
