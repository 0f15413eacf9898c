"""``tussle bench PART`` (core.cli.bench has the engine, saves and odds parts), and the
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
from typing import Any

from core.cli import bench as core_bench
from core.cli.bench import fate_campaign
from core.cli.demo import create_demos
from core.dice import RandomDice
from core.saves.store import Saves

RUNS = 15
LONG_RUNS = 9  # starts of each campaign for the long campaign's frames
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


def _seat_delays(
    files: Any, campaign: Any, screen: Callable[[], str], runs: int = 20
) -> list[float]:
    """Seconds from saving an exchange to ``screen()`` showing it, ``runs`` times."""
    from core.cli.bench import exchange_action
    from core.saves.store import CampaignFiles

    rng = random.Random(3)
    contest_id = campaign.latest_contest.contest_id
    delays = []
    for _ in range(runs):
        entry = campaign.decide(exchange_action(contest_id, rng))
        CampaignFiles(files.folder).append([entry])
        campaign.apply(entry)
        n = campaign.contest(contest_id).state.n
        start = time.perf_counter()
        while f"Exchange {n}:" not in screen():
            if time.perf_counter() - start > 10:
                raise RuntimeError("the seat never showed the exchange")
            time.sleep(0.005)
        delays.append(time.perf_counter() - start)
    return delays


def _tmux_screen(base: list[str]) -> Callable[[], str]:
    def screen() -> str:
        return subprocess.run([*base, "capture-pane", "-p"], capture_output=True, text=True).stdout

    return screen


def _wait(screen: Callable[[], str], text: str, what: str) -> None:
    deadline = time.perf_counter() + 30
    while text not in screen():
        if time.perf_counter() > deadline:
            raise RuntimeError(f"{what} never showed {text!r}")
        time.sleep(0.02)


def _cpu_share(pid: int, seconds: float) -> float:
    """The per cent of one core process ``pid`` used over ``seconds``."""
    import os

    def cpu() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    before, start = cpu(), time.perf_counter()
    time.sleep(seconds)
    return (cpu() - before) / (time.perf_counter() - start) * 100


def _terminal_seat(files: Any, campaign: Any, command: str, idle: float) -> tuple[float, float]:
    """A watcher in a tmux pane of its own, as an SSH seat has it: (median delay, idle
    CPU per cent)."""
    base = ["tmux", "-L", f"tussle-bench-{uuid.uuid4().hex[:8]}", "-f", "/dev/null"]
    subprocess.run([*base, "new-session", "-d", "-x", "80", "-y", "24", command], check=True)
    try:
        screen = _tmux_screen(base)
        _wait(screen, "following", "the watcher")
        delays = _seat_delays(files, campaign, screen)
        pid = subprocess.run(
            [*base, "display-message", "-p", "#{pane_pid}"], capture_output=True, text=True
        ).stdout
        return statistics.median(delays), _cpu_share(int(pid), idle)
    finally:
        subprocess.run([*base, "kill-server"], capture_output=True)


def _players_server_seat(files: Any, campaign: Any, name: str, saves: Path) -> float:
    """The players' tmux server as ``tussle share`` sets it, read through a read-only
    client in a terminal of its own (80x24): the median delay."""
    from tui.share import players_command, tussle_path

    path = Path(tempfile.mkdtemp(prefix="tussle-bench-")) / "players"
    viewer = ["tmux", "-L", f"tussle-bench-{uuid.uuid4().hex[:8]}", "-f", "/dev/null"]
    subprocess.run(players_command(name, saves, tussle_path(), path), check=True)
    try:
        attach = f"env -u TMUX tmux -S {path} attach -r"
        subprocess.run([*viewer, "new-session", "-d", "-x", "80", "-y", "24", attach], check=True)
        screen = _tmux_screen(viewer)
        _wait(screen, "following", "the players' server")
        return statistics.median(_seat_delays(files, campaign, screen))
    finally:
        subprocess.run([*viewer, "kill-server"], capture_output=True)
        subprocess.run(["tmux", "-S", str(path), "kill-server"], capture_output=True)
        shutil.rmtree(path.parent, ignore_errors=True)


def _browser_seat(files: Any, campaign: Any, name: str, saves: Path) -> float:
    """``tussle serve``, read over its websocket as a browser's page does (100x30): the
    median delay from the save to the exchange arriving."""
    import re
    import socket
    import threading

    import aiohttp

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    from tui.serve import link_in

    tussle = str(Path(sys.executable).parent / "tussle")
    said = saves / "serve.out"
    with said.open("w") as out:  # its first line: the table's secret link
        server = subprocess.Popen(
            [tussle, "--saves", str(saves), "serve", name, "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    deadline = time.perf_counter() + 30
    while (link := link_in(said.read_text())) is None:
        if server.poll() is not None or time.perf_counter() > deadline:
            server.terminate()
            raise RuntimeError(f"tussle serve gave no link: {said.read_text()[-500:]!r}")
        time.sleep(0.05)
    escapes = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()]\w|[@-Z\\-_])")
    received: list[bytes] = []
    stop = threading.Event()

    async def browse() -> None:
        url = link.rstrip("/")
        async with aiohttp.ClientSession() as session:
            for _ in range(300):
                try:
                    async with session.get(link) as response:
                        await response.text()
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
            async with session.ws_connect(f"{url}/ws?width=100&height=30") as ws:
                while not stop.is_set():
                    try:
                        message = await ws.receive(timeout=0.2)
                    except TimeoutError:
                        continue
                    if message.type == aiohttp.WSMsgType.BINARY:
                        received.append(message.data)
                    elif message.type != aiohttp.WSMsgType.TEXT:
                        break

    browser = threading.Thread(target=lambda: asyncio.run(browse()), daemon=True)
    browser.start()
    seen = ""

    def screen() -> str:
        nonlocal seen
        while received:
            seen += received.pop(0).decode("utf-8", "replace")
        seen = seen[-20000:]
        return escapes.sub("", seen)

    try:
        _wait(screen, "following", "the browser seat")
        return statistics.median(_seat_delays(files, campaign, screen))
    finally:
        stop.set()
        browser.join(timeout=5)
        server.terminate()
        server.wait(timeout=20)


def bench_watch(idle_seconds: float = 60.0) -> list[str]:
    """For each kind of seat, the delay from a save to the players' view showing it
    (median of 20): a watcher in a terminal of its own (as ``tussle watch``, an SSH
    seat's forced command, runs), the players' tmux server of ``tussle share`` read
    through a read-only client, and a browser seat of ``tussle serve`` read over its
    websocket. And the watcher's CPU use over ``idle_seconds`` with nothing happening."""
    if shutil.which("tmux") is None:
        return ["tussle bench watch: skipped (tmux is not installed)"]
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        files, campaign = fate_campaign(saves, 10, "Watched")
        tussle = str(Path(sys.executable).parent / "tussle")
        command = f"exec '{tussle}' --saves '{saves}' watch Watched"
        terminal, share = _terminal_seat(files, campaign, command, idle_seconds)
        tmux_seat = _players_server_seat(files, campaign, "Watched", saves)
        try:
            browser: float | None = _browser_seat(files, campaign, "Watched", saves)
        except ImportError:  # textual-serve (and aiohttp) not installed
            browser = None

    def row(what: str, seconds: float | None) -> str:
        if seconds is None:
            return f"  {what:38} skipped (textual-serve is not installed)"
        verdict = "ok" if seconds < 1 else "OVER"
        return f"  {what:38} {seconds * 1000:7.0f} ms   target < 1000 ms   {verdict}"

    return [
        "tussle bench watch",
        "",
        "save -> players' view, median of 20, by seat:",
        row("terminal (tussle watch; an SSH seat)", terminal),
        row("players' tmux server (tussle share)", tmux_seat),
        row("browser (tussle serve, websocket)", browser),
        f"CPU of a watcher idle for {idle_seconds:.0f} s:  {share:7.2f} % of one core   "
        f"target < 1 %   {'ok' if share < 1 else 'OVER'}",
    ]


def saves_frames(saves: Path, campaigns: list[tuple[str, str]]) -> list[tuple[float, float]]:
    """Seconds to the first frame of the dashboard (its keypad) and of ``tussle watch``
    (the latest contest's title) on each campaign, given as (name, that title): the median
    of 9 warm starts each, in tmux at 80x24, the campaigns taking turns (a machine busy
    for a while slows them alike; core.cli.bench's long campaign part asks for them)."""
    env = {
        "TUSSLE_SAVES": str(saves),
        "TEXTUAL_ANIMATIONS": "none",
        "COLORTERM": "truecolor",
        "PYTHONDONTWRITEBYTECODE": "",
    }
    tussle = str(Path(sys.executable).parent / "tussle")
    # The title line, not a longer title it begins.
    seen = [
        ([tussle, "open", name], [tussle, "watch", name], f"{title} ·") for name, title in campaigns
    ]
    for dashboard, watch, title in seen:
        first_frame(dashboard, "Roll keypad", env, linger=1.0)  # warm, and its backup made
        first_frame(watch, title, env, linger=0.5)
    frames: list[list[float]] = [[] for _ in seen]
    watched: list[list[float]] = [[] for _ in seen]
    for _ in range(LONG_RUNS):
        for k, (dashboard, _, _) in enumerate(seen):
            frames[k].append(first_frame(dashboard, "Roll keypad", env, linger=0.6))
        for k, (_, watch, title) in enumerate(seen):
            watched[k].append(first_frame(watch, title, env))
    return [
        (statistics.median(f), statistics.median(w)) for f, w in zip(frames, watched, strict=True)
    ]


def bench_saves() -> list[str]:
    frames = saves_frames if shutil.which("tmux") is not None else None
    return core_bench.bench_saves(frames)


# ``tussle bench PART``, in the order its help lists them.
PARTS: dict[str, Callable[[], list[str]]] = {
    "engine": core_bench.PARTS["engine"],
    "dashboard": bench_dashboard,
    "saves": bench_saves,
    "watch": bench_watch,
    "odds": core_bench.PARTS["odds"],
}


def main(part: str) -> int:
    try:
        lines = PARTS[part]()
    except RuntimeError as error:  # a seat or a terminal that never showed what it should
        print(f"tussle bench {part}: could not measure: {error}", file=sys.stderr)
        return 1
    for line in lines:
        print(line, flush=True)
    return 0
