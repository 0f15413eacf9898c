"""Issue 17, items 2-10: saves that are not what they seem, and locks that must hold.

Each test builds the hostile folder the issue describes and runs what the GM runs (the
command line's entry point, or the store as the dashboard uses it), then checks what a GM
must see: a clear refusal with the campaign named, no file outside the campaign changed,
no entry lost, the other campaigns untouched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.campaign.actions import Campaign
from core.campaign.log import FORMAT_VERSION, AddCharacter, Character
from core.files.disk import BadSave, CampaignLock, StoreError
from core.saves.check import check_campaign
from core.saves.store import CampaignFiles, Saves
from tests.conftest import SCENARIOS
from tests.helpers import clean_env, files_of, in_a_fork, in_process, seed, tussle_command

SEED = SCENARIOS / "fate-cynere-vs-teran.json"
TIMEOUT = 30  # seconds: a command that hangs (on a FIFO) fails the test, never the run


def run(saves: Path, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``tussle --saves SAVES ARGV`` with no terminal: its entry point (``tui.cli.main``,
    what the console script calls) in a process forked from this one, so that a hang or
    a crash fails the test, not the run, without starting an interpreter per command."""
    return in_a_fork("--saves", str(saves), *argv, stdin=stdin, timeout=TIMEOUT)


