"""Fate on the dashboard: the ladder, fate points, aspects with their free invokes; and
Fate's keys on the contest screen (invoke, advantage, attack, the GM's pool)."""

from __future__ import annotations

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from tui.systems.roster_part import RosterPart
    from tui.systems.setup_part import SetupPart


def __getattr__(name: str) -> RosterPart | SetupPart:
    """The roster's and the setup's parts, loaded when their screen first opens: the
    contest screen, shown first, needs neither (start-up time is a benchmark)."""
    if name == "ROSTER":
        from tui.systems.fate.roster import ROSTER

        return ROSTER
    if name == "SETUP":
        from tui.systems.fate.setup import SETUP

        return SETUP
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
