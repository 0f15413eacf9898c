"""The contest screen's keypad: dice typed, rolled, erased, committed; forms whose
answers go onto the keypad.

A part the contest screen holds (:class:`KeypadControls`). The roll keypad widget binds
the dice keys to the screen's ``keypad_…`` actions, which hand them here: to the keypad's
logic (:class:`tui.keypad.Keypad`, the draft of the coming exchange), then to the painter,
and Enter into a ``Play`` (or a correction) for the app's bus. It is also what a rule
system's key handlers get (:class:`tui.systems.screen_part.ContestActions`): the forms
its keys open (``ask``) end on the keypad.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.notifications import SeverityLevel
from textual.screen import Screen

from core.campaign.log import Play
from core.errors import BadDice, RuleError
from core.model import Command, Contest
from tui import views
from tui.draft import Draft, commit_commands, dice_kind, preview, unfinished
from tui.fields import Answers, Field, FieldError, Follow, Options
from tui.host import Host, host
from tui.key_hints import key_of
from tui.keypad import Keypad
from tui.screens.contest_corrections import CorrectionFlow
from tui.screens.contest_paint import Painter
from tui.systems import view
from tui.widgets.lines import e


class KeypadControls:
    """The keypad's keys on ``screen`` (contest ``contest_id``), and the forms whose
    commands go onto the keypad: ``keypad`` does what a key means, ``corrections`` says
    what it plays on (and takes Enter while correcting), ``painter`` shows it."""

    def __init__(
        self,
        screen: Screen[Any],
        contest_id: str,
        keypad: Keypad,
        corrections: CorrectionFlow,
        painter: Painter,
    ) -> None:
        self.screen = screen
        self.contest_id = contest_id
        self.keypad = keypad
        self.corrections = corrections
        self.painter = painter
        self.sending = False  # an exchange is on its way to the log: Enter waits for it
        self.answers_due = 0  # u or U sent, the bus's answer not here yet
        self.commit_due = False  # Enter came meanwhile: it commits once the answer is here

    # -- what a system's key handlers use (ContestActions) --------------------------------
    @property
    def tussle(self) -> Host:
        return host(self.screen.app)

    @property
    def state(self) -> Contest:
        """The contest the keypad plays on (before the exchange being corrected)."""
        return self.corrections.state

    @property
    def draft(self) -> Draft:
        """The keypad's draft of the coming exchange."""
        return self.keypad.draft

    @draft.setter
    def draft(self, draft: Draft) -> None:
        self.keypad.draft = draft

    @property
    def message(self) -> str:
        """Shown once on the keypad's verdict line, at its next repaint."""
        return self.painter.message

    @message.setter
    def message(self, markup: str) -> None:
        self.painter.message = markup

    def refresh_keypad(self) -> None:
        self.painter.refresh_keypad()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
    ) -> None:
        self.screen.notify(message, title=title, severity=severity, timeout=timeout)

    def slots(self) -> list[str]:
        """The keypad's rollers, in order."""
        return self.keypad.slots()

    def summary(self) -> None:
        from tui.screens.summary import SummaryScreen

        self.screen.app.push_screen(SummaryScreen(self.contest_id))

    # -- the keypad's keys ---------------------------------------------------------------
    # Bound on the keypad (``RollKeypad.BINDINGS``: the screen's ``keypad_…`` actions hand
    # them here) and run at once when the app takes the key, in the order the keys came,
    # like every other key of the screen. The keypad's logic (:class:`tui.keypad.Keypad`)
    # does what the key means; the painter paints it.
    def type_key(self, key: str) -> None:
        """A die's face (or a Fate die's sign) for the current roller."""
        who = self.keypad.current()
        try:
            typed = self.keypad.type(key)
        except BadDice as error:  # a face no die has: said, never dropped in silence
            self.message = f"[b $error]{e(f'{who}: {error}')}[/]"
            self.painter.keypad_toast(f"{who}: {error}", title=error.title, timeout=4)
            self.refresh_keypad()
            return
        if not typed:  # a die nobody can take is said, never dropped in silence
            said = "Nobody rolls on the keypad in this exchange"
            self.message = f"[b $error]{said}[/]"
            self.painter.keypad_toast(said, title="No roll", timeout=4)
        self.refresh_keypad()

    def erase(self) -> None:
        if self.keypad.erase():
            self.refresh_keypad()

    def move(self, step: int) -> None:
        self.keypad.move(step)
        self.refresh_keypad()

    def roll(self, everyone: bool) -> None:
        """Tussle rolls for the current roller (``everyone``: for all still to roll)."""
        if self.keypad.roll(everyone):
            self.refresh_keypad()

    def clear(self) -> None:
        if self.corrections.correcting:
            self.corrections.leave()  # asked first when the correction changed something
            return
        elif self.draft.empty and self.tussle.toast_shown():
            # A toast over the panes (at 80x24 the one about a damaged entry hides the
            # exchange log for 30 s): Esc on an empty keypad takes it away, no mouse.
            self.tussle.clear_notifications()
            return
        elif self.draft.empty:  # Esc never does nothing without saying why (issue 24)
            screen = self.screen
            self.notify(
                "The keypad is empty: Esc has nothing to clear. "
                f"{key_of(screen, 'roster', 'w')}: roster · {key_of(screen, 'new_contest', 'n')}: "
                f"new contest · {key_of(screen, 'campaigns', 'c')}: campaigns",
                title="Nothing to clear",
                timeout=4,
            )
        else:
            self.draft.clear()
        self.refresh_keypad()

    def commit(self) -> None:
        if self.sending:
            return  # the exchange just committed is not in the log yet: not twice
        if self.answers_due:
            self.commit_due = True  # the keypad an undo leaves, as if typed slowly
            return
        state = self.state
        if state.finished:
            self.summary()
            return
        shown = preview(state, self.draft)
        kind = dice_kind(state)
        typed = self.draft.typed
        half = next(
            ((w, y) for w in shown.slots if (y := unfinished(kind, typed.get(w, "")))), None
        )
        if half is not None:  # not "has not rolled yet": the GM typed some, and is told the rest
            who, why = half
            self.message = f"[b $error]{e(who)}'s roll is not finished: {e(why)}[/]"
            self.refresh_keypad()
            return
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
        if self.corrections.correcting:
            self.corrections.send(self.corrections.correcting[0], commands)
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
            self.painter.keypad_toast(str(error), title=error.title)
        else:
            self.draft.extras = extras
            if replaced:
                self.notify("It takes the place of the one waiting on the keypad.", timeout=4)
        self.refresh_keypad()

    def take_off(self) -> None:
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
            self.screen.app.push_screen(FormScreen(title, fields, hint, parse=parse), done)
            return
        form = InvokeForm(title, fields, hint, parse=parse)
        form.follow = follow
        self.screen.app.push_screen(form, done)

    def play_now(self, title: str, fields: list[Field], then: Callable[[Answers], Command]) -> None:
        """A form whose answers become a command played at once, as an action of its own
        (a contest between exchanges: HeroQuest's assist in a group extended contest),
        the keypad left as it is. A command the rules refuse on the contest as it stands
        keeps the form open with what was typed, the refusal at its foot."""
        from core.engine import apply
        from tui.screens.forms import FormScreen

        if self.corrections.correcting:
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

        self.screen.app.push_screen(FormScreen(title, fields, "", parse=parse), done)

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

        if self.corrections.correcting:
            self.notify("Finish the correction first (Enter or Esc).", title="Correcting")
            return

        def checked(answers: Answers) -> Command:
            try:
                return parse(answers)
            except RuleError as error:
                raise FieldError(None, str(error)) from error

        if follow is None:
            self.screen.app.push_screen(FormScreen(title, fields, hint, parse=checked), then)
            return
        form = InvokeForm(title, fields, hint, parse=checked)
        form.follow = follow
        self.screen.app.push_screen(form, then)

    def form(
        self, title: str, fields: list[Field], hint: str, then: Callable[[Answers | None], None]
    ) -> None:
        """A form whose answers (None: cancelled) go to ``then``."""
        from tui.screens.forms import FormScreen

        self.screen.app.push_screen(FormScreen(title, fields, hint), then)

    def correct(self, n: int, commands: list[Command], what: str) -> None:
        """Exchange ``n`` corrected to ``commands``: asked, with what it changes."""
        self.corrections.send(n, commands, what)

    def names(self) -> Options:
        """The participants, as a choice's options."""
        return self.keypad.names()

    def current(self) -> str | None:
        """The roller the keypad's cursor is on."""
        return self.keypad.current()
