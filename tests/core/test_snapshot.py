"""The snapshot (core.saves.snapshot): a long campaign opens from it and the entries after it,
never from a snapshot that does not match its log, and undo still reaches before it.

A campaign of 608 entries (6 contests of 100 exchanges, in 7 log segments of 100) stands
for a long one: what opening reads does not depend on its length, only on where the
snapshot is."""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from pathlib import Path

import pytest

from core.campaign.actions import Campaign
from core.campaign.log import Redo, Undo
from core.cli.bench import exchange_action, fate_campaign
from core.files.codec import encode
from core.saves import snapshot
from core.saves.check import check_campaign
from core.saves.lazy import LazyActions, canonical, sha
from core.saves.store import CampaignFiles

ENTRIES = 608


def state(campaign: Campaign) -> object:
    """Everything a campaign holds, as JSON (its actions each read, its contests too)."""
    return encode(
        {
            "roster": campaign.roster,
            "contests": {k: campaign.contests[k] for k in campaign.contests},
            "actions": {str(k): campaign.actions[k] for k in campaign.actions},
            "done": list(campaign.done),
            "undone": list(campaign.undone),
            "entries": campaign.entries,
            "settings": campaign.settings,
        }
    )


# A long campaign built once for the module (its fixture): one worker.
pytestmark = pytest.mark.xdist_group("snapshot")


@pytest.fixture(scope="module")
def built() -> tuple[Path, object]:
    # In memory (tests/conftest.py: tempfile's folder is in /dev/shm): 600 exchanges
    # appended one by one are 600 fsyncs on a disk, and the snapshot is not about them.
    saves = Path(tempfile.mkdtemp(prefix="saves-"))
    files, campaign = fate_campaign(saves, 600, "Long", per_contest=100)
    assert campaign.entries == ENTRIES
    return files.folder, state(campaign)


@pytest.fixture
def folder(built: tuple[Path, object], tmp_path: Path) -> Path:
    """A copy of the long campaign, its snapshot written (as the dashboard's opening does)."""
    target = tmp_path / "long"
    shutil.copytree(built[0], target)
    opened(target, lock=True)
    assert (target / "snapshot" / "state.json").is_file()
    return target


def opened(folder: Path, lock: bool = False) -> tuple[CampaignFiles, Campaign]:
    files = CampaignFiles(folder)
    if lock:  # as the dashboard opens a campaign
        files.lock.acquire("Long", what="a test")
        files.clean_temporary_files()
    try:
        return files, files.load()
    finally:
        files.lock.release()


def test_a_long_campaign_opens_without_reading_the_segments_its_snapshot_covers(
    folder: Path, built: tuple[Path, object]
) -> None:
    # Damage an old segment, covered by the snapshot: opening does not read it...
    (folder / "log" / "000001.json").write_text("garbage")
    files, campaign = opened(folder)
    assert files.snapshot_problem is None
    assert campaign.entries == ENTRIES
    assert campaign.latest_contest is not None
    assert campaign.latest_contest.contest_id == "c6"
    assert len(campaign.latest_contest.exchanges) == 100
    # ...but check replays the whole log, and names it (reporting what stands before it).
    report = check_campaign(CampaignFiles(folder))
    assert report.bad is not None and "000001.json" in report.bad.reason
    assert report.bad.n == 100 and report.entries == 100


def test_the_snapshot_and_the_entries_after_it_make_the_campaign_the_log_makes(
    folder: Path, built: tuple[Path, object]
) -> None:
    files, campaign = opened(folder)
    assert files.snapshot_problem is None
    assert isinstance(campaign.actions, LazyActions)
    assert state(campaign) == built[1]
    # Entries saved after the snapshot are replayed on top of it.
    writer = CampaignFiles(folder)
    writer.lock.acquire("Long", what="a test")
    rng = random.Random(3)
    for _ in range(5):
        writer.append([campaign.act(exchange_action("c6", rng))])
    writer.lock.release()
    again, reopened = opened(folder)
    assert again.snapshot_problem is None
    assert state(reopened) == state(campaign) == state(CampaignFiles(folder).replay(ENTRIES + 5))


def test_a_stale_snapshot_is_not_used_and_is_written_again(folder: Path) -> None:
    # The last segment it covers says otherwise now (a log restored under it, say).
    segment = folder / "log" / "000006.json"
    data = json.loads(segment.read_text())
    data["entries"]["2"]["entry"]["at"] = "2001-01-01T00:00:00+00:00"
    segment.write_text(json.dumps(data))
    files, campaign = opened(folder, lock=True)
    assert files.snapshot_problem is not None and "changed" in files.snapshot_problem
    assert state(campaign) == state(CampaignFiles(folder).replay(ENTRIES))
    assert opened(folder)[0].snapshot_problem is None  # rebuilt, and sound now


