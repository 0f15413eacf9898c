"""Fate on the dashboard: the ladder, fate points, aspects with their free invokes; and
Fate's keys on the contest screen (invoke, advantage, attack, the GM's pool)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from core.campaign.state import ContestRecord
from core.model import Contest
from core.systems.fate.conflict_play import FateConflict
from tui.systems import Asked, SystemView
from tui.systems.fate import conflict_panes, keys, panes

if TYPE_CHECKING:
    from tui.draft import Draft, Preview
    from tui.systems.roster_part import RosterPart
    from tui.systems.setup_part import SetupPart
    from tui.widgets.keypad import KeypadRow


class FateView(SystemView):
    """Fate's :class:`tui.systems.SystemView`: the panes (``panes``; a conflict's,
    ``conflict_panes``), the keys (``keys``); the roster's and the setup's parts loaded
    when their screen first opens (the contest screen, shown first, needs neither:
    start-up time is a benchmark)."""

    ROUND = panes.ROUND
    ASPECTS_TITLE = panes.ASPECTS_TITLE
    COMMIT_ASKS = "a tie asks for the twist's name"
    SCREEN = keys.SCREEN
    describe_extra = staticmethod(keys.describe_extra)

    def score(self, record: ContestRecord) -> tuple[str, dict[str, str]]:
        if _conflict(record.state):
            return conflict_panes.score(record)
        return panes.score(record)

    def participants(self, record: ContestRecord) -> list[str]:
        if _conflict(record.state):
            return conflict_panes.participants(record)
        return panes.participants(record)

    def gm_notes(self, record: ContestRecord) -> list[str]:
        return panes.gm_notes(record)

    def aspects(
        self, state: Contest, hidden: Collection[str] = (), players: bool = False
    ) -> list[str]:
        if _conflict(state):
            return conflict_panes.aspects(state, hidden, players)
        return panes.aspects(state, hidden, players)

    def round_label(self, state: Contest) -> str:
        if _conflict(state):
            return conflict_panes.round_label(state)
        return super().round_label(state)

    def over_line(self, state: Contest) -> str:
        if _conflict(state):
            return "The conflict is over."
        return super().over_line(state)

    def finished_label(self, record: ContestRecord) -> str:
        if _conflict(record.state):
            return conflict_panes.finished_label(record)
        return super().finished_label(record)

    def players_lines(self, record: ContestRecord) -> list[str]:
        if _conflict(record.state):
            return conflict_panes.players_lines(record)
        return []

    def rows(self, preview: Preview, draft: Draft) -> list[KeypadRow]:
        if _conflict(preview.state):
            return conflict_panes.rows(preview, draft)
        return panes.rows(preview, draft)

    def verdict(self, preview: Preview, draft: Draft) -> str:
        if _conflict(preview.state):
            return conflict_panes.verdict(preview, draft)
        return panes.verdict(preview, draft)

    def odds_cells(
        self, exchange: dict[str, Any], contest_odds: dict[str, float | None], state: Contest
    ) -> tuple[dict[str, str], str]:
        if _conflict(state):
            return conflict_panes.odds_cells(exchange, contest_odds, state)
        return panes.odds_cells(exchange, contest_odds, state)

    def commit_asks(self, state: Contest) -> Asked | None:
        return None if _conflict(state) else panes.commit_asks(state)

    def roster(self) -> RosterPart:
        from tui.systems.fate.roster import ROSTER

        return ROSTER

    def setup(self) -> SetupPart:
        from tui.systems.fate.setup import SETUP

        return SETUP


VIEW = FateView()


def _conflict(state: Contest) -> bool:
    return isinstance(state, FateConflict)
