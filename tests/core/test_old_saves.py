"""Saves written before the data model moved to msgspec (issue 27) open as they were.

tests/data/old-saves holds the three demo campaigns (with the scenario files recorded into
them: invokes, advantages, hero points, group contests, FORGE stages...) and a campaign of
240 exchanges with its snapshot, all written by main before the change, and what
``tussle export`` gave of each then (``make.py`` made them; the export's time taken out).
Since format 3 (issue 26) a roster character keeps its system's fields in its own sheet:
what they read back as is what was saved, in that shape (tests.helpers.as_format_3).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from core.files.codec import decode, encode
from core.model import Event
from tests.helpers import as_format_3, export_as_now, in_process, with_fields_added

OLD = Path(__file__).parents[1] / "data" / "old-saves"
SYSTEMS = {"fate-demo": "fate", "forge-demo": "forge", "heroquest-demo": "heroquest"}
CAMPAIGNS = [*SYSTEMS, "long-fate"]


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    """A copy of the old saves folder (a test never writes into tests/data)."""
    return Path(shutil.copytree(OLD / "saves", tmp_path / "saves"))


def entries(folder: Path) -> list[dict[str, Any]]:
    """Every log entry of a campaign folder, as saved."""
    found = []
    for segment in sorted((folder / "log").iterdir()):
        table = json.loads(segment.read_text(encoding="utf-8"))["entries"]
        found += [table[k]["entry"] for k in sorted(table, key=int)]
    return found


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_each_old_entry_decodes_and_encodes_back_to_the_same_json(saves: Path, name: str) -> None:
    """The saved format did not change but for the characters' shape and the fields saved
    classes gained since (at their defaults: tests.helpers.ADDED_TO): what was written
    reads back, and writing it again gives the very same object (tags, field order, sets'
    order), its characters in format 3's shape."""
    raws = [
        with_fields_added(as_format_3(raw, SYSTEMS.get(name, "fate")))
        for raw in entries(saves / name)
    ]
    assert raws
    for raw in raws:
        again = encode(decode(raw, Event))
        assert again == raw
        assert json.dumps(again) == json.dumps(raw)  # the order of the fields too


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_an_old_campaign_checks_and_exports_the_events_it_exported_before(
    saves: Path, tmp_path: Path, name: str
) -> None:
    checked = in_process("--saves", str(saves), "check", name)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("OK "), checked.stdout
    out = tmp_path / "export.json"
    exported = in_process("--saves", str(saves), "export", name, "-o", str(out))
    assert exported.returncode == 0, exported.stderr
    got = json.loads(out.read_text(encoding="utf-8"))
    old = json.loads((OLD / "export" / f"{name}.json").read_text(encoding="utf-8"))
    expected = export_as_now(old)
    del got["exported"], expected["exported"]  # when each export was written
    assert got == expected


def test_the_long_campaign_is_upgraded_and_writes_its_snapshot_again(saves: Path) -> None:
    """The snapshot main wrote holds the roster in format 2's shape: the upgrade to format
    3 removes it (the original folder is kept beside), and the opening replays the
    upgraded log and writes it again."""
    from core.saves.store import CampaignFiles

    folder = saves / "long-fate"
    before = {p.name: p.read_bytes() for p in (folder / "snapshot").iterdir()}
    files = CampaignFiles(folder)
    files.lock.acquire("long-fate", what="a test")
    try:
        campaign = files.load()
    finally:
        files.lock.release()
    kept = [p for p in saves.iterdir() if p.name.startswith("long-fate.backup-v2-")]
    assert [{p.name: p.read_bytes() for p in (k / "snapshot").iterdir()} for k in kept] == [before]
    assert campaign.entries == 250
    assert [c.title for c in campaign.contests.values()] == [f"Race {n}" for n in range(1, 9)]
    assert sum(len(c.exchanges) for c in campaign.contests.values()) == 240
    after = {p.name: p.read_bytes() for p in (folder / "snapshot").iterdir()}
    assert after and after != before  # written again, the roster in the new shape
    assert CampaignFiles(folder).load().roster == campaign.roster  # and read back
