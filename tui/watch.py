"""``tussle watch NAME``: the players' screen, following the campaign's files.

Another process than the GM's: no bus, no lock, no writes. Four times a second it looks at
the manifest (:class:`tui.follow.Follower`, as a read-only dashboard does); when it
changed, it reads the entries saved since and shows the newest contest: a large score,
the last exchange with its dice, the few before, the aspects with their free invokes,
the PCs' points. What the GM hides (a participant's numbers, an aspect: each system's
``describe`` marks them, :mod:`core.redact`) shows as ``??``; a contest the GM keeps
secret shows its title alone. A file that is missing, being replaced or unreadable
leaves the last good picture on screen, with a line that says so.

A seat ends with its terminal: without one (stdin not a terminal) the view does not
start, and when stdin hangs up (a dropped SSH connection, ``tussle serve`` gone) it leaves
within a second (:mod:`tui.terminal` says why Textual alone would spin there instead).
"""

from __future__ import annotations

import os
import textwrap
from datetime import datetime
from pathlib import Path

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.widgets import Digits, Static

from core.campaign.actions import Campaign
from core.campaign.state import ContestRecord, secrets_of
from core.redact import HIDDEN
from core.rules import find_system
from tui import glyphs
from tui.follow import POLL_SECONDS, Follower
from tui.systems import view
from tui.terminal import STDIN, clients_take_utf8, hung_up
from tui.widgets.lines import e

EARLIER = 3  # exchanges shown before the last one
HANG_UP_SECONDS = 0.2  # how often the view asks whether its terminal is still there
CLIENTS_SECONDS = 1.0  # in tmux: how often it asks whether every client takes UTF-8


def score_of(record: ContestRecord) -> dict[str, int]:
    """Each side's score as the players count it: victories, resolution points or stage
    wins, whatever the system keeps (0 each where it keeps none)."""
    state = record.state
    tally = find_system(state.system).tally(state)
    return tally[0] if tally is not None else {side: 0 for side in state.sides}


def more_note(left_out: int, cut: bool) -> str:
    """What the view says when exchanges do not fit its pane."""
    if left_out and cut:
        more = "1 more exchange" if left_out == 1 else f"{left_out} more exchanges"
        return f"{more} and the rest of this one: make the window larger"
    if left_out:
        more = "1 more exchange" if left_out == 1 else f"{left_out} more exchanges"
        return f"{more}: make the window larger"
    return "The rest of this exchange: make the window larger" if cut else ""


def fitting(exchanges: list[list[str]], width: int, height: int) -> tuple[str, list[str]]:
    """The lines of the newest ``exchanges`` (each a list of lines, oldest first) that
    fit ``height`` rows of ``width`` columns (a line longer than the width wraps, at
    spaces, onto more rows), and a note that says how many were left out ("" when none
    was): the newest exchanges are kept whole; when even the newest does not fit, its
    first lines (its verdict first). All of them while the size is unknown (0)."""
    lines = [line for exchange in exchanges for line in exchange]
    if width <= 0 or height <= 0:
        return "", lines

    def rows(text: str) -> int:  # wrapped at spaces, as the pane wraps it
        return max(1, len(textwrap.wrap(text, width)))

    if sum(map(rows, lines)) <= height:
        return "", lines
    kept: list[list[str]] = []
    for count, exchange in enumerate(reversed(exchanges)):
        note = more_note(len(exchanges) - count - 1, cut=False)
        used = rows(note) + sum(rows(line) for done in kept for line in done)
        if used + sum(map(rows, exchange)) > height:
            break
        kept.insert(0, exchange)
    if kept:
        return more_note(len(exchanges) - len(kept), cut=False), [
            line for exchange in kept for line in exchange
        ]
    # Not even the newest fits: its first lines, as many as there is room for.
    newest = exchanges[-1] if exchanges else []
    note = more_note(len(exchanges) - 1, cut=True)
    room = height - rows(note)
    head: list[str] = []
    for line in newest:
        if rows(line) > room:
            break
        head.append(line)
        room -= rows(line)
    return note, head


