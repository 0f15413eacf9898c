"""Each rule system's keys on the contest screen come from its screen part (issue 12)."""

from __future__ import annotations

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
