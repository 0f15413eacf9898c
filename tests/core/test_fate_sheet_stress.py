"""Stress tracks and consequence slots on Fate's own sheet (issue 28, slice 2): what a
character carries from conflict to conflict, read from Fari, Foundry and TOML files,
written back out, and derived by the rules for a character saved before conflicts.

Expected values are worked out from the Fate Core SRD ("Stress", "Consequences", the
Physique and Will skills) and read off the sample files in tests/data/roster/, never
copied from Tussle's output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.campaign.log import Character
from core.campaign.roster_file import Refused, RosterFileError, export_text, read_bytes, read_file
from core.files.codec import decode, encode
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.conflict import (
    absorptions,
    character_slots,
    character_tracks,
    combatant_of,
)
from core.systems.fate.stress import Box, Slot, Track
from tests.helpers import ROSTER_FILES


def values(track: Track) -> list[tuple[int, bool]]:
    return [(b.value, b.checked) for b in track.boxes]


# -- a character without them (every one saved before conflicts) ------------------------------


def test_an_old_fate_character_decodes_without_stress_and_gets_core_tracks_by_skill() -> None:
    # Saved before issue 28: no stress, no consequences.
    old = {"@": "fate.FateCharacter", "aspects": ["Sworn"], "fate_points": 2, "refresh": 3}
    sheet = decode(old, FateCharacter)
    assert (sheet.stress, sheet.consequences) == ((), None)
    # SRD, Physique: Fair (+2) gives a 3-point box beside the 1 and 2; Will Good (+3) a 3
    # and a 4.
    physical, mental = character_tracks({"Physique": 2, "Will": 3}, sheet)
    assert (physical.name, values(physical)) == ("physical", [(1, False), (2, False), (3, False)])
    assert [b.value for b in mental.boxes] == [1, 2, 3, 4]
    # SRD, Consequences: mild, moderate and severe, for every character.
    assert [s.severity for s in character_slots({"Physique": 2}, sheet)] == [
        "mild",
        "moderate",
        "severe",
    ]


def test_a_superb_physique_gets_an_extra_mild_slot_for_physical_harm_only() -> None:
    # SRD, Physique: "Superb (+5) and above give you an additional mild consequence slot.
    # That slot can only take physical harm."; no skill at all: Mediocre, two boxes.
    slots = character_slots({"Physique": 5}, FateCharacter())
    assert [(s.severity, s.only) for s in slots] == [
        ("mild", None),
        ("moderate", None),
        ("severe", None),
        ("mild", "physical"),
    ]
    physical, mental = character_tracks({"Physique": 5}, FateCharacter())
    assert ([b.value for b in physical.boxes], [b.value for b in mental.boxes]) == (
        [1, 2, 3, 4],
        [1, 2],
    )


def test_a_sheet_with_its_own_tracks_keeps_them_and_adds_extra_ones() -> None:
    sheet = FateCharacter(
        stress=(
            Track(name="mental", boxes=(Box(value=1), Box(value=1, checked=True))),
            Track(name="Corruption", boxes=(Box(value=1),) * 3),
        ),
    )
    physical, mental, corruption = character_tracks({"Physique": 0, "Will": 4}, sheet)
    assert [b.value for b in physical.boxes] == [1, 2]  # Mediocre Physique: by the rules
    assert values(mental) == [(1, False), (1, True)]  # the sheet's, not Great Will's four
    assert (corruption.name, len(corruption.boxes)) == ("Corruption", 3)


# -- Fari, Foundry --------------------------------------------------------------------------


def test_a_fari_sheet_brings_its_stress_and_consequences() -> None:
    (arrival,) = read_file(ROSTER_FILES / "fari-v3-cynere.json", "fate")
    sheet = fate_sheet(arrival.character)
    # Its Stress section: Physical boxes "1" (checked), "2", "3"; Mental "1", "2".
    physical, mental = sheet.stress
    assert (physical.name, values(physical)) == ("physical", [(1, True), (2, False), (3, False)])
    assert (mental.name, values(mental)) == ("mental", [(1, False), (2, False)])
    # Its Consequences section: Mild "Sprained Ankle", Moderate and Severe empty.
    assert sheet.consequences == (
        Slot(severity="mild", aspect="Sprained Ankle"),
        Slot(severity="moderate"),
        Slot(severity="severe"),
    )
    assert not any(
        w in item for item in arrival.left_out for w in ("Physical", "Mental", "Sprained")
    )
    # In a conflict, Cynere's 1-box is checked: a 1-shift hit takes the 2-box or the 3
    # (the SRD's "covers" reading, conflict.absorptions), no longer the 1 (or a
    # consequence alone: the moderate or the severe, the mild being taken).
    cynere = combatant_of("Cynere", "Cynere", arrival.character.ratings, sheet)
    ways = absorptions(cynere, "physical", 1)
    assert {a.boxes for a in ways if a.boxes} == {(1,), (2,)}
    assert {a.slots for a in ways if not a.boxes} == {(1,), (2,)}
    # The mild slot is taken: a 2-shift hit has the 2-box, the 3-box, the moderate...
    assert all(0 not in a.slots for a in absorptions(cynere, "physical", 2))


def test_a_foundry_actor_brings_its_stress_and_its_consequence() -> None:
    (arrival,) = read_file(ROSTER_FILES / "foundry-landon.json", "fate")
    sheet = fate_sheet(arrival.character)
    # system.tracks: Physical (Stress), box_values true, false, false; Mild
    # (Consequences) "Black Eye". The file names no moderate or severe slot: every Fate
    # character has them, so they come free.
    (physical,) = sheet.stress
    assert (physical.name, values(physical)) == ("physical", [(1, True), (2, False), (3, False)])
    assert sheet.consequences == (
        Slot(severity="mild", aspect="Black Eye"),
        Slot(severity="moderate"),
        Slot(severity="severe"),
    )
    assert not any("Black Eye" in item or "Physical" in item for item in arrival.left_out)


def test_a_fari_sheet_round_trips_through_the_toml_export(tmp_path: Path) -> None:
    """Issue 28, must show 4: a Fari file with stress and consequences imported, then
    exported and imported back."""
    (arrival,) = read_file(ROSTER_FILES / "fari-v3-cynere.json", "fate")
    text = export_text("fate", [arrival.character])
    (again,) = read_bytes(text.encode(), "fate", "cynere.toml")
    assert again.character == arrival.character
    # And the saves take what came in (the codec's limits), as it was.
    assert decode(encode(again.character), Character) == arrival.character


def test_a_toml_roster_with_extra_tracks_and_reserved_slots_round_trips() -> None:
    written = """
