"""Private saves (issue 23, item 5): the saves folder and every file and folder Tussle
writes in it are the GM's alone (0700 folders, 0600 files), whatever the umask. A player
with an account on the GM's machine read the hidden NPC's dice in ``log/000000.json``.

Each test sets the process's umask (and puts it back): 0o022, the usual one, and 0o000,
under which a file made without an explicit mode is anyone's to write."""

from __future__ import annotations

import argparse
import json
import os
import random
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.cli.bench import exchange_action, fate_campaign, fate_scenario
from core.cli.commands import check_saves
from core.files.disk import ReadOnlySaves
from core.saves.backup import backup
from tests.helpers import seed, tussle

UMASKS = [0o022, 0o000]


@pytest.fixture(params=UMASKS, ids=["umask-022", "umask-000"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    before = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(before)


def open_to_others(*roots: Path) -> list[str]:
    """Every file and folder under ``roots`` (themselves included) that gives its group or
    others any permission, with its mode."""
    found = []
    for root in roots:
        for path in [root, *sorted(root.rglob("*"))]:
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                continue
            if info.st_mode & 0o077:
                found.append(f"{path.relative_to(root.parent)} {stat.filemode(info.st_mode)}")
    return found


def test_everything_a_campaign_writes_is_the_gms_alone(umask: int, tmp_path: Path) -> None:
    saves = tmp_path / "saves"  # made by Tussle
    config = tmp_path / "config"  # the settings file's folder, made by Tussle too

    # A new campaign, characters, a contest, exchanges played, an undo and a redo.
    files, _ = seed(saves)
    # A long one: its snapshot is written when it is opened with the lock held.
    long_files, _ = fate_campaign(saves, 240, "Long", per_contest=80)
    long_files.lock.acquire("Long", what="a test")
    campaign = long_files.load()
    assert (long_files.folder / "snapshot").is_dir()
    long_files.append([campaign.act(exchange_action("c3", random.Random(1)))])
    long_files.lock.release()
    # Backups (the dashboard's, at opening) and a restore of one.
    files.lock.acquire("Seed", what="a test")
    assert backup(files).created
    files.lock.release()
    assert tussle(saves, "restore", "Seed", "--backup", "1") == 0
    # An export, a recap, an import of the export.
    assert tussle(saves, "export", "Seed", "-o", str(saves / "seed.json")) == 0
    assert tussle(saves, "export", "Seed", "--format", "markdown", "-o", str(saves / "r.md")) == 0
    assert tussle(saves, "import", str(saves / "seed.json"), "--as", "Copy") == 0
    assert tussle(saves, "roster", "export", "Seed", "-o", str(saves / "roster.txt")) == 0
    # A campaign deleted, a copy of it kept in the backups; and one recorded into.
    assert tussle(saves, "import", str(saves / "seed.json"), "--as", "Gone") == 0
    assert tussle(saves, "delete", "Gone", "--yes") == 0
    scenario = tmp_path / "scenario.json"  # the test's, not Tussle's
    scenario.write_text(json.dumps(fate_scenario(1, random.Random(3))))
    assert tussle(saves, "resolve", str(scenario), "--record", "Long") == 0
    # The settings file, with the theme the GM picked (its folders made for it).
    from tui.config import remember_theme

    assert remember_theme("nord", config / "tussle" / "config.toml") is None

    assert (saves / "copy" / "manifest.json").is_file()
    assert (saves / ".backups" / "long" / "sound.json").is_file()
    assert (config / "tussle" / "config.toml").is_file()
    assert open_to_others(saves, config) == []


def test_a_saves_folder_made_by_mkdir_is_the_gms_alone(umask: int, tmp_path: Path) -> None:
    saves = tmp_path / "new" / "saves"
    assert check_saves(argparse.Namespace(saves=str(saves), mkdir=True)) == 0
    assert open_to_others(tmp_path / "new") == []


def test_a_campaign_an_older_tussle_wrote_is_made_private_when_opened(
    umask: int, tmp_path: Path
) -> None:
    saves = tmp_path / "saves"
    files, campaign = seed(saves)
    # As an older Tussle left it under the umask 022: folders 0755, files 0644.
    for path in [saves, *saves.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)

    files.lock.acquire("Seed", what="a test")  # what the dashboard does first
    try:
        # The folder closes every file in it to others, the old log segments included...
        assert stat.S_IMODE(os.stat(files.folder).st_mode) == 0o700
        # ...and what is written again is private itself.
        files.append([campaign.act(exchange_action("c1", random.Random(2)))])
    finally:
        files.lock.release()
    assert stat.S_IMODE(os.stat(files.manifest_path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(files.segment_path(0)).st_mode) == 0o600


def test_a_read_only_campaign_folder_loses_only_the_others_bits(umask: int, tmp_path: Path) -> None:
    """Made private, not writable: a folder the GM made read-only (0555) stays so for its
    owner (0500), so Tussle still opens it read-only."""
    files, _ = seed(tmp_path / "saves")
    os.chmod(files.folder, 0o555)
    try:
        files.lock.acquire("Seed", what="a test")  # (as root, a read-only folder is let in)
        files.lock.release()
    except ReadOnlySaves:
        pass  # as any other user: refused for writing, and made private all the same
    finally:
        mode = stat.S_IMODE(os.stat(files.folder).st_mode)
        os.chmod(files.folder, 0o700)
    assert mode == 0o500
