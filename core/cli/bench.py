"""``tussle bench engine|saves|odds``: the figures the issues ask for, beside their targets
(tui.bench has the dashboard's parts, and runs ``tussle bench``).

Benchmarks, not tests: they measure and print; they never fail a build. Each part builds
its own inputs from a fixed seed, so two runs on one machine compare.
"""

from __future__ import annotations

import gc
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, Entry, Play, StartContest
from core.model import Command, Contest, ResolveExchange, RollDice
from core.saves.store import CampaignFiles, Saves, safe_name
from core.scenario import resolve
from core.systems.fate.scoring import FateOptions
from core.systems.fate.state import FateContest, FateParticipant, new_contest

SEED = 20261129


@dataclass(frozen=True, slots=True)
class Figure:
    label: str
    exchanges: int
    seconds: float
    peak_bytes: int

    @property
    def rate(self) -> float:
        return self.exchanges / self.seconds if self.seconds else float("inf")


def fate_scenario(n: int, rng: random.Random) -> dict[str, Any]:
    """Cynere (+4) against Teran (+3) for ``n`` exchanges: nobody reaches the target."""
    glyphs = "+-0"
    return {
        "system": "fate",
        "options": {"victories_needed": 2 * n + 1},
        "participants": [
            {"name": "Cynere", "skill": 4, "fate_points": 3},
            {"name": "Teran", "skill": 3},
        ],
        "aspects": [{"name": "Muddy Ground"}],
        "exchanges": [
            {
                "rolls": {
                    side: "".join(rng.choice(glyphs) for _ in range(4))
                    for side in ("Cynere", "Teran")
                }
            }
            for _ in range(n)
        ],
    }


def heroquest_scenario(n: int, rng: random.Random) -> dict[str, Any]:
    """A chained contest of ``n`` exchanges, 4M against 17, closed by a leave. No
    exchange may be a complete victory (critical against fumble): it leaves the loser
    dying, with no actions, before the chain's end (rules §2.6; ``tussle bench engine``
    failed so once the keypad kept the dying rule). The Hero's mastery bumps his own
    level up (a 20 is a failure, never a fumble), and once he is critical it bumps the
    Foe down one level (rules.md, "Mastery bumps" [H1]): so the Foe rolls within his
    17, a success or a critical, a failure at worst once bumped, never a fumble."""
    exchanges: list[dict[str, Any]] = [
        {"rolls": {"Hero": rng.randint(1, 20), "Foe": rng.randint(1, 17)}} for _ in range(n)
    ]
    exchanges[-1]["leave"] = "Foe"
    return {
        "system": "heroquest",
        "options": {"chained": True},
        "participants": [
            {"name": "Hero", "rating": "4M", "hero_points": 3},
            {"name": "Foe", "rating": "17"},
        ],
        "exchanges": exchanges,
    }


def forge_scenario(n: int, rng: random.Random) -> dict[str, Any]:
    """A combat of ``n`` stages, roles swapping, closed by the GM."""
    exchanges: list[dict[str, Any]] = [
        {"rolls": {"Josef": rng.randint(1, 100), "Bobby": rng.randint(1, 100)}} for _ in range(n)
    ]
    exchanges[0]["actor"] = "Josef"
    exchanges[-1]["end"] = True
    return {
        "system": "forge",
        "options": {"combat": True},
        "participants": [
            {"name": "Josef", "target": 50, "multiplier": 4},
            {"name": "Bobby", "target": 40, "multiplier": 5, "armor": 10, "armor_capacity": 500},
        ],
        "exchanges": exchanges,
    }


ENGINE_CASES: tuple[tuple[str, Callable[[int, random.Random], dict[str, Any]]], ...] = (
    ("Fate contest", fate_scenario),
    ("HeroQuest chained", heroquest_scenario),
    ("FORGE combat", forge_scenario),
)


