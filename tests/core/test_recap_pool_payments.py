"""Issue 24, item 15: the recap lists the GM's pool payments made outside an invoke (`P`:
an NPC refusing a compel, a stunt), as the end-of-contest summary counts them.

Fate Core, "The GM and fate points" (rules §1.4.1): the GM spends the scene's pool for
NPCs, on invokes and on refusing compels. Here the pool (one point per PC: 1) pays once
for Teran refusing a compel: the recap's points spent say Teran, 1 from the pool."""

from __future__ import annotations

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, SpendFromPool, StartContest
from core.campaign.recap import recap_markdown
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.systems.fate.character import FateCharacter

CYNERE = Character(
    name="Cynere", ratings={"Athletics": 4}, sheet=FateCharacter(fate_points=3, refresh=3)
)
TERAN = Character(name="Teran", kind="npc", ratings={"Lore": 3})


def test_a_pool_payment_outside_an_invoke_is_in_the_recap() -> None:
    campaign = Campaign(name="Pool", system="fate")
    for c in (CYNERE, TERAN):
        campaign.act(AddCharacter(character=c))
    picks = [
        Pick(character="Cynere", side="Cynere", rating="Athletics"),
        Pick(character="Teran", side="Teran", rating="Lore"),
    ]
    contest = build_contest("fate", campaign.roster, picks, {})
    campaign.act(StartContest(title="The race", contest=contest))
    campaign.act(SpendFromPool(contest_id="c1", by="Teran", reason="refuses a compel"))
    assert campaign.contest("c1").pool_left == 0  # 1 at the start (one PC), 1 paid
    recap = recap_markdown(campaign)
    assert "**Points spent:** Teran (fate points from the GM's pool) 1" in recap
