"""The modifier form (``m``) offers FORGE's distance steps by name, still free to take a
number typed (issue 29 item 4). Values from rules.md §3.4 "Distance" [I11]: 51-75 yd is
-40, and the last step, suicide range, +100; §3.2: a modifier changes the target."""

from __future__ import annotations

from pathlib import Path

from core.rules import find_system
from core.saves.store import Saves
from tests.tui.conftest import forge_alley, keys, settle, text
from tui.screens.forms import FormScreen

RIGHTS_TO_51_75 = ("right",) * 3  # none, within 25 yd, 26-50 yd, 51-75 yd


async def test_a_distance_preset_by_keys_is_named_on_the_keypad_and_in_the_log(
    saves: Path,
) -> None:
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "m", "tab", "tab", *RIGHTS_TO_51_75, "enter")
        assert not isinstance(app.screen, FormScreen)
        assert "Modifier: Josef -40 (distance 51-75 yd)" in text(app, "#keypad")
        # Josef's target 50 - 40 = 10: his 35 is over it, the stage is Bobby's (§3.3).
        await keys(pilot, "3", "5", "enter")
        log = text(app, "#log")
        assert "Josef attacks vs 10 (distance 51-75 yd -40): 35 ✗, over" in log
    files = Saves(saves).find("Alley")  # quit, and read it back: the named stage is saved
    assert files is not None
    (record,) = files.load().contests.values()
    (stage,) = record.exchanges
    lines = find_system("forge").describe(stage)
    assert "  Josef attacks vs 10 (distance 51-75 yd -40): 35 ✗, over" in lines


async def test_the_last_step_is_offered(saves: Path) -> None:
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "m", "tab", "tab", "left", "enter")  # ← from none: the last
        assert "Modifier: Josef +100 (distance suicide)" in text(app, "#keypad")


async def test_a_number_beside_a_different_preset_is_refused_with_everything_kept(
    saves: Path,
) -> None:
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "m", "tab", "minus", "2", "0", "tab", *RIGHTS_TO_51_75, "enter")
        assert isinstance(app.screen, FormScreen)
        assert "distance 51-75 yd is -40" in text(app, "#e-value")
        assert app.screen.answers()["value"] == "-20"
        await keys(pilot, "escape")
        assert "Modifier" not in text(app, "#keypad")


async def test_numbers_a_gm_types_zero_minus_huge(saves: Path) -> None:
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "m", "tab", "enter")  # nothing typed, no preset
        assert isinstance(app.screen, FormScreen)
        assert "type a modifier" in text(app, "#e-value")
        await keys(pilot, "minus", "enter")  # a minus alone
        assert "not a whole number" in text(app, "#e-value")
        await keys(pilot, "backspace", *"9" * 30, "enter")  # huge
        assert isinstance(app.screen, FormScreen)
        assert "at most" in text(app, "#e-value")
        await keys(pilot, *["backspace"] * 30, "0", "enter")  # zero changes nothing: refused
        assert isinstance(app.screen, FormScreen)
        assert "must not be 0" in text(app, "#e-value")
        await keys(pilot, "backspace", "minus", "5", "enter")
        assert not isinstance(app.screen, FormScreen)
        assert "Modifier: Josef -5" in text(app, "#keypad")
