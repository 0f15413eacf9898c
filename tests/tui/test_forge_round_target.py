"""With three icons the GM aims an attack in an action beat (issue 29 item 2): ``k`` on
the current row chooses the target among its living opponents; the row and the
scoreboard say so. Figures from rules.md §3.4: every Physical Agility unknown, so beat 4,
an action beat, then beat 5, a reaction beat [I16]; an attack sent in beat 4 lands in the
target's reaction beat, 5 [I17]; damage is the tens digit × the multiplier [I7]: Josef's
35 with ×4 = 12; absorbed with no armor, all 12 go to Trauma [I8]: Ann (Maximum Trauma
30) is left at a Current Trauma of 18, Bobby (pool 20, 5 taken) keeps 15."""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.saves.store import Saves
from core.systems.forge.character import ForgeCharacter
from core.systems.forge.state import ForgeContest
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text
from tui.app import TussleApp
from tui.screens.forms import FormScreen


def three_in_the_alley(saves: Path) -> TussleApp:
    """Josef (Brawling 50, ×4) against Bobby (40, pool 20, 5 taken) and Ann (30, pool
    30), both on the gang's side, in combat."""
    seed_campaign(
        saves,
        "Alley",
        "forge",
        [
            Character(name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4)),
            Character(
                name="Bobby",
                kind="npc",
                ratings={"Brawling": 40},
                sheet=ForgeCharacter(trauma_pool=20, trauma=5),
            ),
            Character(
                name="Ann",
                kind="npc",
                ratings={"Brawling": 30},
                sheet=ForgeCharacter(trauma_pool=30),
            ),
        ],
        [
            Pick(character="Josef", side="Josef", rating="Brawling"),
            Pick(character="Bobby", side="Gang", rating="Brawling"),
            Pick(character="Ann", side="Gang", rating="Brawling"),
        ],
        {"combat": True},
    )
    return new_app(saves, "Alley")


async def test_the_gm_aims_josef_at_ann(saves: Path) -> None:
    app = three_in_the_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "T")
        assert "attacks Bobby vs 50%" in text(app, "#keypad")  # the default: the first
        await keys(pilot, "k")  # Josef's row (the cursor's): whom he attacks
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "a", "enter")  # Ann
        assert not isinstance(app.screen, FormScreen)
        keypad = text(app, "#keypad")
        assert "attacks Ann vs 50%" in keypad and "attacks Bobby vs 50%" not in keypad
        await keys(pilot, "3", "5")
        assert "Josef hits Ann" in text(app, "#keypad")  # whom, as aimed
        await keys(pilot, "enter")  # Bobby and Ann let beat 4 go by
        log = text(app, "#log")
        assert "Beat 4: Josef attacks Ann" in log
        assert "  Josef attacks vs 50: 35 ✓, damage 12, lands in beat 5" in log
        assert "dodges 12 vs 30% (blank: absorbs)" in text(app, "#keypad")  # Ann's row
        await keys(pilot, "enter")  # Ann absorbs
        assert "  Ann takes 12: 0 absorbed, 12 trauma" in text(app, "#log")
        participants = text(app, "#participants")
        assert "current trauma 18" in participants and "current trauma 15" in participants
    files = Saves(saves).find("Alley")  # quit, and read it back
    assert files is not None
    (record,) = files.load().contests.values()
    state = record.state
    assert isinstance(state, ForgeContest)
    assert state.trauma.get("Ann") == 12 and state.trauma.get("Bobby", 0) == 0


async def test_a_target_is_a_living_opponent_and_the_last_choice_stands(saves: Path) -> None:
    """The form offers Josef's opponents only; choosing again replaces the choice
    waiting (one attack a beat, [I17]); Esc keeps the one there."""
    app = three_in_the_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "T", "k", "a", "enter", "k", "b", "enter", "k", "escape")
        keypad = text(app, "#keypad")
        assert "attacks Bobby vs 50%" in keypad and "attacks Ann" not in keypad
        assert keypad.count("Target: Josef attacks") == 1
        await keys(pilot, "tab", "k")  # Bobby's row: only Josef to attack
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "escape")


async def test_the_scoreboard_shows_the_round_and_beat(saves: Path) -> None:
    """While a round runs the scoreboard says its round and beat (rules §3.4 [I16]):
    beat 4, then 5 once an attack is on its way; a stage again once it is over."""
    app = three_in_the_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Stage 1" in text(app, "#scoreboard")
        await keys(pilot, "T")
        board = text(app, "#scoreboard")
        assert "Round 1 · beat 4" in board and "Stage" not in board
        await keys(pilot, "3", "5", "enter")
        assert "Round 1 · beat 5" in text(app, "#scoreboard")
        await keys(pilot, "E")
        board = text(app, "#scoreboard")
        # The round's attack was no stage: the first stage is still to come.
        assert "Stage 1" in board and "Round" not in board
