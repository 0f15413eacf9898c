"""``tussle bench PART`` (core.bench has the engine, saves and odds parts), and the
dashboard's parts: first frame against a bare Textual app, and commit-to-log.

* First frame: the median time from starting the command in a fresh tmux server (80x24)
  to its first text on screen, over 15 warm runs each, taking turns (a machine busy for
  a while slows both alike), for ``tussle`` on the Fate demo and for a bare Textual app
  (Header, Static, Footer). Target: at most 1.3x the bare app (issue 15; issue 3 asked 1.5x).
* Commit to log: the median time from Enter on the keypad to the exchange appearing in
  the log, in a campaign holding 100 and 10,000 exchanges (contests of 10), headless.
  Target: the second at most 1.3x the first.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from core import bench as core_bench
from core.bench import fate_campaign
from core.demo import create_demos
from core.dice import RandomDice
from core.store import Saves

RUNS = 15
BARE_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static


class Bare(App):
    def compose(self):
        yield Header()
        yield Static("bare app ready")
        yield Footer()


Bare().run()
"""


def first_frame(command: list[str], text: str, env: dict[str, str], linger: float = 0.0) -> float:
    """Seconds from starting ``command`` in a new tmux server to ``text`` on screen;
    ``linger`` more seconds before the server is killed."""
    tmux = shutil.which("tmux")
    assert tmux is not None
    socket = f"tussle-bench-{uuid.uuid4().hex[:8]}"
    base = [tmux, "-L", socket, "-f", "/dev/null"]
    exports = [arg for k, v in env.items() for arg in ("-e", f"{k}={v}")]
    line = " ".join(f"'{part}'" for part in command)
    start = time.perf_counter()
    subprocess.run([*base, "new-session", "-d", "-x", "80", "-y", "24", *exports, line], check=True)
    try:
        while time.perf_counter() - start < 30:
            shown = subprocess.run(
                [*base, "capture-pane", "-p"], capture_output=True, text=True
            ).stdout
            if text in shown:
                elapsed = time.perf_counter() - start
                time.sleep(linger)
                return elapsed
            time.sleep(0.005)
        raise RuntimeError(f"{text!r} never appeared")
    finally:
        subprocess.run([*base, "kill-server"], capture_output=True)


def bench_first_frame(folder: Path) -> tuple[float, float]:
    saves = folder / "saves"
    create_demos(Saves(saves))
    bare = folder / "bare.py"
    bare.write_text(BARE_APP)
    env = {
        "TUSSLE_SAVES": str(saves),
        "TEXTUAL_ANIMATIONS": "none",
        "COLORTERM": "truecolor",
        # Warm starts run from bytecode, as an installed Tussle (and Textual, compiled
        # when installed) does: with PYTHONDONTWRITEBYTECODE set in the shell, every
        # start would compile Tussle's own modules again and time that instead.
        "PYTHONDONTWRITEBYTECODE": "",
    }
    tussle = [str(Path(sys.executable).parent / "tussle"), "open", "Fate demo"]
    bare_cmd = [sys.executable, str(bare)]
    # Warm the caches once each, letting each finish starting (what it writes after its
    # first frame in place, as after any earlier use).
    first_frame(tussle, "Roll keypad", env, linger=2.5)
    first_frame(bare_cmd, "bare app ready", env, linger=2.5)
    ours, theirs = [], []
    for _ in range(RUNS):
        ours.append(first_frame(tussle, "Roll keypad", env))
        theirs.append(first_frame(bare_cmd, "bare app ready", env))
    return statistics.median(ours), statistics.median(theirs)


