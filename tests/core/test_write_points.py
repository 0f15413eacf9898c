"""Every store operation is one atomic step: cut at any of its writes (a crash, a full
disk), ``check`` and opening then succeed, with the campaign as it was before the
operation or as it is after (issue 30, items 1, 2 and 6; issue 23, item 3).

The fault is injected through ``core.files.disk.WRITE_FAULTS`` (the project's own seam: every
file Tussle writes goes through it): the Nth write raises ``OSError`` (a full disk), and
a test tries every N an operation has. Opening is what the dashboard does: a fresh
``CampaignFiles``, the lock held.
"""

from __future__ import annotations

import asyncio
import errno
import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from core.bus import Bus
from core.campaign.log import AddCharacter, Character, StartSession, Undo
from core.files import disk
from core.files.disk import BadSave, StoreError
from core.model import Command
from core.saves.store import APP, FORMAT_VERSION, CampaignFiles, Saves
from tests.helpers import (
    SCENARIOS,
    CampaignMemo,
    State,
    act,
    files_of,
    many_characters,
    opened,
    seed,
    state_of,
    tussle,
)


def cut_at(writes: int) -> Callable[[Path], None]:
    """A fault that lets ``writes - 1`` writes through and fails the next."""
    done = [0]

    def fault(path: Path) -> None:
        done[0] += 1
        if done[0] == writes:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))

    return fault


def writes_of(operation: Callable[[], object], monkeypatch: pytest.MonkeyPatch) -> int:
    """How many files ``operation`` writes (it runs, whole)."""
    seen: list[Path] = []
    monkeypatch.setattr(disk, "WRITE_FAULTS", [seen.append])
    operation()
    monkeypatch.setattr(disk, "WRITE_FAULTS", [])
    return len(seen)


def crowd(saves: Path, count: int) -> CampaignFiles:
    """A campaign of ``count`` characters, C000..., one action each."""
    files = Saves(saves).create("Crowd", "fate")
    campaign = files.load()
    files.lock.acquire("Crowd")
    for n in range(count):
        act(campaign, files, AddCharacter(character=Character(name=f"C{n:03d}")))
    files.lock.release()
    return files


def cuts(count: int) -> Iterator[int]:
    return iter(range(1, count + 1))


# -- creating a campaign (issue 30, item 2) ---------------------------------------------------


