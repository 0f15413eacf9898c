"""A campaign with a log entry that does not load still opens (issue 23 item 3).

The seed campaign (tests/helpers.py ``seed``, worked by hand from Fate Core's contest
rules) has 7 entries: 0 and 1 add Cynere and Teran (actions 1 and 2), 2 starts the race c1
(action 3), 3 and 4 are its two exchanges (actions 4 and 5), 5 undoes action 5 and 6
redoes it. A hand edit makes one entry impossible (a contest needing 0 victories, what the
story's GM typed; or an event of a newer Tussle). Readers show the campaign up to it and
say so, writing nothing; the dashboard, ``--record`` and ``check --repair`` (holding the
lock) move it and the entries after it into ``set-aside/``, never deleted.
"""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

import pytest

from core.campaign.log import AddCharacter, Character, StartContest
from core.saves.check import check_campaign
from core.saves.export_stream import write_export
from core.saves.store import CampaignFiles, Saves
from tests.helpers import SCENARIOS, act, files_of, manifest_doc, seed, seed_race, tussle

MIDDLE, LAST = 2, 6  # the race's start, the redo


def entry_of(files: CampaignFiles, n: int) -> dict[str, Any]:
    doc = json.loads(files.segment_path(0).read_text())["entries"][str(n + 1)]["entry"]
    assert isinstance(doc, dict)
    return doc


def spoil(files: CampaignFiles, n: int) -> dict[str, Any]:
    """Entry ``n`` made impossible by hand; the entries as saved before."""
    data = json.loads(files.segment_path(0).read_text())
    before = json.loads(json.dumps({k: v["entry"] for k, v in data["entries"].items()}))
    entry = data["entries"][str(n + 1)]["entry"]
    if n == MIDDLE:  # the story's: a contest that needs no victory
        entry["events"][0]["contest"]["options"]["victories_needed"] = 0
    else:  # a newer Tussle's entry, unknown here
        entry["@"] = "ActionForeseen"
    files.segment_path(0).write_text(json.dumps(data))
    return before


def locked(files: CampaignFiles) -> CampaignFiles:
    """What the dashboard (or --record) opens: the lock held."""
    opened = CampaignFiles(files.folder)
    opened.lock.acquire("Seed")
    return opened


def set_aside_file(files: CampaignFiles) -> dict[str, Any]:
    (path,) = (files.folder / "set-aside").iterdir()
    data = json.loads(path.read_text())
    assert isinstance(data, dict)
    return data


# -- readers: up to the bad entry, nothing written ------------------------------------------


@pytest.mark.parametrize("n", [MIDDLE, LAST], ids=["middle", "end"])
def test_a_reader_opens_the_campaign_up_to_the_bad_entry_and_writes_nothing(
    saves: Path, n: int
) -> None:
    files, _ = seed(saves)
    spoil(files, n)
    before = files_of(files.folder)
    reader = CampaignFiles(files.folder)
    campaign = reader.load()
    assert campaign.entries == n
    assert list(campaign.roster) == ["Cynere", "Teran"]
    # Before the race started: no contest; before the redo: action 5 undone, so one
    # exchange (Cynere's win) in c1.
    exchanges = [len(r.exchanges) for r in campaign.contests.values()]
    assert exchanges == ([] if n == MIDDLE else [1])
    assert reader.bad_entry is not None
    assert (reader.bad_entry.n, reader.bad_entry.count, reader.bad_entry.kept_in) == (n, 7, None)
    message = reader.bad_entry.message()
    assert f"Log entry {n} does not load" in message
    assert "tussle check seed --repair" in message
    assert files_of(files.folder) == before


