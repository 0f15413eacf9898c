"""``tussle export`` and ``tussle import``: one JSON object other tools can read, and a
round trip that gives the same campaign, undo history included.

The expected exchanges are the seed campaign's, worked in tests/core/test_check.py's
docstring from Fate Core's contest rules; ladder names from the Core ladder (+4 Great,
+3 Good, +2 Fair).
"""

from __future__ import annotations

import errno
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import core.files.disk
import core.saves.store
from core.campaign.actions import Campaign
from core.campaign.log import FORMAT_VERSION, ActionUndone
from core.files.codec import encode
from core.saves.store import CampaignFiles, Saves
from core.saves.transfer import (
    EXPORT_FORMAT,
    TransferError,
    export_campaign,
    import_campaign,
    to_text,
)
from tests.helpers import contains, many_characters, seed, tussle
from tests.strategies import CAMPAIGN_SYSTEMS, CampaignRun, campaign_runs


def comparable(campaign: Campaign) -> Any:
    """What an imported campaign must have kept: roster, contests, the undo stacks."""
    return (
        campaign.name,
        campaign.system,
        campaign.settings,
        list(campaign.roster.items()),
        [
            (cid, r.title, r.start, r.state, dict(r.uses), r.actions, r.exchanges)
            for cid, r in campaign.contests.items()
        ],
        campaign.actions,
        campaign.done,
        campaign.undone,
        campaign.entries,
    )


def everything_in(folder: Path) -> list[str]:
    """Every path under ``folder``, hidden ones included: nothing half made may hide."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


# -- export ---------------------------------------------------------------------------------


def test_the_export_names_the_campaign_and_its_roster_with_every_field(saves: Path) -> None:
    files, _ = seed(saves)
    data = export_campaign(CampaignFiles(files.folder))
    assert (data["app"], data["kind"], data["format"], data["campaign_format"]) == (
        "tussle",
        "campaign",
        1,
        FORMAT_VERSION,
    )
    assert (data["name"], data["system"], data["settings"]) == ("Seed", "fate", {})
    assert data["participants"] == [
        {
            "name": "Cynere",
            "kind": "pc",
            "ratings": {"Athletics": 4},
            # No tracks or slots of her own: Fate Core's, from Physique and Will (issue 28).
            "sheet": {
                "aspects": ["I've Got Zird's Back"],
                "fate_points": 3,
                "refresh": 0,
                "stress": [],
                "consequences": None,
            },
        },
        {"name": "Teran", "kind": "npc", "ratings": {"Athletics": 3}},  # no sheet of its own
    ]


def test_each_contest_holds_its_participants_and_its_exchanges(saves: Path) -> None:
    files, _ = seed(saves)
    [contest] = export_campaign(CampaignFiles(files.folder))["contests"]
    expected = {
        "id": "c1",
        "title": "The race",
        "uses": {"Cynere": "Athletics"},
        "participants": [
            {"name": "Cynere", "side": "Cynere", "skill": 4, "fate_points": 3},
            {"name": "Teran", "side": "Teran", "skill": 3, "fate_points": 0},
        ],
        "finished": False,  # three victories end it; the score is 1-1
        "winner": None,
        "exchanges": [
            {
                "n": 1,
                "totals": {"Cynere": 4, "Teran": 2},
                "ladder": {"Cynere": "Great", "Teran": "Fair"},
                "winner": "Cynere",
                "victories": 1,
                "style": False,
                "score": {"Cynere": 1, "Teran": 0},
            },
            {
                "n": 2,
                "totals": {"Cynere": 3, "Teran": 4},
                "ladder": {"Cynere": "Good", "Teran": "Great"},
                "winner": "Teran",
                "victories": 1,
                "style": False,
                "score": {"Cynere": 1, "Teran": 1},
            },
        ],
        # The keys `tussle resolve` adds after the exchanges (final_json).
        "score": {"Cynere": 1, "Teran": 1},
        "fate_points": {"Cynere": 3, "Teran": 0},
        "ended_by": None,
    }
    assert contains(expected, contest) is None, contains(expected, contest)


def test_the_log_is_carried_whole_undo_and_redo_included(saves: Path) -> None:
    files, _ = seed(saves)
    log = export_campaign(CampaignFiles(files.folder))["log"]
    assert len(log) == 7
    tags = [entry["@"] for entry in log]
    assert tags == [
        *["campaign.ActionRecorded"] * 5,
        "campaign.ActionUndone",
        "campaign.ActionRedone",
    ]
    assert (log[5]["action_id"], log[6]["action_id"]) == (5, 5)


def test_export_writes_one_json_object_to_stdout(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(saves)
    assert tussle(saves, "export", "Seed", "--format", "json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["name"] == "Seed"
    assert len(data["contests"][0]["exchanges"]) == 2


def test_export_to_a_file(saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed(saves)
    out = tmp_path / "seed.json"
    assert tussle(saves, "export", "Seed", "-o", str(out)) == 0
    assert capsys.readouterr().out == (f'exported "Seed" (7 log entries, 1 contest) to {out}\n')
    assert json.loads(out.read_text())["system"] == "fate"


def test_export_of_an_unknown_campaign_is_exit_2(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tussle(saves, "export", "Nobody") == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f'no campaign called "Nobody" in {saves}\n')


def test_export_of_a_damaged_campaign_is_exit_1_naming_the_file(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = seed(saves)
    files.segment_path(0).write_text("{")
    assert tussle(saves, "export", "Seed") == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["log"] == []  # the campaign before its first entry
    assert err.startswith(
        f"exported up to log entry 0 only. Log entry 0 does not load ({files.segment_path(0)}: "
        "not valid JSON"
    )


# -- import ---------------------------------------------------------------------------------


def exported(saves: Path, tmp_path: Path) -> Path:
    """The seed campaign's export, in a file outside the saves folder."""
    files, _ = seed(saves)
    path = tmp_path / "seed.json"
    path.write_text(to_text(export_campaign(CampaignFiles(files.folder))))
    return path


