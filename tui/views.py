"""What the panes say about a contest, as markup lines: the parts every system shares,
the rest from the system's own module in :mod:`tui.systems`."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from core.campaign.state import ContestRecord
from core.model import Command, Contest, ExchangeEvent, SetModifier
from core.rules import find_system
from core.text import visible
from tui.systems import view
from tui.widgets.lines import e

__all__ = ["aspects", "describe_extra", "exchange_lines", "participants", "scoreboard"]


def scoreboard(
    record: ContestRecord,
    campaign_name: str,
    unsaved: int = 0,
    read_only: bool = False,
    odds: tuple[dict[str, str], str] | None = None,
) -> list[str]:
    """The contest on one line, then a line per side: its score and, when shown, its
    odds; actions the disk has not taken yet, and a read-only campaign, said first."""
    state = record.state
    kind, cells = view(state.system).score(record)
    head = f"[b]{e(record.title)}[/b] · {e(campaign_name)} · {kind}"
    if read_only:
        head = f"[b reverse] READ-ONLY [/] {head}"
    if unsaved:
        plural = "s" if unsaved != 1 else ""
        head = f"[b $error]⚠ {unsaved} action{plural} NOT SAVED (retrying)[/] {head}"
    system = view(state.system)
    label = system.finished_label(record) if state.finished else system.round_label(state)
    if state.finished:
        verdict = f"[b reverse] {e(state.winner)} wins [/]" if state.winner else "[b]No winner[/]"
        escalated = find_system(state.system).escalated(state)
        if escalated is not None:
            verdict = f"[b reverse] {e(escalated.short)} [/]"
        label = f"{label}  {verdict}"
    odds_by_side, footer = odds if odds is not None else ({}, "")
    label_width = len(_plain(label))
    name_width = max((len(visible(side)) for side in cells), default=0)
    score_width = max([7, *(len(_plain(score)) for score in cells.values())])
    lines = [head]
    for i, (side, score) in enumerate(cells.items()):
        left = f"[b]{label}[/b]" if i == 0 else " " * label_width
        name = e(side) + " " * (name_width - len(visible(side)))
        score_pad = " " * (score_width - len(_plain(score)))  # the odds in one column
        line = f"{left}   {name}  {score}{score_pad}  {odds_by_side.get(side, '')}"
        lines.append(line.rstrip())
    if footer:
        lines.append(" " * (label_width + 3) + footer)
    return lines


def _plain(markup: str) -> str:
    """What ``markup`` shows, without its tags (Textual's markup, $variables and all)."""
    from tui.widgets.lines import to_content

    return to_content(markup).plain


def participants(record: ContestRecord) -> list[str]:
    """The participants pane (the GM's), with what the system tells the GM alone."""
    system = view(record.state.system)
    return system.participants(record) + system.gm_notes(record)


def aspects(state: Contest, hidden: Collection[str] = ()) -> list[str]:
    """The aspects pane; ``hidden`` aspects are marked for the GM."""
    return view(state.system).aspects(state, hidden)


def describe_extra(system: str, command: Command) -> str:
    """One line for an action waiting on the keypad."""
    described = view(system).describe_extra(command)
    if described is not None:
        return described
    if isinstance(command, SetModifier):
        named = "" if command.label is None else f" ({e(command.label)})"
        return f"Modifier: {e(command.who)} {command.value:+d}{named}"
    return e(type(command).__name__)


def exchange_lines(state: Contest, events: Iterable[ExchangeEvent]) -> list[str]:
    """The exchange log's lines for ``events`` (the rule system's own account)."""
    rules = find_system(state.system)
    return [line for event in events for line in rules.describe(event)]
