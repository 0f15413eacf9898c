"""The contest screen's panes: how it paints, and the odds worker.

A part the contest screen holds (:class:`Painter`): the scoreboard, the participants and
aspects panes, the exchange log and the roll keypad painted from the contest and the
keypad's draft, what the keypad says once (a refusal, a quick roll's outcome, a toast
that lasts while the keypad stays as it is), and the odds worked out off the event loop
for the scoreboard. It knows the screen only as a Textual screen whose panes it fills.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.screen import Screen

from core.campaign.state import ContestRecord
from core.errors import RuleError
from core.model import Contest
from tui import views
from tui.correction import DraftNow, draft_now
from tui.draft import Draft, dice_kind, preview, typed_text
from tui.host import Host, host
from tui.key_hints import key_of
from tui.keypad import Keypad
from tui.odds_view import odds_cells
from tui.screens.contest_corrections import CorrectionFlow
from tui.systems import view
from tui.widgets.exchange_log import PAGE, ExchangeLog
from tui.widgets.keybar import KeyBar
from tui.widgets.keypad import RollKeypad
from tui.widgets.lines import e
from tui.widgets.panes import AspectsPane, ParticipantsPane, Scoreboard


class Painter:
    """``screen``'s panes and keypad for contest ``contest_id``, painted from the contest
    the keypad plays on (``corrections`` knows which) and ``keypad``'s draft."""

    def __init__(
        self, screen: Screen[Any], contest_id: str, keypad: Keypad, corrections: CorrectionFlow
    ) -> None:
        self.screen = screen
        self.contest_id = contest_id
        self.keypad = keypad
        self.corrections = corrections
        self.shown = PAGE  # the exchanges the log shows (b: more)
        self.message = ""  # said once on the keypad's verdict line, at its next repaint
        self.odds: tuple[dict[str, str], str] | None = None
        self.odds_ready = False  # the first odds wait for the first frame
        # The keypad as it stood when a toast about it (a refusal) was shown: the toast
        # goes as soon as the keypad changes, with its cause.
        self.toasted: DraftNow | None = None
        # A line for the keypad's verdict (a quick roll's outcome) and the keypad it was
        # said beside: it stays there until the keypad changes.
        self.aside: tuple[str, DraftNow] | None = None

    @property
    def tussle(self) -> Host:
        return host(self.screen.app)

    @property
    def record(self) -> ContestRecord:
        return self.tussle.campaign.contest(self.contest_id)

    @property
    def state(self) -> Contest:
        """The contest the keypad plays on (before the exchange being corrected)."""
        return self.corrections.state

    @property
    def correcting(self) -> tuple[int, Contest] | None:
        return self.corrections.correcting

    @property
    def draft(self) -> Draft:
        return self.keypad.draft

    def start_odds(self) -> None:
        """Odds from now on: not before, so working them out never delays the screen.
        Due a moment after the screen opens: by then its contest may have been undone
        (u at once), and the screen is on its way out."""
        self.odds_ready = True
        if self.contest_id not in self.tussle.campaign.contests or self.state.finished:
            return
        try:  # the odds alone: repainting the keypad would wipe a message the GM must read
            self.update_odds(preview(self.state, self.draft).state)
        except RuleError:
            self.refresh_keypad()  # a draft the contest refuses: the keypad says why

    # -- painting ------------------------------------------------------------------------
    def refresh_all(self) -> None:
        record = self.record
        self.refresh_panes()
        exchanges = record.exchanges
        hidden = max(0, len(exchanges) - self.shown)
        log = self.screen.query_one(ExchangeLog)
        log.show(views.exchange_lines(record.state, exchanges[hidden:]), hidden)
        self.refresh_keypad()

    def refresh_scoreboard(self) -> None:
        if self.contest_id not in self.tussle.campaign.contests:
            return
        app = self.tussle
        unsaved = len(app.bus.unsaved) if app.bus is not None else 0
        odds = self.odds if app.show_odds else None
        boards = self.screen.query(Scoreboard)
        if not boards:  # odds come from a thread: the screen may be taken down meanwhile
            return  # (the app quitting), its panes gone before it leaves the stack
        boards.first().show(
            views.scoreboard(self.record, app.campaign.name, unsaved, app.read_only, odds)
        )

    def refresh_panes(self) -> None:
        record = self.record
        for bar in self.screen.query(
            KeyBar
        ):  # a key that applies now and did not (FORGE's o in a round)
            bar.refresh_keys()
        self.refresh_scoreboard()
        self.screen.query_one(ParticipantsPane).show(views.participants(record))
        self.screen.query_one(AspectsPane).show(views.aspects(record.state, record.secret_aspects))

    def refresh_keypad(self) -> None:
        keypad = self.screen.query_one(RollKeypad)
        state = self.state
        keypad.border_title = (
            f"Correcting {self.corrections.called(self.correcting[0])} · Enter: what changes"
            " · Esc: cancel"
            if self.correcting
            else "Roll keypad"
        )
        if state.finished:
            from core.campaign.aftermath import summary

            result = summary(self.tussle.campaign, self.record).result
            screen = self.screen
            goes_on = view(state.system).SCREEN.goes_on
            then = goes_on(state) if goes_on is not None else None
            keypad.show(
                [],
                [f"[b]{e(view(state.system).over_line(state))}[/b] {e(result)}"],
                (f"{key_of(screen, then[0], then[1])}: {then[2]} · " if then else "")
                + f"Enter: summary · {key_of(screen, 'new_contest', 'n')}: new contest"
                f" · {key_of(screen, 'correct', 'C')}: correct"
                f" · {key_of(screen, 'undo', 'u')}: undo",
                over=True,
            )
            self.screen.workers.cancel_group(self.screen, "odds")
            if self.odds is not None:
                self.odds = None  # nothing left to play: no odds
                self.refresh_scoreboard()
            return
        try:
            shown = preview(state, self.draft)
        except RuleError as error:  # a draft the contest no longer accepts (after undo)
            self.draft.clear()
            self.message = e(error)  # the keypad's lines are markup; the error holds names
            shown = preview(state, self.draft)
        system = view(state.system)
        if self._roll_for_tussle(system.keypad_rollers(shown)):
            shown = preview(state, self.draft)
        self.draft.cursor = min(self.draft.cursor, max(0, len(system.keypad_rollers(shown)) - 1))
        rows = system.rows(shown, self.draft)
        extras = [views.describe_extra(state.system, c) for c in self.draft.extras]
        if self.draft.end_after:
            extras.append("[b]End the contest after this stage[/b]")
        if shown.error:
            verdict = f"[b $error]{e(shown.error)}[/]"
        else:
            if self.aside is not None and self.aside[1] != draft_now(self.draft):
                self.aside = None
            aside = self.aside[0] if self.aside is not None else ""
            verdict = self.message or aside or system.verdict(shown, self.draft)
        self.message = ""
        keypad.show(rows, extras, verdict)
        if self.toasted is not None and self.toasted != draft_now(self.draft):
            self.toasted = None
            self.screen.app.clear_notifications()  # what it said no longer holds
        self.corrections.note_step()  # a correction's keypad changed: a step
        self._odds_for(shown.state)

    def keypad_open(self) -> bool:
        """Whether the keypad takes dice (its contest is there and not over)."""
        contests = self.tussle.campaign.contests
        return self.contest_id in contests and not self.state.finished

    def say_aside(self, markup: str) -> None:
        """``markup`` on the keypad's verdict line, where it stays until the keypad
        changes (a toast would cover the keypad)."""
        self.aside = (markup, draft_now(self.draft))
        self.refresh_keypad()

    def keypad_toast(self, message: str, title: str, timeout: float | None = None) -> None:
        """A refusal of what is on the keypad, as a toast that lasts while the keypad
        stays as it is (the verdict line says it too, until the next repaint)."""
        self.screen.notify(message, title=title, severity="error", timeout=timeout)
        self.toasted = draft_now(self.draft)

    def say(self, markup: str) -> None:
        """``markup`` on the keypad's verdict line, once: at this repaint."""
        self.message = markup
        self.refresh_keypad()

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
        self.screen.workers.cancel_group(self.screen, "odds")
        if self.tussle.show_odds:
            n = self.correcting[0]
            self.odds = ({}, f"[dim]no odds while exchange {n} is being corrected[/]")
            self.refresh_scoreboard()

    def update_odds(self, state: Contest) -> None:
        """Work the odds out for the contest as the keypad would leave it, off the
        event loop (a large contest's first computation can take a moment): a worker of
        the screen's, the one of its group "odds" (a newer one cancels it)."""
        self.screen.run_worker(
            partial(self._work_odds, state),
            name="update_odds",
            group="odds",
            exclusive=True,
            thread=True,
        )

    def _work_odds(self, state: Contest) -> None:
        """(In the worker's thread.) The odds, handed back to the event loop."""
        if not self.tussle.show_odds or not self.odds_ready:
            return
        from core.odds.report import odds_for

        odds: tuple[dict[str, str], str]
        try:
            odds = odds_cells(odds_for(state), state)
        except Exception as error:  # odds are a help, never a reason to stop the table
            odds = ({}, f"[dim]no odds: {e(error)}[/]")
        self.screen.app.call_from_thread(self.show_odds, odds)

    def show_odds(self, odds: tuple[dict[str, str], str]) -> None:
        if self.screen not in self.screen.app.screen_stack:
            return  # the GM has moved to another screen meanwhile
        contests = self.tussle.campaign.contests
        if self.contest_id not in contests or contests[self.contest_id].state.finished:
            return  # worked out for a moment that has passed
        if self.correcting:
            return  # worked out before the correction began
        self.odds = odds
        self.refresh_scoreboard()

    def toggle_odds(self) -> None:
        app = self.tussle
        app.show_odds = not app.show_odds
        self.odds = None
        self.refresh_scoreboard()
        if app.show_odds:
            self.refresh_keypad()