def test_an_export_imports_into_another_saves_folder_as_the_same_campaign(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = exported(saves, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    assert tussle(elsewhere, "--mkdir", "import", str(path)) == 0
    assert capsys.readouterr().out == (
        f'imported "Seed" (7 log entries) into {elsewhere / "seed"}\n'
    )
    original = CampaignFiles(saves / "seed").load()
    copy = CampaignFiles(elsewhere / "seed").load()
    assert comparable(copy) == comparable(original)
    assert everything_in(elsewhere) == [
        "seed",
        "seed/log",
        "seed/log/000000.json",
        "seed/manifest.json",
    ]


def test_an_existing_name_is_refused_and_nothing_is_made(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = exported(saves, tmp_path)
    before = everything_in(saves)
    assert tussle(saves, "import", str(path)) == 2
    assert capsys.readouterr().err == (
        f'a campaign called "Seed" already exists (in {saves / "seed"}); '
        "import it under another name with --as NAME\n"
    )
    assert everything_in(saves) == before


def test_as_gives_the_import_a_new_name(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = exported(saves, tmp_path)
    assert tussle(saves, "import", str(path), "--as", "Seed, again") == 0
    assert capsys.readouterr().out.endswith(f"into {saves / 'seed-again'}\n")
    copy = CampaignFiles(saves / "seed-again").load()
    assert copy.name == "Seed, again"
    assert comparable(copy)[1:] == comparable(CampaignFiles(saves / "seed").load())[1:]
    assert sorted(i.name for i in Saves(saves).campaigns()) == ["Seed", "Seed, again"]


def test_as_a_name_also_taken_is_refused(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = exported(saves, tmp_path)
    many_characters(saves, 2)
    assert tussle(saves, "import", str(path), "--as", "Crowd") == 2
    assert capsys.readouterr().err.startswith('a campaign called "Crowd" already exists')


def test_an_import_whose_name_maps_to_a_taken_folder_gets_the_next_one(
    saves: Path, tmp_path: Path
) -> None:
    path = exported(saves, tmp_path)
    done = import_campaign(Saves(saves), path.read_bytes(), str(path), "SEED!")
    assert done.folder == saves / "seed-2"
    assert CampaignFiles(done.folder).meta()["name"] == "SEED!"


def export_of_seed(saves: Path) -> dict[str, Any]:
    files, _ = seed(saves)
    return export_campaign(CampaignFiles(files.folder))


def broken_exports(saves: Path) -> dict[str, tuple[bytes, str]]:
    good = export_of_seed(saves)
    text = to_text(good).encode()

    def changed(**change: Any) -> bytes:
        return to_text({**good, **change}).encode()

    bad_undo = encode(ActionUndone(action_id=4))  # 5 is the last action in force
    return {
        "truncated": (text[: len(text) // 2], "not valid JSON"),
        "not JSON": (b"\x89PNG\r\n\x1a\n\x00", "not a Tussle export (not text)"),
        "another program's JSON": (b'{"name": "left-pad", "version": "1.3.0"}', "not a Tussle"),
        "a JSON list": (b"[1, 2]", "not a Tussle campaign export"),
        "a newer export format": (
            changed(format=EXPORT_FORMAT + 1),
            f"format {EXPORT_FORMAT + 1} is newer than this Tussle reads",
        ),
        "a newer campaign format": (
            changed(campaign_format=FORMAT_VERSION + 1),
            f"campaign format {FORMAT_VERSION + 1} is newer than this Tussle reads "
            f"({FORMAT_VERSION})",
        ),
        "an unknown system": (changed(system="gurps"), "unknown rule system 'gurps'"),
        "a log that is not a list": (changed(log={"1": {}}), "the log is not a list"),
        "an undo that does not replay": (
            changed(log=[*good["log"], bad_undo]),
            "log entry 7 does not replay: action 4 is not the last one in force",
        ),
        "an entry of another kind": (
            changed(log=[{"@": "campaign.Shopping", "milk": 2}]),
            "log entry 0 does not replay",
        ),
    }


BROKEN = [
    "truncated",
    "not JSON",
    "another program's JSON",
    "a JSON list",
    "a newer export format",
    "a newer campaign format",
    "an unknown system",
    "a log that is not a list",
    "an undo that does not replay",
    "an entry of another kind",
]


def forged(node: Any, tag: str, **changes: Any) -> int:
    """Set ``changes`` on every object tagged ``tag`` inside ``node``; how many."""
    count = 0
    if isinstance(node, dict):
        if node.get("@") == tag:
            node.update(changes)
            count += 1
        for value in node.values():
            count += forged(value, tag, **changes)
    elif isinstance(node, list):
        for value in node:
            count += forged(value, tag, **changes)
    return count


def test_an_import_works_out_each_exchange_from_its_dice_not_from_the_file(
    tmp_path: Path,
) -> None:
    """The seed's first exchange: Cynere (Athletics +4) rolls 0000, +4; Teran (Lore +3)
    rolls -000, +2: Cynere wins by two shifts, one victory (Fate Core: a success, not
    style). The second: Cynere -000, +3, against Teran +000, +4: Teran by one, one
    victory. An export whose events say Teran won the first with 999 victories imports
    with the engine's own account of the dice: 1 to 1 (issue 30, item 7)."""
    data = export_of_seed(tmp_path / "source")
    assert forged(data["log"][3], "fate.ExchangeResolved", winner="Teran", victories=999) == 1
    path = tmp_path / "forged.json"
    path.write_text(to_text(data))
    saves = tmp_path / "saves"
    saves.mkdir()
    assert tussle(saves, "import", str(path), "--as", "Forged") == 0
    imported = Saves(saves).find("Forged")
    assert imported is not None
    race = imported.load().contests["c1"]
    assert dict(race.state.victories) == {"Cynere": 1, "Teran": 1}
    assert [(e.winner, e.victories) for e in race.exchanges] == [("Cynere", 1), ("Teran", 1)]


@pytest.mark.parametrize("kind", BROKEN)
def test_a_bad_export_is_exit_2_naming_the_file_and_nothing_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    content, problem = broken_exports(tmp_path / "source")[kind]
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    saves = tmp_path / "saves"
    saves.mkdir()
    assert tussle(saves, "import", str(path)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"{path}: ")
    assert problem in err
    assert err.count("\n") == 1
    assert everything_in(saves) == []


def test_a_missing_export_file_is_exit_2(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nowhere.json"
    assert tussle(saves, "import", str(path)) == 2
    assert capsys.readouterr().err == f"{path}: cannot be read (No such file or directory)\n"


def test_a_disk_failing_midway_leaves_no_half_made_campaign(
    saves: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "source"
    files = many_characters(source, 150)  # two segments: the second write fails
    data = to_text(export_campaign(CampaignFiles(files.folder))).encode()
    real_write = core.files.disk.write_atomically

    def full_disk_on_the_second_segment(path: Path, text: str) -> None:
        if path.name == "000001.json":
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real_write(path, text)

    monkeypatch.setattr(core.files.disk, "write_atomically", full_disk_on_the_second_segment)
    with pytest.raises(OSError, match="No space left"):
        import_campaign(Saves(saves), data, "crowd.json", None)
    assert everything_in(saves) == []


def test_importing_the_same_export_again_is_refused(saves: Path, tmp_path: Path) -> None:
    path = exported(saves, tmp_path)
    elsewhere = Saves(tmp_path / "elsewhere")
    import_campaign(elsewhere, path.read_bytes(), str(path), None)
    with pytest.raises(TransferError, match='"Seed" already exists'):
        import_campaign(elsewhere, path.read_bytes(), str(path), None)
    assert [i.slug for i in elsewhere.campaigns()] == ["seed"]


# -- round trip -----------------------------------------------------------------------------


@pytest.mark.parametrize("system", CAMPAIGN_SYSTEMS)
@given(data=st.data())
def test_export_then_import_gives_an_equal_campaign(system: str, data: st.DataObject) -> None:
    run: CampaignRun = data.draw(campaign_runs(system, max_actions=15))
    run.report()
    with tempfile.TemporaryDirectory() as tmp:
        files = Saves(Path(tmp) / "a").create(run.campaign.name, system)
        if run.entries:
            files.append(run.entries)
        first = export_campaign(CampaignFiles(files.folder))
        text = to_text(first).encode()
        done = import_campaign(Saves(Path(tmp) / "b"), text, "export.json", None)
        imported = CampaignFiles(done.folder).load()
        again = export_campaign(CampaignFiles(done.folder))
    assert comparable(imported) == comparable(run.campaign)
    del first["exported"], again["exported"]
    assert again == first
