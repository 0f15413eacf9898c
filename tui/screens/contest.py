"""The contest dashboard: scoreboard, participants, aspects, exchange log and keypad.

The screen owns the draft of the coming exchange. Keys become messages (the keypad's) or
actions (the screen's bindings); the screen turns them into commands for the app's bus,
and repaints the panes when the bus says what happened. It never calls the store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from core.campaign import (
    ActionRecorded,
    ActionRedone,
    ActionUndone,
    ContestRecord,
    Correct,
    Play,
    Played,
    describe_action,
)
from core.dice import parse_fate_dice
from core.errors import BadDice, RuleError
from core.model import (
    Command,
    Contest,
    EndContest,
    ExchangeEvent,
    ResolveExchange,
    RollDice,
    SetModifier,
)
from tui import views
from tui.draft import (
    Draft,
    Kept,
    commit_commands,
    dice_kind,
    faces_of,
    preview,
    settled,
    try_extra,
    type_face,
    typed_text,
)
from tui.host import Host, host
from tui.odds_view import odds_cells
from tui.screens.fields import Answers, Field
from tui.systems import view
from tui.systems.common import e
from tui.widgets.exchange_log import PAGE, ExchangeLog
from tui.widgets.keybar import KeyBar
from tui.widgets.keypad import RollKeypad
from tui.widgets.panes import AspectsPane, ParticipantsPane, Scoreboard

if TYPE_CHECKING:
    from core.bus import Notice
    from core.rules.heroquest import Pair

AUGMENT_OTHER = "\x00other"  # the augment form's "Other: type a rating" (no ability's name)

SYSTEM_ACTIONS = {
    "invoke": "fate",
    "advantage": "fate",
    "attack": "fate",
    "hero_point": "heroquest",
    "augment": "heroquest",
    "stretch": "heroquest",
    "leave": "heroquest",
    "parties": "heroquest",
    "group": "heroquest",
    "roles": "forge",
    "reaction": "forge",
    "end": "forge",
    "pool": "fate",
}


class ContestScreen(Screen[None]):
    """Play one contest, exchange by exchange."""

    BINDINGS = [
        Binding("question_mark,f1", "help", "Key help", id="help"),
        Binding("u", "app.undo", "Undo", id="undo"),
        Binding("U,ctrl+y", "app.redo", "Redo", id="redo", show=False),
        Binding("i", "invoke", "Invoke", id="invoke"),
        Binding("a", "advantage", "Advantage", id="advantage"),
        Binding("k", "attack", "Attack", id="attack", show=False),
        Binding("m", "modifier", "Modifier", id="modifier", show=False),
        Binding("h", "hero_point", "Hero pt", id="hero_point"),
        Binding("g", "augment", "Augment", id="augment", show=False),
        Binding("s", "stretch", "Stretch", id="stretch", show=False),
        Binding("l", "leave", "Leave", id="leave"),
        Binding("p", "parties", "Parties", id="parties", show=False),
        Binding("G", "group", "Group", id="group", show=False),
        Binding("o", "roles", "Roles", id="roles"),
        Binding("x", "reaction", "Dodge/absorb", id="reaction"),
        Binding("e", "end", "End", id="end"),
        Binding("b", "more_log", "Earlier", id="more_log", show=False),
        Binding("pageup", "log_page(-1)", "Log: scroll up", id="log_up", show=False),
        Binding("pagedown", "log_page(1)", "Log: scroll down", id="log_down", show=False),
        Binding("left_square_bracket", "side_page(-1)", "Side panes: up", id="side_up", show=False),
        Binding(
            "right_square_bracket", "side_page(1)", "Side panes: down", id="side_down", show=False
        ),
        Binding("d", "toggle_odds", "Odds", id="toggle_odds", show=False),
        Binding("D", "players_odds", "Odds for players", id="players_odds", show=False),
        Binding("H", "secret", "Hide from players", id="secret", show=False),
        Binding("C", "correct", "Correct an exchange", id="correct", show=False),
        Binding("S", "summary", "Contest summary", id="summary", show=False),
        Binding("P", "pool", "GM's pool pays for an NPC", id="pool", show=False),
        Binding("M", "recap", "Recap", id="recap", show=False),
        Binding("n", "new_contest", "New contest", id="new_contest", show=False),
        Binding("w", "roster", "Roster", id="roster"),
        Binding("c", "campaigns", "Campaigns", id="campaigns", show=False),
        Binding("q", "quit", "Quit", id="quit"),
    ]

    def __init__(self, contest_id: str) -> None:
        super().__init__()
        self.contest_id = contest_id
        self.draft = Draft()
        self.shown = PAGE
        self.message = ""
        self.odds: tuple[dict[str, str], str] | None = None
        self.odds_ready = False  # the first odds wait for the first frame
        # While an old exchange is corrected: its number, and the contest just before it
        # (what the keypad plays on instead of the contest as it stands).
        self.correcting: tuple[int, Contest] | None = None
        self.sending = False  # an exchange is on its way to the log: Enter waits for it

    @property
    def tussle(self) -> Host:
        return host(self.app)

    @property
    def record(self) -> ContestRecord:
        return self.tussle.campaign.contest(self.contest_id)

    @property
    def state(self) -> Contest:
        """The contest the keypad plays on: as it stands, or before the exchange being
        corrected."""
        return self.correcting[1] if self.correcting else self.record.state

    def compose(self) -> ComposeResult:
        yield Scoreboard(id="scoreboard")
        with Horizontal(id="middle"):
            with Vertical(id="side"):
                yield ParticipantsPane(id="participants")
                yield AspectsPane(id="aspects")
            yield ExchangeLog(id="log")
        yield RollKeypad(id="keypad")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#participants").border_title = "Participants"
        self.query_one("#aspects").border_title = view(self.record.state.system).ASPECTS_TITLE
        self.query_one("#log").border_title = "Exchange log"
        self.query_one("#keypad").border_title = "Roll keypad"
        self._take_back_kept()
        self.refresh_all()
        self.query_one(RollKeypad).focus()
        self.set_timer(0.3, self._start_odds)

    def _start_odds(self) -> None:
        """Odds from now on: not before, so working them out never delays the screen."""
        self.odds_ready = True
        if self.state.finished:
            return
        try:  # the odds alone: repainting the keypad would wipe a message the GM must read
            self.update_odds(preview(self.state, self.draft).state)
        except RuleError:
            self.refresh_keypad()  # a draft the contest refuses: the keypad says why

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        wanted = SYSTEM_ACTIONS.get(action)
        return wanted is None or wanted == self.tussle.campaign.system

    # -- painting ------------------------------------------------------------------------
    def refresh_all(self) -> None:
        record = self.record
        self.refresh_panes()
        exchanges = record.exchanges
        hidden = max(0, len(exchanges) - self.shown)
        log = self.query_one(ExchangeLog)
        log.show(views.exchange_lines(record.state, exchanges[hidden:]), hidden)
        self.refresh_keypad()

    def refresh_scoreboard(self) -> None:
        if self.contest_id not in self.tussle.campaign.contests:
            return
        app = self.tussle
        unsaved = len(app.bus.unsaved) if app.bus is not None else 0
        odds = self.odds if app.show_odds else None
        self.query_one(Scoreboard).show(
            views.scoreboard(self.record, app.campaign.name, unsaved, app.read_only, odds)
        )

    def refresh_panes(self) -> None:
        record = self.record
        self.refresh_scoreboard()
        self.query_one(ParticipantsPane).show(views.participants(record))
        self.query_one(AspectsPane).show(views.aspects(record.state, record.secret_aspects))

    def refresh_keypad(self) -> None:
        keypad = self.query_one(RollKeypad)
        state = self.state
        keypad.border_title = (
            f"Correcting exchange {self.correcting[0]} · Enter: what changes · Esc: cancel"
            if self.correcting
            else "Roll keypad"
        )
        if state.finished:
            from core.aftermath import summary

            result = summary(self.tussle.campaign, self.record).result
            keypad.show(
                [],
                [f"[b]The contest is over.[/b] {e(result)}"],
                "Enter: summary · n: new contest · C: correct · u: undo",
                over=True,
            )
            self.workers.cancel_group(self, "odds")
            if self.odds is not None:
                self.odds = None  # nothing left to play: no odds
                self.refresh_scoreboard()
            return
        try:
            shown = preview(state, self.draft)
        except RuleError as error:  # a draft the contest no longer accepts (after undo)
            self.draft.clear()
            self.message = str(error)
            shown = preview(state, self.draft)
        if self._roll_for_tussle(shown.slots):
            shown = preview(state, self.draft)
        self.draft.cursor = min(self.draft.cursor, max(0, len(shown.slots) - 1))
        system = view(state.system)
        rows = system.rows(shown, self.draft)
        extras = [views.describe_extra(state.system, c) for c in self.draft.extras]
        if self.draft.end_after:
            extras.append("[b]End the contest after this stage[/b]")
        if shown.error:
            verdict = f"[b $error]{e(shown.error)}[/]"
        else:
            verdict = self.message or system.verdict(shown, self.draft)
        self.message = ""
        keypad.show(rows, extras, verdict)
        self._odds_for(shown.state)

    def _roll_for_tussle(self, slots: list[str]) -> bool:
        """Roll for the rollers set up as "Tussle rolls" that have no dice yet."""
        kind = dice_kind(self.state)
        missing = [
            s for s in slots if s in self.record.tussle_rolls and not self.draft.typed.get(s)
        ]
        for who in missing:
            self.draft.typed[who] = typed_text(kind, self.tussle.dice.roll(kind))
            self.draft.sources[who] = "tussle"
        return bool(missing)

    def _odds_for(self, state: Contest) -> None:
        """The odds of the contest as the keypad would leave it; none while an old
        exchange is corrected: the keypad then holds that exchange's dice, and odds
        worked out from them ("next 100%") would pass for the coming exchange's."""
        if self.correcting is None:
            self.update_odds(state)
            return
        self.workers.cancel_group(self, "odds")
        if self.tussle.show_odds:
            n = self.correcting[0]
            self.odds = ({}, f"[dim]no odds while exchange {n} is being corrected[/]")
            self.refresh_scoreboard()

    @work(exclusive=True, thread=True, group="odds")
    def update_odds(self, state: Contest) -> None:
        """Work the odds out for the contest as the keypad would leave it, off the
        event loop: a large contest's first computation can take a moment."""
        if not self.tussle.show_odds or not self.odds_ready:
            return
        from core.odds import odds_for

        odds: tuple[dict[str, str], str]
        try:
            odds = odds_cells(odds_for(state), state)
        except Exception as error:  # odds are a help, never a reason to stop the table
            odds = ({}, f"[dim]no odds: {e(error)}[/]")
        self.app.call_from_thread(self._show_odds, odds)

    def _show_odds(self, odds: tuple[dict[str, str], str]) -> None:
        if self not in self.app.screen_stack:
            return  # the GM has moved to another screen meanwhile
        contests = self.tussle.campaign.contests
        if self.contest_id not in contests or contests[self.contest_id].state.finished:
            return  # worked out for a moment that has passed
        if self.correcting:
            return  # worked out before the correction began
        self.odds = odds
        self.refresh_scoreboard()

    def action_toggle_odds(self) -> None:
        app = self.tussle
        app.show_odds = not app.show_odds
        self.odds = None
        self.refresh_scoreboard()
        if app.show_odds:
            self.refresh_keypad()

    def action_recap(self) -> None:
        """Write the last session's recap as Markdown beside the saves (recaps/)."""
        from datetime import date

        from core.recap import recap_markdown
        from core.store import write_atomically

        app = self.tussle
        if app.files is None:
            return
        folder = app.saves.folder / "recaps"
        path = folder / f"{app.files.slug}-{date.today().isoformat()}.md"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            write_atomically(path, recap_markdown(app.campaign))
        except OSError as error:
            self.notify(f"{path}: {error.strerror or error}", title="No recap", severity="error")
            return
        self.notify(f"Recap written to {path}", title="Recap", timeout=8)

    def action_players_odds(self) -> None:
        """Let the players' view show the odds, or stop it (a campaign setting: undoable,
        and seen by tussle watch, another process)."""
        from core.campaign import ChangeSettings

        allowed = bool(self.tussle.campaign.settings.get("players_see_odds", False))
        self.tussle.send(ChangeSettings(changes={"players_see_odds": not allowed}))
        self.notify(
            "The players' view will not show the odds."
            if allowed
            else "The players' view will show the odds.",
            timeout=3,
        )

    def action_secret(self) -> None:
        """Hide from the players' view (or show again) a participant's numbers, an aspect,
        or the whole contest: a GM action like any other (undoable, saved)."""
        from core.campaign import ToggleSecret

        record = self.record

        def label(kind: str, name: str, text: str) -> str:
            return f"{text} {'(hidden: show it)' if record.hidden(kind, name) else ''}".strip()

        choices = [("contest:", label("contest", "", "The whole contest"))]
        choices += [
            (f"participant:{p.name}", label("participant", p.name, f"{p.name}'s numbers"))
            for p in record.state.participants
        ]
        choices += [
            (f"aspect:{a.name}", label("aspect", a.name, f"Aspect: {a.name}"))
            for a in getattr(record.state, "aspects", ())
        ]

        def chosen(answers: Answers | None) -> None:
            if answers:
                kind, _, name = answers["what"].partition(":")
                self.tussle.send(
                    ToggleSecret(contest_id=self.contest_id, kind=kind, name=name)  # type: ignore[arg-type]
                )

        from tui.screens.forms import FormScreen

        self.app.push_screen(
            FormScreen(
                "Hide from the players",
                [Field("what", "What", choices[0][0], tuple((t, v) for v, t in choices))],
                "The players' view shows ?? instead. Enter: hide (or show again) · Esc: cancel",
            ),
            chosen,
        )

    def notice(self, notice: Notice) -> None:
        """The bus says something happened (or was refused): show it."""
        from core.bus import Applied, Rejected, Saved, Unsaved

        if self.contest_id not in self.tussle.campaign.contests:
            return  # undone: the app is taking this screen away
        if isinstance(notice, Unsaved | Saved):
            self.refresh_panes()
            return
        if isinstance(notice, Rejected):
            self.sending = False
            self.message = f"[b $error]{e(notice.error)}[/]"
            self.notify(str(notice.error), title=notice.error.title, severity="error")
            self.refresh_keypad()
            return
        if not isinstance(notice, Applied) or self.contest_id not in self.tussle.campaign.contests:
            return
        entry = notice.entry
        if isinstance(entry, ActionRecorded) and self._ended_here(entry):
            self._write_back()
        if isinstance(entry, ActionRecorded) and isinstance(entry.command, Correct):
            if entry.command.contest_id == self.contest_id:
                self._end_correction()
                self.notify(f"Exchange {entry.command.n} corrected.", timeout=4)
            self.refresh_all()
        elif isinstance(entry, ActionRecorded) and isinstance(entry.command, Play):
            if entry.command.contest_id != self.contest_id:
                return
            self.sending = False
            if any(isinstance(c, ResolveExchange) for c in entry.command.commands):
                self.draft.clear()
            new = [
                ev.event
                for ev in entry.events
                if isinstance(ev, Played) and isinstance(ev.event, ExchangeEvent)
            ]
            self.query_one(ExchangeLog).add(views.exchange_lines(self.record.state, new))
            self.refresh_panes()
            self.refresh_keypad()
        elif isinstance(entry, ActionUndone | ActionRedone):
            self._end_correction()  # the contest it was based on has changed
            action = self.tussle.campaign.actions[entry.action_id]
            verb = "Undone" if isinstance(entry, ActionUndone) else "Redone"
            self.notify(f"{verb}: {describe_action(action.command)}", timeout=3)
            command = action.command
            if (
                isinstance(entry, ActionUndone)
                and isinstance(command, Play)
                and command.contest_id == self.contest_id
            ):
                self.restore_draft(list(command.commands), came_back_from=action.action_id)
            # A redone exchange is in the log again: what its undo put on the keypad goes.
            self.draft = settled(self.draft, self.tussle.campaign.done)
            self.refresh_all()
        else:  # the roster, settings, secrets: the log stays as it is
            self.refresh_panes()
            self.refresh_keypad()

    def _ended_here(self, action: ActionRecorded) -> bool:
        """Whether ``action`` ended this contest (an exchange, a correction, the GM)."""
        from core.campaign import ContestCorrected
        from core.model import ContestEnded

        for event in action.events:
            if isinstance(event, Played) and event.contest_id == self.contest_id:
                if isinstance(event.event, ContestEnded):
                    return True
            elif isinstance(event, ContestCorrected) and event.contest_id == self.contest_id:
                return any(isinstance(x, ContestEnded) for x in event.events)
        return False

    def _write_back(self) -> None:
        """The contest is over: its results go onto the roster at once, as their own
        action (so u takes back the write-back alone, and u again the last exchange)."""
        from core.campaign import WriteBack

        record = self.record
        if record.state.finished and not record.written and not self.tussle.read_only:
            self.tussle.send(WriteBack(contest_id=self.contest_id))

    def action_summary(self) -> None:
        from tui.screens.summary import SummaryScreen

        self.app.push_screen(SummaryScreen(self.contest_id))

    def action_correct(self) -> None:
        """Correct an old exchange: its commands come back onto the keypad, played on the
        contest as it stood before it; Enter shows what changes before anything does."""
        from core.corrections import reopen

        record = self.record
        if not record.exchanges:
            self.notify("No exchange to correct yet.", severity="warning")
            return
        if record.written:  # said before the GM types a number, not after
            self.notify(
                "Its results are on the roster: u takes that back, then correct.",
                title="Cannot correct",
                severity="error",
            )
            return

        def parse(answers: Answers) -> tuple[int, Contest, list[Command]]:
            from tui.screens.fields import blame

            n = _int(answers["n"], "n")
            with blame("n"):  # no such exchange: the form stays open on the number
                state, commands = reopen(self.tussle.campaign, self.contest_id, n)
            return n, state, commands

        def chosen(reopened: tuple[int, Contest, list[Command]] | None) -> None:
            if reopened is None:
                return
            n, state, commands = reopened
            self.correcting = (n, state)
            self.restore_draft(commands)
            self.refresh_keypad()

        from tui.screens.forms import FormScreen

        self.app.push_screen(
            FormScreen(
                "Correct an exchange",
                [Field("n", "Which exchange", str(len(record.exchanges)))],
                "Its dice and actions come back onto the keypad. Enter: OK · Esc: cancel",
                parse=parse,
            ),
            chosen,
        )

    def _send_correction(self, n: int, commands: list[Command]) -> None:
        from core.corrections import correct

        command = Correct(contest_id=self.contest_id, n=n, commands=tuple(commands))
        try:
            worked = correct(self.tussle.campaign, command)
        except RuleError as error:
            self.message = f"[b $error]{e(error)}[/]"
            self.notify(str(error), title="Cannot correct", severity="error")
            self.refresh_keypad()
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.tussle.send(command)

        from tui.screens.confirm import ConfirmScreen

        self.app.push_screen(
            ConfirmScreen(f"Correct exchange {n}?", worked.changes(), "Enter: correct it"),
            confirmed,
        )

    def action_pool(self) -> None:
        """The GM's pool pays for an NPC outside an invoke (refusing a compel, a stunt):
        invokes pay from it in their own form (``i``), compels on NPCs fill it (``k``)."""
        from core.campaign import SpendFromPool
        from tui.screens.forms import FormScreen

        state = self.record.state
        npcs = tuple((n, n) for n in sorted(getattr(state, "npcs", ())) if n)
        # What invokes waiting on the keypad leave: they pay when the exchange commits.
        pool: int = getattr(preview(self.state, self.draft).state, "gm_pool", 0)
        if not npcs:
            self.notify("No NPC in this contest: the GM's pool pays only for NPCs.")
            return
        if pool < 1:
            waiting = self.record.gm_pool - pool
            why = f" ({waiting} for invokes waiting on the keypad)" if waiting > 0 else ""
            self.notify(f"The GM's pool is empty{why}.", severity="warning")
            return

        def chosen(answers: Answers | None) -> None:
            if answers is not None:
                self.tussle.send(
                    SpendFromPool(
                        contest_id=self.contest_id, by=answers["by"], reason=answers["reason"]
                    )
                )

        self.app.push_screen(
            FormScreen(
                f"The GM's pool pays 1 ({pool} left)",
                [
                    Field("by", "For", npcs[0][1], npcs),
                    Field(
                        "reason",
                        "What for",
                        "refuses a compel",
                        (("refuses a compel", "refuses a compel"), ("a stunt", "uses a stunt")),
                    ),
                ],
                "An invoke pays from the pool in its own form (i). Enter: pay · Esc: cancel",
            ),
            chosen,
        )

    def restore_draft(self, commands: list[Command], came_back_from: int | None = None) -> None:
        """Put an undone (or reopened) exchange on the keypad, so a mistyped die is one
        key away. The keypad's previous draft is kept under it: a redo of action
        ``came_back_from``, or the end of a correction, brings it back."""
        draft = Draft(came_back_from=came_back_from, before=self.draft)
        kind = dice_kind(self.state)
        for command in commands:
            if isinstance(command, RollDice):
                draft.typed[command.who] = typed_text(kind, command.faces)
                draft.sources[command.who] = command.source
            elif isinstance(command, EndContest):
                draft.end_after = True
            elif not isinstance(command, ResolveExchange):
                draft.extras.append(command)
        self.draft = draft

    def _end_correction(self) -> None:
        """Leave a correction in progress: its draft (an exchange in the log already)
        goes, and the keypad holds again what it held before C."""
        if self.correcting:
            self.correcting = None
            self.draft = self.draft.before or Draft()

    # -- the keypad while the GM is elsewhere ----------------------------------------------
    def keep(self) -> None:
        """The GM leaves this screen (roster, campaigns, setup): the app keeps the keypad
        as it is, for when the contest shows again."""
        app = self.tussle
        if app.files is None or self.contest_id not in app.campaign.contests:
            return
        app.kept[(app.files.slug, self.contest_id)] = Kept(
            draft=self.draft,
            correcting=self.correcting,
            entries=app.campaign.entries,
            lost=self.unsaved_work(),
        )

    def _take_back_kept(self) -> None:
        app = self.tussle
        if app.files is None:
            return
        kept = app.kept.pop((app.files.slug, self.contest_id), None)
        if kept is None:
            return
        self.draft, self.correcting = kept.draft, kept.correcting
        if kept.entries != app.campaign.entries:  # the GM acted meanwhile (u, U, k...)
            self._end_correction()
        self.draft = settled(self.draft, app.campaign.done)

    def unsaved_work(self) -> list[str]:
        """What quitting now would lose, a line each (nothing: quitting is instant)."""
        if self.contest_id not in self.tussle.campaign.contests:
            return []
        return draft_lines(self.record, self.draft, self.correcting)

    def followed(self) -> None:
        """Read-only: the GM's Tussle saved more (followed from the files): show it."""
        if self.contest_id not in self.tussle.campaign.contests:
            return
        self._end_correction()  # what it was based on may have changed
        self.refresh_all()

    # -- the keypad's messages -------------------------------------------------------------
    def _slots(self) -> list[str]:
        return preview(self.state, self.draft).slots

    @on(RollKeypad.Typed)
    def typed(self, message: RollKeypad.Typed) -> None:
        slots = self._slots()
        if not slots:
            return
        who = slots[self.draft.cursor % len(slots)]
        kind = dice_kind(self.state)
        try:
            text, complete = type_face(kind, self.draft.typed.get(who, ""), message.key)
        except BadDice as error:  # a face no die has: said, never dropped in silence
            self.message = f"[b $error]{e(f'{who}: {error}')}[/]"
            self.notify(f"{who}: {error}", title=error.title, severity="error", timeout=4)
            self.refresh_keypad()
            return
        self.draft.typed[who] = text
        self.draft.sources[who] = "table"
        if complete:
            self._advance(slots)
        self.refresh_keypad()

    def _advance(self, slots: list[str]) -> None:
        kind = dice_kind(self.state)
        for step in range(1, len(slots) + 1):
            i = (self.draft.cursor + step) % len(slots)
            if faces_of(kind, self.draft.typed.get(slots[i], "")) is None:
                self.draft.cursor = i
                return

    @on(RollKeypad.Erase)
    def erase(self) -> None:
        slots = self._slots()
        if not slots:
            return
        who = slots[self.draft.cursor % len(slots)]
        text = self.draft.typed.get(who, "")
        if not text and self.draft.cursor > 0:
            self.draft.cursor -= 1
            who = slots[self.draft.cursor]
            text = self.draft.typed.get(who, "")
        self.draft.typed[who] = text[:-1]
        self.refresh_keypad()

    @on(RollKeypad.Move)
    def move(self, message: RollKeypad.Move) -> None:
        slots = self._slots()
        if slots:
            self.draft.cursor = (self.draft.cursor + message.step) % len(slots)
        self.refresh_keypad()

    @on(RollKeypad.RollRequested)
    def roll(self, message: RollKeypad.RollRequested) -> None:
        slots = self._slots()
        if not slots:
            return
        kind = dice_kind(self.state)
        targets = (
            [s for s in slots if faces_of(kind, self.draft.typed.get(s, "")) is None]
            if message.everyone
            else [slots[self.draft.cursor % len(slots)]]
        )
        for who in targets:
            self.draft.typed[who] = typed_text(kind, self.tussle.dice.roll(kind))
            self.draft.sources[who] = "tussle"
        self._advance(slots)
        self.refresh_keypad()

    @on(RollKeypad.ClearRequested)
    def clear(self) -> None:
        if self.correcting:
            self.notify(f"Exchange {self.correcting[0]} is left as it was.", timeout=3)
            self._end_correction()  # the keypad as it was before C
        else:
            self.draft.clear()
        self.refresh_keypad()

    @on(RollKeypad.CommitRequested)
    def commit(self) -> None:
        if self.sending:
            return  # the exchange just committed is not in the log yet: not twice
        state = self.state
        if state.finished:
            self.action_summary()
            return
        shown = preview(state, self.draft)
        if shown.error:
            self.message = f"[b $error]{e(shown.error)}[/]"
            self.refresh_keypad()
            return
        if view(state.system).twist_pending(shown.state):
            default = f"Twist {state.n + 1}"

            def named(answers: Answers | None) -> None:
                if answers is not None:
                    self._send_exchange(answers["twist"] or default)

            from tui.screens.forms import FormScreen

            self.app.push_screen(
                FormScreen(
                    "A tie: name the twist",
                    [
                        Field(
                            "twist",
                            "The new situation aspect",
                            placeholder=f"{default} (Enter keeps this name)",
                            required=False,
                        )
                    ],
                    "Enter: commit the exchange · Esc: back to the keypad",
                ),
                named,
            )
            return
        self._send_exchange(None)

    def _send_exchange(self, twist: str | None) -> None:
        try:
            commands = commit_commands(self.state, self.draft, twist)
        except RuleError as error:
            self.message = f"[b $error]{e(error)}[/]"
            self.refresh_keypad()
            return
        if self.correcting:
            self._send_correction(self.correcting[0], commands)
            return
        self.sending = self.tussle.bus is not None and not self.tussle.read_only
        self.tussle.send(Play(contest_id=self.contest_id, commands=tuple(commands)))

    # -- actions -------------------------------------------------------------------------
    def add_extra(self, command: Command) -> None:
        try:
            try_extra(self.state, self.draft, command)
        except RuleError as error:
            self.message = f"[b $error]{e(error)}[/]"
            self.notify(str(error), title=error.title, severity="error")
        self.refresh_keypad()

    def ask(
        self,
        title: str,
        fields: list[Field],
        then: Callable[[Answers], Command],
        hint: str = "",
        rule_field: str | None = None,
    ) -> None:
        """A form; its answers become a command added to the draft. A bad value (``then``
        raises: a ``FieldError`` names the field) or a command the rules refuse on the
        contest as it stands keeps the form open, with what was typed; the refusal is
        shown under ``rule_field`` (or at the foot of the form)."""
        from dataclasses import replace

        from tui.screens.fields import FieldError
        from tui.screens.forms import FormScreen

        def parse(answers: Answers) -> Command:
            command = then(answers)
            trial = replace(
                self.draft,
                typed=dict(self.draft.typed),
                sources=dict(self.draft.sources),
                extras=list(self.draft.extras),
            )
            try:
                try_extra(self.state, trial, command)  # a pure check: the draft is a copy
            except RuleError as error:
                raise FieldError(rule_field, str(error)) from error
            return command

        def done(command: Command | None) -> None:
            if command is not None:
                self.add_extra(command)

        self.app.push_screen(FormScreen(title, fields, hint, parse=parse), done)

    def _names(self) -> tuple[tuple[str, str], ...]:
        return tuple((p.name, p.name) for p in self.state.participants)

    def _current(self) -> str | None:
        slots = self._slots()
        return slots[self.draft.cursor % len(slots)] if slots else None

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))

    def action_log_page(self, step: int) -> None:
        self.query_one(ExchangeLog).page(step)

    def action_side_page(self, step: int) -> None:
        """Participants and aspects (or situation) a page on, each as far as it goes."""
        self.query_one(ParticipantsPane).page(step)
        self.query_one(AspectsPane).page(step)

    def action_more_log(self) -> None:
        self.shown += PAGE * 5
        self.refresh_all()

    def action_invoke(self) -> None:
        """Who, which aspect, what it does, how it is paid; then only what that kind of
        invoke needs (tui.screens.invoke). The payment defaults to a free invoke the
        invoker's side may use, else (an NPC out of points) the GM's pool."""
        from core.rules import fate
        from tui.screens.invoke import InvokeForm
        from tui.systems import fate as fate_view

        state = preview(self.state, self.draft).state
        assert isinstance(state, fate.FateContest)
        aspects = tuple(
            (f"{a.name}" + (f" ({a.free_invokes} free)" if a.free_invokes else ""), a.name)
            for a in state.aspects
        )
        if not aspects:
            self.message = "No aspects in play to invoke."
            self.refresh_keypad()
            return
        current = self._current() or ""
        by = next((p.name for p in state.participants if p.side == current), "")
        by = by or state.participants[0].name
        others = fate_view.other_sides(state)
        fields = [
            Field("by", "Who invokes", by, self._names()),
            Field("aspect", "Aspect", aspects[0][1], aspects),
            Field("effect", "What it does", "+2", fate_view.invoke_effects(state)),
            Field(
                "how",
                "Paid with",
                fate_view.default_payment(state, by, aspects[0][1]),
                fate_view.payments(state, by),
            ),
            Field(
                "ally",
                "Whose roll gets the +2",
                follows="by",
                choices_by=others,
                shown_when=("effect", "ally"),
            ),
            Field(
                "opposed",
                "The side facing the raised opposition",
                follows="by",
                choices_by=others,
                shown_when=("effect", "oppose"),
            ),
            Field(
                "dice",
                "New dice (like +0-0; blank: Tussle rolls)",
                required=False,
                shown_when=("effect", "reroll"),
            ),
        ]

        form = InvokeForm("Invoke an aspect", fields, parse=self._invoke)
        form.state = state
        self.app.push_screen(form, self._invoked)

    def _invoked(self, command: Command | None) -> None:
        if command is not None:
            self.add_extra(command)

    def _invoke(self, a: Answers) -> Command:
        """The invoke form's answers as an ``InvokeAspect`` the rules accept on the keypad
        as it stands: else a ``FieldError`` keeps the form open, under the bad dice or
        under "Paid with" (no fate points, an empty pool...)."""
        from core.rules import fate
        from tui.screens.fields import FieldError

        effect = a["effect"]
        faces = None
        if effect == "reroll":
            from tui.screens.fields import blame

            with blame("dice"):
                faces = (
                    parse_fate_dice(a["dice"])
                    if a["dice"]
                    else self.tussle.dice.roll(dice_kind(self.state))
                )
        target = {"ally": a.get("ally"), "oppose": a.get("opposed")}.get(effect) or None
        command = fate.InvokeAspect(
            by=a["by"],
            aspect=a["aspect"],
            free=a["how"] == "free",
            pool=a["how"] == "pool",
            effect="reroll" if effect == "reroll" else "oppose" if effect == "oppose" else "+2",
            faces=faces,
            target=target,
        )
        from dataclasses import replace

        trial = replace(
            self.draft,
            typed=dict(self.draft.typed),
            sources=dict(self.draft.sources),
            extras=list(self.draft.extras),
        )
        try:
            try_extra(self.state, trial, command)  # a pure check: the draft is a copy
        except RuleError as error:
            raise FieldError("how", str(error)) from error
        return command

    def action_advantage(self) -> None:
        from core.rules import fate

        names = self._names()
        self.ask(
            "Create an advantage (before the rolls)",
            [
                Field("by", "Who creates it", names[0][1], names),
                Field("aspect", "Aspect"),
                Field("on", "Placed on", "", (("(the scene)", ""), *names), required=False),
                Field("result", "Their total (skill + dice + bonuses)"),
                Field("opposition", "Opposition (defence or difficulty)"),
            ],
            lambda a: fate.CreateAdvantage(
                by=a["by"],
                aspect=a["aspect"],
                on=a["on"] or None,
                result=_int(a["result"], "result"),
                opposition=_int(a["opposition"], "opposition"),
            ),
        )

    def action_attack(self) -> None:
        from core.rules import fate

        names = self._names()
        self.ask(
            "Someone attacks: the contest becomes a conflict",
            [Field("by", "Who attacks", names[0][1], names)],
            lambda a: fate.DeclareAttack(by=a["by"]),
        )

    def action_modifier(self) -> None:
        state = self.state
        who = tuple((s, s) for s in state.sides) if state.system == "fate" else self._names()
        self.ask(
            "A modifier for this exchange",
            [
                Field("who", "For", self._current() or who[0][1], who),
                Field("value", "Modifier (like +2 or -20)"),
            ],
            lambda a: SetModifier(who=a["who"], value=_int(a["value"], "value")),
        )

    def action_hero_point(self) -> None:
        from core.rules import heroquest

        state = self.state
        assert isinstance(state, heroquest.HQContest)
        parties = list(state.parties) or [p.name for p in state.participants]
        with_points = [p for p in parties if state.hero_points_left.get(p, 0) > 0]
        current = self._current()
        default = current if current in with_points else (with_points or parties)[0]
        self.ask(
            "Spend a hero point: bump a result one level",
            [Field("who", "Who spends it", default, tuple((p, p) for p in parties))],
            lambda a: heroquest.SpendHeroPoints(who=a["who"], count=1),
        )

    def action_stretch(self) -> None:
        from core.rules import heroquest

        who = self._current()
        if who is not None:
            self.add_extra(heroquest.Stretch(who=who))

    def action_augment(self) -> None:
        """A rolled augment (rules §2.5): whose roll it helps, then whose ability lends
        it, picked from that character's abilities on the roster with their ratings (or
        "Other" to type a rating), then the two d20s."""
        from core.setup import own_ratings

        names = self._names()
        roster = self.tussle.campaign.roster
        recipient = self._current() or names[0][1]
        taking_part = [name for name, _ in names]
        lenders = taking_part + [n for n in roster if n not in taking_part]
        other = ("Other: type a rating (like 17 or 4M)", AUGMENT_OTHER)
        by_name = {
            n: (*(own_ratings("heroquest", roster[n]) if n in roster else ()), other)
            for n in lenders
        }
        self.ask(
            "An augment (rolled against the augment base)",
            [
                Field("for", "Whose roll it helps", recipient, names),
                Field("by", "Whose ability augments it", recipient, tuple((n, n) for n in lenders)),
                Field(
                    "ability",
                    "The augmenting ability (←/→: another; Other to type a rating)",
                    by_name[recipient][0][1],
                    follows="by",
                    choices_by=by_name,
                ),
                Field(
                    "rating",
                    "Its rating (like 17 or 4M)",
                    shown_when=("ability", AUGMENT_OTHER),
                ),
                Field("roll", "Its d20 roll (blank: Tussle rolls)", required=False),
                Field("resistance", "The base's d20 roll (blank: Tussle rolls)", required=False),
            ],
            self._augment,
        )

    def _augment(self, a: Answers) -> Command:
        from core.rules import heroquest
        from tui.screens.fields import FieldError, blame

        def d20(key: str) -> int:
            text = a[key]
            return _int(text, key) if text else self.tussle.dice.roll(dice_kind(self.state))[0]

        if a["ability"] == AUGMENT_OTHER:
            with blame("rating"):
                rating = heroquest.parse_rating(a["rating"])
        else:
            lender = self.tussle.campaign.roster.get(a["by"])
            if lender is None or a["ability"] not in lender.ratings:
                raise FieldError("ability", f"{a['by']} has no ability {a['ability']!r} now")
            rating = lender.ratings[a["ability"]]
        return heroquest.Augment(
            recipient=a["for"],
            rating=rating,
            roll=d20("roll"),
            resistance_roll=d20("resistance"),
        )

    def action_leave(self) -> None:
        from core.rules import heroquest

        names = self._names()
        self.ask(
            "Leave the chain after this exchange",
            [Field("who", "Who leaves", names[-1][1], names)],
            lambda a: heroquest.Leave(who=a["who"]),
        )

    def action_parties(self) -> None:
        from core.rules import heroquest

        names = self._names()
        self.ask(
            "The two parties of this exchange",
            [
                Field("a", "First party", names[0][1], names),
                Field("b", "Second party", names[-1][1], names),
            ],
            lambda a: heroquest.SetParties(a=a["a"], b=a["b"]),
        )

    def action_group(self) -> None:
        self.ask(
            "A group simple contest",
            [
                Field(
                    "pairs",
                    "Pairs with their d20s: A v B 14 13, C v B 5 9",
                    placeholder="Tripitaka v Ghoul 14 13, Sandy v Ghoul 5 9",
                )
            ],
            self._group,
        )

    def _group(self, a: Answers) -> Command:
        from core.rules.heroquest import SetPairs
        from tui.screens.fields import blame

        with blame("pairs"):
            return SetPairs(pairs=_pairs(a["pairs"]))

    def action_roles(self) -> None:
        from core.rules import forge

        names = self._names()
        slots = self._slots()
        self.ask(
            "Who acts and who reacts",
            [
                Field("actor", "Actor", slots[0] if slots else names[0][1], names),
                Field("reactor", "Reactor", slots[1] if len(slots) > 1 else names[-1][1], names),
            ],
            lambda a: forge.SetStage(actor=a["actor"], reactor=a["reactor"]),
        )

    def action_reaction(self) -> None:
        from core.rules import forge

        state = self.state
        assert isinstance(state, forge.ForgeContest)
        chosen = [c for c in self.draft.extras if isinstance(c, forge.ChooseReaction)]
        current = chosen[-1].reaction if chosen else state.reaction
        self.draft.extras = [
            c for c in self.draft.extras if not isinstance(c, forge.ChooseReaction)
        ]
        self.add_extra(forge.ChooseReaction(reaction="absorb" if current == "dodge" else "dodge"))

    def action_end(self) -> None:
        if self.draft.empty:
            self.tussle.send(Play(contest_id=self.contest_id, commands=(EndContest(),)))
        else:
            self.draft.end_after = not self.draft.end_after
            self.refresh_keypad()

    def action_new_contest(self) -> None:
        self.tussle.open_setup()

    def action_roster(self) -> None:
        self.tussle.open_roster()

    def action_campaigns(self) -> None:
        self.tussle.open_campaigns()

    async def action_quit(self) -> None:
        await self.tussle.action_quit()


