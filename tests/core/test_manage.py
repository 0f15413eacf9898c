"""Renaming, archiving and deleting campaigns (core.saves.manage), and their ``tussle`` commands.

The seed campaign (tests/core/test_check.py) is "Seed" in folder ``seed``: 7 log entries,
a roster of Cynere and Teran. "Other" is an empty campaign in folder ``other``.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import core.saves.manage
from core.campaign.log import AddCharacter, Character
from core.files.disk import MANIFEST, CampaignLock, CampaignLocked
from core.saves.backup import list_backups
from core.saves.manage import (
    BadName,
    UnknownCampaign,
    archive,
    delete,
    is_archived,
    listed,
    rename,
    unarchive,
)
from core.saves.store import CampaignFiles, Saves
from tests.helpers import act, files_of, seed, tussle
from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]

HOLDER = """
import sys
from collections.abc import Iterator
from pathlib import Path
from core.files.disk import CampaignLock
CampaignLock(Path(sys.argv[1])).acquire("Seed")
print("held", flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def holder(saves: Path) -> Iterator[subprocess.Popen[str]]:
    """The seed campaign, and another process holding its lock, as a dashboard would."""
    seed(saves)
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(saves / "seed")],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    yield process
    assert process.stdin is not None
    process.stdin.close()
    process.wait(timeout=10)


