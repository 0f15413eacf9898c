"""Keys that arrive together go where they would have gone typed one by one, on every
screen and in every form: a Tab moves the focus before the letters behind it arrive.

Found playing in tmux (a GM over a slow SSH link sends the same bytes together): on the
roster, with Cynere's form open on its Name field, ``Tab Tab C-u "Athletics x"`` in one
``send-keys`` left the Name "Athletics x" and emptied Skills. Textual posted every key of
the burst to the field focused when it arrived, the Name, before the first Tab (handled
later, by the screen) had moved the focus. Posting the keys to the app at once, before it
handles any of them, is that situation.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Key
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import Input, Static

from core.bus import Bus, Notice
from core.campaign.sheet import Pick
from core.model import Command
from core.systems.fate.character import fate_sheet
from tests.tui.conftest import SETTLE_TIMEOUT, keys, new_app, settle, text
from tui.app import TussleApp
from tui.keys_in_order import KEY_CHECK_SECONDS, KeysInOrder
from tui.screens.contest import ContestScreen
from tui.screens.forms import FormScreen
from tui.screens.roster import RosterScreen
from tui.screens.setup import OTHER, SetupScreen

# The character a terminal sends for each key named here (a letter or digit sends itself).
CHARACTERS = {
    "enter": "\r",
    "tab": "\t",
    "ctrl+u": "\x15",
    "space": " ",
    "comma": ",",
    "minus": "-",
    "left": None,
    "right": None,
}
NAMES = {" ": "space", ",": "comma", "-": "minus"}


def typed(words: str) -> list[str]:
    """The keys that type ``words``."""
    return [NAMES.get(c, c) for c in words]


async def at_once(pilot: Pilot[None], *names: str) -> None:
    """Every key in the app's queue before it handles the first, then wait for all."""
    for name in names:
        pilot.app.post_message(Key(name, CHARACTERS.get(name, name)))
    await settle(pilot)


def form(app: TussleApp) -> FormScreen[object]:
    assert isinstance(app.screen, FormScreen), f"no form open: {app.screen}"
    return app.screen


# The roster's edit form asks, in this order: Name, Kind (a choice), Skills, Aspects, Fate
# points, Refresh. Two Tabs from the Name reach Skills; Ctrl+U empties it.
NEW_SKILLS = ["tab", "tab", "ctrl+u", *typed("Athletics 5, Lore 2")]


@pytest.mark.parametrize("opened", ["before", "in the burst"])
async def test_tabs_then_text_in_the_roster_form_go_to_the_field_tabbed_to(
    saves: Path, opened: str
) -> None:
    app = new_app(saves)  # the Fate demo; the roster's cursor on Cynere
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w")
        assert isinstance(app.screen, RosterScreen)
        if opened == "before":
            await keys(pilot, "e")
            await at_once(pilot, *NEW_SKILLS)
        else:
            await at_once(pilot, "e", *NEW_SKILLS)
        edit = form(app)
        assert edit.form_title == "Edit Cynere"
        assert edit.answers()["name"] == "Cynere", "the letters went to the Name"
        assert edit.answers()["ratings"] == "Athletics 5, Lore 2"
        await at_once(pilot, "enter")
        assert isinstance(app.screen, RosterScreen)
        cynere = app.campaign.roster["Cynere"]
        assert cynere.ratings == {"Athletics": 5, "Lore": 2}
        assert fate_sheet(cynere).aspects == ("I've Got Zird's Back",)  # the Tabs passed it by


async def test_a_whole_participant_typed_at_once_in_the_setup_form(saves: Path) -> None:
    # "Add a participant": Character (Cynere, the first), Rolls (← from her first skill
    # wraps round to "Other: type a rating", which shows a field for it), the rating typed
    # (Fate: 3 is Good +3), the Side. Every key in one burst with the key opening the form.
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n")  # a new contest: the setup, empty
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert setup.picks == []
        await at_once(pilot, "a", "tab", "left", "tab", "3", "tab", *typed("Blue"))
        add = form(app)
        assert add.form_title == "Add a participant"
        assert add.answers() == {
            "character": "Cynere",
            "rating": OTHER,
            "typed": "3",
            "side": "Blue",
        }
        await at_once(pilot, "enter")
        assert app.screen is setup
        assert setup.picks == [Pick(character="Cynere", side="Blue", value=3)]


