"""Issue 17, item 1: writers racing to record into a campaign that does not exist yet.

Each writer records the same one-exchange contest (two new characters for the first
writer, then the start and the exchange) into campaign "Race". Every writer that says it
recorded must find its contest kept: N writers that all exit 0 leave N contests, c1 to cN,
and a log of every entry each one saved. One exchange keeps each writer quick, so the race
can be run hundreds of times.

The writers are real processes that really race: forked (so they start in milliseconds,
not the half second an interpreter takes) from a lean process that has loaded what a
writer needs (tests/core/race_writers.py), held at a gate until all are ready, then
released at once into ``core.cli.record.record`` - what ``tussle resolve FILE --record
NAME`` runs. A few runs go through the console script itself too.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.cli.record import record
from core.saves.check import check_campaign, load_checked
from core.saves.store import Saves
from core.saves.transfer import export_json
from core.scenario import load
from tests.conftest import SCENARIOS
from tests.core.race_writers import ONE_EXCHANGE
from tests.helpers import clean_env, tussle_command

SEED = SCENARIOS / "fate-cynere-vs-teran.json"
REPO = Path(__file__).parents[2]
RUNS = 200  # per number of writers: the issue asks for at least 200


class Writers:
    """The lean process the writers are forked from (tests/core/race_writers.py)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.core.race_writers"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=clean_env(),
        )
        assert self.read() == "ready"

    def read(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, f"the writers' process ended with {self.process.wait()}"
        return line.strip()

    def race(self, saves: Path, writers: int, **request: str) -> list[int]:
        """Race ``writers`` writers on ``saves`` (a "record" race unless ``request``
        holds an export to import) and return their exit codes (0: done; 1: a failure;
        2: an import refused)."""
        assert self.process.stdin is not None
        kind = "import" if "export" in request else "record"
        line = {"kind": kind, "saves": str(saves), "writers": writers, **request}
        self.process.stdin.write(json.dumps(line) + "\n")
        self.process.stdin.flush()
        codes: list[int] = json.loads(self.read())
        return codes

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=60) == 0


@pytest.fixture(scope="module")
def writers_process() -> Iterator[Writers]:
    process = Writers()
    try:
        yield process
    finally:
        process.close()


@pytest.fixture
def quick_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder in memory (tmpfs) where there is one: the race is about the locks, not
    the disk, and 1,600 writers each fsyncing a few files would take minutes on a busy
    disk. flock and rename behave there as on any local disk."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="tussle-race-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("writers", [2, 6])
def test_writers_racing_to_create_a_campaign_all_keep_their_contest(
    writers_process: Writers, quick_folder: Path, writers: int
) -> None:
    for run in range(RUNS):
        saves = quick_folder / f"run{run}"
        saves.mkdir()
        codes = writers_process.race(saves, writers)
        assert codes == [0] * writers, f"run {run}: exit codes {codes}"
        files = Saves(saves).find("Race")
        assert files is not None
        campaign = files.load()
        kept = sorted(campaign.contests)
        assert len(kept) == writers, f"run {run}: {writers} recorded, kept {kept}"
        # The first writer adds Cynere and Teran; each writer starts a contest and plays
        # its one exchange (a race to 3 victories does not end in one).
        assert campaign.entries == 2 + 2 * writers, f"run {run}"
        assert len(Saves(saves).campaigns()) == 1  # one campaign, not "race" and "race-2"
        check_campaign(files)  # and it checks sound


def test_two_console_scripts_racing_both_keep_their_contest(tmp_path: Path) -> None:
    """The same race through what the GM runs: ``tussle resolve FILE --record Race``."""
    for run in range(5):
        saves = tmp_path / f"run{run}"
        saves.mkdir()
        argv = [*tussle_command(), "--saves", str(saves), "resolve", str(SEED)]
        procs = [
            subprocess.Popen(
                [*argv, "--record", "Race"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                env=clean_env(),
            )
            for _ in range(2)
        ]
        said = [p.communicate(timeout=60)[1] for p in procs]
        assert [p.returncode for p in procs] == [0, 0], said
        contests = sorted(line.split(" contest ")[1].split(",")[0] for line in said)
        assert contests == ["c1", "c2"], said  # never both "c1"
        files = Saves(saves).find("Race")
        assert files is not None
        assert sorted(files.load().contests) == ["c1", "c2"]


def test_two_imports_racing_under_one_name_make_one_campaign(
    writers_process: Writers, tmp_path: Path
) -> None:
    """Creating a campaign by import is under the same lock on names as any other."""
    source = tmp_path / "source"
    source.mkdir()
    record(load(ONE_EXCHANGE), Saves(source), "Race", "race")
    files = Saves(source).find("Race")
    assert files is not None
    data = json.dumps(export_json(*load_checked(files), files.settings_at_start()))
    for run in range(50):
        saves = tmp_path / f"run{run}"
        saves.mkdir()
        codes = sorted(writers_process.race(saves, 2, export=data))
        assert codes == [0, 2], f"run {run}: exit codes {codes}"  # one made, one refused
        assert [c.name for c in Saves(saves).campaigns()] == ["Imported"], f"run {run}"