def record(saves: Path, name: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return run(saves, "resolve", str(SEED), "--record", name, *extra)


@pytest.fixture(scope="module", autouse=True)
def warmed_up(tmp_path_factory: pytest.TempPathFactory) -> None:
    """What a command's process loads the first time (the commands' modules, the
    scenario reader, the codec's decoders), loaded once here on a sound folder, before
    any fork: otherwise every forked command loads it again for itself. Each command
    still runs in its own process, on the hostile folder its test built."""
    saves = tmp_path_factory.mktemp("warm-up")
    for argv in (
        ["resolve", str(SEED), "--record", "Warm"],
        ["check", "Warm"],
        ["export", "Warm", "-o", str(saves / "warm.json")],
        ["import", str(saves / "warm.json"), "--as", "Warm again"],
        ["delete", "Warm again", "--yes"],
    ):
        done = in_process("--saves", str(saves), *argv)
        assert done.returncode == 0, (argv, done.stderr)


HOLDER = """
import sys
from pathlib import Path
from core.files.disk import CampaignLock
lock = CampaignLock(Path(sys.argv[1]))
lock.acquire("Seed", what="the dashboard")
print("held", flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def held(saves: Path) -> Iterator[tuple[CampaignFiles, subprocess.Popen[str]]]:
    """The seed campaign, open in another process (as a dashboard holds it)."""
    files, _ = seed(saves)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(files.folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=clean_env(),
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    yield files, holder
    holder.communicate("\n", timeout=TIMEOUT)


def entries(folder: Path) -> int:
    return CampaignFiles(folder).load().entries


# -- item 2: a lock that holds when its file is removed or replaced --------------------------


@pytest.mark.parametrize("what", ["removed", "replaced"])
def test_the_lock_holds_when_campaign_lock_is_removed_or_replaced(
    held: tuple[CampaignFiles, subprocess.Popen[str]], saves: Path, what: str
) -> None:
    files, _ = held
    lock_file = files.folder / "campaign.lock"
    lock_file.unlink()
    if what == "replaced":
        lock_file.write_text('{"what": "nobody", "pid": 1}')
    done = record(saves, "Seed", "--wait", "0")
    assert done.returncode == 3, done.stderr  # still open in the dashboard
    assert '"Seed" is open in' in done.stderr
    assert entries(files.folder) == 7  # the seed's seven, no contest slipped in
    assert "c2" not in CampaignFiles(files.folder).load().contests


def test_a_campaign_folder_replaced_while_open_is_not_written(saves: Path) -> None:
    files, campaign = seed(saves)
    files.lock.acquire("Seed")
    try:
        files.folder.rename(saves / "seed-moved")
        (saves / "seed").mkdir()
        before = files_of(saves)
        entry = campaign.decide(AddCharacter(character=Character(name="Zird")))
        with pytest.raises(StoreError, match="moved or replaced while open"):
            files.append([entry])
        assert files_of(saves) == before
    finally:
        files.lock.release()


# -- item 3: links and FIFOs in a campaign folder --------------------------------------------


def test_a_lock_file_linked_outside_is_never_written_through(saves: Path, tmp_path: Path) -> None:
    files, _ = seed(saves)
    precious = tmp_path / "precious.txt"
    precious.write_text("the sender chose this file\n")
    lock_file = files.folder / "campaign.lock"
    lock_file.unlink(missing_ok=True)
    lock_file.symlink_to(precious)
    done = record(saves, "Seed")
    assert done.returncode == 0, done.stderr
    assert precious.read_text() == "the sender chose this file\n"
    assert entries(files.folder) > 7


@pytest.mark.parametrize(
    "argv",
    [
        ("check", "Seed"),
        ("export", "seed"),
        ("restore", "seed"),
        ("resolve", str(SEED), "--record", "Seed"),
        ("rename", "seed", "Other"),
    ],
    ids=["check", "export", "restore", "record", "rename"],
)
def test_a_fifo_as_manifest_is_named_and_never_hangs(saves: Path, argv: tuple[str, ...]) -> None:
    files, _ = seed(saves)
    seed(saves, "Healthy")
    files.manifest_path.unlink()
    os.mkfifo(files.manifest_path)
    done = run(saves, *argv)  # a hang is subprocess.TimeoutExpired: a failure
    assert done.returncode in (0, 1, 2), done.stderr
    assert "a bug" not in done.stderr
    if argv[0] != "restore":  # listing the backups reads no manifest
        assert done.returncode != 0
        assert "manifest.json: a pipe (FIFO), not a file" in done.stderr
    assert run(saves, "check", "Healthy").returncode == 0


@pytest.mark.parametrize("what", ["manifest.json", "log/000000.json", "log"])
def test_a_file_linked_outside_is_refused_not_followed(
    saves: Path, tmp_path: Path, what: str
) -> None:
    files, _ = seed(saves)
    outside = tmp_path / "outside"
    (outside / "log").mkdir(parents=True)
    target = files.folder / what
    moved = outside / what
    target.rename(moved)  # the real file or folder, now outside
    target.symlink_to(moved)
    before = files_of(outside)
    done = record(saves, "Seed")
    assert done.returncode == 1, done.stderr
    assert f"{target}: a link" in done.stderr
    checked = run(saves, "check", "seed")
    assert checked.returncode == 1 and f"{target}: a link" in checked.stderr
    assert files_of(outside) == before  # nothing written where the link points


# -- item 4: a held lock whose file is not text -------------------------------------------


@pytest.mark.parametrize(
    "argv, code",
    [
        (("restore", "seed", "--backup", "1"), 3),
        (("rename", "seed", "Other"), 3),
        (("delete", "seed", "--yes"), 3),
        (("resolve", str(SEED), "--record", "Seed", "--wait", "0"), 3),
    ],
    ids=["restore", "rename", "delete", "record"],
)
def test_a_held_lock_file_of_garbage_bytes_still_says_it_is_held(
    held: tuple[CampaignFiles, subprocess.Popen[str]],
    saves: Path,
    argv: tuple[str, ...],
    code: int,
) -> None:
    files, _ = held
    from core.saves.backup import make_backup

    make_backup(files)
    (files.folder / "campaign.lock").write_bytes(b"\xff\xfe\x00\x1b]0;pwned\x07\xc3")
    done = run(saves, *argv)
    assert done.returncode == code, done.stderr
    assert '"Seed" is open in another Tussle (pid ? on ?, since ?)' in done.stderr
    assert "\x1b" not in done.stderr and "bug" not in done.stderr


def test_holder_details_are_one_printable_line_whatever_the_file_says(saves: Path) -> None:
    files, _ = seed(saves)
    (files.folder / "campaign.lock").write_text(
        json.dumps({"what": "evil\x1b]0;pwned\x07\ntool", "pid": [1], "host": True})
    )
    assert CampaignLock(files.folder).holder() == {"what": "evil]0;pwned tool"}


# -- item 5: one campaign nested deep stops no other ----------------------------------------


def deep(depth: int) -> bytes:
    return b'{"manifest": {"1": ' + b"[" * depth + b"]" * depth + b"}}"


def test_a_manifest_nested_deep_stops_no_other_campaign(saves: Path) -> None:
    seed(saves)
    broken = seed(saves, "Deep")[0]
    broken.manifest_path.write_bytes(deep(100_000))
    for argv in (("check", "Seed"), ("export", "Seed"), ("restore", "Seed")):
        done = run(saves, *argv)
        assert done.returncode == 0, (argv, done.stderr)
    assert record(saves, "Seed").returncode == 0
    checked = run(saves, "check", "deep")
    assert checked.returncode == 1
    assert checked.stderr == f"{broken.manifest_path}: not a Tussle save (nested too deep)\n"
    listed = {info.slug: info.problem for info in Saves(saves).campaigns()}
    assert listed["seed"] is None and "nested too deep" in str(listed["deep"])


def test_a_manifest_nested_just_under_the_parsers_limit_is_still_refused(saves: Path) -> None:
    files, _ = seed(saves)
    doc = json.loads(files.manifest_path.read_text())
    settings: Any = {}
    for _ in range(500):  # parses, but deeper than anything Tussle writes
        settings = {"x": settings}
    doc["manifest"]["1"]["settings"] = settings
    files.manifest_path.write_text(json.dumps(doc))
    with pytest.raises(BadSave, match="nested too deep"):
        CampaignFiles(files.folder).meta()


def test_a_segment_nested_deep_is_named(saves: Path) -> None:
    files, _ = seed(saves)
    files.segment_path(0).write_bytes(
        b'{"entries": {"1": {"entry": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}}"
    )
    done = run(saves, "check", "Seed")
    assert done.returncode == 1
    assert done.stderr.startswith(  # the campaign before it is reported (core.saves.set_aside)
        f"Log entry 0 does not load ({files.segment_path(0)}: not a Tussle save (nested too deep)"
    )


def test_a_huge_file_is_refused_before_it_is_read(saves: Path) -> None:
    files, _ = seed(saves)
    with files.segment_path(0).open("r+b") as handle:
        handle.truncate(65 * 1024 * 1024)  # sparse: no disk used
    done = run(saves, "check", "Seed")
    assert done.returncode == 1
    assert "too large to be a Tussle save" in done.stderr


async def test_the_dashboard_opens_a_healthy_campaign_beside_one_nested_deep(
    saves: Path,
) -> None:
    from tui.app import make_app

    seed(saves)
    seed(saves, "Deep")[0].manifest_path.write_bytes(deep(100_000))
    app = make_app(saves, campaign="Seed", demos=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert app.files is not None and app.files.slug == "seed"
        assert app.campaign.entries == 7


# -- item 6: a damaged manifest is refused, never forked ------------------------------------


DAMAGE = {
    "truncated": lambda text: text[: len(text) // 2],
    "garbage": lambda text: "\x00garbage\x00",
    "newer format": lambda text: text.replace(f'"format":{FORMAT_VERSION}', '"format":99'),
}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_recording_into_a_damaged_campaign_refuses_and_names_it(saves: Path, damage: Any) -> None:
    files, _ = seed(saves, "Base")
    text = files.manifest_path.read_text()
    files.manifest_path.write_text(damage(text))
    before = files_of(saves)
    done = record(saves, "Base")
    assert done.returncode == 1, done.stderr
    assert str(files.folder) in done.stderr
    assert "tussle check base" in done.stderr and "tussle restore base" in done.stderr
    assert sorted(p.name for p in saves.iterdir()) == ["base"]  # no base-2
    assert files_of(saves) == before
    with pytest.raises(BadSave, match="cannot be read"):
        Saves(saves).create("Base", "fate")  # what `tussle open Base` does


# -- item 7: check and opening agree ----------------------------------------------------------


def test_a_segment_of_a_newer_format_fails_check_as_it_fails_to_open(saves: Path) -> None:
    files, _ = seed(saves)
    data = json.loads(files.segment_path(0).read_text())
    data["format"] = {"1": {"app": "tussle", "format": 99}}
    files.segment_path(0).write_text(json.dumps(data))
    done = run(saves, "check", "Seed")
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"Log entry 0 does not load ({files.segment_path(0)}: format 99 is newer"
    )
    opened = CampaignFiles(files.folder)  # opening stops before it too (core.saves.set_aside)
    assert opened.load().entries == 0
    assert opened.bad_entry is not None and "format 99 is newer" in opened.bad_entry.reason


def test_another_segment_size_is_refused_by_recording_as_by_check(saves: Path) -> None:
    files, _ = seed(saves)
    doc = json.loads(files.manifest_path.read_text())
    doc["manifest"]["1"]["segment_size"] = 50
    files.manifest_path.write_text(json.dumps(doc))
    before = files_of(saves)
    done = record(saves, "seed")
    assert done.returncode == 1
    assert "log segments of 50 entries; this Tussle writes and reads 100" in done.stderr
    assert files_of(saves) == before
    assert run(saves, "check", "seed").returncode == 1


def crowd(saves: Path, count: int, batch: int) -> CampaignFiles:
    """A campaign of ``count`` characters saved ``batch`` at a time (one save each)."""
    files = Saves(saves).create("Crowd", "fate")
    campaign = Campaign(name="Crowd", system="fate")
    for start in range(0, count, batch):
        done = []
        for n in range(start, min(count, start + batch)):
            entry = campaign.decide(AddCharacter(character=Character(name=f"C{n:03d}")))
            campaign.apply(entry)
            done.append(entry)
        files.append(done)
    return files


def test_a_manifest_counting_fewer_entries_than_later_saves_wrote_is_refused(
    saves: Path,
) -> None:
    files = crowd(saves, 244, batch=4)  # saves starting at 0, 4, ... 148 (148-151), 152...
    doc = json.loads(files.manifest_path.read_text())
    doc["manifest"]["1"]["entries"] = 150  # an older manifest over a longer log
    files.manifest_path.write_text(json.dumps(doc))
    before = files_of(saves)
    checked = run(saves, "check", "Crowd")
    assert checked.returncode == 1
    assert "log entry 150 was saved after the 150 entries the manifest counts" in checked.stderr
    done = record(saves, "Crowd")
    assert done.returncode == 1
    assert files_of(saves) == before  # 150-243 not overwritten


def test_what_an_unfinished_save_left_past_the_count_still_opens(saves: Path) -> None:
    files = crowd(saves, 20, batch=4)
    campaign = files.load()
    entry = campaign.decide(AddCharacter(character=Character(name="Zird")))
    files.append([entry])
    doc = json.loads(files.manifest_path.read_text())
    doc["manifest"]["1"]["entries"] = 20  # as if killed before the manifest was written
    files.manifest_path.write_text(json.dumps(doc))
    fresh = CampaignFiles(files.folder)
    assert check_campaign(fresh).entries == 20
    assert fresh.load().entries == 20


# -- item 10: a campaign folder that is a link -------------------------------------------------


def test_deleting_a_campaign_folder_that_is_a_link_removes_the_link_only(
    saves: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    files, _ = seed(elsewhere, "Linked")
    (saves / "linked").symlink_to(files.folder)
    before = files_of(elsewhere)
    done = run(saves, "delete", "linked", "--yes")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f'Removed "linked": it was a link to {files.folder}, which Tussle does not follow; '
        "what it pointed to is left as it was\n"
    )
    assert list(saves.iterdir()) == []  # no .tmp-deleted-linked-... left behind
    assert files_of(elsewhere) == before


def test_a_campaign_folder_that_is_a_link_is_listed_as_a_problem_not_opened(
    saves: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    files, _ = seed(elsewhere, "Linked")
    (saves / "linked").symlink_to(files.folder)
    (info,) = Saves(saves).campaigns()
    assert info.problem == (
        f"{saves / 'linked'}: a link, not a folder (Tussle follows no link in a campaign)"
    )
    with pytest.raises(BadSave):
        CampaignLock(saves / "linked").acquire("Linked")


# -- item 8: a read-only saves folder ---------------------------------------------------------

READ_ONLY_DASHBOARD = """
import asyncio, json, sys
from tui.app import make_app

async def main() -> None:
    app = make_app(sys.argv[1], campaign="Seed", demos=False)
    said = []
    notify = app.notify
    def heard(message, **kw):
        said.append([kw.get("title"), str(message)])
        return notify(message, **kw)
    app.notify = heard
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(4):
            await pilot.pause()
        from core.campaign.log import Undo
        app.send(Undo())  # a GM action: refused, and said why
        await pilot.pause()
        print(json.dumps({
            "read_only": app.read_only,
            "open": app.files.slug if app.files else None,
            "entries": app.campaign.entries if app.files else None,
            "said": said,
        }))

asyncio.run(main())
"""


def read_only(saves: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``argv`` run with ``saves`` mounted read-only, in a mount namespace of its own
    (nothing outside it sees the mount); skipped where namespaces are not allowed."""
    script = (
        'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && '
        'touch "$0/probe" 2>/dev/null && exit 99; exec "$@"'
    )
    try:
        done = subprocess.run(
            ["unshare", "-rm", "sh", "-c", script, str(saves), *argv],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            env=clean_env(),
        )
    except FileNotFoundError:
        pytest.skip("no unshare here")
    if done.returncode == 99 or "unshare:" in done.stderr or "mount:" in done.stderr:
        pytest.skip(f"cannot mount read-only here: {done.stderr.strip()}")
    return done


def test_the_dashboard_opens_a_read_only_saves_folder_read_only_and_says_so(
    saves: Path,
) -> None:
    seed(saves)
    before = files_of(saves)
    done = read_only(saves, sys.executable, "-c", READ_ONLY_DASHBOARD, str(saves))
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout.splitlines()[-1])
    assert shown["read_only"] is True and shown["open"] == "seed" and shown["entries"] == 7
    assert [
        "Read-only saves",
        f"{saves / 'seed'}: read-only, so the campaign cannot be saved: opened read-only",
    ] in shown["said"]
    # Not "another Tussle holds it": nobody does, the folder is read-only.
    assert ["Read-only", "This campaign is open read-only: nothing done here is saved."] in (
        shown["said"]
    )
    assert files_of(saves) == before


