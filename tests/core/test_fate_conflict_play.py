"""A Fate conflict played through the engine (issue 28, slice 3): turn order, attacks
against a chosen defense, absorbing a hit (a box, consequences named on the spot) or
being taken out, full defense, concessions, and the end; in a campaign too, with undo and
redo and a reload.

Expected values are worked out by hand from the Fate Core SRD ("Conflicts": Turn Order,
The Exchange, Full Defense, Resolving Attacks, Stress, Consequences, Conceding the
Conflict, Ending a Conflict; the "Attack" and "Defend" actions), never copied from the
code's output."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.campaign.aftermath import summary
from core.campaign.log import Play, Redo, Undo, WriteBack
from core.engine import play
from core.errors import OutOfTurn, RuleError
from core.files.codec import decode, encode
from core.model import Command, Contest, Event
from core.rules import find_system
from core.saves.store import CampaignFiles
from core.systems.fate.character import fate_sheet
from core.systems.fate.conflict import Absorption
from core.systems.fate.conflict_play import (
    Absorb,
    Attack,
    AttackResolved,
    Concede,
    ConflictEnded,
    EndConflict,
    FateConflict,
    FullDefense,
    SetTurnOrder,
    TakeOut,
    TakeTurn,
)
from core.systems.fate.conflict_setup import conflict_from
from core.systems.fate.state import Aspect, FateParticipant, new_contest
from core.systems.fate.stress import Slot
from tests.conflict_campaigns import ROSTER, attack, opening, start
from tests.helpers import act


def fresh() -> FateConflict:
    """The SRD's warehouse (tests/conflict_campaigns.py) before anyone acts."""
    return opening()


def cynere_hits_for_two() -> Attack:
    """SRD, Attack (the worked example): Cynere, Fight Good (+3), rolls +2: Superb (+5);
    Drisban defends with Fight Great (+4) and rolls -1: Good (+3). A 2-shift hit."""
    return attack("Cynere", "++00", "-000")


def go(c: FateConflict, *commands: Command) -> tuple[FateConflict, tuple[Event, ...]]:
    """``commands`` played through the engine, all or nothing."""
    after, events = play(c, commands)
    assert isinstance(after, FateConflict)
    return after, events


def boxes(c: FateConflict, who: str) -> list[tuple[int, bool]]:
    return [(b.value, b.checked) for b in c.conflict.combatant(who).track("physical").boxes]


def test_turn_order_by_notice_and_the_srd_attack_waits_for_the_defender() -> None:
    c = fresh()
    # SRD, Turn Order: Notice first: Cynere (Good) before Drisban (none).
    assert [x.name for x in c.conflict.combatants] == ["Cynere", "Drisban"]
    assert c.turn == "Cynere"
    c, events = go(c, cynere_hits_for_two())
    assert isinstance(c, FateConflict)
    assert c.hit is not None and (c.hit.target, c.hit.shifts) == ("Drisban", 2)
    assert c.turn == "Cynere"  # the hit is settled before the turn moves on
    # Nothing else happens while the hit waits: no other attack, no concession by him.
    with pytest.raises(OutOfTurn):
        go(c, cynere_hits_for_two())
    with pytest.raises(OutOfTurn):
        go(c, Concede(who="Drisban"))
    # SRD, Stress: he checks his 2-point box.
    c, events = go(c, Absorb(who="Drisban", absorption=Absorption(track="physical", boxes=(1,))))
    assert isinstance(c, FateConflict)
    assert boxes(c, "Drisban") == [(1, False), (2, True)]
    assert c.hit is None and c.turn == "Drisban" and c.n == 1
    (resolved,) = events
    assert isinstance(resolved, AttackResolved)
    assert (resolved.attack.total, resolved.attack.defense_total, resolved.boxes) == (5, 3, (2,))
    line = find_system("fate").describe(resolved)[0]
    assert line == "Exchange 1: Cynere attacks Drisban, a 2-shift physical hit: the 2-box"


def test_only_the_participant_whose_turn_it_is_acts() -> None:
    c = fresh()
    early = attack("Drisban", "0000", "0000")
    with pytest.raises(OutOfTurn, match="Cynere's turn"):
        go(c, early)
    with pytest.raises(OutOfTurn):
        go(c, FullDefense(who="Drisban"))
    # The GM's override (SRD: the GM decides the order): Drisban first, and his turn now.
    c, _ = go(c, SetTurnOrder(order=("Drisban", "Cynere")))
    assert isinstance(c, FateConflict)
    assert c.turn == "Cynere"  # the turn stays with whoever had it
    with pytest.raises(RuleError):
        go(c, SetTurnOrder(order=("Drisban",)))


