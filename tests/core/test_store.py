"""Campaigns on disk: the saves folder, safe names, the segmented log, atomic writes, the
lock, damaged files. Every test works in a temporary saves folder, never the repo's."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tinydb import TinyDB
from tinydb.table import Document

import core.files.disk
import core.saves.store
from core.campaign.actions import Campaign
from core.campaign.log import (
    FORMAT_VERSION,
    ActionUndone,
    AddCharacter,
    Character,
    Entry,
    Play,
    Redo,
    StartContest,
    Undo,
)
from core.files.codec import encode
from core.files.disk import (
    MANIFEST,
    AtomicJSONStorage,
    BadSave,
    CampaignLock,
    CampaignLocked,
    StoreError,
)
from core.model import Command, DiceRolled, ResolveExchange, RollDice
from core.saves.store import CampaignFiles, Saves, safe_name
from core.systems.fate.state import FateContest, FateParticipant, new_contest
from tests.helpers import act, manifest_doc
from tests.strategies import CAMPAIGN_SYSTEMS, CampaignRun, campaign_runs

ROOT = Path(__file__).resolve().parents[2]


def fate_contest() -> FateContest:
    return new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4, fate_points=3),
            FateParticipant(name="Teran", side="Teran", skill=3),
        ]
    )


def comparable(campaign: Campaign) -> Any:
    """What a loaded campaign must have kept: roster, contests, the undo stacks."""
    return (
        campaign.name,
        campaign.system,
        list(campaign.roster.items()),
        [
            (cid, r.title, r.start, r.state, dict(r.uses), r.actions, r.exchanges)
            for cid, r in campaign.contests.items()
        ],
        campaign.done,
        campaign.undone,
        campaign.entries,
    )


def segment_docs(path: Path) -> dict[str, Any]:
    docs = json.loads(path.read_text())["entries"]
    assert isinstance(docs, dict)
    return docs


# -- the saves folder -----------------------------------------------------------------------


def test_a_new_campaign_is_listed_and_found_by_name_and_by_file_name(saves: Path) -> None:
    store = Saves(saves)
    files = store.create("Children of the Grave", "heroquest")

    assert files.folder == saves / "children-of-the-grave"
    [info] = store.campaigns()
    assert (info.slug, info.name, info.system, info.entries, info.problem) == (
        "children-of-the-grave",
        "Children of the Grave",
        "heroquest",
        0,
        None,
    )
    for key in ("Children of the Grave", "children-of-the-grave"):
        found = store.find(key)
        assert found is not None
        assert found.folder == files.folder
    assert store.find("children of the grave") is None


def test_campaigns_are_listed_by_name_whatever_the_case(saves: Path) -> None:
    store = Saves(saves)
    for name in ("beta", "Gamma", "Alpha"):
        store.create(name, "fate")
    assert [i.name for i in store.campaigns()] == ["Alpha", "beta", "Gamma"]


def test_a_missing_saves_folder_lists_nothing(tmp_path: Path) -> None:
    assert Saves(tmp_path / "nowhere").campaigns() == []


def test_a_campaign_name_is_taken_once(saves: Path) -> None:
    store = Saves(saves)
    store.create("Seed", "fate")
    with pytest.raises(StoreError, match='"Seed" already exists'):
        store.create("Seed", "forge")


@pytest.mark.parametrize(("name", "system"), [("", "fate"), ("  ", "fate"), ("X", "gurps")])
def test_a_campaign_needs_a_name_and_a_known_system(saves: Path, name: str, system: str) -> None:
    with pytest.raises(StoreError):
        Saves(saves).create(name, system)
    assert list(saves.iterdir()) == []


# -- safe file names ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Children of the Grave!", "children-of-the-grave"),
        ("../../etc/passwd", "etc-passwd"),
        ("Café Noir", "cafe-noir"),  # é decomposes to e and an accent, which is dropped
        ("  Spaces  everywhere ", "spaces-everywhere"),
        ("Ωμέγα", "campaign"),  # no ASCII letters left
        ("日本語", "campaign"),
        ("", "campaign"),
        ("/", "campaign"),
        ("..", "campaign"),
        ("a" * 70, "a" * 60),
        ("b" * 59 + " c", "b" * 59),  # cut at 60, then the dash left at the end
    ],
)
def test_safe_name(name: str, slug: str) -> None:
    assert safe_name(name) == slug


def test_a_name_like_a_path_stays_inside_the_saves_folder(saves: Path) -> None:
    store = Saves(saves)
    files = store.create("../../etc/passwd", "fate")

    assert files.folder.resolve().parent == saves.resolve()
    assert sorted(p.name for p in saves.parent.iterdir()) == ["saves"]
    [info] = store.campaigns()
    assert info.name == "../../etc/passwd"
    assert CampaignFiles(files.folder).load().name == "../../etc/passwd"


def test_names_with_the_same_file_name_do_not_clobber_each_other(saves: Path) -> None:
    store = Saves(saves)
    first = store.create("Fate Demo", "fate")
    second = store.create("fate demo!", "forge")
    third = store.create("FATE   DEMO", "heroquest")

    assert [f.slug for f in (first, second, third)] == ["fate-demo", "fate-demo-2", "fate-demo-3"]
    campaign = Campaign(name="Fate Demo", system="fate")
    act(campaign, first, AddCharacter(character=Character(name="Cynere")))

    loaded = {i.name: (i.slug, i.system, i.entries) for i in store.campaigns()}
    assert loaded == {
        "Fate Demo": ("fate-demo", "fate", 1),
        "fate demo!": ("fate-demo-2", "forge", 0),
        "FATE   DEMO": ("fate-demo-3", "heroquest", 0),
    }
    assert list(CampaignFiles(first.folder).load().roster) == ["Cynere"]
    assert CampaignFiles(second.folder).load().roster == {}


def test_unicode_names_are_kept_as_typed(saves: Path) -> None:
    store = Saves(saves)
    store.create("Ωμέγα", "fate")
    store.create("日本語の冒険", "forge")

    infos = {i.name: i.slug for i in store.campaigns()}
    assert infos == {"Ωμέγα": "campaign", "日本語の冒険": "campaign-2"}
    found = store.find("日本語の冒険")
    assert found is not None
    assert found.load().name == "日本語の冒険"
    manifest = (saves / "campaign-2" / MANIFEST).read_text(encoding="utf-8")
    assert "日本語の冒険" in manifest  # written as text, not as \\u escapes


# -- the log: segments and the manifest -----------------------------------------------------


def many_entries(count: int) -> tuple[Campaign, list[Entry]]:
    """``count`` entries: characters added, a contest, plays, undos and redos."""
    campaign = Campaign(name="Long", system="fate")
    entries: list[Entry] = []

    def do(command: Command) -> None:
        entry = campaign.decide(command)
        campaign.apply(entry)
        entries.append(entry)

    do(StartContest(title="Long race", contest=fate_contest()))
    n = 0
    while len(entries) < count:
        step = len(entries) % 5
        if step == 1:
            do(AddCharacter(character=Character(name=f"Hero {n:03d}")))
            n += 1
        elif step == 2:
            do(Play(contest_id="c1", commands=(RollDice(who="Cynere", faces=(0, 0, 0, 0)),)))
        elif step == 3:
            do(Undo())
        elif step == 4:
            do(Redo())
        else:
            do(Undo())
    return campaign, entries


def test_250_entries_fill_three_segments_and_load_back(saves: Path) -> None:
    campaign, entries = many_entries(250)
    files = Saves(saves).create("Long", "fate")
    files.append(entries[:120])  # across the first segment's end
    for entry in entries[120:]:
        files.append([entry])

    log = sorted(p.name for p in (files.folder / "log").iterdir())
    assert log == ["000000.json", "000001.json", "000002.json"]
    assert [len(segment_docs(files.folder / "log" / n)) for n in log] == [100, 100, 50]
    manifest = json.loads(files.manifest_path.read_text())["manifest"]["1"]
    assert manifest["entries"] == 250

    loaded = CampaignFiles(files.folder).load()
    assert loaded.entries == 250
    assert comparable(loaded) == comparable(campaign)


def test_an_entry_the_manifest_does_not_count_is_ignored_then_overwritten(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Saves(saves)
    files = store.create("Crash", "fate")
    campaign = Campaign(name="Crash", system="fate")
    act(campaign, files, AddCharacter(character=Character(name="Cynere")))

    # The segment is written, then the manifest write fails (disk full, power cut).
    real = core.files.disk.write_atomically

    def manifest_fails(path: Path, text: str) -> None:
        if path.name == MANIFEST:
            raise OSError(28, "No space left on device")
        real(path, text)

    monkeypatch.setattr(core.files.disk, "write_atomically", manifest_fails)
    lost = campaign.decide(AddCharacter(character=Character(name="Lost")))
    with pytest.raises(OSError, match="No space"):
        files.append([lost])
    monkeypatch.undo()

    segment = files.folder / "log" / "000000.json"
    assert len(segment_docs(segment)) == 2  # on disk, but not counted
    assert list(CampaignFiles(files.folder).load().roster) == ["Cynere"]

    # The same files object goes on (as the bus does after a refused save).
    act(campaign, files, AddCharacter(character=Character(name="Teran")))

    docs = segment_docs(segment)
    assert len(docs) == 2
    assert docs["2"]["entry"]["events"][0]["character"]["name"] == "Teran"
    reloaded = CampaignFiles(files.folder).load()
    assert list(reloaded.roster) == ["Cynere", "Teran"]
    assert reloaded.entries == 2


def test_an_uncounted_entry_is_overwritten_after_a_restart_too(saves: Path) -> None:
    files = Saves(saves).create("Crash", "fate")
    campaign = Campaign(name="Crash", system="fate")
    act(campaign, files, AddCharacter(character=Character(name="Cynere")))
    # A segment entry written by hand beyond the manifest's count: a killed writer.
    table = TinyDB(files.segment_path(0), storage=AtomicJSONStorage).table("entries")
    ghost = campaign.decide(AddCharacter(character=Character(name="Ghost")))
    table.upsert(Document({"entry": encode(ghost)}, doc_id=2))

    restarted = CampaignFiles(files.folder)
    campaign = restarted.load()
    assert list(campaign.roster) == ["Cynere"]
    act(campaign, restarted, AddCharacter(character=Character(name="Teran")))
    assert list(CampaignFiles(files.folder).load().roster) == ["Cynere", "Teran"]


def test_undo_is_kept_across_a_restart(saves: Path) -> None:
    files = Saves(saves).create("Seed", "fate")
    campaign = Campaign(name="Seed", system="fate")
    act(campaign, files, StartContest(title="Race", contest=fate_contest()))
    start = campaign.contest("c1").state
    for faces in ((1, 0, 0, 0), (0, 0, 0, 0)):
        act(
            campaign,
            files,
            Play(
                contest_id="c1",
                commands=(
                    RollDice(who="Cynere", faces=faces),
                    RollDice(who="Teran", faces=faces),
                    ResolveExchange(),
                ),
            ),
        )
    act(campaign, files, Undo())

    reopened = CampaignFiles(files.folder).load()
    assert reopened.undone == [3]
    act(reopened, files, Undo())  # undo again after the restart: the first exchange
    assert reopened.contest("c1").state == start
    again = CampaignFiles(files.folder).load()
    assert again.contest("c1").state == start
    assert again.undone == [3, 2]


# -- atomic writes --------------------------------------------------------------------------


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def write_table(path: Path, docs: dict[str, Any]) -> None:
    AtomicJSONStorage(path).write({"_default": docs})


@pytest.mark.parametrize("before", [0o600, 0o640, 0o664])
def test_a_rewrite_makes_the_file_the_gms_alone(tmp_path: Path, before: int) -> None:
    path = tmp_path / "save.json"
    write_table(path, {"1": {"n": 1}})
    os.chmod(path, before)  # as an older Tussle left it under the umask
    write_table(path, {"1": {"n": 2}})
    assert mode(path) == 0o600  # issue 23, item 5: the log holds hidden dice
    assert json.loads(path.read_text()) == {"_default": {"1": {"n": 2}}}


def test_a_new_file_is_the_gms_alone(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    write_table(path, {})
    assert mode(path) == 0o600  # the players' view runs as the GM: it still reads it


def test_writes_leave_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    db = TinyDB(path, storage=AtomicJSONStorage)
    for n in range(5):
        db.insert({"n": n})
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]
    assert len(TinyDB(path, storage=AtomicJSONStorage).all()) == 5


def test_a_value_that_cannot_be_saved_leaves_the_old_file_intact(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    db = TinyDB(path, storage=AtomicJSONStorage)
    db.insert({"n": 1})
    before = path.read_bytes()

    with pytest.raises(TypeError):
        db.insert({"n": {1, 2}})  # a set is not JSON

    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]
    assert TinyDB(path, storage=AtomicJSONStorage).all() == [{"n": 1}]


def test_a_failed_rename_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "save.json"
    write_table(path, {"1": {"n": 1}})
    before = path.read_bytes()

    def refuse(*_: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="Input/output"):
        write_table(path, {"1": {"n": 2}})
    monkeypatch.undo()

    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_clean_temporary_files_removes_only_leftovers(saves: Path) -> None:
    files = Saves(saves).create("Seed", "fate")
    leftovers = [files.folder / ".tmp-abc123", files.folder / "log" / ".tmp-xyz"]
    for path in leftovers:
        path.write_text("{half a")
    (files.folder / "notes.txt").write_text("keep me")

    files.clean_temporary_files()

    assert not any(p.exists() for p in leftovers)
    assert (files.folder / "notes.txt").read_text() == "keep me"
    assert files.manifest_path.exists()
    assert CampaignFiles(files.folder).load().name == "Seed"


# -- the lock -------------------------------------------------------------------------------

HOLDER = """
import sys
from pathlib import Path
from core.files.disk import CampaignLock
lock = CampaignLock(Path(sys.argv[1]))
lock.acquire("Seed")
print("held", flush=True)
sys.stdin.readline()
lock.release()
print("released", flush=True)
sys.stdin.readline()
"""


def start_holder(folder: Path) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(folder)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_a_second_process_is_refused_the_lock_with_the_holders_pid(saves: Path) -> None:
    files = Saves(saves).create("Seed", "fate")
    holder = start_holder(files.folder)
    assert holder.stdin is not None and holder.stdout is not None
    try:
        lock = CampaignLock(files.folder)
        with pytest.raises(CampaignLocked, match=rf"pid {holder.pid}\b") as refused:
            lock.acquire("Seed")
        assert refused.value.holder["pid"] == holder.pid
        assert '"Seed" is open in the dashboard' in str(refused.value)

        holder.stdin.write("release\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "released"

        lock.acquire("Seed")  # let in once released
        assert json.loads((files.folder / "campaign.lock").read_text())["pid"] == os.getpid()
        lock.release()
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)


def test_a_killed_holder_does_not_keep_the_campaign_locked(saves: Path) -> None:
    files = Saves(saves).create("Seed", "fate")
    holder = start_holder(files.folder)
    holder.kill()
    holder.wait(timeout=10)

    lock = CampaignLock(files.folder)
    lock.acquire("Seed")
    lock.release()


def test_the_lock_is_exclusive_within_one_process_too(saves: Path) -> None:
    files = Saves(saves).create("Seed", "fate")
    first = CampaignLock(files.folder)
    first.acquire("Seed")
    try:
        with pytest.raises(CampaignLocked, match=rf"pid {os.getpid()}\b"):
            CampaignLock(files.folder).acquire("Seed")
    finally:
        first.release()
    CampaignLock(files.folder).acquire("Seed")


# -- damaged saves --------------------------------------------------------------------------


def two_campaigns(saves: Path) -> tuple[CampaignFiles, CampaignFiles]:
    store = Saves(saves)
    good = store.create("Good", "fate")
    campaign = Campaign(name="Good", system="fate")
    act(campaign, good, AddCharacter(character=Character(name="Cynere")))
    broken = store.create("Broken", "fate")
    campaign = Campaign(name="Broken", system="fate")
    act(campaign, broken, AddCharacter(character=Character(name="Teran")))
    return good, broken


BAD_MANIFESTS: dict[str, bytes] = {
    "truncated": b'{"manifest": {"1": {"app": "tussle", "form',
    "a JSON list": b"[]",
    "not JSON": b"\xff\xfe\x00\x01 binary \x89PNG",
    "not JSON text": b"name = Broken\nsystem = fate\n",
    "another program's JSON": b'{"name": "left-pad", "version": "1.3.0"}',
    "a table that is a list": b'{"manifest": [1, 2, 3]}',
    "a document that is a number": b'{"manifest": {"1": 5}}',
}


@pytest.mark.parametrize("content", BAD_MANIFESTS.values(), ids=BAD_MANIFESTS.keys())
def test_a_damaged_manifest_is_a_bad_save_and_the_others_still_list(
    saves: Path, content: bytes
) -> None:
    _, broken = two_campaigns(saves)
    broken.manifest_path.write_bytes(content)

    with pytest.raises(BadSave, match=re.escape(str(broken.manifest_path))):
        CampaignFiles(broken.folder).load()
    infos = {i.slug: i for i in Saves(saves).campaigns()}
    assert infos["good"].problem is None
    assert infos["good"].name == "Good"
    assert infos["good"].entries == 1
    problem = infos["broken"].problem
    assert problem is not None
    assert str(broken.manifest_path) in problem


def test_a_manifest_of_a_newer_format_asks_for_an_upgrade(saves: Path) -> None:
    _, broken = two_campaigns(saves)
    doc = manifest_doc(broken)
    doc["format"] = FORMAT_VERSION + 1
    broken.manifest_path.write_text(json.dumps({"manifest": {"1": doc}}))

    with pytest.raises(BadSave, match=f"format {FORMAT_VERSION + 1} is newer") as refused:
        CampaignFiles(broken.folder).load()
    assert str(broken.manifest_path) in str(refused.value)
    infos = {i.slug: i.problem for i in Saves(saves).campaigns()}
    assert infos["good"] is None
    assert "upgrade Tussle" in (infos["broken"] or "")


@pytest.mark.parametrize(
    "change",
    [
        {"entries": None},
        {"entries": "3"},
        {"entries": -1},
        {"name": None},
        {"settings": [1]},
        {"system": "gurps"},
        {"app": "other"},
    ],
    ids=repr,
)
def test_a_manifest_with_a_bad_field_is_a_bad_save(saves: Path, change: dict[str, Any]) -> None:
    _, broken = two_campaigns(saves)
    doc = manifest_doc(broken)
    for key, value in change.items():
        if value is None:
            del doc[key]
        else:
            doc[key] = value
    broken.manifest_path.write_text(json.dumps({"manifest": {"1": doc}}))

    with pytest.raises(BadSave, match=re.escape(str(broken.manifest_path))):
        CampaignFiles(broken.folder).load()
    [problem] = [i.problem for i in Saves(saves).campaigns() if i.slug == "broken"]
    assert problem is not None


BAD_SEGMENTS: dict[str, bytes] = {
    "truncated": b'{"entries": {"1": {"entry": {"@": "campaign.ActionRec',
    "not JSON": b"\x00\x01\x02\xff",
    "another program's JSON": b'{"entries": {"1": {"title": "shopping list"}}}',
    "an entry that is a string": b'{"entries": {"1": {"entry": "AddCharacter"}}}',
    "the entry missing": b'{"entries": {}}',
    "a table that is a list": b'{"entries": [1]}',
}


@pytest.mark.parametrize("content", BAD_SEGMENTS.values(), ids=BAD_SEGMENTS.keys())
def test_a_damaged_segment_is_named_and_the_campaign_opens_before_it(
    saves: Path, content: bytes
) -> None:
    good, broken = two_campaigns(saves)
    segment = broken.segment_path(0)
    segment.write_bytes(content)

    assert opened_before_damage(broken, 0, str(segment)) == content  # read, never written
    assert list(CampaignFiles(good.folder).load().roster) == ["Cynere"]


def opened_before_damage(files: CampaignFiles, n: int, named: str) -> bytes | None:
    """Opened read-only: the campaign before entry ``n``, the entry named (core.saves.set_aside);
    the segment's bytes after."""
    reader = CampaignFiles(files.folder)
    assert reader.load().entries == n
    assert reader.bad_entry is not None and named in reader.bad_entry.reason
    path = files.segment_path(n // 100)
    return path.read_bytes() if path.exists() else None


@pytest.mark.parametrize(
    "entry",
    [
        DiceRolled(who="Cynere", faces=(0, 0, 0, 0)),  # an event, but not a log entry
        ActionUndone(action_id=9),  # undoes an action that is not there
    ],
    ids=["not an entry", "does not replay"],
)
def test_an_entry_that_does_not_replay_is_named_and_the_campaign_opens_before_it(
    saves: Path, entry: Any
) -> None:
    files = Saves(saves).create("Odd", "fate")
    files.append([entry])
    reader = CampaignFiles(files.folder)
    assert reader.load().entries == 0  # as it stood before (core.saves.set_aside)
    assert reader.bad_entry is not None and "log entry 0" in reader.bad_entry.reason


def test_a_missing_segment_is_named_and_the_campaign_opens_before_it(saves: Path) -> None:
    _, broken = two_campaigns(saves)
    broken.segment_path(0).unlink()
    assert opened_before_damage(broken, 0, str(broken.segment_path(0))) is None


# -- round trip -----------------------------------------------------------------------------


@pytest.mark.parametrize("system", CAMPAIGN_SYSTEMS)
@given(data=st.data())
def test_a_saved_campaign_loads_back_equal(system: str, data: st.DataObject) -> None:
    run: CampaignRun = data.draw(campaign_runs(system, max_actions=15))
    run.report()
    with tempfile.TemporaryDirectory() as tmp:
        files = Saves(Path(tmp)).create(run.campaign.name, run.campaign.system)
        for entry in run.entries:
            files.append([entry])
        loaded = CampaignFiles(files.folder).load()
    assert comparable(loaded) == comparable(run.campaign)
    assert loaded.actions == run.campaign.actions


def test_a_campaign_folder_left_half_made_is_used_again_not_skipped(saves: Path) -> None:
    # A process killed between making the folder and writing the manifest leaves this.
    (saves / "kills" / "log").mkdir(parents=True)
    files = Saves(saves).create("Kills", "fate")
    assert files.folder == saves / "kills"
    assert Saves(saves).find("Kills") is not None


def test_a_folder_with_other_files_is_never_taken_over(saves: Path) -> None:
    (saves / "kills").mkdir(parents=True)
    (saves / "kills" / "notes.txt").write_text("mine")
    files = Saves(saves).create("Kills", "fate")
    assert files.folder == saves / "kills-2"
    assert (saves / "kills" / "notes.txt").read_text() == "mine"


def test_every_log_file_records_its_format_and_a_newer_one_is_refused(saves: Path) -> None:
    files = Saves(saves).create("Versions", "fate")
    campaign = Campaign(name="Versions", system="fate")
    entry = campaign.decide(AddCharacter(character=Character(name="Ana")))
    files.append([entry])
    segment = json.loads(files.segment_path(0).read_text())
    ours = manifest_doc(files)["campaign_id"]  # and whose it is (issue 30, item 7)
    assert list(segment["format"].values()) == [
        {"app": "tussle", "format": FORMAT_VERSION, "campaign": ours}
    ]
    segment["format"]["1"]["format"] = 99
    files.segment_path(0).write_text(json.dumps(segment))
    before = files.segment_path(0).read_bytes()
    named = f"{files.segment_path(0)}: format 99 is newer"
    assert opened_before_damage(files, 0, named) == before  # not read, not touched
