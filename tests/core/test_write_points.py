"""Every store operation is one atomic step: cut at any of its writes (a crash, a full
disk), ``check`` and opening then succeed, with the campaign as it was before the
operation or as it is after (issue 30, items 1, 2 and 6; issue 23, item 3).

The fault is injected through ``core.disk.WRITE_FAULTS`` (the project's own seam: every
file Tussle writes goes through it): the Nth write raises ``OSError`` (a full disk), and
a test tries every N an operation has. Opening is what the dashboard does: a fresh
``CampaignFiles``, the lock held.
"""

from __future__ import annotations

import errno
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from core import disk
from core.campaign import AddCharacter, Campaign, Character
from core.store import APP, FORMAT_VERSION, CampaignFiles, Saves, StoreError
from tests.helpers import SCENARIOS, act, seed, tussle


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


def opened(folder: Path) -> tuple[Campaign, CampaignFiles]:
    files = CampaignFiles(folder)
    files.lock.acquire("test")
    try:
        return files.load(), files
    finally:
        files.lock.release()


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
    assert writes_of(lambda: Saves(saves / "probe").create("Probe", "fate"), monkeypatch) == 1
    monkeypatch.setattr(disk, "WRITE_FAULTS", [cut_at(1)])
    with pytest.raises(OSError):
        Saves(saves).create("Mud", "fate")
    monkeypatch.setattr(disk, "WRITE_FAULTS", [])
    # Before: no campaign called Mud (not a damaged one), and the name is free.
    assert tussle(saves, "check", "Mud") == 2
    assert 'no campaign called "Mud"' in capsys.readouterr().err
    assert Saves(saves).find("Mud") is None
    made = Saves(saves).create("Mud", "fate")
    assert made.slug == "mud" and opened(made.folder)[0].entries == 0
    assert tussle(saves, "check", "Mud") == 0


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
    assert count == 4  # the set-aside file, the manifest, the log trimmed, the manifest
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


# -- a restore cut short (issue 30, item 6) ---------------------------------------------------


def test_a_restore_cut_short_is_named_not_an_empty_campaign(
    saves: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from core.backup import list_backups, make_backup

    files = crowd(saves, 3)
    make_backup(files)
    act(opened(files.folder)[0], files, AddCharacter(character=Character(name="Late")))
    capsys.readouterr()

    # Cut at the restore's first write into the campaign's log: after its manifest was
    # made to count nothing while the log is replaced.
    def fault(path: Path) -> None:
        if path.parent == files.folder / "log":
            raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(disk, "WRITE_FAULTS", [fault])
    tussle(saves, "restore", "Crowd", "--backup", "1")
    monkeypatch.setattr(disk, "WRITE_FAULTS", [])
    capsys.readouterr()
    state = json.loads(files.manifest_path.read_text())["manifest"]["1"]
    if "restoring" not in state:
        pytest.skip("this restore writes nothing before the manifest: nothing to cut")
    assert tussle(saves, "check", "Crowd") == 1
    err = capsys.readouterr().err
    assert "a restore of backup" in err and "was cut short" in err
    with pytest.raises(Exception, match="was cut short"):
        opened(files.folder)
    # Restoring again mends it.
    assert list_backups(saves, files.slug)
    assert tussle(saves, "restore", "Crowd", "--backup", "1") == 0
    assert tussle(saves, "check", "Crowd") == 0
