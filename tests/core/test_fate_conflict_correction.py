"""Correcting a Fate conflict's attack (issue 28, "What to build" 2: "Undo, redo and
corrections work as everywhere else"): the attack's dice changed, its absorption given
again where the old one no longer fits, and every later action replayed through the
engine with the dice it had (core.campaign.corrections). The warehouse is the SRD's, in
tests/conflict_campaigns.py: action 1, Cynere's 2-shift hit on Drisban's 2-box; action 2,
Drisban's 4-shift hit on Cynere (Athletics Great +4, --00: Fair +2, against Fantastic
+6), taken as a moderate, "Cracked Ribs".

Expected values worked out from the Fate Core SRD: "Resolving Attacks" (shifts are the
margin; 3 or more, with style; a fail by less than 3 gives nobody a boost), "Stress" (one
box whose value covers what it absorbs), "Consequences" (mild 2, moderate 4; a new aspect
with one free invoke for the side that inflicted it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.campaign.corrections import correct, reopen
from core.campaign.log import Correct, Undo
from core.errors import RuleError
from core.saves.store import CampaignFiles
from core.systems.fate.conflict import Absorption
from core.systems.fate.conflict_play import Absorb, Attack, FateConflict
from tests.conflict_campaigns import attack, warehouse
from tests.helpers import act


def state_of(campaign: object) -> FateConflict:
    s = campaign.contest("c1").state  # type: ignore[attr-defined]
    assert isinstance(s, FateConflict)
    return s


def test_a_bigger_hit_asks_a_new_absorption_and_the_later_attack_plays_again(
    saves: Path,
) -> None:
    """Action 1 corrected: Cynere rolled +++0, not ++00: Fight +3 + 3 = Fantastic (+6)
    against Drisban's Good (+3): 3 shifts, with style. His 2-box alone no longer covers
    the hit: that correction is refused, saying so. The 1-box and a mild (1 + 2 = 3),
    "Cut Cheek", do: then Drisban's attack (action 2) is played again with its dice,
    still 4 shifts, still Cynere's moderate."""
    campaign = CampaignFiles(warehouse(saves)).load()
    _, commands = reopen(campaign, "c1", 1)
    old = next(c for c in commands if isinstance(c, Attack))
    assert old == attack("Cynere", "++00", "-000")
    bigger = attack("Cynere", "+++0", "-000")
    box = Absorb(who="Drisban", absorption=Absorption(track="physical", boxes=(1,)))
    with pytest.raises(RuleError, match="the corrected exchange no longer plays"):
        correct(campaign, Correct(contest_id="c1", n=1, commands=(bigger, box)))
    mild = Absorb(
        who="Drisban",
        absorption=Absorption(track="physical", boxes=(0,), slots=(0,)),
        names=("Cut Cheek",),
    )
    worked = correct(campaign, Correct(contest_id="c1", n=1, commands=(bigger, mild)))
    after = worked.after
    assert isinstance(after, FateConflict)
    drisban = after.conflict.combatant("Drisban")
    assert [b.checked for b in drisban.track("physical").boxes] == [True, False]
    assert (drisban.slots[0].aspect, drisban.slots[0].holder) == ("Cut Cheek", "Cynere")
    assert after.conflict.combatant("Cynere").slots[1].aspect == "Cracked Ribs"
    assert worked.changes()[:3] == [
        "  was   Exchange 1: Cynere attacks Drisban, a 2-shift physical hit: the 2-box",
        "  now   Exchange 1: Cynere attacks Drisban, a 3-shift physical hit with style: "
        "the 1-box and a mild",
        "  same  Exchange 1: Drisban attacks Cynere, a 4-shift physical hit with style: a moderate",
    ]


def test_the_last_attack_corrected_to_a_miss_takes_its_consequence_away(saves: Path) -> None:
    """Action 2 corrected: Drisban rolled 0000 (Fight +4: Great +4), Cynere ++00
    (Athletics +4 + 2: Superb +5): he fails by 1, no harm and no boost (SRD: a boost for
    the defender only with style). Cynere's moderate goes, and its aspect; her turn, in
    exchange 2, as before. In the campaign: u takes the correction back."""
    files = CampaignFiles(warehouse(saves))
    campaign, cid = files.load(), "c1"
    miss = attack("Drisban", "0000", "++00", defense="Athletics")
    act(campaign, files, Correct(contest_id=cid, n=2, commands=(miss,)))
    c = state_of(campaign)
    assert c.hit is None and c.n == 2
    assert [s.aspect for s in c.conflict.combatant("Cynere").slots] == [None, None, None]
    assert not any(a.name == "Cracked Ribs" for a in c.aspects)
    assert (c.conflict.exchange, c.turn) == (2, "Cynere")
    assert CampaignFiles(saves / "warehouse").load().contest(cid).state == c
    act(campaign, files, Undo())
    assert state_of(campaign).conflict.combatant("Cynere").slots[1].aspect == "Cracked Ribs"


def test_a_correction_that_ends_the_conflict_sooner_says_what_no_longer_plays(
    saves: Path,
) -> None:
    """Action 1 corrected: Cynere rolled ++++ against Drisban's ----: Fight +3 + 4 =
    Legendary (+7) against Fight +4 - 4 = Mediocre (+0), 7 shifts; he is taken out
    (SRD, Getting Taken Out) and the conflict ends: Drisban's attack (action 2, in the
    same exchange 1) is not played, which the question says in those words (its log
    number, 2, is no exchange of the conflict's)."""
    from core.systems.fate.conflict_play import TakeOut

    campaign = CampaignFiles(warehouse(saves)).load()
    out = (attack("Cynere", "++++", "----"), TakeOut(who="Drisban"))
    worked = correct(campaign, Correct(contest_id="c1", n=1, commands=out))
    lines = worked.changes()
    assert "  now   (not played: the contest is over before it)" in lines
    assert lines[-1] == "Result was: not over after 1 exchange; now: Cynere wins after 1 exchange"
