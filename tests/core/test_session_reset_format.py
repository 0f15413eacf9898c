"""A session start's points are ``reset``, not ``hero_points`` (issue 26 item 2: the generic
contract speaks no system's words), and format 4 renames the field in older saves.

The campaign: tests/data/sheets_saves' long HeroQuest campaign, written by main in format
2, whose ``make.py`` starts its sessions with ``StartSession(hero_points=3)`` (every PC
back to 3 hero points, what each PC starts with in HQ2: rules.md part 2, "Hero points").
It is first brought to format 3 only (as the Tussle of format 3 left it: characters
reshaped, the session starts still ``hero_points``), on a copy; then opened by this
Tussle.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from core.campaign.log import StartSession
from core.saves.migrate import STEPS, read_manifest, upgrade_segments, write_manifest
from core.saves.store import CampaignFiles
from tests.helpers import act, in_process

OLD = Path(__file__).parents[1] / "data" / "sheets_saves" / "saves" / "long-heroquest-sheets"
NAME = OLD.name


def session_starts(folder: Path) -> list[dict[str, Any]]:
    """Every session start in the campaign's log segments, as saved."""
    found = []
    for segment in sorted((folder / "log").glob("*.json")):
        table = json.loads(segment.read_text(encoding="utf-8"))["entries"]
        for slot in sorted(table, key=int):
            command = table[slot]["entry"].get("command", {})
            if command.get("@") == "campaign.StartSession":
                found.append(command)
    return found


def manifest_format(folder: Path) -> int:
    doc = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    version: int = doc["manifest"]["1"]["format"]
    return version


def format_3(saves: Path) -> Path:
    """A copy of the campaign as a Tussle of format 3 upgraded it: its format 2 to 3 step
    (steps work on the files, not on loaded campaigns) and the manifest saying 3."""
    folder = Path(shutil.copytree(OLD, saves / NAME))
    STEPS[2](folder)
    write_manifest(folder, {**read_manifest(folder), "format": 3})
    return folder


def test_a_format_3_campaign_opens_with_its_session_starts_renamed(saves: Path) -> None:
    folder = format_3(saves)
    old = session_starts(folder)
    assert old and all(s == {"@": "campaign.StartSession", "hero_points": 3} for s in old)
    checked = in_process("--saves", str(saves), "check", NAME)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("OK ")
    assert "warning" not in checked.stdout + checked.stderr
    assert manifest_format(folder) == 4
    assert session_starts(folder) == [{"@": "campaign.StartSession", "reset": 3}] * len(old)
    # The campaign opens, and the session starts read back with the points they reset to.
    files = CampaignFiles(folder)
    campaign = files.load()
    commands = [
        campaign.actions[a].command
        for a in campaign.done
        if isinstance(campaign.actions[a].command, StartSession)
    ]
    assert commands == [StartSession(reset=3)] * len(old)
    # The original is kept beside, as format 3 wrote it.
    kept = [p for p in saves.iterdir() if p.name.startswith(f"{NAME}.backup-v3-")]
    assert len(kept) == 1 and session_starts(kept[0]) == old


def test_the_rename_runs_twice_safely_and_removes_the_stale_snapshot(saves: Path) -> None:
    """A step interrupted runs again on the next opening (core.saves.migrate): cut after
    it rewrote the segments, before it removed the snapshot made from the old ones, the
    run again still removes it (it covers entries that are no longer the ones it was made
    from)."""
    folder = format_3(saves)
    count = len(session_starts(folder))
    (folder / "snapshot").mkdir()
    (folder / "snapshot" / "state.json").write_text("{}")  # stands for the format 3 one
    assert upgrade_segments(folder, 3)  # the step's first half, then the cut
    assert (folder / "snapshot").exists()
    STEPS[3](folder)
    assert not (folder / "snapshot").exists()
    STEPS[3](folder)
    assert session_starts(folder) == [{"@": "campaign.StartSession", "reset": 3}] * count


def test_a_session_start_saves_its_reset_under_that_name(saves: Path) -> None:
    files = CampaignFiles(Path(shutil.copytree(OLD, saves / NAME)))
    files.lock.acquire("test")
    try:
        act(files.load(), files, StartSession(reset=2))
    finally:
        files.lock.release()
    assert session_starts(files.folder)[-1] == {"@": "campaign.StartSession", "reset": 2}