def test_recording_into_a_read_only_saves_folder_says_it_was_not_saved(saves: Path) -> None:
    seed(saves)
    done = read_only(saves, *tussle_command(), "--saves", str(saves), "resolve", str(SEED),
                     "--record", "Seed")  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr == (
        f"(record): not saved: {saves / 'seed'}: read-only, so the campaign cannot be saved\n"
    )


# -- item 9: imported data is validated as play is --------------------------------------------


def exported(saves: Path, tmp_path: Path) -> dict[str, Any]:
    seed(saves)
    out = tmp_path / "seed.json"
    assert run(saves, "export", "Seed", "-o", str(out)).returncode == 0
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


def set_everywhere(value: Any, key: str, new: Any) -> None:
    """Set ``key`` to ``new`` in every object inside ``value``."""
    if isinstance(value, dict):
        for k in value:
            if k == key:
                value[k] = new
            else:
                set_everywhere(value[k], key, new)
    elif isinstance(value, list):
        for item in value:
            set_everywhere(item, key, new)


@pytest.mark.parametrize(
    "points, problem",
    [
        ("NaN", "events[0].character.sheet.fate_points: nan is not a number"),
        # The limit declared on the field, found as the entry decodes: its command
        # comes first in it.
        ("-3", "command.character.sheet.fate_points: must be at least 0, got -3"),
        (
            "1" + "0" * 30,
            "events[0].character.sheet.fate_points: must be at most 1000000000 in size, "
            "got 10000000... (31 digits)",
        ),
    ],
    ids=["NaN", "negative", "10^30"],
)
def test_an_import_with_impossible_fate_points_is_refused_with_the_place(
    saves: Path, tmp_path: Path, points: str, problem: str
) -> None:
    doc = exported(saves, tmp_path)
    set_everywhere(doc["log"][0], "fate_points", "POINTS")
    text = json.dumps(doc).replace('"POINTS"', points)
    done = run(saves, "import", "-", "--as", "Imported", stdin=text)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"(stdin): log entry 0: {problem}\n"
    assert Saves(saves).find("Imported") is None


