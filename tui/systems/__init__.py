"""How each rule system looks and plays on the dashboard: one module per system, loaded
on demand.

A system's dashboard module (here for the three built in; anywhere for a plug-in: its
``Plugin.dashboard`` names it) turns its contest into pane lines and keypad rows, using
the system's own scoring functions, and holds the system's part of the contest screen
(its keys and forms: ``SCREEN``), of the roster (``ROSTER``) and of the contest setup
(``SETUP``). The screens ask
:func:`view` for the right one, by the system's name; nothing in the dashboard lists
the systems.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol

from core.campaign import ContestRecord
from core.model import Command, Contest
from core.rules import find_plugin

if TYPE_CHECKING:
    from tui.draft import Draft, Preview
    from tui.systems.roster_part import RosterPart
    from tui.systems.screen_part import ScreenPart
    from tui.systems.setup_part import SetupPart
    from tui.widgets.keypad import KeypadRow


class SystemView(Protocol):
    """What a system module in this package provides."""

    ROUND: str  # "Exchange", "Stage": the scoreboard's "Exchange 2"
    ASPECTS_TITLE: str
    SCREEN: ScreenPart  # its keys and forms on the contest screen
    ROSTER: RosterPart  # its part of the roster screen
    SETUP: SetupPart  # its part of the contest setup screen

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
    """The dashboard module of ``system``, as its plug-in names it (``RuleError`` for a
    system no plug-in provides)."""
    module: SystemView = importlib.import_module(find_plugin(system).dashboard)
    return module
