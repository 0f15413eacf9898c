"""Fate on the dashboard: the ladder, fate points, aspects with their free invokes; and
Fate's keys on the contest screen (invoke, advantage, attack, the GM's pool)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.systems import SystemView
from tui.systems.fate import keys, panes

if TYPE_CHECKING:
    from tui.systems.roster_part import RosterPart
    from tui.systems.setup_part import SetupPart


class FateView(SystemView):
    """Fate's :class:`tui.systems.SystemView`: the panes (``panes``), the keys
    (``keys``); the roster's and the setup's parts loaded when their screen first opens
    (the contest screen, shown first, needs neither: start-up time is a benchmark)."""

    ROUND = panes.ROUND
    ASPECTS_TITLE = panes.ASPECTS_TITLE
    SCREEN = keys.SCREEN
    score = staticmethod(panes.score)
    participants = staticmethod(panes.participants)
    gm_notes = staticmethod(panes.gm_notes)
    aspects = staticmethod(panes.aspects)
    rows = staticmethod(panes.rows)
    verdict = staticmethod(panes.verdict)
    odds_cells = staticmethod(panes.odds_cells)
    commit_asks = staticmethod(panes.commit_asks)
    describe_extra = staticmethod(keys.describe_extra)

    def roster(self) -> RosterPart:
        from tui.systems.fate.roster import ROSTER

        return ROSTER

    def setup(self) -> SetupPart:
        from tui.systems.fate.setup import SETUP

        return SETUP


VIEW = FateView()
