"""What the screens ask of the app that shows them, below both.

``tui.app`` imports the screens (to show them); the screens use the app only through
:class:`Host`, so none of them imports ``tui.app`` and there is no import cycle. The one
``Host`` is ``tui.app.TussleApp``, and mypy checks that it is one (``TussleApp.host``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

import msgspec
from textual.notifications import SeverityLevel
from textual.screen import Screen

from core.bus import Bus
from core.campaign.actions import Campaign
from core.campaign.state import ContestRecord
from core.dice import RandomDice
from core.model import Command
from core.saves.store import CampaignFiles, Saves
from tui.draft import Kept


class Host(Protocol):
    """The running dashboard, as its screens see it: the campaign open, its files and
    bus, and the ways to another screen."""

    saves: Saves
    dice: RandomDice
    files: CampaignFiles | None
    bus: Bus | None
    read_only: bool
    show_odds: bool
    kept: dict[tuple[str, str], Kept]
    sub_title: str

    @property
    def campaign(self) -> Campaign: ...

    def send(self, command: Command) -> None: ...

    def open_campaign(self, slug: str, read_only: bool = False) -> None: ...

    def create_campaign(self, name: str, system: str) -> None: ...

    def back_to_contest(self, remember: bool = True) -> None: ...

    def back(self) -> None:
        """Esc: the main screen shown before this one (or the GM told why not)."""
        ...

    def open_roster(self) -> None: ...

    def open_setup(self, like: ContestRecord | None = None) -> None: ...

    def open_campaigns(self) -> None: ...

    async def action_quit(self) -> None: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
    ) -> None: ...

    def toast_shown(self) -> bool:
        """Whether a toast is still on the screen (its time not up, not cleared)."""
        ...

    def clear_notifications(self) -> None: ...


class Step(msgspec.Struct, frozen=True):
    """A main screen left for another, as Esc brings it back: ``make`` builds it again
    (None when it cannot be shown any more: its campaign closed, its contest undone)."""

    kind: str  # "contest", "roster", "setup", "campaigns"
    make: Callable[[], Screen[None] | None]
    unsaved: tuple[str, ...] = ()  # what quitting would lose of it (a setup's), a line each


def host(app: object) -> Host:
    """``app`` as a :class:`Host` (screens run in ``TussleApp`` alone)."""
    return cast(Host, app)
