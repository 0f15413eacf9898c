"""``tussle bench engine|saves|odds``: the figures the issues ask for, beside their targets
(tui.bench has the dashboard's parts, and runs ``tussle bench``).

Benchmarks, not tests: they measure and print; they never fail a build. Each part builds
its own inputs from a fixed seed, so two runs on one machine compare.
"""

from __future__ import annotations

import gc
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.campaign import AddCharacter, Campaign, Character, Entry, Play, StartContest
from core.model import Command, Contest, ResolveExchange, RollDice
from core.scenario import resolve
from core.store import CampaignFiles, Saves, safe_name
from core.systems import fate

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
    """A chained contest of ``n`` exchanges, 4M against 17, closed by a leave."""
    exchanges: list[dict[str, Any]] = [
        {"rolls": {"Hero": rng.randint(1, 20), "Foe": rng.randint(1, 20)}} for _ in range(n)
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
    participants = [fate.FateParticipant(name=n, side=n, skill=3) for n in ("Cynere", "Teran")]
    for c in range(max(1, exchanges // per_contest)):
        contest = fate.new_contest(participants, options=fate.FateOptions(victories_needed=10**6))
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


def bench_saves() -> list[str]:
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
    return lines


def odds_contests() -> list[tuple[str, float, Contest]]:
    """The contests ``bench odds`` updates: (label, target in ms, contest)."""
    from core.systems import heroquest

    def fate_sides(skills: list[int]) -> fate.FateContest:
        names = ["Cynere", "Teran", "Zird", "Landon", "Anna", "Bronwyn"][: len(skills)]
        people = zip(names, skills, strict=True)
        return fate.new_contest([fate.FateParticipant(name=n, side=n, skill=s) for n, s in people])

    hero = heroquest.new_contest(
        [
            heroquest.HQParticipant(name="Hero", side="Hero", rating=24, hero_points=2),
            heroquest.HQParticipant(name="Foe", side="Foe", rating=17),
        ],
        heroquest.HQOptions(extended=True),
    )
    return [
        ("Fate, 2 sides, first to 3", 5.0, fate_sides([4, 3])),
        ("Fate, 6 sides, first to 3", 50.0, fate_sides([5, 4, 4, 3, 2, 1])),
        ("HeroQuest extended (4M vs 17)", 5.0, hero),
    ]


def time_odds(contest: Contest, cold: bool, repeats: int) -> float:
    """Median seconds of one full update (``odds_for``: exchange and contest odds, every
    side, the +2 figures), each from empty caches when ``cold``."""
    from core import odds

    times = []
    odds.odds_for(contest)
    for _ in range(repeats):
        if cold:
            odds.clear_caches()
        start = time.perf_counter()
        odds.odds_for(contest)
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
    return lines


# The parts that need no dashboard; ``tussle bench`` (tui.bench) adds the dashboard's.
PARTS: dict[str, Callable[[], list[str]]] = {
    "engine": bench_engine,
    "saves": bench_saves,
    "odds": bench_odds,
}
