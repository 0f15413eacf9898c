"""The roll keypad's logic: the draft of the coming exchange and what each key does to it.

The contest screen holds one :class:`Keypad` and hands it the keys (a die's face, the next
or previous roller, Backspace, Tussle's roll) and the actions the GM puts on it; the
keypad keeps the draft and its cursor and says which rollers it has, and the screen
paints what it holds and says what it refused. It knows no screen and no widget, so the
keypad can be driven headless (tests/tui/test_contest_model.py) exactly as on the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from core.dice import DiceKind
from core.model import Command, Contest
from tui.draft import Draft, dice_kind, faces_of, preview, type_face, typed_text
from tui.fields import Options
from tui.systems import view

# The keypad as it stood when it moved on by itself: its draft, cursor and dice.
MovedOn = tuple[int, int, tuple[tuple[str, str], ...]]


class Keypad:
    """The draft of the coming exchange on ``contest()`` (the contest the keypad plays on:
    as it stands, or before an exchange being corrected), with dice Tussle rolls from
    ``roll``."""

    def __init__(
        self, contest: Callable[[], Contest], roll: Callable[[DiceKind], tuple[int, ...]]
    ) -> None:
        self._contest = contest
        self._roll = roll
        self.draft = Draft()
        # The keypad as it stood when it moved on by itself (a roll complete): a "next
        # roller" key pressed next is taken as that move, made already, not made a second
        # time (typing 14 then Tab then 9 gives the second roller the 9, not the first a
        # refused 9).
        self.moved_on: MovedOn | None = None

    @property
    def state(self) -> Contest:
        return self._contest()

    # -- who rolls -----------------------------------------------------------------------
    def slots(self) -> list[str]:
        """The keypad's rollers, in order."""
        return view(self.state.system).keypad_rollers(preview(self.state, self.draft))

    def current(self) -> str | None:
        """The roller the keypad's cursor is on."""
        slots = self.slots()
        return slots[self.draft.cursor % len(slots)] if slots else None

    def names(self) -> Options:
        """The participants, as a choice's options."""
        return tuple((p.name, p.name) for p in self.state.participants)

    # -- the keys ------------------------------------------------------------------------
    def type(self, key: str) -> bool:
        """A die's face (or a Fate die's sign) for the current roller; the keypad moves
        on once that roll is complete. False: nobody rolls (nothing changed). A face no
        die has is refused (``BadDice``), the draft left as it was."""
        slots = self.slots()
        if not slots:
            return False
        who = slots[self.draft.cursor % len(slots)]
        text, complete = type_face(dice_kind(self.state), self.draft.typed.get(who, ""), key)
        self.draft.typed[who] = text
        self.draft.sources[who] = "table"
        if complete:
            self._advance(slots)
        return True

    def erase(self) -> bool:
        """Backspace: the current roller's last die, or (none typed) the previous
        roller's. False: nobody rolls."""
        slots = self.slots()
        if not slots:
            return False
        who = slots[self.draft.cursor % len(slots)]
        text = self.draft.typed.get(who, "")
        if not text and self.draft.cursor > 0:
            self.draft.cursor -= 1
            who = slots[self.draft.cursor]
            text = self.draft.typed.get(who, "")
        self.draft.typed[who] = text[:-1]
        return True

    def move(self, step: int) -> None:
        """The next (``step`` 1) or previous (-1) roller; right after the keypad moved on
        by itself, the first "next" is that move."""
        slots = self.slots()
        if step > 0 and self.moved_on == self._now():
            self.moved_on = None  # the keypad moved on by itself just now: this is that move
        elif slots:
            self.draft.cursor = (self.draft.cursor + step) % len(slots)

    def roll(self, everyone: bool) -> bool:
        """Tussle rolls for the current roller (``everyone``: for all still to roll).
        False: nobody rolls."""
        slots = self.slots()
        if not slots:
            return False
        kind = dice_kind(self.state)
        targets = (
            [s for s in slots if faces_of(kind, self.draft.typed.get(s, "")) is None]
            if everyone
            else [slots[self.draft.cursor % len(slots)]]
        )
        for who in targets:
            self.draft.typed[who] = typed_text(kind, self._roll(kind))
            self.draft.sources[who] = "tussle"
        self._advance(slots)
        return True

    def _advance(self, slots: list[str]) -> None:
        kind = dice_kind(self.state)
        for step in range(1, len(slots) + 1):
            i = (self.draft.cursor + step) % len(slots)
            if faces_of(kind, self.draft.typed.get(slots[i], "")) is None:
                self.draft.cursor = i
                self.moved_on = self._now()
                return

    def _now(self) -> MovedOn:
        return id(self.draft), self.draft.cursor, tuple(self.draft.typed.items())

    # -- the actions waiting -------------------------------------------------------------
    def with_(self, command: Command) -> tuple[list[Command], bool]:
        """The actions waiting once ``command`` joins them, and whether it took the place
        of one (the system says which: an advantage entered again, not a second one)."""
        replaces = view(self.state.system).SCREEN.replaces
        extras = list(self.draft.extras)
        for i, waiting in enumerate(extras):
            if replaces is not None and replaces(waiting, command):
                extras[i] = command
                return extras, True
        return [*extras, command], False

    def check(self, extras: list[Command]) -> None:
        """RuleError unless the contest takes the keypad's dice with ``extras`` (a pure
        check: the draft itself is left as it is)."""
        trial = replace(self.draft, typed=dict(self.draft.typed), sources=dict(self.draft.sources))
        trial.extras = extras
        preview(self.state, trial, strict=True)
