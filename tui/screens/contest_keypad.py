"""The contest screen's keypad: dice typed, rolled, erased, committed; forms whose
answers go onto the keypad.

The roll keypad widget binds the dice keys to this layer's ``keypad_…`` actions, which
hand them to the keypad's logic (:class:`tui.keypad.Keypad`, the draft of the coming
exchange) and paint the result, and Enter into a ``Play`` (or a correction) for the
app's bus. The forms a rule system's keys open (``ask``) end on the
keypad too.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from core.campaign.log import Play
from core.campaign.state import ContestRecord
from core.errors import BadDice, RuleError
from core.model import Command, Contest
from tui import views
from tui.draft import Draft, commit_commands, preview
from tui.fields import Answers, Field, FieldError, Follow, Options
from tui.host import Host, host
from tui.key_hints import key_of
from tui.keypad import Keypad
from tui.screens.contest_corrections import CorrectionFlow
from tui.screens.contest_paint import Painter
from tui.systems import view
from tui.widgets.exchange_log import ExchangeLog
from tui.widgets.keybar import KeyBar
from tui.widgets.keypad import RollKeypad
from tui.widgets.lines import e
from tui.widgets.panes import AspectsPane, ParticipantsPane, Scoreboard


class KeypadContest(Screen[None]):
    """The keypad's keys, and the forms whose commands go onto the keypad."""

    answers_due = 0  # u or U sent, the bus's answer not here yet
    commit_due = False  # Enter came meanwhile: it commits once the answer is here

    def __init__(self, contest_id: str) -> None:
        super().__init__()
        self.contest_id = contest_id
        # The keypad's logic (the draft, its cursor, what each key does), playing on the
        # contest the keypad shows; this screen paints it and says what it refused.
        self.keypad = Keypad(lambda: self.state, lambda kind: self.tussle.dice.roll(kind))
        # Correcting an old exchange: C, its steps, u and Esc inside it.
        self.corrections = CorrectionFlow(
            self, contest_id, self.keypad, self.refresh_keypad, self.say
        )
        # The panes, the keypad and the odds, painted.
        self.painter = Painter(self, contest_id, self.keypad, self.corrections)
        self.sending = False  # an exchange is on its way to the log: Enter waits for it

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
    def message(self) -> str:
        """Said once on the keypad's verdict line, at its next repaint."""
        return self.painter.message

    @message.setter
    def message(self, markup: str) -> None:
        self.painter.message = markup

    def compose(self) -> ComposeResult:
        yield Scoreboard(id="scoreboard")
        with Horizontal(id="middle"):
            with Vertical(id="side"):
                yield ParticipantsPane(id="participants")
                yield AspectsPane(id="aspects")
            yield ExchangeLog(id="log")
        yield RollKeypad(id="keypad")
        yield KeyBar()

    # -- painting: the painter's ---------------------------------------------------------
    def refresh_all(self) -> None:
        self.painter.refresh_all()

    def refresh_panes(self) -> None:
        self.painter.refresh_panes()

    def refresh_keypad(self) -> None:
        self.painter.refresh_keypad()

    def say(self, markup: str) -> None:
        self.painter.say(markup)

    def keypad_toast(self, message: str, title: str, timeout: float | None = None) -> None:
        self.painter.keypad_toast(message, title, timeout)

    def start_odds(self) -> None:
        self.painter.start_odds()

    def action_toggle_odds(self) -> None:
        self.painter.toggle_odds()

    def action_summary(self) -> None:
        from tui.screens.summary import SummaryScreen

        self.app.push_screen(SummaryScreen(self.contest_id))

    # -- the keypad's keys ---------------------------------------------------------------
    # Bound on the keypad (``RollKeypad.BINDINGS``) and run at once when the app takes the
    # key, in the order the keys came, like every other key of the screen. The keypad's
    # logic (:class:`tui.keypad.Keypad`) does what the key means; the screen paints it.
    def slots(self) -> list[str]:
        """The keypad's rollers, in order."""
        return self.keypad.slots()

    def action_keypad_type(self, key: str) -> None:
        """A die's face (or a Fate die's sign) for the current roller."""
        who = self.keypad.current()
        try:
            typed = self.keypad.type(key)
        except BadDice as error:  # a face no die has: said, never dropped in silence
            self.message = f"[b $error]{e(f'{who}: {error}')}[/]"
            self.keypad_toast(f"{who}: {error}", title=error.title, timeout=4)
            self.refresh_keypad()
            return
        if not typed:  # a die nobody can take is said, never dropped in silence
            said = "Nobody rolls on the keypad in this exchange"
            self.message = f"[b $error]{said}[/]"
            self.keypad_toast(said, title="No roll", timeout=4)
        self.refresh_keypad()

    def action_keypad_erase(self) -> None:
        if self.keypad.erase():
            self.refresh_keypad()

    def action_keypad_move(self, step: int) -> None:
        self.keypad.move(step)
        self.refresh_keypad()

    def action_keypad_roll(self, everyone: bool) -> None:
        """Tussle rolls for the current roller (``everyone``: for all still to roll)."""
        if self.keypad.roll(everyone):
            self.refresh_keypad()

    def action_keypad_clear(self) -> None:
        if self.correcting:
            self.corrections.leave()  # asked first when the correction changed something
            return
        elif self.draft.empty:  # Esc never does nothing without saying why (issue 24)
            self.notify(
                "The keypad is empty: Esc has nothing to clear. "
                f"{key_of(self, 'roster', 'w')}: roster · {key_of(self, 'new_contest', 'n')}: "
                f"new contest · {key_of(self, 'campaigns', 'c')}: campaigns",
                title="Nothing to clear",
                timeout=4,
            )
        else:
            self.draft.clear()
        self.refresh_keypad()

    def action_keypad_commit(self) -> None:
        if self.sending:
            return  # the exchange just committed is not in the log yet: not twice
        if self.answers_due:
            self.commit_due = True  # the keypad an undo leaves, as if typed slowly
            return
        state = self.state
        if state.finished:
            self.action_summary()
            return
        shown = preview(state, self.draft)
        if shown.error:
            self.message = f"[b $error]{e(shown.error)}[/]"
            self.refresh_keypad()
            return
        asked = view(state.system).commit_asks(shown.state)
        if asked is not None:

            def named(answers: Answers | None) -> None:
                if answers is not None:
                    self._send_exchange(answers["name"] or asked.default)

            self.form(
                asked.title,
                [
                    Field(
                        "name",
                        asked.label,
                        placeholder=f"{asked.default} (Enter keeps this name)",
                        required=False,
                    )
                ],
                "Enter: commit the exchange · Esc: back to the keypad",
                named,
            )
            return
        self._send_exchange(None)

    def _send_exchange(self, named: str | None) -> None:
        try:
            commands = commit_commands(self.state, self.draft, named)
        except RuleError as error:
            self.message = f"[b $error]{e(error)}[/]"
            self.refresh_keypad()
            return
        if self.correcting:
            self.corrections.send(self.correcting[0], commands)
            return
        self.sending = self.tussle.bus is not None and not self.tussle.read_only
        self.tussle.send(Play(contest_id=self.contest_id, commands=tuple(commands)))

    # -- actions -------------------------------------------------------------------------
    def add_extra(self, command: Command) -> None:
        extras, replaced = self.keypad.with_(command)
        try:
            self.keypad.check(extras)
        except RuleError as error:
            self.message = f"[b $error]{e(error)}[/]"
            self.keypad_toast(str(error), title=error.title)
        else:
            self.draft.extras = extras
            if replaced:
                self.notify("It takes the place of the one waiting on the keypad.", timeout=4)
        self.refresh_keypad()

    def action_take_off(self) -> None:
        """Take one action waiting on the keypad off it, alone: the others, and the dice,
        stay (Backspace takes back dice, Esc everything)."""
        from tui.widgets.lines import to_content

        system = self.state.system
        waiting = [
            (to_content(views.describe_extra(system, c)).plain, str(i))
            for i, c in enumerate(self.draft.extras)
        ]
        if self.draft.end_after:
            waiting.append(("End the contest after this stage", "end"))
        if not waiting:
            self.notify(
                "No action waits on the keypad (Backspace takes back dice).",
                title="Nothing to take off",
                timeout=4,
            )
            return
        extras = list(self.draft.extras)

        def chosen(answers: Answers | None) -> None:
            if answers is None:
                return
            what = answers["what"]
            if what == "end":
                self.draft.end_after = False
            else:
                gone = extras[int(what)]
                self.draft.extras = [c for c in self.draft.extras if c is not gone]
            self.refresh_keypad()

        self.form(
            "Take an action off the keypad",
            [Field("what", "Which", waiting[-1][1], tuple(waiting))],
            "The other actions and the dice stay. Enter: take it off · Esc: keep it",
            chosen,
        )

    def ask(
        self,
        title: str,
        fields: list[Field],
        then: Callable[[Answers], Command],
        hint: str = "",
        rule_field: str | None = None,
        follow: Follow | None = None,
    ) -> None:
        """A form; its answers become a command added to the draft. A bad value (``then``
        raises: a ``FieldError`` names the field) or a command the rules refuse on the
        contest as it stands keeps the form open, with what was typed; the refusal is
        shown under ``rule_field`` (or at the foot of the form). ``follow``: a choice
        whose options follow other answers (an invoke's payment)."""
        from tui.screens.forms import FormScreen
        from tui.screens.invoke import InvokeForm

        def parse(answers: Answers) -> Command:
            command = then(answers)
            try:
                self.keypad.check(self.keypad.with_(command)[0])  # a pure check: the draft is kept
            except RuleError as error:
                raise FieldError(rule_field, str(error)) from error
            return command

        def done(command: Command | None) -> None:
            if command is not None:
                self.add_extra(command)

        if follow is None:
            self.app.push_screen(FormScreen(title, fields, hint, parse=parse), done)
            return
        form = InvokeForm(title, fields, hint, parse=parse)
        form.follow = follow
        self.app.push_screen(form, done)

    def play_now(self, title: str, fields: list[Field], then: Callable[[Answers], Command]) -> None:
        """A form whose answers become a command played at once, as an action of its own
        (a contest between exchanges: HeroQuest's assist in a group extended contest),
        the keypad left as it is. A command the rules refuse on the contest as it stands
        keeps the form open with what was typed, the refusal at its foot."""
        from core.engine import apply
        from tui.screens.forms import FormScreen

        if self.correcting:
            self.notify("Finish the correction first (Enter or Esc).", title="Correcting")
            return

        def parse(answers: Answers) -> Command:
            command = then(answers)
            try:
                apply(self.state, command)  # a pure check: nothing is changed
            except RuleError as error:
                raise FieldError(None, str(error)) from error
            return command

        def done(command: Command | None) -> None:
            if command is not None:
                self.tussle.send(Play(contest_id=self.contest_id, commands=(command,)))

        self.app.push_screen(FormScreen(title, fields, "", parse=parse), done)

    def command_form(
        self,
        title: str,
        fields: list[Field],
        hint: str,
        parse: Callable[[Answers], Command],
        then: Callable[[Command | None], None],
        follow: Follow | None = None,
    ) -> None:
        """A form whose answers ``parse`` turns into a command, handed to ``then`` (None:
        cancelled), which may open the next form (a conflict's attack, then the invokes
        on its rolls). A bad value (a ``FieldError`` names the field) or a refusal of
        the rules keeps the form open with what was typed. ``follow``: a choice whose
        options follow other answers (an invoke's payment)."""
        from tui.screens.forms import FormScreen
        from tui.screens.invoke import InvokeForm

        if self.correcting:
            self.notify("Finish the correction first (Enter or Esc).", title="Correcting")
            return

        def checked(answers: Answers) -> Command:
            try:
                return parse(answers)
            except RuleError as error:
                raise FieldError(None, str(error)) from error

        if follow is None:
            self.app.push_screen(FormScreen(title, fields, hint, parse=checked), then)
            return
        form = InvokeForm(title, fields, hint, parse=checked)
        form.follow = follow
        self.app.push_screen(form, then)

    def form(
        self, title: str, fields: list[Field], hint: str, then: Callable[[Answers | None], None]
    ) -> None:
        """A form whose answers (None: cancelled) go to ``then``."""
        from tui.screens.forms import FormScreen

        self.app.push_screen(FormScreen(title, fields, hint), then)

    def names(self) -> Options:
        """The participants, as a choice's options."""
        return self.keypad.names()

    def current(self) -> str | None:
        """The roller the keypad's cursor is on."""
        return self.keypad.current()
