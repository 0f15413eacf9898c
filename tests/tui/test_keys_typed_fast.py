"""A key typed hard on the heels of another acts after it, as if typed slowly: a key
behind one that opens a form goes to the form, never to the keypad underneath.

Found playing in tmux: `m` and `r` sent together opened the modifier form *and* rolled
Teran's dice, because both keys were queued on the focused keypad, which handled `r`
before `m` had bubbled up to the screen's bindings. Posting the keys to the app at once,
before it handles any of them, is that situation (a terminal sends keys typed fast, or
tmux's `send-keys m r`, in one read).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding
from textual.events import Key
from textual.pilot import Pilot

from core.rules import BUILT_IN
from tests.tui.conftest import keys, new_app, settle, text
from tui.app import TussleApp
from tui.screens.contest import ContestScreen, bindings
from tui.screens.forms import FormScreen
from tui.systems import view
from tui.widgets.choice import Choice
from tui.widgets.keypad import RollKeypad

CHARACTERS = {"enter": "\r", "escape": "\x1b", "tab": "\t", "plus": "+", "minus": "-"}


async def at_once(pilot: Pilot[None], *names: str) -> None:
    """Every key in the app's queue before it handles the first, then wait for all."""
    for name in names:
        character = CHARACTERS.get(name, name if len(name) == 1 else None)
        pilot.app.post_message(Key(name, character))
    await settle(pilot)


def contest(app: TussleApp) -> ContestScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, ContestScreen))
    return screen


# Each demo contest, with the first roller's dice typed (the second still to roll), and
# with both rollers' dice typed (an Enter would commit the exchange).
FIRST_TYPED = {
    "Fate demo": ("0", "0", "0", "0"),  # Cynere 0000; Teran the Swift to roll
    "HeroQuest demo": ("7",),  # Tripitaka 7 (no d20 face 7x); the Ghoul to roll
    "FORGE demo": ("3", "5"),  # Josef 35; Bobby to roll
}
BOTH_TYPED = {
    "Fate demo": ("0",) * 8,
    "HeroQuest demo": ("7", "1", "5"),
    "FORGE demo": ("3", "5", "5", "5"),
}

# A key that opens a form, then a key the keypad would take: a die, or r (Tussle rolls).
FORM_THEN_DIE = [
    ("Fate demo", "m", "r"),
    ("Fate demo", "m", "0"),
    ("Fate demo", "i", "minus"),  # invoke
    ("Fate demo", "a", "plus"),  # create an advantage
    ("Fate demo", "k", "R"),  # attack; R: Tussle rolls for everyone left
    ("HeroQuest demo", "m", "r"),
    ("HeroQuest demo", "h", "5"),  # hero point
    ("HeroQuest demo", "g", "9"),  # augment
    ("HeroQuest demo", "l", "r"),  # leave
    ("FORGE demo", "m", "r"),
    ("FORGE demo", "o", "5"),  # who acts and who reacts
]


@pytest.mark.parametrize(("campaign", "form_key", "die"), FORM_THEN_DIE)
async def test_a_die_typed_behind_a_form_key_is_not_put_on_the_keypad(
    saves: Path, campaign: str, form_key: str, die: str
) -> None:
    app = new_app(saves, campaign)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *FIRST_TYPED[campaign])
        screen = contest(app)
        typed = dict(screen.draft.typed)
        assert len(typed) == 1  # the first roller's dice; the second still to roll
        await at_once(pilot, form_key, die)
        assert isinstance(app.screen, FormScreen), f"{form_key} opened its form"
        assert screen.draft.typed == typed, f"{die} went to the keypad under the form"
        await keys(pilot, "escape")  # the form goes; the keypad is as it was
        assert app.screen is screen
        assert screen.draft.typed == typed


# A key that opens a form, then Enter: the form's Enter (accept), not the keypad's
# (commit the exchange under the form).
FORM_THEN_ENTER = [
    ("Fate demo", "m"),
    ("Fate demo", "i"),
    ("Fate demo", "a"),
    ("HeroQuest demo", "m"),
    ("HeroQuest demo", "h"),
    ("HeroQuest demo", "l"),
    ("FORGE demo", "m"),
    ("FORGE demo", "o"),
]


@pytest.mark.parametrize(("campaign", "form_key"), FORM_THEN_ENTER)
async def test_enter_behind_a_form_key_commits_nothing(
    saves: Path, campaign: str, form_key: str
) -> None:
    app = new_app(saves, campaign)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *BOTH_TYPED[campaign])
        screen = contest(app)
        typed = dict(screen.draft.typed)
        assert len(typed) == 2
        await at_once(pilot, form_key, "enter")
        assert screen.record.exchanges == [], "Enter committed the exchange under the form"
        assert screen.draft.typed == typed, "the dice typed are still on the keypad"


async def test_enter_behind_m_is_the_modifier_forms_enter(saves: Path) -> None:
    # The modifier form opens on its "For" choice with the value left blank: its Enter
    # says the value is required and keeps the form open.
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *BOTH_TYPED["Fate demo"])
        await at_once(pilot, "m", "enter")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.form_title == "A modifier for this exchange"
        assert "required" in text(app, "#e-value")
        assert "Exchange 1" not in text(app, "#log")


async def test_shift_tab_then_i_invokes_for_the_roller_moved_to(saves: Path) -> None:
    # Both sides typed, the keypad's cursor on Teran (the last to roll). Shift+Tab moves
    # it back to Cynere; the invoke form, right behind, is Cynere's. (The first try at
    # this fix ran the screen's keys on the keypad, ahead of its own: Teran's form.)
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *BOTH_TYPED["Fate demo"])
        assert contest(app).keypad.current() == "Teran the Swift"
        await at_once(pilot, "shift+tab", "i")
        assert isinstance(app.screen, FormScreen)
        assert app.screen.query_one("#f-by", Choice).value == "Cynere"


async def test_undo_then_enter_commits_the_exchange_the_undo_put_back(saves: Path) -> None:
    # Exchange 1 (0000 against 0000: Cynere +4, Teran +3) is in the log. u takes it back
    # onto the keypad, dice and all; Enter, right behind, commits it again: one
    # exchange, the same, and an empty keypad, as when the two keys are typed slowly.
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *BOTH_TYPED["Fate demo"], "enter")
        screen = contest(app)
        assert len(screen.record.exchanges) == 1
        await at_once(pilot, "u", "enter")
        assert len(screen.record.exchanges) == 1
        assert text(app, "#log").count("Exchange 1: Cynere wins, 1 victory") == 1
        assert screen.draft.typed == {}
        assert "not rolled" not in text(app, "#keypad")


@pytest.mark.parametrize("system", sorted(BUILT_IN))
def test_no_key_of_the_keypad_is_a_key_of_the_screen(system: str) -> None:
    # The keypad's keys are bindings checked before the screen's (the keypad has the
    # focus): a screen key (or a system's) bound to the same key would never run.
    def pressed(bindings: list[object]) -> set[str]:
        return {k for b in bindings if isinstance(b, Binding) for k in b.key.split(",")}

    screen = pressed(bindings(view(system).SCREEN))
    keypad = pressed(list(RollKeypad.BINDINGS))
    assert {"0", "9", "plus", "minus", "r", "R", "enter", "tab", "shift+tab"} <= keypad
    assert keypad & screen == set()
