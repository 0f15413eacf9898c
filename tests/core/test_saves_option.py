"""Mistyped options are refused, not obeyed in silence (issue 11), through the real
``tussle`` command (its console script for what opens a screen).

* ``--saves DIR`` must name a folder that exists: a typo made a new folder with three demo
  campaigns, which looked like the GM's campaigns were lost. ``--mkdir`` creates it, empty.
  The default folder (``$TUSSLE_SAVES``, ``./saves`` or the data folder) is made when first used,
  with the demos (tests/e2e/test_saves_in_tmux.py: the dashboard).
* ``open NAME --system S`` on a campaign of another system opened it anyway.

Exit codes as everywhere: 2 a wrong request, 1 a failed write.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from core.cli.demo import FIRST_DEMO as FATE_DEMO
from core.cli.demo import create_demos
from core.saves.store import Saves
from core.saves.transfer import export_campaign, to_text
from tests.conftest import SCENARIOS
from tests.helpers import clean_env, in_process, tussle_command

# What starts the dashboard, the players' view or a share runs the console script, in a
# process of its own: were it to start instead of refusing, it would end with the timeout,
# not hang the test. The other commands run tussle's entry point in this process (an
# interpreter per call cost more than the call; issue 25).
SCREENS = {"open", "watch", "share"}  # and no command at all: the dashboard
IN_PROCESS = {"check", "export", "import", "restore", "rename", "archive", "delete", "resolve"}


def tussle(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``tussle ARGV`` from ``cwd`` (a folder with no ``saves/``), no terminal."""
    command = next((a for a in argv if a in SCREENS | IN_PROCESS), None)
    if command in IN_PROCESS:
        return in_process(*argv, cwd=cwd)
    return subprocess.run(
        [*tussle_command(), *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env({"TUSSLE_SHARE_SOCKET": "tussle-test-never-started"}),
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def export_file(tmp_path: Path) -> Path:
    """The Fate demo, exported (to import somewhere)."""
    demos = Saves(tmp_path / "demos")
    create_demos(demos)
    files = demos.find(FATE_DEMO)
    assert files is not None
    out = tmp_path / "fate-demo.json"
    out.write_text(to_text(export_campaign(files)))
    return out


def everything_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


COMMANDS = {
    "dashboard": [],
    "open": ["open", FATE_DEMO],
    "open --system": ["open", "Mine", "--system", "heroquest"],
    "watch": ["watch", FATE_DEMO],
    "share": ["share", FATE_DEMO],
    "check": ["check", FATE_DEMO],
    "export": ["export", FATE_DEMO],
    "import": ["import", "EXPORT"],
    "restore": ["restore", FATE_DEMO],
    "rename": ["rename", FATE_DEMO, "Mud"],
    "archive": ["archive", FATE_DEMO],
    "delete": ["delete", FATE_DEMO, "--yes"],
    "resolve --record": ["resolve", "SCENARIO", "--record", FATE_DEMO],
}


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_saves_folder_that_does_not_exist_is_refused_and_not_made(
    command: list[str], tmp_path: Path, export_file: Path
) -> None:
    typo = tmp_path / "rpg" / "svaes"
    argv = [
        {"EXPORT": str(export_file), "SCENARIO": str(SCENARIOS / "fate-cynere-vs-teran.json")}.get(
            arg, arg
        )
        for arg in command
    ]
    done = tussle("--saves", str(typo), *argv, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"tussle: no saves folder {typo} (add --mkdir to create it)\n"
    assert not typo.parent.exists()


def test_a_file_is_not_a_saves_folder(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not campaigns\n")
    done = tussle("--saves", str(tmp_path / "notes.txt"), "check", FATE_DEMO, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"tussle: the saves folder {tmp_path / 'notes.txt'} is a file, not a folder\n"
    )
    assert (tmp_path / "notes.txt").read_text() == "not campaigns\n"


def test_mkdir_makes_the_folder_empty_and_the_command_runs_in_it(
    tmp_path: Path, export_file: Path
) -> None:
    new = tmp_path / "rpg" / "saves"
    done = tussle("--saves", str(new), "--mkdir", "import", str(export_file), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('imported "Fate demo" (')
    # Only the campaign imported: no demos in a folder made on request.
    assert [info.name for info in Saves(new).campaigns()] == [FATE_DEMO]
    # Given again, --mkdir on a folder that exists changes nothing.
    again = tussle("--saves", str(new), "--mkdir", "check", FATE_DEMO, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert [info.name for info in Saves(new).campaigns()] == [FATE_DEMO]


def test_mkdir_that_cannot_make_the_folder_exits_1(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    inside = tmp_path / "a-file" / "saves"  # a folder cannot be made inside a file
    done = tussle("--saves", str(inside), "--mkdir", "check", FATE_DEMO, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(f"tussle: saves folder {inside} not created (")
    assert done.stderr.count("\n") == 1


def test_commands_that_only_read_never_make_the_default_folder(
    tmp_path: Path, data_home: Path
) -> None:
    # From a folder with no ./saves, the default is the GM's data folder (XDG_DATA_HOME).
    done = tussle("check", FATE_DEMO, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    default = data_home / "tussle" / "saves"
    assert done.stderr == f'no campaign called "{FATE_DEMO}" in {default}\n'
    assert everything_under(tmp_path) == [] and everything_under(data_home) == []


@pytest.mark.parametrize(
    ("name", "wanted", "actual"),
    [
        (FATE_DEMO, "heroquest", "fate"),
        ("fate-demo", "forge", "fate"),  # by its folder's name
        ("HeroQuest demo", "fate", "heroquest"),
    ],
)
def test_open_with_a_system_contradicting_the_campaign_exits_2_naming_both(
    name: str, wanted: str, actual: str, tmp_path: Path
) -> None:
    saves = tmp_path / "saves"
    create_demos(Saves(saves))
    before = everything_under(saves)
    done = tussle("--saves", str(saves), "open", name, "--system", wanted, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    title = FATE_DEMO if actual == "fate" else name
    assert done.stderr == (
        f'tussle: "{title}" is a {actual} campaign, not {wanted} (leave out --system to open it)\n'
    )
    assert everything_under(saves) == before  # not opened: no lock, no backup
