"""Issue 13: HeroQuest states of adversity and lingering benefits belong to the ability
they came from and apply only to it and to abilities the GM marks related (rules §2.6);
an extended contest's write-back takes the engine's consequences (§2.8.6-7).

Every expected value is worked by hand in the comments from rules §2.3 (levels, the low
roll), §2.6 (hurt -3, impaired -6, injured one bump down, benefits +0/+3/+6/+9) and §2.8.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from core.campaign.actions import Campaign
from core.campaign.log import (
    AddCharacter,
    Character,
    Play,
    StartContest,
    UpdateCharacter,
    WriteBack,
)
from core.campaign.setup import build_contest, conditions
from core.campaign.sheet import Pick
from core.engine import apply
from core.errors import RuleError
from core.model import Command, ResolveExchange, RollDice
from core.odds.report import odds_for
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet
from core.systems.heroquest.odds import heroquest_exchange_odds
from core.systems.heroquest.sheet import condition, new_session
from core.systems.heroquest.state import HQContest, HQParticipant

KAI = Character(
    name="Kai",
    ratings={"Sword": 15, "Dance": 15, "Lore": 15},
    sheet=HeroQuestCharacter(hero_points=0),
)
FOE = Character(name="Foe", kind="npc", ratings={"Claws": 15})


def campaign_with(*characters: Character) -> Campaign:
    campaign = Campaign(name="Test", system="heroquest")
    for c in characters:
        campaign.act(AddCharacter(character=c))
    return campaign


def bout(campaign: Campaign, ability: str, kai: int, foe: int, **opts: object) -> str:
    """One simple contest, Kai's ``ability`` against a fresh Foe's Claws 15 (what earlier
    contests left on the Foe is wiped, so only Kai's sheet carries over)."""
    if campaign.roster["Foe"] != FOE:
        campaign.act(UpdateCharacter(name="Foe", character=FOE))
    picks = [
        Pick(character="Kai", side="Kai", rating=ability),
        Pick(character="Foe", side="Foe", rating="Claws"),
    ]
    contest = build_contest("heroquest", campaign.roster, picks, opts)
    uses = {"Kai": ability, "Foe": "Claws"}
    campaign.act(StartContest(title=f"{ability} bout", contest=contest, uses=uses))
    record = campaign.latest_contest
    assert record is not None
    play(
        campaign,
        record.contest_id,
        RollDice(who="Kai", faces=(kai,)),
        RollDice(who="Foe", faces=(foe,)),
        ResolveExchange(),
    )
    return record.contest_id


def play(campaign: Campaign, contest_id: str, *commands: Command) -> None:
    campaign.act(Play(contest_id=contest_id, commands=commands))


def starting(campaign: Campaign, ability: str) -> HQParticipant:
    """Kai as a new contest with ``ability`` would start him."""
    picks = [
        Pick(character="Kai", side="Kai", rating=ability),
        Pick(character="Foe", side="Foe", rating="Claws"),
    ]
    contest = build_contest("heroquest", campaign.roster, picks)
    assert isinstance(contest, HQContest)
    return contest.hq_participant("Kai")


def test_a_hurt_on_sword_leaves_dance_alone_across_three_contests() -> None:
    campaign = campaign_with(KAI, FOE)
    # Contest 1, Sword 15 vs Claws 15: Kai rolls 10, the Foe 5, both successes; the
    # lower roll (5) wins a marginal victory (§2.3 step 7): Kai is hurt (§2.6), on Sword.
    cid = bout(campaign, "Sword", 10, 5)
    campaign.act(WriteBack(contest_id=cid))
    kai = campaign.roster["Kai"]
    assert hq_sheet(kai).adversity_of == {"Sword": ("hurt",)}
    assert hq_sheet(kai).adversity == ()
    # Contest 2 with Dance: nothing applies, 15 stays 15.
    assert (starting(campaign, "Dance").condition, starting(campaign, "Dance").bumps_down) == (0, 0)
    # Dance 15: Kai rolls 3, the Foe 17: success against failure, one level: Kai's minor
    # victory, a +3 lingering benefit on Dance; the hurt on Sword is untouched.
    cid = bout(campaign, "Dance", 3, 17)
    campaign.act(WriteBack(contest_id=cid))
    kai = campaign.roster["Kai"]
    assert hq_sheet(kai).adversity_of == {"Sword": ("hurt",)}
    assert hq_sheet(kai).benefits == {"Dance": 3}
    # Contest 3 with Sword: 15 - 3 (the hurt) = 12, and Dance's +3 is not Sword's.
    sword = starting(campaign, "Sword")
    assert (sword.condition, sword.bumps_down) == (-3, 0)
    # Kai rolls 12 (a success at 12, a failure at 15 had the hurt gone elsewhere), the
    # Foe 13: both successes, 12 < 13 wins marginally: Kai wins, the Foe is hurt.
    cid = bout(campaign, "Sword", 12, 13)
    state = campaign.contest(cid).state
    assert state.winner == "Kai"
    campaign.act(WriteBack(contest_id=cid))
    assert hq_sheet(campaign.roster["Foe"]).adversity_of == {"Claws": ("hurt",)}
    assert hq_sheet(campaign.roster["Kai"]).adversity_of == {"Sword": ("hurt",)}


def test_an_injured_sword_user_bumps_down_on_sword_only() -> None:
    campaign = campaign_with(KAI, FOE)
    # Sword 15: Kai rolls 20 (fumble, level 0), the Foe 5 (success, level 2): two levels
    # apart, a major victory (§2.3 step 7): Kai is injured (§2.6), on Sword.
    cid = bout(campaign, "Sword", 20, 5)
    campaign.act(WriteBack(contest_id=cid))
    assert hq_sheet(campaign.roster["Kai"]).adversity_of == {"Sword": ("injured",)}
    assert (starting(campaign, "Sword").bumps_down, starting(campaign, "Dance").bumps_down) == (
        1,
        0,
    )
    # The next Sword contest: Kai rolls 5, the Foe 10, both successes. Unbumped, the low
    # roll would win marginally; Kai's success is bumped down to a failure (§2.3 step 5),
    # so the Foe's success wins by one level: a minor victory, Kai impaired on Sword.
    cid = bout(campaign, "Sword", 5, 10)
    state = campaign.contest(cid).state
    assert state.winner == "Foe"
    campaign.act(WriteBack(contest_id=cid))
    assert hq_sheet(campaign.roster["Kai"]).adversity_of == {"Sword": ("injured", "impaired")}
    # The same rolls with Dance: nothing bumps, 5 < 10 wins marginally for Kai.
    cid = bout(campaign, "Dance", 5, 10)
    assert campaign.contest(cid).state.winner == "Kai"


def test_marking_dance_related_to_sword_makes_the_hurt_apply_to_dance() -> None:
    campaign = campaign_with(KAI, FOE)
    cid = bout(campaign, "Sword", 10, 5)  # marginal defeat: hurt on Sword (as above)
    campaign.act(WriteBack(contest_id=cid))
    assert starting(campaign, "Dance").condition == 0
    kai = campaign.roster["Kai"]
    marked = _character(**{**_fields(kai), "related": {"Sword": ("Dance",)}})
    campaign.act(UpdateCharacter(name="Kai", character=marked))
    # Dance 15 - 3 = 12 now; Lore, not marked, stays 15.
    assert starting(campaign, "Dance").condition == -3
    assert starting(campaign, "Lore").condition == 0
    # Either way round: marked from Dance's side, the hurt on Sword applies to Dance too.
    other_way = _character(**{**_fields(kai), "related": {"Dance": ("Sword",)}})
    assert condition(other_way, "Dance") == (-3, 0)
    assert condition(other_way, "Lore") == (0, 0)
    # The setup screen says what applies to the ability chosen.
    assert conditions("heroquest", campaign.roster["Kai"], "Dance") == "hurt -3"
    assert conditions("heroquest", campaign.roster["Kai"], "Lore") == ""


def test_a_benefit_of_a_related_ability_applies_and_is_lost_with_a_defeat_using_it() -> None:
    # Kai has +6 on Sword, Dance marked related, and a hurt related to every ability.
    kai = _character(
        **{
            **_fields(KAI),
            "benefits": {"Sword": 6},
            "related": {"Sword": ("Dance",)},
            "adversity": ("hurt",),
        }
    )
    assert condition(kai, "Dance") == (6 - 3, 0)
    assert condition(kai, "Lore") == (-3, 0)
    assert conditions("heroquest", kai, "Dance") == "hurt -3, Sword +6"
    campaign = campaign_with(kai, FOE)
    # Dance 15 + 3 = 18: Kai rolls 19 (failure), the Foe 5 (success): minor defeat using
    # Dance, which used Sword's benefit: the benefit is gone (§2.6), Kai impaired on Dance.
    cid = bout(campaign, "Dance", 19, 5)
    campaign.act(WriteBack(contest_id=cid))
    kai = campaign.roster["Kai"]
    assert hq_sheet(kai).benefits == {}
    assert hq_sheet(kai).adversity_of == {"Dance": ("impaired",)}
    assert hq_sheet(kai).adversity == ("hurt",)


def test_a_session_heals_hurts_on_every_ability() -> None:
    kai = _character(
        **{**_fields(KAI), "adversity_of": {"Sword": ("hurt", "impaired"), "Dance": ("hurt",)}}
    )
    healed = new_session(kai, None)
    assert hq_sheet(healed).adversity_of == {"Sword": ("impaired",)}


def test_a_dying_state_on_any_ability_takes_every_action_away() -> None:
    kai = _character(**{**_fields(KAI), "adversity_of": {"Sword": ("dying",)}})
    with pytest.raises(RuleError, match="dying: no actions"):
        condition(kai, "Dance")


def test_odds_follow_adversity_on_the_ability_used_not_on_another() -> None:
    # Kai hurt and injured on Sword. With Sword: 12 and a bump down; with Dance: 15 and
    # nothing. The exchange odds brute-forced over the 400 roll pairs through the engine
    # must equal the dashboard's.
    kai = _character(**{**_fields(KAI), "adversity_of": {"Sword": ("hurt", "injured")}})
    campaign = campaign_with(kai, FOE)
    for ability in ("Sword", "Dance"):
        picks = [
            Pick(character="Kai", side="Kai", rating=ability),
            Pick(character="Foe", side="Foe", rating="Claws"),
        ]
        contest = build_contest("heroquest", campaign.roster, picks)
        wins = 0
        for kai_roll in range(1, 21):
            for foe_roll in range(1, 21):
                c = contest
                for command in (
                    RollDice(who="Kai", faces=(kai_roll,)),
                    RollDice(who="Foe", faces=(foe_roll,)),
                    ResolveExchange(),
                ):
                    c, _ = apply(c, command)
                wins += c.winner == "Kai"
        odds = heroquest_exchange_odds(contest)
        assert odds is not None
        assert odds.win("Kai") == Fraction(wins, 400)
        assert odds_for(contest)["exchange"]["sides"]["Kai"]["win_exact"] == str(
            Fraction(wins, 400)
        )
    # Worked by hand for Dance, 15 against 15 with nothing: by symmetry Kai and the Foe
    # win equally often; ties are the equal rolls 1-20 (20 pairs) and nothing else, since
    # equal levels with unequal rolls go to the low roll: (400 - 20) / 2 = 190.
    dance = build_contest(
        "heroquest",
        campaign.roster,
        [
            Pick(character="Kai", side="Kai", rating="Dance"),
            Pick(character="Foe", side="Foe", rating="Claws"),
        ],
    )
    odds = heroquest_exchange_odds(dance)
    assert odds is not None and odds.win("Kai") == Fraction(190, 400)


def _fields(c: Character) -> dict[str, Any]:
    """A character's fields, its HeroQuest sheet's beside its own."""
    sheet = hq_sheet(c)
    own = {f: getattr(c, f) for f in c.__struct_fields__ if f != "sheet"}
    return {**own, **{f: getattr(sheet, f) for f in sheet.__struct_fields__}}


def _character(**fields: Any) -> Character:
    """The character of :func:`_fields`."""
    own = {f: fields.pop(f) for f in Character.__struct_fields__ if f in fields}
    return Character(**own, sheet=HeroQuestCharacter(**fields))
