"""Crash safety: a writing process killed (SIGKILL) at random moments never costs a save.

Seeded trials kill a writer at random times; after every kill the campaign must open,
replay, and hold every write the writer acknowledged (it prints ``ack N`` only after the
fsyncs of that write returned). At least 200 acknowledged writes in all.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.campaign.actions import Campaign
from core.campaign.log import StartContest
from core.saves.store import CampaignFiles, Saves
from core.systems.fate.events import ExchangeResolved
from core.systems.fate.scoring import FateOptions
from core.systems.fate.state import FateParticipant, new_contest

WRITER = """
import random, sys
from pathlib import Path
from core.campaign.log import Play
from core.model import ResolveExchange, RollDice
from core.saves.store import CampaignFiles

def faces(n, who):
    rng = random.Random(f"{n}-{who}")
    return tuple(rng.choice((-1, 0, 1)) for _ in range(4))

files = CampaignFiles(Path(sys.argv[1]))
files.lock.acquire("Crash", wait=10)
files.clean_temporary_files()
campaign = files.load()
record = campaign.contest("c1")
n = len(record.exchanges)
print("ready", flush=True)
while True:
    rolls = tuple(RollDice(who=w, faces=faces(n, w)) for w in ("Ana", "Bo"))
    entry = campaign.decide(Play(contest_id="c1", commands=(*rolls, ResolveExchange())))
    files.append([entry])
    campaign.apply(entry)
    print(f"ack {n}", flush=True)
    n += 1
"""


def faces(n: int, who: str) -> tuple[int, ...]:
    rng = random.Random(f"{n}-{who}")
    return tuple(rng.choice((-1, 0, 1)) for _ in range(4))


def new_campaign(saves: Path) -> CampaignFiles:
    files = Saves(saves).create("Crash", "fate")
    campaign = Campaign(name="Crash", system="fate")
    contest = new_contest(
        [FateParticipant(name=n, side=n, skill=2) for n in ("Ana", "Bo")],
        options=FateOptions(victories_needed=100_000),
    )
    entry = campaign.decide(StartContest(title="Endless", contest=contest))
    files.append([entry])
    return files


def run_and_kill(folder: Path, after: float) -> list[int]:
    """Start a writer, SIGKILL it ``after`` seconds after it is ready to write (its
    start-up, which can take seconds on a busy machine, does not count); the writes it
    acknowledged."""
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(folder)], stdout=subprocess.PIPE, text=True
    )
    acks: list[int] = []
    ready = threading.Event()

    def read() -> None:
        assert writer.stdout is not None
        for line in writer.stdout:
            if line.startswith("ack "):
                acks.append(int(line.split()[1]))
            elif line.strip() == "ready":
                ready.set()
        ready.set()  # it ended without being ready: the checks after say what is missing

    reader = threading.Thread(target=read)
    reader.start()
    ready.wait(timeout=120)  # generous: a wait, not a limit on how fast it starts
    time.sleep(after)
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    reader.join(timeout=30)
    return acks


def test_sigkill_at_random_moments_never_loses_an_acknowledged_write(saves: Path) -> None:
    files = new_campaign(saves)
    rng = random.Random(20261129)
    acknowledged: list[int] = []
    trials = 0
    # At least 10 kills and 200 acknowledged writes; a writer that acknowledges nothing
    # fails the last checks after 100 kills instead of running forever. How long it
    # takes is no part of correctness (no clock here: a loaded machine is slower).
    while (len(acknowledged) < 200 or trials < 10) and trials < 100:
        acks = run_and_kill(files.folder, rng.uniform(0.0, 0.65))
        acknowledged.extend(acks)
        trials += 1
        # After every kill the campaign opens and replays, and nothing acknowledged is
        # missing: the exchanges are there, in order, with the very dice written.
        campaign = CampaignFiles(files.folder).load()
        exchanges = campaign.contest("c1").exchanges
        assert len(exchanges) >= (max(acknowledged) + 1 if acknowledged else 0)
        for n in acks:
            event = exchanges[n]
            assert isinstance(event, ExchangeResolved)
            assert event.n == n + 1
            assert dict(event.dice) == {"Ana": faces(n, "Ana"), "Bo": faces(n, "Bo")}
    assert len(acknowledged) >= 200
    # Each writer goes on from what is on disk: numbers only grow, none is written twice.
    assert acknowledged == sorted(set(acknowledged))
    print(f"crash test: {trials} kills, {len(acknowledged)} acknowledged writes, 0 lost")


def test_killing_tussle_resolve_record_mid_write_loses_no_recorded_contest(
    saves: Path, tmp_path: Path
) -> None:
    from tests.conftest import SCENARIOS
    from tests.helpers import tussle_command

    scenario = (SCENARIOS / "fate-cynere-vs-teran.json").read_text()
    rng = random.Random(11)
    finished: list[str] = []
    for trial in range(14):
        path = tmp_path / f"trial-{trial:02d}.json"
        path.write_text(scenario)
        run = subprocess.Popen(
            [*tussle_command(), "--saves", str(saves), "resolve", str(path), "--record", "Kills"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # Every third run is left to finish (however busy the machine: no clock decides
        # whether a run is done); the others are killed at a random moment, wherever
        # that moment falls in their work.
        try:
            code = run.wait(timeout=120 if trial % 3 == 0 else rng.uniform(0.1, 0.8))
        except subprocess.TimeoutExpired:
            run.send_signal(signal.SIGKILL)
            code = run.wait(timeout=30)
        if code == 0:
            finished.append(path.stem)
        files = Saves(saves).find("Kills")
        if files is not None:  # killed before it made the campaign: nothing to check yet
            titles = [r.title for r in files.load().contests.values()]
            assert set(finished) <= set(titles)  # every run that said "done" is there
            assert len(titles) == len(set(titles))
    assert len(finished) >= 5, "every run left to finish finished and was recorded"


# A command killed (SIGKILL, by itself) at its Nth write or change to the saves (the
# seams core.files.disk.WRITE_FAULTS and CHANGE_FAULTS): argv[1] is N (0: never), argv[2] a
# file that gets the count of points it passed, the rest the tussle command line.
KILLED_AT = """
import os, signal, sys
from pathlib import Path
from core.files import disk

