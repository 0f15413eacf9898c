"""Around the contest, in the core: writing results back, corrections, sessions, compels,
the GM's pool and secrets. Expected values are worked from the rules (rules.md §1.3, §1.4.1,
§2.6, §3.4), not read from the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.campaign.actions import Campaign
from core.campaign.aftermath import summary
from core.campaign.corrections import correct
from core.campaign.log import (
    AddCharacter,
    Character,
    Compel,
    Correct,
    Play,
    SpendFromPool,
    StartContest,
    StartSession,
    ToggleSecret,
    Undo,
    WriteBack,
)
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.errors import RuleError
from core.model import Command, EndContest, ResolveExchange, RollDice
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.events import DeclareAttack, InvokeAspect
from core.systems.fate.state import Aspect, FateContest, FateParticipant, new_contest
from core.systems.forge.character import ForgeCharacter, forge_sheet
from core.systems.forge.events import ChooseReaction, SetStage
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet
from core.systems.heroquest.events import SpendHeroPoints
from core.systems.heroquest.resolution import MARGINAL, MINOR, Party, simple_contest
from core.systems.heroquest.sheet import condition as hq_condition
from core.systems.heroquest.state import HQContest

F = {"+": 1, "0": 0, "-": -1}


def dice(text: str) -> tuple[int, ...]:
    return tuple(F[ch] for ch in text)


def campaign_with(system: str, *characters: Character) -> Campaign:
    campaign = Campaign(name="Test", system=system)
    for c in characters:
        campaign.act(AddCharacter(character=c))
    return campaign


def start(
    campaign: Campaign, picks: list[Pick], aspects: tuple[str, ...] = (), **opts: object
) -> str:
    contest = build_contest(campaign.system, campaign.roster, picks, opts, aspects)
    uses = {p.character: p.rating for p in picks if p.rating}
    campaign.act(StartContest(title="Contest", contest=contest, uses=uses))
    record = campaign.latest_contest
    assert record is not None
    return record.contest_id


def play(campaign: Campaign, contest_id: str, *commands: Command) -> None:
    campaign.act(Play(contest_id=contest_id, commands=commands))


def exchange(a: str, b: str, *extra: Command, twist: str | None = None) -> tuple[Command, ...]:
    return (
        RollDice(who="Cynere", faces=dice(a)),
        RollDice(who="Teran", faces=dice(b)),
        *extra,
        ResolveExchange(twist=twist),
    )


CYNERE = Character(
    name="Cynere",
    ratings={"Athletics": 4},
    sheet=FateCharacter(aspects=("I've Got Zird's Back",), fate_points=3, refresh=3),
)
TERAN = Character(name="Teran", kind="npc", ratings={"Lore": 3}, sheet=FateCharacter(fate_points=2))
RACE = [
    Pick(character="Cynere", side="Cynere", rating="Athletics"),
    Pick(character="Teran", side="Teran", rating="Lore"),
]


def seed(exchange_2: tuple[str, str] = ("+000", "-000")) -> tuple[Campaign, str]:
    """The seed's race (rules §1.3): exchanges as the seed types them, one per action."""
    campaign = campaign_with("fate", CYNERE, TERAN)
    cid = start(campaign, RACE, ("Muddy Ground",))
    play(campaign, cid, *exchange("---0", "0000"))
    play(campaign, cid, *exchange(*exchange_2))
    play(campaign, cid, *exchange("-000", "0000", twist="Magical Distortions"))
    play(
        campaign,
        cid,
        *exchange(
            "0000",
            "+000",
            InvokeAspect(by="Cynere", aspect="I've Got Zird's Back"),
            InvokeAspect(by="Cynere", aspect="Magical Distortions"),
        ),
    )
    return campaign, cid


# -- Fate: fate points spent and paid -------------------------------------------------------


def test_the_seed_writes_back_the_two_fate_points_cynere_spent() -> None:
    campaign, cid = seed()
    record = campaign.contest(cid)
    assert record.state.finished and record.state.winner == "Cynere"
    shown = summary(campaign, record)
    assert shown.result == "Cynere won, 4 victories to 1"
    assert "Cynere spent 2 fate points" in shown.costs
    assert shown.roster == ("Cynere: fate points 3 → 1",)
    campaign.act(WriteBack(contest_id=cid))
    assert fate_sheet(campaign.roster["Cynere"]).fate_points == 1
    assert fate_sheet(campaign.roster["Teran"]).fate_points == 2  # spent nothing
    assert summary(campaign, record).written
    with pytest.raises(RuleError, match="already on the roster"):
        campaign.decide(WriteBack(contest_id=cid))