def draft_lines(
    record: ContestRecord, draft: Draft, correcting: tuple[int, Contest] | None
) -> list[str]:
    """What is on a contest's keypad and in no log, a line each: a correction in
    progress, the dice typed (not those Tussle rolled by itself), the actions waiting."""
    title, system = record.title, record.state.system
    if record.state.finished and not correcting:
        return []  # an ended contest's keypad takes no dice
    lines = []
    if correcting:
        lines.append(f"{title}: a correction of exchange {correcting[0]}")
    from rich.text import Text

    typed = draft.by_hand(record.tussle_rolls)
    lines += [f"{title}: {who} rolled {text}" for who, text in typed.items()]
    lines += [
        f"{title}: {Text.from_markup(views.describe_extra(system, c)).plain}" for c in draft.extras
    ]
    if draft.end_after:
        lines.append(f"{title}: end the contest after this stage")
    return lines


def _int(text: str, key: str | None = None) -> int:
    """A whole number; a ``FieldError`` on field ``key`` (a ``RuleError`` without one)."""
    try:
        return int(text.strip().replace("−", "-"))
    except ValueError:
        message = f'"{text}" is not a whole number (like 3 or -1)'
        if key is None:
            raise RuleError(message) from None
        from tui.screens.fields import FieldError

        raise FieldError(key, message) from None


def _pairs(text: str) -> tuple[Pair, ...]:
    from core.rules.heroquest import Pair

    pairs = []
    for chunk in text.split(","):
        words = chunk.split()
        if " v " not in f" {chunk} " or len(words) < 5:
            raise RuleError(f'"{chunk.strip()}": write a pair as "A v B 14 13"')
        at = words.index("v")
        a, b = " ".join(words[:at]), " ".join(words[at + 1 : -2])
        pairs.append(Pair(a=a, b=b, roll_a=_int(words[-2]), roll_b=_int(words[-1])))
    return tuple(pairs)
