"""Invokes in a Fate conflict (issue 28, "What to build" 2: "invokes from both sides"),
through the engine: +2 or a reroll, paid with a fate point, a free invoke or (for an NPC)
the GM's pool, on the attack's roll and on the defense's; a consequence's free invoke
spent by the side that inflicted it, and then gone; undo and redo.

Expected values are worked out by hand from the Fate Core SRD: "Invoking Aspects" (+2 or
a reroll, a fate point or a free invocation; "you can't invoke the same aspect more than
once on a single roll" with points, rules.md §1.4.1; a point paid for an aspect on
another character goes to them at the end of the scene), "Boosts" (invoked once, free,
then gone), "Conflicts" (Resolving Attacks: the shifts are the margin; Consequences: "The
opponent who forced you to take a consequence gets a free invocation"), and "The GM and
fate points" (the pool pays for NPCs only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.campaign.log import Play, Redo, Undo
from core.engine import play
from core.errors import RuleError, UnknownName
from core.model import Command, Event
from core.rules import find_system
from core.saves.store import CampaignFiles
from core.systems.fate.conflict import Absorption
from core.systems.fate.conflict_play import (
    Absorb,
    AttackResolved,
    ConflictInvoke,
    EndConflict,
    FateConflict,
    TakeTurn,
)
from core.systems.fate.rules import NoFatePoints
from core.systems.fate.state import Aspect
from tests.conflict_campaigns import attack, opening, start
from tests.helpers import act, fate_dice

MUD = "Muddy Ground"  # a situation aspect: nobody's, no free invoke


def scene() -> FateConflict:
    """The SRD's warehouse (tests/conflict_campaigns.py): Cynere (Fight Good +3, 2 fate
    points) acts first by Notice; Drisban (Fight Great +4, no fate points), an NPC; the
    GM's pool holds 1; the scene has Muddy Ground."""
    return opening(MUD, npcs=True, gm_pool=1)


def go(c: FateConflict, *commands: Command) -> tuple[FateConflict, tuple[Event, ...]]:
    after, events = play(c, commands)
    assert isinstance(after, FateConflict)
    return after, events


def fp(c: FateConflict) -> dict[str, int]:
    return {p.name: p.fate_points for p in c.participants}


def aspect(c: FateConflict, name: str) -> Aspect | None:
    return next((a for a in c.aspects if a.name == name), None)


def test_a_paid_plus_two_turns_a_tie_into_a_hit() -> None:
    """Cynere: Fight +3, dice 0000: Good (+3). Drisban: Fight +4, dice -000: Good (+3).
    A tie (no harm). Cynere pays a fate point to invoke Muddy Ground: +2, Superb (+5)
    against Good (+3): a 2-shift hit. Her points 2 → 1; a situation aspect belongs to
    nobody, so nobody is owed the point."""
    c, events = go(scene(), attack("Cynere", "0000", "-000", ConflictInvoke("Cynere", MUD)))
    assert c.hit is not None and c.hit.shifts == 2
    assert (c.hit.attack.total, c.hit.attack.defense_total) == (5, 3)
    assert fp(c) == {"Drisban": 0, "Cynere": 1}
    assert c.owed == {}
    c, events = go(c, Absorb(who="Drisban", absorption=Absorption(track="physical", boxes=(1,))))
    (resolved,) = events
    assert isinstance(resolved, AttackResolved)
    lines = find_system("fate").describe(resolved)
    assert lines[1] == "  Cynere (Fight): 0000 +2 → Superb (+5)"
    assert lines[2] == "    Cynere invokes Muddy Ground (1 FP): +2"
    assert list(find_system("fate").spent(resolved)) == [("Cynere", "fate points", 1)]


def test_a_reroll_replaces_the_attackers_dice() -> None:
    """Cynere rolls ----: Fight +3 - 4 = Poor (-1), against Drisban's Good (+3, -000).
    She pays to invoke Muddy Ground for a reroll: ++00, Superb (+5): a 2-shift hit."""
    reroll = ConflictInvoke("Cynere", MUD, effect="reroll", faces=fate_dice("++00"))
    c, _ = go(scene(), attack("Cynere", "----", "-000", reroll))
    assert c.hit is not None and c.hit.shifts == 2
    assert c.hit.attack.faces == fate_dice("++00") and c.hit.attack.total == 5
    assert fp(c)["Cynere"] == 1


def test_one_paid_invoke_per_aspect_per_roll_and_no_point_no_invoke() -> None:
    """Rules §1.4.1 (F19): a second paid invoke of Muddy Ground on one roll is refused.
    Drisban has no fate point: his paid invoke is refused, saying the GM's pool could
    pay; nothing changes."""
    twice = attack(
        "Cynere", "0000", "-000", ConflictInvoke("Cynere", MUD), ConflictInvoke("Cynere", MUD)
    )
    with pytest.raises(RuleError, match="already been paid for on this roll"):
        go(scene(), twice)
    broke = attack("Cynere", "0000", "-000", ConflictInvoke("Drisban", MUD))
    with pytest.raises(NoFatePoints, match=r"Drisban has no fate points left .*pool has 1"):
        go(scene(), broke)
    with pytest.raises(UnknownName):
        go(scene(), attack("Cynere", "0000", "-000", ConflictInvoke("Cynere", "Nowhere")))
    # Cynere, a PC, never draws on the pool (SRD, The GM and fate points).
    with pytest.raises(RuleError, match="PC"):
        go(scene(), attack("Cynere", "0000", "-000", ConflictInvoke("Cynere", MUD, pool=True)))