def test_a_point_paid_to_an_aspect_owner_is_credited_at_the_end_and_undone() -> None:
    # Teran pays to invoke Cynere's aspect: Teran 2 → 1, Cynere is owed 1 (§1.4.1).
    # Cynere ++++ = 8 against Teran ---- = -1 (+2 = 1): a margin of 7, two victories.
    campaign = campaign_with("fate", CYNERE, TERAN)
    cid = start(campaign, RACE)
    hostile = InvokeAspect(by="Teran", aspect="I've Got Zird's Back")
    play(campaign, cid, *exchange("++++", "----", hostile))
    play(campaign, cid, *exchange("++++", "----"))
    assert campaign.contest(cid).state.finished
    costs = summary(campaign, campaign.contest(cid)).costs
    assert "Teran spent 1 fate point" in costs
    assert "Cynere is paid 1 fate point for invokes on their aspects" in costs
    campaign.act(WriteBack(contest_id=cid))
    assert (
        fate_sheet(campaign.roster["Cynere"]).fate_points,
        fate_sheet(campaign.roster["Teran"]).fate_points,
    ) == (4, 1)
    campaign.act(Undo())
    assert (
        fate_sheet(campaign.roster["Cynere"]).fate_points,
        fate_sheet(campaign.roster["Teran"]).fate_points,
    ) == (3, 2)
    assert not campaign.contest(cid).written
    assert campaign.contest(cid).state.finished  # undoing the write-back keeps the end


def test_an_owner_outside_the_contest_is_paid_on_the_roster() -> None:
    zird = Character(name="Zird", sheet=FateCharacter(aspects=("Arcane Ward",), fate_points=0))
    campaign = campaign_with("fate", CYNERE, TERAN, zird)
    contest = new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4, fate_points=3),
            FateParticipant(name="Teran", side="Teran", skill=3, fate_points=2),
        ],
        [Aspect(name="Arcane Ward", owner="Zird")],
    )
    campaign.act(StartContest(title="Race", contest=contest))
    cid = "c1"
    play(
        campaign,
        cid,
        *exchange("----", "++++", InvokeAspect(by="Cynere", aspect="Arcane Ward")),
    )
    play(campaign, cid, *exchange("----", "++++"))
    campaign.act(WriteBack(contest_id=cid))
    assert fate_sheet(campaign.roster["Zird"]).fate_points == 1
    assert fate_sheet(campaign.roster["Cynere"]).fate_points == 2


def test_an_unfinished_contest_cannot_be_written_back() -> None:
    campaign = campaign_with("fate", CYNERE, TERAN)
    cid = start(campaign, RACE)
    with pytest.raises(RuleError, match="has not ended"):
        campaign.decide(WriteBack(contest_id=cid))


def test_an_attack_ends_the_contest_as_a_conflict_and_the_summary_says_so() -> None:
    campaign = campaign_with("fate", CYNERE, TERAN)
    cid = start(campaign, RACE)
    play(campaign, cid, *exchange("++++", "----"))
    play(campaign, cid, *exchange("0000", "0000", DeclareAttack(by="Teran")))
    record = campaign.contest(cid)
    assert record.state.finished and record.state.winner is None
    assert "escalates to a conflict" in summary(campaign, record).result
    assert record.state.victories == {"Cynere": 2, "Teran": 0}  # kept as it stood


def test_a_point_owed_when_an_attack_ends_the_contest_is_paid_when_the_scene_is_written_back() -> (
    None
):
    # Teran pays to invoke Cynere's aspect (Teran 2 -> 1, Cynere owed 1, §1.4.1: "usable
    # only after the scene"). An attack then ends the contest: the scene goes on as a
    # conflict, so Cynere is not credited when it ends, only when the GM writes the
    # results back (closing the scene): Cynere 3 -> 4, Teran 2 -> 1.
    campaign = campaign_with("fate", CYNERE, TERAN)
    cid = start(campaign, RACE)
    hostile = InvokeAspect(by="Teran", aspect="I've Got Zird's Back")
    play(campaign, cid, *exchange("0000", "0000", hostile))
    play(campaign, cid, *exchange("0000", "0000", DeclareAttack(by="Teran")))
    record = campaign.contest(cid)
    assert record.state.finished and record.state.winner is None
    in_play = {p.name: p.fate_points for p in record.state.participants}
    assert in_play == {"Cynere": 3, "Teran": 1}  # nobody credited as it ended
    costs = summary(campaign, record).costs
    assert (
        "Cynere is owed 1 fate point for invokes on their aspects "
        "(after the scene: when the results are written back)"
    ) in costs
    campaign.act(WriteBack(contest_id=cid))
    assert (
        fate_sheet(campaign.roster["Cynere"]).fate_points,
        fate_sheet(campaign.roster["Teran"]).fate_points,
    ) == (4, 1)


