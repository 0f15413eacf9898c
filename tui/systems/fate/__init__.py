"""Fate on the dashboard: the ladder, fate points, aspects with their free invokes; and
Fate's keys on the contest screen (invoke, advantage, attack, the GM's pool)."""

from __future__ import annotations

from tui.systems.common import later_parts
from tui.systems.fate.keys import (
    SCREEN,
    default_payment,
    describe_extra,
    invoke_effects,
    other_sides,
    payments,
)
from tui.systems.fate.panes import (
    ASPECTS_TITLE,
    ROUND,
    aspects,
    gm_notes,
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
    "default_payment",
    "describe_extra",
    "gm_notes",
    "invoke_effects",
    "odds_cells",
    "other_sides",
    "participants",
    "payments",
    "rows",
    "score",
    "twist_pending",
    "verdict",
]