def measure(label: str, scenario: dict[str, Any], exchanges: int) -> Figure:
    """Best of five timed runs, then one run under tracemalloc for the peak: the best run
    is the one the machine disturbed least (the same count for both sizes, so neither
    side of the ratio gets more chances)."""
    best = float("inf")
    for _ in range(5):
        gc.collect()
        gc.freeze()  # the input scenario is not the engine's work: keep the GC off it
        start = time.perf_counter()
        resolve(scenario)
        best = min(best, time.perf_counter() - start)
        gc.unfreeze()
    gc.collect()
    tracemalloc.start()
    resolve(scenario)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return Figure(label, exchanges, best, peak)


def bench_engine() -> list[str]:
    lines = [
        "tussle bench engine: scenarios resolved through decide/evolve (best of 5 runs)",
        "target: the 10,000-exchange time at most 12x the 1,000-exchange time",
        "",
        f"{'contest':<20}{'exchanges':>10}{'seconds':>10}{'exch/s':>10}{'peak MiB':>10}"
        f"{'10k/1k':>9}  verdict",
    ]
    for label, make in ENGINE_CASES:
        small, large = (measure(label, make(n, random.Random(SEED)), n) for n in (1_000, 10_000))
        ratio = large.seconds / small.seconds
        for fig in (small, large):
            tail = (
                f"{ratio:>8.1f}x  {'ok' if ratio <= 12 else 'OVER TARGET'}" if fig is large else ""
            )
            lines.append(
                f"{fig.label:<20}{fig.exchanges:>10,}{fig.seconds:>10.3f}{fig.rate:>10,.0f}"
                f"{fig.peak_bytes / 2**20:>10.1f}{tail}"
            )
    return lines


def fate_campaign(
    saves: Path, exchanges: int, name: str, per_contest: int = 10
) -> tuple[CampaignFiles, Campaign]:
    """A saved Fate campaign holding ``exchanges`` exchanges in contests of
    ``per_contest``, made through decide/apply and saved in one append."""
    rng = random.Random(exchanges)
    campaign = Campaign(name=name, system="fate")
    entries: list[Entry] = []

    def do(command: Command) -> None:
        entries.append(campaign.act(command))

    for who in ("Cynere", "Teran"):
        do(AddCharacter(character=Character(name=who, ratings={"Athletics": 3})))
    participants = [FateParticipant(name=n, side=n, skill=3) for n in ("Cynere", "Teran")]
    for c in range(max(1, exchanges // per_contest)):
        contest = new_contest(participants, options=FateOptions(victories_needed=10**6))
        do(StartContest(title=f"Race {c + 1}", contest=contest))
        for _ in range(min(per_contest, exchanges)):
            do(exchange_action(f"c{c + 1}", rng))
    files = Saves(saves).create(name, "fate")
    files.append(entries)
    return files, campaign


def exchange_action(contest_id: str, rng: random.Random) -> Play:
    rolls = tuple(
        RollDice(who=n, faces=tuple(rng.choice((-1, 0, 1)) for _ in range(4)))
        for n in ("Cynere", "Teran")
    )
    return Play(contest_id=contest_id, commands=(*rolls, ResolveExchange(twist="Twist")))


def save_time(files: CampaignFiles, campaign: Campaign, saves: int = 15) -> float:
    """Median seconds to save one GM action (an exchange) into ``campaign``."""
    rng = random.Random(1)
    contest_id = campaign.latest_contest.contest_id  # type: ignore[union-attr]
    times = []
    for _ in range(saves):
        entry = campaign.decide(exchange_action(contest_id, rng))
        start = time.perf_counter()
        files.append([entry])
        times.append(time.perf_counter() - start)
        campaign.apply(entry)
    return statistics.median(times)


# -- long campaigns (issue 17, item 15) -----------------------------------------------------

LONG = 50_000  # exchanges, in contests of LONG_CONTEST
LONG_CONTEST = 5_000
SHORT = 1_000  # the campaign check's and export's memory is compared with (same contests)
RUNS = 5
# (dashboard, watch): seconds to the first frame of each, for campaigns of a saves folder
# given as (name, its latest contest's title), taking turns. Measured by tui.bench (core
# never starts the dashboard).
Frames = Callable[[Path, list[tuple[str, str]]], list[tuple[float, float]]]


def long_campaign(saves: Path, exchanges: int, name: str) -> CampaignFiles:
    """A campaign of ``exchanges`` exchanges in contests of :data:`LONG_CONTEST` (fewer:
    one contest), opened once as the dashboard opens it (so its snapshot is written)."""
    files, _ = fate_campaign(saves, exchanges, name, per_contest=min(exchanges, LONG_CONTEST))
    opened = CampaignFiles(files.folder)
    opened.lock.acquire(name, what="tussle bench")
    try:
        opened.load()
    finally:
        opened.lock.release()
    return opened


RECORDS = 15  # records timed into each campaign (each takes a few milliseconds)


def record_time(saves: Path, name: str) -> float:
    """Median seconds of ``tussle resolve FILE --record NAME`` of a one-exchange contest,
    in process, each from a fresh start on the files (as a new command would): of
    :data:`RECORDS` records, after one not counted (what the process imports the first
    time it records, whichever campaign is timed first). Milliseconds each, on a machine
    other work may share: 15 make a median that one busy moment does not move."""
    from core.cli.record import record
    from core.scenario import resolve

    times = []
    for k in range(RECORDS + 1):
        resolution = resolve(fate_scenario(1, random.Random(k)))
        start = time.perf_counter()
        record(resolution, Saves(saves), name, f"One exchange {k}")
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])


