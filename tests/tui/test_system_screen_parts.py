"""Each rule system's keys on the contest screen come from its screen part (issue 12), a
class of keys the system writes, composed by the one contest screen (issue 26 item 5: a
system adds parts, not subclasses)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget

from core.rules import BUILT_IN
from tests.tui.conftest import keys, new_app, settle
from tui.screens.contest import KEYS, ContestScreen, bindings
from tui.screens.setup import SetupScreen, setup_keys
from tui.systems import view
from tui.systems.screen_part import ContestKeys, Key, ScreenPart
from tui.systems.setup_part import SetupKeys
from tui.widgets.key_part import KeyPart, allowed, screen_keys

SYSTEMS = tuple(BUILT_IN)
DEMOS = {"fate": "Fate demo", "heroquest": "HeroQuest demo", "forge": "FORGE demo"}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_contest_screen_has_the_screen_keys_and_its_systems_each_with_an_action(
    system: str,
) -> None:
    part = view(system).SCREEN
    keys = bindings(part)
    own = [k.binding for k in part.keys.KEYS]
    theirs = {b.id for b in own}
    assert [b for b in keys if b.id not in theirs] == KEYS  # the screen's own, in order
    assert [b.id for b in keys if b.id in theirs] == [b.id for b in own]
    # The system's keys as its part binds them: the screen's part_key action, with the
    # key's own action; each names a handler of the system.
    assert [b for b in keys if b.id in theirs] == part.keys.BINDINGS
    handlers = {k.binding.action for k in part.keys.KEYS}
    for b in keys:  # every key does something on this screen (app.undo: the app's)
        if b.id in theirs:
            assert b.action.startswith("screen.part_key(")
            name, parameters = action(b)
            assert name == "part_key" and parameters[0] in handlers
        else:
            assert b.action.startswith("app.") or callable(
                getattr(ContestScreen, f"action_{b.action.split('(')[0]}", None)
            ), b
    pressed = [k for b in keys for k in b.key.split(",")]
    assert len(pressed) == len(set(pressed))  # no key does two things


def test_no_system_gets_another_systems_keys() -> None:
    ids = {s: {k.binding.id for k in view(s).SCREEN.keys.KEYS} for s in SYSTEMS}
    for system, own in ids.items():
        others = set().union(*(v for s, v in ids.items() if s != system))
        shown = {b.id for b in bindings(view(system).SCREEN)}
        assert own <= shown and not (others - own) & shown
        assert {b.id for b in view(system).SCREEN.keys.BINDINGS if isinstance(b, Binding)} == own


def test_a_key_placed_after_no_key_of_the_screen_is_refused() -> None:
    class Nowhere(ContestKeys, keys=(Key("nowhere", Binding("z", "zap", "Zap", id="zap"), print),)):
        """A key after a key the screen does not have."""

    with pytest.raises(ValueError, match="zap"):
        bindings(ScreenPart(keys=Nowhere))


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_contest_screen_is_one_class_composed_of_parts(system: str) -> None:
    """Issue 26 item 5: the contest screen is composed, not a chain of layers, and a
    system adds a part, not a subclass. Between the contest screen and Textual's Screen
    there is only the keys-typed-in-a-burst rule every screen of Tussle has; a system's
    keys are a class of keys (its plug-in's, written with a class statement) that adds
    nothing but them: no method, no screen."""
    from tui.keys_in_order import TextIsNoKey
    from tui.screens.contest_corrections import CorrectionFlow
    from tui.screens.contest_keypad import KeypadControls
    from tui.screens.contest_paint import Painter

    assert ContestScreen.__bases__ == (TextIsNoKey, Screen)
    assert ContestScreen.__subclasses__() == []  # no class per system
    assert SetupScreen.__subclasses__() == []
    part = view(system).SCREEN.keys
    assert part.__bases__ == (ContestKeys,) and not issubclass(part, Screen)
    assert part.__module__.startswith(f"tui.systems.{system}")
    assert not [name for name, value in vars(part).items() if inspect.isfunction(value)]
    setup = view(system).setup().keys
    assert setup.__bases__ == (SetupKeys,) and setup.__module__.startswith("tui.systems.")
    made = ContestScreen("c1")  # not mounted: its parts only
    assert isinstance(made.painter, Painter)
    assert isinstance(made.controls, KeypadControls)
    assert isinstance(made.corrections, CorrectionFlow)
    assert made.controls.keypad is made.keypad is made.painter.keypad


def inside(widget: Widget | None, part: KeyPart) -> bool:
    return widget is not None and part in widget.ancestors_with_self


@pytest.mark.parametrize("system", sorted(SYSTEMS))
async def test_the_systems_keys_hold_wherever_the_focus_is(saves: Path, system: str) -> None:
    """Textual looks for a key's binding from the focused widget up: the system's keys
    part is around everything that takes the focus, and the focus is inside it when the
    screen opens and after a form or the help closes, so every system key that applies
    is one the screen answers (as the screen's own keys are)."""
    app = new_app(saves, DEMOS[system])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        (part,) = screen.query(KeyPart)
        assert type(part) is view(system).SCREEN.keys
        assert screen.focus_chain and all(inside(w, part) for w in screen.focus_chain)
        for press in ("m", "question_mark", "w"):  # a form, the help, the roster
            await keys(pilot, press)
            assert app.screen is not screen, press
            await keys(pilot, "escape")
            screen = app.screen  # (the roster's Esc makes the contest screen anew)
            assert isinstance(screen, ContestScreen)
            (part,) = screen.query(KeyPart)
            assert inside(screen.focused, part), press
            active = {b.binding.id: b.node for b in screen.active_bindings.values()}
            listed = {b.id for b in screen_keys(screen)}
            for key in part.KEYS:
                if key.applies is None or key.applies(screen.state):
                    assert active[key.binding.id] is part and key.binding.id in listed


async def test_with_no_focus_the_keypad_takes_it_back_and_the_systems_keys_work(
    saves: Path,
) -> None:
    """With no focus on the screen, Textual looks for a binding on the screen and the app
    alone: the widget that had the focus last (the keypad) takes it back, so Fate's
    ``i`` still opens its form, and the dice keys still type."""
    from tui.screens.forms import FormScreen
    from tui.widgets.keypad import RollKeypad

    app = new_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        screen.set_focus(None)
        await settle(pilot)
        assert isinstance(screen.focused, RollKeypad)
        await keys(pilot, "0")
        assert screen.draft.typed == {"Cynere": "0"}
        await keys(pilot, "i")
        assert isinstance(app.screen, FormScreen)


async def test_the_setup_keys_hold_and_w_is_the_systems_where_it_takes_it(saves: Path) -> None:
    """On a setup the system's keys are around the table too; where they take ``w``
    (HeroQuest's wherewithal) the roster is on ``W``, and on ``w`` elsewhere."""
    app = new_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n")
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        (part,) = screen.query(KeyPart)
        assert inside(screen.focused, part)
        ids = [b.id for b in screen_keys(screen) if allowed(screen, b)]
        assert "setup.roster_capital" in ids and "setup.roster" not in ids
        listed = setup_keys(view("heroquest").setup())  # the README's table, the keymap's
        assert ids == [b.id for b in listed if allowed(screen, b)]
        await keys(pilot, "W")
        assert type(app.screen).__name__ == "RosterScreen"


def action(binding: Binding) -> tuple[str, tuple[object, ...]]:
    from textual.actions import parse

    _, name, parameters = parse(binding.action)
    return name, parameters
