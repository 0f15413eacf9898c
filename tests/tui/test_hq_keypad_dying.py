"""HeroQuest's keypad in a chained contest: a participant a complete defeat left dying is
offered no dice, and the participants pane and the keypad say so (play5, item 1).

Rules §2.6 (the table's last row): a complete defeat leaves the loser Dying, "no
actions"; §2.9: a chained contest repeats simple contests between the parties until one
leaves. §2.3: ratings of 15; a 1 is a critical, a 20 a fumble; critical against fumble is
three levels apart, a complete victory (5 RP, §2.7's table)."""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Character
from core.campaign.sheet import Pick
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text
from tui.app import TussleApp
from tui.screens.contest import ContestScreen


def chain(saves: Path, names: tuple[str, ...]) -> TussleApp:
    """A chained contest of ``names`` (rating 15 each), each on a side of their own."""
    seed_campaign(
        saves,
        "Crypt",
        "heroquest",
        [Character(name=n, ratings={"Sword": 15}) for n in names],
        [Pick(character=n, side=n, rating="Sword") for n in names],
        {"chained": True},
    )
    return new_app(saves, "Crypt")


def rollers(app: TussleApp) -> list[str]:
    screen = app.screen
    assert isinstance(screen, ContestScreen)
    return screen.keypad.slots()


async def test_a_dying_party_is_not_asked_for_dice_and_is_marked(saves: Path) -> None:
    app = chain(saves, ("Hero", "Foe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "1", "tab", "2", "0", "enter")  # critical v fumble: complete
        await settle(pilot)
        assert "Foe dying" in text(app, "#log")
        # Foe is dying: no actions. The keypad asks only Hero for dice, the Foe's row and
        # the pane say why; with nobody else to name, leaving is what is left.
        assert rollers(app) == ["Hero"]
        pad = text(app, "#keypad")
        assert "dying: no actions, no roll" in pad, pad
        assert "Foe is dying: no actions (rules §2.6); l leaves the chain" in pad, pad
        assert "dying: no actions" in text(app, "#participants")
        # r rolls for the current roller, R for all: never for the Foe.
        await keys(pilot, "R")
        assert "Foe" not in screen_typed(app)


def screen_typed(app: TussleApp) -> dict[str, str]:
    screen = app.screen
    assert isinstance(screen, ContestScreen)
    return {who: typed for who, typed in screen.draft.typed.items() if typed}


async def test_with_others_to_name_the_keypad_says_so(saves: Path) -> None:
    app = chain(saves, ("Hero", "Foe", "Rival"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "p", "enter")  # the form's first and last: Hero and Rival
        await settle(pilot)
        await keys(pilot, "1", "tab", "2", "0", "enter")  # Rival dying
        await settle(pilot)
        assert rollers(app) == ["Hero"]
        pad = text(app, "#keypad")
        assert "Rival is dying: no actions (rules §2.6); p names two others, or l leaves" in pad


async def test_a_state_earned_in_the_chain_is_marked_for_after_it(saves: Path) -> None:
    # A marginal defeat (§2.3: two successes, 10 beats 12 on the lower roll) leaves the
    # Foe hurt (§2.6); in a chain it changes no later target (scenario.md's targets),
    # so the pane says it is for after the chain, and the keypad still shows vs 15.
    app = chain(saves, ("Hero", "Foe"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "1", "0", "1", "2", "enter")
        await settle(pilot)
        assert "hurt after the chain" in text(app, "#participants")
        assert "Foe" in text(app, "#keypad") and "vs 15" in text(app, "#keypad")
