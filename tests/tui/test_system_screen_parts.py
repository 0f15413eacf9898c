"""Each rule system's keys on the contest screen come from its screen part (issue 12)."""

from __future__ import annotations

import inspect

import pytest
from textual.binding import Binding

from core.rules import BUILT_IN
from tui.screens.contest import KEYS, ContestScreen, bindings
from tui.systems import view
from tui.systems.screen_part import Key, ScreenPart

SYSTEMS = tuple(BUILT_IN)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_contest_screen_has_the_screen_keys_and_its_systems_each_with_an_action(
    system: str,
) -> None:
    screen = ContestScreen.of(system)
    keys = [b for b in screen.BINDINGS if isinstance(b, Binding)]
    own = [k.binding for k in view(system).SCREEN.keys]
    assert [b for b in keys if b not in own] == KEYS  # the screen's own, in their order
    assert [b for b in keys if b in own] == own
    for b in keys:  # every key does something on this screen (app.undo: the app's)
        assert b.action.startswith("app.") or callable(
            getattr(screen, f"action_{b.action.split('(')[0]}", None)
        ), b
    pressed = [k for b in keys for k in b.key.split(",")]
    assert len(pressed) == len(set(pressed))  # no key does two things


def test_no_system_gets_another_systems_keys() -> None:
    ids = {s: {k.binding.id for k in view(s).SCREEN.keys} for s in SYSTEMS}
    for system, own in ids.items():
        others = set().union(*(v for s, v in ids.items() if s != system))
        screen = ContestScreen.of(system)
        shown = {b.id for b in screen.BINDINGS if isinstance(b, Binding)}
        assert own <= shown and not (others - own) & shown
        assert not any(hasattr(screen, f"action_{i}") for i in others - own)


def test_a_key_placed_after_no_key_of_the_screen_is_refused() -> None:
    part = ScreenPart(keys=(Key("nowhere", Binding("z", "zap", "Zap", id="zap"), print),))
    with pytest.raises(ValueError, match="zap"):
        bindings(part)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_contest_screen_is_one_class_composed_of_parts(system: str) -> None:
    """Issue 26 item 5: the contest screen is composed, not a chain of layers. Between a
    system's contest screen and Textual's Screen there is the one ContestScreen (and the
    keys-typed-in-a-burst rule every screen of Tussle has); the system's class adds its
    keys alone. What was a layer is a part the screen holds."""
    from textual.screen import Screen

    from tui.keys_in_order import TextIsNoKey
    from tui.screens.contest_corrections import CorrectionFlow
    from tui.screens.contest_keypad import KeypadControls
    from tui.screens.contest_paint import Painter

    screen = ContestScreen.of(system)
    assert screen.__bases__ == (ContestScreen,)
    assert ContestScreen.__bases__ == (TextIsNoKey, Screen)
    methods = {name for name, value in vars(screen).items() if inspect.isfunction(value)}
    assert methods == {f"action_{k.binding.action}" for k in screen.part.keys}
    made = screen("c1")  # not mounted: its parts only
    assert isinstance(made.painter, Painter)
    assert isinstance(made.controls, KeypadControls)
    assert isinstance(made.corrections, CorrectionFlow)
    assert made.controls.keypad is made.keypad is made.painter.keypad