# -- corrections ----------------------------------------------------------------------------


def test_exchange_2_typed_wrong_then_corrected_gives_the_seed_result() -> None:
    # Typed wrong: Cynere 0000 (4) against Teran -000 (2), margin 2: one victory, not two.
    # Then the tie and the two invokes: 1-1, 1-1, 3-1, the contest ends at exchange 4.
    campaign, cid = seed(exchange_2=("0000", "-000"))
    record = campaign.contest(cid)
    assert record.state.victories == {"Cynere": 3, "Teran": 1}
    fixed = exchange("+000", "-000")
    worked = correct(campaign, Correct(contest_id=cid, n=2, commands=fixed))
    changes = "\n".join(worked.changes())
    assert "was   Exchange 2: Cynere wins, 1 victory (1–1)" in changes
    assert "now   Exchange 2: Cynere wins with style, 2 victories (2–1)" in changes
    assert "now   Exchange 4: Cynere wins with style, 2 victories (4–1)" in changes
    campaign.act(Correct(contest_id=cid, n=2, commands=fixed))
    assert record.state.victories == {"Cynere": 4, "Teran": 1}
    assert record.state.winner == "Cynere"
    assert [e.n for e in record.exchanges] == [1, 2, 3, 4]
    # The log keeps both: the wrong exchange's action and the correction after it.
    assert len(record.actions) == 5
    campaign.act(Undo())
    assert record.state.victories == {"Cynere": 3, "Teran": 1}


def test_a_correction_that_no_longer_plays_names_the_exchange() -> None:
    campaign, cid = seed()
    twice = exchange(
        "---0",
        "0000",
        InvokeAspect(by="Cynere", aspect="Muddy Ground"),
        InvokeAspect(by="Cynere", aspect="Muddy Ground"),
    )
    with pytest.raises(RuleError, match="the corrected exchange no longer plays"):
        campaign.decide(Correct(contest_id=cid, n=1, commands=twice))
    # Two paid rerolls that roll ---0 again change nothing in exchange 1 but leave
    # Cynere one fate point (3 - 2): exchange 4's two paid invokes now need one too many.
    spend = exchange(
        "---0",
        "0000",
        InvokeAspect(
            by="Cynere", aspect="I've Got Zird's Back", effect="reroll", faces=dice("---0")
        ),
        InvokeAspect(by="Cynere", aspect="Muddy Ground", effect="reroll", faces=dice("---0")),
    )
    with pytest.raises(RuleError, match="exchange 4 no longer plays: Cynere has no fate points"):
        campaign.decide(Correct(contest_id=cid, n=1, commands=spend))


def test_a_correction_must_resolve_its_exchange_and_change_something() -> None:
    campaign, cid = seed()
    with pytest.raises(RuleError, match="unchanged"):
        campaign.decide(Correct(contest_id=cid, n=1, commands=exchange("---0", "0000")))
    with pytest.raises(RuleError, match="no exchange 9"):
        campaign.decide(Correct(contest_id=cid, n=9, commands=exchange("---0", "0000")))
    half = (RollDice(who="Cynere", faces=dice("++++")),)
    with pytest.raises(RuleError):
        campaign.decide(Correct(contest_id=cid, n=1, commands=half))


def test_an_unresolved_correction_is_named_before_the_later_refusal_it_causes() -> None:
    """Exchange 1 retyped with Cynere's roll alone: it is not resolved, so exchange 2's
    roll for Cynere would be refused too (she has rolled); the first problem in the order
    played is the one the GM is told."""
    campaign, cid = seed()
    half = (RollDice(who="Cynere", faces=dice("++++")),)
    with pytest.raises(RuleError) as caught:
        campaign.decide(Correct(contest_id=cid, n=1, commands=half))
    assert str(caught.value) == "exchange 1 is not resolved: give every roll and commit it whole"


