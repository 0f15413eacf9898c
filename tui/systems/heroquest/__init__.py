"""HeroQuest on the dashboard: ratings as 4M, hero points, states of adversity, RP; and
HeroQuest's keys on the contest screen (hero points, augments, stretches, group contests,
risky gambits, defensive responses and group boosts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.systems import SystemView
from tui.systems.heroquest import keys, panes

if TYPE_CHECKING:
    from tui.systems.roster_part import RosterPart
    from tui.systems.setup_part import SetupPart


class HeroQuestView(SystemView):
    """HeroQuest's :class:`tui.systems.SystemView`: the panes (``panes``), the keys
    (``keys``); the roster's and the setup's parts loaded when their screen first opens."""

    ROUND = panes.ROUND
    ASPECTS_TITLE = panes.ASPECTS_TITLE
    SCREEN = keys.SCREEN
    score = staticmethod(panes.score)
    participants = staticmethod(panes.participants)
    aspects = staticmethod(panes.aspects)
    rows = staticmethod(panes.rows)
    verdict = staticmethod(panes.verdict)
    odds_cells = staticmethod(panes.odds_cells)
    describe_extra = staticmethod(panes.describe_extra)
    takes_dice = staticmethod(panes.takes_dice)

    def roster(self) -> RosterPart:
        from tui.systems.heroquest.roster import ROSTER

        return ROSTER

    def setup(self) -> SetupPart:
        from tui.systems.heroquest.setup import SETUP

        return SETUP


VIEW = HeroQuestView()