def recap_time(folder: Path, nothing: bool = False) -> float:
    """Seconds to write the recap (Markdown) of the campaign in ``folder``, opened as
    ``M`` opens it (not timed): its last session, which is all of it (built just now),
    or (``nothing``) since tomorrow, when every contest is looked for and none found."""
    from datetime import UTC, datetime, timedelta

    from core.campaign.recap import recap_markdown

    campaign = CampaignFiles(folder).load()
    since = datetime.now(UTC) + timedelta(days=1) if nothing else None
    start = time.perf_counter()
    recap_markdown(campaign, since)
    return time.perf_counter() - start


PEAK = """
import resource, sys, time
from pathlib import Path
from core.saves.store import CampaignFiles
files = CampaignFiles(Path(sys.argv[1]))
start = time.perf_counter()
if sys.argv[2] == "check":
    from core.saves.check import check_campaign
    check_campaign(files)
else:
    from core.saves.export_stream import write_export
    with open(sys.argv[3], "w", encoding="utf-8") as out:
        write_export(files, out)
# The high-water mark of this program's memory: Linux keeps ru_maxrss across exec, so a
# child of a big process would report its parent's; /proc's VmHWM is this program's own.
try:
    status = Path("/proc/self/status").read_text()
    peak = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM"))
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(time.perf_counter() - start, peak)
"""