def test_a_written_back_contest_is_not_corrected_behind_the_rosters_back() -> None:
    campaign, cid = seed()
    campaign.act(WriteBack(contest_id=cid))
    with pytest.raises(RuleError, match="undo writing them back"):
        campaign.decide(Correct(contest_id=cid, n=2, commands=exchange("0000", "0000")))


def test_a_correction_that_ends_the_contest_sooner_drops_the_later_exchanges() -> None:
    # Exchange 1 corrected to ++++ (8) against ---- (-1): 2 victories; with exchange 2's
    # style that is 4-0 after exchange 2, so exchanges 3 and 4 no longer happen.
    campaign, cid = seed()
    worked = correct(campaign, Correct(contest_id=cid, n=1, commands=exchange("++++", "----")))
    assert worked.after.finished and worked.after.n == 2
    assert worked.dropped == 8  # exchange 3's three commands, exchange 4's five
    assert worked.changes()[-1] == (
        "Result was: Cynere wins after 4 exchanges; now: Cynere wins after 2 exchanges"
    )


# -- HeroQuest: adversity and benefits ------------------------------------------------------

TRIPITAKA = Character(
    name="Tripitaka", ratings={"Fist": 15}, sheet=HeroQuestCharacter(hero_points=2)
)
GHOUL = Character(name="Ghoul", kind="npc", ratings={"Claws": 15})
BOUT = [
    Pick(character="Tripitaka", side="Pilgrims", rating="Fist"),
    Pick(character="Ghoul", side="Ghouls", rating="Claws"),
]


def bout(campaign: Campaign, t_roll: int, g_roll: int) -> str:
    cid = start(campaign, BOUT)
    play(
        campaign,
        cid,
        RollDice(who="Tripitaka", faces=(t_roll,)),
        RollDice(who="Ghoul", faces=(g_roll,)),
        ResolveExchange(),
    )
    return cid


def target(campaign: Campaign, cid: str, name: str) -> int:
    state = campaign.contest(cid).state
    assert isinstance(state, HQContest)
    return state.target(name)


def test_a_marginal_defeat_hurts_and_the_hurt_lowers_the_next_target_by_3() -> None:
    # Both 15: Tripitaka rolls 10, the Ghoul 5, both successes; the lower roll wins a
    # marginal victory (§2.3), so Tripitaka is hurt: -3 until the session ends (§2.6).
    campaign = campaign_with("heroquest", TRIPITAKA, GHOUL)
    cid = bout(campaign, 10, 5)
    assert summary(campaign, campaign.contest(cid)).roster == (
        "Tripitaka: adversity none → Fist: hurt",
    )
    campaign.act(WriteBack(contest_id=cid))
    assert hq_sheet(campaign.roster["Tripitaka"]).adversity_of == {"Fist": ("hurt",)}
    nxt = start(campaign, BOUT)
    assert target(campaign, nxt, "Tripitaka") == 12
    assert target(campaign, nxt, "Ghoul") == 15


def test_a_minor_victory_impairs_the_loser_and_leaves_the_winner_a_benefit() -> None:
    # Tripitaka 18 > 15 fails, the Ghoul 5 succeeds: one level apart, a minor victory.
    # The loser is impaired (-6), the winner keeps +3 with Claws (§2.6).
    campaign = campaign_with("heroquest", TRIPITAKA, GHOUL)
    cid = bout(campaign, 18, 5)
    campaign.act(WriteBack(contest_id=cid))
    assert hq_sheet(campaign.roster["Tripitaka"]).adversity_of == {"Fist": ("impaired",)}
    assert hq_sheet(campaign.roster["Ghoul"]).benefits == {"Claws": 3}
    nxt = start(campaign, BOUT)
    assert (target(campaign, nxt, "Tripitaka"), target(campaign, nxt, "Ghoul")) == (9, 18)