def test_a_consequence_is_an_aspect_with_a_free_invoke_for_the_attacker() -> None:
    """SRD, Consequences: a 5-shift hit on Drisban (boxes 1 and 2 free) taken as the
    1-box and a moderate (1 + 4); "The opponent who forced you to take a consequence
    gets a free invocation"."""
    c = fresh()
    # Cynere: 3 + 4 = Fantastic (+7); Drisban: 4 - 2 = Fair (+2): 5 shifts, with style.
    five = attack("Cynere", "++++", "--00")
    c, _ = go(
        c,
        five,
        Absorb(
            who="Drisban",
            absorption=Absorption(track="physical", boxes=(0,), slots=(1,)),
            names=("Slashed Arm",),
        ),
    )
    assert isinstance(c, FateConflict)
    assert Aspect(name="Slashed Arm", free_invokes=1, holder="Cynere", owner="Drisban") in c.aspects
    drisban = c.conflict.combatant("Drisban")
    assert [(s.severity, s.aspect) for s in drisban.slots][:2] == [
        ("mild", None),
        ("moderate", "Slashed Arm"),
    ]
    # A wasteful or short absorption is refused: the 2-box and a mild cover 4 of 5.
    c2, _ = go(fresh(), five)
    with pytest.raises(RuleError):
        go(
            c2,
            Absorb(
                who="Drisban",
                absorption=Absorption(track="physical", boxes=(1,), slots=(0,)),
                names=("Winded",),
            ),
        )
    # A consequence needs a name.
    with pytest.raises(RuleError):
        go(c2, Absorb(who="Drisban", absorption=Absorption(track="physical", slots=(2,))))


def test_concession_pays_one_plus_the_consequences_at_the_end() -> None:
    """SRD, Conceding: a fate point for conceding, one more per consequence taken in this
    conflict; Ending a Conflict: over when one side has nobody left. Stress clears,
    consequences stay."""
    c = fresh()
    c, _ = go(
        c,
        attack("Cynere", "++++", "--00"),
        Absorb(
            who="Drisban",
            absorption=Absorption(track="physical", boxes=(0,), slots=(1,)),
            names=("Slashed Arm",),
        ),
    )
    c, events = go(c, Concede(who="Drisban"))
    assert isinstance(c, FateConflict)
    ended = events[-1]
    assert isinstance(ended, ConflictEnded)
    assert (ended.winner, ended.ended_by, dict(ended.paid)) == (
        "Cynere",
        "conceded",
        {"Drisban": 2},
    )
    assert c.finished and c.winner == "Cynere"
    # The score the players' view shows: who is still in, by side.
    assert find_system("fate").tally(c) == ({"Drisban": 0, "Cynere": 1}, "still in")
    assert {p.name: p.fate_points for p in c.participants} == {"Drisban": 2, "Cynere": 2}
    assert boxes(c, "Drisban") == [(1, False), (2, False)]  # stress cleared
    assert c.conflict.combatant("Drisban").slots[1].aspect == "Slashed Arm"
    assert "Slashed Arm" in find_system("fate").aspects(c)
    with pytest.raises(RuleError):
        go(c, TakeTurn(who="Cynere"))  # the conflict is over


def test_a_hit_too_big_takes_the_defender_out() -> None:
    """SRD, Getting Taken Out: Drisban (boxes 1, 2; mild, moderate, severe: 2 + 12 = 14
    at most) cannot absorb more; he may also choose to be taken out of a smaller hit."""
    c, _ = go(fresh(), cynere_hits_for_two())
    c, events = go(c, TakeOut(who="Drisban"))
    assert isinstance(c, FateConflict)
    resolved, ended = events
    assert isinstance(resolved, AttackResolved) and resolved.taken_out
    assert isinstance(ended, ConflictEnded)
    assert (ended.winner, ended.ended_by, dict(ended.paid)) == ("Cynere", "taken out", {})
    assert c.conflict.combatant("Drisban").taken_out
    line = find_system("fate").describe(resolved)[0]
    assert line.endswith("a 2-shift physical hit: taken out")


def test_full_defense_adds_two_to_every_defense_for_the_exchange() -> None:
    """SRD, Full Defense: +2 to all defend rolls for the exchange. Drisban (turn order
    set first) goes on full defense; Cynere's Superb (+5) against his Good (+3) + 2 is a
    tie: no harm, and Cynere gets a boost."""
    c, _ = go(fresh(), SetTurnOrder(order=("Drisban", "Cynere")))
    assert isinstance(c, FateConflict)
    # Cynere still has the turn: she takes it with something else first.
    c, _ = go(c, TakeTurn(who="Cynere", what="creates an advantage"))
    assert isinstance(c, FateConflict) and c.turn == "Drisban"
    # Exchange 2: Drisban first, on full defense; then Cynere attacks.
    c, _ = go(c, FullDefense(who="Drisban"))
    assert isinstance(c, FateConflict)
    assert c.conflict.exchange == 2 and c.turn == "Cynere"
    c, events = go(c, cynere_hits_for_two())
    (resolved,) = events
    assert isinstance(resolved, AttackResolved)
    assert (resolved.attack.defense_total, resolved.attack.result.outcome) == (5, "tie")
    assert isinstance(c, FateConflict)
    assert Aspect(name="Cynere's boost", free_invokes=1, holder="Cynere", boost=True) in c.aspects
    # A new exchange: full defense is over.
    assert c.conflict.exchange == 3 and c.defending == frozenset()


