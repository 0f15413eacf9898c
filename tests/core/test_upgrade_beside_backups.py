"""A campaign upgraded to a new format beside the backups an older Tussle made of it (found
playing issue 26's upgrade by hand: format 3 writes the characters' sheets into every log
segment again). ``check`` warned that log/000000.json "has changed since the backup ...
though no save writes a full log segment again: it may be damaged (tussle restore puts a
backup back)": on every campaign with a backup, after every upgrade, it told the GM to
throw away what was played since. A backup of another format holds other bytes by design;
a full segment changed in the same format is still damage."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import core.campaign.log
from core.files.disk import AtomicJSONStorage
from core.saves.backup import make_backup
from core.saves.store import CampaignFiles, Saves
from tests.helpers import tussle

OLD = Path(__file__).parents[1] / "data" / "sheets_saves" / "saves" / "long-fate-sheets"


def backed_up_by_an_older_tussle(saves: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The format-2 campaign (two full log segments and more), and a backup of it made
    while this Tussle's format was still 2 (nothing upgraded: as the older one made it)."""
    folder = Path(shutil.copytree(OLD, saves / OLD.name))
    with monkeypatch.context() as older:
        older.setattr(core.campaign.log, "FORMAT_VERSION", 2)
        files = CampaignFiles(folder)
        files.lock.acquire("test")
        try:
            assert make_backup(files).created
        finally:
            files.lock.release()
    return folder


def test_check_after_an_upgrade_calls_no_segment_damaged(
    saves: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = backed_up_by_an_older_tussle(saves, monkeypatch)
    assert tussle(saves, "check", OLD.name) == 0  # upgrades it: the segments written again
    said = capsys.readouterr()
    assert said.out.startswith("OK ")
    told = said.out + said.err
    assert "changed since the backup" not in told and "damaged" not in told
    assert (
        AtomicJSONStorage(folder / "log" / "000000.json").read()["format"]["1"]["format"]
        == core.campaign.log.FORMAT_VERSION
    )  # the first full segment was rewritten indeed


def test_a_full_segment_changed_in_the_same_format_is_still_named(
    saves: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = backed_up_by_an_older_tussle(saves, monkeypatch)
    assert tussle(saves, "check", OLD.name) == 0  # the upgrade
    files = Saves(saves).find(OLD.name)
    assert files is not None
    files.lock.acquire("test")
    try:
        assert make_backup(files).created  # a backup in this format
    finally:
        files.lock.release()
    capsys.readouterr()
    first = folder / "log" / "000000.json"
    first.write_bytes(first.read_bytes().replace(b'"Cynere"', b'"Cynera"', 1))  # bit rot
    tussle(saves, "check", OLD.name)
    said = capsys.readouterr()
    told = said.out + said.err
    assert "log/000000.json of the campaign has changed since the backup" in told
