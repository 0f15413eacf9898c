"""A rule system's part of the contest setup screen: the words for a rating, its rule
options and how their answers read, whether the keypad's rollers are sides or
participants, and its own keys (Fate's situation aspects, HeroQuest's resistance from the
table, FORGE's target built from tiers).

Like :class:`~tui.systems.screen_part.ScreenPart`: each system's module in this package
has one as ``SETUP``, its keys a class of its own (``class FateSetupKeys(SetupKeys,
keys=…)``) that the setup screen composes around its table; a key's handler gets the
screen as :class:`SetupActions`, so a system module never imports a screen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from textual.binding import Binding

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.model import Contest
from tui.fields import Answers, Field
from tui.host import Host
from tui.widgets.key_part import KeyPart

T = TypeVar("T")


class SetupActions(Protocol):
    """What the setup screen offers a system's key handlers."""

    picks: list[Pick]
    situation: list[str]  # the situation aspects, where the system has them
    options: dict[str, Any]  # the rule options chosen
    cleared: set[str]  # participants the system's check before a contest let in
    notes: list[str]  # what such checks found, shown on the screen

    @property
    def highlighted(self) -> Pick | None:
        """The participant whose row is highlighted (None with no participant)."""
        ...

    @property
    def tussle(self) -> Host: ...

    def reload(self) -> None: ...

    def form(
        self,
        title: str,
        fields: list[Field],
        parse: Callable[[Answers], T],
        then: Callable[[T], None],
    ) -> None:
        """A form; ``parse`` turns its answers into a value (a ``FieldError`` keeps the
        form open on that field), ``then`` takes it once the form closes with one."""
        ...

    def notify(self, message: str) -> None: ...


@dataclass(frozen=True)
class SetupKey:
    """One of a system's keys on the setup screen: its ``binding`` (whose action names
    ``run``), shown after the screen's own binding whose id is ``after``."""

    after: str
    binding: Binding
    run: Callable[[SetupActions], None]
    # Whether the key means something in this setup now (HeroQuest's followers: only in
    # a group extended contest); a key that does not is left out of the footer, the
    # help and the palette, and does nothing. None: always.
    applies: Callable[[SetupActions], bool] | None = None


class SetupKeys(KeyPart):
    """A system's keys on the setup screen: a subclass in the system's plug-in, with its
    ``keys``; this one has none."""

    KEYS: ClassVar[Sequence[SetupKey]] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SetupPart:
    """Every part has a default: no rule options, ratings typed as whole numbers."""

    no_skill: str = "No rating"  # the Rolls choice for a character with no relevant skill
    typed_example: str = "a whole number"  # how to type a rating for this contest: "+4"
    option_fields: Sequence[Field] = ()
    options_from: Callable[[Answers], dict[str, Any]] = lambda answers: {}  # rule options
    rolls_by_side: bool = False  # the keypad's rollers are sides, not participants
    situation_aspects: bool = False  # the setup's situation aspects are shown (and used)
    keys: type[SetupKeys] = SetupKeys
    # Options the system's own keys set (not the options form): a new choice of options
    # keeps them (HeroQuest's followers).
    kept_options: tuple[str, ...] = ()
    # The options as the participants now leave them, after each change to the setup:
    # what names someone taken out of it goes (HeroQuest: a follower removed, or whose
    # leader was, or who is no longer on the leader's side, follows nobody). Unchanged
    # by default.
    tidy_options: Callable[[dict[str, Any], Sequence[Pick]], dict[str, Any]] = (
        lambda options, picks: options
    )
    # Run when the GM starts the contest, before its title is asked: a check the rules
    # want first (HeroQuest's contest of wherewithal); it calls ``go`` to carry on.
    before_start: Callable[[SetupActions, Callable[[], None]], None] | None = None
    # Lines of its own on the setup's summary, under the options (Fate: a conflict's
    # turn order), worked out again at each repaint.
    summary: Callable[[SetupActions], list[str]] | None = None
    # The options of its own keys a setup made like an earlier contest (the summary's n,
    # a start taken back) takes from that contest's start, given the roster (Fate: a
    # conflict's harm, and the GM's turn order where it is not the rules'). None by default.
    options_like: Callable[[Contest, Mapping[str, Character]], dict[str, Any]] = (
        lambda start, roster: {}
    )
    # The Rolls column of a pick when the system's own options make its one rating beside
    # the point (Fate: a conflict rolls each action's skill from the roster); None: the
    # rating, as usual. Worked out again at each repaint.
    rolls_instead: Callable[[SetupActions, Pick], str | None] = lambda screen, pick: None


YES_NO = (("no", "no"), ("yes", "yes"))


def options_part(kind: type, **part: Any) -> SetupPart:
    """A :class:`SetupPart` whose rule options are the whole-number fields of the
    system's options class ``kind`` (a dataclass with a default for each), each read
    within the limit declared on it."""
    from core.limits import fields_of
    from tui.fields import whole_field

    defaults = kind()
    names = fields_of(kind)

    def read(a: Answers) -> dict[str, Any]:
        return {k: whole_field(a, k, getattr(defaults, k), of=kind) for k in names}

    shown = [Field(k, k.replace("_", " ").capitalize(), str(getattr(defaults, k))) for k in names]
    return SetupPart(**{"option_fields": tuple(shown), "options_from": read, **part})