def peak(folder: Path, what: str, scratch: Path) -> tuple[float, int]:
    """Seconds and peak memory (bytes: the process's largest resident size, Python's own
    included) of ``check`` or ``export`` of the campaign in ``folder``, in a process of
    its own."""
    run = subprocess.run(
        [sys.executable, "-c", PEAK, str(folder), what, str(scratch / "export.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, kib = run.stdout.split()
    return float(seconds), int(kib) * 1024


def bench_long(frames: Frames | None = None) -> list[str]:
    """The long campaign's figures beside their targets."""
    lines = [
        f"long campaign: {LONG:,} exchanges in contests of {LONG_CONTEST:,}, against a new "
        f"campaign (one contest of 10) and, for memory, one of {SHORT:,}",
        "",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        start = time.perf_counter()
        files, _ = fate_campaign(saves, LONG, "Long", per_contest=LONG_CONTEST)
        built = time.perf_counter() - start
        opened = CampaignFiles(files.folder)
        opened.lock.acquire("Long", what="tussle bench")
        start = time.perf_counter()
        opened.load()  # the first opening since: the whole log replayed, the snapshot made
        rebuilt = time.perf_counter() - start
        opened.lock.release()
        entries = int(opened.meta()["entries"])
        segments = len(list((files.folder / "log").iterdir()))
        lines.append(
            f"  built in {built:.1f} s ({entries:,} log entries, {segments} segments); the "
            f"first opening replays it all and writes the snapshot: {rebuilt:.1f} s"
        )
        opens = []
        for _ in range(RUNS):
            start = time.perf_counter()
            latest = CampaignFiles(files.folder).load().latest_contest
            opens.append(time.perf_counter() - start)
        assert latest is not None
        lines.append(
            f"  opening from the snapshot (in process, median of {RUNS}): "
            f"{statistics.median(opens) * 1000:.0f} ms"
        )
        long_files = files
        fate_campaign(saves, 10, "New", per_contest=10)
        short = long_campaign(saves, SHORT, "Short")
        rows: list[tuple[str, float, float, float, str]] = []
        if frames is not None:
            title = f"Race {LONG // LONG_CONTEST}"
            ours, theirs = frames(saves, [("Long", title), ("New", "Race 1")])
            rows.append(("first frame, dashboard", ours[0], theirs[0], 1.2, "s"))
            rows.append(("first frame, tussle watch", ours[1], theirs[1], 1.2, "s"))
        rows.append(
            (
                "--record of one exchange",
                record_time(saves, "Long"),
                record_time(saves, "New"),
                1.5,
                "s",
            )
        )
        # The recap reads every action once: linear, so the long campaign's (50 times the
        # short one's entries) is at most 1.5 times 50 times the short one's.
        size = LONG / SHORT
        # Since tomorrow, it reads one action of each: milliseconds, no ratio to judge.
        for label, nothing in (("recap (Markdown)", False), ("recap since tomorrow", True)):
            rows.append(
                (
                    label,
                    recap_time(long_files.folder, nothing),
                    recap_time(short.folder, nothing),
                    0.0 if nothing else 1.5 * size,
                    "s",
                )
            )
        for what in ("check", "export"):
            big = peak(long_files.folder, what, saves)
            small = peak(short.folder, what, saves)
            rows.append((f"{what} peak memory", big[1], small[1], 1.5, "MiB"))
            rows.append((f"{what} time", big[0], small[0], 0.0, "s"))
    lines += [
        "",
        f"  {'':28}{'long':>10}{'compared':>10}{'ratio':>8}{'target':>9}  verdict",
    ]
    for label, long_value, base, target, unit in rows:
        scale = 2**20 if unit == "MiB" else 1
        ratio = long_value / base
        verdict = ("ok" if ratio <= target else "OVER TARGET") if target else "(no target)"
        shown = f"<= {target}x" if target else ""
        lines.append(
            f"  {label:<28}{long_value / scale:>9.2f}{unit[0] if unit == 's' else ''}"
            f"{'' if unit == 's' else ' '}{base / scale:>9.2f}{unit[0] if unit == 's' else ' '}"
            f"{ratio:>7.2f}x{shown:>9}  {verdict}"
        )
    lines.append("  (memory in MiB: the process's peak resident size, Python included)")
    return lines


def bench_saves(frames: Frames | None = None) -> list[str]:
    lines = [
        "tussle bench saves: one GM action (an exchange) saved, median of 15",
        "target: the 10,000-exchange figure at most 1.5x the 100-exchange figure",
        "",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        figures: dict[str, float] = {}
        cases = [
            ("100 exchanges (contests of 10)", 100, 10),
            ("1,000 exchanges (contests of 10)", 1_000, 10),
            ("10,000 exchanges (contests of 10)", 10_000, 10),
            ("one contest of 500 exchanges", 500, 500),
        ]
        for label, size, per in cases:
            files, campaign = fate_campaign(saves, size, label, per)
            figures[label] = save_time(files, campaign)
            lines.append(f"  {label:<36}{figures[label] * 1000:8.2f} ms")
        ratio = figures[cases[2][0]] / figures[cases[0][0]]
        lines.append(
            f"  ratio 10,000 / 100: {ratio:.2f}x   {'ok' if ratio <= 1.5 else 'OVER TARGET'}"
        )
        big = CampaignFiles(saves / safe_name(cases[2][0]))
        opens = []
        for _ in range(3):
            start = time.perf_counter()
            big.load()
            opens.append(time.perf_counter() - start)
        lines += ["", f"opening the 10,000-exchange campaign (best of 3): {min(opens):.2f} s"]
        # The recap of 1,000 contests against 100: linear is 10 times (it was 100 times
        # when each contest looked through every action of the campaign).
        small = CampaignFiles(saves / safe_name(cases[1][0]))
        times = [recap_time(f.folder) for f in (small, big)]
        ratio = times[1] / times[0]
        lines.append(
            f"recap of the whole session: 100 contests {times[0]:.2f} s, 1,000 contests "
            f"{times[1]:.2f} s, ratio {ratio:.1f}x (linear: 10x; target <= 15x)   "
            f"{'ok' if ratio <= 15 else 'OVER TARGET'}"
        )
        times = [recap_time(f.folder, nothing=True) for f in (small, big)]
        lines.append(
            f"recap since tomorrow (it reads one action): 100 contests {times[0] * 1000:.1f} "
            f"ms, 1,000 contests {times[1] * 1000:.1f} ms"
        )
    return [*lines, "", *odds_memory(), "", *bench_long(frames)]


def odds_peak(contest: Contest) -> float:
    """Peak MiB (tracemalloc) of one full update of ``contest``'s odds, caches emptied."""
    from core.odds.report import clear_caches, odds_for

    clear_caches()
    gc.collect()
    tracemalloc.start()
    try:
        odds_for(contest)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def odds_memory() -> list[str]:
    """The odds' memory for the largest ratings every layer accepts (core.limits.SIZE:
    10^9) beside ordinary ones: it must not grow with the ratings (issue 30, item 8: a
    Fate skill of 10^9 took gigabytes)."""
    from core.limits import SIZE
    from core.systems.heroquest.state import HQOptions, HQParticipant
    from core.systems.heroquest.state import new_contest as new_hq_contest

    def fate_sides(skills: list[int]) -> Contest:
        names = ["Cynere", "Teran", "Zird"][: len(skills)]
        return new_contest(
            [FateParticipant(name=n, side=n, skill=s) for n, s in zip(names, skills, strict=True)]
        )

    def hq(a: int, b: int) -> Contest:
        return new_hq_contest(
            [
                HQParticipant(name="Hero", side="Hero", rating=a),
                HQParticipant(name="Foe", side="Foe", rating=b),
            ],
            HQOptions(extended=True),
        )

    cases = [
        ("Fate, 3 sides", fate_sides([4, 3, 2]), fate_sides([0, SIZE, -SIZE])),
        ("HeroQuest extended", hq(24, 17), hq(SIZE, 1)),
    ]
    lines = [
        "odds' peak memory, ordinary ratings and the largest accepted (10^9 apart);",
        "target: the largest at most 1.5x the ordinary",
    ]
    for label, ordinary, largest in cases:
        small, big = odds_peak(ordinary), odds_peak(largest)
        ratio = big / small if small else 1.0
        verdict = "ok" if ratio <= 1.5 else "OVER TARGET"
        lines.append(
            f"  {label:<22}{small:8.2f} MiB  largest {big:8.2f} MiB  {ratio:5.2f}x  {verdict}"
        )
    return lines


def odds_contests() -> list[tuple[str, float, Contest]]:
    """The contests ``bench odds`` updates: (label, target in ms, contest)."""
    from core.systems.heroquest.state import HQOptions, HQParticipant
    from core.systems.heroquest.state import new_contest as new_hq_contest

    def fate_sides(skills: list[int]) -> FateContest:
        names = ["Cynere", "Teran", "Zird", "Landon", "Anna", "Bronwyn"][: len(skills)]
        people = zip(names, skills, strict=True)
        return new_contest([FateParticipant(name=n, side=n, skill=s) for n, s in people])

    hero = new_hq_contest(
        [
            HQParticipant(name="Hero", side="Hero", rating=24, hero_points=2),
            HQParticipant(name="Foe", side="Foe", rating=17),
        ],
        HQOptions(extended=True),
    )
    return [
        ("Fate, 2 sides, first to 3", 5.0, fate_sides([4, 3])),
        ("Fate, 6 sides, first to 3", 50.0, fate_sides([5, 4, 4, 3, 2, 1])),
        ("HeroQuest extended (4M vs 17)", 5.0, hero),
    ]


def odds_conflicts() -> list[tuple[str, float, Contest]]:
    """The Fate conflicts ``bench odds`` updates (exact, so seconds: the dashboard asks
    them in a worker): one against one at Physique Mediocre, Fair and Great (Fight 3
    against a defense of 2 both ways), and two against one."""
    from core.campaign.log import Character
    from core.systems.fate.conflict_setup import conflict_of

    def conflict(physique: int, foes: int = 1) -> Contest:
        names = ["Cynere", "Drisban", "Og"][: 1 + foes]
        roster = {
            n: Character(name=n, ratings={"Fight": 3, "Athletics": 2, "Physique": physique})
            for n in names
        }
        sides = ["Cynere", *(["Thugs"] * foes)]
        people = [
            FateParticipant(name=n, side=s, skill=0) for n, s in zip(names, sides, strict=True)
        ]
        return conflict_of(people, roster)

    return [
        ("Fate conflict 1v1, Mediocre", 2000.0, conflict(0)),
        ("Fate conflict 1v1, Fair", 5000.0, conflict(2)),
        ("Fate conflict 1v1, Great", 10000.0, conflict(4)),
        ("Fate conflict 2v1, Mediocre", 10000.0, conflict(0, foes=2)),
    ]


def time_odds(contest: Contest, cold: bool, repeats: int) -> float:
    """Median seconds of one full update (``odds_for``: exchange and contest odds, every
    side, the +2 figures), each from empty caches when ``cold``."""
    from core.odds.report import clear_caches, odds_for

    times = []
    odds_for(contest)
    for _ in range(repeats):
        if cold:
            clear_caches()
        start = time.perf_counter()
        odds_for(contest)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_odds() -> list[str]:
    lines = [
        "tussle bench odds: one full update of the odds (exchange and contest, every side),",
        "median of 21; cold = caches emptied first, warm = the same inputs again",
        "",
        f"{'contest':<32}{'cold ms':>9}{'warm ms':>9}{'target':>9}  verdict",
    ]
    for label, target, contest in odds_contests():
        cold = time_odds(contest, cold=True, repeats=21) * 1000
        warm = time_odds(contest, cold=False, repeats=21) * 1000
        verdict = "ok" if cold < target else "OVER TARGET"
        lines.append(f"{label:<32}{cold:>9.2f}{warm:>9.3f}{target:>7.0f} ms  {verdict}")
    lines.append("conflicts (exact, solved afresh each time: median of 3, cold only)")
    for label, target, contest in odds_conflicts():
        cold = time_odds(contest, cold=True, repeats=3) * 1000
        verdict = "ok" if cold < target else "OVER TARGET"
        lines.append(f"{label:<32}{cold:>9.0f}{'':>9}{target:>7.0f} ms  {verdict}")
    return lines


# The parts that need no dashboard; ``tussle bench`` (tui.bench) adds the dashboard's.
PARTS: dict[str, Callable[[], list[str]]] = {
    "engine": bench_engine,
    "saves": bench_saves,
    "odds": bench_odds,
}
