"""Entries set aside by an older Tussle come back in this one's format.

Found reviewing issue 26's format 4 (``StartSession.hero_points`` renamed ``reset``): a
format step upgraded the log's segments but not the entries set aside in ``set-aside/``
(core/saves/set_aside.py), which are kept as saved. ``check --repair`` then replayed a
format-2 entry with this Tussle's classes: a session start's ``hero_points: 3`` was not
``reset``, and a character of format 2 kept its sheet's fields beside its name.

The oracle is the same campaign never set aside: setting entries aside and bringing them
back, across an upgrade, must leave the campaign as the upgrade alone does.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import core.campaign.log
from core.files.codec import encode
from core.saves.store import CampaignFiles, Saves
from tests.helpers import tussle

OLD = Path(__file__).parents[1] / "data" / "sheets_saves" / "saves" / "long-heroquest-sheets"
# Entry 5 is the first session start ({"@": "campaign.StartSession", "hero_points": 3});
# entries 0 to 4 add the roster's characters in format 2's shape.
FIRST = 2


def set_aside_by_an_older_tussle(saves: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The format-2 campaign with its entries from ``FIRST`` on set aside while this
    Tussle's format was still 2 (as the Tussle of that format did it: nothing upgraded)."""
    folder = Path(shutil.copytree(OLD, saves / OLD.name))
    with monkeypatch.context() as older:
        older.setattr(core.campaign.log, "FORMAT_VERSION", 2)
        files = CampaignFiles(folder)
        files.lock.acquire("test")
        try:
            files.set_aside(FIRST, "a hand edit")
        finally:
            files.lock.release()
    kept = json.loads(next((folder / "set-aside").glob("*.json")).read_text())
    saved = json.dumps(kept["entries"])
    assert '"hero_points": 3' in saved and "StartSession" in saved  # format 2's words
    return folder


def state_of(saves: Path, name: str) -> object:
    """What the campaign holds: its roster (hero points after each session start), every
    action as decided (the session starts' commands among them) and the sessions."""
    campaign = Saves(saves).find(name).load()
    return {
        "roster": {name: encode(c) for name, c in campaign.roster.items()},
        "actions": [encode(a) for a in campaign.actions.values()],
        "sessions": len(campaign.sessions),
        "done": list(campaign.done),
    }


def test_repair_after_an_upgrade_brings_the_entries_back_in_the_new_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    never = tmp_path / "never-set-aside"
    never.mkdir()
    shutil.copytree(OLD, never / OLD.name)
    assert tussle(never, "check", OLD.name) == 0  # the upgrade alone
    upgraded = state_of(never, OLD.name)

    saves = tmp_path / "saves"
    saves.mkdir()
    folder = set_aside_by_an_older_tussle(saves, monkeypatch)
    assert tussle(saves, "check", OLD.name, "--repair") == 0, capsys.readouterr()
    files = Saves(saves).find(OLD.name)
    assert files.meta()["entries"] == 257  # every entry back
    assert state_of(saves, OLD.name) == upgraded
    # The repaired log holds the session starts in this format: reset, not hero_points.
    assert session_starts(folder) == [{"@": "campaign.StartSession", "reset": 3}] * 5


def session_starts(folder: Path) -> list[dict[str, object]]:
    """The session starts' commands, as the campaign's log segments hold them."""
    found = []
    for path in sorted((folder / "log").glob("*.json")):
        for slot in json.loads(path.read_text())["entries"].values():
            command = slot["entry"].get("command") or {}
            if command.get("@") == "campaign.StartSession":
                found.append(command)
    return found


def test_an_upgrade_cut_short_leaves_the_entries_set_aside_in_a_format_they_are_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The upgrade run twice (a crash after its first steps: run again on the next opening)
    upgrades the entries set aside once: their format is recorded with them."""
    saves = tmp_path / "saves"
    saves.mkdir()
    folder = set_aside_by_an_older_tussle(saves, monkeypatch)
    with monkeypatch.context() as older:
        older.setattr(core.campaign.log, "FORMAT_VERSION", 3)
        assert tussle(saves, "check", OLD.name) == 0  # upgraded to 3 only
    assert tussle(saves, "check", OLD.name, "--repair") == 0, capsys.readouterr()
    assert Saves(saves).find(OLD.name).meta()["entries"] == 257
    assert session_starts(folder) == [{"@": "campaign.StartSession", "reset": 3}] * 5
