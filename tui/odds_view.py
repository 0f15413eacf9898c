"""The odds on the scoreboard, from what :func:`core.odds.report.odds_for` computed: beside each
side, its chance to win the coming exchange (with a bar) and the contest from here. What
each side's cell says is its rule system's (``odds_cells`` in ``tui.systems``).

The GM's dashboard always has them; the players' view only where
:func:`players_may_see` says so."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from core.model import Contest
from tui.systems import view
from tui.widgets.lines import e

if TYPE_CHECKING:
    from core.campaign.log import Setting
    from core.campaign.state import ContestRecord


def players_may_see(record: ContestRecord, settings: Mapping[str, Setting]) -> bool:
    """Whether the players' view may show ``record``'s odds: where the GM lets them
    (``players_see_odds``), and never while the contest or a participant's numbers are
    hidden, whatever that setting says: the odds are worked from every participant's
    numbers, so they would give a hidden skill away."""
    if not settings.get("players_see_odds"):
        return False
    return not (record.secret or record.secret_participants)


def odds_cells(odds: dict[str, Any], state: Contest) -> tuple[dict[str, str], str]:
    """Each side's odds as scoreboard text, and a footer (the tie, an invoke's worth);
    a note instead when there are no odds."""
    exchange, contest = odds.get("exchange"), odds.get("contest")
    if exchange is None:
        return {}, f"[dim]{e(odds.get('note') or 'no odds')}[/]"
    whole = {name: o.get("win") for name, o in ((contest or {}).get("sides") or {}).items()}
    return view(state.system).odds_cells(exchange, whole, state)
