"""``--record`` and ``roster import`` refuse a campaign whose log ``tussle check`` finds
damaged, where the snapshot covers the damage too (issue 30, item 5): they open from the
snapshot, which spares them reading the log it covers, and used to write after a
history that was gone (8 of 8 cases).

The campaign: 2 characters, 3 contests of 80 exchanges (245 log entries: segments 0 and
1 full, 2 partly), its snapshot covering every entry. Each case damages segment 0, which
only the snapshot stands for when the campaign is opened. A refused write changes
nothing: the campaign's files are as the damage left them.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import core.saves.log_guard
from core.cli.bench import fate_campaign, fate_scenario
from core.saves import snapshot
from core.saves.store import CampaignFiles
from tests.helpers import files_of, tussle

ROSTERS = Path(__file__).resolve().parents[1] / "data" / "roster"
ENTRIES = 245


def truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def garbage(path: Path) -> None:
    path.write_bytes(b"\x00\x13 not a log segment \xff")


def deleted(path: Path) -> None:
    path.unlink()


def a_folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


def a_link(path: Path) -> None:
    """A link to a copy of itself, elsewhere: Tussle follows no link in a campaign."""
    elsewhere = path.parents[3] / "elsewhere.json"
    shutil.copyfile(path, elsewhere)
    path.unlink()
    path.symlink_to(elsewhere)


def entry_removed(path: Path) -> None:
    data = json.loads(path.read_bytes())
    del data["entries"]["50"]
    path.write_text(json.dumps(data))


def entry_unknown(path: Path) -> None:
    """An entry of a kind no Tussle writes (valid JSON, the rest untouched)."""
    data = json.loads(path.read_bytes())
    data["entries"]["50"]["entry"]["@"] = "campaign.Nonsense"
    path.write_text(json.dumps(data))


def another_segment(path: Path) -> None:
    """Segment 1's file over segment 0: sound JSON, entries that decode, a log that does
    not replay (its actions recorded twice)."""
    path.write_bytes((path.parent / "000001.json").read_bytes())


DAMAGE: list[Callable[[Path], None]] = [
    truncated,
    garbage,
    deleted,
    a_folder,
    a_link,
    entry_removed,
    entry_unknown,
    another_segment,
]


def long_campaign(saves: Path) -> CampaignFiles:
    files, _ = fate_campaign(saves, 240, "Shared", per_contest=80)
    files.lock.acquire("Shared", what="a test")
    try:
        files.load()  # the first opening writes the snapshot
    finally:
        files.lock.release()
    assert snapshot.covered(files) == ENTRIES
    return files


def record(saves: Path, tmp_path: Path, seed: int) -> int:
    scenario = tmp_path / f"scenario-{seed}.json"
    scenario.write_text(json.dumps(fate_scenario(1, random.Random(seed))))
    return tussle(saves, "resolve", str(scenario), "--record", "Shared")


def roster_import(saves: Path, tmp_path: Path, seed: int) -> int:
    file = ["fari-current-zird.json", "foundry-landon.json"][seed]
    return tussle(saves, "roster", "import", "Shared", str(ROSTERS / file))


WRITERS = {"record": record, "roster-import": roster_import}


@pytest.mark.parametrize("earlier", [False, True], ids=["first-write", "after-a-write"])
@pytest.mark.parametrize("writer", list(WRITERS))
@pytest.mark.parametrize("damage", DAMAGE, ids=[d.__name__ for d in DAMAGE])
def test_a_writer_refuses_a_log_damaged_where_the_snapshot_covers_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    damage: Callable[[Path], None],
    writer: str,
    earlier: bool,
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    files = long_campaign(saves)
    write = WRITERS[writer]
    if earlier:  # a write that went in: the log's sums are kept from then
        assert write(saves, tmp_path, 1) == 0
    damage(files.segment_path(0))
    capsys.readouterr()
    assert tussle(saves, "check", "Shared") == 1  # the premise: check calls it damaged
    capsys.readouterr()
    before = files_of(files.folder)

    assert write(saves, tmp_path, 0) == 1
    err = capsys.readouterr().err
    assert str(files.segment_path(0)) in err
    assert "Nothing was written: the campaign's log is damaged where its snapshot covers it" in err
    assert files_of(files.folder) == before


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_writer_goes_on_into_a_sound_campaign_opened_from_its_snapshot(
    tmp_path: Path, writer: str
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    files = long_campaign(saves)
    write = WRITERS[writer]
    assert write(saves, tmp_path, 0) == 0
    assert write(saves, tmp_path, 1) == 0  # with the sums kept by the first
    assert CampaignFiles(files.folder).meta()["entries"] > ENTRIES


def test_a_byte_changed_that_the_log_still_replays_with_is_no_refusal(tmp_path: Path) -> None:
    """A full segment whose bytes changed is checked whole; what check passes is written
    into (the rating in the command that added Cynere: its event holds its own)."""
    saves = tmp_path / "saves"
    saves.mkdir()
    files = long_campaign(saves)
    assert record(saves, tmp_path, 0) == 0
    path = files.segment_path(0)
    data = bytearray(path.read_bytes())
    where = data.index(b'"Athletics":') + len(b'"Athletics":')
    data[where] += 1
    path.write_bytes(bytes(data))
    assert record(saves, tmp_path, 1) == 0
    assert os.path.exists(saves / ".backups" / "shared" / "sound.json")


def test_a_segment_found_sound_and_not_written_since_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What keeps --record into a long campaign as quick as into a new one: the segments
    the last write found sound are looked at (stat), not read, while nothing wrote them."""
    saves = tmp_path / "saves"
    saves.mkdir()
    files = long_campaign(saves)
    assert record(saves, tmp_path, 0) == 0  # the first: checked, and kept as sound
    read: list[Path] = []
    real = core.saves.log_guard.read_bytes

    def counted(path: Path, *args: Any) -> bytes | None:
        read.append(path)
        return real(path, *args)

    monkeypatch.setattr(core.saves.log_guard, "read_bytes", counted)
    assert record(saves, tmp_path, 1) == 0
    assert [p for p in read if p.parent == files.folder / "log"] == []
    # Rewritten with the same bytes (a sync tool, a copy back): read again, and sound.
    path = files.segment_path(0)
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data)
    assert record(saves, tmp_path, 2) == 0
    assert [p for p in read if p.parent == files.folder / "log"] == [path]
