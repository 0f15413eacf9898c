"""Issue 24, item 16: Fari character files in the version 4 layout, where a page's
``sections`` are two columns ``{"left": [...], "right": [...]}``, are read like the other
layouts; a Fari file refused names the Fari version it was written by.

The expected character is read off the file by hand: Landon, Fight 4 and Athletics +3,
two aspects, 2 fate points of a refresh of 3 (the main point counter's value and max)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.campaign.roster_file import RosterFileError, read_bytes, read_file
from core.systems.fate.character import fate_sheet

D = Path(__file__).parent.parent / "data" / "roster"


def test_a_fari_sheet_in_the_version_4_layout_comes_in() -> None:
    (arrival,) = read_file(D / "fari-v4-landon.json", "fate")
    c = arrival.character
    assert c.name == "Landon"
    assert dict(c.ratings) == {"Fight": 4, "Athletics": 3}
    assert fate_sheet(c).aspects == ("Honest Young Swordsman", "I Owe Old Finn Everything")
    assert (fate_sheet(c).fate_points, fate_sheet(c).refresh) == (2, 3)


def test_a_fari_file_refused_names_its_version() -> None:
    data = json.loads((D / "fari-v4-landon.json").read_text())
    data["version"] = 9
    data["pages"][0]["sections"]["right"] = "three columns"  # a layout Tussle cannot read
    with pytest.raises((RosterFileError, ValueError), match="a Fari file of version 9"):
        read_bytes(json.dumps(data).encode(), "fate", "landon.json")


def test_a_fari_file_in_a_layout_tussle_cannot_read_names_its_version() -> None:
    data = json.loads((D / "fari-v4-landon.json").read_text())
    data["version"] = 12
    data["pages"] = {"layout": "a future one"}  # no list of pages
    with pytest.raises((RosterFileError, ValueError), match="a Fari file of version 12"):
        read_bytes(json.dumps(data).encode(), "fate", "landon.json")
