"""Issue 13: an injured character's contest of wherewithal (rules §2.6), and an extended
contest's write-back taking the engine's consequences, rising action or climactic
(§2.8.6-7). Values worked by hand in the comments, from the rules, not the code."""

from __future__ import annotations

from typing import Any

import pytest

from core.campaign.actions import Campaign
from core.campaign.aftermath import results, summary
from core.campaign.log import AddCharacter, Character, Play, StartContest, WriteBack
from core.campaign.setup import build_contest, describe_options
from core.campaign.sheet import Pick
from core.errors import RuleError
from core.model import ResolveExchange, RollDice
from core.rules.reading import ScenarioError
from core.scenario import resolve
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet
from core.systems.heroquest.extended import climactic
from core.systems.heroquest.resolution import COMPLETE, MAJOR, MARGINAL, MINOR
from core.systems.heroquest.sheet import injured, wherewithal
from core.systems.heroquest.state import HQContest

# HQ2's own example (rules §2.6 [H1], "Bruno the Hook"): injured, and hurt (-3) on
# everything physical. Adrenaline Rush 16 - 3 = 13, he rolls 6: a success; Moderate
# resistance 19 rolls 16: a success too; 6 < 16, the low roll wins a marginal victory.
BRUNO = Character(
    name="Bruno",
    ratings={"Adrenaline Rush": 16, "Hurl Object": 21},
    sheet=HeroQuestCharacter(adversity_of={"Hurl Object": ("injured",)}, adversity=("hurt",)),
)


def test_brunos_contest_of_wherewithal_is_a_marginal_victory_without_the_bump_down() -> None:
    assert injured(BRUNO)
    e = wherewithal(BRUNO, "Adrenaline Rush", 19, 6, 16)
    assert e.targets["Bruno"] == 13  # the hurt counts (§2.6: "hurts ... continue")
    assert (e.winner, e.victory) == ("Bruno", MARGINAL)
    # Had the injury's bump down applied (it must not, §2.3 step 5), Bruno's success
    # would have been a failure against a success: his minor defeat.


def test_a_tie_or_a_defeat_is_no_success() -> None:
    # 13 against 19: both roll 7, both successes, equal rolls: a tie (§2.3 step 7).
    tie = wherewithal(BRUNO, "Adrenaline Rush", 19, 7, 7)
    assert tie.winner is None
    # Bruno rolls 15 (> 13, a failure), the resistance 3 (a success): minor defeat.
    lost = wherewithal(BRUNO, "Adrenaline Rush", 19, 15, 3)
    assert (lost.winner, lost.victory) == ("Resistance", MINOR)


def test_wherewithal_refuses_a_bad_roll_and_a_dying_character() -> None:
    with pytest.raises(RuleError):
        wherewithal(BRUNO, "Adrenaline Rush", 19, 21, 3)
    dying = Character(
        name="D", ratings={"Will": 15}, sheet=HeroQuestCharacter(adversity_of={"Will": ("dying",)})
    )
    with pytest.raises(RuleError, match="dying: no actions"):
        wherewithal(dying, "Will", 14, 3, 3)
    assert not injured(Character(name="Fine", sheet=HeroQuestCharacter(adversity=("hurt",))))


# -- an extended contest's consequences ----------------------------------------------------

ANNA = Character(name="Anna", ratings={"Spear": 15})
BORIS = Character(name="Boris", kind="npc", ratings={"Axe": 15})


def extended(method: str) -> tuple[Campaign, str]:
    """Anna (Spear 15) against Boris (Axe 15), first to 5 resolution points:
    1. Anna 5 (success), Boris 17 (failure): one level, Anna's minor victory, 2 RP.
    2. Anna 10, Boris 5, both successes, the low roll: Boris's marginal victory, 1 RP.
    3. Anna 5 (success), Boris 20 (fumble): two levels, major, 3 RP: Anna has 5, wins.
    Scored against Anna: 1; against Boris: 5."""
    campaign = Campaign(name="T", system="heroquest")
    for c in (ANNA, BORIS):
        campaign.act(AddCharacter(character=c))
    picks = [
        Pick(character="Anna", side="Anna", rating="Spear"),
        Pick(character="Boris", side="Boris", rating="Axe"),
    ]
    opts = {"extended": True, "consequences": method}
    contest = build_contest("heroquest", campaign.roster, picks, opts)
    campaign.act(
        StartContest(title="Duel", contest=contest, uses={"Anna": "Spear", "Boris": "Axe"})
    )
    record = campaign.latest_contest
    assert record is not None
    for a, b in ((5, 17), (10, 5), (5, 20)):
        commands = (
            RollDice(who="Anna", faces=(a,)),
            RollDice(who="Boris", faces=(b,)),
            ResolveExchange(),
        )
        campaign.act(Play(contest_id=record.contest_id, commands=commands))
    state = campaign.contest(record.contest_id).state
    assert state.finished and state.winner == "Anna"
    return campaign, record.contest_id