n, count = int(sys.argv[1]), Path(sys.argv[2])
passed = [0]

def point(path):
    passed[0] += 1
    if passed[0] == n:
        os.kill(os.getpid(), signal.SIGKILL)

disk.WRITE_FAULTS.append(point)
disk.CHANGE_FAULTS.append(point)
from tui.cli import main

code = main(sys.argv[3:])
count.write_text(str(passed[0]))
sys.exit(code)
"""


def killed_at(n: int, saves: Path, *argv: str) -> tuple[int, int | None]:
    """``tussle --saves SAVES ARGV`` killed at its ``n``th point: its exit status, and
    how many points it passed when it was not killed."""
    from tests.helpers import clean_env

    count = saves.parent / f"{saves.name}.count"
    run = subprocess.run(
        [sys.executable, "-c", KILLED_AT, str(n), str(count), "--saves", str(saves), *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env=clean_env(),
    )
    return run.returncode, int(count.read_text()) if count.exists() else None


@pytest.mark.parametrize(
    "argv,owned",
    [
        (("delete", "Mud", "--yes"), "mud"),
        (("import", "EXPORT", "--as", "Clay"), "clay"),
        (("resolve", "SCENARIO", "--record", "Clay"), "clay"),
    ],
    ids=["delete", "import", "record-new"],
)
def test_a_command_killed_at_any_write_leaves_the_saves_before_or_after(
    tmp_path: Path, argv: tuple[str, ...], owned: str
) -> None:
    import shutil

    from tests.helpers import SCENARIOS, files_of, seed, state_of, tussle

    template = tmp_path / "table"
    template.mkdir()
    seed(template, "Mud")
    seed(template, "Bystander")
    seed(tmp_path / "source", "Mud")
    export = tmp_path / "mud.json"
    assert tussle(tmp_path / "source", "export", "Mud", "-o", str(export)) == 0
    scenario = SCENARIOS / "fate-cynere-vs-teran.json"
    argv = tuple({"EXPORT": str(export), "SCENARIO": str(scenario)}.get(a, a) for a in argv)
    before = state_of(template)
    bystander = files_of(template / "bystander")
    whole = tmp_path / "whole"
    shutil.copytree(template, whole)
    code, count = killed_at(0, whole, *argv)
    assert code == 0 and count is not None and count >= 4
    after = state_of(whole)
    assert after != before
    kills = 0
    for n in range(1, count + 1):
        saves = tmp_path / f"kill-{n}"
        shutil.copytree(template, saves)
        code, _ = killed_at(n, saves, *argv)
        assert code == -signal.SIGKILL, n
        kills += 1
        now = state_of(saves)
        # Deleting backs the campaign up first: killed after that, it is still there.
        backed_up = {**before, f"backups of {owned}": after.get(f"backups of {owned}", [])}
        assert now in (before, after, backed_up), (n, now)
        assert files_of(saves / "bystander") == bystander, n
        shutil.rmtree(saves)
    assert kills == count