async def test_a_modifier_typed_at_once_is_for_the_roller_chosen(saves: Path) -> None:
    # The contest's modifier form: For (the roller whose turn it is, Cynere; → picks Teran
    # the Swift), then the value. m opens it; the rest follows in the same burst.
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        await at_once(pilot, "m", "right", "tab", "minus", "2", "enter")
        assert app.screen is screen, "the form took its Enter and closed"
        assert "Modifier: Teran the Swift -2" in text(app, "#keypad")
        assert screen.draft.typed == {}, "no die went to the keypad"
        assert screen.record.exchanges == []


async def test_dice_behind_the_start_of_a_contest_go_to_its_keypad(saves: Path) -> None:
    # The setup's Start form sends the contest to the bus; the new contest's screen comes
    # when the bus has taken it. Dice typed right behind the form's Enter are its first
    # roller's (Cynere, added first), not keys for the setup screen still showing.
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = app.screen
        assert isinstance(first, ContestScreen)
        await keys(pilot, "n")  # the setup, empty
        await at_once(pilot, "a", "enter", "a", "enter", "g", "enter", "0", "0", "0", "0")
        screen = app.screen
        assert isinstance(screen, ContestScreen), screen
        assert screen.contest_id != first.contest_id
        assert screen.draft.typed == {"Cynere": "0000"}


@pytest.mark.parametrize("held_up", ["the app's loop", "the disk"])
async def test_dice_behind_a_start_the_busy_machine_is_slow_to_take_go_to_its_keypad(
    saves: Path, monkeypatch: pytest.MonkeyPatch, held_up: str
) -> None:
    # A GM's machine is busy too (issue 25): the app may get no core for seconds, and a
    # save may wait as long for the disk. Here the bus takes the setup's Start slowly on
    # purpose, longer than the key guard's period: with the app's loop held up (nothing
    # else runs meanwhile, as when the process waits for a core), or in a thread (the
    # loop free, the save slow). The dice typed behind the Start form's Enter wait for
    # the contest's screen and are its first roller's (Cynere, added first), as in the
    # test above; none goes to the setup screen still showing.
    handle = Bus.handle
    pause = 2 * KEY_CHECK_SECONDS

    async def slow_handle(bus: Bus, command: Command) -> Notice:
        if held_up == "the app's loop":
            time.sleep(pause)
        else:
            await asyncio.to_thread(time.sleep, pause)
        return await handle(bus, command)

    monkeypatch.setattr(Bus, "handle", slow_handle)
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = app.screen
        assert isinstance(first, ContestScreen)
        await keys(pilot, "n")  # the setup, empty
        await at_once(pilot, "a", "enter", "a", "enter", "g", "enter", "0", "0", "0", "0")
        screen = app.screen
        assert isinstance(screen, ContestScreen), screen
        assert screen.contest_id != first.contest_id
        assert screen.draft.typed == {"Cynere": "0000"}


class Stuck(Message):
    """Something for a widget to do that it never finishes."""


class NeverAnswers(Static):
    """A widget that never finishes handling :class:`Stuck`: it waits until ``freed``
    (the test's end)."""

    def __init__(self, freed: asyncio.Event) -> None:
        super().__init__("stuck")
        self.freed = freed

    async def on_stuck(self, message: Stuck) -> None:
        await self.freed.wait()


class StuckApp(KeysInOrder):
    """F5 gets the widget stuck; the letters after it are for the input."""

    BINDINGS = [Binding("f5", "stuck", priority=True)]

    def __init__(self, freed: asyncio.Event) -> None:
        super().__init__()
        self.freed = freed

    def compose(self) -> ComposeResult:
        yield Input(id="typed")
        yield NeverAnswers(self.freed)

    def action_stuck(self) -> None:
        self.query_one(NeverAnswers).post_message(Stuck())


async def test_a_widget_that_never_answers_holds_the_keys_behind_it_for_a_while_only() -> None:
    # The other side of waiting for as long as a key takes: a key whose work never ends
    # (a widget waiting for something that will not come) is stuck, not slow. The keys
    # behind it go, in order, once nothing moves: the keyboard is never frozen.
    freed = asyncio.Event()
    app = StuckApp(freed)
    async with app.run_test(size=(40, 6)):
        for name, character in (("f5", None), ("a", "a"), ("b", "b")):
            app.post_message(Key(name, character))
        try:  # not Pilot's pause: it waits for every widget, the stuck one too
            async with asyncio.timeout(SETTLE_TIMEOUT):
                while app.keys_in_hand == 0:  # until the app has taken F5
                    await asyncio.sleep(0.01)
                await app.keys_handled()
            assert app.query_one("#typed", Input).value == "ab"
        finally:
            freed.set()  # the widget's handler ends, and the app can close