def test_rising_action_write_back_is_the_engines_final_result() -> None:
    # §2.8.6: difference 5 - 1 = 4: a minor victory, Boris impaired; Anna's benefit +3.
    campaign, cid = extended("rising")
    state = campaign.contest(cid).state
    assert isinstance(state, HQContest)
    assert state.extended_result() == (MINOR, {"Boris": "impaired"})
    assert "Consequences (rising action): minor victory; Boris impaired" in (
        summary(campaign, campaign.contest(cid)).costs
    )
    campaign.act(WriteBack(contest_id=cid))
    assert hq_sheet(campaign.roster["Boris"]).adversity_of == {"Axe": ("impaired",)}
    assert hq_sheet(campaign.roster["Anna"]).benefits == {"Spear": 3}
    assert hq_sheet(campaign.roster["Anna"]).adversity_of == {}


def test_climactic_write_back_counts_what_was_scored_against_each() -> None:
    # §2.8.7: Boris 5 + 1 (a loser) = 6: injured; Anna 1: dazed. The victory level from
    # the second-worst state among the defeated; Boris is the only one: injured, major.
    # Anna's benefit for a major victory: +6 (§2.6). Dazed has no penalty in §2.6: not
    # written to the roster.
    campaign, cid = extended("climactic")
    state = campaign.contest(cid).state
    assert isinstance(state, HQContest)
    assert state.extended_result() == (MAJOR, {"Anna": "dazed", "Boris": "injured"})
    assert "Consequences (climactic): major victory; Anna dazed, Boris injured" in (
        summary(campaign, campaign.contest(cid)).costs
    )
    changed = {c.name: c for c in results(campaign, campaign.contest(cid))}
    assert hq_sheet(changed["Boris"]).adversity_of == {"Axe": ("injured",)}
    assert hq_sheet(changed["Anna"]).benefits == {"Spear": 6}
    assert (
        hq_sheet(changed["Anna"]).adversity_of == {} and hq_sheet(changed["Anna"]).adversity == ()
    )


def test_climactic_takes_the_second_worst_loser() -> None:
    # Losers X (4 scored against, +1 = 5: impaired), Y (7 + 1 = 8: dying), Z (0 + 1 = 1:
    # dazed); the winner W (2: hurt). Worst first 8, 5, 1: the second is impaired, minor.
    level, states = climactic({"X": 4, "Y": 7, "Z": 0, "W": 2}, ["X", "Y", "Z"])
    assert level == MINOR
    assert states == {"X": "impaired", "Y": "dying", "Z": "dazed", "W": "hurt"}
    # 9 or more is dead; a winner with nothing scored against them is unharmed.
    level, states = climactic({"X": 8, "Y": 8, "W": 0}, ["X", "Y"])
    assert (level, states) == (COMPLETE, {"X": "dead", "Y": "dead"})


def test_the_method_is_an_option_the_gm_reads() -> None:
    assert "consequences: climactic" in describe_options(
        "heroquest", {"extended": True, "consequences": "climactic"}
    )
    assert not any("consequences" in line for line in describe_options("heroquest", {}))


def test_a_scenario_cannot_choose_the_climactic_method_nor_name_a_dazed_state() -> None:
    # scenario.md: the climactic method and the wherewithal contest are the dashboard's
    # only; "dazed" is no state of adversity a participant carries (§2.6).
    start: dict[str, Any] = {
        "system": "heroquest",
        "participants": [
            {"name": "A", "side": "A", "rating": 15},
            {"name": "B", "side": "B", "rating": 15},
        ],
        "exchanges": [{"rolls": {"A": 5, "B": 17}}],
    }
    with pytest.raises(ScenarioError) as refused:
        resolve({**start, "options": {"extended": True, "consequences": "climactic"}})
    assert str(refused.value) == "options.consequences: unknown key"
    dazed = {**start["participants"][0], "adversity": ["hurt", "dazed"]}
    with pytest.raises(ScenarioError) as refused:
        resolve({**start, "participants": [dazed, start["participants"][1]]})
    assert str(refused.value).startswith("participants[0].adversity[1]:")
