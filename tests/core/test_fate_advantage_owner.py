"""Issue 24, item 4: an advantage created on a character is that character's aspect, so a
fate point paid to invoke it goes to them at the end (rules §1.4.1; Fate SRD, "Fate
Points": "If someone pays a fate point to invoke an aspect attached to your character, you
gain their fate point at the end of the scene. This includes advantages created on your
character.").

Worked by hand (rules §1.3, victories_needed 3, style at a margin of 3): Teran creates
"Pinned Down" on Cynere, 5 against 3: a success, one free invoke for Teran's side.
Exchange 1: Cynere ++++ (Great +4 + 4 = 8), Teran ---- (Good +3 - 4 = -1) + 2 (the free
invoke) = 1: Cynere by 7, with style, 2 victories. Exchange 2: the same dice, Teran pays
a fate point (2 -> 1) to invoke it again: 1, Cynere 2 more victories, 4: the contest is
over. Cynere, the aspect's owner, gains Teran's point at the end: 3 -> 4."""

from __future__ import annotations

from core.campaign.actions import Campaign
from core.campaign.aftermath import summary
from core.campaign.log import AddCharacter, Character, Play, StartContest, WriteBack
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.engine import apply
from core.model import Command, ResolveExchange, RollDice
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.events import CreateAdvantage, InvokeAspect
from core.systems.fate.state import FateContest, FateParticipant, new_contest

CYNERE = Character(
    name="Cynere", ratings={"Athletics": 4}, sheet=FateCharacter(fate_points=3, refresh=3)
)
TERAN = Character(name="Teran", kind="npc", ratings={"Lore": 3}, sheet=FateCharacter(fate_points=2))
PICKS = [
    Pick(character="Cynere", side="Cynere", rating="Athletics"),
    Pick(character="Teran", side="Teran", rating="Lore"),
]


def rolls(*extra: Command, before: tuple[Command, ...] = ()) -> tuple[Command, ...]:
    return (
        *before,
        RollDice(who="Cynere", faces=(1, 1, 1, 1)),
        RollDice(who="Teran", faces=(-1, -1, -1, -1)),
        *extra,
        ResolveExchange(),
    )


def test_a_point_paid_for_an_advantage_on_a_character_goes_to_that_character() -> None:
    campaign = Campaign(name="Test", system="fate")
    for c in (CYNERE, TERAN):
        campaign.act(AddCharacter(character=c))
    contest = build_contest("fate", campaign.roster, PICKS, {})
    campaign.act(StartContest(title="Race", contest=contest))
    record = campaign.latest_contest
    assert record is not None
    cid = record.contest_id
    create = CreateAdvantage(by="Teran", aspect="Pinned Down", result=5, opposition=3, on="Cynere")
    free = InvokeAspect(by="Teran", aspect="Pinned Down", free=True)
    campaign.act(Play(contest_id=cid, commands=rolls(free, before=(create,))))
    paid = InvokeAspect(by="Teran", aspect="Pinned Down")
    campaign.act(Play(contest_id=cid, commands=rolls(paid)))
    assert campaign.contest(cid).state.finished
    costs = summary(campaign, campaign.contest(cid)).costs
    assert "Teran spent 1 fate point" in costs
    assert "Cynere is paid 1 fate point for invokes on their aspects" in costs
    campaign.act(WriteBack(contest_id=cid))
    assert (
        fate_sheet(campaign.roster["Cynere"]).fate_points,
        fate_sheet(campaign.roster["Teran"]).fate_points,
    ) == (4, 1)


def test_an_advantage_on_the_scene_has_no_owner() -> None:
    c = new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4, fate_points=3),
            FateParticipant(name="Teran", side="Teran", skill=3, fate_points=2),
        ]
    )
    c2, _ = apply(c, CreateAdvantage(by="Teran", aspect="Smoke", result=5, opposition=3))
    c3, _ = apply(
        c, CreateAdvantage(by="Teran", aspect="Smoke", result=5, opposition=3, on="Cynere")
    )
    assert isinstance(c2, FateContest) and isinstance(c3, FateContest)
    on_scene, on_cynere = c2.aspect("Smoke"), c3.aspect("Smoke")
    assert on_scene is not None and on_cynere is not None
    assert (on_scene.owner, on_cynere.owner) == (None, "Cynere")
