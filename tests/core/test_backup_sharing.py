"""Backups are copies of their own (issue 30, item 4): a log segment's bytes are copied
once into the campaign's backups folder, named by their sha256, and shared by the backups
that hold them; never a link to the campaign's own file, so damage to a live segment
reaches no backup. A shared copy is verified before a restore, and mended by the next
backup when damaged; a full segment that changed in the campaign (no save does that) is
said, and then no backup is removed."""

from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path

import pytest

from core.cli.bench import exchange_action, fate_campaign
from core.files.codec import encode
from core.files.disk import BadSave
from core.saves.backup import backup, list_backups, make_backup, restore, verify
from core.saves.check import check_campaign
from core.saves.store import CampaignFiles
from tests.helpers import tussle


def inode(path: Path) -> tuple[int, int]:
    info = os.lstat(path)
    return info.st_dev, info.st_ino


def flip_a_byte(path: Path, where: int) -> None:
    """One byte changed in place, as a disk error or a sync tool would: same file, same
    size, the next character of the alphabet."""
    with open(path, "r+b") as handle:
        handle.seek(where)
        byte = handle.read(1)
        handle.seek(where)
        handle.write(bytes([byte[0] + 1]))


def a_letter_in(path: Path) -> int:
    """Where, in the segment, a letter of a name is (changing it keeps valid JSON)."""
    return path.read_bytes().index(b"Cynere") + 1


def more_exchanges(files: CampaignFiles, count: int, contest: str = "c3") -> None:
    campaign = CampaignFiles(files.folder).load()
    rng = random.Random(count)
    files.lock.acquire("Shared", what="a test")
    try:
        for _ in range(count):
            files.append([campaign.act(exchange_action(contest, rng))])
    finally:
        files.lock.release()


def test_no_file_of_a_backup_is_the_campaigns_own(tmp_path: Path) -> None:
    files, campaign = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    assert campaign.entries == 245  # 2 characters, 3 contests of 80: segments 0, 1 full
    made = make_backup(files).backup
    assert made is not None
    for name in ("manifest.json", "log/000000.json", "log/000001.json", "log/000002.json"):
        assert (made.folder / name).read_bytes() == (files.folder / name).read_bytes()
        assert inode(made.folder / name) != inode(files.folder / name)
    assert check_campaign(CampaignFiles(made.folder, backup_copy=True)).entries == 245


def test_backups_share_one_copy_of_the_same_segment(tmp_path: Path) -> None:
    files, _ = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    first = make_backup(files).backup
    more_exchanges(files, 60)  # segment 2 fills up, segment 3 starts
    second = make_backup(files).backup
    assert first is not None and second is not None and second != first
    shared = tmp_path / ".backups" / "shared" / "segments"
    for name in ("000000.json", "000001.json"):  # the same bytes in both: one copy
        data = (files.folder / "log" / name).read_bytes()
        copy = shared / f"{hashlib.sha256(data).hexdigest()}.json"
        assert inode(first.folder / "log" / name) == inode(copy)
        assert inode(second.folder / "log" / name) == inode(copy)
    # Segment 2 was partly written at the first backup, full at the second: two copies.
    assert inode(first.folder / "log" / "000002.json") != inode(
        second.folder / "log" / "000002.json"
    )
    # Five distinct segment contents in all: 0, 1, 2 (then), 2 (full), 3.
    assert len(list(shared.iterdir())) == 5


def test_one_byte_changed_in_a_live_segment_reaches_no_backup(tmp_path: Path) -> None:
    files, campaign = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    made = make_backup(files).backup
    assert made is not None
    kept = (made.folder / "log" / "000000.json").read_bytes()
    live = files.segment_path(0)
    flip_a_byte(live, a_letter_in(live))

    assert (made.folder / "log" / "000000.json").read_bytes() == kept
    assert verify(made) is None
    restore(CampaignFiles(files.folder), made)
    assert files.segment_path(0).read_bytes() == kept
    back = CampaignFiles(files.folder)
    assert check_campaign(back).entries == 245
    assert encode(back.load().roster) == encode(campaign.roster)


def test_a_full_segment_changed_since_the_last_backup_is_said_and_nothing_is_removed(
    tmp_path: Path,
) -> None:
    files, _ = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    for _ in range(3):
        more_exchanges(files, 1)
        assert backup(files, keep=1).damage is None
    # keep=1: the newest and the first are left of three.
    assert len(list_backups(tmp_path, "shared")) == 2
    live = files.segment_path(1)  # full since before the first backup
    flip_a_byte(live, a_letter_in(live))
    more_exchanges(files, 1)

    result = backup(files, keep=1)
    assert result.created and result.problem is None
    assert result.damage is not None
    assert result.damage.startswith(
        "log/000001.json of the campaign has changed since the backup of "
    )
    assert result.removed == ()
    assert len(list_backups(tmp_path, "shared")) == 3


