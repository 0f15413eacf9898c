"""The end of a contest: who won and by how much, what it cost, each exchange in one line,
and what went back onto the roster. Then the next contest, or back to the campaign."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

from core.campaign.aftermath import summary
from tui.host import Host, host
from tui.key_hints import key_of
from tui.keys_in_order import TextIsNoKey
from tui.widgets.keybar import KeyBar
from tui.widgets.lines import Hanging, e
from tui.widgets.panes import TellingScroll

if TYPE_CHECKING:
    from core.bus import Notice


class SummaryScreen(TextIsNoKey, ModalScreen[None]):
    """The summary of one contest, kept up to date as actions are done and undone."""

    BINDINGS = [
        Binding("question_mark,f1", "help", "Key help", id="summary.help"),
        Binding("n", "next", "Next contest", id="summary.next"),
        Binding("N", "new", "New contest", id="summary.new", show=False),
        Binding("r", "write_back", "Write to roster", id="summary.write_back", show=False),
        Binding("u", "app.undo", "Undo", id="summary.undo"),
        Binding("U,ctrl+y", "app.redo", "Redo", id="summary.redo", show=False),
        Binding("w", "roster", "Roster", id="summary.roster"),
        Binding("c", "campaigns", "Campaigns", id="summary.campaigns"),
        Binding("escape,enter", "close", "Back to the contest", id="summary.close"),
    ]

    def __init__(self, contest_id: str) -> None:
        super().__init__()
        self.contest_id = contest_id

    @property
    def tussle(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        def key(action: str, default: str) -> str:
            return e(key_of(self, f"summary.{action}", default))

        with TellingScroll(id="summary-body") as body:
            body.border_title = "End of the contest"
            yield Static(id="summary")
        yield Static(
            Hanging(
                [
                    f"[dim]{key('next', 'n')}: next contest with the same sides"
                    f" · {key('new', 'N')}: new sides · {key('write_back', 'r')}: write to the"
                    f" roster · {key('undo', 'u')}: undo · {key('roster', 'w')}: roster"
                    f" · {key('campaigns', 'c')}: campaigns · {key('close', 'Esc')}: back[/]"
                ]
            ),
            id="summary-keys",
        )
        yield KeyBar()

    def on_mount(self) -> None:
        self.paint()

    def paint(self) -> None:
        campaign = self.tussle.campaign
        if self.contest_id not in campaign.contests:
            self.dismiss(None)  # its start was undone
            return
        shown = summary(campaign, campaign.contest(self.contest_id))
        lines = [f"[b]{e(shown.title)}[/b]", "", f"[b]{e(shown.result)}[/b]", ""]
        lines.append("[b]What it cost[/b]")
        lines.extend(f"  {e(c)}" for c in shown.costs or ("nothing",))
        lines += ["", "[b]Exchanges[/b]"]
        lines.extend(f"  {e(x)}" for x in shown.exchanges or ("none played",))
        if shown.account:  # the recap's account (a Fate conflict's harm), its own words
            head, *rest = shown.account
            lines += ["", f"[b]{e(head.removesuffix(':'))}[/b]"]
            lines.extend(f"  {e(x)}" for x in rest)
        lines.append("")
        if shown.written:
            undo = e(key_of(self, "summary.undo", "u"))
            lines.append(f"[b]Written to the roster[/b] [dim]({undo} takes it back)[/]")
        else:
            lines.append("[b]For the roster[/b] [dim](r writes it)[/]")
        lines.extend(f"  {e(r)}" for r in shown.roster or ("no change",))
        self.query_one("#summary", Static).update(Hanging(lines))

    def notice(self, notice: Notice) -> None:
        from core.bus import Rejected

        if isinstance(notice, Rejected):
            self.notify(str(notice.error), title=notice.error.title, severity="error")
        self.paint()

    def action_next(self) -> None:
        record = self.tussle.campaign.contests.get(self.contest_id)
        self.tussle.open_setup(like=record)

    def action_new(self) -> None:
        self.tussle.open_setup()

    def action_write_back(self) -> None:
        from core.campaign.log import WriteBack

        self.tussle.send(WriteBack(contest_id=self.contest_id))

    def action_roster(self) -> None:
        self.tussle.open_roster()

    def action_campaigns(self) -> None:
        self.tussle.open_campaigns()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))