def bruised() -> FateConflict:
    """Exchange 1: Cynere takes another action; Drisban attacks her: Fight +4, 0000:
    Great (+4) against her Fight +3, -000: Fair (+2): a 2-shift hit, taken as a mild
    consequence, "Bruised Arm": an aspect on her, its free invoke for Drisban's side."""
    c, _ = go(scene(), TakeTurn(who="Cynere", what="looks for the exit"))
    hit = attack("Drisban", "0000", "-000")
    mild = Absorb(
        who="Cynere", absorption=Absorption(track="physical", slots=(0,)), names=("Bruised Arm",)
    )
    c, _ = go(c, hit, mild)
    bruise = aspect(c, "Bruised Arm")
    assert bruise is not None and (bruise.free_invokes, bruise.holder) == (1, "Drisban")
    return c


def test_the_defender_spends_the_free_invoke_of_a_consequence_he_inflicted() -> None:
    """Exchange 2: Cynere attacks, Fight +3, +000: Great (+4), against Drisban's Fight
    +4, -000: Good (+3): a 1-shift hit. Drisban spends his side's free invoke on Bruised
    Arm: +2, Superb (+5): Cynere fails by 1 (no boost: style is 3). The invoke is gone,
    from the aspect and from her mild slot; no fate point moves."""
    c = bruised()
    free = ConflictInvoke("Drisban", "Bruised Arm", free=True)
    c, events = go(c, attack("Cynere", "+000", "-000", free))
    resolved = events[-1]
    assert isinstance(resolved, AttackResolved)
    assert resolved.attack.result.outcome == "fail" and c.hit is None
    assert (resolved.attack.total, resolved.attack.defense_total) == (4, 5)
    bruise = aspect(c, "Bruised Arm")
    assert bruise is not None and bruise.free_invokes == 0
    mild = c.conflict.combatant("Cynere").slots[0]
    assert (mild.aspect, mild.free_invokes) == ("Bruised Arm", 0)
    assert fp(c) == {"Drisban": 0, "Cynere": 2} and c.gm_pool == 1
    lines = find_system("fate").describe(resolved)
    assert "  Drisban (Fight): -000 +2 → Superb (+5)" in lines
    assert "    Drisban invokes Bruised Arm (free): +2" in lines
    assert list(find_system("fate").spent(resolved)) == []
    # Spent, it is gone: a second free invoke is refused.
    again = attack("Drisban", "0000", "0000", ConflictInvoke("Drisban", "Bruised Arm", free=True))
    with pytest.raises(RuleError, match="no free invokes left"):
        go(c, again)


def test_cynere_cannot_spend_the_free_invoke_drisbans_side_holds() -> None:
    free = ConflictInvoke("Cynere", "Bruised Arm", free=True)
    with pytest.raises(RuleError, match="belong to Drisban"):
        go(bruised(), attack("Cynere", "+000", "-000", free))


def test_the_pool_pays_for_the_npc_and_the_point_goes_to_the_aspects_owner() -> None:
    """Drisban, out of points, invokes Cynere's Bruised Arm paid from the GM's pool (his
    free invoke kept): the pool 1 → 0, and the point goes to Cynere, the aspect's owner,
    at the end of the scene: her 2 become 3 when the conflict ends."""
    c = bruised()
    paid = ConflictInvoke("Drisban", "Bruised Arm", pool=True)
    c, _ = go(c, attack("Cynere", "+000", "-000", paid))
    assert c.gm_pool == 0 and c.owed == {"Cynere": 1}
    bruise = aspect(c, "Bruised Arm")
    assert bruise is not None and bruise.free_invokes == 1
    with pytest.raises(NoFatePoints, match="pool is empty"):
        go(
            c,
            attack("Drisban", "0000", "0000", ConflictInvoke("Drisban", MUD, pool=True)),
        )
    c, _ = go(c, EndConflict())
    assert fp(c) == {"Drisban": 0, "Cynere": 3}


def test_a_boost_is_invoked_free_once_then_gone() -> None:
    """SRD, Attack: a tie gives the attacker a boost. Cynere, Fight +3, 0000, ties
    Drisban's Good (+3, -000): "Cynere's boost". Drisban's attack ties too (Fight +4,
    -000 against her 0000: Good against Good). Her next attack, the same tie, spends her
    boost free: +2, a 2-shift hit; the boost is gone; paying for it is refused."""
    c, _ = go(scene(), attack("Cynere", "0000", "-000"))
    boost = aspect(c, "Cynere's boost")
    assert boost is not None and boost.boost
    back = attack("Drisban", "-000", "0000")
    c, _ = go(c, back)
    paid = attack("Cynere", "0000", "-000", ConflictInvoke("Cynere", "Cynere's boost"))
    with pytest.raises(RuleError, match="boost"):
        go(c, paid)
    used = attack("Cynere", "0000", "-000", ConflictInvoke("Cynere", "Cynere's boost", free=True))
    c, _ = go(c, used)
    assert c.hit is not None and c.hit.shifts == 2
    assert aspect(c, "Cynere's boost") is None


def test_undo_gives_the_fate_point_back_and_redo_spends_it_again(saves: Path) -> None:
    campaign, files, cid = start(saves, scene())

    def state() -> FateConflict:
        s = campaign.contests[cid].state
        assert isinstance(s, FateConflict)
        return s

    invoked = attack("Cynere", "0000", "-000", ConflictInvoke("Cynere", MUD))
    act(campaign, files, Play(contest_id=cid, commands=(invoked,)))
    assert fp(state())["Cynere"] == 1 and state().hit is not None
    act(campaign, files, Undo())
    assert fp(state())["Cynere"] == 2 and state().hit is None
    act(campaign, files, Redo())
    assert fp(state())["Cynere"] == 1 and state().hit is not None
    reopened = CampaignFiles(saves / "warehouse").load().contests[cid].state
    assert reopened == state()
