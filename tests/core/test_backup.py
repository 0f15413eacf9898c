"""Backups (rotating, never failing a session), ``restore`` (undoable, refused while the
campaign is held), and format migrations (a copy of the original kept first).

The seed campaign (tests/core/test_check.py) has 7 log entries; each character added
after it is one more.
"""

from __future__ import annotations

import errno
import logging
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import core.campaign.log
import core.files.disk
import core.saves.migrate
import core.saves.store
from core.campaign.log import AddCharacter, Character
from core.files.disk import LOCK, BadSave, CampaignLock
from core.saves.backup import BACKUPS_KEPT, backup, list_backups, restore
from core.saves.check import check_campaign
from core.saves.migrate import read_manifest, write_manifest
from core.saves.store import CampaignFiles, Saves
from tests.helpers import act, manifest_doc, seed, tussle

ROOT = Path(__file__).resolve().parents[2]


def everything_in(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def add(files: CampaignFiles, name: str) -> None:
    """One more GM action saved: a character added (one log entry)."""
    campaign = CampaignFiles(files.folder).load()
    act(campaign, CampaignFiles(files.folder), AddCharacter(character=Character(name=name)))


def roster(folder: Path) -> list[str]:
    return list(CampaignFiles(folder).load().roster)


# -- backups --------------------------------------------------------------------------------


def test_a_backup_copies_the_manifest_and_the_log_but_not_the_lock(saves: Path) -> None:
    files, _ = seed(saves)
    lock = CampaignLock(files.folder)
    lock.acquire("Seed")  # the dashboard holds it while it backs up
    (files.folder / "log" / ".tmp-killed").write_text("half")
    (files.folder / "notes.txt").write_text("not the campaign's")
    result = backup(files)
    lock.release()

    assert result.created and result.problem is None and result.backup is not None
    copy = result.backup.folder
    assert copy.parent == saves / ".backups" / "seed"
    assert re.fullmatch(r"\d{8}T\d{6}\.\d{6}Z", copy.name)
    assert everything_in(copy) == ["backup.json", "log", "log/000000.json", "manifest.json"]
    for name in ("manifest.json", "log/000000.json"):
        assert (copy / name).read_bytes() == (files.folder / name).read_bytes()
    assert (files.folder / LOCK).exists()  # left where it was
    assert result.backup.entries == 7


def test_an_unchanged_campaign_is_not_copied_again(saves: Path) -> None:
    files, _ = seed(saves)
    first = backup(files)
    second = backup(files)
    assert (first.created, second.created) == (True, False)
    assert second.backup == first.backup
    assert len(list_backups(saves, "seed")) == 1


def test_only_the_last_n_backups_and_the_first_are_kept_newest_first(saves: Path) -> None:
    files, _ = seed(saves)
    removed: list[Path] = []
    for name in ("A", "B", "C", "D", "E"):
        add(files, name)
        removed.extend(backup(CampaignFiles(files.folder), keep=3).removed)
    kept = list_backups(saves, "seed")
    # Five backups of 8..12 entries: the newest three, and the first (8); 9 went.
    assert [b.entries for b in kept] == [12, 11, 10, 8]
    assert len(removed) == 1
    assert not any(path.exists() for path in removed)


def test_ten_backups_and_the_first_are_kept_by_default(saves: Path) -> None:
    files, _ = seed(saves)
    for n in range(12):
        add(files, f"Extra {n}")
        backup(CampaignFiles(files.folder))
    assert BACKUPS_KEPT == 10
    # Twelve backups, of 8 to 19 entries: 19 down to 10, and the first, 8.
    assert [b.entries for b in list_backups(saves, "seed")] == [*range(19, 9, -1), 8]


def test_backups_are_not_listed_as_campaigns(saves: Path) -> None:
    files, _ = seed(saves)
    backup(files)
    assert [i.slug for i in Saves(saves).campaigns()] == ["seed"]


def test_a_backup_that_cannot_be_made_is_reported_not_raised(
    saves: Path, caplog: pytest.LogCaptureFixture
) -> None:
    files, _ = seed(saves)
    (saves / ".backups").write_text("a file where the backups folder should be")
    before = everything_in(files.folder)
    with caplog.at_level(logging.WARNING, logger="core.saves.backup"):
        result = backup(files)
    assert result.backup is None and not result.created
    assert result.problem is not None
    assert result.problem.startswith(f"{files.folder}: no backup made (")
    assert result.problem in caplog.text
    assert everything_in(files.folder) == before
    assert roster(files.folder) == ["Cynere", "Teran"]


def test_a_campaign_without_a_manifest_has_nothing_to_back_up(saves: Path) -> None:
    files, _ = seed(saves)
    files.manifest_path.unlink()
    result = backup(files)
    assert result.backup is None
    assert result.problem == (
        f"{files.folder}: no backup made ({files.manifest_path}: missing, "
        "so there is nothing to back up)"
    )


# -- restore --------------------------------------------------------------------------------


def test_restore_puts_a_backup_back_and_keeps_the_state_it_replaced(saves: Path) -> None:
    files, _ = seed(saves)
    seven = backup(files).backup
    assert seven is not None
    add(files, "Zird")

    done = restore(CampaignFiles(files.folder), seven)
    assert roster(files.folder) == ["Cynere", "Teran"]
    assert CampaignFiles(files.folder).meta()["entries"] == 7
    assert done.before is not None and done.before.entries == 8

    restore(CampaignFiles(files.folder), done.before)  # the restore taken back
    assert roster(files.folder) == ["Cynere", "Teran", "Zird"]


def test_a_restored_campaign_has_no_log_file_of_the_state_it_replaced(saves: Path) -> None:
    files, _ = seed(saves)
    seven = backup(files).backup
    assert seven is not None
    campaign = CampaignFiles(files.folder).load()
    for n in range(100):  # into a second segment
        act(campaign, files, AddCharacter(character=Character(name=f"Extra {n}")))
    assert files.segment_path(1).exists()

    (files.folder / "notes.txt").write_text("the GM's")

    restore(CampaignFiles(files.folder), seven)
    assert not files.segment_path(1).exists()
    assert everything_in(files.folder) == [
        "log",
        "log/000000.json",
        "manifest.json",
        "notes.txt",  # not the campaign's files: left alone
    ]
    assert (files.folder / "log/000000.json").read_bytes() == (
        seven.folder / "log/000000.json"
    ).read_bytes()


def test_the_restore_command_lists_backups_newest_first(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    backup(files)
    add(files, "Zird")
    backup(CampaignFiles(files.folder))
    assert tussle(saves, "restore", "Seed") == 0
    lines = capsys.readouterr().out.splitlines()
    stamps = [b.stamp for b in list_backups(saves, "seed")]
    assert lines[0] == f'backups of "Seed" in {saves / ".backups" / "seed"}, newest first:'
    when = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
    assert re.fullmatch(rf"  1  {when}   8 log entries  {re.escape(stamps[0])}", lines[1])
    assert re.fullmatch(rf"  2  {when}   7 log entries  {re.escape(stamps[1])}", lines[2])
    assert lines[3] == "restore one with: tussle restore seed --backup N"
    assert len(lines) == 4


def test_a_campaign_never_backed_up_says_so(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(saves)
    assert tussle(saves, "restore", "Seed") == 0
    assert capsys.readouterr().out == (
        'no backups of "Seed" yet (one is made each time the dashboard opens it, '
        "and at each session start)\n"
    )


def test_the_restore_command_restores_by_number_or_timestamp(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    backup(files)
    add(files, "Zird")
    backup(CampaignFiles(files.folder))
    add(files, "Landon")  # 9 entries, not backed up yet

    assert tussle(saves, "restore", "Seed", "--backup", "2") == 0
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r'restored "Seed" to its backup of [-\d: ]+ \(7 log entries\)', out[0])
    newest = list_backups(saves, "seed")[0]
    assert newest.entries == 9  # the state the restore replaced
    assert out[1] == (
        f"the state it replaced is backup {newest.stamp}: "
        f"tussle restore seed --backup {newest.stamp} takes this back"
    )
    assert roster(files.folder) == ["Cynere", "Teran"]

    assert tussle(saves, "restore", "Seed", "--backup", newest.stamp) == 0
    assert roster(files.folder) == ["Cynere", "Teran", "Zird", "Landon"]


def test_a_backup_that_does_not_exist_is_exit_2(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    backup(files)
    assert tussle(saves, "restore", "Seed", "--backup", "4") == 2
    assert capsys.readouterr().err == (
        'no backup "4" of "Seed" (there are 1; `tussle restore seed` lists them)\n'
    )


def test_restore_of_an_unknown_campaign_is_exit_2(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tussle(saves, "restore", "Nobody") == 2
    assert capsys.readouterr().err == (
        f'no campaign called "Nobody" in {saves}, and no backups of one\n'
    )


def test_a_damaged_backup_is_refused_and_the_campaign_left_alone(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    old = backup(files).backup
    assert old is not None
    (old.folder / "log" / "000000.json").write_text('{"entries": {"1": ')
    add(files, "Zird")
    before = {p: p.read_bytes() for p in files.folder.rglob("*.json")}

    assert tussle(saves, "restore", "Seed", "--backup", "1") == 1
    err = capsys.readouterr().err
    assert err == (
        f"not restored: {old.folder / 'log' / '000000.json'}: damaged (its bytes are not "
        "those backed up: another sha256)\n"
    )
    assert {p: p.read_bytes() for p in files.folder.rglob("*.json")} == before


def test_a_deleted_campaign_comes_back_from_its_backups(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    backup(files)
    for path in sorted(files.folder.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    files.folder.rmdir()

    assert tussle(saves, "restore", "seed", "--backup", "1") == 0
    assert capsys.readouterr().out.startswith('restored "seed" to its backup of ')
    assert [i.name for i in Saves(saves).campaigns()] == ["Seed"]
    assert roster(saves / "seed") == ["Cynere", "Teran"]


def test_a_restore_that_fails_midway_leaves_a_sound_campaign_never_a_mix(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, _ = seed(saves)
    seven = backup(files).backup
    assert seven is not None
    add(files, "Zird")

    def full_disk_on_the_log(path: Path) -> None:
        if path.parent.name == "log":
            raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(core.files.disk, "WRITE_FAULTS", [full_disk_on_the_log])
    with pytest.raises(OSError, match="No space left"):
        restore(CampaignFiles(files.folder), seven)
    monkeypatch.setattr(core.files.disk, "WRITE_FAULTS", [])
    # The restored campaign is made whole beside the campaign before it replaces it in
    # one step: cut short, the campaign is the one before, sound, never a mix nor an
    # empty one (issue 30, items 1 and 6)...
    assert CampaignFiles(files.folder).load().entries == 8
    assert check_campaign(CampaignFiles(files.folder)).entries == 8
    # ...and both states are in backups: the one to restore, and the one before.
    assert [b.entries for b in list_backups(saves, "seed")] == [8, 7]


HOLDER = """
import sys
from pathlib import Path
from core.files.disk import CampaignLock
lock = CampaignLock(Path(sys.argv[1]))
lock.acquire("Seed")
print("held", flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def held(saves: Path) -> Iterator[tuple[CampaignFiles, subprocess.Popen[str]]]:
    """The seed campaign, with a backup, held open by another process."""
    files, _ = seed(saves)
    backup(files)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(files.folder)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline().strip() == "held"
    try:
        yield files, holder
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)


def test_restore_is_refused_while_another_process_holds_the_campaign(
    saves: Path,
    held: tuple[CampaignFiles, subprocess.Popen[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    files, holder = held
    add(files, "Zird")
    before = {p: p.read_bytes() for p in files.folder.rglob("*.json")}
    assert tussle(saves, "restore", "Seed", "--backup", "1") == 3
    err = capsys.readouterr().err
    assert err.startswith('not restored: "Seed" is open in ')
    assert f"(pid {holder.pid} on " in err
    assert {p: p.read_bytes() for p in files.folder.rglob("*.json")} == before
    assert len(list_backups(saves, "seed")) == 1  # and no backup made for a restore refused


# -- format migrations ----------------------------------------------------------------------


def add_initiative_setting(folder: Path) -> None:
    """A test-only step from format 1 to 2: a settings key every format-2 campaign has."""
    doc = read_manifest(folder)
    write_manifest(folder, {**doc, "settings": {**doc["settings"], "initiative": "by skill"}})


NOW = core.campaign.log.FORMAT_VERSION  # the format seeds are written in


def pretend_format(monkeypatch: pytest.MonkeyPatch, version: int) -> None:
    """Pretend this Tussle writes format ``version`` (call it once the campaigns of the
    current format are made). The store checks its own imported copy of the constant:
    both change."""
    monkeypatch.setattr(core.campaign.log, "FORMAT_VERSION", version)
    monkeypatch.setattr(core.saves.store, "FORMAT_VERSION", version)


def copies_of_originals(saves: Path) -> list[Path]:
    return sorted(p for p in saves.iterdir() if ".backup-v" in p.name)


def test_an_older_format_is_upgraded_on_opening_after_a_copy_is_kept(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, _ = seed(saves)  # written in format 1
    (files.folder / "notes.json").write_text('{"kept": "as well"}')
    original = {p.relative_to(files.folder): p.read_bytes() for p in files.folder.rglob("*.json")}
    pretend_format(monkeypatch, NOW + 1)
    monkeypatch.setitem(core.saves.migrate.STEPS, NOW, add_initiative_setting)

    campaign = CampaignFiles(files.folder).load()

    [copy] = copies_of_originals(saves)
    assert re.fullmatch(rf"seed\.backup-v{NOW}-\d{{8}}T\d{{6}}Z", copy.name)
    assert {p.relative_to(copy): p.read_bytes() for p in copy.rglob("*.json")} == original
    assert manifest_doc(CampaignFiles(copy))["format"] == NOW
    upgraded = manifest_doc(files)
    assert upgraded["format"] == NOW + 1
    assert upgraded["settings"] == {"initiative": "by skill"}
    assert upgraded["entries"] == 7
    assert campaign.settings == {"initiative": "by skill"}
    assert list(campaign.roster) == ["Cynere", "Teran"]

    CampaignFiles(files.folder).load()  # opened again: nothing more to do
    assert len(copies_of_originals(saves)) == 1


def test_the_steps_run_in_order_each_recording_the_version_reached(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, _ = seed(saves)
    seen: list[tuple[int, object]] = []

    def step(version: int) -> core.saves.migrate.Step:
        def run(folder: Path) -> None:
            seen.append((version, read_manifest(folder)["format"]))

        return run

    pretend_format(monkeypatch, NOW + 2)
    monkeypatch.setitem(core.saves.migrate.STEPS, NOW + 1, step(NOW + 1))
    monkeypatch.setitem(core.saves.migrate.STEPS, NOW, step(NOW))

    assert CampaignFiles(files.folder).meta()["format"] == NOW + 2
    assert seen == [(NOW, NOW), (NOW + 1, NOW + 1)]
    assert len(copies_of_originals(saves)) == 1  # one copy, of the original


def test_a_failing_step_keeps_the_copy_and_is_tried_again_next_time(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, _ = seed(saves)
    pretend_format(monkeypatch, NOW + 1)
    monkeypatch.setitem(core.saves.migrate.STEPS, NOW, lambda folder: 1 / 0)
    with pytest.raises(BadSave) as failed:
        CampaignFiles(files.folder).load()
    [copy] = copies_of_originals(saves)
    assert str(failed.value) == (
        f"{files.manifest_path}: upgrading format {NOW} to {NOW + 1} failed (division by zero); "
        f"the original is kept in {copy}"
    )
    assert manifest_doc(files)["format"] == NOW
    assert [i.problem is not None for i in Saves(saves).campaigns() if i.slug == "seed"] == [True]

    monkeypatch.setitem(core.saves.migrate.STEPS, NOW, add_initiative_setting)
    assert CampaignFiles(files.folder).load().settings == {"initiative": "by skill"}


def test_an_older_format_with_no_step_is_refused_untouched(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, _ = seed(saves)
    before = files.manifest_path.read_bytes()
    pretend_format(monkeypatch, NOW + 1)
    with pytest.raises(BadSave, match=f"format {NOW} cannot be upgraded to {NOW + 1}"):
        CampaignFiles(files.folder).meta()
    assert files.manifest_path.read_bytes() == before
    assert copies_of_originals(saves) == []


def test_no_upgrade_while_another_process_holds_the_campaign(
    saves: Path, held: tuple[CampaignFiles, subprocess.Popen[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    files, holder = held
    pretend_format(monkeypatch, NOW + 1)
    monkeypatch.setitem(core.saves.migrate.STEPS, NOW, add_initiative_setting)
    before = files.manifest_path.read_bytes()
    with pytest.raises(BadSave, match=rf"must be upgraded to {NOW + 1}, but .*pid {holder.pid}\b"):
        CampaignFiles(files.folder).meta()
    assert files.manifest_path.read_bytes() == before
    assert copies_of_originals(saves) == []


def test_a_campaign_of_the_current_format_is_never_copied(saves: Path) -> None:
    files, _ = seed(saves)
    CampaignFiles(files.folder).load()
    assert sorted(p.name for p in saves.iterdir()) == ["seed"]


def test_the_copy_kept_by_an_upgrade_is_not_listed_as_a_campaign(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, _ = seed(saves)
    pretend_format(monkeypatch, NOW + 1)
    monkeypatch.setitem(core.saves.migrate.STEPS, NOW, add_initiative_setting)
    CampaignFiles(files.folder).load()
    assert [i.slug for i in Saves(saves).campaigns()] == ["seed"]
