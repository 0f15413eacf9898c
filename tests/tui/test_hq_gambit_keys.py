"""HeroQuest's keys for risky gambits (x), defensive responses (f) and group boosts (B).

Values from rules §2.8.4-5 and §2.7.4: the resolution point table is marginal 1, minor 2,
major 3, complete 5.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.heroquest.character import HeroQuestCharacter
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text, write
from tui.screens.forms import FormScreen
from tui.widgets.choice import Choice


def duel(saves: Path, extended: bool) -> None:
    seed_campaign(
        saves,
        "Duel",
        "heroquest",
        [
            Character(name="Hero", ratings={"Sword": 15}, sheet=HeroQuestCharacter(hero_points=1)),
            Character(name="Foe", kind="npc", ratings={"Claws": 15}),
        ],
        [
            Pick(character="Hero", side="Hero", rating="Sword"),
            Pick(character="Foe", side="Foe", rating="Claws"),
        ],
        {"extended": extended},
    )


async def test_a_gambit_and_a_defensive_response_change_the_points_lodged(saves: Path) -> None:
    duel(saves, extended=True)
    app = new_app(saves, "Duel")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Hero gambles (the form offers the keypad's current roller, Hero). Hero 3, Foe 8
        # against 15: both succeed, the low roll wins: marginal, 1 RP, +1 for the gamble.
        await keys(pilot, "x", "enter")
        assert "Risky gambit: Hero" in text(app, "#keypad")
        await keys(pilot, "3", "8")
        assert "Hero would win: marginal (2 RP)" in text(app, "#keypad")
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "Exchange 1: Hero wins, marginal (2 RP)" in log
        assert "Hero makes a risky gambit" in log
        # Foe responds defensively (→ picks Foe) and loses marginally: 1 - 1 = 0 RP.
        await keys(pilot, "f", "right", "enter")
        assert "Defensive: Foe" in text(app, "#keypad")
        await keys(pilot, "3", "8", "enter")
        log = text(app, "#log")
        assert "Exchange 2: Hero wins, marginal (0 RP)" in log
        assert "Foe responds defensively" in log
        assert "Hero  ●●○○○ 2 RP" in text(app, "#scoreboard")


async def test_no_gambit_outside_an_extended_contest(saves: Path) -> None:
    duel(saves, extended=False)
    app = new_app(saves, "Duel")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "x")
        await keys(pilot, "f")
        assert "Risky gambit" not in text(app, "#keypad")
        assert "Defensive" not in text(app, "#keypad")
        # No form opened: the keypad still takes the dice.
        await keys(pilot, "3", "8", "enter")
        # A simple contest: no resolution points to name (they count in a chain, §2.8).
        assert "Exchange 1: Hero wins, marginal\n" in text(app, "#log")


async def test_a_group_boost_turns_a_tie_into_a_win(saves: Path) -> None:
    seed_campaign(
        saves,
        "Graveyard",
        "heroquest",
        [
            Character(
                name="Tripitaka", ratings={"Sword": 15}, sheet=HeroQuestCharacter(hero_points=1)
            ),
            Character(name="Sandy", ratings={"Staff": 15}, sheet=HeroQuestCharacter(hero_points=2)),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 15}),
        ],
        [
            Pick(character="Tripitaka", side="Heroes", rating="Sword"),
            Pick(character="Sandy", side="Heroes", rating="Staff"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
    )
    app = new_app(saves, "Graveyard")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Before any pairs, a boost is refused at once (no form).
        await keys(pilot, "B")
        assert "Group boost" not in text(app, "#keypad")
        # Tripitaka 3 v Ghoul 8: Heroes 1 RP; Sandy 8 v Ghoul 3: Ghouls 1 RP: a tie.
        await keys(pilot, "G")
        await write(pilot, "Tripitaka v Ghoul 3 8, Sandy v Ghoul 8 3")
        await keys(pilot, "enter")
        # The Heroes' boost (2 of them: 1 hero point), paid by whoever has the most: Sandy.
        await keys(pilot, "B", "enter")
        assert "Group boost for Heroes: paid by Sandy 1" in text(app, "#keypad")
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "Heroes win, marginal (1 RP)" in log
        assert "Heroes boost: +1 level on a tie or a win" in log
        assert "Sandy  HP 1" in text(app, "#participants")


async def test_a_boost_paid_in_words_names_the_word(saves: Path) -> None:
    """Who pays a group boost is a member of the side and a whole number of hero points
    (rules §2.7.4: one hero point per three members, paid by any of them): "Tripitaka
    lots" is refused for "lots", not as a participant called "Tripitaka lots"; the form
    stays with what was typed."""
    seed_campaign(
        saves,
        "Graveyard",
        "heroquest",
        [
            Character(
                name="Tripitaka", ratings={"Sword": 15}, sheet=HeroQuestCharacter(hero_points=1)
            ),
            Character(name="Sandy", ratings={"Staff": 15}, sheet=HeroQuestCharacter(hero_points=2)),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 15}),
        ],
        [
            Pick(character="Tripitaka", side="Heroes", rating="Sword"),
            Pick(character="Sandy", side="Heroes", rating="Staff"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
    )
    app = new_app(saves, "Graveyard")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "G")
        await write(pilot, "Tripitaka v Ghoul 3 8, Sandy v Ghoul 8 3")
        await keys(pilot, "enter", "B")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#f-paid").focus()
        await write(pilot, "Tripitaka lots")
        await keys(pilot, "enter")
        assert app.screen is form
        said = str(form.query_one("#e-paid", Static).visual)
        assert 'Tripitaka pays "lots"' in said and "whole number" in said, said
        assert "no participant" not in said
        assert form.answers()["paid"] == "Tripitaka lots"


async def test_a_gambit_and_a_hero_point_offer_the_exchanges_parties(saves: Path) -> None:
    """A risky gambit is declared by a party to the exchange (rules §2.8.4), and a hero
    point bumps the spender's own result (§2.3, 6): with Tripitaka against the Ghoul chosen (p),
    Sandy, on the side but not in this exchange, is not offered (he was, then refused)."""
    seed_campaign(
        saves,
        "Graveyard",
        "heroquest",
        [
            Character(
                name="Tripitaka", ratings={"Sword": 15}, sheet=HeroQuestCharacter(hero_points=1)
            ),
            Character(name="Sandy", ratings={"Staff": 15}, sheet=HeroQuestCharacter(hero_points=2)),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 15}),
        ],
        [
            Pick(character="Tripitaka", side="Tripitaka", rating="Sword"),
            Pick(character="Sandy", side="Sandy", rating="Staff"),
            Pick(character="Ghoul", side="Ghoul", rating="Claws"),
        ],
        {"extended": True},
    )
    app = new_app(saves, "Graveyard")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "p", "enter")  # the form's default: Tripitaka and the Ghoul
        assert "Parties: Tripitaka vs Ghoul" in text(app, "#keypad")
        for key in ("x", "h"):
            await keys(pilot, key)
            form = app.screen
            assert isinstance(form, FormScreen), key
            choice = form.query_one("#f-who", Choice)
            assert [value for _, value in choice.options] == ["Tripitaka", "Ghoul"], key
            await keys(pilot, "escape")


async def test_group_pairs_typed_in_any_case_are_spelled_as_the_contest_does(
    saves: Path,
) -> None:
    """The group form takes names in any case (its label says so); the keypad and the
    command keep the contest's spelling, as the log does: "Tripitaka", not "tripitaka"."""
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
            Pick(character="Tripitaka", side="Heroes", rating="Sword"),
            Pick(character="Sandy", side="Heroes", rating="Staff"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
    )
    app = new_app(saves, "Graveyard")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "G")
        await write(pilot, "tripitaka v GHOUL 3 8, sandy v ghoul 8 3")
        await keys(pilot, "enter")
        assert "Group: Tripitaka–Ghoul 3/8, Sandy–Ghoul 8/3" in text(app, "#keypad")
