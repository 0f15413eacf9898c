"""How each rule system looks and plays on the dashboard: one module per system, loaded
on demand.

A system's dashboard part (here for the three built in; anywhere for a plug-in: its
``Plugin.dashboard`` names it, a :class:`SystemView`) turns its contest into pane lines
and keypad rows, using the system's own scoring functions, and holds the system's part of
the contest screen (its keys and forms: ``SCREEN``), of the roster (``roster()``) and of
the contest setup (``setup()``). The screens ask :func:`view` for the right one, by the
system's name; nothing in the dashboard lists the systems.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from core.campaign.state import ContestRecord
from core.model import Command, Contest
from core.rules import find_plugin, find_system, load, not_a
from tui.systems.screen_part import ScreenPart

if TYPE_CHECKING:  # (the roster's and setup's parts load when their screen opens)
    from tui.draft import Draft, Preview
    from tui.systems.roster_part import RosterPart
    from tui.systems.setup_part import SetupPart
    from tui.widgets.keypad import KeypadRow


class Asked(NamedTuple):
    """A name the GM gives before an exchange is committed (Fate: a tie's new twist):
    the form's ``title``, its field's ``label``, and the name kept when left blank."""

    title: str
    label: str
    default: str


class SystemView(ABC):
    """A system's part of the dashboard: its plug-in's ``dashboard`` is an instance of a
    subclass (Fate's ``FateView``). A system says how its keypad rows read; every other
    hook has a default a small system keeps (the score from the rules' ``tally``, the
    participants by name, no notes, no odds on the scoreboard, no keys of its own...)."""

    ROUND: ClassVar[str] = "Exchange"  # "Exchange", "Stage": the scoreboard's "Exchange 2"
    ASPECTS_TITLE: ClassVar[str] = "Situation"
    # What Enter may ask before it commits (``commit_asks``), for the help: "" for nothing.
    COMMIT_ASKS: ClassVar[str] = ""
    SCREEN: ClassVar[ScreenPart] = ScreenPart()  # its keys and forms on the contest screen

    @abstractmethod
    def rows(self, preview: Preview, draft: Draft) -> list[KeypadRow]:
        """The keypad's rows: each roller's dice as typed, and what they make (the
        cursor, ``draft.cursor``, counts the rollers :meth:`takes_dice` keeps)."""

    def round_label(self, state: Contest) -> str:
        """The scoreboard's label for the coming round of a contest not over:
        ``ROUND`` and its number by default ("Exchange 2"). FORGE: the round and beat of
        a round by beats under way ("Round 1 · beat 4")."""
        return f"{self.ROUND} {state.n + 1}"

    def over_line(self, state: Contest) -> str:
        """The keypad's first line once the contest is over, before its result."""
        return "The contest is over."

    def finished_label(self, record: ContestRecord) -> str:
        """The scoreboard's label once the contest is over: "After" and the count of
        exchanges played by default ("After 3"). A Fate conflict: its exchanges, not the
        count of actions in its log (the record's: the last one logged says which)."""
        return f"After {record.state.n}"

    def takes_dice(self, state: Contest, who: str) -> bool:
        """Whether ``who``, one of the rules' rollers now, takes dice on the keypad (the
        cursor stops on them, Tussle rolls for them); every roller by default. FORGE:
        not a dying participant, who has no actions (its row says so instead)."""
        return True

    def keypad_rollers(self, preview: Preview) -> list[str]:
        """The rollers of ``preview`` that take dice on the keypad, in order."""
        return [who for who in preview.slots if self.takes_dice(preview.state, who)]

    def roster(self) -> RosterPart:
        """Its part of the roster screen; by default ratings as whole numbers and no
        fields of its own."""
        from tui.systems.roster_part import RosterPart

        return RosterPart()

    def setup(self) -> SetupPart:
        """Its part of the contest setup screen; by default no rule options."""
        from tui.systems.setup_part import SetupPart

        return SetupPart()

    def score(self, record: ContestRecord) -> tuple[str, dict[str, str]]:
        """The scoreboard's kind of contest, and each side's score as text; by default
        the system's title and the rules' ``tally``."""
        rules = find_system(record.state.system)
        tally = rules.tally(record.state)
        counts = tally[0] if tally is not None else {}
        return rules.title, {side: str(counts.get(side, "")) for side in record.state.sides}

    def participants(self, record: ContestRecord) -> list[str]:
        """The participants pane (the GM's): what the players do not see is marked; by
        default each by name, with their side where it is not their own and the points
        they hold (the rules' ``points``)."""
        from tui.systems.common import hidden_mark, secret_heading
        from tui.widgets.lines import e

        lines = secret_heading(record)
        rules = find_system(record.state.system)
        for p in record.state.participants:
            team = f" ({e(p.side)})" if p.side != p.name else ""
            held = rules.points(record.state, p.name)
            points = f" · {held[0]} {e(held[1])}" if held is not None else ""
            lines.append(f"[b]{e(p.name)}[/b]{team}{points}{hidden_mark(record, p.name)}")
        return lines

    def gm_notes(self, record: ContestRecord) -> list[str]:
        """Lines under the participants for the GM alone (Fate's GM pool); none by
        default."""
        return []

    def players_lines(self, record: ContestRecord) -> list[str]:
        """Lines the players' view (``tussle watch``) shows on its table, each
        participant's harm (Fate conflict: stress boxes and consequences), ``??`` for a
        participant the GM hides; none by default."""
        return []

    def aspects(
        self, state: Contest, hidden: Collection[str] = (), players: bool = False
    ) -> list[str]:
        """The aspects pane (the situation, where a system has no aspects). ``hidden``
        names the aspects the GM keeps from the players: marked for the GM, shown as
        ``??`` to the ``players``. By default the rules' ``aspects``, by name."""
        from tui.systems.common import HIDDEN_MARK
        from tui.widgets.lines import e

        lines = []
        for name in find_system(state.system).aspects(state):
            if name in hidden:
                lines.append("??" if players else f"{e(name)} {HIDDEN_MARK}")
            else:
                lines.append(e(name))
        return lines

    def verdict(self, preview: Preview, draft: Draft) -> str:
        """What committing the keypad would do (``⇒ Ann would score``); nothing by
        default."""
        return ""

    def describe_extra(self, command: Command) -> str | None:
        """One line for a system's action waiting on the keypad; None (the default):
        the generic words."""
        return None

    def odds_cells(
        self, exchange: dict[str, Any], contest_odds: dict[str, float | None], state: Contest
    ) -> tuple[dict[str, str], str]:
        """Each side's odds on the scoreboard (from :func:`core.odds.report.odds_for`'s
        ``exchange``; ``contest_odds``: each side's chance at the contest), and a footer;
        none by default."""
        return {}, ""

    def commit_asks(self, state: Contest) -> Asked | None:
        """What committing the exchange now must ask first, where the rules want a name
        (Fate: a tie brings a twist); None by default."""
        return None


def view(system: str) -> SystemView:
    """The dashboard part of ``system``, as its plug-in names it (``RuleError`` for a
    system no plug-in provides, or a part that is not a :class:`SystemView`)."""
    reference = find_plugin(system).dashboard
    if not isinstance(part := load(reference), SystemView):
        raise not_a(reference, SystemView)
    return part
