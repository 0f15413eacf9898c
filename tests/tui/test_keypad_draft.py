"""The keypad never holds an exchange the log has, never drops a key in silence, and is
never lost to a stray q (issue 11: defects 2, 7 and 9). By key presses only."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.heroquest.character import HeroQuestCharacter
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text
from tui.app import TussleApp
from tui.screens.confirm import ConfirmScreen
from tui.screens.contest import ContestScreen

# The Fate demo: Cynere (Athletics Great +4, 3 fate points, I've Got Zird's Back) against
# Teran the Swift (Lore Good +3). Both roll 0000: +4 against +3; Cynere pays a fate point
# to invoke her aspect, +2: +6 Fantastic against +3, a margin of 3: she wins with style.
DICE = ("0", "0", "0", "0", "0", "0", "0", "0")
INVOKE = ("i", "c", "tab", "i", "enter")  # by Cynere, I've Got Zird's Back, a fate point
WITH_STYLE = "Exchange 1: Cynere wins with style, 2 victories (2–0)"


def notices(app: TussleApp) -> list[str]:
    return [str(n.message) for n in app.told]


def exchanges(app: TussleApp) -> int:
    return len(app.campaign.contest("c1").exchanges)


def fate_points(app: TussleApp, who: str = "Cynere") -> int:
    state = app.campaign.contest("c1").state
    return int(next(p for p in state.participants if p.name == who).fate_points)  # type: ignore[attr-defined]


def keypad(app: TussleApp) -> str:
    return text(app, "#keypad")


async def play_the_invoked_exchange(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, TussleApp)
    await keys(pilot, *DICE, *INVOKE)
    assert "Invoke: Cynere · I've Got Zird's Back (1 FP)" in keypad(app)
    assert "Fantastic (+6)" in keypad(app)
    await keys(pilot, "enter")
    assert WITH_STYLE in text(app, "#log")
    assert fate_points(app) == 2


# -- defect 2: redo never leaves the redone exchange on the keypad --------------------------
async def test_undo_then_redo_leaves_nothing_to_commit_twice(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_the_invoked_exchange(pilot)
        await keys(pilot, "u")
        assert exchanges(app) == 0
        assert fate_points(app) == 3  # the fate point is back with the exchange undone
        assert "[0][0][0][0]" in keypad(app)  # its dice and invoke are back on the keypad
        assert "Invoke: Cynere · I've Got Zird's Back" in keypad(app)
        await keys(pilot, "U")
        assert exchanges(app) == 1
        assert fate_points(app) == 2
        # The exchange is in the log again, so it is off the keypad: no dice, no invoke.
        assert "[0]" not in keypad(app)
        assert "Invoke" not in keypad(app)
        await keys(pilot, "enter")  # nothing typed: nothing to commit
        assert exchanges(app) == 1
        assert "Exchange 2" not in text(app, "#log")
        assert fate_points(app) == 2  # one fate point spent, once


async def test_two_undos_and_two_redos_give_back_what_was_typed_before(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # 1: Cynere ---0 (+1) against 0000 (+3). 2: +000 (+5) against -000 (+2).
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        await keys(pilot, "plus", "0", "0", "0", "minus", "0", "0", "0", "enter")
        assert exchanges(app) == 2
        await keys(pilot, "plus", "plus")  # exchange 3 half typed
        assert "[+][+][ ][ ]" in keypad(app)
        await keys(pilot, "u")
        assert "[+][0][0][0]" in keypad(app) and "[-][0][0][0]" in keypad(app)  # exchange 2
        await keys(pilot, "u")
        assert "[-][-][-][0]" in keypad(app) and "[0][0][0][0]" in keypad(app)  # exchange 1
        await keys(pilot, "U")
        assert exchanges(app) == 1
        assert "[+][0][0][0]" in keypad(app) and "[-][0][0][0]" in keypad(app)  # exchange 2
        await keys(pilot, "U")
        assert exchanges(app) == 2
        assert "[+][+][ ][ ]" in keypad(app)  # what the GM had typed for exchange 3
        assert "[+][0][0][0]" not in keypad(app)
        await keys(pilot, "enter")  # half a roll: refused, and nothing is committed
        assert exchanges(app) == 2


async def test_undo_of_another_action_leaves_the_typed_dice_alone(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "plus", "minus", "0")
        await keys(pilot, "D")  # a campaign setting: an action of its own
        await keys(pilot, "u")
        assert "[+][-][0][ ]" in keypad(app)
        await keys(pilot, "U")
        assert "[+][-][0][ ]" in keypad(app)
        assert exchanges(app) == 0


async def test_undo_during_a_correction_takes_the_reopened_exchange_off(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        await keys(pilot, "plus", "0", "0", "0", "minus", "0", "0", "0", "enter")
        await keys(pilot, "C", "backspace", "1", "enter")  # correct exchange 1
        assert "Correcting exchange 1" in app.screen.query_one("#keypad").border_title
        assert "[-][-][-][0]" in keypad(app)
        # u inside a correction takes back its changes, never an action in the log: with
        # none made, it asks whether to leave the correction (y); then u takes back
        # exchange 2 (issue 24, item 7).
        await keys(pilot, "u", "y", "u")
        screen = app.screen
        assert isinstance(screen, ContestScreen) and screen.correcting is None
        assert "[-][-][-][0]" not in keypad(app)  # exchange 1 is in the log: not typed
        assert "[+][0][0][0]" in keypad(app)  # exchange 2, just undone
        await keys(pilot, "U")
        assert "[0]" not in keypad(app) and "[+]" not in keypad(app)
        await keys(pilot, "enter")
        assert exchanges(app) == 2


async def test_a_correction_undone_and_redone_commits_nothing_more(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        await keys(pilot, "C", "enter")  # exchange 1
        # Cynere's dice were ---0 (+1): make them ++++ (+8), then confirm the change.
        await keys(pilot, *["backspace"] * 8, "plus", "plus", "plus", "plus", "enter", "enter")
        assert "Exchange 1: Cynere wins with style" in text(app, "#log")
        await keys(pilot, "u", "U")
        assert "Exchange 1: Cynere wins with style" in text(app, "#log")
        assert "[+]" not in keypad(app)
        await keys(pilot, "enter")
        assert exchanges(app) == 1


async def test_redo_after_a_restart_commits_nothing_twice(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_the_invoked_exchange(pilot)
        await keys(pilot, "q")
    again = new_app(saves)
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "u")
        assert "Invoke: Cynere" in keypad(again)
        await keys(pilot, "U", "enter")
        assert exchanges(again) == 1
        assert fate_points(again) == 2


async def test_a_redo_from_the_roster_takes_the_exchange_off_the_kept_keypad(
    saves: Path,
) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_the_invoked_exchange(pilot)
        await keys(pilot, "u", "w")  # the dice are back on the keypad; to the roster
        await keys(pilot, "U", "escape")  # redo there, then back to the contest
        assert isinstance(app.screen, ContestScreen)
        assert "Invoke" not in keypad(app) and "[0]" not in keypad(app)
        await keys(pilot, "enter")
        assert exchanges(app) == 1
        assert fate_points(app) == 2


# -- defect 7: an impossible digit says why ---------------------------------------------------
def heroquest_duel(saves: Path) -> None:
    seed_campaign(
        saves,
        "Duel",
        "heroquest",
        [
            Character(
                name="Tripitaka", ratings={"Sword": 15}, sheet=HeroQuestCharacter(hero_points=3)
            ),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 13}),
        ],
        [
            Pick(character="Tripitaka", side="Heroes", rating="Sword"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
    )


async def test_a_d20_of_21_or_25_is_refused_with_a_reason(saves: Path) -> None:
    heroquest_duel(saves)
    app = new_app(saves, "Duel")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "2", "5")
        assert "[ 2]" in keypad(app)  # the 5 is not taken...
        assert "no face 25" in keypad(app)  # ...and the keypad says why
        assert any("no face 25" in n for n in notices(app))
        await keys(pilot, "1")
        assert "no face 21" in keypad(app)
        await keys(pilot, "0")  # 20 is a face: taken, and the Ghoul rolls next
        assert "[20]" in keypad(app) and "no face" not in keypad(app)
        await keys(pilot, "0")
        assert "no face 0" in keypad(app)
        await keys(pilot, "9")
        assert "[ 9]" in keypad(app)
        await keys(pilot, "4")  # both have rolled: a third d20 has nowhere to go
        assert "typed already" in keypad(app)
        await keys(pilot, "enter")
        # 20 on 15 fails (a fumble on a 20), 9 on 13 succeeds: the Ghoul wins.
        assert "Exchange 1: Ghoul wins" in text(app, "#log")


async def test_a_d100_digit_that_makes_no_face_is_refused_with_a_reason(saves: Path) -> None:
    seed_campaign(
        saves,
        "Knives",
        "forge",
        [
            Character(name="Ana", ratings={"Knife": 60}),
            Character(name="Bo", kind="npc", ratings={"Knife": 40}),
        ],
        [
            Pick(character="Ana", side="Ana", rating="Knife"),
            Pick(character="Bo", side="Bo", rating="Knife"),
        ],
    )
    app = new_app(saves, "Knives")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "0")  # a d100's tens die: 0 then 5 is 5 (issue 24, item 12)
        assert "no face" not in keypad(app) and "[  0]" in keypad(app)
        await keys(pilot, "backspace", "1", "0", "5")
        assert "no face 105" in keypad(app)
        assert any("no face 105" in n for n in notices(app))
        await keys(pilot, "0")  # 100 is a face
        assert "[100]" in keypad(app)


async def test_a_digit_on_fate_dice_and_a_fifth_die_are_refused_with_a_reason(
    saves: Path,
) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "3")
        assert "Fate dice show +, - or 0" in keypad(app)
        await keys(pilot, *DICE, "plus")
        assert "All four Fate dice are typed" in keypad(app)
        assert exchanges(app) == 0


# -- defect 9: q asks before losing what is on the keypad ---------------------------------
async def test_q_with_dice_typed_asks_and_no_keeps_them(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "plus", "minus", "0", "q")
        assert isinstance(app.screen, ConfirmScreen)
        assert "Cynere rolled +-0" in text(app, "#dialog")
        await keys(pilot, "n")
        assert isinstance(app.screen, ContestScreen)
        assert "[+][-][0][ ]" in keypad(app)
        await keys(pilot, "ctrl+q")  # the app's own quit key asks too
        assert isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "escape")
        assert "[+][-][0][ ]" in keypad(app)
        await keys(pilot, "0")  # the keypad still works: Cynere's fourth die
        assert "[+][-][0][0]" in keypad(app)
        await keys(pilot, "q", "y")
        assert app.return_code is not None  # quit on yes


async def test_q_with_an_invoke_waiting_asks_and_enter_quits(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *DICE, *INVOKE, "q")
        assert isinstance(app.screen, ConfirmScreen)
        assert "Invoke: Cynere · I've Got Zird's Back (1 FP)" in text(app, "#dialog")
        await keys(pilot, "enter")
        assert app.return_code is not None  # it quit


async def test_q_with_nothing_typed_quits_at_once(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *DICE, "enter", "q")  # committed: nothing left on the keypad
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.return_code is not None  # it quit


async def test_the_keypad_is_kept_while_the_gm_is_on_the_roster_or_the_campaigns(
    saves: Path,
) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *DICE, *INVOKE, "w")
        assert not isinstance(app.screen, ContestScreen)
        await keys(pilot, "escape")
        assert "[0][0][0][0]" in keypad(app) and "Invoke: Cynere" in keypad(app)
        await keys(pilot, "c")  # the campaigns: q there asks about the kept keypad
        assert not isinstance(app.screen, ContestScreen)
        await keys(pilot, "q")
        assert isinstance(app.screen, ConfirmScreen)
        assert "Cynere rolled 0000" in text(app, "#dialog")
        assert "Invoke: Cynere · I've Got Zird's Back" in text(app, "#dialog")
        await keys(pilot, "n")
        assert app.return_code is None  # it did not quit


async def test_q_during_a_correction_asks(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *DICE, "enter", "C", "enter", "q")
        assert isinstance(app.screen, ConfirmScreen)
        assert "a correction of exchange 1" in text(app, "#dialog")
        await keys(pilot, "escape")
        screen = app.screen
        assert isinstance(screen, ContestScreen) and screen.correcting is not None
