"""How a Fate contest's result and odds read (issue 11, defect 12), worked by hand.

Teran (the second side) beats Cynere 3 victories to 2: the result names the winner's count
first. An extra +2 that changes nothing the GM reads (a side already at 100%) is not offered.
"""

from __future__ import annotations

from core.campaign.actions import Campaign
from core.campaign.aftermath import summary
from core.campaign.log import AddCharacter, Character, Play, StartContest
from core.campaign.recap import recap_markdown
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.model import Command, ResolveExchange, RollDice
from core.odds.report import odds_for, odds_text
from core.systems.fate.rules import FATE
from core.systems.fate.state import FateContest, FateParticipant, new_contest

F = {"+": 1, "0": 0, "-": -1}


def dice(text: str) -> tuple[int, ...]:
    return tuple(F[ch] for ch in text)


def race() -> Campaign:
    campaign = Campaign(name="Wording", system="fate")
    campaign.act(AddCharacter(character=Character(name="Cynere", ratings={"Athletics": 4})))
    teran = Character(name="Teran the Swift", kind="npc", ratings={"Lore": 4})
    campaign.act(AddCharacter(character=teran))
    picks = [
        Pick(character="Cynere", side="Cynere", rating="Athletics"),
        Pick(character="Teran the Swift", side="Teran the Swift", rating="Lore"),
    ]
    contest = build_contest("fate", campaign.roster, picks, {}, ())
    campaign.act(StartContest(title="The race", contest=contest))
    return campaign


def exchange(campaign: Campaign, cynere: str, teran: str) -> None:
    commands: tuple[Command, ...] = (
        RollDice(who="Cynere", faces=dice(cynere)),
        RollDice(who="Teran the Swift", faces=dice(teran)),
        ResolveExchange(),
    )
    campaign.act(Play(contest_id="c1", commands=commands))


def two_all() -> Campaign:
    """Both at +4: Cynere wins by 1 twice (2–0), Teran by 1 twice (2–2)."""
    campaign = race()
    exchange(campaign, "+000", "0000")
    exchange(campaign, "+000", "0000")
    exchange(campaign, "0000", "+000")
    exchange(campaign, "0000", "+000")
    return campaign


def test_the_winners_count_comes_first_in_the_summary_and_the_recap() -> None:
    campaign = two_all()
    exchange(campaign, "0000", "+000")  # Teran's third victory: 3 to Cynere's 2
    record = campaign.contest("c1")
    assert record.state.winner == "Teran the Swift"
    assert summary(campaign, record).result == "Teran the Swift won, 3 victories to 2"
    assert "**Result:** Teran the Swift won, 3 victories to 2" in recap_markdown(campaign)


def test_a_contest_not_over_names_each_sides_count() -> None:
    campaign = two_all()
    result = summary(campaign, campaign.contest("c1")).result
    assert result == "Not over yet (victories: Cynere 2, Teran the Swift 2)"


def sure_win() -> FateContest:
    """Cynere's dice are in at +8 and Teran's at -1: Cynere wins this exchange for sure."""
    contest = new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4),
            FateParticipant(name="Teran", side="Teran", skill=3),
        ]
    )
    for side, faces in (("Cynere", "++++"), ("Teran", "----")):
        [rolled] = FATE.decide(contest, RollDice(who=side, faces=dice(faces)))
        contest = FATE.evolve(contest, rolled)
    assert (contest.total("Cynere"), contest.total("Teran")) == (8, -1)
    return contest


def test_tussle_odds_offers_no_plus_two_that_changes_nothing() -> None:
    text = odds_text(odds_for(sure_win()))
    assert "Cynere  win 100.0%" in text
    assert "with one more +2" not in text  # 100% stays 100%; Teran's 0% stays 0%


def test_tussle_odds_still_offers_a_plus_two_that_matters() -> None:
    # Before the dice, Cynere (+4) beats Teran (+3) when her 4dF minus his is 0 or more;
    # with +2, when it is -2 or more: a higher chance, so the line is there.
    contest = new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4),
            FateParticipant(name="Teran", side="Teran", skill=3),
        ]
    )
    assert "with one more +2" in odds_text(odds_for(contest))
