"""Backups share a campaign's full log segments (hard links) instead of copying them, and
a save never writes a shared segment: a backup keeps the campaign as it was."""

from __future__ import annotations

import os
import random
from pathlib import Path

from core.backup import list_backups, make_backup, restore
from core.bench import exchange_action, fate_campaign
from core.check import check_campaign
from core.codec import encode
from core.store import CampaignFiles


def inode(path: Path) -> tuple[int, int]:
    info = os.lstat(path)
    return info.st_dev, info.st_ino


def test_a_backup_links_the_full_segments_and_copies_the_rest(tmp_path: Path) -> None:
    files, campaign = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    assert campaign.entries == 245  # 2 characters, 3 contests of 80: segments 0, 1 full
    made = make_backup(files).backup
    assert made is not None
    log, copy = files.folder / "log", made.folder / "log"
    for name in ("000000.json", "000001.json"):
        assert inode(log / name) == inode(copy / name)
    # The segment still being written, and the manifest, are copies of their own.
    assert inode(log / "000002.json") != inode(copy / "000002.json")
    assert inode(files.manifest_path) != inode(made.folder / "manifest.json")
    assert check_campaign(CampaignFiles(made.folder)).entries == 245


def test_saves_after_a_backup_leave_it_as_it_was(tmp_path: Path) -> None:
    files, campaign = fate_campaign(tmp_path, 240, "Shared", per_contest=80)
    made = make_backup(files).backup
    assert made is not None
    before = {p.name: p.read_bytes() for p in (made.folder / "log").iterdir()}
    full = inode(files.folder / "log" / "000001.json")
    # Sixty more exchanges: segment 2 fills up and segment 3 starts.
    rng = random.Random(5)
    files.lock.acquire("Shared", what="a test")
    for _ in range(60):
        files.append([campaign.act(exchange_action("c3", rng))])
    files.lock.release()
    assert {p.name: p.read_bytes() for p in (made.folder / "log").iterdir()} == before
    assert inode(files.folder / "log" / "000001.json") == full  # never rewritten
    second = make_backup(files).backup
    assert second is not None and second != made
    assert inode(second.folder / "log" / "000002.json") == inode(
        files.folder / "log" / "000002.json"
    )
    # Restoring the first backup puts back the campaign as it was then.
    restored = restore(CampaignFiles(files.folder), made)
    assert restored.restored == made
    back = CampaignFiles(files.folder)
    assert back.load().entries == 245
    assert check_campaign(back).entries == 245
    # Both backups still hold what they held.
    newest = CampaignFiles(list_backups(tmp_path, "shared")[0].folder)
    assert check_campaign(newest).entries == 305
    assert encode(CampaignFiles(made.folder).load().roster) == encode(campaign.roster)
