"""Corrections on the contest screen: an old exchange back on the keypad, then changed.

``C`` reopens exchange n: its dice and actions come back onto the keypad, played on the
contest as it stood before it; Enter shows what the correction changes and asks before
anything does. An undone exchange comes back onto the keypad the same way.

A part the contest screen holds (:class:`CorrectionFlow`), not a layer of it: it knows
the screen only as a Textual screen (for its forms, questions and toasts), the keypad's
logic it puts the old exchange on, and how the keypad is repainted.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from core.campaign.log import Correct
from core.campaign.state import ContestRecord
from core.errors import RuleError
from core.model import Command, Contest, EndContest, ResolveExchange, RollDice
from core.rules import find_system
from tui.correction import Correction
from tui.draft import Draft, dice_kind, typed_text
from tui.fields import Answers, Field, FieldError, blame, whole
from tui.host import Host, host
from tui.key_hints import key_of
from tui.keypad import Keypad
from tui.widgets.lines import e


class CorrectionFlow:
    """The contest screen's corrections, and the keypad given back an old exchange: the
    correction in progress (its steps are a :class:`tui.correction.Correction`), on
    ``screen``'s contest ``contest_id``, put on ``keypad``. ``repaint`` paints the keypad
    again; ``say`` shows a refusal on the keypad's verdict line (and repaints it)."""

    def __init__(
        self,
        screen: Screen[Any],
        contest_id: str,
        keypad: Keypad,
        repaint: Callable[[], None],
        say: Callable[[str], None],
    ) -> None:
        self.screen = screen
        self.contest_id = contest_id
        self.keypad = keypad
        self.repaint = repaint
        self.say = say
        # While an old exchange is corrected: which, on what, and its steps.
        self.correction: Correction | None = None
        # The correction last asked for, as the GM names it ("Cynere's attack (exchange
        # 1)"), by its exchange's number: the toast once it is made says the same.
        self.asked: tuple[int, str] | None = None

    @property
    def tussle(self) -> Host:
        return host(self.screen.app)

    @property
    def record(self) -> ContestRecord:
        return self.tussle.campaign.contest(self.contest_id)

    @property
    def correcting(self) -> tuple[int, Contest] | None:
        """While an old exchange is corrected: its number, and the contest just before
        it (what the keypad plays on instead of the contest as it stands)."""
        c = self.correction
        return None if c is None else (c.n, c.before)

    @correcting.setter
    def correcting(self, correcting: tuple[int, Contest] | None) -> None:
        """A correction begins (its steps from none) or ends (None)."""
        self.correction = None if correcting is None else Correction(*correcting)

    @property
    def state(self) -> Contest:
        """The contest the keypad plays on: as it stands, or before the exchange being
        corrected."""
        return self.correction.before if self.correction is not None else self.record.state

    def ask(self) -> None:
        """Correct an old exchange (``C``): its commands come back onto the keypad, played
        on the contest as it stood before it; Enter shows what changes before anything
        does."""
        from core.campaign.corrections import reopen

        screen = self.screen
        record = self.record
        refused = find_system(record.state.system).not_corrected(record.state)
        if refused is not None:  # said before the GM types a number, not after
            screen.notify(refused, title="Cannot correct", severity="error")
            return
        if not record.exchanges:
            screen.notify("No exchange to correct yet.", severity="warning")
            return
        if record.written:  # said before the GM types a number, not after
            screen.notify(
                f"Its results are on the roster: {key_of(screen, 'undo', 'u')} takes that back, "
                "then correct.",
                title="Cannot correct",
                severity="error",
            )
            return

        headings = self.headings()
        hint = "Its dice and actions come back onto the keypad. Enter: OK · Esc: cancel"
        if any(_counted_apart(h, k) for k, h in enumerate(headings, start=1)):
            # The log numbers them otherwise (a FORGE round's "Beat 4", the "Stage 2"
            # after it): say which number is which.
            entries = " · ".join(f"{k} {h}" for k, h in enumerate(headings, start=1))
            if len(headings) > 8:
                entries = "… · " + " · ".join(
                    f"{k} {h}" for k, h in list(enumerate(headings, start=1))[-8:]
                )
            hint = (
                f"The log's entries by number: {entries}. A name as the log writes it "
                f'("{headings[-1]}") works too. ' + hint
            )

        def parse(answers: Answers) -> tuple[int, Contest, list[Command]]:
            n = self.number(answers["n"], headings)
            with blame("n"):  # no such exchange: the form stays open on the number
                state, commands = reopen(self.tussle.campaign, self.contest_id, n)
            return n, state, commands

        def chosen(reopened: tuple[int, Contest, list[Command]] | None) -> None:
            if reopened is None:
                return
            n, state, commands = reopened
            self.correcting = (n, state)  # its steps from none
            self.restore_draft(commands)
            self.repaint()  # notes the keypad as C left it: the first step

        from tui.screens.forms import FormScreen

        screen.app.push_screen(
            FormScreen(
                "Correct an exchange",
                [Field("n", "Which exchange", str(len(record.exchanges)))],
                hint,
                parse=parse,
            ),
            chosen,
        )

    def headings(self) -> list[str]:
        """Each exchange's heading as the log writes it ("Exchange 3", FORGE's "Stage 2"
        or "Beat 4": a round's attacks and hits are exchanges too, not stages)."""
        rules = find_system(self.record.state.system)
        return [str(rules.describe(x)[0]).split(":")[0].strip() for x in self.record.exchanges]

    def called(self, n: int) -> str:
        """Exchange ``n`` in the log's words where the log numbers it otherwise: ``Stage 2
        (exchange 5)``; else ``exchange 5`` (the log's "Exchange 5", or "Stage 5")."""
        headings = self.headings()
        heading = headings[n - 1] if 0 < n <= len(headings) else f"Exchange {n}"
        return f"{heading} (exchange {n})" if _counted_apart(heading, n) else f"exchange {n}"

    @staticmethod
    def number(typed: str, headings: list[str]) -> int:
        """Which exchange the C form names: its number, or its heading as the log writes
        it, whatever the case (``stage 2``); a heading the log has twice asks the number."""
        wanted = " ".join(typed.split()).lower()
        found = [k for k, h in enumerate(headings, start=1) if h.lower() == wanted]
        if len(found) == 1:
            return found[0]
        if found:
            at = ", ".join(str(k) for k in found)
            raise FieldError(
                "n", f"the log has {typed.strip()} {len(found)} times ({at}): type its number"
            )
        return whole(typed, "n")

    def told(self, n: int) -> str:
        """Exchange ``n`` as the correction asked for named it (capitalised)."""
        what = self.asked[1] if self.asked and self.asked[0] == n else self.called(n)
        return what[:1].upper() + what[1:]

    def send(self, n: int, commands: list[Command], what: str = "") -> None:
        """Enter while correcting exchange ``n`` (or a system's correction form: ``what``
        names it, "Cynere's attack (exchange 1)"): what ``commands`` would change, asked
        before the correction goes to the app's bus."""
        from core.campaign.corrections import correct

        what = what or self.called(n)
        command = Correct(contest_id=self.contest_id, n=n, commands=tuple(commands))
        try:
            worked = correct(self.tussle.campaign, command)
        except RuleError as error:
            self.screen.notify(str(error), title="Cannot correct", severity="error")
            self.say(f"[b $error]{e(error)}[/]")
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.asked = (n, what)
                self.tussle.send(command)

        from tui.screens.confirm import ConfirmScreen

        self.screen.app.push_screen(
            ConfirmScreen(f"Correct {what}?", worked.changes(), "Enter: correct it"),
            confirmed,
        )

    def restore_draft(self, commands: list[Command], came_back_from: int | None = None) -> None:
        """Put an undone (or reopened) exchange on the keypad, so a mistyped die is one
        key away. The keypad's previous draft is kept under it: a redo of action
        ``came_back_from``, or the end of a correction, brings it back."""
        draft = Draft(came_back_from=came_back_from, before=self.keypad.draft)
        kind = dice_kind(self.state)
        for command in commands:
            if isinstance(command, RollDice):
                draft.typed[command.who] = typed_text(kind, command.faces)
                draft.sources[command.who] = command.source
            elif isinstance(command, EndContest):
                draft.end_after = True
            elif not isinstance(command, ResolveExchange):
                draft.extras.append(command)
        self.keypad.draft = draft

    def end(self) -> None:
        """Leave a correction in progress: its draft (an exchange in the log already)
        goes, and the keypad holds again what it held before C."""
        if self.correction is not None:
            self.correction = None
            self.keypad.draft = self.keypad.draft.before or Draft()

    # -- u and Esc inside a correction ---------------------------------------------------
    def note_step(self) -> None:
        """(After each repaint of the keypad.) A correction's keypad that changed since
        its last step is a new step."""
        if self.correction is not None:
            self.correction.note(self.keypad.draft)

    def undo_step(self) -> None:
        """u while correcting: the correction's last change goes (a die, an action); with
        none left, leaving the correction is asked, as q asks."""
        if self.correction is None or not self.correction.step_back(self.keypad.draft):
            self.leave(asked_by="undo")
            return
        self.screen.notify("The correction's last change is taken back.", timeout=3)
        self.repaint()

    def leave(self, asked_by: str = "escape") -> None:
        """Leave the correction in progress, keeping the exchange as it was: asked first
        when the keypad has changes (as q asks), and when u asked (it undoes nothing)."""
        if self.correction is None:
            return
        n = self.correction.n
        changed = self.correction.changed

        def left(yes: bool | None = True) -> None:
            if yes and self.correcting and self.correcting[0] == n:
                self.screen.notify(f"Exchange {n} is left as it was.", timeout=3)
                self.end()  # the keypad as it was before C
                self.repaint()

        if not changed and asked_by == "escape":
            left()
            return
        from tui.screens.confirm import ConfirmScreen

        lines = [f"Exchange {n} stays as it is in the log."]
        if changed:
            lines.append("The changes made to it on the keypad are lost.")
        else:
            lines.append("Nothing was changed yet: there is nothing in it to take back.")
        lines += ["", "Undo (u) takes back committed actions once the correction is left."]
        self.screen.app.push_screen(
            ConfirmScreen(
                f"Leave the correction of exchange {n}?",
                lines,
                "Enter or y: leave it",
                "Esc or n: go on correcting",
            ),
            left,
        )


def _counted_apart(heading: str, n: int) -> bool:
    """Whether the log's heading of exchange ``n`` does not bear ``n`` ("Beat 4" for the
    2nd, "Stage 1" for the 3rd; "Exchange 2, round 1" does): C's number alone would not
    say which entry it is."""
    return str(n) not in re.findall(r"\d+", heading)
