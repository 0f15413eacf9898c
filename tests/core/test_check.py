"""``tussle check``: a sound campaign summed up in one line; each kind of damage named with
its file, exit 1; an unknown campaign, exit 2.

The seed campaign (tests/helpers.py ``seed``) is worked by hand from Fate Core's contest
rules (rules.md §1): 2 characters, a race, 2 exchanges, the second undone and redone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from core.campaign.log import FORMAT_VERSION, ActionUndone
from core.files.codec import encode
from core.files.disk import MANIFEST, BadSave
from core.model import RollDice
from core.saves.check import check_campaign, check_contests
from core.saves.store import CampaignFiles
from core.systems.fate.state import FateContest
from tests.helpers import SEED_LINE, manifest_doc, many_characters, seed, tussle


def write_manifest_doc(files: CampaignFiles, doc: dict[str, Any]) -> None:
    files.manifest_path.write_text(json.dumps({"manifest": {"1": doc}}))


# -- a sound campaign -------------------------------------------------------------------------


def test_a_sound_campaign_is_summed_up_in_one_line(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(saves)
    assert tussle(saves, "check", "Seed") == 0
    out, err = capsys.readouterr()
    assert out == SEED_LINE + "\n"
    assert err == ""


def test_the_report_counts_what_the_log_holds_after_undo_and_redo(saves: Path) -> None:
    files, campaign = seed(saves)
    report = check_campaign(CampaignFiles(files.folder))
    assert (report.entries, report.characters, report.contests, report.exchanges) == (7, 2, 1, 2)
    # The campaign in memory agrees with the hand-worked score: one victory each.
    state = campaign.contests["c1"].state
    assert isinstance(state, FateContest)
    assert dict(state.victories) == {"Cynere": 1, "Teran": 1}


def test_a_campaign_is_found_by_its_folder_name_too(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(saves, name="Children of the Grave!")
    assert tussle(saves, "check", "children-of-the-grave") == 0
    out = capsys.readouterr().out
    assert out.startswith('OK "Children of the Grave!" (children-of-the-grave): fate, 7 log')


def test_an_unknown_campaign_is_exit_2(saves: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed(saves)
    assert tussle(saves, "check", "Nobody") == 2
    assert capsys.readouterr().err == f'no campaign called "Nobody" in {saves}\n'


def test_entries_past_the_manifests_count_are_not_a_problem(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    doc = manifest_doc(files)
    doc["entries"] = 6  # as if the redo's save died before its manifest was written
    write_manifest_doc(files, doc)
    assert tussle(saves, "check", "Seed") == 0
    # Without the redo, the second exchange stays undone: one exchange left.
    assert capsys.readouterr().out == (
        'OK "Seed" (seed): fate, 6 log entries, 2 characters, 1 contest, 1 exchange\n'
    )


def test_a_long_log_over_several_segments_is_checked_whole(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many_characters(saves, 250)
    assert tussle(saves, "check", "Crowd") == 0
    assert capsys.readouterr().out == (
        'OK "Crowd" (crowd): fate, 250 log entries, 250 characters, 0 contests, 0 exchanges\n'
    )


# -- damaged files: exit 1, one line naming the file ------------------------------------------


BAD_MANIFESTS: dict[str, tuple[bytes, str]] = {
    "truncated": (b'{"manifest": {"1": {"app": "tussle", "form', "not valid JSON"),
    "not JSON": (b"\xff\xfe\x00\x01 binary \x89PNG", "not a Tussle save"),
    "not JSON text": (b"name = Seed\nsystem = fate\n", "not valid JSON"),
    "another program's JSON": (b'{"name": "left-pad", "version": "1.3.0"}', "not a Tussle"),
    "another program's table": (b'{"_default": {"1": {"title": "milk"}}}', "not a Tussle"),
}


@pytest.mark.parametrize("content, problem", BAD_MANIFESTS.values(), ids=BAD_MANIFESTS.keys())
def test_a_damaged_manifest_is_named(
    saves: Path, capsys: pytest.CaptureFixture[str], content: bytes, problem: str
) -> None:
    files, _ = seed(saves)
    files.manifest_path.write_bytes(content)
    # Its name is lost with its manifest: the folder's name finds it.
    assert tussle(saves, "check", "seed") == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"{files.manifest_path}: {problem}")
    assert err.count("\n") == 1


def test_a_damaged_campaign_is_found_by_the_name_it_was_given(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    files.manifest_path.write_bytes(b"{")
    assert tussle(saves, "check", "Seed") == 1
    assert capsys.readouterr().err.startswith(f"{files.manifest_path}: not valid JSON")


def test_a_missing_manifest_is_named(saves: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files, _ = seed(saves)
    files.manifest_path.unlink()
    assert tussle(saves, "check", "Seed") == 1
    assert capsys.readouterr().err == f"{files.manifest_path}: missing\n"


def test_a_newer_format_is_refused_and_left_as_it_was(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    doc = manifest_doc(files)
    doc["format"] = FORMAT_VERSION + 1
    write_manifest_doc(files, doc)
    before = files.manifest_path.read_bytes()

    assert tussle(saves, "check", "seed") == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"{files.manifest_path}: format {FORMAT_VERSION + 1} is newer than this Tussle reads "
        f"({FORMAT_VERSION})"
    )
    assert files.manifest_path.read_bytes() == before
    assert sorted(p.name for p in saves.iterdir()) == ["seed"]  # no copy, no backup


@pytest.mark.parametrize(
    "change, problem",
    [
        ({"entries": -1}, "bad count of log entries -1"),
        (
            {"system": "gurps"},
            'this campaign plays "gurps", a rule system no installed plug-in provides '
            "(installed: fate, heroquest, forge); install its plug-in to open it",
        ),
        ({"segment_size": 50}, "log segments of 50 entries; this Tussle writes and reads 100"),
    ],
    ids=["negative count", "unknown system", "other segment size"],
)
def test_a_manifest_field_out_of_schema_is_named(
    saves: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], problem: str
) -> None:
    files, _ = seed(saves)
    write_manifest_doc(files, {**manifest_doc(files), **change})
    assert tussle(saves, "check", "seed") == 1
    assert capsys.readouterr().err == f"{files.manifest_path}: {problem}\n"


def test_a_missing_segment_is_named(saves: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = many_characters(saves, 150)  # entries 0-99 in segment 0, 100-149 in segment 1
    files.segment_path(1).unlink()
    assert tussle(saves, "check", "Crowd") == 1
    out, err = capsys.readouterr()
    assert err.startswith(  # the campaign up to it is reported (core.saves.set_aside)
        f"Log entry 100 does not load ({files.segment_path(1)}: missing (the manifest "
        "counts 150 log entries, in 2 segment files)); "
    )
    assert out.startswith('DAMAGED from log entry 100: "Crowd" (crowd): fate, 100 log entries')


def test_a_segment_short_of_a_counted_entry_is_named(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = many_characters(saves, 150)
    path = files.segment_path(1)
    data = json.loads(path.read_text())
    del data["entries"]["7"]  # slot 7 of segment 1: entry 106
    path.write_text(json.dumps(data))
    assert tussle(saves, "check", "Crowd") == 1
    assert capsys.readouterr().err.startswith(
        f"Log entry 106 does not load ({path}: log entry 106 is missing (the manifest "
        "counts 150)); "
    )


BAD_SEGMENTS: dict[str, tuple[bytes, str]] = {
    "truncated": (b'{"entries": {"1": {"entry": {"@": "campaign.ActionRec', "not valid JSON"),
    "not JSON": (b"\x00\x01\x02\xff", "not a Tussle save"),
    "another program's JSON": (b'{"todo": {"1": {"title": "milk"}}}', "not a Tussle log"),
    "an entry that is a string": (
        b'{"entries": {"1": {"entry": "AddCharacter"}}}',
        "log entry 0 is not a log entry",
    ),
    "empty": (b"", "empty"),
}


@pytest.mark.parametrize("content, problem", BAD_SEGMENTS.values(), ids=BAD_SEGMENTS.keys())
def test_a_damaged_segment_is_named(
    saves: Path, capsys: pytest.CaptureFixture[str], content: bytes, problem: str
) -> None:
    files, _ = seed(saves)
    files.segment_path(0).write_bytes(content)
    assert tussle(saves, "check", "Seed") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Log entry 0 does not load ({files.segment_path(0)}: {problem}")
    assert err.count("\n") == 1


def test_an_undo_of_an_action_that_is_not_the_last_does_not_replay(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    # Actions 1-5 are in force, 5 the last: undoing 4 breaks the log's order.
    files.append([ActionUndone(action_id=4)])
    assert tussle(saves, "check", "Seed") == 1
    assert capsys.readouterr().err.startswith(
        f"Log entry 7 does not load ({files.segment_path(0)}: log entry 7 does not replay: "
        "action 4 is not the last one in force); the campaign is as it stood before it"
    )


def test_an_event_that_is_not_a_log_entry_does_not_replay(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    path = files.segment_path(0)
    data = json.loads(path.read_text())
    data["entries"]["3"]["entry"] = encode(RollDice(who="Cynere", faces=(0, 0, 0, 0)))
    path.write_text(json.dumps(data))
    assert tussle(saves, "check", "Seed") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Log entry 2 does not load ({path}: log entry 2 does not replay: ")


def test_a_contest_whose_state_is_not_its_events_folded_is_named(saves: Path) -> None:
    files, campaign = seed(saves)
    record = campaign.contests["c1"]
    record.state = record.start  # as if the second exchange had been lost
    with pytest.raises(BadSave, match=re.escape(f'{files.folder}: contest c1 ("The race"): ')):
        check_contests(files, campaign)


def test_the_other_campaigns_still_check_beside_a_damaged_one(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(saves)
    broken = many_characters(saves, 3)
    broken.segment_path(0).unlink()
    assert tussle(saves, "check", "Seed") == 0
    assert capsys.readouterr().out == SEED_LINE + "\n"
    assert (saves / "seed" / MANIFEST).exists()