async def commit_latency(saves: Path, name: str, commits: int = 9) -> float:
    from tui.app import make_app
    from tui.widgets.exchange_log import ExchangeLog

    app = make_app(saves, campaign=name, dice=RandomDice(1))
    times = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.bus is not None
        await app.bus.drain()
        await pilot.pause()
        log = app.screen.query_one(ExchangeLog)
        for _ in range(commits):
            n = app.campaign.latest_contest.state.n + 1  # type: ignore[union-attr]
            await pilot.press("0", "0", "0", "0", "plus", "0", "0", "0")
            start = time.perf_counter()
            await pilot.press("enter")
            while not any(line.startswith(f"Exchange {n}:") for line in log.raw[-4:]):
                await asyncio.sleep(0.0005)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_dashboard() -> list[str]:
    lines = ["tussle bench dashboard", ""]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if shutil.which("tmux") is None:
            lines.append("first frame: skipped (tmux is not installed)")
        else:
            ours, bare = bench_first_frame(folder)
            ratio = ours / bare
            lines += [
                f"first frame, median of {RUNS} warm starts each (alternating), tmux 80x24:",
                f"  tussle (Fate demo)          {ours * 1000:8.0f} ms",
                f"  bare Textual app            {bare * 1000:8.0f} ms",
                f"  ratio {ratio:.2f}x   target <= 1.3x   {'ok' if ratio <= 1.3 else 'OVER'}",
                "",
            ]
        saves = folder / "latency"
        figures = {}
        for size in (100, 10_000):
            fate_campaign(saves, size, f"Bench {size}")
            figures[size] = asyncio.run(commit_latency(saves, f"Bench {size}"))
        ratio = figures[10_000] / figures[100]
        lines += [
            "commit to log, median of 9 exchanges (headless), campaign of contests of 10:",
            f"  100 exchanges in the campaign     {figures[100] * 1000:8.1f} ms",
            f"  10,000 exchanges in the campaign  {figures[10_000] * 1000:8.1f} ms",
            f"  ratio {ratio:.2f}x   target <= 1.3x   {'ok' if ratio <= 1.3 else 'OVER'}",
        ]
    return lines


def bench_watch(idle_seconds: float = 60.0) -> list[str]:
    """The delay from a save to the players' view showing it (median of 20), and the
    view's CPU use over ``idle_seconds`` with nothing happening."""
    import os

    from core.bench import exchange_action
    from core.store import CampaignFiles

    if shutil.which("tmux") is None:
        return ["tussle bench watch: skipped (tmux is not installed)"]
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        files, campaign = fate_campaign(saves, 10, "Watched")
        tussle = str(Path(sys.executable).parent / "tussle")
        socket = f"tussle-bench-{uuid.uuid4().hex[:8]}"
        base = ["tmux", "-L", socket, "-f", "/dev/null"]
        command = f"exec '{tussle}' --saves '{saves}' watch Watched"
        subprocess.run([*base, "new-session", "-d", "-x", "80", "-y", "24", command], check=True)
        try:

            def screen() -> str:
                return subprocess.run(
                    [*base, "capture-pane", "-p"], capture_output=True, text=True
                ).stdout

            deadline = time.perf_counter() + 30
            while "following" not in screen() and time.perf_counter() < deadline:
                time.sleep(0.02)
            rng = random.Random(3)
            contest_id = campaign.latest_contest.contest_id  # type: ignore[union-attr]
            delays = []
            for _ in range(20):
                entry = campaign.decide(exchange_action(contest_id, rng))
                CampaignFiles(files.folder).append([entry])
                campaign.apply(entry)
                n = campaign.contest(contest_id).state.n
                start = time.perf_counter()
                while f"Exchange {n}:" not in screen():
                    if time.perf_counter() - start > 10:
                        raise RuntimeError("the watcher never showed the exchange")
                    time.sleep(0.005)
                delays.append(time.perf_counter() - start)
            pid = int(
                subprocess.run(
                    [*base, "display-message", "-p", "#{pane_pid}"], capture_output=True, text=True
                ).stdout
            )

            def cpu() -> float:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

            before, start = cpu(), time.perf_counter()
            time.sleep(idle_seconds)
            share = (cpu() - before) / (time.perf_counter() - start) * 100
        finally:
            subprocess.run([*base, "kill-server"], capture_output=True)
    median = statistics.median(delays)
    return [
        "tussle bench watch",
        "",
        f"save -> players' view, median of 20:  {median * 1000:7.0f} ms   target < 1000 ms   "
        f"{'ok' if median < 1 else 'OVER'}",
        f"CPU while idle for {idle_seconds:.0f} s:  {share:7.2f} % of one core   target < 1 %   "
        f"{'ok' if share < 1 else 'OVER'}",
    ]


# ``tussle bench PART``, in the order its help lists them.
PARTS: dict[str, Callable[[], list[str]]] = {
    "engine": core_bench.PARTS["engine"],
    "dashboard": bench_dashboard,
    "saves": core_bench.PARTS["saves"],
    "watch": bench_watch,
    "odds": core_bench.PARTS["odds"],
}


def main(part: str) -> int:
    for line in PARTS[part]():
        print(line, flush=True)
    return 0
