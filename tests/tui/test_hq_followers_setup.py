"""A follower marked on the HeroQuest setup of a group extended contest (issue 29 item 1):
f on a participant's row makes it a follower of a teammate, and the contest plays it as
one. Values from rules.md §2.3 (1 a critical, up to the target a success, above it a
failure; two levels apart major), §2.7's table (major: 3 resolution points) and HQ2's
Group Extended Contests, Followers ("a follower acting as a contestant is eliminated when
3 RPs are scored against it"; a character only at 5)."""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.saves.store import Saves
from core.systems.heroquest.group_play import HQGroupContest
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text, write
from tests.tui.screen_text import screen_text
from tui.screens.forms import FormScreen
from tui.screens.setup import SetupScreen


def graveyard(saves: Path) -> None:
    seed_campaign(
        saves,
        "Graveyard",
        "heroquest",
        [
            Character(name="Tripitaka", ratings={"Sword": 15}),
            Character(name="Sandy", ratings={"Staff": 15}),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 15}),
        ],
        [
            Pick(character="Tripitaka", side="Tripitaka", rating="Sword"),
            Pick(character="Ghoul", side="Ghoul", rating="Claws"),
        ],
    )


async def test_a_follower_marked_in_the_setup_is_out_at_three_points(saves: Path) -> None:
    graveyard(saves)
    app = new_app(saves, "Graveyard")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n")
        await settle(pilot)
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        # Outside a group extended contest there are no followers to mark.
        await keys(pilot, "a", "tab", "tab")
        await write(pilot, "Heroes")
        await keys(pilot, "enter")
        await settle(pilot)
        await keys(pilot, "f")
        await settle(pilot)
        assert not isinstance(app.screen, FormScreen)
        await keys(pilot, "o", "right", "right", "right", "enter")  # group extended
        await settle(pilot)
        await keys(pilot, "a", "tab", "tab")  # Sandy, the first not yet in
        await write(pilot, "Heroes")
        await keys(pilot, "enter")
        await settle(pilot)
        await keys(pilot, "a", "tab", "tab")  # the Ghoul
        await write(pilot, "Ghouls")
        await keys(pilot, "enter")
        await settle(pilot)
        await keys(pilot, "up")  # Sandy's row
        await keys(pilot, "f")
        await settle(pilot)
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "right", "enter")  # a contestant, following Tripitaka
        await settle(pilot)
        assert "followers: Sandy (contestant, of Tripitaka)" in text(app, "#setup-summary")
        # Changing another option keeps the follower marked.
        await keys(pilot, "o", "tab", "right", "enter")  # ties: the high roll
        await settle(pilot)
        assert "followers: Sandy (contestant, of Tripitaka)" in text(app, "#setup-summary")
        await keys(pilot, "g", "enter")
        await settle(pilot)
        assert "contestant follower of Tripitaka" in text(app, "#participants")
        # E, Tab, →: Sandy (the second of the Heroes) engages the Ghoul.
        await keys(pilot, "E", "tab", "right", "enter")
        await settle(pilot)
        assert "Round 1: Sandy v Ghoul" in text(app, "#keypad")
        # Sandy 16 (a failure against 15) v Ghoul 1 (a critical): two levels apart, the
        # Ghoul's major victory, 3 points against Sandy: a follower fighting as a
        # contestant is out at 3 (a character would stand until 5).
        await keys(pilot, "1", "6", "tab", "1", "enter")
        await settle(pilot)
        assert "Sandy is out of the contest" in text(app, "#log")
    files = Saves(saves).find("Graveyard")
    assert files is not None
    campaign = files.load()
    state = next(r.state for r in campaign.contests.values() if isinstance(r.state, HQGroupContest))
    sandy = state.group_state.member("Sandy")
    assert (sandy.role, sandy.leader, sandy.status) == ("contestant", "Tripitaka", "eliminated")
    assert state.group_state.member("Tripitaka").status == "active"
    assert not state.finished


async def test_a_follower_taken_out_of_the_setup_follows_nobody(saves: Path) -> None:
    """HQ2, Followers: a follower follows a teammate in the contest. Removed from the
    setup (d), Sandy is in no contest, so the options line names no follower; u brings
    her back, marked as she was. Her leader removed, she follows nobody either."""
    graveyard(saves)
    app = new_app(saves, "Graveyard")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n")
        await settle(pilot)
        await keys(pilot, "o", "left", "enter")  # group extended (the last kind)
        await keys(pilot, "a", "tab", "tab")  # Tripitaka
        await write(pilot, "Heroes")
        await keys(pilot, "enter", "a", "tab", "tab")  # Sandy
        await write(pilot, "Heroes")
        await keys(pilot, "enter", "a", "enter")  # the Ghoul, on his own side
        await keys(pilot, "up", "f", "right", "enter")  # Sandy: a contestant of Tripitaka
        await settle(pilot)
        marked = "followers: Sandy (contestant, of Tripitaka)"
        assert marked in text(app, "#setup-summary")
        await keys(pilot, "d")  # Sandy out
        await settle(pilot)
        assert "Sandy" not in text(app, "#setup-summary")
        await keys(pilot, "u")
        await settle(pilot)
        assert marked in text(app, "#setup-summary")
        await keys(pilot, "up", "d")  # Tripitaka out: Sandy follows nobody
        await settle(pilot)
        assert "followers" not in text(app, "#setup-summary")
        await keys(pilot, "u")
        await settle(pilot)
        assert marked in text(app, "#setup-summary")


async def test_f_is_in_the_80_column_footer_where_it_applies(saves: Path) -> None:
    """f marks a follower in a group extended contest only (HQ2, Followers): at 80
    columns the footer shows it there, and not in a simple contest, where it does
    nothing."""
    graveyard(saves)
    app = new_app(saves, "Graveyard")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n")
        await settle(pilot)
        assert "Follower" not in screen_text(app)[-1]
        await keys(pilot, "o", "left", "enter")  # group extended
        await settle(pilot)
        assert "f Follower" in screen_text(app)[-1], screen_text(app)[-1]
        await keys(pilot, "o", "right", "enter")  # back to a simple contest
        await settle(pilot)
        assert "Follower" not in screen_text(app)[-1]


async def test_the_sides_line_says_each_rolls_their_own(saves: Path) -> None:
    """A HeroQuest team's members each roll their own d20 (rules §2.3; a group contest
    pairs them, §2.7): the setup never tells the GM a side makes one roll with
    teamwork, which is Fate's (rules §1.3: "each side produces one roll", §1.4.4)."""
    graveyard(saves)
    app = new_app(saves, "Graveyard")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n")
        await settle(pilot)
        summary = text(app, "#setup-summary").replace("\n", " ")
        assert "same side are a team (each rolls their own)" in summary
        assert "teamwork" not in summary