def test_check_reports_the_campaign_up_to_the_bad_entry_and_exits_1(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    spoil(files, MIDDLE)
    before = files_of(files.folder)
    assert tussle(saves, "check", "Seed") == 1
    out, err = capsys.readouterr()
    # Entries 0 and 1: the two characters, no contest yet.
    assert out == (
        'DAMAGED from log entry 2: "Seed" (seed): fate, 2 log entries, 2 characters, '
        "0 contests, 0 exchanges\n"
    )
    assert "Log entry 2 does not load" in err
    assert "victories_needed: must be at least 1, got 0" in err
    assert files_of(files.folder) == before


def test_export_writes_the_campaign_up_to_the_bad_entry_and_says_so(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    saved = spoil(files, LAST)
    out = tmp_path / "seed.json"
    assert tussle(saves, "export", "Seed", "-o", str(out)) == 1
    err = capsys.readouterr().err
    assert "exported up to log entry 6 only" in err
    doc = json.loads(out.read_text())
    assert doc["log"] == [saved[str(k + 1)] for k in range(6)]
    (race,) = doc["contests"]
    assert len(race["exchanges"]) == 1  # the second undone, its redo not read


# -- the lock holders: set aside, never deleted ---------------------------------------------


@pytest.mark.parametrize("n", [MIDDLE, LAST], ids=["middle", "end"])
def test_opening_with_the_lock_sets_the_bad_entry_and_those_after_aside(
    saves: Path, n: int
) -> None:
    files, _ = seed(saves)
    spoil(files, n)
    spoilt = [entry_of(files, k) for k in range(n, 7)]
    opened = locked(files)
    campaign = opened.load()
    assert campaign.entries == n
    assert opened.bad_entry is not None and opened.bad_entry.kept_in is not None
    kept = set_aside_file(files)
    assert (kept["from"], kept["to"]) == (n, 7)
    assert [e["entry"] for e in kept["entries"]] == spoilt
    assert f"log entry {n}" in kept["reason"]
    assert manifest_doc(files)["entries"] == n
    # The log no longer holds them: the next opening finds nothing wrong, and check says
    # what is set aside.
    opened.lock.release()
    again = CampaignFiles(files.folder)
    assert again.load().entries == n and again.bad_entry is None
    report = check_campaign(CampaignFiles(files.folder))
    assert report.bad is None and report.entries == n
    assert any(f"{7 - n} log entr" in w and "--repair" in w for w in report.warnings)


def test_export_after_a_set_aside_says_what_it_leaves_out(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    spoil(files, LAST)
    opened = locked(files)
    opened.load()  # the redo set aside
    opened.lock.release()
    assert tussle(saves, "export", "Seed", "-o", str(tmp_path / "seed.json")) == 0
    err = capsys.readouterr().err
    assert "1 log entry set aside" in err and "tussle check seed --repair" in err
    assert len(json.loads((tmp_path / "seed.json").read_text())["log"]) == 6


def test_new_actions_after_a_set_aside_take_none_of_its_ids(saves: Path) -> None:
    files, _ = seed(saves)
    spoil(files, MIDDLE)  # set aside: actions 3, 4, 5 and the contest c1
    opened = locked(files)
    campaign = opened.load()
    entry = act(campaign, opened, StartContest(title="Again", contest=seed_race()))
    assert getattr(entry, "action_id", None) == 6
    assert list(campaign.contests) == ["c2"]
    opened.lock.release()
    # The same from the files, with check's replay too.
    reread = CampaignFiles(files.folder).load()
    assert list(reread.contests) == ["c2"]
    added = reread.decide(AddCharacter(character=Character(name="Zird")))
    assert getattr(added, "action_id", None) == 7
    assert check_campaign(CampaignFiles(files.folder)).bad is None


def test_record_sets_aside_says_so_and_records_after_what_loads(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    spoil(files, LAST)
    scenario = str(SCENARIOS / "fate-cynere-vs-teran.json")
    assert tussle(saves, "resolve", scenario, "--record", "Seed") == 0
    err = capsys.readouterr().err
    assert "Log entry 6 does not load" in err and "set aside" in err
    campaign = CampaignFiles(files.folder).load()
    # The six entries before the redo, then the new contest (the race's c1 kept): c2.
    assert campaign.entries > 6 and list(campaign.contests) == ["c1", "c2"]
    assert set_aside_file(files)["from"] == 6


# -- check --repair --------------------------------------------------------------------------


def test_repair_brings_back_the_entries_that_now_load_in_order(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    saved = spoil(files, MIDDLE)
    opened = locked(files)
    campaign = opened.load()
    act(campaign, opened, AddCharacter(character=Character(name="Zird")))  # action 6
    opened.lock.release()
    # Nothing loads yet: nothing comes back, exit 1.
    assert tussle(saves, "check", "Seed", "--repair") == 1
    assert "0 log entries brought back, 5 log entries still set aside" in capsys.readouterr().out
    # A fix that understands the entry (here: by hand, in the set-aside file).
    (path,) = (files.folder / "set-aside").iterdir()
    data = json.loads(path.read_text())
    data["entries"][0]["entry"] = saved[str(MIDDLE + 1)]
    path.write_text(json.dumps(data))
    assert tussle(saves, "check", "Seed", "--repair") == 0
    assert "5 log entries brought back, 0 log entries still set aside" in capsys.readouterr().out
    repaired = CampaignFiles(files.folder).load()
    # Zird, then the race as played: one victory each (the second exchange redone).
    assert list(repaired.roster) == ["Cynere", "Teran", "Zird"]
    assert repaired.entries == 3 + 5
    assert len(repaired.contests["c1"].exchanges) == 2
    assert path.exists()  # the file is kept
    assert tussle(saves, "check", "Seed") == 0


def test_repair_sets_aside_a_bad_entry_the_snapshot_covers(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = Saves(saves).create("Crowd", "fate")
    campaign = files.load()
    files.lock.acquire("Crowd")
    for n in range(210):
        act(campaign, files, AddCharacter(character=Character(name=f"C{n:03d}")))
    files.load()  # the snapshot, covering all 210
    files.lock.release()
    data = json.loads(files.segment_path(1).read_text())
    data["entries"]["1"]["entry"]["@"] = "ActionForeseen"  # entry 100, under the snapshot
    files.segment_path(1).write_text(json.dumps(data))
    assert tussle(saves, "check", "Crowd") == 1
    assert "Log entry 100 does not load" in capsys.readouterr().err
    # Nothing loads it: all 110 from there are set aside, and the campaign is sound.
    assert tussle(saves, "check", "Crowd", "--repair") == 1
    assert "110 log entries still set aside" in capsys.readouterr().out
    assert tussle(saves, "check", "Crowd") == 0
    assert CampaignFiles(files.folder).load().entries == 100


def test_a_log_segment_that_is_not_json_is_set_aside_as_its_bytes(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = Saves(saves).create("Crowd", "fate")
    campaign = files.load()
    files.lock.acquire("Crowd")
    for n in range(150):  # entries 0-99 in segment 0, 100-149 in segment 1
        act(campaign, files, AddCharacter(character=Character(name=f"C{n:03d}")))
    files.lock.release()
    cut = b'{"format": {"1": {"app": "tussle"}}, "entries": {"1": {"entry": '  # a disk error
    files.segment_path(1).write_bytes(cut)
    assert tussle(saves, "check", "Crowd") == 1
    out = capsys.readouterr().out
    assert out.startswith('DAMAGED from log entry 100: "Crowd" (crowd): fate, 100 log entries')
    reader = CampaignFiles(files.folder)
    assert reader.load().entries == 100
    opened = locked(files)
    assert opened.load().entries == 100
    opened.lock.release()
    kept = json.loads(next((files.folder / "set-aside").iterdir()).read_text())
    assert (kept["from"], kept["to"]) == (100, 150)
    assert all(e["entry"] is None for e in kept["entries"])  # unreadable, but...
    assert base64.b64decode(kept["unreadable"]["000001.json"]) == cut  # ...kept, byte for byte
    assert tussle(saves, "check", "Crowd") == 0


def test_repair_stops_at_the_first_entry_that_still_fails(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    saved = spoil(files, MIDDLE)
    opened = locked(files)
    opened.load()
    opened.lock.release()
    (path,) = (files.folder / "set-aside").iterdir()
    data = json.loads(path.read_text())
    data["entries"][0]["entry"] = saved[str(MIDDLE + 1)]  # the start fixed...
    data["entries"][2]["entry"]["@"] = "ActionForeseen"  # ...the second exchange not
    path.write_text(json.dumps(data))
    assert tussle(saves, "check", "Seed", "--repair") == 1
    out = capsys.readouterr().out
    assert "2 log entries brought back, 3 log entries still set aside" in out
    campaign = CampaignFiles(files.folder).load()
    assert campaign.entries == 4 and len(campaign.contests["c1"].exchanges) == 1


def test_export_to_stdout_stops_at_the_bad_entry(saves: Path) -> None:
    files, _ = seed(saves)
    spoil(files, MIDDLE)
    out = io.StringIO()
    reader = CampaignFiles(files.folder)
    campaign = write_export(reader, out)
    assert campaign.entries == 2 and reader.bad_entry is not None
    assert len(json.loads(out.getvalue())["log"]) == 2