def test_a_lingering_benefit_is_lost_with_a_defeat_using_that_ability() -> None:
    ghoul = Character(
        name="Ghoul",
        kind="npc",
        ratings={"Claws": 15},
        sheet=HeroQuestCharacter(benefits={"Claws": 3}),
    )
    campaign = campaign_with("heroquest", TRIPITAKA, ghoul)
    # The Ghoul at 18 rolls 19 (a failure); Tripitaka at 15 rolls 3 (a success): minor.
    cid = bout(campaign, 3, 19)
    campaign.act(WriteBack(contest_id=cid))
    assert hq_sheet(campaign.roster["Ghoul"]).benefits == {}
    assert hq_sheet(campaign.roster["Ghoul"]).adversity_of == {"Claws": ("impaired",)}
    assert hq_sheet(campaign.roster["Tripitaka"]).benefits == {"Fist": 3}


def test_hero_points_spent_are_written_back() -> None:
    campaign = campaign_with("heroquest", TRIPITAKA, GHOUL)
    cid = start(campaign, BOUT)
    play(
        campaign,
        cid,
        RollDice(who="Tripitaka", faces=(10,)),
        RollDice(who="Ghoul", faces=(5,)),
        SpendHeroPoints(who="Tripitaka"),
        ResolveExchange(),
    )
    campaign.act(WriteBack(contest_id=cid))
    assert hq_sheet(campaign.roster["Tripitaka"]).hero_points == 1
    assert hq_sheet(campaign.roster["Tripitaka"]).adversity_of == {}  # the point turned the defeat


def test_an_injury_bumps_down_and_dying_takes_no_actions() -> None:
    # Same targets and rolls: a tie of successes that the low roll wins. Bumped down
    # once, the injured party's success becomes a failure and it loses by a level.
    plain = simple_contest(Party(target=15, roll=5), Party(target=15, roll=10))
    injured = simple_contest(Party(target=15, roll=5, bumps_down=1), Party(target=15, roll=10))
    assert (plain.winner, plain.victory) == ("a", MARGINAL)
    assert (injured.winner, injured.victory) == ("b", MINOR)
    hurt_twice = Character(
        name="T",
        sheet=HeroQuestCharacter(adversity=("hurt", "hurt", "injured"), benefits={"Fist": 6}),
    )
    assert hq_condition(hurt_twice, "Fist") == (0, 1)  # +6 - 3 - 3, one bump down
    assert hq_condition(hurt_twice, "Sword") == (-6, 1)
    with pytest.raises(RuleError, match="dying: no actions"):
        hq_condition(Character(name="T", sheet=HeroQuestCharacter(adversity=("dying",))), "Fist")


# -- FORGE: trauma and armor ----------------------------------------------------------------


def test_forge_trauma_and_armor_capacity_go_back_to_the_roster() -> None:
    # Josef (50, x4) hits with 35: 3 x 4 = 12 damage; Bobby absorbs, armor DV 10 takes
    # 10 of it and loses 10 capacity (100 → 90); 2 goes through as trauma (§3.4).
    josef = Character(name="Josef", ratings={"Combat": 50}, sheet=ForgeCharacter(multiplier=4))
    bobby = Character(
        name="Bobby",
        kind="npc",
        ratings={"Combat": 40},
        sheet=ForgeCharacter(multiplier=5, armor=10, armor_capacity=100),
    )
    campaign = campaign_with("forge", josef, bobby)
    cid = start(
        campaign,
        [
            Pick(character="Josef", side="Josef", rating="Combat"),
            Pick(character="Bobby", side="Bobby", rating="Combat"),
        ],
        combat=True,
    )
    play(
        campaign,
        cid,
        SetStage(actor="Josef", reactor="Bobby"),
        ChooseReaction(reaction="absorb"),
        RollDice(who="Josef", faces=(35,)),
        ResolveExchange(),
    )
    play(campaign, cid, EndContest())
    shown = summary(campaign, campaign.contest(cid))
    assert "Bobby took 2 trauma" in shown.costs
    assert "Bobby's armor absorbed 10" in shown.costs
    campaign.act(WriteBack(contest_id=cid))
    assert (
        forge_sheet(campaign.roster["Bobby"]).trauma,
        forge_sheet(campaign.roster["Bobby"]).armor_capacity,
    ) == (2, 90)
    assert campaign.roster["Josef"] == josef


