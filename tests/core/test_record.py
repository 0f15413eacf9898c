"""``tussle resolve FILE --record NAME``: scripted play into the same log, one writer."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from core.saves.store import CampaignFiles, Saves
from core.systems.fate.character import fate_sheet
from core.systems.fate.state import FateContest
from core.systems.forge.character import forge_sheet
from core.systems.heroquest.character import hq_sheet
from tests.conftest import SCENARIOS
from tests.helpers import in_process, tussle_command

SEED = SCENARIOS / "fate-cynere-vs-teran.json"


def record(saves: Path, scenario: Path, name: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """``tussle --saves SAVES resolve SCENARIO --record NAME``: the command's entry point in
    this process (an interpreter per call cost more than the call; issue 25)."""
    return in_process("--saves", str(saves), "resolve", str(scenario), "--record", name, *extra)


def record_in_a_process(
    saves: Path, scenario: Path, name: str, *extra: str
) -> subprocess.CompletedProcess[str]:
    """The same through the console script, in a process of its own: for processes racing."""
    return subprocess.run(
        [
            *tussle_command(),
            "--saves",
            str(saves),
            "resolve",
            str(scenario),
            "--record",
            name,
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_recording_creates_the_campaign_and_keeps_the_contest(saves: Path) -> None:
    done = record(saves, SEED, "Scripted")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winner"] == "Cynere"  # the usual output, too
    assert "recorded: Scripted contest c1" in done.stderr
    files = Saves(saves).find("Scripted")
    assert files is not None
    campaign = files.load()
    assert campaign.system == "fate"
    assert list(campaign.roster) == ["Cynere", "Teran"]  # added from the scenario
    contest = campaign.contest("c1")
    assert contest.title == "fate-cynere-vs-teran"
    assert isinstance(contest.start, FateContest)
    assert [p.skill for p in contest.start.participants] == [4, 3]  # the ratings played
    assert len(contest.exchanges) == 4
    assert contest.state.winner == "Cynere"


def test_a_second_recording_matches_the_roster_by_name(saves: Path) -> None:
    assert record(saves, SEED, "Scripted").returncode == 0
    assert record(saves, SCENARIOS / "fate-mud-in-the-eyes.json", "Scripted").returncode == 0
    campaign = CampaignFiles(saves / "scripted").load()
    assert list(campaign.roster) == ["Cynere", "Teran"]  # nobody added twice
    assert list(campaign.contests) == ["c1", "c2"]


def test_each_recorded_exchange_is_one_undoable_action(saves: Path) -> None:
    assert record(saves, SEED, "Scripted").returncode == 0
    campaign = CampaignFiles(saves / "scripted").load()
    # 2 characters, the start, one action per exchange, then the results written back
    # (the seed's Cynere starts with 2 fate points and spends both: 0 on the roster).
    assert len(campaign.done) == 2 + 1 + 4 + 1
    assert fate_sheet(campaign.roster["Cynere"]).fate_points == 0
    from core.campaign.log import Undo

    campaign.apply(campaign.decide(Undo()))
    assert fate_sheet(campaign.roster["Cynere"]).fate_points == 2
    assert len(campaign.contest("c1").exchanges) == 4
    campaign.apply(campaign.decide(Undo()))
    assert len(campaign.contest("c1").exchanges) == 3


def test_a_campaign_of_another_system_is_refused_with_exit_2(saves: Path) -> None:
    assert record(saves, SEED, "Scripted").returncode == 0
    done = record(saves, SCENARIOS / "heroquest-minor.json", "Scripted")
    assert done.returncode == 2
    assert done.stderr.strip() == '(record): campaign "Scripted" plays fate, the scenario heroquest'
    assert done.stdout == ""


def test_an_invalid_scenario_records_nothing(saves: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"system": "fate"}')
    done = record(saves, bad, "Scripted")
    assert done.returncode == 2
    assert Saves(saves).find("Scripted") is None


HOLD = """
import sys, time
from pathlib import Path
from core.files.disk import CampaignLock
lock = CampaignLock(Path(sys.argv[1]))
lock.acquire("Scripted", what="a test holding the lock")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
"""


def hold_lock(folder: Path, seconds: float) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(folder), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_a_held_campaign_exits_3_naming_the_holder(saves: Path) -> None:
    assert record(saves, SEED, "Scripted").returncode == 0
    holder = hold_lock(saves / "scripted", 30)
    try:
        started = time.monotonic()
        done = record(saves, SEED, "Scripted", "--wait", "0.5")
        waited = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 3
    assert f"pid {holder.pid}" in done.stderr
    assert "a test holding the lock" in done.stderr
    assert waited >= 0.5
    assert len(CampaignFiles(saves / "scripted").load().contests) == 1  # nothing added


def test_recording_waits_for_a_lock_that_is_released_in_time(saves: Path) -> None:
    assert record(saves, SEED, "Scripted").returncode == 0
    holder = hold_lock(saves / "scripted", 1.0)
    try:
        done = record(saves, SEED, "Scripted")  # waits up to 10 s by default
    finally:
        holder.wait()
    assert done.returncode == 0, done.stderr
    assert len(CampaignFiles(saves / "scripted").load().contests) == 2


def test_two_processes_recording_at_once_lose_and_duplicate_nothing(
    saves: Path, tmp_path: Path
) -> None:
    data = json.loads(SEED.read_text())
    scenarios = []
    for i in range(12):
        path = tmp_path / f"race-{i:02d}.json"
        path.write_text(json.dumps(data))
        scenarios.append(path)

    def run_many(paths: list[Path]) -> list[int]:
        return [record_in_a_process(saves, p, "Shared").returncode for p in paths]

    with ThreadPoolExecutor(2) as pool:
        codes = [*pool.map(run_many, [scenarios[0::2], scenarios[1::2]])]
    assert codes == [[0] * 6, [0] * 6]
    campaign = CampaignFiles(saves / "shared").load()
    titles = sorted(r.title for r in campaign.contests.values())
    assert titles == [f"race-{i:02d}" for i in range(12)]  # each once, none lost
    assert list(campaign.roster) == ["Cynere", "Teran"]
    assert all(len(r.exchanges) == 4 for r in campaign.contests.values())


def test_a_recorded_newcomer_keeps_what_its_system_rolled_with(saves: Path, tmp_path: Path) -> None:
    """Each system's newcomers come onto the roster with their own ratings and extras
    (once read generically, by guessing attribute names across systems)."""
    scenarios = {
        "fate": {
            "participants": [
                {"name": "Zird", "skill": 4, "fate_points": 3},
                {"name": "Mook", "skill": 1},
            ],
            "exchanges": [{"rolls": {"Zird": "+0-0", "Mook": "0000"}}],
        },
        "heroquest": {
            "participants": [
                {"name": "Hero", "rating": "4M", "vitality": 2, "hero_points": 3},
                {"name": "Foe", "rating": "13"},
            ],
            "exchanges": [{"rolls": {"Hero": 3, "Foe": 8}}],
        },
        "forge": {
            "participants": [
                {
                    "name": "Knight",
                    "target": 60,
                    "multiplier": 3,
                    "max_damage": 20,
                    "armor": 4,
                    "armor_capacity": 12,
                },
                {"name": "Brute", "target": 45, "armor": 2},
            ],
            "exchanges": [{"actor": "Knight", "rolls": {"Knight": 75}}],
        },
    }
    for system, scenario in scenarios.items():
        path = tmp_path / f"{system}.json"
        path.write_text(json.dumps({"system": system, **scenario}))
        done = record(saves, path, f"New {system}")
        assert done.returncode == 0, done.stderr
    roster = {
        system: Saves(saves).find(f"New {system}").load().roster  # type: ignore[union-attr]
        for system in scenarios
    }
    zird, mook = roster["fate"]["Zird"], roster["fate"]["Mook"]
    assert (dict(zird.ratings), fate_sheet(zird).fate_points, zird.kind) == ({"Skill": 4}, 3, "npc")
    assert (dict(mook.ratings), fate_sheet(mook).fate_points) == ({"Skill": 1}, 0)
    hero = roster["heroquest"]["Hero"]
    assert (dict(hero.ratings), hq_sheet(hero).vitality, hq_sheet(hero).hero_points) == (
        {"Rating": 24},
        2,
        3,
    )  # 4M
    knight, brute = roster["forge"]["Knight"], roster["forge"]["Brute"]
    assert dict(knight.ratings) == {"Target": 60}
    assert (
        forge_sheet(knight).multiplier,
        forge_sheet(knight).max_damage,
        forge_sheet(knight).armor,
    ) == (3, 20, 4)
    assert forge_sheet(knight).armor_capacity == 12
    # A scenario's armor_capacity 0 (its default) is unlimited armor: no limit on the roster.
    assert (
        forge_sheet(brute).armor,
        forge_sheet(brute).armor_capacity,
        forge_sheet(brute).max_damage,
    ) == (2, None, None)
