"""Issue 24, item 6: HeroQuest's augment base follows the sessions played, and HQ2's
optional rule waives the injury's bump down after a major or complete victory in the
contest of wherewithal.

Rules §2.5, HQ2 base values by sessions played: the augment resistance is 14 + (k - 1) // 2
with k = ceil(sessions / 2): 14 in sessions 1-4, 15 in 5-6, 16 in sessions 9-10.
Rules §2.6: an injured character takes an automatic bump down on related uses, and must
win a contest of wherewithal against Moderate (13 + k: 18 in session 9) to take part."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from core.campaign.actions import Campaign
from core.campaign.log import ChangeSettings, Character
from core.campaign.sheet import Pick
from core.saves.store import Saves
from core.systems.heroquest.character import HeroQuestCharacter
from core.systems.heroquest.state import HQContest
from tests.helpers import act, wait_for_odds
from tests.tui.conftest import keys, new_app, seed_campaign, write
from tui.screens.forms import FormScreen
from tui.screens.setup import SetupScreen

FOE = Character(name="Foe", kind="npc", ratings={"Claws": 15})
KAI = Character(
    name="Kai",
    ratings={"Sword": 15, "Endurance": 20},
    sheet=HeroQuestCharacter(adversity_of={"Sword": ("injured",)}),
)


def seed(saves: Path, sessions: int) -> str:
    """Kai (Sword 15, injured; Endurance 20) and a Foe, in session ``sessions``."""
    seed_campaign(
        saves,
        "Road",
        "heroquest",
        [KAI, FOE],
        [
            Pick(character="Foe", side="Foe", rating="Claws"),
            Pick(character="Kai", side="Kai", rating="Endurance"),
        ],
    )
    files = Saves(saves).find("Road")
    assert files is not None
    campaign: Campaign = files.load()
    act(campaign, files, ChangeSettings(changes={"sessions": sessions}))
    return "Road"


async def setup_kai_and_foe(pilot: Pilot[None]) -> SetupScreen:
    await wait_for_odds(pilot)
    await keys(pilot, "n")
    setup = pilot.app.screen
    assert isinstance(setup, SetupScreen)
    await keys(pilot, "a", "enter")  # Kai, Sword (his first ability)
    await keys(pilot, "a", "right", "enter")  # the Foe, Claws
    return setup


async def wherewithal(pilot: Pilot[None], roll: str, resistance_roll: str) -> None:
    """Endurance (Kai's second ability) against the Moderate resistance offered."""
    assert isinstance(pilot.app.screen, FormScreen)
    await keys(pilot, "right", "tab", "tab")
    await write(pilot, roll)
    await keys(pilot, "tab")
    await write(pilot, resistance_roll)
    await keys(pilot, "enter")


async def test_the_augment_base_is_the_tables_for_the_sessions_played(saves: Path) -> None:
    app = new_app(saves, seed(saves, 9))
    async with app.run_test(size=(80, 24)) as pilot:
        await setup_kai_and_foe(pilot)
        # g: Kai's wherewithal first: Endurance 20 rolls 2 (a success) against Moderate
        # 18 rolling 19 (a failure): a minor victory, he takes part; then the title.
        await keys(pilot, "g")
        await wherewithal(pilot, "2", "19")
        await keys(pilot, "enter")
        latest = app.campaign.latest_contest
        assert latest is not None and isinstance(latest.state, HQContest)
        assert latest.state.options.augment_base == 16  # session 9: k = 5, 14 + 2
        assert latest.state.hq_participant("Kai").bumps_down == 1  # no waiver asked for


async def test_a_major_wherewithal_victory_waives_the_bump_down_with_the_option(
    saves: Path,
) -> None:
    app = new_app(saves, seed(saves, 1))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await setup_kai_and_foe(pilot)
        # o: the options; the waiver is the last field: yes.
        await keys(pilot, "o")
        form = app.screen
        assert isinstance(form, FormScreen)
        await keys(pilot, "tab", "tab", "tab", "tab", "right", "enter")
        assert setup.options["wherewithal_waiver"] is True
        # g: Endurance 20 rolls 1 (a critical) against Moderate 14 (session 1) rolling
        # 16 (a failure): two levels, a major victory: no bump down this contest.
        await keys(pilot, "g")
        await wherewithal(pilot, "1", "16")
        assert any("major victory (may take part, no bump down)" in n for n in setup.notes)
        await keys(pilot, "enter")
        latest = app.campaign.latest_contest
        assert latest is not None and isinstance(latest.state, HQContest)
        assert latest.state.hq_participant("Kai").bumps_down == 0
        assert latest.state.options.augment_base == 14  # session 1
