"""The odds on the scoreboard, from what :func:`core.odds.odds_for` computed: beside each
side, its chance to win the coming exchange (with a bar) and the contest from here. What
each side's cell says is its rule system's (``odds_cells`` in ``tui.systems``)."""

from __future__ import annotations

from typing import Any

from core.model import Contest
from tui.systems import view
from tui.systems.common import e


def odds_cells(odds: dict[str, Any], state: Contest) -> tuple[dict[str, str], str]:
    """Each side's odds as scoreboard text, and a footer (the tie, an invoke's worth);
    a note instead when there are no odds."""
    exchange, contest = odds.get("exchange"), odds.get("contest")
    if exchange is None:
        return {}, f"[dim]{e(odds.get('note') or 'no odds')}[/]"
    whole = {name: o.get("win") for name, o in ((contest or {}).get("sides") or {}).items()}
    return view(state.system).odds_cells(exchange, whole, state)
