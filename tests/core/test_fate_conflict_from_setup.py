"""A Fate conflict set up directly (issue 28, "What to build" 1: "`n` → conflict in
setup"): the setup's options ``conflict`` (the harm) and ``order`` (the GM's turn order)
make the contest a conflict from its start, with the same people, fate points and
aspects, and each one's skills from the roster.

The turn orders are worked out by hand from the SRD, "Turn Order": "In a physical
conflict, compare your Notice skill to the other participants. ... In a mental conflict,
compare your Empathy skill ... If anyone is tied, compare a secondary skill: Athletics
for a physical conflict, Rapport for a mental one. Then Physique / Will."
"""

from __future__ import annotations

import pytest

from core.campaign.log import Character
from core.campaign.setup import build_contest, describe_options
from core.campaign.sheet import Pick
from core.errors import RuleError
from core.systems.fate.character import FateCharacter
from core.systems.fate.conflict_play import FateConflict

# Notice: both Good (+3), a tie; Athletics: Cynere Great (+4), Drisban Fair (+2): Cynere
# first in a physical conflict. Empathy: neither has it (Mediocre), a tie; Rapport:
# Cynere Average (+1), Drisban Good (+3): Drisban first in a mental one.
CYNERE = Character(
    name="Cynere",
    ratings={"Notice": 3, "Athletics": 4, "Rapport": 1, "Fight": 3},
    sheet=FateCharacter(fate_points=2, aspects=("I've Got Zird's Back",)),
)
DRISBAN = Character(
    name="Drisban",
    kind="npc",
    ratings={"Notice": 3, "Athletics": 2, "Rapport": 3, "Fight": 4},
)
ROSTER = {c.name: c for c in (CYNERE, DRISBAN)}
PICKS = [
    Pick(character="Cynere", side="Cynere", rating="Fight"),
    Pick(character="Drisban", side="Drisban", rating="Fight"),
]


def conflict(options: dict[str, object]) -> FateConflict:
    built = build_contest("fate", ROSTER, PICKS, options, ("Dark Warehouse",))
    assert isinstance(built, FateConflict)
    return built


def test_a_physical_conflict_seats_by_notice_then_athletics() -> None:
    c = conflict({"conflict": "physical"})
    assert c.conflict.kind == "physical"
    assert [x.name for x in c.conflict.combatants] == ["Cynere", "Drisban"]
    assert c.turn == "Cynere"
    assert {p.name: p.fate_points for p in c.participants} == {"Cynere": 2, "Drisban": 0}
    assert {p.name: p.skills["Fight"] for p in c.participants} == {"Cynere": 3, "Drisban": 4}
    assert [a.name for a in c.aspects] == ["Dark Warehouse", "I've Got Zird's Back"]


def test_a_mental_conflict_seats_by_empathy_then_rapport() -> None:
    c = conflict({"conflict": "mental"})
    assert [x.name for x in c.conflict.combatants] == ["Drisban", "Cynere"]
    assert c.turn == "Drisban"


def test_the_gms_order_and_a_stale_one() -> None:
    c = conflict({"conflict": "physical", "order": ["Drisban", "Cynere"]})
    assert [x.name for x in c.conflict.combatants] == ["Drisban", "Cynere"]
    # An order set before a participant changed names someone else: refused, clearly.
    with pytest.raises(RuleError, match=r"turn order \(Drisban, Bob\) does not name"):
        conflict({"conflict": "physical", "order": ["Drisban", "Bob"]})
    with pytest.raises(RuleError, match="physical"):
        conflict({"conflict": "sonic"})


def test_no_conflict_against_a_difficulty_and_the_options_in_words() -> None:
    with pytest.raises(RuleError, match="between sides"):
        conflict({"conflict": "physical", "mode": "environment", "difficulty": 2})
    assert describe_options("fate", {"conflict": "mental"}) == [
        "a mental conflict, turn order by Empathy, then Rapport, then Will"
    ]
    assert describe_options("fate", {"conflict": "physical", "order": ["Drisban", "Cynere"]}) == [
        "a physical conflict, turn order Drisban, Cynere"
    ]
