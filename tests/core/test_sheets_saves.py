"""Saves of the built-in systems' characters from before their sheets (issue 26 item 1).

tests/data/sheets_saves holds, as main wrote them before each system's character fields
moved into its own sheet (format 2): today's three demos, and a long campaign of each
system whose roster holds those fields (added, imported, edited, written back after 240
exchanges, refreshed at sessions' starts; past a snapshot), with what ``tussle export``
and ``tussle roster export`` gave of each then (``make.py`` says how). Opened now, each
is upgraded to format 4: ``check`` passes it, its export is the old one with each
character in the new shape and each session start's ``reset`` named so
(tests.helpers.export_as_now), an import of the old
export gives that too, and its roster file is the very one main wrote.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from core.saves.store import CampaignFiles
from core.systems.fate.character import fate_sheet
from core.systems.forge.character import forge_sheet
from core.systems.heroquest.character import hq_sheet
from tests.helpers import export_as_now, in_process

DATA = Path(__file__).parents[1] / "data" / "sheets_saves"
CAMPAIGNS = [
    "fate-demo",
    "forge-demo",
    "heroquest-demo",
    "long-fate-sheets",
    "long-heroquest-sheets",
    "long-forge-sheets",
]


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    """A copy of the saves folder (a test never writes into tests/data)."""
    return Path(shutil.copytree(DATA / "saves", tmp_path / "saves"))


def old_export(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / "export" / f"{name}.json").read_text("utf-8"))
    return doc


def exported(saves: Path, name: str, out: Path) -> dict[str, Any]:
    done = in_process("--saves", str(saves), "export", name, "-o", str(out))
    assert done.returncode == 0, done.stderr
    doc: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return doc


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_an_old_campaign_checks_and_exports_its_characters_in_their_sheets(
    saves: Path, tmp_path: Path, name: str
) -> None:
    checked = in_process("--saves", str(saves), "check", name)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("OK "), checked.stdout
    assert "warning" not in checked.stdout + checked.stderr
    got = exported(saves, name, tmp_path / "export.json")
    expected = export_as_now(old_export(name))
    del got["exported"], expected["exported"]  # when each export was written
    assert got == expected


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_an_old_export_imports_as_the_upgraded_campaign(tmp_path: Path, name: str) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    done = in_process("--saves", str(saves), "import", str(DATA / "export" / f"{name}.json"))
    assert done.returncode == 0, done.stderr
    got = exported(saves, name, tmp_path / "again.json")
    expected = export_as_now(old_export(name))
    # The roster and the contests as they were. (Not the settings' session count: an
    # import counts the log's sessions again on top of the exported count, on main too.)
    assert (got["participants"], got["contests"]) == (
        expected["participants"],
        expected["contests"],
    )


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_the_roster_file_is_the_one_main_wrote(saves: Path, name: str) -> None:
    done = in_process("--saves", str(saves), "roster", "export", name)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (DATA / "roster" / f"{name}.toml").read_text(encoding="utf-8")


def test_the_sheets_hold_what_make_py_put_on_the_roster(saves: Path) -> None:
    """Fields no contest touches, as make.py set them, read through each system's sheet."""
    fate = CampaignFiles(saves / "long-fate-sheets").load().roster
    cynere = fate_sheet(fate["Cynere"])
    assert cynere.aspects == ("Infamous Girl With Sword", "Tempted by Shiny Things")
    assert cynere.refresh == 3
    assert (fate_sheet(fate["Landon"]).refresh, fate["Cynere"].ratings["Notice"]) == (2, 2)
    hq = hq_sheet(CampaignFiles(saves / "long-heroquest-sheets").load().roster["Hero"])
    assert hq.related == {"Sword": ("Shield",), "Shield": ("Sword",)}
    assert hq.adversity_of == {"Riding": ("Lamed",)}
    assert hq.benefits == {"Sword": 3, "Riding": -2}
    assert hq.adversity[0] == "Shaken"
    forge = CampaignFiles(saves / "long-forge-sheets").load().roster
    josef = forge_sheet(forge["Josef"])
    assert (josef.multiplier, josef.max_damage, josef.armor, josef.trauma_pool) == (4, 60, 5, 12)
    assert forge_sheet(forge["Mara"]) == forge_sheet(forge["Mara"]).__class__(
        multiplier=3, armor=3, trauma_pool=10
    )
