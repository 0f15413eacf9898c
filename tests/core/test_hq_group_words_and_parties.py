"""Issue 24, item 14: HeroQuest group exchanges and parties.

* A simple group contest's result is its level (rules §2.7: the pairs' points decide a
  group victory level), not "3 resolution points to 0": resolution points are a chain's.
* The log's first line says the group's result; the pairs' points are a line of their own.
* Names in pairs and parties are taken whatever their case when one participant matches.
* With more than two participants, the parties of one exchange stay for the next.

Worked by hand (rules §2.3, §2.7): ratings of 15; a 1 is a critical, a 10 a success.
Pairs Hero v Foe (1, 10) and Ally v Foe (1, 10): two minor victories for the Heroes,
2 points each (the resolution point table): Heroes 4, Foes 0, a difference of 4: a
major group victory (3-4 major), 3 RP."""

from __future__ import annotations

import pytest

from core.campaign.actions import Campaign
from core.campaign.aftermath import summary
from core.campaign.log import AddCharacter, Character, Play, StartContest
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.errors import UnknownName
from core.model import Command, ResolveExchange, RollDice
from core.rules import find_system
from core.systems.heroquest.events import ExchangeResolved, SetPairs, SetParties
from core.systems.heroquest.resolution import MARGINAL
from core.systems.heroquest.state import HQContest, HQParticipant, Pair, new_contest

PICKS = [
    Pick(character="Hero", side="Heroes", rating="Sword"),
    Pick(character="Ally", side="Heroes", rating="Sword"),
    Pick(character="Foe", side="Foes", rating="Claws"),
]


def contest(**options: object) -> tuple[Campaign, str]:
    campaign = Campaign(name="Road", system="heroquest")
    for c in (
        Character(name="Hero", ratings={"Sword": 15}),
        Character(name="Ally", ratings={"Sword": 15}),
        Character(name="Foe", kind="npc", ratings={"Claws": 15}),
    ):
        campaign.act(AddCharacter(character=c))
    built = build_contest("heroquest", campaign.roster, PICKS, options)
    campaign.act(StartContest(title="On the road", contest=built))
    record = campaign.latest_contest
    assert record is not None
    return campaign, record.contest_id


def play(campaign: Campaign, cid: str, *commands: Command) -> None:
    campaign.act(Play(contest_id=cid, commands=(*commands, ResolveExchange())))


def test_a_simple_group_contest_ends_with_its_level_and_says_its_counts_apart() -> None:
    campaign, cid = contest()
    pairs = (
        Pair(a="hero", b="FOE", roll_a=1, roll_b=10),
        Pair(a="Ally", b="foe", roll_a=1, roll_b=10),
    )
    play(campaign, cid, SetPairs(pairs=pairs))
    record = campaign.contest(cid)
    assert record.state.finished
    assert summary(campaign, record).result == "Heroes won (major victory)"
    lines = find_system("heroquest").describe(record.exchanges[0])
    assert lines[0] == "Exchange 1, group: Heroes win, major (3 RP)"
    assert lines[1] == "  Pairs' points: Heroes 4, Foes 0"
    assert "  Hero v Foe: Hero, minor (2 RP)" in lines


def test_the_parties_stay_from_one_exchange_to_the_next() -> None:
    campaign, cid = contest(chained=True)
    # 1: Hero 1 (critical) v Foe 10 (success): Hero, minor. Named in any case.
    play(
        campaign,
        cid,
        SetParties(a="hero", b="foe"),
        RollDice(who="Hero", faces=(1,)),
        RollDice(who="Foe", faces=(10,)),
    )
    # 2: no parties named: Hero and Foe again. Both 5 and 12 succeed at 15; equal
    # levels go to the low roll (§2.3): Hero, marginal.
    state = campaign.contest(cid).state
    assert isinstance(state, HQContest)
    assert state.parties == ("Hero", "Foe")
    play(campaign, cid, RollDice(who="Hero", faces=(5,)), RollDice(who="Foe", faces=(12,)))
    second = campaign.contest(cid).exchanges[1]
    assert isinstance(second, ExchangeResolved)
    assert (second.parties, second.winner, second.victory) == (("Hero", "Foe"), "Hero", MARGINAL)


def test_a_name_matching_two_participants_but_for_case_is_refused() -> None:
    c = new_contest(
        [
            HQParticipant(name="Ghoul", side="Ghouls", rating=15),
            HQParticipant(name="GHOUL", side="Ghouls", rating=15),
            HQParticipant(name="Hero", side="Heroes", rating=15),
        ]
    )
    assert c.named("Ghoul").name == "Ghoul"  # exact first
    with pytest.raises(UnknownName, match="taking part: Ghoul, GHOUL, Hero"):
        c.named("ghoul")
