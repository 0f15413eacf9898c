"""Small helpers the system views share."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.campaign.state import ContestRecord

PIP_ON, PIP_OFF = "●", "○"


MAX_PIPS = 10


def pips(have: int, need: int) -> str:
    """``●●○`` toward a target; past ten pips, a count (``12/40``) reads better."""
    if need > MAX_PIPS or have > MAX_PIPS:
        return f"{have}/{need}"
    return PIP_ON * have + PIP_OFF * max(0, need - have)


def cells(typed: str, width: int) -> str:
    """A d20 or d100 face as typed so far, in a box of ``width``."""
    return f"[{typed:>{width}}]"


HIDDEN_MARK = "[dim]· hidden[/]"  # beside what the players' view does not show


def secret_heading(record: ContestRecord) -> list[str]:
    """The participants pane's first line when the whole contest is hidden."""
    return ["[b]Hidden from the players[/b]"] if record.secret else []


def hidden_mark(record: ContestRecord, name: str) -> str:
    """`` · hidden`` after a participant whose numbers the players do not see."""
    return f" {HIDDEN_MARK}" if name in record.secret_participants else ""


# -- the odds on the scoreboard --------------------------------------------------------------

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