def in_tmux_unforced() -> bool:
    """In a tmux pane, drawing on a terminal (not a browser seat's driver), with no
    ``TUSSLE_GLYPHS`` that says how: the clients attached say whether UTF-8 will do."""
    forced = os.environ.get(glyphs.VARIABLE, "").strip().lower() in ("ascii", "unicode")
    return bool(os.environ.get("TMUX")) and not os.environ.get("TEXTUAL_DRIVER") and not forced


class WatchApp(glyphs.DrawsGlyphs):
    """The players' view of one campaign. Read-only by construction."""

    TITLE = "Tussle · players' view"
    # From 100x30 up: the score in large digits, the last exchanges and the table side by
    # side. Narrower (-narrow), the table goes under the exchanges; shorter (-short), the
    # score takes one line. So 60x20 shows the whole view. Smaller still (a phone's 40
    # columns, a player's small terminal), the score and the newest exchange show: below
    # 20 rows (-tiny) the table goes, and the exchanges that do not fit are counted
    # ("2 more exchanges: make the window larger"), never left out without a word.
    CSS = """
    Screen { layout: vertical; }
    #title { height: auto; max-height: 2; padding: 0 1; background: $panel; text-style: bold; }
    #score { height: 6; }
    .side { width: 1fr; height: 6; align: center top; }
    .side Static { width: 1fr; content-align: center top; text-style: bold; }
    .side Digits { width: 1fr; text-align: center; }
    #body { height: 1fr; }
    #last { width: 3fr; height: 1fr; border: round $accent; padding: 0 1; }
    #table { width: 2fr; height: 1fr; max-width: 44; border: round $primary; padding: 0 1; }
    #status { height: 1; padding: 0 1; color: $text-muted; }
    Screen.-narrow #body { layout: vertical; }
    Screen.-narrow #last { width: 1fr; }
    Screen.-narrow #table { width: 1fr; max-width: 100%; height: auto; max-height: 9; }
    Screen.-short #score { height: 1; }
    Screen.-short .side { height: 1; }
    Screen.-short .side Digits { display: none; }
    Screen.-short .side .odds { display: none; }
    Screen.-tiny #table { display: none; }
    """
    NARROW, SHORT = 100, 30  # below these, the compact layouts
    TINY = 20  # below this many rows, the table goes: the last exchanges keep the room
    BINDINGS = [Binding("q", "quit", "Leave", id="watch.quit")]
    # No command palette: its "save screenshot" would write a file as the GM's user,
    # from an SSH seat that gets nothing but this view.
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, folder: Path, stdin: int | None = None) -> None:
        """``stdin``: the file descriptor whose hang-up ends the view (``tussle watch``:
        its stdin); None for none (a test's app, which has no terminal of its own)."""
        super().__init__()
        self.folder = folder
        self.stdin = stdin
        self.follower = Follower(folder)
        self.problem = ""  # as shown
        self.sides: tuple[str, ...] = ()
        self.blocks: dict[str, tuple[Static, Digits, Static]] = {}
        self.updated = ""
        # What the players were last shown, as text: "updated" moves only when it
        # changes, never for what the GM does inside a secret (the clock would tell).
        self.seen: list[str] = []
        # The odds beside each side, worked out in a thread for the state they are of
        # (never while painting: a long solve would leave the view blank).
        self.odds_state: object = None
        self.odds_cells: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Horizontal(id="score")
        with Horizontal(id="body"):
            yield Static(id="last")
            yield Static(id="table")
        yield Static(id="status")

    def on_mount(self) -> None:
        # The GM's theme (and keys) from the settings file, as on the dashboard; its
        # problems are the GM's to read there, not the players'.
        from textual.theme import BUILTIN_THEMES

        from tui.config import load

        settings = load(None, BUILTIN_THEMES)
        if settings.theme is not None:
            self.theme = settings.theme
        self.set_keymap(settings.keymap)
        self.query_one("#last").border_title = "Last exchanges"
        self.query_one("#table").border_title = "On the table"
        self.fit()
        self.poll()
        self.set_interval(POLL_SECONDS, self.poll)
        if self.stdin is not None:
            self.set_interval(HANG_UP_SECONDS, self.leave_when_hung_up)
        if self.stdin is not None and in_tmux_unforced():
            self.set_interval(CLIENTS_SECONDS, self.ask_the_clients)

    # -- in tmux: drawn for every client (issue 24, item 18) -----------------------------
    def ask_the_clients(self) -> None:
        """Whether a client of this tmux session cannot show UTF-8 (asked in a thread):
        while one is attached, the view draws in ASCII for all (tmux would show that
        client ``_`` for every pip, arrow and frame), and in UTF-8 again once none is."""
        self.run_worker(
            self.clients_glyphs, thread=True, exclusive=True, group="clients", exit_on_error=False
        )

    def clients_glyphs(self) -> None:
        every = clients_take_utf8()
        if every is not None:
            self.call_from_thread(self.draw_in, "unicode" if every else "ascii")

    def draw_in(self, mode: glyphs.Mode) -> None:
        if glyphs.mode() != mode:
            glyphs.use(mode)
            for widget in self.screen.walk_children():
                widget.refresh(layout=True)
            self.screen.refresh(layout=True)

    def leave_when_hung_up(self) -> None:
        """The terminal (or ``tussle serve``'s pipe) is gone: nobody is watching."""
        if self.stdin is not None and hung_up(self.stdin):
            self.exit()

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size)
        self.call_after_refresh(self.paint)  # the exchanges that fit, once laid out

    def fit(self, size: Size | None = None) -> None:
        width, height = size or self.size
        self.screen.set_class(width < self.NARROW, "-narrow")
        self.screen.set_class(height < self.SHORT, "-short")
        self.screen.set_class(height < self.TINY, "-tiny")

    @property
    def campaign(self) -> Campaign | None:
        return self.follower.campaign

    # -- following the files ----------------------------------------------------------
    def poll(self) -> None:
        change = self.follower.poll()
        if change == "problem":
            self.show_problem(self.follower.problem)
            return
        if change == "same" and not self.problem:
            return
        self.problem = ""
        before = self.seen
        self.paint()
        if self.seen != before or not self.updated:
            self.updated = datetime.now().strftime("%H:%M:%S")
            self.paint_status()

    def show_problem(self, problem: str) -> None:
        if problem != self.problem:
            self.problem = problem
            self.paint()

    # -- painting -----------------------------------------------------------------------
    def paint_status(self) -> None:
        status = self.query_one("#status", Static)
        if self.problem:
            status.update(f"[b $error]⚠ {e(self.problem)}[/]")
        elif self.follower.warning:  # shown up to a log entry that does not load
            status.update(f"[b $warning]⚠ {e(self.follower.warning)}[/]")
        else:
            name = self.campaign.name if self.campaign is not None else self.folder.name
            status.update(f"following {e(name)} · updated {self.updated} · q leaves")

    def show(self, selector: str, text: str) -> None:
        """Put ``text`` in the pane ``selector``, and note it among what is seen."""
        self.seen.append(text)
        self.query_one(selector, Static).update(text)

    def paint(self) -> None:
        self.paint_status()
        self.seen = []
        campaign = self.campaign
        record = campaign.latest_contest if campaign is not None else None
        if campaign is None or record is None:
            self.show("#title", "Waiting for a contest…")
            return
        if record.secret:
            self.paint_secret(record)
            return
        state = record.state
        secrets = secrets_of(record)
        kind, _ = view(state.system).score(record)
        over = ""
        if state.finished:
            over = f" · [reverse] {e(state.winner)} wins [/]" if state.winner else " · no winner"
        self.show("#title", f"{e(record.title)} · {kind}{over}")
        self.paint_score(record)
        rules = find_system(state.system)
        exchanges = [
            list(rules.describe(event, secrets)) for event in record.exchanges[-(EARLIER + 1) :]
        ]
        last = self.query_one("#last", Static)
        note, shown = fitting(exchanges, last.content_size.width, last.content_size.height)
        text = "\n".join(e(line) for line in shown) or "No exchange yet"
        self.show("#last", f"[i $warning]{e(note)}[/]\n{text}" if note else text)
        table = view(state.system).aspects(state, secrets.aspects, players=True)
        harm = view(state.system).players_lines(record)
        points = self.points(campaign, record)
        self.show("#table", "\n".join([*harm, *([""] if harm else []), *table, "", *points]))

    def paint_secret(self, record: ContestRecord) -> None:
        """A contest the GM keeps secret: its title, and nothing of what happens in it."""
        self.show("#title", f"{e(record.title)} · secret")
        self.paint_score(record, secret=True)
        self.show("#last", "The GM keeps this contest secret")
        self.show("#table", "[dim]Nothing to show[/]")

    def paint_score(self, record: ContestRecord, secret: bool = False) -> None:
        score = {} if secret else score_of(record)
        if tuple(score) != self.sides:
            self.sides = tuple(score)
            self.blocks = {
                side: (Static(classes="name"), Digits(), Static("", classes="odds"))
                for side in self.sides
            }
            row = self.query_one("#score", Horizontal)
            row.remove_children()
            row.mount_all(Vertical(*block, classes="side") for block in self.blocks.values())
        odds = self.odds(record)
        short = self.screen.has_class("-short")
        for side, (name, digits, odds_line) in self.blocks.items():
            digits.update(str(score[side]))
            odds_line.update(odds.get(side, ""))
            # Short: the score beside the name, on one line (the odds after it).
            brief = e(f"{side}  {score[side]}") + (f"  {odds[side]}" if odds.get(side) else "")
            name.update(brief if short else e(side))
            self.seen += [side, str(score[side]), odds.get(side, "")]

    def odds(self, record: ContestRecord) -> dict[str, str]:
        """The odds beside each side, only where the GM lets the players see them, and
        none while a participant's numbers are hidden (the odds would give them away).
        Those of the state shown once worked out; a new state's are asked of a thread
        (:meth:`work_out_odds`), and shown when they come."""
        from tui.odds_view import players_may_see

        if self.campaign is None or not players_may_see(record, self.campaign.settings):
            return {}
        if self.odds_state is not record.state:
            self.odds_state, self.odds_cells = record.state, {}
            state = record.state
            self.run_worker(
                lambda: self.work_out_odds(state),
                thread=True,
                exclusive=True,
                group="odds",
                exit_on_error=False,
            )
        return self.odds_cells

    def work_out_odds(self, state: object) -> None:
        """In a thread: the odds of ``state``, handed to the view when done."""
        from core.odds.report import odds_for
        from tui.odds_view import odds_cells

        try:
            cells, _ = odds_cells(odds_for(state), state)  # type: ignore[arg-type]
        except Exception:  # odds are a help: a problem computing them shows none
            cells = {}
        self.call_from_thread(self.odds_came, state, cells)

    def odds_came(self, state: object, cells: dict[str, str]) -> None:
        if state is self.odds_state:  # not a state shown before this one
            self.odds_cells = cells
            self.paint()

    @staticmethod
    def points(campaign: Campaign, record: ContestRecord) -> list[str]:
        """The PCs' points (fate points, hero points...), as the contest has them now
        (the system's ``points``)."""
        state = record.state
        rules = find_system(state.system)
        lines = []
        for p in state.participants:
            character = campaign.roster.get(p.name)
            if character is not None and character.kind == "npc":
                continue
            points = rules.points(state, p.name)
            if points is not None:
                count = HIDDEN if record.hidden("participant", p.name) else points[0]
                lines.append(f"{e(p.name)}: {count} {e(points[1])}")
        return lines


def run_watch(saves: str | None, name: str) -> int:
    """``tussle watch NAME``: 0 when the players leave (or their terminal goes), 2 for an
    unknown campaign or without a terminal, 1 for one that cannot be read (damaged, or its
    rule system not installed)."""
    import sys

    from tui.watch_refusal import refused

    files = refused(saves, name)
    if isinstance(files, tuple):
        code, why = files
        print(why, file=sys.stderr)
        return code
    WatchApp(files.folder, stdin=STDIN).run()
    return 0