def manifest(folder: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((folder / MANIFEST).read_text())["manifest"]["1"]
    return doc


# -- rename ---------------------------------------------------------------------------------


def test_a_renamed_campaign_is_found_by_its_new_name_with_the_same_log(saves: Path) -> None:
    files, _ = seed(saves)
    log_before = list(CampaignFiles(files.folder).raw_entries())
    info = rename(Saves(saves), "Seed", "The Long Race")
    assert (info.name, info.slug, info.entries) == ("The Long Race", "seed", 7)
    found = Saves(saves).find("The Long Race")
    assert found is not None and found.folder == saves / "seed"  # the folder is kept
    assert Saves(saves).find("Seed") is None
    assert list(found.raw_entries()) == log_before
    loaded = found.load()
    assert loaded.name == "The Long Race"
    assert list(loaded.roster) == ["Cynere", "Teran"]
    assert [i.name for i in Saves(saves).campaigns()] == ["The Long Race"]
    assert (saves / "seed").is_dir() and not (saves / "the-long-race").exists()


def test_a_rename_keeps_what_the_players_view_compares_but_the_name(saves: Path) -> None:
    files, _ = seed(saves)
    before = manifest(files.folder)
    rename(Saves(saves), "seed", "Renamed")  # by its folder's name
    after = manifest(files.folder)
    assert after == {**before, "name": "Renamed"}


@pytest.mark.parametrize(
    ("new", "problem"),
    [
        ("Other", 'a campaign called "Other" already exists'),
        ("other", 'a campaign called "other" already exists'),  # the other's folder name
        ("   ", "a campaign needs a name"),
    ],
)
def test_a_rename_to_a_taken_or_empty_name_is_refused(saves: Path, new: str, problem: str) -> None:
    files, _ = seed(saves)
    Saves(saves).create("Other", "fate")
    before = files_of(files.folder)
    with pytest.raises(BadName) as refused:
        rename(Saves(saves), "Seed", new)
    assert str(refused.value) == problem
    assert files_of(files.folder) == before


def test_renaming_an_unknown_campaign_says_so(saves: Path) -> None:
    seed(saves)
    with pytest.raises(UnknownCampaign, match='no campaign called "Nobody"'):
        rename(Saves(saves), "Nobody", "Somebody")


def test_a_rename_to_its_own_name_in_other_case_is_allowed(saves: Path) -> None:
    seed(saves)
    assert rename(Saves(saves), "Seed", "SEED").name == "SEED"
    assert Saves(saves).find("SEED") is not None


def test_a_campaign_open_in_another_process_is_not_renamed(
    saves: Path, holder: subprocess.Popen[str]
) -> None:
    files = CampaignFiles(saves / "seed")
    before = files_of(files.folder)
    with pytest.raises(CampaignLocked, match=rf"pid {holder.pid}\b"):
        rename(Saves(saves), "Seed", "Stolen")
    assert files_of(files.folder) == before


def test_the_holder_of_the_lock_renames_through_its_own_files_and_keeps_saving(
    saves: Path,
) -> None:
    seed(saves)
    held = CampaignFiles(saves / "seed")  # as the dashboard holds its open campaign
    held.lock.acquire("Seed")
    try:
        campaign = held.load()
        with pytest.raises(CampaignLocked):  # any other way in is refused, in-process too
            rename(Saves(saves), "Seed", "Renamed")
        rename(Saves(saves), "Seed", "Renamed", held=held)
        # Its next save writes the manifest it holds in memory: the new name, not the old.
        act(campaign, held, AddCharacter(character=Character(name="Zird")))
    finally:
        held.lock.release()
    assert manifest(saves / "seed")["name"] == "Renamed"
    assert manifest(saves / "seed")["entries"] == 8
    assert list(CampaignFiles(saves / "seed").load().roster) == ["Cynere", "Teran", "Zird"]


# -- archive --------------------------------------------------------------------------------


def test_an_archived_campaign_is_hidden_from_the_list_but_kept(saves: Path) -> None:
    files, _ = seed(saves)
    Saves(saves).create("Other", "fate")
    log_before = {k: v for k, v in files_of(files.folder).items() if k != MANIFEST}
    before = manifest(files.folder)

    assert archive(Saves(saves), "Seed") is True
    assert [(r.info.name, r.archived) for r in listed(Saves(saves))] == [("Other", False)]
    shown = listed(Saves(saves), show_archived=True)
    assert [(r.info.name, r.archived) for r in shown] == [("Other", False), ("Seed", True)]
    # On disk as it was, the manifest flagged; it still opens by name.
    assert {k: v for k, v in files_of(files.folder).items() if k != MANIFEST} == log_before
    assert manifest(files.folder) == {**before, "archived": True}
    found = Saves(saves).find("Seed")
    assert found is not None and is_archived(found)
    assert list(found.load().roster) == ["Cynere", "Teran"]

    assert archive(Saves(saves), "Seed") is False  # already archived: nothing to do
    assert unarchive(Saves(saves), "Seed") is True
    assert [r.info.name for r in listed(Saves(saves))] == ["Other", "Seed"]
    assert manifest(files.folder) == {**before, "archived": False}


def test_an_archived_campaign_stays_archived_through_its_own_saves(saves: Path) -> None:
    files, campaign = seed(saves)
    archive(Saves(saves), "Seed")
    act(campaign, CampaignFiles(files.folder), AddCharacter(character=Character(name="Zird")))
    assert manifest(files.folder)["archived"] is True
    assert manifest(files.folder)["entries"] == 8


def test_a_campaign_open_in_another_process_is_not_archived(
    saves: Path, holder: subprocess.Popen[str]
) -> None:
    files = CampaignFiles(saves / "seed")
    with pytest.raises(CampaignLocked, match=rf"pid {holder.pid}\b"):
        archive(Saves(saves), "Seed")
    assert "archived" not in manifest(files.folder)


# -- delete ---------------------------------------------------------------------------------


def test_a_deleted_campaign_leaves_a_backup_that_tussle_restore_brings_back(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    Saves(saves).create("Other", "fate")
    before = files_of(files.folder)
    log_before = list(CampaignFiles(files.folder).raw_entries())

    done = delete(Saves(saves), "Seed")
    assert not (saves / "seed").exists()
    assert [i.name for i in Saves(saves).campaigns()] == ["Other"]
    assert sorted(p.name for p in saves.iterdir()) == [".backups", "other"]
    assert [b.folder for b in list_backups(saves, "seed")] == [done.backup.folder]
    assert files_of(done.backup.folder) == before
    command = f"tussle restore seed --backup {done.backup.stamp}"
    assert done.restore_command == command
    assert done.message() == (
        f'Deleted "Seed". A backup is kept in {saves / ".backups" / "seed" / done.backup.stamp}; '
        f"to get it back: {command}"
    )

    # What the message says to do works: the same log, the same roster, the same name.
    assert tussle(saves, *command.split()[1:]) == 0
    capsys.readouterr()
    back = Saves(saves).find("Seed")
    assert back is not None and back.folder == saves / "seed"
    assert list(back.raw_entries()) == log_before
    assert list(back.load().roster) == ["Cynere", "Teran"]


def test_the_restore_command_names_a_saves_folder_other_than_the_default(
    saves: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(saves)
    monkeypatch.delenv("TUSSLE_SAVES")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # where ./saves is not this folder
    done = delete(Saves(saves), "Seed")
    command = f"tussle --saves {saves} restore seed --backup {done.backup.stamp}"
    assert done.restore_command == command
    assert main(shlex.split(command)[1:]) == 0  # as typed
    back = Saves(saves).find("Seed")
    assert back is not None and back.load().entries == 7


def test_a_renamed_then_deleted_campaign_comes_back_by_its_folder_name(saves: Path) -> None:
    seed(saves)
    rename(Saves(saves), "Seed", "The Long Race")
    done = delete(Saves(saves), "The Long Race")
    assert done.restore_command.startswith("tussle restore seed --backup ")
    assert tussle(saves, *done.restore_command.split()[1:]) == 0
    back = Saves(saves).find("The Long Race")
    assert back is not None and back.load().entries == 7


def test_a_campaign_open_in_another_process_is_not_deleted(
    saves: Path, holder: subprocess.Popen[str]
) -> None:
    files = CampaignFiles(saves / "seed")
    before = files_of(files.folder)
    with pytest.raises(CampaignLocked, match=rf"pid {holder.pid}\b"):
        delete(Saves(saves), "Seed")
    assert files_of(files.folder) == before
    assert list_backups(saves, "seed") == []


def test_the_campaign_open_in_this_process_is_not_deleted(saves: Path) -> None:
    seed(saves)
    lock = CampaignLock(saves / "seed")
    lock.acquire("Seed")
    try:
        with pytest.raises(CampaignLocked, match=rf"pid {os.getpid()}\b"):
            delete(Saves(saves), "Seed")
    finally:
        lock.release()
    assert Saves(saves).find("Seed") is not None


def test_no_backup_no_delete(saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files, _ = seed(saves)
    before = files_of(files.folder)

    def full_disk(source: Path, target: Path, durable: bool, whole: bool = False) -> None:
        target.mkdir(parents=True)
        raise OSError(28, "No space left on device", str(target))

    monkeypatch.setattr(core.saves.manage, "copy_campaign", full_disk)
    with pytest.raises(OSError, match="No space left"):
        delete(Saves(saves), "Seed")
    assert files_of(files.folder) == before
    assert list((saves / ".backups" / "seed").iterdir()) == []  # no half-made backup left


def test_a_damaged_campaign_can_be_deleted_by_its_folder_name(saves: Path) -> None:
    files, _ = seed(saves)
    (files.folder / MANIFEST).write_text("{not json")
    done = delete(Saves(saves), "seed")
    assert done.name == "seed"
    assert not files.folder.exists()
    assert (done.backup.folder / MANIFEST).read_text() == "{not json"


# -- the commands ---------------------------------------------------------------------------


def test_the_rename_archive_and_delete_commands(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(saves)
    assert tussle(saves, "rename", "Seed", "Race") == 0
    assert capsys.readouterr().out == f'renamed "Seed" to "Race" (its folder stays {saves}/seed)\n'
    assert tussle(saves, "archive", "Race") == 0
    assert capsys.readouterr().out.startswith('archived "Race": hidden from the campaign screen')
    assert listed(Saves(saves)) == []
    assert tussle(saves, "archive", "Race", "--undo") == 0
    assert capsys.readouterr().out == '"Race" is listed again\n'
    assert [r.info.name for r in listed(Saves(saves))] == ["Race"]

    assert tussle(saves, "delete", "Race") == 2  # not without --yes
    assert "add --yes" in capsys.readouterr().err
    assert (saves / "seed").is_dir()
    assert tussle(saves, "delete", "Race", "--yes") == 0
    [kept] = list_backups(saves, "seed")
    assert capsys.readouterr().out.endswith(f"tussle restore seed --backup {kept.stamp}\n")
    assert not (saves / "seed").exists()


def test_the_commands_exit_2_for_an_unknown_name_or_a_taken_one(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(saves)
    Saves(saves).create("Other", "fate")
    assert tussle(saves, "rename", "Nobody", "X") == 2
    assert tussle(saves, "rename", "Seed", "Other") == 2
    assert tussle(saves, "archive", "Nobody") == 2
    assert tussle(saves, "delete", "Nobody", "--yes") == 2
    err = capsys.readouterr().err.splitlines()
    assert err[1] == 'not renamed: a campaign called "Other" already exists'
    assert manifest(saves / "seed")["name"] == "Seed"


def test_the_commands_exit_3_while_the_campaign_is_open_elsewhere(
    saves: Path, holder: subprocess.Popen[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert tussle(saves, "rename", "Seed", "X") == 3
    assert tussle(saves, "archive", "Seed") == 3
    assert tussle(saves, "delete", "Seed", "--yes") == 3
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(f"pid {holder.pid}" in line for line in err)
    assert (saves / "seed").is_dir()
