"""A HeroQuest group extended contest on the dashboard (issue 29 item 1): E engages
pairings (and assists, shoots, removes a follower) between exchanges, the keypad takes
the current pairing's dice and says who plays next, l has a party of the pairing try to
disengage. Values from rules.md §2.3 (1 a critical, up to the target a success, above it a
failure; one level apart minor), §2.7's table (minor 2) and HQ2's Group Extended
Contests (−3 for each further exchange of the round against an opponent still engaging
you, −5 instead when countering a disengagement while engaged elsewhere; a disengager's
win scores nothing and takes it out of the contest)."""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.saves.store import Saves
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet
from core.systems.heroquest.group_play import HQGroupContest
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text
from tui.screens.forms import FormScreen


def graveyard(saves: Path) -> None:
    seed_campaign(
        saves,
        "Graveyard",
        "heroquest",
        [
            Character(
                name="Tripitaka", ratings={"Sword": 15}, sheet=HeroQuestCharacter(hero_points=1)
            ),
            Character(name="Sandy", ratings={"Staff": 15}),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 15}),
        ],
        [
            Pick(character="Tripitaka", side="Heroes", rating="Sword"),
            Pick(character="Sandy", side="Heroes", rating="Staff"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
        {"group_extended": True},
    )


async def test_engage_play_a_round_and_disengage_by_keys(saves: Path) -> None:
    graveyard(saves)
    app = new_app(saves, "Graveyard")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Nobody engaged to play: E engages a pairing" in text(app, "#keypad")
        # E, Enter: the form's first (Tripitaka) engages the first on the other side.
        await keys(pilot, "E", "enter")
        await settle(pilot)
        # E again: Sandy (one to the right of Tripitaka) engages the Ghoul.
        await keys(pilot, "E", "tab", "right", "enter")
        await settle(pilot)
        pad = text(app, "#keypad")
        assert "Round 1: Tripitaka v Ghoul · then: Sandy v Ghoul" in pad
        # Tripitaka 1 (critical) v Ghoul 10 (success): minor, 2 against the Ghoul.
        await keys(pilot, "1", "tab", "1", "0")
        assert "Tripitaka would win: minor (2 RP) · then: Sandy v Ghoul" in text(app, "#keypad")
        await keys(pilot, "enter")
        await settle(pilot)
        assert "Exchange 1, round 1: Tripitaka v Ghoul: Tripitaka wins, minor" in text(app, "#log")
        # Sandy tries to disengage (l, Sandy the current roller): the Ghoul, still engaged
        # with Tripitaka, counters at 15 - 5 = 10.
        await keys(pilot, "l", "enter")
        pad = text(app, "#keypad")
        assert "Sandy tries to disengage" in pad and "vs 10" in pad
        # Sandy 1 (critical) v Ghoul 10 (success, at 10): Sandy's minor win, no points.
        await keys(pilot, "1", "tab", "1", "0", "enter")
        await settle(pilot)
        log = text(app, "#log")
        assert "Sandy v Ghoul: Sandy wins, minor (0 RP)" in log
        assert "Sandy disengages" in log
        # Round 2 begins with the one pairing left.
        assert "Round 2: Tripitaka v Ghoul · then: none" in text(app, "#keypad")
        # An assist by Tripitaka, who is engaged, is refused in the form, kept open.
        await keys(pilot, "E", "right", "enter")
        await settle(pilot)
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "escape")
        await settle(pilot)
        # Round 2: Tripitaka 1 (critical) v Ghoul 20 (fumble): complete, 5: 7 against the
        # Ghoul from Tripitaka, out; nobody stands for it: the Heroes win.
        await keys(pilot, "1", "tab", "2", "0", "enter")
        await settle(pilot)
        assert "Ghoul is out of the contest" in text(app, "#log")
    files = Saves(saves).find("Graveyard")  # quit, and read back: as it was left
    assert files is not None
    campaign = files.load()
    (record,) = campaign.contests.values()
    state = record.state
    assert isinstance(state, HQGroupContest)
    assert (state.finished, state.winner) == (True, "Heroes")
    assert state.group_state.member("Sandy").status == "disengaged"
    assert state.group_state.engagements[0].against_b == 7
    # Written back (rising action on the engagement that felled it, 7 - 0: complete, the
    # Ghoul dying; Tripitaka's complete victory: +9 on the Sword, §2.6); Sandy, who
    # disengaged, nothing.
    sheets = {n: hq_sheet(c) for n, c in campaign.roster.items()}
    assert sheets["Ghoul"].adversity_of == {"Claws": ("dying",)}
    assert sheets["Tripitaka"].benefits == {"Sword": 9}
    assert not sheets["Sandy"].benefits and not sheets["Sandy"].adversity_of
