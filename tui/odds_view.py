"""The odds on the scoreboard, from what :func:`core.odds.odds_for` computed: beside each
side, its chance to win the coming exchange (with a bar) and the contest from here."""

from __future__ import annotations

from typing import Any

from core.model import Contest
from tui.systems.common import e

BAR = 10


def bar(p: float | None) -> str:
    if p is None:
        return " " * BAR
    filled = round(p * BAR)
    return "█" * filled + "░" * (BAR - filled)


def pct(p: float | None) -> str:
    return " --" if p is None else f"{p * 100:3.0f}%"


def cell(win: float | None, contest: float | None, whole: str) -> str:
    tail = f"  {whole} {pct(contest)}" if contest is not None else ""
    return f"next {pct(win)} [$accent]{bar(win)}[/]{tail}"


def odds_cells(odds: dict[str, Any], state: Contest) -> tuple[dict[str, str], str]:
    """Each side's odds as scoreboard text, and a footer (the tie, an invoke's worth);
    a note instead when there are no odds."""
    exchange, contest = odds.get("exchange"), odds.get("contest")
    if exchange is None:
        return {}, f"[dim]{e(odds.get('note') or 'no odds')}[/]"
    whole = {name: o.get("win") for name, o in ((contest or {}).get("sides") or {}).items()}
    cells: dict[str, str] = {}
    footer = ""
    if odds["system"] == "fate":
        for side, o in exchange["sides"].items():
            cells[side] = (
                cell(o["win"], whole.get(side), "contest") if o.get("rolls", True) else "forfeits"
            )
        footer = f"tie {pct(exchange['tie'])}"
        if exchange.get("none"):
            footer += f" · nobody {pct(exchange['none'])}"
        # Only an invoke that would change what the GM reads is worth a line: none for a
        # side already sure of the exchange (100%), or whose +2 moves nothing.
        now = {side: o["win"] for side, o in exchange["sides"].items()}
        plus = {
            side: o
            for side, o in (exchange.get("plus_two") or {}).items()
            if pct(o["win"]) != pct(now.get(side))
        }
        if plus:
            side, best = max(plus.items(), key=lambda kv: kv[1]["win"] - now[kv[0]])
            footer += f" · one more +2 for {e(side)}: {pct(best['win'])}"
    elif odds["system"] == "heroquest":
        from core.rules.heroquest import EXTENDED_GOAL, HQContest

        # Resolution points exist only in a chain (rules §2.8, §2.9): an extended contest
        # is won at 5 of them; a simple contest is this one exchange, nothing beyond it.
        assert isinstance(state, HQContest)
        extended = state.options.extended
        for party, o in exchange["sides"].items():
            side = state.participant(party).side
            if extended:
                cells[side] = cell(o["win"], whole.get(side), f"to {EXTENDED_GOAL} RP")
            elif state.options.chained:
                cells[side] = cell(o["win"], None, "")
            else:
                cells[side] = f"wins {pct(o['win'])} [$accent]{bar(o['win'])}[/]"
        footer = f"tie {pct(exchange['tie'])}"
    else:
        for role in ("actor", "reactor"):
            o = exchange[role]
            side = state.participant(o["name"]).side
            cells[side] = f"{cell(o['win'], None, '')}  {'acts' if role == 'actor' else 'reacts'}"
    return cells, footer