system = "fate"

[[characters]]
name = "Zird"
consequences = [
  { severity = "mild", aspect = "Singed", holder = "Cultists", free_invokes = 1 },
  { severity = "moderate" },
  { severity = "severe" },
  { severity = "mild", only = "Mental" },
]
[characters.stress]
Physical = [1, 2]
Corruption = { boxes = [1, 1, 1], checked = [2] }
"""
    (arrival,) = read_bytes(written.encode(), "fate", "zird.toml")
    sheet = fate_sheet(arrival.character)
    assert [t.name for t in sheet.stress] == ["physical", "Corruption"]
    assert values(sheet.stress[1]) == [(1, False), (1, True), (1, False)]
    assert sheet.consequences is not None
    assert sheet.consequences[0] == Slot(
        severity="mild", aspect="Singed", holder="Cultists", free_invokes=1
    )
    assert sheet.consequences[3] == Slot(severity="mild", only="mental")
    (again,) = read_bytes(export_text("fate", [arrival.character]).encode(), "fate", "z.toml")
    assert again.character == arrival.character


def test_a_character_without_stress_exports_none_and_reads_back_the_same() -> None:
    cynere = Character(name="Cynere", ratings={"Physique": 2}, sheet=FateCharacter(fate_points=3))
    text = export_text("fate", [cynere])
    assert "stress" not in text and "consequences" not in text
    (again,) = read_bytes(text.encode(), "fate", "c.toml")
    assert again.character == cynere


@pytest.mark.parametrize(
    ("stress", "said"),
    [
        ("physical = [0, 2]", "stress.physical[1]: must be at least 1, got 0"),
        ("physical = [1, -2]", "stress.physical[2]: must be at least 1, got -2"),
        ("physical = [1, 99999999999999]", "stress.physical[2]:"),
        ("physical = { boxes = [1, 2], checked = [3] }", "no box 3 (the track has 2)"),
        ('physical = "1 2 3"', "not a list of boxes' values"),
        ("physical = [1]\nPhysical = [1, 2]", "a second Physical track"),
    ],
)
def test_a_bad_track_in_a_toml_roster_is_refused_naming_it(stress: str, said: str) -> None:
    written = f'system = "fate"\n[[characters]]\nname = "Zird"\n[characters.stress]\n{stress}\n'
    with pytest.raises((Refused, RosterFileError)) as refused:
        read_bytes(written.encode(), "fate", "zird.toml")
    assert said in str(refused.value)


@pytest.mark.parametrize(
    ("slots", "said"),
    [
        ('[{ severity = "grave" }]', "severity: not one of mild, moderate, severe, extreme"),
        ('[{ severity = "mild", free_invokes = -1 }]', "must be at least 0, got -1"),
        ('[{ severity = "mild", aspect = "" }]', "the aspect is blank"),
        ('[{ severity = "mild", color = "red" }]', "not a key Tussle reads here"),
        ('"mild"', "not a list of slots"),
    ],
)
def test_a_bad_consequence_in_a_toml_roster_is_refused_naming_it(slots: str, said: str) -> None:
    written = f'system = "fate"\n[[characters]]\nname = "Zird"\nconsequences = {slots}\n'
    with pytest.raises((Refused, RosterFileError)) as refused:
        read_bytes(written.encode(), "fate", "zird.toml")
    assert said in str(refused.value)
    assert "consequences[1]" in str(refused.value) or "consequences" in str(refused.value)


def test_a_fari_box_labelled_with_no_number_is_worth_its_place() -> None:
    fari = {
        "name": "Wen",
        "pages": [
            {
                "label": "Character",
                "sections": [
                    {
                        "label": "Stress",
                        "blocks": [
                            {
                                "type": "SlotTracker",
                                "label": "Corruption",
                                "value": [{"label": ""}, {"label": "x", "checked": True}],
                            }
                        ],
                    }
                ],
            }
        ],
    }
    (arrival,) = read_bytes(json.dumps(fari).encode(), "fate", "wen.json")
    (track,) = fate_sheet(arrival.character).stress
    assert (track.name, values(track)) == ("Corruption", [(1, False), (2, True)])