def test_forge_armor_used_up_stays_used_up_in_the_next_contest_and_no_limit_stays_so() -> None:
    # Bobby's armor (DV 10) has 10 capacity left: Josef's 35 makes 3 x 4 = 12 damage, the
    # armor takes 10 (capacity 10 -> 0) and 2 goes through. Written back, the roster says
    # 0: used up. In the next contest the same hit is all trauma, 12 (A-I4: armor at
    # capacity 0 absorbs nothing), not 2 as if the armor had no limit. Josef's armor has
    # no limit (None) and keeps none.
    josef = Character(
        name="Josef", ratings={"Combat": 50}, sheet=ForgeCharacter(multiplier=4, armor=5)
    )
    bobby = Character(
        name="Bobby",
        kind="npc",
        ratings={"Combat": 40},
        sheet=ForgeCharacter(multiplier=5, armor=10, armor_capacity=10),
    )
    campaign = campaign_with("forge", josef, bobby)
    picks = [
        Pick(character="Josef", side="Josef", rating="Combat"),
        Pick(character="Bobby", side="Bobby", rating="Combat"),
    ]
    hit = (
        SetStage(actor="Josef", reactor="Bobby"),
        ChooseReaction(reaction="absorb"),
        RollDice(who="Josef", faces=(35,)),
        ResolveExchange(),
    )
    first = start(campaign, picks, combat=True)
    play(campaign, first, *hit)
    play(campaign, first, EndContest())
    campaign.act(WriteBack(contest_id=first))
    assert (
        forge_sheet(campaign.roster["Bobby"]).trauma,
        forge_sheet(campaign.roster["Bobby"]).armor_capacity,
    ) == (2, 0)
    assert forge_sheet(campaign.roster["Josef"]).armor_capacity is None
    second = start(campaign, picks, combat=True)
    play(campaign, second, *hit)
    play(campaign, second, EndContest())
    assert "Bobby took 12 trauma" in summary(campaign, campaign.contest(second)).costs
    campaign.act(WriteBack(contest_id=second))
    assert (
        forge_sheet(campaign.roster["Bobby"]).trauma,
        forge_sheet(campaign.roster["Bobby"]).armor_capacity,
    ) == (14, 0)


# -- sessions, compels, the GM's pool ---------------------------------------------------------


def test_a_session_refreshes_fate_points_up_to_refresh_never_down() -> None:
    rich = Character(name="Rich", sheet=FateCharacter(fate_points=5, refresh=3))
    poor = Character(name="Poor", sheet=FateCharacter(fate_points=0, refresh=2))
    npc = Character(name="Npc", kind="npc", sheet=FateCharacter(fate_points=0, refresh=2))
    campaign = campaign_with("fate", rich, poor, npc)
    campaign.act(StartSession())
    points = {n: fate_sheet(c).fate_points for n, c in campaign.roster.items()}
    assert points == {"Rich": 5, "Poor": 2, "Npc": 0}
    assert campaign.settings["sessions"] == 1 and len(campaign.sessions) == 1
    campaign.act(StartSession())
    assert campaign.settings["sessions"] == 2
    campaign.act(Undo())
    campaign.act(Undo())
    assert (
        fate_sheet(campaign.roster["Poor"]).fate_points == 0 and "sessions" not in campaign.settings
    )
    assert campaign.sessions == []


def test_a_session_heals_hurts_not_impairments_and_can_reset_hero_points() -> None:
    hurt = Character(
        name="Hurt", sheet=HeroQuestCharacter(adversity=("hurt", "impaired", "hurt"), hero_points=0)
    )
    campaign = campaign_with("heroquest", hurt)
    campaign.act(StartSession(reset=3))
    assert hq_sheet(campaign.roster["Hurt"]).adversity == ("impaired",)
    assert hq_sheet(campaign.roster["Hurt"]).hero_points == 3


def test_a_compel_gives_a_fate_point_on_the_roster_or_in_the_contest_being_played() -> None:
    campaign = campaign_with("fate", CYNERE, TERAN)
    campaign.act(Compel(who="Cynere"))
    assert fate_sheet(campaign.roster["Cynere"]).fate_points == 4
    cid = start(campaign, RACE)
    campaign.act(Compel(who="Cynere"))  # mid-contest: Cynere can spend it at once
    state = campaign.contest(cid).state
    assert isinstance(state, FateContest)
    assert state.fate_participant("Cynere").fate_points == 5
    assert campaign.contest(cid).pool_left == 1  # a PC's compel is not paid from the pool
    assert fate_sheet(campaign.roster["Cynere"]).fate_points == 4  # until the results are written
    play(campaign, cid, *exchange("++++", "----"))
    play(campaign, cid, *exchange("++++", "----"))
    campaign.act(WriteBack(contest_id=cid))
    assert fate_sheet(campaign.roster["Cynere"]).fate_points == 5
    costs = summary(campaign, campaign.contest(cid)).costs
    assert "Cynere gained 1 fate point from compels" in costs
    with pytest.raises(RuleError, match="FORGE has no compels"):
        campaign_with("forge").decide(Compel(who="Anyone"))


