"""Issue 13 on the dashboard, by keys only: the GM marks abilities related on the roster,
setup says which states apply to the ability chosen, and an injured participant's contest
of wherewithal comes before the contest (rules §2.6)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet
from core.systems.heroquest.state import HQContest
from tests.helpers import wait_for_odds
from tests.tui.conftest import keys, new_app, seed_campaign, text, write
from tui.app import TussleApp
from tui.screens.forms import FormScreen
from tui.screens.roster import RosterScreen
from tui.screens.setup import SetupScreen

FOE = Character(name="Foe", kind="npc", ratings={"Claws": 15})


def seed(saves: Path, kai: Character) -> str:
    seed_campaign(
        saves,
        "Road",
        "heroquest",
        [kai, FOE],
        [
            Pick(character="Kai", side="Kai", rating="Lore"),
            Pick(character="Foe", side="Foe", rating="Claws"),
        ],
    )
    return "Road"


def row(app: TussleApp, i: int) -> str:
    table = app.screen.query_one(DataTable)
    return " | ".join(str(c) for c in table.get_row_at(i))


async def new_setup(pilot: Pilot[None]) -> SetupScreen:
    await wait_for_odds(pilot)
    await keys(pilot, "n")
    assert isinstance(pilot.app.screen, SetupScreen)
    return pilot.app.screen


async def test_the_gm_marks_dance_related_to_sword_and_setup_shows_the_hurt(saves: Path) -> None:
    kai = Character(
        name="Kai",
        ratings={"Sword": 15, "Dance": 15, "Lore": 15},
        sheet=HeroQuestCharacter(adversity_of={"Sword": ("hurt",)}),
    )
    app = new_app(saves, seed(saves, kai))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_odds(pilot)
        await keys(pilot, "w")
        assert isinstance(app.screen, RosterScreen)
        # Name, kind, abilities, hero points, vitality, adversity, benefits, related.
        await keys(pilot, "e", *["tab"] * 7)
        await write(pilot, "Sword:")  # no related ability named: refused, form kept
        await keys(pilot, "enter")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert "write an ability, a colon" in str(form.query_one("#e-related", Static).visual)
        await write(pilot, " dance")
        await keys(pilot, "enter")
        assert isinstance(app.screen, RosterScreen)
        assert hq_sheet(app.campaign.roster["Kai"]).related == {
            "Sword": ("Dance",)
        }  # spelled as on the sheet
        assert hq_sheet(app.campaign.roster["Kai"]).adversity_of == {"Sword": ("hurt",)}
        assert "Sword hurt · related Sword: Dance" in row(app, 0)
        await keys(pilot, "escape")
        setup = await new_setup(pilot)
        # Kai rolling Dance (his second ability): the hurt from Sword applies, -3.
        await keys(pilot, "a", "tab", "right", "enter")
        assert setup.picks[0] == Pick(character="Kai", side="Kai", rating="Dance")
        assert "Dance 15 · hurt -3" in row(app, 0)
        # Lore is not related: nothing applies, nothing is said.
        await keys(pilot, "d", "a", "tab", "right", "right", "enter")
        assert row(app, 0).endswith("Lore 15")


async def test_an_injured_participant_rolls_wherewithal_before_the_contest(saves: Path) -> None:
    kai = Character(
        name="Kai",
        ratings={"Sword": 15, "Endurance": 16, "Lore": 15},
        sheet=HeroQuestCharacter(adversity_of={"Sword": ("injured",)}),
    )
    app = new_app(saves, seed(saves, kai))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await new_setup(pilot)
        await keys(pilot, "a", "enter")  # Kai, Sword
        await keys(pilot, "a", "right", "enter")  # the Foe, Claws
        assert "Sword 15 · injured: 1 bump down" in row(app, 0)
        # g: Kai is injured, so the contest of wherewithal comes first. Endurance 16
        # against Moderate 14 (session 1, rules §2.5): Kai rolls 6 (a success), the
        # resistance 16 (a failure): one level apart, Kai's minor victory: he takes part.
        await keys(pilot, "g")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.form_title.startswith("Kai is injured: a contest of wherewithal")
        await keys(pilot, "right", "tab")  # Endurance; the resistance stays 14
        assert form.answers()["ability"] == "Endurance"
        assert form.answers()["resistance"] == "14"
        await keys(pilot, "tab")
        await write(pilot, "6")
        await keys(pilot, "tab")
        await write(pilot, "16")
        await keys(pilot, "enter")
        assert "Kai" in setup.cleared
        assert any("minor victory (may take part)" in n for n in setup.notes)
        # Then the title, as always; the contest starts with Kai in it.
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "enter")
        latest = app.campaign.latest_contest
        assert latest is not None and isinstance(latest.state, HQContest)
        assert [p.name for p in latest.state.participants] == ["Kai", "Foe"]
        assert latest.state.hq_participant("Kai").bumps_down == 1  # Sword is injured


async def test_a_failed_wherewithal_keeps_the_character_out(saves: Path) -> None:
    kai = Character(
        name="Kai", ratings={"Sword": 15}, sheet=HeroQuestCharacter(adversity=("injured",))
    )
    app = new_app(saves, seed(saves, kai))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await new_setup(pilot)
        await keys(pilot, "a", "enter", "a", "right", "enter")
        # w on Kai's row (the first: the highlight is on the one just added): Sword 15
        # against 14; Kai rolls 18 (a failure), the resistance 3 (a success): Kai's minor
        # defeat. He is out of this contest.
        await keys(pilot, "up", "w")
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "tab", "tab")
        await write(pilot, "18")
        await keys(pilot, "tab")
        await write(pilot, "3")
        await keys(pilot, "enter")
        assert [p.character for p in setup.picks] == ["Foe"]
        assert "Kai's wherewithal: Sword at 15 rolled 18 against 14 rolled 3: minor defeat" in (
            text(app, "#setup-summary")
        )
        # A roll that is no d20 is refused on its field; Escape leaves the setup as it was.
        await keys(pilot, "a", "enter", "g")
        await keys(pilot, "tab", "tab")
        await write(pilot, "21")
        await keys(pilot, "enter")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert "1 to 20" in str(form.query_one("#e-roll", Static).visual)
        await keys(pilot, "escape")
        assert app.screen is setup
        assert [p.character for p in setup.picks] == ["Foe", "Kai"]
        # w on the Foe (not injured) says so.
        await keys(pilot, "up", "w")
        assert app.screen is setup
