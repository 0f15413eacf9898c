"""Small helpers the system views share."""

from __future__ import annotations

from rich.markup import escape

PIP_ON, PIP_OFF = "●", "○"


def e(text: object) -> str:
    """``text`` safe inside markup."""
    return escape(str(text))


MAX_PIPS = 10


def pips(have: int, need: int) -> str:
    """``●●○`` toward a target; past ten pips, a count (``12/40``) reads better."""
    if need > MAX_PIPS or have > MAX_PIPS:
        return f"{have}/{need}"
    return PIP_ON * have + PIP_OFF * max(0, need - have)


def cells(typed: str, width: int) -> str:
    """A d20 or d100 face as typed so far, in a box of ``width``."""
    return f"[{typed:>{width}}]"