def test_an_import_with_an_action_recorded_twice_is_refused(saves: Path, tmp_path: Path) -> None:
    doc = exported(saves, tmp_path)
    doc["log"][1]["action_id"] = doc["log"][0]["action_id"]
    done = run(saves, "import", "-", "--as", "Imported", stdin=json.dumps(doc))
    assert done.returncode == 2, done.stderr
    assert done.stderr == "(stdin): log entry 1 does not replay: action 1 is recorded twice\n"
    assert Saves(saves).find("Imported") is None


def test_check_refuses_a_saved_log_with_a_negative_count_as_import_does(saves: Path) -> None:
    files, _ = seed(saves)
    data = json.loads(files.segment_path(0).read_text())
    set_everywhere(data["entries"]["1"], "fate_points", -3)
    files.segment_path(0).write_text(json.dumps(data))
    done = run(saves, "check", "Seed")
    assert done.returncode == 1
    assert done.stderr.startswith(f"Log entry 0 does not load ({files.segment_path(0)}: ")
    assert "character.sheet.fate_points: must be at least 0, got -3); " in done.stderr
    opened = CampaignFiles(files.folder)  # and opening stops before it too
    assert opened.load().entries == 0
    assert opened.bad_entry is not None and "must be at least 0" in opened.bad_entry.reason


