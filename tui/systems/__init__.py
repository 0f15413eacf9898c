"""How each rule system looks and plays on the dashboard: one module per system, loaded
on demand.

A module here turns its system's contest into pane lines and keypad rows, using the
system's own scoring functions, and holds the system's part of the contest screen (its
keys and forms: ``SCREEN``). The screens ask :func:`view` for the right one, by the
system's name; :data:`SYSTEMS` below is the one place of the dashboard that names them.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol

from core.campaign import ContestRecord
from core.model import Command, Contest

if TYPE_CHECKING:
    from tui.draft import Draft, Preview
    from tui.systems.screen_part import ScreenPart
    from tui.widgets.keypad import KeypadRow

# The registry: each rule system's name (as ``Contest.system`` has it) and its module.
# The only module of tui/ allowed to name the systems (tests/tui/test_no_system_names.py).
SYSTEMS = {
    "fate": "tui.systems.fate",
    "heroquest": "tui.systems.heroquest",
    "forge": "tui.systems.forge",
}


class SystemView(Protocol):
    """What a system module in this package provides."""

    ROUND: str  # "Exchange", "Stage": the scoreboard's "Exchange 2"
    ASPECTS_TITLE: str
    SCREEN: ScreenPart  # its keys and forms on the contest screen

    def score(self, record: ContestRecord) -> tuple[str, dict[str, str]]:
        """The scoreboard's kind of contest, and each side's score as text."""
        ...

    def participants(self, record: ContestRecord) -> list[str]:
        """The participants pane (the GM's): what the players do not see is marked."""
        ...

    def gm_notes(self, record: ContestRecord) -> list[str]:
        """Lines under the participants for the GM alone (Fate's GM pool)."""
        ...

    def aspects(
        self, state: Contest, hidden: Collection[str] = (), players: bool = False
    ) -> list[str]:
        """The aspects pane (the situation, where a system has no aspects). ``hidden``
        names the aspects the GM keeps from the players: marked for the GM, shown as
        ``??`` to the ``players``."""
        ...

    def rows(self, preview: Preview, draft: Draft) -> list[KeypadRow]: ...

    def verdict(self, preview: Preview, draft: Draft) -> str: ...

    def describe_extra(self, command: Command) -> str | None: ...

    def odds_cells(
        self, exchange: dict[str, Any], contest_odds: dict[str, float | None], state: Contest
    ) -> tuple[dict[str, str], str]:
        """Each side's odds on the scoreboard (from :func:`core.odds.odds_for`'s
        ``exchange``; ``contest_odds``: each side's chance at the contest), and a footer."""
        ...

    def twist_pending(self, state: Contest) -> bool:
        """True when committing now would tie and so needs a twist's name (Fate)."""
        ...


def view(system: str) -> SystemView:
    """The module for ``system`` (a ``KeyError`` for a system the dashboard lacks)."""
    module: SystemView = importlib.import_module(SYSTEMS[system])
    return module
