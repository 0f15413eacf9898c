"""Consequences as the GM writes them on the roster's form (issue 28, "What to build" 3
and 4): ``mild: Black Eye*; moderate: Broken Leg``, each in a slot of the character's.
The slots are the SRD's ("Consequences": one mild, one moderate, one severe; "Physique":
"Superb (+5) and above give you an additional mild consequence slot" for physical
harm); a star marks one recovering ("Recovering from a Consequence": "mark it with a
star")."""

from __future__ import annotations

import pytest

from core.errors import RuleError
from core.systems.fate.conflict import new_combatant
from core.systems.fate.stress import Slot, consequences_text, written

CORE = new_combatant("Landon", "Landon", physique=2).slots  # mild, moderate, severe
SUPERB = new_combatant("Zird", "Zird", physique=5).slots  # and a mild for physical harm


def test_each_consequence_takes_a_slot_of_its_severity() -> None:
    slots = written("moderate: Broken Leg; mild: Black Eye*", CORE)
    assert slots == (
        Slot(severity="mild", aspect="Black Eye", recovery="treated"),
        Slot(severity="moderate", aspect="Broken Leg"),
        Slot(severity="severe"),
    )
    assert consequences_text(slots) == "mild: Black Eye*; moderate: Broken Leg"
    assert written(consequences_text(slots), slots) == slots  # what it writes reads back


def test_more_than_the_character_has_is_refused() -> None:
    # Fate Core: one mild slot; a Fair Physique gives no second one.
    with pytest.raises(RuleError, match='no mild slot left for "Split Lip": the character has 1'):
        written("mild: Black Eye; mild: Split Lip", CORE)
    # Superb Physique: the second mild, for physical harm, takes it.
    slots = written("mild: Black Eye; mild: Split Lip", SUPERB)
    assert [(s.aspect, s.only) for s in slots if s.severity == "mild"] == [
        ("Black Eye", None),
        ("Split Lip", "physical"),
    ]
    assert consequences_text(slots) == "mild: Black Eye; mild (physical): Split Lip"
    with pytest.raises(RuleError, match="no mild \\(mental\\) slot"):
        written("mild (mental): Rattled", SUPERB)
    # No extreme slot without the option.
    with pytest.raises(RuleError, match="no extreme slot"):
        written("extreme: Lost an Arm", CORE)


def test_bad_writing_is_refused_saying_how_to_write_it() -> None:
    for text in ("Broken Leg", "huge: Broken Leg", "moderate Broken Leg"):
        with pytest.raises(RuleError, match="write a consequence as its severity"):
            written(text, CORE)
    with pytest.raises(RuleError, match="written twice"):
        written("mild: Sore; moderate: Sore", CORE)
    assert written("", CORE) == CORE
    assert written("Moderate: free", CORE) == CORE  # "free" is an empty slot, as shown


def test_a_kept_consequence_keeps_its_invoke_and_recovery() -> None:
    # The side that inflicted it keeps its free invoke (SRD, "Consequences"); one whose
    # recovery is under way stays at its stage; one moved to another severity too.
    before = (
        Slot(severity="mild", aspect="Black Eye", holder="Drisban", free_invokes=1),
        Slot(severity="moderate", aspect="Broken Leg", recovery="healing"),
        Slot(severity="severe"),
    )
    after = written("moderate: Black Eye; severe: Broken Leg*", before)
    assert after == (
        Slot(severity="mild"),
        Slot(severity="moderate", aspect="Black Eye", holder="Drisban", free_invokes=1),
        Slot(severity="severe", aspect="Broken Leg", recovery="healing"),
    )
    # No star: its recovery stops; erased: the slot is free.
    assert written("moderate: Broken Leg", before) == (
        Slot(severity="mild"),
        Slot(severity="moderate", aspect="Broken Leg"),
        Slot(severity="severe"),
    )
