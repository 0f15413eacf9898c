"""Issue 17, "What it must show" 2: campaign folders made hostile, every command run on them.

A saves folder holds two campaigns, "Target" and "Other", each with a backup. One file of
Target (its manifest, its first log segment, its lock file, its log folder, or its folder
itself) is replaced by garbage, cut short, emptied, nested 100,000 deep, made a link to a
file or folder outside the saves folder, made a FIFO, made a folder, or stamped with a
newer format. Then every command that reads or writes a campaign is run on Target, and
the dashboard opens Target and then Other. For each case:

* every command exits 0, 1, 2 or 3 (never 70, the code for a bug), with a message on
  stderr when it is not 0, and none hangs (each case runs in a process with a timeout);
* nothing outside Target's folder (and its own backups) changes: Other's files, the
  files the links point to, the rest of the saves folder;
* Other still checks sound and opens, on the command line and in the dashboard.

The commands run inside one process per case (``tui.cli.main``, what the console script
calls), forked from the test's own, so the whole matrix takes seconds, not minutes.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.saves.backup import make_backup
from core.saves.store import CampaignFiles
from tests.conftest import SCENARIOS
from tests.helpers import in_a_forked_process, seed

SEED = SCENARIOS / "fate-cynere-vs-teran.json"
CASE_TIMEOUT = 60  # seconds for one case's every command: a hang fails the test

COMMANDS: list[list[str]] = [
    ["check", "Target"],
    ["check", "target"],
    ["export", "target"],
    ["export", "target", "--format", "markdown"],
    ["restore", "target"],
    ["resolve", str(SEED), "--record", "Target", "--wait", "0"],
    ["rename", "target", "Renamed"],
    ["archive", "target"],
    ["archive", "target", "--undo"],
    ["restore", "target", "--backup", "1"],
    ["check", "target"],
    ["delete", "target", "--yes"],
    ["check", "Other"],
    ["export", "Other"],
]


def run_case(saves: str, commands: list[list[str]]) -> dict[str, Any]:
    """Every command on ``saves`` through ``tui.cli.main`` (what the console script
    calls), then the dashboard opened on Target and on Other: their exit codes, what they
    said on stderr, and which campaign each dashboard opened."""
    import asyncio

    from tui.app import make_app
    from tui.cli import main

    results = []
    for argv in commands:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(["--saves", saves, *argv])
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
        results.append({"argv": argv, "code": code, "err": err.getvalue()})

    async def dashboard(name: str) -> str | None:
        app = make_app(saves, campaign=name, demos=False)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(3):
                await pilot.pause()
            return app.files.slug if app.files is not None else None

    opened = {name: asyncio.run(dashboard(name)) for name in ("Target", "Other")}
    return {"results": results, "opened": opened}


def garbage(path: Path) -> None:
    path.write_bytes(random.Random(str(path)).randbytes(300))


def truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def emptied(path: Path) -> None:
    path.write_bytes(b"")


def nested(path: Path) -> None:
    path.write_bytes(b'{"manifest": {"1": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}")


def fifo(path: Path) -> None:
    os.mkfifo(path)


def folder(path: Path) -> None:
    path.mkdir()


def newer_format(path: Path) -> None:
    data = json.loads(path.read_text())
    if "manifest" in data:
        data["manifest"]["1"]["format"] = 99
    else:
        data["format"] = {"1": {"app": "tussle", "format": 99}}
    path.write_text(json.dumps(data))


Change = Callable[[Path], None]

# What each kind of file can be made: a file's content, or what stands at its path.
CONTENT: dict[str, Change] = {
    "garbage": garbage,
    "truncated": truncated,
    "emptied": emptied,
    "nested": nested,
}
STANDS: dict[str, Change] = {"fifo": fifo, "folder": folder}
KINDS = {
    "manifest": ("manifest.json", {**CONTENT, **STANDS, "format": newer_format}),
    "segment": ("log/000000.json", {**CONTENT, **STANDS, "format": newer_format}),
    "lock": ("campaign.lock", {**CONTENT, **STANDS}),
    "log": ("log", {"garbage": garbage, "fifo": fifo}),
    "campaign": ("", {"garbage": garbage, "fifo": fifo}),
}
CASES = [
    (kind, how)
    for kind, (_, changes) in KINDS.items()
    for how in [*changes, "link to a file", "link to a folder"]
]


def snapshot(root: Path, skip: tuple[Path, ...] = ()) -> dict[str, Any]:
    """Every path under ``root`` (links not followed) with its kind and bytes, but lock
    files (which say who has a campaign open: the dashboard opening Other writes its)."""
    out: dict[str, Any] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if here / d not in skip]
        for name in sorted(dirnames + filenames):
            path = here / name
            if path in skip or name == "campaign.lock":
                continue
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))
            elif path.is_file():
                out[rel] = ("file", path.read_bytes())
            else:
                out[rel] = ("other", path.stat().st_mode & 0o170000)
    return out


@pytest.fixture(scope="module", autouse=True)
def warmed_up(tmp_path_factory: pytest.TempPathFactory) -> None:
    """What a case's process loads the first time it runs the commands and opens the
    dashboard (the commands' modules, the screens, their styles), loaded once here on a
    sound saves folder, before any fork: otherwise each of the 30 forked cases loads them
    again for itself. Each case still runs every command and both dashboards on its own
    hostile folder, in its own process."""
    saves = tmp_path_factory.mktemp("warm-up") / "saves"
    saves.mkdir()
    seed(saves, "Target")
    seed(saves, "Other")
    report = run_case(str(saves), COMMANDS)
    assert report["opened"] == {"Target": "target", "Other": "other"}, report


@pytest.mark.parametrize("kind, how", CASES, ids=[f"{k}-{h}" for k, h in CASES])
def test_every_command_on_a_hostile_campaign_folder_ends_clearly_and_harms_nothing_else(
    tmp_path: Path, kind: str, how: str
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    target, _ = seed(saves, "Target")
    other, _ = seed(saves, "Other")
    make_backup(target)
    make_backup(other)
    outside = tmp_path / "outside"  # what a link points to: must never change
    (outside / "folder").mkdir(parents=True)
    (outside / "file").write_text("the sender chose this file\n")
    shutil.copytree(target.folder / "log", outside / "folder" / "log")
    shutil.copyfile(target.manifest_path, outside / "folder" / "manifest.json")

    name, changes = KINDS[kind]
    path = target.folder / name if name else target.folder
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists() and (how.startswith("link") or how in STANDS):
        path.unlink()
    if how == "link to a file":
        path.symlink_to(outside / "file")
    elif how == "link to a folder":
        path.symlink_to(outside / "folder")
    else:
        if not path.exists() and how in CONTENT and how != "emptied":
            path.write_bytes(b'{"manifest": {"1": {}}}')  # a folder's place: a file now
        changes[how](path)

    mine = (target.folder, saves / ".backups" / "target")
    before_saves = snapshot(saves, skip=mine)
    before_outside = snapshot(outside)

    report = in_a_forked_process(lambda: run_case(str(saves), COMMANDS), CASE_TIMEOUT)
    for result in report["results"]:
        argv, code, err = result["argv"], result["code"], result["err"]
        assert code in (0, 1, 2, 3), (argv, code, err)
        assert "Traceback" not in err and "a bug in Tussle" not in err, (argv, err)
        if code != 0:
            assert err.strip(), (argv, code)  # a refusal says why
    other_codes = [r["code"] for r in report["results"] if "Other" in r["argv"]]
    assert other_codes == [0, 0]
    assert report["opened"]["Other"] == "other"

    after_saves = snapshot(saves, skip=mine)
    # Other's files as they were; nothing new beside the campaigns (no target-2...).
    assert after_saves == before_saves
    assert snapshot(outside) == before_outside
    assert CampaignFiles(other.folder).load().entries == 7
