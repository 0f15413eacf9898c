"""A rule system's part of the contest screen: its keys, and what each key does.

The contest screen is the same for every system; what differs (Fate's invoke form,
HeroQuest's hero points, FORGE's dodge or absorb) is a :class:`ScreenPart` in the
system's own module here. Its keys are a class the system writes (``class
FateKeys(ContestKeys, keys=…)``): a container the screen composes around its widgets,
whose bindings are those keys (:mod:`tui.widgets.key_part`). A key's handler gets the
screen's controls as :class:`ContestActions`: the few things a handler may use (the
contest, the keypad's draft, forms, the app), so a system module never imports a screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol

import msgspec
from textual.binding import Binding
from textual.notifications import SeverityLevel

from core.model import Command, Contest
from tui.draft import Draft
from tui.fields import Answers, Field, Follow, Options
from tui.host import Host
from tui.widgets.key_part import KeyPart, PartKey


class ContestActions(Protocol):
    """What the contest screen offers a system's key handlers."""

    contest_id: str
    draft: Draft
    message: str  # shown once on the keypad's verdict line, at its next repaint

    @property
    def tussle(self) -> Host: ...

    @property
    def state(self) -> Contest:
        """The contest the keypad plays on (before the exchange being corrected)."""
        ...

    def names(self) -> Options:
        """The participants, as a choice's options."""
        ...

    def current(self) -> str | None:
        """The roller the keypad's cursor is on."""
        ...

    def slots(self) -> list[str]:
        """The keypad's rollers, in order."""
        ...

    def add_extra(self, command: Command) -> None:
        """Put ``command`` on the keypad, to go with the coming exchange."""
        ...

    def ask(
        self,
        title: str,
        fields: list[Field],
        then: Callable[[Answers], Command],
        hint: str = "",
        rule_field: str | None = None,
        follow: Follow | None = None,
    ) -> None:
        """A form whose answers become a command added to the keypad's draft."""
        ...

    def play_now(self, title: str, fields: list[Field], then: Callable[[Answers], Command]) -> None:
        """A form whose answers become a command played at once, an action of its own."""
        ...

    def command_form(
        self,
        title: str,
        fields: list[Field],
        hint: str,
        parse: Callable[[Answers], Command],
        then: Callable[[Command | None], None],
        follow: Follow | None = None,
    ) -> None:
        """A form whose answers ``parse`` turns into a command (a refusal keeps the form
        open), handed to ``then`` (None: cancelled), which may open the next form."""
        ...

    def form(
        self, title: str, fields: list[Field], hint: str, then: Callable[[Answers | None], None]
    ) -> None:
        """A form whose answers (None: cancelled) go to ``then``."""
        ...

    def correct(self, n: int, commands: list[Command], what: str) -> None:
        """Exchange ``n`` corrected to ``commands`` (``what``: how the GM names it,
        "Cynere's attack (exchange 1)"): what it changes is shown and asked before the
        correction goes to the app's bus."""
        ...

    def refresh_keypad(self) -> None: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
    ) -> None: ...


class Key(msgspec.Struct, frozen=True):
    """One of a system's keys: its ``binding`` (its action names ``run``), placed in the
    screen's list of keys right after the screen's own binding whose id is ``after``
    (the order the footer, the help screen and the command palette show). ``applies``:
    whether the key means anything in this contest (else the footer and the palette
    leave it out, and it does nothing): HeroQuest's leave in a chain only. ``says``: what
    the key does in this contest, where that is not its binding's description (the key
    bar, the help and the palette say it; Fate's ``a`` absorbs a hit in a conflict)."""

    after: str
    binding: Binding
    run: Callable[[ContestActions], None]
    applies: Callable[[Contest], bool] | None = None
    says: Callable[[Contest], str] | None = None


def while_open(keys: Sequence[Key]) -> tuple[Key, ...]:
    """``keys`` that mean nothing once the contest is over (they change the coming
    exchange or round): out of the footer and the palette then, as a key that does not
    apply is, where they only said "the contest ended". While an exchange of it is
    corrected the keypad plays on the contest before it, open, and they apply again."""

    def opened(key: Key) -> Key:
        applies = key.applies

        def open_and_applies(state: Contest) -> bool:
            return not state.finished and (applies is None or applies(state))

        return msgspec.structs.replace(key, applies=open_and_applies)

    return tuple(opened(key) for key in keys)


class ContestKeys(KeyPart):
    """A system's keys on the contest screen: a subclass in the system's plug-in, with
    its ``keys`` (``class FateKeys(ContestKeys, keys=(Key(…), …))``); this one has
    none. The contest screen composes it around its panes and keypad."""

    KEYS: ClassVar[Sequence[Key]] = ()

    def __init__(self, *, state: Callable[[], Contest], id: str | None = None) -> None:
        super().__init__(id=id)
        self.state = state  # the contest its keys act on now (the screen's)

    def description(self, key: PartKey) -> str:
        """What ``key`` does in the contest now: its own ``says``, else its binding's."""
        if isinstance(key, Key) and key.says is not None:
            return key.says(self.state())
        return key.binding.description


class ScreenPart(msgspec.Struct, frozen=True):
    """A system's keys on the contest screen (``keys``: its class of them), and whom
    the modifier form (``m``, every system's) offers: ``modifier_choices`` of the
    contest, or else its participants.
    ``replaces(waiting, new)``: whether ``new``, put on the keypad, takes the place of
    the action ``waiting`` there rather than going beside it (Fate: an advantage entered
    again by its creator on the same aspect, fixed in a correction, is not a second one).
    ``corrects``: ``C`` the system's own way for a contest whose actions are played by
    forms, not on the keypad (a Fate conflict's attacks): True when it took the key, False
    for the keypad's correction. ``goes_on``: for a finished contest that the system's
    own key carries on (Fate: ``k``, the conflict an attack turned it into), that key's
    binding id, its key as the hint writes it, and what it does; the keypad's last line
    names it first."""

    keys: type[ContestKeys] = ContestKeys
    modifier_choices: Callable[[Contest], Options] | None = None
    replaces: Callable[[Command, Command], bool] | None = None
    corrects: Callable[[ContestActions], bool] | None = None
    goes_on: Callable[[Contest], tuple[str, str, str] | None] | None = None
