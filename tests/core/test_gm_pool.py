"""The GM's fate point pool in a Fate scene (issue 11, defect 5).

Fate Core, "The GM and fate points": each scene starts with one point per PC in it; the
GM spends them on behalf of NPCs (invokes, refusing compels, stunts), and an NPC that takes
a compel adds one. A point paid to invoke an aspect goes to the aspect's owner at the end
(rules §1.4.1), whoever paid it. Expected values are worked by hand from those rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.campaign.actions import Campaign
from core.campaign.aftermath import summary
from core.campaign.log import (
    ActionRecorded,
    AddCharacter,
    Character,
    Correct,
    Play,
    PoolSpent,
    SpendFromPool,
    StartContest,
    Undo,
    WriteBack,
)
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.errors import RuleError
from core.model import Command, ResolveExchange, RollDice
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.events import InvokeAspect
from core.systems.fate.rules import FATE, NoFatePoints
from core.systems.fate.state import Aspect, FateContest, FateParticipant, new_contest
from core.systems.fate.state import scene as as_scene

F = {"+": 1, "0": 0, "-": -1}

CYNERE = Character(
    name="Cynere",
    ratings={"Athletics": 4},
    sheet=FateCharacter(aspects=("I've Got Zird's Back",), fate_points=3, refresh=3),
)
ZIRD = Character(name="Zird", ratings={"Athletics": 1}, sheet=FateCharacter(fate_points=2))
TERAN = Character(name="Teran", kind="npc", ratings={"Lore": 3})  # no fate points of his own


def dice(text: str) -> tuple[int, ...]:
    return tuple(F[ch] for ch in text)


def scene(*, zird: bool = True, aspects: tuple[str, ...] = ("Muddy Ground",)) -> Campaign:
    """Cynere (with Zird helping, when ``zird``) against Teran, contest ``c1``."""
    campaign = Campaign(name="Pool", system="fate")
    for c in (CYNERE, ZIRD, TERAN):
        campaign.act(AddCharacter(character=c))
    picks = [Pick(character="Cynere", side="Cynere", rating="Athletics")]
    if zird:
        picks.append(Pick(character="Zird", side="Cynere", rating="Athletics"))
    picks.append(Pick(character="Teran", side="Teran", rating="Lore"))
    contest = build_contest("fate", campaign.roster, picks, {}, aspects)
    campaign.act(StartContest(title="The race", contest=contest))
    return campaign


def play(campaign: Campaign, *commands: Command) -> None:
    campaign.act(Play(contest_id="c1", commands=commands))


def rolls(cynere: str, teran: str) -> tuple[Command, ...]:
    return RollDice(who="Cynere", faces=dice(cynere)), RollDice(who="Teran", faces=dice(teran))


def state(campaign: Campaign) -> FateContest:
    s = campaign.contest("c1").state
    assert isinstance(s, FateContest)
    return s


POOL_INVOKE = InvokeAspect(by="Teran", aspect="Muddy Ground", pool=True)


def test_two_pcs_make_a_pool_of_two_and_an_npc_invoke_paid_from_it_adds_two() -> None:
    campaign = scene()
    assert campaign.contest("c1").pool_left == 2  # Cynere and Zird are PCs, Teran an NPC
    # Cynere leads at Great (+4), Zird (Average) helps: +5; Teran Good (+3).
    play(campaign, *rolls("0000", "+000"))
    assert state(campaign).total("Teran") == 4
    play(campaign, POOL_INVOKE)
    assert state(campaign).total("Teran") == 6  # +2
    assert campaign.contest("c1").pool_left == 1
    assert state(campaign).fate_participant("Teran").fate_points == 0  # not his to pay
    play(campaign, ResolveExchange())
    [resolved] = campaign.contest("c1").exchanges
    lines = FATE.describe(resolved)
    assert lines[0] == "Exchange 1: Teran wins, 1 victory (0–1)"  # 6 against 5: by 1
    assert "    invokes Muddy Ground (paid from the GM's pool): +2" in lines
    costs = summary(campaign, campaign.contest("c1")).costs
    assert "The GM's pool paid 1 fate point for Teran's invokes" in costs
    assert "The GM's pool: 2 at the start, 1 paid, 1 left" in costs
    assert not any(c.startswith("Teran spent") for c in costs)  # he paid nothing himself


def test_an_empty_pool_refuses_the_invoke_and_changes_nothing() -> None:
    campaign = scene(zird=False, aspects=("Muddy Ground", "Slick Cobbles"))
    assert campaign.contest("c1").pool_left == 1  # Cynere alone
    play(campaign, *rolls("0000", "0000"), POOL_INVOKE)
    assert campaign.contest("c1").pool_left == 0
    before = (state(campaign), campaign.entries, dict(campaign.actions))
    second = InvokeAspect(by="Teran", aspect="Slick Cobbles", pool=True)
    with pytest.raises(NoFatePoints, match="the GM's fate point pool is empty"):
        campaign.decide(Play(contest_id="c1", commands=(second,)))
    with pytest.raises(RuleError, match="pool is empty"):
        FATE.decide(state(campaign), second)
    assert (state(campaign), campaign.entries, dict(campaign.actions)) == before


def test_a_pc_may_not_pay_from_the_gm_pool() -> None:
    campaign = scene()
    play(campaign, *rolls("0000", "0000"))
    mine = InvokeAspect(by="Cynere", aspect="Muddy Ground", pool=True)
    with pytest.raises(RuleError, match="Cynere is a PC: the GM's pool pays only for NPCs"):
        campaign.decide(Play(contest_id="c1", commands=(mine,)))
    assert campaign.contest("c1").pool_left == 2


def test_an_npc_without_points_is_told_the_pool_can_pay() -> None:
    campaign = scene()
    play(campaign, *rolls("0000", "0000"))
    own_point = InvokeAspect(by="Teran", aspect="Muddy Ground")
    with pytest.raises(NoFatePoints, match=r"Teran has no fate points left \(the GM's pool has 2"):
        campaign.decide(Play(contest_id="c1", commands=(own_point,)))


def test_the_pool_pays_like_a_fate_point_once_per_aspect_and_never_for_a_boost() -> None:
    campaign = scene()
    play(campaign, *rolls("0000", "0000"), POOL_INVOKE)
    with pytest.raises(RuleError, match="already been paid for on Teran's roll"):
        campaign.decide(Play(contest_id="c1", commands=(POOL_INVOKE,)))
    both = InvokeAspect(by="Teran", aspect="Muddy Ground", free=True, pool=True)
    with pytest.raises(RuleError, match="either free or paid"):
        FATE.decide(state(campaign), both)
    boosted = as_scene(
        new_contest(
            [
                FateParticipant(name="Cynere", side="Cynere", skill=4),
                FateParticipant(name="Teran", side="Teran", skill=3),
            ],
            [Aspect(name="Off Balance", free_invokes=1, holder="Teran", boost=True)],
        ),
        gm_pool=1,
        npcs=frozenset({"Teran"}),
    )
    boosted = FATE.evolve(boosted, FATE.decide(boosted, rolls("0000", "0000")[1])[0])
    with pytest.raises(RuleError, match="is a boost"):
        FATE.decide(boosted, InvokeAspect(by="Teran", aspect="Off Balance", pool=True))


def test_a_pool_paid_invoke_of_a_pcs_aspect_pays_that_pc_at_the_end() -> None:
    campaign = scene()
    zirds_back = InvokeAspect(by="Teran", aspect="I've Got Zird's Back", pool=True)
    # Cynere +5 and Teran +3: with +2 from the pool Teran ties at +5; a twist.
    play(campaign, *rolls("0000", "0000"), zirds_back, ResolveExchange(twist="Mud"))
    assert state(campaign).fate_participant("Cynere").fate_points == 3  # after the scene
    # Then Cynere +5 against Teran -1: two victories each time, 4 to 0.
    play(campaign, *rolls("0000", "----"), ResolveExchange())
    play(campaign, *rolls("0000", "----"), ResolveExchange())
    assert state(campaign).finished and state(campaign).winner == "Cynere"
    assert state(campaign).fate_participant("Cynere").fate_points == 4  # 3 + the one paid
    costs = summary(campaign, campaign.contest("c1")).costs
    assert "Cynere is paid 1 fate point for invokes on their aspects" in costs
    assert "The GM's pool paid 1 fate point for Teran's invokes" in costs
    campaign.act(WriteBack(contest_id="c1"))
    assert fate_sheet(campaign.roster["Cynere"]).fate_points == 4
    assert fate_sheet(campaign.roster["Teran"]).fate_points == 0  # the pool is the scene's, not his


def test_spend_from_pool_outside_an_invoke_is_for_an_npc_and_is_counted() -> None:
    campaign = scene()
    refuse = SpendFromPool(contest_id="c1", by="Teran", reason="refuses a compel")
    campaign.act(refuse)
    assert campaign.contest("c1").pool_left == 1
    with pytest.raises(RuleError, match="Cynere is a PC"):
        campaign.decide(SpendFromPool(contest_id="c1", by="Cynere", reason="a stunt"))
    costs = summary(campaign, campaign.contest("c1")).costs
    assert "The GM's pool paid 1 fate point: Teran refuses a compel" in costs
    # It is an action of its own: a correction of the exchange around it keeps it.
    play(campaign, *rolls("0000", "0000"), ResolveExchange(twist="Mud"))
    campaign.act(
        Correct(contest_id="c1", n=1, commands=(*rolls("+000", "0000"), ResolveExchange()))
    )
    assert campaign.contest("c1").pool_left == 1
    campaign.act(Undo())
    campaign.act(Undo())
    campaign.act(Undo())
    assert campaign.contest("c1").pool_left == 2


def test_a_correction_replays_pool_invokes_against_the_pool() -> None:
    campaign = scene(zird=False)
    play(campaign, *rolls("0000", "0000"), POOL_INVOKE, ResolveExchange())
    assert campaign.contest("c1").pool_left == 0
    fixed = (*rolls("+000", "0000"), POOL_INVOKE, ResolveExchange())
    campaign.act(Correct(contest_id="c1", n=1, commands=fixed))
    assert campaign.contest("c1").pool_left == 0  # paid once, not twice
    twice = (*rolls("+000", "0000"), POOL_INVOKE, POOL_INVOKE, ResolveExchange())
    with pytest.raises(RuleError):
        campaign.decide(Correct(contest_id="c1", n=1, commands=twice))


def test_pool_payments_save_and_load_back_the_same(tmp_path: Path) -> None:
    from core.saves.store import Saves

    campaign = scene()
    play(campaign, *rolls("0000", "+000"), POOL_INVOKE, ResolveExchange())
    campaign.act(SpendFromPool(contest_id="c1", by="Teran", reason="a stunt"))
    files = Saves(tmp_path).create("Pool", "fate")
    files.append([campaign.actions[i] for i in sorted(campaign.actions)])
    loaded = files.load()
    assert loaded.contest("c1").state == campaign.contest("c1").state
    assert loaded.contest("c1").pool_left == 0


def test_an_old_log_spending_the_pool_still_counts() -> None:
    """Before the pool was the contest's, ``P`` saved a ``PoolSpent`` beside the command."""
    campaign = scene()
    old = ActionRecorded(
        action_id=max(campaign.actions) + 1,
        command=SpendFromPool(contest_id="c1"),
        events=(PoolSpent(contest_id="c1", count=1),),
    )
    campaign.apply(old)
    assert campaign.contest("c1").pool_left == 1
    play(campaign, *rolls("0000", "0000"), POOL_INVOKE)
    assert campaign.contest("c1").pool_left == 0
    campaign.act(Undo())  # the contest is folded again from its log: the old spending stays
    assert campaign.contest("c1").pool_left == 1
    campaign.act(Undo())
    assert campaign.contest("c1").pool_left == 2


def test_a_scenario_file_has_no_pool_key() -> None:
    """scenario.md gives invokes ``free`` or a fate point of ``by``: no pool (a scenario is
    not a campaign's scene), so ``tussle resolve`` refuses the key rather than guess."""
    from core.rules.reading import ScenarioError
    from core.scenario import load

    scenario = {
        "system": "fate",
        "participants": [
            {"name": "Cynere", "skill": 4, "fate_points": 1},
            {"name": "Teran", "skill": 3},
        ],
        "aspects": [{"name": "Muddy Ground"}],
        "exchanges": [
            {
                "rolls": {"Cynere": "0000", "Teran": "0000"},
                "invokes": [{"by": "Teran", "aspect": "Muddy Ground", "pool": True}],
            }
        ],
    }
    with pytest.raises(ScenarioError, match=r"exchanges\[0\]\.invokes\[0\]\.pool: unknown key"):
        load(json.dumps(scenario).encode())