def test_the_gm_ends_the_conflict_and_it_decodes_again() -> None:
    c, _ = go(fresh(), TakeTurn(who="Cynere"), Concede(who="Cynere"))
    assert isinstance(c, FateConflict)
    assert c.finished and c.winner == "Drisban"
    again = fresh()
    again, _ = go(again, EndConflict())
    assert isinstance(again, FateConflict) and again.finished and again.winner is None
    assert decode(encode(c), Contest) == c


def test_an_attack_turns_the_contest_into_a_conflict_with_what_it_had() -> None:
    contest = new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=3, fate_points=1),
            FateParticipant(name="Drisban", side="Drisban", skill=4),
        ],
        [Aspect(name="Muddy Ground", free_invokes=1, holder="Drisban")],
    )
    c = conflict_from(contest, ROSTER)
    assert [p.fate_points for p in c.participants] == [1, 0]  # as the contest left them
    assert c.aspects == contest.aspects  # free invokes kept
    assert [x.name for x in c.conflict.combatants] == ["Cynere", "Drisban"]  # by Notice
    # Physique Average (+1): the 3-box too; Drisban Mediocre: 1 and 2.
    assert boxes(c, "Cynere") == [(1, False), (2, False), (3, False)]
    assert boxes(c, "Drisban") == [(1, False), (2, False)]


def test_a_conflict_in_a_campaign_undoes_redoes_and_reloads(saves: Path) -> None:
    campaign, files, cid = start(saves)
    act(campaign, files, Play(contest_id=cid, commands=(cynere_hits_for_two(),)))
    absorbed = Absorb(who="Drisban", absorption=Absorption(track="physical", boxes=(1,)))
    act(campaign, files, Play(contest_id=cid, commands=(absorbed,)))

    def state() -> FateConflict:
        s = campaign.contests[cid].state
        assert isinstance(s, FateConflict)
        return s

    assert boxes(state(), "Drisban") == [(1, False), (2, True)]
    act(campaign, files, Undo())
    assert state().hit is not None and boxes(state(), "Drisban") == [(1, False), (2, False)]
    act(campaign, files, Redo())
    assert boxes(state(), "Drisban") == [(1, False), (2, True)]
    reopened = CampaignFiles(saves / "warehouse").load().contests[cid].state
    assert reopened == state()


def test_the_end_of_a_conflict_is_written_back_onto_the_roster(saves: Path) -> None:
    """After the conflict (SRD, Conceding; Consequences; Recovering): Drisban's moderate
    "Slashed Arm" stays on his sheet, his concession's two fate points (1 + the one
    consequence) are his, and the summary says what the roster gains."""
    campaign, files, cid = start(saves)
    five = attack("Cynere", "++++", "--00")
    moderate = Absorb(
        who="Drisban",
        absorption=Absorption(track="physical", boxes=(0,), slots=(1,)),
        names=("Slashed Arm",),
    )
    act(campaign, files, Play(contest_id=cid, commands=(five, moderate)))
    act(campaign, files, Play(contest_id=cid, commands=(Concede(who="Drisban"),)))
    told = summary(campaign, campaign.contests[cid])
    assert "Drisban is paid 2 fate points for conceding" in told.costs
    assert any("Slashed Arm" in line and "fate points 0 → 2" in line for line in told.roster)
    act(campaign, files, WriteBack(contest_id=cid))
    drisban = fate_sheet(CampaignFiles(saves / "warehouse").load().roster["Drisban"])
    assert drisban.fate_points == 2
    assert drisban.consequences == (
        Slot(severity="mild"),
        Slot(severity="moderate", aspect="Slashed Arm", holder="Cynere", free_invokes=1),
        Slot(severity="severe"),
    )
    cynere = fate_sheet(CampaignFiles(saves / "warehouse").load().roster["Cynere"])
    assert (cynere.fate_points, cynere.consequences) == (2, None)  # nothing taken: derived


def test_a_contests_command_in_a_conflict_is_refused_in_plain_words() -> None:
    """A contest's exchange (ResolveExchange) is no action of a conflict (SRD, Conflicts:
    each acts on their turn): refused, saying so once ("Fate Core conflicts", not
    "Fate Core conflicts contests")."""
    from core.model import ResolveExchange

    with pytest.raises(RuleError) as refused:
        go(fresh(), ResolveExchange())
    assert str(refused.value) == "ResolveExchange is not an action in Fate Core conflicts"
