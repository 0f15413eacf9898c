"""Keys a part of a screen brings with it (a rule system's keys on the contest screen and
the setup), as a container the screen puts around its widgets.

Textual looks for a key's binding from the focused widget up through its ancestors to
the screen and the app, and reads each node's bindings from its class. So a rule system's
keys are a class of its own, written in its plug-in (``class FateKeys(ContestKeys,
keys=…)``), and the one screen class composes it around everything that can take the
focus: wherever the focus is on that screen, the system's keys work, as the screen's own
do, and no screen class is made per system.

A part's binding runs the screen's ``part_key`` action with the key's own action name
(``screen.part_key('invoke')``), as the roll keypad's keys run the screen's
``keypad_…`` actions: the screen hands it to the key's handler, and its ``check_action``
says whether the key means anything now. The key bar, the help and the command palette
list the screen's keys with each part's placed among them (:func:`screen_keys`), each
described as its part says it does now (:meth:`KeyPart.description`: a key may mean
another thing in another state).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Protocol

from textual.actions import parse
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.events import DescendantFocus
from textual.screen import Screen
from textual.widget import Widget

PART_KEY = "part_key"  # the screen's action that runs a part's key, by the key's action


class PartKey(Protocol):
    """One key of a part: its ``binding``, shown after the screen's binding whose id is
    ``after``."""

    @property
    def after(self) -> str: ...

    @property
    def binding(self) -> Binding: ...


@dataclass(frozen=True)
class Described:
    """A part's key as its part describes it now (:func:`screen_keys`)."""

    after: str
    binding: Binding


class KeyPart(Vertical):
    """A container whose bindings are a part's keys (``KEYS``, given as the subclass's
    ``keys``), each running the screen's ``part_key`` action. It fills the screen as the
    screen's own layout would (vertical, scrolling when what it holds is taller), and
    keeps the focus inside it."""

    DEFAULT_CSS = """
    KeyPart { width: 1fr; height: 1fr; layout: vertical; overflow-y: auto; }
    """
    KEYS: ClassVar[Sequence[PartKey]] = ()

    def __init_subclass__(cls, keys: Sequence[PartKey] | None = None, **kwargs: Any) -> None:
        if keys is not None:  # (before Textual's, which merges the class's bindings)
            cls.KEYS = tuple(keys)
            cls.BINDINGS = [bound(k.binding) for k in cls.KEYS]
        super().__init_subclass__(**kwargs)

    def __init__(self, *children: Widget, id: str | None = None) -> None:
        super().__init__(*children, id=id)
        self.last_focused: Widget | None = None  # what had the focus inside, last

    def on_mount(self) -> None:
        self.watch(self.screen, "focused", self.keep_focus, init=False)

    def description(self, key: PartKey) -> str:
        """What ``key`` does now, as the key bar, the help and the palette say it: its
        binding's description here; a part whose key means another thing in another
        state says that one."""
        return key.binding.description

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        self.last_focused = event.widget

    def keep_focus(self, focused: Widget | None) -> None:
        """With no focus at all on its screen (shown), Textual would look for a key's
        binding on the screen and the app alone, and these keys would do nothing: the
        widget inside that had the focus last takes it back."""
        last = self.last_focused
        if focused is not None or last is None or not self.screen.is_current:
            return
        if last.is_attached and last.focusable:
            last.focus()


def bound(binding: Binding) -> Binding:
    """A part's ``binding`` as its class binds it: the screen's ``part_key`` action, with
    the key's own action as its parameter."""
    return replace(binding, action=f"screen.{PART_KEY}({binding.action!r})")


def placed(own: Iterable[BindingType], keys: Sequence[PartKey], where: str) -> list[Binding]:
    """The screen's ``own`` bindings, each part key's right after the one its ``after``
    names (as its part binds it): the order the key bar, the help and the palette show.
    A key placed after no binding of the screen is refused (``where``: the screen)."""
    mine = [b for b in own if isinstance(b, Binding)]
    known = {b.id for b in mine}
    lost = [k.binding.id for k in keys if k.after not in known]
    if lost:
        raise ValueError(f"keys placed after no key of the {where}: {lost}")
    out = []
    for binding in mine:
        out.append(binding)
        out += [bound(k.binding) for k in keys if k.after == binding.id]
    return out


def screen_keys(screen: Screen[Any]) -> list[Binding]:
    """Every key of ``screen``: its own and those of the key parts on it, in order, a
    part's described as it does now."""
    keys = [
        Described(key.after, replace(key.binding, description=part.description(key)))
        for part in screen.query(KeyPart)
        for key in part.KEYS
    ]
    return placed(screen.BINDINGS, keys, "screen")


def allowed(screen: Screen[Any], binding: Binding) -> bool:
    """Whether ``screen`` lets ``binding`` act now (its ``check_action``, as a key press
    would ask it; a part's key is its ``part_key`` action with the key's own name)."""
    _, action, parameters = parse(binding.action)
    return screen.check_action(action, parameters) is not False