def test_a_damaged_shared_copy_is_refused_then_mended_by_the_next_backup(
    tmp_path: Path,
) -> None:
    files, _ = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    made = make_backup(files).backup
    assert made is not None
    copy = made.folder / "log" / "000000.json"
    flip_a_byte(copy, a_letter_in(copy))  # the shared copy: every backup holding it
    assert verify(made) == (f"{copy}: damaged (its bytes are not those backed up: another sha256)")
    with pytest.raises(BadSave, match="damaged"):
        restore(CampaignFiles(files.folder), made)

    more_exchanges(files, 1)
    assert backup(files).created
    assert verify(made) is None  # its copy written again from the campaign's bytes
    assert copy.read_bytes() == files.segment_path(0).read_bytes()


def test_saves_after_a_backup_leave_it_as_it_was(tmp_path: Path) -> None:
    files, campaign = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    made = make_backup(files).backup
    assert made is not None
    before = {p.name: p.read_bytes() for p in (made.folder / "log").iterdir()}
    more_exchanges(files, 60)
    assert {p.name: p.read_bytes() for p in (made.folder / "log").iterdir()} == before
    second = make_backup(files).backup
    assert second is not None and second != made
    # Restoring the first backup puts back the campaign as it was then.
    restored = restore(CampaignFiles(files.folder), made)
    assert restored.restored == made
    back = CampaignFiles(files.folder)
    assert back.load().entries == 245
    assert check_campaign(back).entries == 245
    # Both backups still hold what they held.
    newest = CampaignFiles(second.folder, backup_copy=True)
    assert check_campaign(newest).entries == 305
    assert encode(CampaignFiles(made.folder, backup_copy=True).load().roster) == encode(
        campaign.roster
    )


def test_the_copies_no_backup_holds_any_more_go_with_the_backups(tmp_path: Path) -> None:
    files, _ = fate_campaign(tmp_path, 20, "Shared", per_contest=10)
    for _ in range(6):
        more_exchanges(files, 1, "c2")
        backup(files, keep=1)
    # The first backup and the newest are left; each holds one segment (all in segment 0).
    kept = list_backups(tmp_path, "shared")
    assert len(kept) == 2
    shared = tmp_path / ".backups" / "shared" / "segments"
    held = {f"{d}.json" for b in kept for k, d in b.digests().items() if k.startswith("log/")}
    assert len(held) == 2
    assert {p.name for p in shared.iterdir()} == held


def test_check_names_a_damaged_backup_and_a_full_segment_changed_since_the_newest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    made = make_backup(files).backup
    assert made is not None
    copy = made.folder / "log" / "000001.json"
    flip_a_byte(copy, a_letter_in(copy))
    # A byte of the campaign's first segment that its replay never reads (the rating in
    # the command that added Cynere; the event it caused holds its own): check passes it.
    live = files.segment_path(0)
    flip_a_byte(live, live.read_bytes().index(b'"Athletics":') + len(b'"Athletics":'))
    capsys.readouterr()

    assert tussle(tmp_path, "check", "Shared") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith('OK "Shared" (shared): fate, 245 log entries')
    assert out[1:] == [
        f"warning: backup {made.stamp} is damaged: {copy}: damaged (its bytes are not "
        "those backed up: another sha256)",
        f"warning: log/000000.json of the campaign has changed since the backup of "
        f"{made.stamp}, though no save writes a full log segment again: it may be "
        "damaged (tussle restore shared puts a backup back)",
    ]


def test_an_older_tussles_backups_are_unlinked_from_the_campaign(tmp_path: Path) -> None:
    """A backup made as Tussle made them before (its full segments hard links to the
    campaign's own) is made independent by the next backup: its files keep their bytes,
    and a byte changed in the campaign no longer reaches them."""
    files, _ = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    old = tmp_path / ".backups" / "shared" / "20250101T000000.000000Z"
    (old / "log").mkdir(parents=True)
    (old / "manifest.json").write_bytes(files.manifest_path.read_bytes())
    for name in ("000000.json", "000001.json"):
        os.link(files.folder / "log" / name, old / "log" / name)
    (old / "log" / "000002.json").write_bytes(files.segment_path(2).read_bytes())
    kept = {p.name: p.read_bytes() for p in (old / "log").iterdir()}

    assert not backup(files).created  # nothing changed since: no new backup...
    for name in ("000000.json", "000001.json"):  # ...but the old one is a copy now
        assert inode(old / "log" / name) != inode(files.folder / "log" / name)
    assert {p.name: p.read_bytes() for p in (old / "log").iterdir()} == kept
    live = files.segment_path(0)
    flip_a_byte(live, a_letter_in(live))
    assert (old / "log" / "000000.json").read_bytes() == kept["000000.json"]
    restore(CampaignFiles(files.folder), list_backups(tmp_path, "shared")[-1])
    assert check_campaign(CampaignFiles(files.folder)).entries == 245


def test_a_segment_changed_with_nothing_saved_since_is_said_too(tmp_path: Path) -> None:
    """The campaign opened again with nothing saved (the manifest as backed up): no new
    copy, but a full segment whose bytes changed is said all the same."""
    files, _ = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    made = make_backup(files).backup
    live = files.segment_path(1)
    flip_a_byte(live, a_letter_in(live))
    result = backup(files, keep=1)
    assert not result.created and result.backup == made
    assert result.damage is not None and result.damage.startswith("log/000001.json ")
