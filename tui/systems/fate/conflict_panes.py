"""A Fate conflict on the contest screen: who is still in, whose turn, each one's stress
boxes and consequences, the aspects (consequences and boosts with their free invokes),
the hit waiting to be absorbed, and the odds of being taken out (issue 28)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from core.campaign.state import ContestRecord
from core.model import Contest
from core.redact import HIDDEN
from core.systems.fate.conflict_play import CONFLICT, FateConflict, shifts
from core.systems.fate.stress import boxes_text, track_label
from tui.draft import Draft, Preview
from tui.systems.common import hidden_mark, pct, secret_heading
from tui.systems.fate import panes
from tui.widgets.keypad import KeypadRow
from tui.widgets.lines import e

ROUND = "Exchange"


def own(state: Contest) -> FateConflict:
    assert isinstance(state, FateConflict)
    return state


def standing(c: FateConflict, name: str) -> str:
    x = c.conflict.combatant(name)
    return "taken out" if x.taken_out else "conceded" if x.conceded else "in"


def score(record: ContestRecord) -> tuple[str, dict[str, str]]:
    c = own(record.state)
    kind = f"Fate {c.conflict.kind} conflict"
    if not c.finished:
        kind += f" · exchange {c.conflict.exchange} · {e(c.turn)}'s turn"
    cells = {}
    for side in c.sides:
        members = [p.name for p in c.participants if p.side == side]
        left = sum(1 for n in members if standing(c, n) == "in")
        cells[side] = f"{left}/{len(members)} in" if len(members) > 1 else standing(c, members[0])
    return kind, cells


def participants(record: ContestRecord) -> list[str]:
    """Each one: fate points, each stress track's boxes ([x1] checked), consequences."""
    c = own(record.state)
    lines = secret_heading(record)
    for p in c.participants:
        x = c.conflict.combatant(p.name)
        mark = "▶ " if not c.finished and c.turn == p.name else ""
        out = "" if x.in_conflict else f" [dim]({standing(c, p.name)})[/]"
        team = f" ({e(p.side)})" if p.side != p.name else ""
        lines.append(
            f"{mark}[b]{e(p.name)}[/b]{team}  FP {p.fate_points}{out}{hidden_mark(record, p.name)}"
        )
        for track in x.tracks:
            lines.append(f"  {e(track_label(track.name))} {e(boxes_text(track))}")
        for slot in x.slots:
            if slot.aspect is not None:
                lines.append(f"  {slot.severity}: {e(slot.aspect)}")
        free = [s.severity for s in x.slots if s.free]
        lines.append(f"  [dim]free: {', '.join(free) or 'no consequence slot'}[/]")
    if c.defending:
        lines.append(f"[dim]full defense: {e(', '.join(sorted(c.defending)))}[/]")
    return lines


def gm_notes(record: ContestRecord) -> list[str]:
    pool = record.pool_left
    return [f"[dim]GM pool: {pool} fate point{'s' if pool != 1 else ''}[/]"]


def round_label(state: Contest) -> str:
    """The scoreboard's label: the conflict's exchange (each one acts once in it), not
    the count of actions played ("Exchange 2" while the title says exchange 2)."""
    return f"{panes.ROUND} {own(state).conflict.exchange}"


def finished_label(record: ContestRecord) -> str:
    """A conflict over: the exchanges it had ("After 3 exchanges"), not its actions: the
    exchange of the last action logged. The conflict's own count is the exchange under
    way, one more than those played when the GM ends it before anyone acts in it."""
    n = CONFLICT.exchanges_played(record.exchanges)
    return f"After {n} exchange{'s' if n != 1 else ''}"


def players_lines(record: ContestRecord) -> list[str]:
    """The players' view: a line each (the table pane is short at 80x24), its stress
    boxes and consequences as the GM's pane has them, out of the conflict or not;
    ``??`` for one the GM hides."""
    c = own(record.state)
    lines = []
    for p in c.participants:
        if record.hidden("participant", p.name):
            lines.append(f"[b]{e(p.name)}[/b]  {HIDDEN}")
            continue
        x = c.conflict.combatant(p.name)
        out = "" if x.in_conflict else f" [dim]({standing(c, p.name)})[/]"
        parts = [f"{e(track_label(t.name))} {e(boxes_text(t))}" for t in x.tracks]
        parts += [f"{s.severity}: {e(s.aspect)}" for s in x.slots if s.aspect is not None]
        lines.append(f"[b]{e(p.name)}[/b]{out}  " + " · ".join(parts))
    return lines


def rows(preview: Preview, draft: Draft) -> list[KeypadRow]:
    return []  # a conflict's dice come with each attack's form


def verdict(preview: Preview, draft: Draft) -> str:
    """What the GM does next: absorb the hit waiting, or the turn's actions."""
    c = own(preview.state)
    if c.finished and not draft.empty:
        return "⇒ the conflict would end: Enter commits it · Esc clears the keypad"
    if c.finished:
        return "The conflict is over: Enter shows its summary"
    if c.hit is not None:
        return (
            f"[b]{e(c.hit.target)}[/b] absorbs {shifts(c.hit.shifts)} {c.hit.track} hit: "
            "a chooses how (or taken out)"
        )
    return f"[b]{e(c.turn)}[/b]'s turn: k attack, defend, concede... (k: the choices)"


def odds_cells(
    exchange: dict[str, Any], contest_odds: dict[str, float | None], state: Contest
) -> tuple[dict[str, str], str]:
    """Each side's chance to win the conflict; the footer, each one's chance of being
    taken out by the end of the exchange under way."""
    c = own(state)
    cells = {side: f"wins {pct(contest_odds.get(side))}" for side in c.sides}
    taken = exchange.get("taken_out") or {}
    parts = [f"{e(name)} {pct(o.get('chance'))}" for name, o in taken.items() if o.get("chance")]
    footer = "taken out this exchange: " + (", ".join(parts) if parts else "nobody can be")
    return cells, footer


def aspects(state: Contest, hidden: Collection[str] = (), players: bool = False) -> list[str]:
    return panes.aspect_lines(own(state).aspects, hidden, players)
