"""The real ``tussle check / export / import / restore`` commands: their
exit codes (0 done, 1 damaged files, 2 a wrong request, 3 held elsewhere) and what they
print, one line per problem on stderr.

The seed campaign (tests/core/test_check.py): 7 log entries, 2 characters, 1 contest of 2
exchanges.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from core.saves.backup import backup, list_backups
from core.saves.store import CampaignFiles
from tests.helpers import SEED_LINE, in_process, seed, tussle_command

ROOT = Path(__file__).resolve().parents[2]


def run(saves: Path, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``tussle --saves SAVES ARGV...``, from a folder with no ``saves/`` of its own: the
    command's entry point in this process (an interpreter per call cost more than the
    call; the console script itself reads stdin in test_import_reads_stdin)."""
    return in_process("--saves", str(saves), *argv, cwd=cwd or saves.parent)


def test_the_help_lists_the_save_commands(saves: Path) -> None:
    done = run(saves, "--help")
    assert done.returncode == 0
    for command in ("check", "export", "import", "restore"):
        assert command in done.stdout


def test_check_exit_codes_sound_damaged_unknown(saves: Path) -> None:
    files, _ = seed(saves)
    sound = run(saves, "check", "Seed")
    assert (sound.returncode, sound.stdout, sound.stderr) == (0, SEED_LINE + "\n", "")

    files.manifest_path.write_bytes(b'{"manifest": {"1": {"app": "tus')
    damaged = run(saves, "check", "Seed")
    assert damaged.returncode == 1
    assert damaged.stdout == ""
    assert damaged.stderr.startswith(f"{files.manifest_path}: not valid JSON")
    assert damaged.stderr.count("\n") == 1

    unknown = run(saves, "check", "Nobody")
    assert (unknown.returncode, unknown.stdout) == (2, "")
    assert unknown.stderr == f'no campaign called "Nobody" in {saves}\n'


def test_export_import_check_round_trip_through_the_commands(saves: Path, tmp_path: Path) -> None:
    seed(saves)
    exported = run(saves, "export", "Seed", "--format", "json")
    assert exported.returncode == 0, exported.stderr
    data = json.loads(exported.stdout)  # one JSON object, nothing else on stdout
    assert (data["name"], data["system"]) == ("Seed", "fate")
    assert [p["name"] for p in data["participants"]] == ["Cynere", "Teran"]
    assert [len(c["exchanges"]) for c in data["contests"]] == [2]

    path = tmp_path / "seed.json"
    path.write_text(exported.stdout)
    clash = run(saves, "import", str(path))
    assert clash.returncode == 2
    assert clash.stderr == (
        f'a campaign called "Seed" already exists (in {saves / "seed"}); '
        "import it under another name with --as NAME\n"
    )

    imported = run(saves, "import", str(path), "--as", "Seed copy")
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout == f'imported "Seed copy" (7 log entries) into {saves / "seed-copy"}\n'
    checked = run(saves, "check", "Seed copy")
    assert checked.stdout == SEED_LINE.replace('"Seed" (seed)', '"Seed copy" (seed-copy)') + "\n"


def test_export_to_a_file_and_unknown_formats(saves: Path, tmp_path: Path) -> None:
    seed(saves)
    out = tmp_path / "out.json"
    to_file = run(saves, "export", "Seed", "-o", str(out))
    assert to_file.returncode == 0
    assert to_file.stdout == f'exported "Seed" (7 log entries, 1 contest) to {out}\n'
    assert json.loads(out.read_text())["name"] == "Seed"

    xml = run(saves, "export", "Seed", "--format", "xml")
    assert xml.returncode == 2  # argparse: not one of the choices
    assert "invalid choice: 'xml'" in xml.stderr

    unknown = run(saves, "export", "Nobody")
    assert (unknown.returncode, unknown.stdout) == (2, "")
    assert unknown.stderr == f'no campaign called "Nobody" in {saves}\n'


def test_import_of_a_bad_file_is_exit_2_and_makes_nothing(saves: Path, tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"title": "shopping", "items": ["milk"]}')
    done = run(saves, "import", str(path))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"{path}: not a Tussle campaign export\n"
    assert list(saves.iterdir()) == []


def test_import_reads_stdin(saves: Path, tmp_path: Path) -> None:
    seed(saves)
    exported = run(saves, "export", "Seed").stdout
    elsewhere = tmp_path / "elsewhere"
    done = subprocess.run(
        [*tussle_command(), "--saves", str(elsewhere), "--mkdir", "import", "-"],
        input=exported,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f'imported "Seed" (7 log entries) into {elsewhere / "seed"}\n'


def test_restore_lists_restores_and_is_refused_while_held(saves: Path) -> None:
    files, _ = seed(saves)
    backup(files)
    listed = run(saves, "restore", "Seed")
    assert listed.returncode == 0
    lines = listed.stdout.splitlines()
    assert lines[0] == f'backups of "Seed" in {saves / ".backups" / "seed"}, newest first:'
    assert lines[1].startswith("  1  ")
    assert lines[1].endswith(f"   7 log entries  {list_backups(saves, 'seed')[0].stamp}")

    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; from core.saves.store import CampaignLock; "
            "CampaignLock(Path(sys.argv[1])).acquire('Seed'); print('held', flush=True); "
            "sys.stdin.readline()",
            str(files.folder),
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline().strip() == "held"
        refused = run(saves, "restore", "Seed", "--backup", "1")
        assert refused.returncode == 3
        assert refused.stdout == ""
        assert refused.stderr.startswith('not restored: "Seed" is open in ')
        assert f"(pid {holder.pid} on " in refused.stderr
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)

    restored = run(saves, "restore", "Seed", "--backup", "1")
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.startswith('restored "Seed" to its backup of ')
    assert CampaignFiles(files.folder).load().entries == 7


def test_nothing_is_written_in_the_working_folder(saves: Path, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    seed(saves)
    for argv in (("check", "Seed"), ("export", "Seed"), ("restore", "Seed")):
        assert run(saves, *argv, cwd=work).returncode == 0
    assert list(work.iterdir()) == []