def test_creating_a_campaign_is_all_or_nothing(
    saves: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    count = writes_of(lambda: Saves(saves / "probe").create("Probe", "fate"), monkeypatch)
    assert count == 5  # the saves folder, the one it is built in, its own, its log, manifest
    for cut in cuts(count):
        folder = saves / f"cut-{cut}"
        monkeypatch.setattr(disk, "WRITE_FAULTS", [cut_at(cut)])
        with pytest.raises((OSError, StoreError)):  # a full disk, said
            Saves(folder).create("Mud", "fate")
        monkeypatch.setattr(disk, "WRITE_FAULTS", [])
        # Before: no campaign called Mud (not a damaged one), and the name is free.
        if folder.exists():
            assert tussle(folder, "check", "Mud") == 2, cut
            assert 'no campaign called "Mud"' in capsys.readouterr().err
        assert Saves(folder).find("Mud") is None
        made = Saves(folder).create("Mud", "fate")
        assert made.slug == "mud" and opened(made.folder)[0].entries == 0
        assert tussle(folder, "check", "Mud") == 0
        assert [p.name for p in folder.iterdir()] == ["mud"]  # nothing left of the cut one


# -- saving at a log segment's boundary (issue 30, item 1) ------------------------------------


@pytest.mark.parametrize("before", [0, 100], ids=["first entry", "101st entry"])
def test_saving_the_first_entry_of_a_segment_is_all_or_nothing(
    saves: Path, monkeypatch: pytest.MonkeyPatch, before: int
) -> None:
    files = crowd(saves, before)
    campaign, _ = opened(files.folder)
    entry = campaign.decide(AddCharacter(character=Character(name="Zird")))
    files.lock.acquire("Crowd")
    try:
        count = writes_of(lambda: CampaignFiles(files.folder).append([entry]), monkeypatch)
    finally:
        files.lock.release()
    assert count == 2  # the new segment whole, then the manifest
    for cut in cuts(count):
        folder = saves / f"cut-{cut}"
        copy = crowd(folder, before)
        campaign, writer = opened(copy.folder)
        entry = campaign.decide(AddCharacter(character=Character(name="Zird")))
        writer.lock.acquire("Crowd")
        monkeypatch.setattr(disk, "WRITE_FAULTS", [cut_at(cut)])
        with pytest.raises(OSError):
            writer.append([entry])
        monkeypatch.setattr(disk, "WRITE_FAULTS", [])
        writer.lock.release()
        # The save did not happen (it raised): the campaign as before, checked and opened.
        assert tussle(folder, "check", "Crowd") == 0, cut
        again, files_again = opened(copy.folder)
        assert again.entries == before and "Zird" not in again.roster
        # And saving again works.
        files_again.lock.acquire("Crowd")
        act(again, files_again, AddCharacter(character=Character(name="Zird")))
        files_again.lock.release()
        assert opened(copy.folder)[0].entries == before + 1


def test_a_segment_an_older_tussle_left_with_only_its_format_is_no_damage(
    saves: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    files = crowd(saves, 100)
    # What an older Tussle's save, cut after TinyDB wrote the new segment's first table,
    # left (the manifest still counts 100).
    files.segment_path(1).write_text(json.dumps({"format": {"1": {"app": APP, "format": 2}}}))
    assert FORMAT_VERSION >= 2
    assert tussle(saves, "check", "Crowd") == 0
    assert opened(files.folder)[0].entries == 100
    assert tussle(saves, "export", "Crowd", "-o", str(tmp_path / "crowd.json")) == 0
    scenario = str(SCENARIOS / "fate-cynere-vs-teran.json")
    assert tussle(saves, "resolve", scenario, "--record", "Crowd") == 0
    assert opened(files.folder)[0].entries > 100
    capsys.readouterr()


# -- setting entries aside and bringing them back (issue 23, item 3) --------------------------


def spoiled_seed(folder: Path) -> CampaignFiles:
    """The seed campaign whose entry 2 (the race's start) needs 0 victories."""
    files, _ = seed(folder)
    data = json.loads(files.segment_path(0).read_text())
    data["entries"]["3"]["entry"]["events"][0]["contest"]["options"]["victories_needed"] = 0
    files.segment_path(0).write_text(json.dumps(data))
    return files


def set_aside_entries(files: CampaignFiles) -> list[object]:
    """Every entry in the campaign's set-aside files (duplicates counted once)."""
    found: list[object] = []
    for path in sorted((files.folder / "set-aside").glob("*.json")):
        for item in json.loads(path.read_text())["entries"]:
            if item not in found:
                found.append(item)
    return found


def test_setting_entries_aside_cut_at_any_write_loses_nothing(
    saves: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    probe = spoiled_seed(saves / "probe")
    count = writes_of(lambda: opened(probe.folder), monkeypatch)
    # The set-aside folder and file, the manifest, the log trimmed, the manifest.
    assert count == 5
    assert [e["n"] for e in set_aside_entries(probe)] == [2, 3, 4, 5, 6]  # type: ignore[index]
    for cut in cuts(count):
        folder = saves / f"cut-{cut}"
        files = spoiled_seed(folder)
        log = json.loads(files.segment_path(0).read_text())["entries"]
        whole = [{"n": n, "entry": log[str(n + 1)]["entry"]} for n in range(2, 7)]
        monkeypatch.setattr(disk, "WRITE_FAULTS", [cut_at(cut)])
        with pytest.raises((OSError, StoreError)):  # a full disk: not opened to be played
            opened(files.folder)
        monkeypatch.setattr(disk, "WRITE_FAULTS", [])
        # The next opening finishes it (or does it again): the campaign before entry 2,
        # the five entries after it kept, check sound.
        campaign, _ = opened(files.folder)
        assert campaign.entries == 2, cut
        assert set_aside_entries(files) == whole, cut
        assert len(list((files.folder / "set-aside").iterdir())) == 1, cut  # one copy
        assert tussle(folder, "check", "Seed") == 0, cut
    capsys.readouterr()


def test_bringing_entries_back_cut_at_any_write_is_before_or_after(
    saves: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def fixed(folder: Path) -> CampaignFiles:
        """Set aside, then the file mended by hand: all five load now."""
        files = spoiled_seed(folder)
        opened(files.folder)
        (path,) = (files.folder / "set-aside").iterdir()
        data = json.loads(path.read_text())
        data["entries"][0]["entry"]["events"][0]["contest"]["options"]["victories_needed"] = 3
        path.write_text(json.dumps(data))
        return files

    probe = fixed(saves / "probe")
    count = writes_of(lambda: tussle(saves / "probe", "check", "Seed", "--repair"), monkeypatch)
    assert count == 2  # the segment, then the manifest
    for cut in cuts(count):
        folder = saves / f"cut-{cut}"
        files = fixed(folder)
        monkeypatch.setattr(disk, "WRITE_FAULTS", [cut_at(cut)])
        assert tussle(folder, "check", "Seed", "--repair") == 1
        monkeypatch.setattr(disk, "WRITE_FAULTS", [])
        assert tussle(folder, "check", "Seed") == 0, cut
        assert opened(files.folder)[0].entries == 2  # before: nothing brought back
        assert tussle(folder, "check", "Seed", "--repair") == 0
        assert opened(files.folder)[0].entries == 7  # after: all five back
    assert opened(probe.folder)[0].entries == 7
    capsys.readouterr()


# -- a restore cut short by an older Tussle (issue 30, item 6) -------------------------------


def test_a_restore_an_older_tussle_cut_short_is_named_not_an_empty_campaign(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from core.saves.backup import list_backups, make_backup

    files = crowd(saves, 3)
    make_backup(files)
    act(opened(files.folder)[0], files, AddCharacter(character=Character(name="Late")))
    # What an older Tussle's restore left when cut while it replaced the log: its
    # manifest counting nothing, and naming the backup (a restore is one step now: see
    # test_restoring_is_before_or_after_at_every_point).
    data = json.loads(files.manifest_path.read_text())
    data["manifest"]["1"].update(entries=0, restoring=list_backups(saves, files.slug)[0].stamp)
    files.manifest_path.write_text(json.dumps(data))
    capsys.readouterr()
    assert tussle(saves, "check", "Crowd") == 1
    err = capsys.readouterr().err
    assert "a restore of backup" in err and "was cut short" in err
    with pytest.raises(Exception, match="was cut short"):
        opened(files.folder)
    # Restoring again mends it.
    assert tussle(saves, "restore", "Crowd", "--backup", "1") == 0
    assert tussle(saves, "check", "Crowd") == 0
    assert opened(files.folder)[0].entries == 3


# -- every operation that writes, cut at every write point (issue 30, must-show 1) -----------
#
# One table of campaigns, made once a test and copied for each cut: "Mud" (the seed
# campaign: a race of two exchanges, an undo and a redo), "Crowd" (200 entries, so a
# dashboard's next action makes a new log segment, and on a session start a backup; an
# undo there writes the snapshot) and "Bystander" (the seed again), which no operation
# touches: its files, and everything else an operation does not own, must stay byte for
# byte as they were.
#
# Two faults, at each point an operation has (``points``): a crash, the saves folder as
# the disk holds it just before that write or change (nothing of the operation's own
# clean-up has run: what a kill there leaves; copied at every point of one whole run);
# and a full disk, every write from that point on refused with ENOSPC while the operation goes on
# handling it as it does. Then each campaign listed must pass ``check`` and open, and the
# table as a whole must be the one before the operation or the one after it.

TABLE = "table"


def table(saves: Path, crowd: bool) -> None:
    seed(saves, "Mud")
    if crowd:  # only where it is the one written: its 200 entries cost every check
        many_characters(saves, 200)  # "Crowd", in crowd/
    seed(saves, "Bystander")


def points(
    operation: Callable[[Path], object],
    saves: Path,
    mp: pytest.MonkeyPatch,
    disk_at: Callable[[int], Path],
) -> tuple[int, int]:
    """How many writes, and how many writes and changes, ``operation`` makes (it runs,
    whole, on ``saves``). Just before its ``n``th write or change, the saves folder is
    copied to ``disk_at(n)`` as the disk holds it then: what a crash there leaves."""
    seen: list[str] = []

    def at(kind: str) -> Callable[[Path], None]:
        def fault(_: Path) -> None:
            seen.append(kind)
            shutil.copytree(saves, disk_at(len(seen)), symlinks=True)

        return fault

    mp.setattr(disk, "WRITE_FAULTS", [at("write")])
    mp.setattr(disk, "CHANGE_FAULTS", [at("change")])
    try:
        operation(saves)
    finally:
        mp.setattr(disk, "WRITE_FAULTS", [])
        mp.setattr(disk, "CHANGE_FAULTS", [])
    return seen.count("write"), len(seen)


def full_from(n: int) -> Callable[[Path], None]:
    """The disk full from the ``n``th write on."""
    done = [0]

    def fault(path: Path) -> None:
        done[0] += 1
        if done[0] >= n:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))

    return fault


def one_of(state: State, allowed: list[State], where: str) -> None:
    """``state`` is one of ``allowed`` (else: how it differs from the first two)."""
    if state in allowed:
        return
    differ = {
        key: (state.get(key), [a.get(key) for a in allowed[:2]])
        for key in sorted({*state, *allowed[0], *allowed[1]})
        if any(state.get(key) != a.get(key) for a in allowed[:2])
    }
    raise AssertionError(f"{where}: neither before nor after: {differ!r:.1500}")


def untouched(saves: Path, owned: tuple[str, ...]) -> dict[str, bytes]:
    """Every file of the saves folder but those of the campaigns and backups the
    operation owns (their folder names) and temporary files."""
    return {
        name: data
        for name, data in files_of(saves).items()
        if not name.startswith(owned)
        and not name.startswith(tuple(f".backups/{o}" for o in owned))
        and not any(part.startswith(".tmp-") for part in name.split("/"))
    }


def sweep(
    tmp_path: Path,
    mp: pytest.MonkeyPatch,
    operation: Callable[[Path], object],
    owned: tuple[str, ...],
    setup: Callable[[Path], None] | None = None,
    between: tuple[Callable[[State, State], State], ...] = (),
    crowd: bool = False,
    upgrade: bool = False,
) -> int:
    """Cut ``operation`` at each of its points, by a crash and by a full disk; after
    each, the table passes ``check``, opens, and is as before or after the operation
    (or one of the ``between`` states, made from the state before: a step of its own,
    such as a backup after a save). How many points it has.

    ``upgrade``: the operation upgrades a campaign of an older format, which any opening
    does (``state_of`` too): the state before is read from a copy, the table itself left
    in the old format for the operation, and the state after is the same (an upgrade
    changes the files, not what the GM sees)."""
    template = tmp_path / TABLE
    template.mkdir()
    table(template, crowd)
    if setup is not None:
        setup(template)
    # Most points leave most campaigns as they were (the bystanders, the operation's own
    # before it is reached): each distinct campaign folder is checked and opened once.
    memo: CampaignMemo = {}
    if upgrade:
        read = Path(shutil.copytree(template, tmp_path / "read", symlinks=True))
        before = state_of(read, memo)
    else:
        before = state_of(template, memo)  # opened as the dashboard does, which may write too
    bystanders = untouched(template, owned)
    whole = tmp_path / "whole"
    shutil.copytree(template, whole, symlinks=True)
    # A crash at a point leaves the disk as it is just before that write or change, the
    # operation stopped there; nothing it does later can change that moment. So one
    # whole run copies the disk at every point (as a crash at each would leave it),
    # instead of running the operation again up to each point.
    writes, count = points(operation, whole, mp, lambda n: tmp_path / f"crash-{n}-disk")
    after = state_of(whole, memo)
    if upgrade:
        assert after == before, "the upgrade changed what the GM sees"
    else:
        assert after != before, "the operation changed nothing"
    assert untouched(whole, owned) == bystanders
    allowed = [before, after, *(step(before, after) for step in between)]
    for n in range(1, count + 1):
        disk_then = tmp_path / f"crash-{n}-disk"
        one_of(state_of(disk_then, memo), allowed, f"crash at point {n} of {count}")
        assert untouched(disk_then, owned) == bystanders, f"crash at point {n}"
        shutil.rmtree(disk_then)
    for n in range(1, writes + 1):
        saves = tmp_path / f"full-{n}"
        shutil.copytree(template, saves, symlinks=True)
        mp.setattr(disk, "WRITE_FAULTS", [full_from(n)])
        try:
            operation(saves)
        except OSError:
            pass  # refused: said, as its caller says it
        finally:
            mp.setattr(disk, "WRITE_FAULTS", [])
        one_of(state_of(saves, memo), allowed, f"full disk from write {n} of {writes}")
        assert untouched(saves, owned) == bystanders, f"full disk from point {n}"
        shutil.rmtree(saves)
    return count


def cli(saves: Path, *argv: str) -> int:
    """``tussle ARGV`` on ``saves``, in this process; never a bug's exit (70), whatever the
    disk did."""
    code = tussle(saves, *argv)
    assert code != 70, argv
    return code


def roster_file(folder: Path) -> Path:
    path = folder / "zird.toml"
    if not path.exists():
        path.write_text(
            'system = "fate"\n\n[[characters]]\nname = "Zird the Arcane"\nkind = "pc"\n'
            "fate_points = 3\nskills = { Lore = 4 }\n"
        )
    return path


def test_recording_a_contest_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = str(SCENARIOS / "fate-cynere-vs-teran.json")
    count = sweep(
        tmp_path, monkeypatch, lambda s: cli(s, "resolve", scenario, "--record", "Mud"), ("mud",)
    )
    assert count >= 2  # the log's segment, then the manifest


def test_recording_into_a_new_campaign_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = str(SCENARIOS / "fate-cynere-vs-teran.json")
    count = sweep(
        tmp_path,
        monkeypatch,
        lambda s: cli(s, "resolve", scenario, "--record", "Clay"),
        ("clay",),
    )
    assert count >= 4  # its folders, its manifest, then the log and the manifest again


def test_a_roster_import_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(roster_file(tmp_path))
    count = sweep(
        tmp_path, monkeypatch, lambda s: cli(s, "roster", "import", "Mud", path), ("mud",)
    )
    assert count >= 2


def test_importing_an_export_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    export = tmp_path / "mud.json"
    seed(tmp_path / "source", "Mud")
    assert tussle(tmp_path / "source", "export", "Mud", "-o", str(export)) == 0
    count = sweep(
        tmp_path,
        monkeypatch,
        lambda s: cli(s, "import", str(export), "--as", "Clay"),
        ("clay",),
    )
    assert count >= 4


def test_renaming_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = sweep(tmp_path, monkeypatch, lambda s: cli(s, "rename", "Mud", "Clay"), ("mud",))
    assert count == 1  # the manifest


def test_archiving_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = sweep(tmp_path, monkeypatch, lambda s: cli(s, "archive", "Mud"), ("mud",))
    assert count == 1  # the manifest


def test_deleting_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A backup first (its own step: the campaign still there, backed up), then the
    # campaign's folder renamed out of the saves, then removed.
    count = sweep(
        tmp_path,
        monkeypatch,
        lambda s: cli(s, "delete", "Mud", "--yes"),
        ("mud",),
        between=(backups_as_after,),
    )
    assert count >= 4


def test_a_backup_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.saves.backup import make_backup

    def back_up(saves: Path) -> None:
        files = CampaignFiles(saves / "mud")
        files.lock.acquire("Mud")
        try:
            make_backup(files, why="opened")
        finally:
            files.lock.release()

    assert sweep(tmp_path, monkeypatch, back_up, ("mud",)) >= 4


def backups_as_after(before: State, after: State) -> State:
    """The campaigns as before, their backups as after: a backup made, then cut."""
    mixed = {k: (after if k.startswith("backups of") else before).get(k) for k in {*before, *after}}
    return {k: v for k, v in mixed.items() if v is not None}


def saved_not_backed_up(before: State, after: State) -> State:
    """The campaigns as after, their backups as before: saved, then cut before the backup."""
    mixed = {k: (before if k.startswith("backups of") else after).get(k) for k in {*before, *after}}
    return {k: v for k, v in mixed.items() if v is not None}


def test_restoring_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.saves.backup import make_backup

    def one_backup_back(saves: Path) -> None:
        files = CampaignFiles(saves / "mud")
        make_backup(files, why="opened")
        files.lock.acquire("Mud")
        act(files.load(), files, AddCharacter(character=Character(name="Late")))
        files.lock.release()

    count = sweep(
        tmp_path,
        monkeypatch,
        lambda s: cli(s, "restore", "Mud", "--backup", "1"),
        ("mud",),
        setup=one_backup_back,
        between=(backups_as_after,),
    )
    assert count >= 4


def commit(saves: Path, folder: str, command: Command) -> None:
    """What the dashboard does with a GM's action: the bus decides, saves, applies, then
    keeps the snapshot and (at a session's start) backs up, each when due."""
    files = CampaignFiles(saves / folder)
    files.lock.acquire(folder)
    try:
        bus = Bus(files.load(), files, on_backup=lambda _: None)
        asyncio.run(bus.handle(command))
    finally:
        files.lock.release()


def test_a_dashboard_commit_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The 201st entry: a new log segment, the manifest, then a backup of the session.
    count = sweep(
        tmp_path,
        monkeypatch,
        lambda s: commit(s, "crowd", StartSession()),
        ("crowd",),
        between=(saved_not_backed_up,),
        crowd=True,
    )
    assert count >= 6


def test_a_snapshot_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An undo on the dashboard writes the snapshot at once (replaying one costs more):
    # the entry, the manifest, then the snapshot's contest files and its head.
    count = sweep(
        tmp_path,
        monkeypatch,
        lambda s: commit(s, "crowd", Undo()),
        ("crowd",),
        crowd=True,
    )
    assert count >= 3


OLD_FORMAT = Path(__file__).parents[1] / "data" / "sheets_saves" / "saves"


def test_opening_an_older_format_is_before_or_after_at_every_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening a campaign of format 2 upgrades it (core.saves.migrate): a copy of the
    original kept, the log's characters reshaped (format 3), its session starts' field
    renamed (format 4), the manifest stamped after each step, the snapshot written
    again. Cut anywhere, the campaign still passes ``check`` and opens as it was."""
    slug = "long-heroquest-sheets"  # 257 entries in 3 segments, session starts, a snapshot

    def old_campaign(saves: Path) -> None:
        shutil.copytree(OLD_FORMAT / slug, saves / slug)

    def open_it(saves: Path) -> None:
        try:
            opened(saves / slug)
        except BadSave as refused:  # a full disk: said, as the dashboard says it
            assert "the original is kept in" in str(refused)

    count = sweep(tmp_path, monkeypatch, open_it, (slug,), setup=old_campaign, upgrade=True)
    manifest = json.loads((OLD_FORMAT / slug / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["manifest"]["1"]["format"] == 2 < FORMAT_VERSION
    # the copy (its folder, 3 segments, the manifest, the snapshot's files...), the
    # segments rewritten by two steps, the manifest after each
    assert count >= 10


def test_making_the_demos_cut_at_any_write_leaves_no_empty_demo(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.cli.demo import create_demos

    count = writes_of(lambda: create_demos(Saves(saves / "probe")), monkeypatch)
    whole = {c.name: c.entries for c in Saves(saves / "probe").campaigns()}
    assert len(whole) == 3 and all(entries > 0 for entries in whole.values())
    for cut in cuts(count):
        folder = saves / f"cut-{cut}"
        monkeypatch.setattr(disk, "WRITE_FAULTS", [cut_at(cut)])
        with pytest.raises((OSError, StoreError)):
            create_demos(Saves(folder))
        monkeypatch.setattr(disk, "WRITE_FAULTS", [])
        # Each demo there is whole (the ones made before the cut); the next start makes
        # the others, never leaving one empty.
        made = {c.name: c.entries for c in Saves(folder).campaigns()}
        assert all(whole[name] == entries for name, entries in made.items()), cut
        create_demos(Saves(folder))
        assert {c.name: c.entries for c in Saves(folder).campaigns()} == whole, cut
