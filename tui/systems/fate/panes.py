"""Fate's panes on the contest screen: the scoreboard, participants and the GM's pool,
the aspects, the keypad's rows and verdict, the odds' cells."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from core.campaign.state import ContestRecord
from core.dice import DiceKind, fate_glyphs
from core.model import Contest
from core.redact import HIDDEN
from core.systems.fate.ladder import ladder_with_value, signed
from core.systems.fate.scoring import score_exchange
from core.systems.fate.state import Aspect, FateContest
from tui.draft import Draft, Preview, faces_of
from tui.systems import Asked
from tui.systems.common import cell, hidden_mark, pct, pips, secret_heading
from tui.widgets.keypad import KeypadRow
from tui.widgets.lines import e, to_content

ROUND = "Exchange"  # what the scoreboard calls the coming round: "Exchange 2"
ASPECTS_TITLE = "Aspects"


def own_contest(state: Contest) -> FateContest:
    assert isinstance(state, FateContest)
    return state


def score(record: ContestRecord) -> tuple[str, dict[str, str]]:
    state = own_contest(record.state)
    need = state.options.victories_needed
    mode: str = state.options.mode
    if mode == "environment":
        mode += f" vs {ladder_with_value(state.options.difficulty or 0)}"
    cells = {
        side: f"[$accent]{pips(state.victories.get(side, 0), need)}[/] "
        f"{state.victories.get(side, 0)}"
        for side in state.sides
    }
    return f"Fate {mode} · first to {need}", cells


def participants(record: ContestRecord) -> list[str]:
    state = own_contest(record.state)
    lines: list[str] = secret_heading(record)
    for side in state.sides:
        members = [p for p in state.participants if p.side == side]
        team = len(members) > 1
        if team:
            lines.append(f"[b]{e(side)}[/b] rolls {ladder_with_value(state.rating(side))}")
        lead = state.lead(side).name
        pad = "  " if team else ""
        for p in members:
            mark = " (lead)" if team and p.name == lead else ""
            skill = record.uses.get(p.name, "skill")
            hidden = hidden_mark(record, p.name)
            lines.append(f"{pad}[b]{e(p.name)}[/b]{mark}  FP {p.fate_points}{hidden}")
            lines.append(f"{pad}  {e(skill)} {ladder_with_value(p.skill)}")
    return lines


def gm_notes(record: ContestRecord) -> list[str]:
    """The GM's fate points for this scene."""
    pool = record.pool_left
    return [f"[dim]GM pool: {pool} fate point{'s' if pool != 1 else ''}[/]"]


def aspects(state: Contest, hidden: Collection[str] = (), players: bool = False) -> list[str]:
    return aspect_lines(own_contest(state).aspects, hidden, players)


def aspect_lines(
    in_play: Iterable[Aspect], hidden: Collection[str] = (), players: bool = False
) -> list[str]:
    """The aspects pane's lines: each aspect, its free invokes (◆) and who holds them,
    boosts, whose it is; a hidden one marked for the GM, ``??`` for the players."""
    lines: list[str] = []
    for a in in_play:
        secret = a.name in hidden
        name = HIDDEN if secret and players else a.name
        tags = ["hidden"] if secret and not players else []
        if a.boost:
            tags.append("boost")
        if a.free_invokes:
            holder = f" {e(a.holder)}" if a.holder else ""
            tags.append(f"[$accent]{'◆' * a.free_invokes}[/]{holder}")
        if a.owner:
            tags.append(f"{e(a.owner)}'s")
        tail = " · ".join(tags)
        if not tail:
            lines.append(e(name))
        elif to_content(line := f"{e(name)} [dim]{tail}[/]").cell_length <= 26:  # as shown
            lines.append(line)
        else:
            lines += [e(name), f"  [dim]{tail}[/]"]
    return lines or ["[dim]No aspects in play[/]"]


def rows(preview: Preview, draft: Draft) -> list[KeypadRow]:
    state = own_contest(preview.state)
    out = []
    for i, side in enumerate(preview.slots):
        typed = draft.typed.get(side, "")
        total = state.total(side)
        if total is None:
            partial = state.rating(side) + sum(faces_of(DiceKind.FATE, typed.ljust(4, "0")) or ())
            text = f"[dim]so far {ladder_with_value(partial)}[/]"
        else:
            text = f"[b]{ladder_with_value(total)}[/b]"
            if state.options.mode == "environment":
                shifts = total - (state.options.difficulty or 0)
                text += f" · {signed(shifts)} shifts"
        dice = "".join(f"[{ch}]" for ch in typed) + "[ ]" * (4 - len(typed))
        rolled = state.open.dice.get(side)
        if rolled is not None and fate_glyphs(rolled) != typed:  # an invoke rerolled them
            dice = "".join(f"[{ch}]" for ch in fate_glyphs(rolled))
            text += f" [dim](rerolled: {typed} before)[/]"
        out.append(KeypadRow(side, dice, text, i == draft.cursor))
    return out


def _totals(state: FateContest) -> dict[str, int] | None:
    """Every rolling side's total, or None while a roll is missing."""
    totals = {s: state.total(s) for s in state.rolling_sides}
    if not totals or any(t is None for t in totals.values()):
        return None
    return {s: t for s, t in totals.items() if t is not None}


def verdict(preview: Preview, draft: Draft) -> str:
    state = own_contest(preview.state)
    if state.open.attack:  # rules §1.3: the exchange stops there, nobody rolls
        return "[b]Enter: the attack ends the contest, with no dice[/b]"
    totals = _totals(state)
    if totals is None:
        return ""
    scored = score_exchange(state.options, totals)
    if scored.winner is not None:
        style = " with style" if scored.victories == 2 else ""
        plural = "ies" if scored.victories != 1 else "y"
        return f"⇒ [b]{e(scored.winner)}[/b] would win{style}: {scored.victories} victor{plural}"
    if scored.twist:
        return "⇒ [b]a tie[/b]: nobody scores, a twist enters play"
    return "⇒ nobody would score"


def twist_pending(state: Contest) -> bool:
    """True when committing now would tie and so needs a twist's name."""
    c = own_contest(state)
    totals = _totals(c)
    return totals is not None and not c.open.attack and score_exchange(c.options, totals).twist


def commit_asks(state: Contest) -> Asked | None:
    """A tie brings a twist: its name, asked before the exchange is committed."""
    if not twist_pending(state):
        return None
    return Asked("A tie: name the twist", "The new situation aspect", f"Twist {state.n + 1}")


def odds_cells(
    exchange: dict[str, Any], contest_odds: dict[str, float | None], state: Contest
) -> tuple[dict[str, str], str]:
    """Each side's odds as scoreboard text (``contest_odds``: its chance at the contest), and
    the footer under them."""
    cells: dict[str, str] = {}
    for side, o in exchange["sides"].items():
        cells[side] = (
            cell(o["win"], contest_odds.get(side), "contest")
            if o.get("rolls", True)
            else "forfeits"
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
    return cells, footer
