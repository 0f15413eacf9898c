"""The scoreboard, participants and aspects panes: text set from above."""

from __future__ import annotations

from textual.widgets import Static


class Pane(Static):
    """A bordered pane whose content is a list of markup lines."""

    def show(self, lines: list[str]) -> None:
        self.update("\n".join(lines))


class Scoreboard(Pane):
    """Contest, system, exchange number, each side's victories and odds; the winner."""


class ParticipantsPane(Pane):
    """Sides, members, what they roll, their points and states."""


class AspectsPane(Pane):
    """Situation aspects, twists and boosts with their free invokes and holders."""
