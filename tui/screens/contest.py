"""The contest dashboard: scoreboard, participants, aspects, exchange log and keypad.

Keys become actions (the screen's bindings, and the roll keypad's); the screen hands each
to the part that does it, and the parts turn them into commands for the app's bus. When
the bus says what happened, the screen has the panes repainted. It never calls the store.

The screen is one class composed of parts it owns, one idea each (none knows the screen
but as a Textual screen): the keypad's logic (:class:`tui.keypad.Keypad`, the draft of the
coming exchange), the corrections (``contest_corrections.CorrectionFlow``), the panes and
odds (``contest_paint.Painter``), the keypad's keys, Enter and forms
(``contest_keypad.KeypadControls``, what a system's key handlers get), and the table's
actions (``contest_table``); this module holds the bus's notices, the write-back, the
keypad kept while the GM is elsewhere, and the keys.

The keys a rule system adds (and what they do) are its own part, in ``tui.systems``
(its ``ScreenPart``, whose ``keys`` is a class the plug-in writes). Textual reads
bindings from the focused widget up to the screen, each from its node's class, so the
screen composes that class around its panes and keypad (:mod:`tui.widgets.key_part`):
the system's keys work wherever the focus is, and their ``part_key`` action hands each
to its handler. One screen class serves every system.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from core.campaign.log import (
    ActionRecorded,
    ActionRedone,
    ActionUndone,
    Correct,
    Play,
    Played,
    Redo,
    Undo,
    describe_action,
)
from core.campaign.state import ContestRecord
from core.model import Contest, ExchangeEvent, ResolveExchange
from core.rules import find_system
from tui import views
from tui.draft import Draft, Kept, dice_kind, settled
from tui.host import Host, host
from tui.keypad import Keypad
from tui.keys_in_order import TextIsNoKey
from tui.modifier_form import modifier_command, modifier_fields
from tui.screens import contest_table, quick_roll
from tui.screens.contest_corrections import CorrectionFlow
from tui.screens.contest_keypad import KeypadControls
from tui.screens.contest_paint import Painter
from tui.systems import view
from tui.systems.screen_part import Key, ScreenPart
from tui.widgets.exchange_log import PAGE, ExchangeLog
from tui.widgets.key_part import PART_KEY, placed
from tui.widgets.keybar import KeyBar
from tui.widgets.keypad import RollKeypad
from tui.widgets.lines import e
from tui.widgets.panes import AspectsPane, ParticipantsPane, Scoreboard

if TYPE_CHECKING:
    from core.bus import Notice

# The screen's own keys, in the order the footer, help and palette show them; a rule
# system's keys go in after the one their ``Key.after`` names.
KEYS = [
    Binding("question_mark,f1", "help", "Key help", id="help"),
    Binding("u", "undo", "Undo", id="undo"),
    Binding("U,ctrl+y", "redo", "Redo", id="redo", show=False),
    Binding("m", "modifier", "Modifier", id="modifier", show=False),
    Binding("delete", "take_off", "Take an action off the keypad", id="take_off", show=False),
    quick_roll.binding(),  # ctrl+r: a roll outside the contest (tui.screens.quick_roll)
    Binding("b", "more_log", "Earlier", id="more_log", show=False),
    Binding("pageup", "log_page(-1)", "Log: scroll up", id="log_up", show=False),
    Binding("pagedown", "log_page(1)", "Log: scroll down", id="log_down", show=False),
    Binding("left_square_bracket", "side_page(-1)", "Side panes: up", id="side_up", show=False),
    Binding("right_square_bracket", "side_page(1)", "Side panes: down", id="side_down", show=False),
    Binding("d", "toggle_odds", "Odds", id="toggle_odds", show=False),
    Binding("D", "players_odds", "Odds for players", id="players_odds", show=False),
    Binding("H", "secret", "Hide from players", id="secret", show=False),
    Binding("C", "correct", "Correct an exchange", id="correct", show=False),
    Binding("S", "summary", "Contest summary", id="summary", show=False),
    Binding("M", "recap", "Recap", id="recap", show=False),
    Binding("n", "new_contest", "New contest", id="new_contest", show=False),
    Binding("w", "roster", "Roster", id="roster"),
    Binding("c", "campaigns", "Campaigns", id="campaigns", show=False),
    Binding("q", "quit", "Quit", id="quit"),
]


def bindings(part: ScreenPart) -> list[Binding]:
    """The screen's keys with a system's placed among them."""
    return placed(KEYS, part.keys.KEYS, "contest screen")


class ContestScreen(TextIsNoKey, Screen[None]):
    """Play one contest, exchange by exchange: the screen owns its parts and hands them
    its keys and the bus's notices. The contest's rule system adds its keys as a part
    composed around the rest (``part.keys``)."""

    BINDINGS: ClassVar[list[BindingType]] = list(KEYS)
    part = ScreenPart()  # the contest's system's, from when the screen is composed

    def __init__(self, contest_id: str) -> None:
        super().__init__()
        self.contest_id = contest_id
        # The keypad's logic (the draft, its cursor, what each key does), playing on the
        # contest the keypad shows (as it stands, or before an exchange being corrected).
        self.keypad = Keypad(lambda: self.state, lambda kind: self.tussle.dice.roll(kind))
        # C, a correction's steps, u and Esc inside it; an undone exchange put back.
        self.corrections = CorrectionFlow(
            self,
            contest_id,
            self.keypad,
            repaint=lambda: self.painter.refresh_keypad(),
            say=lambda markup: self.painter.say(markup),
        )
        # The panes, the keypad and the odds, painted.
        self.painter = Painter(self, contest_id, self.keypad, self.corrections)
        # The keypad's keys, Enter, and the forms whose commands go onto the keypad: what
        # the system's key handlers get.
        self.controls = KeypadControls(
            self, contest_id, self.keypad, self.corrections, self.painter
        )

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
        return self.corrections.state

    @property
    def draft(self) -> Draft:
        """The keypad's draft of the coming exchange."""
        return self.keypad.draft

    @draft.setter
    def draft(self, draft: Draft) -> None:
        self.keypad.draft = draft

    @property
    def correcting(self) -> tuple[int, Contest] | None:
        """While an old exchange is corrected: its number, and the contest just before
        it (what the keypad plays on instead of the contest as it stands)."""
        return self.corrections.correcting

    @correcting.setter
    def correcting(self, correcting: tuple[int, Contest] | None) -> None:
        """A correction begins (its steps from none) or ends (None)."""
        self.corrections.correcting = correcting

    def compose(self) -> ComposeResult:
        self.part = view(self.record.state.system).SCREEN
        # The system's keys around everything that takes the focus (the keypad, the log):
        # Textual looks for a key's binding from the focused widget up.
        with self.part.keys(state=lambda: self.state, id="system-keys"):
            yield Scoreboard(id="scoreboard")
            with Horizontal(id="middle"):
                with Vertical(id="side"):
                    yield ParticipantsPane(id="participants")
                    yield AspectsPane(id="aspects")
                yield ExchangeLog(id="log")
            yield RollKeypad(id="keypad")
        yield KeyBar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A system's key that means nothing in this contest (HeroQuest's leave outside
        a chain, FORGE's dodge or absorb outside combat) is left out of the footer and
        the palette, and does nothing. A letter inside text typed in one burst (a name
        for a prompt that did not appear: tui.keys_in_order.TextIsNoKey) is no key here."""
        if super().check_action(action, parameters) is False:
            return False
        if self.contest_id not in self.tussle.campaign.contests:
            return True  # undone: the app is taking this screen away
        if action == PART_KEY:
            key = self._key(parameters)
            return key is not None and (key.applies is None or key.applies(self.state))
        return True

    def _key(self, parameters: tuple[object, ...]) -> Key | None:
        """The system's key whose action ``part_key``'s parameter names."""
        return next((k for k in self.part.keys.KEYS if (k.binding.action,) == parameters), None)

    def action_part_key(self, action: str) -> None:
        """One of the system's keys (its part's binding): its handler gets the controls."""
        key = self._key((action,))
        if key is not None:
            key.run(self.controls)

    def on_mount(self) -> None:
        self.query_one("#participants").border_title = "Participants"
        self.query_one("#aspects").border_title = view(self.record.state.system).ASPECTS_TITLE
        self.query_one("#log").border_title = "Exchange log"
        self.query_one("#keypad").border_title = "Roll keypad"
        self._take_back_kept()
        self.painter.refresh_all()
        self.query_one(RollKeypad).focus()
        self.set_timer(0.3, self.start_odds)

    def notice(self, notice: Notice) -> None:
        """The bus says something happened (or was refused): show it; then an Enter
        that waited for the answer to u or U commits the keypad as it now is."""
        from core.bus import Applied, Rejected

        if isinstance(notice, Applied | Rejected) and isinstance(notice.command, Undo | Redo):
            self.controls.answers_due = max(0, self.controls.answers_due - 1)
        self._show_notice(notice)
        controls = self.controls
        if controls.commit_due and not controls.answers_due:
            controls.commit_due = False
            if self.contest_id in self.tussle.campaign.contests:
                controls.commit()

    def _show_notice(self, notice: Notice) -> None:
        from core.bus import Applied, Rejected, Saved, Unsaved

        if self.contest_id not in self.tussle.campaign.contests:
            return  # undone: the app is taking this screen away
        painter = self.painter
        if isinstance(notice, Unsaved | Saved):
            painter.refresh_panes()
            return
        if isinstance(notice, Rejected):
            self.controls.sending = False
            painter.message = f"[b $error]{e(notice.error)}[/]"
            painter.keypad_toast(str(notice.error), title=notice.error.title)
            painter.refresh_keypad()
            return
        if not isinstance(notice, Applied) or self.contest_id not in self.tussle.campaign.contests:
            return
        entry = notice.entry
        if isinstance(entry, ActionRecorded) and self._ended_here(entry):
            self._write_back()
        if isinstance(entry, ActionRecorded) and isinstance(entry.command, Correct):
            if entry.command.contest_id == self.contest_id:
                self.corrections.end()
                self.notify(f"{self.corrections.told(entry.command.n)} corrected.", timeout=4)
            painter.refresh_all()
        elif isinstance(entry, ActionRecorded) and isinstance(entry.command, Play):
            if entry.command.contest_id != self.contest_id:
                return
            self.controls.sending = False
            if any(isinstance(c, ResolveExchange) for c in entry.command.commands):
                self.draft.clear()
            new = [
                ev.event
                for ev in entry.events
                if isinstance(ev, Played) and isinstance(ev.event, ExchangeEvent)
            ]
            self.query_one(ExchangeLog).add(views.exchange_lines(self.record.state, new))
            painter.refresh_panes()
            painter.refresh_keypad()
        elif isinstance(entry, ActionUndone | ActionRedone):
            self.corrections.end()  # the contest it was based on has changed
            action = self.tussle.campaign.actions[entry.action_id]
            verb = "Undone" if isinstance(entry, ActionUndone) else "Redone"
            self.notify(f"{verb}: {describe_action(action.command)}", timeout=3)
            command = action.command
            # An exchange committed from the keypad comes back on it; an action played at
            # once from a form (a conflict's attack, an assist) does not: nothing on the
            # keypad stands for it, and Enter would play it again unseen.
            if (
                isinstance(entry, ActionUndone)
                and isinstance(command, Play)
                and command.contest_id == self.contest_id
                and any(isinstance(c, ResolveExchange) for c in command.commands)
            ):
                self.corrections.restore_draft(
                    list(command.commands), came_back_from=action.action_id
                )
            # A redone exchange is in the log again: what its undo put on the keypad goes.
            self.draft = settled(self.draft, self.tussle.campaign.done)
            painter.refresh_all()
        else:  # the roster, settings, secrets: the log stays as it is
            painter.refresh_panes()
            painter.refresh_keypad()

    def _ended_here(self, action: ActionRecorded) -> bool:
        """Whether ``action`` ended this contest (an exchange, a correction, the GM)."""
        from core.campaign.log import ContestCorrected
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
        from core.campaign.log import WriteBack

        record = self.record
        if record.state.finished and not record.written and not self.tussle.read_only:
            self.tussle.send(WriteBack(contest_id=self.contest_id))

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
            self.corrections.end()
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
        self.corrections.end()  # what it was based on may have changed
        self.painter.refresh_all()

    # -- the screen's own actions ------------------------------------------------------------
    def action_undo(self) -> None:
        """Take back the last GM action (the app's undo, as on every screen). The keypad
        learns what came back when the bus answers: an Enter typed before that waits.
        While correcting an exchange, u takes back the correction's last change instead
        (with none left, it asks whether to leave the correction)."""
        if self.correcting:
            self.corrections.undo_step()
            return
        self._expect_answer()
        self.tussle.send(Undo())

    def action_redo(self) -> None:
        self._expect_answer()
        self.tussle.send(Redo())

    def _expect_answer(self) -> None:
        if self.tussle.bus is not None and not self.tussle.read_only:
            self.controls.answers_due += 1

    # -- the keypad's keys (bound on the roll keypad) and Enter: the controls' ------------
    def action_keypad_type(self, key: str) -> None:
        self.controls.type_key(key)

    def action_keypad_erase(self) -> None:
        self.controls.erase()

    def action_keypad_move(self, step: int) -> None:
        self.controls.move(step)

    def action_keypad_roll(self, everyone: bool) -> None:
        self.controls.roll(everyone)

    def action_keypad_clear(self) -> None:
        self.controls.clear()

    def action_keypad_commit(self) -> None:
        self.controls.commit()

    def action_take_off(self) -> None:
        self.controls.take_off()

    def action_summary(self) -> None:
        self.controls.summary()

    def action_correct(self) -> None:
        corrects = self.part.corrects
        if corrects is not None and corrects(self.controls):
            return  # the system's own (a Fate conflict's attack, in a form)
        self.corrections.ask()

    def action_toggle_odds(self) -> None:
        self.painter.toggle_odds()

    def start_odds(self) -> None:
        """The first odds, due a moment after the screen opens (the painter's)."""
        self.painter.start_odds()

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        state = self.state
        self.app.push_screen(HelpScreen(self, dice_kind(state), view(state.system).COMMIT_ASKS))

    def action_log_page(self, step: int) -> None:
        self.query_one(ExchangeLog).page(step)

    def action_side_page(self, step: int) -> None:
        """Participants and aspects (or situation) a page on, each as far as it goes."""
        self.query_one(ParticipantsPane).page(step)
        self.query_one(AspectsPane).page(step)

    def action_more_log(self) -> None:
        self.painter.shown += PAGE * 5
        self.painter.refresh_all()

    def action_modifier(self) -> None:
        """A modifier for a roll of this exchange: a participant's (a side's, where the
        system's screen part says whom to offer)."""
        state = self.state
        choose = self.part.modifier_choices
        who = choose(state) if choose is not None else self.keypad.names()
        presets = find_system(state.system).modifier_presets(state)
        self.controls.ask(
            "A modifier for this exchange",
            modifier_fields(who, self.keypad.current() or who[0][1], presets),
            lambda a: modifier_command(a, presets),
        )

    def action_quick_roll(self) -> None:
        quick_roll.ask_quick_roll(self)

    def action_recap(self) -> None:
        contest_table.write_recap(self)

    def action_players_odds(self) -> None:
        contest_table.toggle_players_odds(self)

    def action_secret(self) -> None:
        contest_table.ask_secret(self, self.contest_id)

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
    from tui.widgets.lines import to_content

    typed = draft.by_hand(record.tussle_rolls)
    lines += [f"{title}: {who} rolled {text}" for who, text in typed.items()]
    # The keypad's own words, as it shows them: its lines are Textual markup ($accent, a
    # name's "[" escaped, no emoji codes), which Rich's parser would show or break.
    lines += [f"{title}: {to_content(views.describe_extra(system, c)).plain}" for c in draft.extras]
    if draft.end_after:
        lines.append(f"{title}: end the contest after this stage")
    return lines
