"""An import replays the export's log from the settings it started from (found by the
sheets work of issue 26: an export of a campaign with five sessions imported with ten).
The export's ``settings`` are what the settings became; the import started from them and
replayed the log on top, so every session start counted on from the final count, and the
imported campaign's manifest began where the original ended."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.campaign.log import ChangeSettings, StartSession
from core.saves.store import CampaignFiles, Saves
from tests.helpers import seed, tussle


def sessions_of(saves: Path, name: str) -> object:
    files = Saves(saves).find(name)
    assert files is not None
    return files.load().settings.get("sessions")


def with_sessions(saves: Path, name: str, count: int) -> CampaignFiles:
    """The seed campaign, then ``count`` session starts and one setting changed."""
    files, campaign = seed(saves, name)
    files.lock.acquire(name)
    try:
        for command in [*[StartSession()] * count, ChangeSettings(changes={"house": "yes"})]:
            entry = campaign.decide(command)
            files.append([entry])
            campaign.apply(entry)
    finally:
        files.lock.release()
    return files


def exported(saves: Path, name: str, out: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    assert tussle(saves, "export", name, "-o", str(out)) == 0
    capsys.readouterr()
    data: dict = json.loads(out.read_text())
    return data


def test_an_imported_campaign_has_the_sessions_it_was_exported_with(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with_sessions(saves, "Friday", 3)
    assert sessions_of(saves, "Friday") == 3  # three starts counted 1, 2, 3
    first = exported(saves, "Friday", tmp_path / "friday.json", capsys)
    assert first["settings"] == {"sessions": 3, "house": "yes"}
    assert tussle(saves, "import", str(tmp_path / "friday.json"), "--as", "Again") == 0
    assert sessions_of(saves, "Again") == 3  # not 6: replayed from none, not from 3
    assert tussle(saves, "check", "Again") == 0
    assert first["settings_at_start"] == {}  # made by Tussle: it starts with none
    # And again from the copy: an import of an import still counts three.
    again = exported(saves, "Again", tmp_path / "again.json", capsys)
    assert again["settings"] == first["settings"]
    assert again["settings_at_start"] == {}
    assert tussle(saves, "import", str(tmp_path / "again.json"), "--as", "Thrice") == 0
    assert sessions_of(saves, "Thrice") == 3


def test_an_export_of_an_older_tussle_without_settings_at_start_imports_right(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with_sessions(saves, "Friday", 2)
    data = exported(saves, "Friday", tmp_path / "friday.json", capsys)
    del data["settings_at_start"]  # as an older Tussle wrote it
    (tmp_path / "old.json").write_text(json.dumps(data))
    assert tussle(saves, "import", str(tmp_path / "old.json"), "--as", "Old") == 0
    assert sessions_of(saves, "Old") == 2


def test_the_settings_an_export_says_it_ended_with_are_not_trusted(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with_sessions(saves, "Friday", 1)
    data = exported(saves, "Friday", tmp_path / "friday.json", capsys)
    data["settings"] = {"sessions": 99, "players_see_odds": True}  # edited by hand
    (tmp_path / "edited.json").write_text(json.dumps(data))
    assert tussle(saves, "import", str(tmp_path / "edited.json"), "--as", "Edited") == 0
    files = Saves(saves).find("Edited")
    assert files is not None
    assert files.load().settings == {"sessions": 1, "house": "yes"}  # what its log made