def test_an_integer_of_5000_digits_is_a_bad_input_not_a_bug(saves: Path, tmp_path: Path) -> None:
    scenario = json.loads(SEED.read_text())
    scenario["participants"][0]["skill"] = "SKILL"
    text = json.dumps(scenario, indent=2).replace('"SKILL"', "9" * 5000)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "99999" in row)
    column = text.splitlines()[line - 1].index("9") + 1
    done = run(saves, "resolve", "-", stdin=text)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"(json): line {line} column {column}: a number too long\n"
    doc = exported(saves, tmp_path)
    doc["log"][0]["action_id"] = "ID"
    text = json.dumps(doc).replace('"ID"', "7" * 5000)
    done = run(saves, "import", "-", "--as", "Imported", stdin=text)
    assert done.returncode == 2, done.stderr
    column = text.index("7" * 5000) + 1
    assert done.stderr == f"(stdin): line 1 column {column}: a number of thousands of digits\n"


def test_a_scenario_with_10_to_the_30_fate_points_is_refused_with_the_place(saves: Path) -> None:
    scenario = json.loads(SEED.read_text())
    scenario["participants"][0]["fate_points"] = 10**30
    done = run(saves, "resolve", "-", "--record", "Big", stdin=json.dumps(scenario))
    assert done.returncode == 2, done.stderr
    assert done.stderr == "participants[0].fate_points: must be at most 1000000000 in size\n"
    assert Saves(saves).find("Big") is None