def test_a_compel_on_an_npc_in_a_scene_goes_into_the_gm_pool() -> None:
    # Fate Core, "The GM and fate points": the GM spends the pool on behalf of NPCs, "but
    # you can get more in that scene if they take a compel". So Teran's point is the pool's.
    campaign = campaign_with("fate", CYNERE, TERAN)
    cid = start(campaign, RACE)
    assert campaign.contest(cid).pool_left == 1  # one PC in the scene
    campaign.act(Compel(who="Teran"))
    state = campaign.contest(cid).state
    assert isinstance(state, FateContest)
    assert campaign.contest(cid).pool_left == 2
    assert state.fate_participant("Teran").fate_points == 2  # his own points are unchanged
    play(campaign, cid, *exchange("++++", "----"))
    play(campaign, cid, *exchange("++++", "----"))
    costs = summary(campaign, campaign.contest(cid)).costs
    assert "The GM's pool gained 1 fate point from compels on Teran" in costs
    assert "The GM's pool: 1 at the start, 0 paid, 2 left" in costs
    campaign.act(WriteBack(contest_id=cid))
    assert fate_sheet(campaign.roster["Teran"]).fate_points == 2  # the pool is the scene's, not his
    campaign.act(Compel(who="Teran"))  # no scene: no pool, so it is his on the roster
    assert fate_sheet(campaign.roster["Teran"]).fate_points == 3


def test_a_compel_in_a_contest_survives_a_correction() -> None:
    campaign = campaign_with("fate", CYNERE, TERAN)
    cid = start(campaign, RACE)
    campaign.act(Compel(who="Cynere"))
    campaign.act(Compel(who="Teran"))
    play(campaign, cid, *exchange("0000", "0000"))
    campaign.act(Correct(contest_id=cid, n=1, commands=exchange("+000", "0000")))
    state = campaign.contest(cid).state
    assert isinstance(state, FateContest)
    assert state.fate_participant("Cynere").fate_points == 4
    assert state.gm_pool == 2  # 1 for Cynere, 1 from Teran's compel


def test_the_gm_pool_starts_each_fate_scene_with_one_point_per_pc() -> None:
    zird = Character(name="Zird", ratings={"Athletics": 1})
    campaign = campaign_with("fate", CYNERE, TERAN, zird)
    cid = start(campaign, [*RACE, Pick(character="Zird", side="Cynere", rating="Athletics")])
    assert campaign.contest(cid).pool_left == 2  # Cynere and Zird; Teran is an NPC
    campaign.act(SpendFromPool(contest_id=cid))
    campaign.act(SpendFromPool(contest_id=cid))
    assert campaign.contest(cid).pool_left == 0
    with pytest.raises(RuleError, match="pool is empty"):
        campaign.decide(SpendFromPool(contest_id=cid))
    campaign.act(Undo())
    assert campaign.contest(cid).pool_left == 1


# -- secrets --------------------------------------------------------------------------------


def test_secrets_toggle_and_undo() -> None:
    campaign = campaign_with("fate", CYNERE, TERAN)
    cid = start(campaign, RACE, ("Muddy Ground",))
    record = campaign.contest(cid)
    campaign.act(ToggleSecret(contest_id=cid, kind="participant", name="Teran"))
    campaign.act(ToggleSecret(contest_id=cid, kind="aspect", name="Muddy Ground"))
    assert record.hidden("participant", "Teran") and record.hidden("aspect", "Muddy Ground")
    assert not record.hidden("participant", "Cynere")
    campaign.act(ToggleSecret(contest_id=cid, kind="participant", name="Teran"))
    assert not record.hidden("participant", "Teran")
    campaign.act(Undo())
    assert record.hidden("participant", "Teran")
    campaign.act(ToggleSecret(contest_id=cid, kind="contest"))
    assert record.hidden("participant", "Cynere") and record.hidden("aspect", "Anything")
    with pytest.raises(RuleError):
        campaign.decide(ToggleSecret(contest_id=cid, kind="participant", name="Nobody"))
    with pytest.raises(RuleError):
        campaign.decide(ToggleSecret(contest_id=cid, kind="aspect", name="No Such Aspect"))