@pytest.mark.parametrize("damage", ["garbage", "digest", "newer"])
def test_a_damaged_snapshot_is_ignored_and_rebuilt(folder: Path, damage: str) -> None:
    head = folder / "snapshot" / "state.json"
    if damage == "garbage":
        head.write_text('{"app": "tussle", "kind": "snaps')
    else:
        data = json.loads(head.read_text())
        data["state"]["sessions"] = ["1999-01-01"]  # the digest no longer matches
        if damage == "newer":
            data["format"] = 99
        head.write_text(json.dumps(data))
    files, campaign = opened(folder, lock=True)
    assert files.snapshot_problem is not None
    assert campaign.sessions == []
    assert state(campaign) == state(CampaignFiles(folder).replay(ENTRIES))
    assert opened(folder)[0].snapshot_problem is None
    assert check_campaign(CampaignFiles(folder)).warnings == ()


def test_a_damaged_contest_file_is_ignored_for_the_log(folder: Path) -> None:
    head = json.loads((folder / "snapshot" / "state.json").read_text())
    _, name, _ = head["contests"][2]  # c3
    path = folder / "snapshot" / name
    text = path.read_text()
    path.write_text(text.replace('"winner":"Cynere"', '"winner":"Teran!"', 1))  # same size
    files, campaign = opened(folder)
    record = campaign.contests["c3"]
    assert files.snapshot_problem is not None and name in files.snapshot_problem
    assert encode(record) == encode(CampaignFiles(folder).replay(ENTRIES).contests["c3"])
    report = check_campaign(CampaignFiles(folder))
    assert len(report.warnings) == 1 and name in report.warnings[0]


def test_check_warns_of_a_snapshot_that_passes_its_digests_but_is_not_the_log(
    folder: Path,
) -> None:
    head_path = folder / "snapshot" / "state.json"
    head = json.loads(head_path.read_text())
    head.pop("digest")
    head["state"]["sessions"] = ["1999-01-01T00:00:00+00:00"]  # not in the log
    head["digest"] = sha(canonical(head))
    head_path.write_text(json.dumps(head))
    assert opened(folder)[1].sessions == ["1999-01-01T00:00:00+00:00"]  # opening trusts it
    report = check_campaign(CampaignFiles(folder))
    assert "sessions is not the log's" in report.warnings[0]
    assert report.line().startswith('OK "Long"')  # a warning, not damage
    assert not head_path.exists()  # removed: the next opening rebuilds it
    assert opened(folder)[1].sessions == []


def test_undo_and_redo_reach_actions_saved_before_the_snapshot(folder: Path) -> None:
    files, campaign = opened(folder)
    assert not campaign.actions.loaded(campaign.done[-1])  # type: ignore[attr-defined]
    files.lock.acquire("Long", what="a test")
    whole = CampaignFiles(folder).replay(ENTRIES)
    for command in (Undo(), Undo(), Undo(), Redo()):
        entry = campaign.decide(command)
        files.append([entry])
        campaign.apply(entry)
        whole.apply(whole.decide(command))
    files.lock.release()
    record = campaign.contests["c6"]
    assert len(record.exchanges) == 98  # three taken back, one put back
    assert encode(record) == encode(whole.contests["c6"])
    assert state(opened(folder)[1]) == state(campaign)


def test_undo_of_a_contest_start_before_the_snapshot_numbers_the_next_one_on(
    folder: Path,
) -> None:
    _, campaign = opened(folder)
    # Nothing but contest play is read back to number the next contest.
    assert campaign.next_contest_id() == "c7"
    assert sum(campaign.actions.loaded(i) for i in campaign.actions) < 20  # type: ignore[attr-defined]


def test_a_snapshot_folder_made_a_link_is_never_followed(folder: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / ".tmp-keep").write_text("not Tussle's")
    (elsewhere / "state.json").write_text("not Tussle's either")
    shutil.rmtree(folder / "snapshot")
    (folder / "snapshot").symlink_to(elsewhere)
    files, campaign = opened(folder, lock=True)  # cleans temporary files, rebuilds
    assert files.snapshot_problem is not None and "link" in files.snapshot_problem
    assert campaign.entries == ENTRIES
    assert sorted(p.name for p in elsewhere.iterdir()) == [".tmp-keep", "state.json"]
    assert (elsewhere / "state.json").read_text() == "not Tussle's either"


def test_an_undo_after_the_snapshot_is_folded_into_it_at_the_next_opening(
    folder: Path,
) -> None:
    # Replaying an undo reads back every action of its contest: the snapshot is written
    # again at once rather than after 200 more entries.
    files, campaign = opened(folder)
    files.lock.acquire("Long", what="a test")
    files.append([campaign.decide(Undo())])
    files.lock.release()
    assert snapshot.covered(CampaignFiles(folder)) == ENTRIES
    opened(folder, lock=True)
    assert snapshot.covered(CampaignFiles(folder)) == ENTRIES + 1
    reopened = opened(folder)[1]
    assert len(reopened.contests["c6"].exchanges) == 99
