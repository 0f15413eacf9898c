"""A killed import leaves no folder behind for long (issue 30, item 15): the next import
clears it, under the saves folder's lock on names, at once (it waited an hour). An import
running in another process keeps its folder: it holds a lock on it while it builds."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

from core.saves.transfer import IMPORT_PREFIX, export_campaign, to_text
from tests.helpers import seed, tussle


def export_file(tmp_path: Path) -> Path:
    files, _ = seed(tmp_path / "from")
    path = tmp_path / "export.json"
    path.write_text(to_text(export_campaign(files)))
    return path


def leftover(saves: Path, name: str) -> Path:
    """What a killed import leaves: its folder, half a campaign in it, no lock held."""
    folder = saves / f"{IMPORT_PREFIX}{name}"
    (folder / "seed" / "log").mkdir(parents=True)
    (folder / "seed" / "manifest.json").write_text(json.dumps({"half": "made"}))
    return folder


def test_the_next_import_clears_a_killed_ones_folder(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    killed = leftover(saves, "killed")
    assert tussle(saves, "import", str(export_file(tmp_path)), "--as", "Copy") == 0
    assert not killed.exists()
    assert sorted(p.name for p in saves.iterdir()) == ["copy"]


def test_an_import_under_way_keeps_its_folder(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    running = leftover(saves, "running")
    fd = os.open(running, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as the import building it holds it
        assert tussle(saves, "import", str(export_file(tmp_path)), "--as", "Copy") == 0
        assert (running / "seed" / "manifest.json").exists()
    finally:
        os.close(fd)
    assert sorted(p.name for p in saves.iterdir()) == [running.name, "copy"]