def test_everything_above_saves_and_loads_back_the_same(tmp_path: Path) -> None:
    from core.saves.store import Saves

    campaign, cid = seed(exchange_2=("0000", "-000"))
    entries = [campaign.actions[i] for i in sorted(campaign.actions)]
    more = [
        campaign.act(Correct(contest_id=cid, n=2, commands=exchange("+000", "-000"))),
        campaign.act(WriteBack(contest_id=cid)),
        campaign.act(ToggleSecret(contest_id=cid, kind="participant", name="Teran")),
        campaign.act(StartSession()),
        campaign.act(Compel(who="Cynere")),
        campaign.act(Undo()),
    ]
    files = Saves(tmp_path).create("Test", "fate")
    files.append([*entries, *more])
    loaded = files.load()
    record, again = campaign.contest(cid), loaded.contest(cid)
    assert again.state == record.state and again.exchanges == record.exchanges
    assert (again.written, again.secret_participants, again.pool_left) == (True, {"Teran"}, 1)
    assert loaded.roster == campaign.roster and loaded.sessions == campaign.sessions
    assert (
        fate_sheet(loaded.roster["Cynere"]).fate_points == 3
    )  # 3 - 2 spent, refreshed to 3; compel undone


def test_tussle_check_accepts_a_corrected_contest(tmp_path: Path) -> None:
    from core.saves.check import check_campaign
    from core.saves.store import Saves

    campaign, cid = seed(exchange_2=("0000", "-000"))
    entries = [campaign.actions[i] for i in sorted(campaign.actions)]
    entries.append(campaign.act(Correct(contest_id=cid, n=2, commands=exchange("+000", "-000"))))
    files = Saves(tmp_path).create("Test", "fate")
    files.append(entries)
    report = check_campaign(files)
    assert (report.contests, report.exchanges) == (1, 4)


def test_reopening_exchange_2_gives_the_contest_after_exchange_1_and_its_commands() -> None:
    from core.campaign.corrections import reopen

    campaign, cid = seed()
    state, commands = reopen(campaign, cid, 2)
    assert isinstance(state, FateContest)
    assert state.n == 1 and dict(state.victories) == {"Cynere": 0, "Teran": 1}
    assert commands == list(exchange("+000", "-000"))
    campaign.act(WriteBack(contest_id=cid))
    with pytest.raises(RuleError, match="already on the roster"):
        reopen(campaign, cid, 2)


def test_an_exchange_not_there_is_refused_with_the_ones_there_are() -> None:
    """C on an exchange that is not there names those that are: the seed's race played
    four (rules §1.3), "1 to 4"; a contest of one exchange has "exchange 1 only", not
    "1 to 1"."""
    from core.campaign.corrections import reopen

    campaign, cid = seed()
    with pytest.raises(RuleError, match=r"no exchange 5 to correct \(this contest has 1 to 4\)"):
        reopen(campaign, cid, 5)
    one = campaign_with("fate", CYNERE, TERAN)
    race = start(one, RACE)
    play(one, race, *exchange("---0", "0000"))
    with pytest.raises(
        RuleError, match=r"no exchange 0 to correct \(this contest has exchange 1 only\)"
    ):
        reopen(one, race, 0)


def test_one_victory_is_said_in_the_singular() -> None:
    """First to 1 (Fate Core contests: the first to the victories needed wins). Cynere
    +4 rolls 0000: +4; Teran +3 rolls 0000: +3. One shift: a success, one victory, and
    the contest. The summary says "1 victory", not "1 victories"; two say "victories"."""
    from core.campaign.aftermath import counted

    campaign = campaign_with("fate", CYNERE, TERAN)
    cid = start(campaign, RACE, victories_needed=1)
    play(campaign, cid, *exchange("0000", "0000"))
    record = campaign.contest(cid)
    assert record.state.winner == "Cynere"
    assert summary(campaign, record).result.startswith("Cynere won, 1 victory to 0")
    assert [counted(u, n) for u, n in [("victories", 2), ("stages", 1), ("points", 0)]] == [
        "victories",
        "stage",
        "points",
    ]
    assert counted("resolution points", 1) == "resolution point"