@pytest.mark.parametrize(
    "field, value",
    [
        ("system", [1]),
        ("system", {"fate": 1}),
        ("name", {"x": 1}),
        ("entries", [7]),
        ("format", [1]),
        ("app", {"tussle": 1}),
        ("settings", [1]),
        ("segment_size", {"n": 100}),
    ],
)
def test_a_manifest_field_of_another_type_is_damage_that_stops_no_other(
    saves: Path, field: str, value: Any
) -> None:
    seed(saves)
    files, _ = seed(saves, "Odd")
    doc = json.loads(files.manifest_path.read_text())
    doc["manifest"]["1"][field] = value
    files.manifest_path.write_text(json.dumps(doc))
    infos = {info.slug: info.problem for info in Saves(saves).campaigns()}
    assert infos["seed"] is None
    assert str(infos["odd"]).startswith(f"{files.manifest_path}: ")
    checked = run(saves, "check", "odd")
    assert checked.returncode == 1 and checked.stderr.startswith(f"{files.manifest_path}: ")
    assert run(saves, "check", "Seed").returncode == 0


def test_an_import_whose_settings_would_not_open_is_refused(saves: Path, tmp_path: Path) -> None:
    doc = exported(saves, tmp_path)
    doc["settings_at_start"] = {"sessions": "SESSIONS"}  # what the manifest would hold
    text = json.dumps(doc).replace('"SESSIONS"', "-Infinity")
    done = run(saves, "import", "-", "--as", "Imported", stdin=text)
    assert done.returncode == 2, done.stderr
    assert done.stderr == "(stdin): settings_at_start.sessions: -inf is not a number\n"
    assert Saves(saves).find("Imported") is None
