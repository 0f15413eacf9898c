"""What the dashboard loads before its first frame (issue 15: start-up time is a
benchmark, ``tussle bench dashboard``): the contest screen it opens on, and not the parts
of screens it has not opened yet. Each check runs in a fresh interpreter, since this test
session has loaded everything long before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers import clean_env

FIRST_FRAME = """
import asyncio, json, sys
from pathlib import Path
from core.cli.demo import create_demos
from core.saves.store import Saves
from tui.app import make_app

saves = Path(sys.argv[1])
create_demos(Saves(saves))
before = set(sys.modules)

async def main():
    app = make_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        print(json.dumps({
            "screen": type(app.screen).__name__,
            "loaded": sorted(sys.modules),
        }))

asyncio.run(main())
"""


def reported(script: str, folder: Path, stdin: int | None = None) -> Any:
    """What ``script``, run in a fresh interpreter on ``folder`` (with ``stdin``), printed
    last (JSON)."""
    run = subprocess.run(
        [sys.executable, "-c", script, str(folder)],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=stdin,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_the_first_frame_loads_the_contest_screen_and_nothing_it_does_not_show(
    tmp_path: Path,
) -> None:
    shown = reported(FIRST_FRAME, tmp_path / "saves")
    loaded = set(shown["loaded"])
    assert shown["screen"] == "ContestScreen"  # the one class, for every system
    assert {"tui.systems.fate.keys", "core.systems.fate.rules"} <= loaded  # the report is right
    # The roster's and setup's parts, the quick roll's reading, the installed packages'
    # entry points: none of them is on screen yet.
    for later in (
        "tui.systems.fate.setup",
        "tui.systems.fate.roster",
        "tui.systems.setup_part",
        "tui.systems.roster_part",
        "core.campaign.quick_roll",
        "importlib.metadata",
        "tomllib",  # no settings file here: nothing to read
    ):
        assert later not in loaded, later


DASHBOARD_RUN = """
import gc, json, sys, types
# A stand-in for the dashboard's app module: it reports how the collector stands when
# the dashboard would start running, after the real modules it needs have loaded.
fake = types.ModuleType("tui.app")
def run(args):
    print(json.dumps({"enabled": gc.isenabled(), "frozen": gc.get_freeze_count(),
                      "loaded": "tui.glyphs" in sys.modules}))
    return 0
fake.run = run
sys.modules["tui.app"] = fake
from tui.cli import main
sys.exit(main(["--saves", sys.argv[1], "open", "Fate demo"]))
"""


def test_the_dashboard_starts_with_what_it_loaded_frozen_and_the_collector_running(
    tmp_path: Path,
) -> None:
    # The dashboard starts in a terminal only (tui/terminal.py): a pty stands for one.
    master, terminal = os.openpty()
    try:
        seen = reported(DASHBOARD_RUN, tmp_path, stdin=terminal)
    finally:
        os.close(master)
        os.close(terminal)
    # The interpreter's start-up and the modules loaded made tens of thousands of objects:
    # they are frozen (never walked by the collector again), and the collector is back on.
    assert seen["enabled"] is True and seen["loaded"] is True
    assert seen["frozen"] > 10_000


def test_loading_pauses_the_collector_and_leaves_it_as_it_was() -> None:
    import gc

    from tui.cli import loading_for_good

    frozen = gc.get_freeze_count()
    try:
        assert gc.isenabled()
        with loading_for_good():
            assert not gc.isenabled()
            made = [[] for _ in range(1000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= frozen + len(made)
        # A caller that keeps the collector off (a profiler, a test) finds it still off,
        # and a failed import leaves it as it was too.
        gc.disable()
        with loading_for_good():
            pass
        assert not gc.isenabled()
        gc.enable()
        try:
            with loading_for_good():
                raise ImportError("no such module")
        except ImportError:
            pass
        assert gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()  # this test session's objects go back to the collector


REFUSED_WATCH = """
import atexit, json, sys
from pathlib import Path
from core.cli.demo import create_demos
from core.saves.store import Saves
from tui.cli import main

create_demos(Saves(Path(sys.argv[1])))
# What was loaded once main returned (sys.exit runs atexit's handlers, main's code first).
textual = lambda: sorted(m for m in sys.modules if m.split(".")[0] == "textual")
atexit.register(lambda: print(json.dumps(textual())))
sys.exit(main(["--saves", sys.argv[1], "watch", sys.argv[2]]))
"""


def refused_watch(folder: Path, name: str) -> tuple[int, str, list[str]]:
    """``tussle watch NAME`` in a fresh interpreter, stdin /dev/null: its exit code, what it
    said, and the Textual modules it had loaded when it returned."""
    run = subprocess.run(
        [sys.executable, "-c", REFUSED_WATCH, str(folder), name],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    return run.returncode, run.stderr, json.loads(run.stdout.strip().splitlines()[-1])


def test_a_players_view_refused_says_so_without_loading_textual(tmp_path: Path) -> None:
    # README, "The players' view": without a terminal (ssh -T, < /dev/null) it exits 2 in
    # one line; an unknown campaign too. Neither needs a screen, so neither loads Textual
    # (tussle serve and a forced SSH command may start many at once).
    code, said, textual = refused_watch(tmp_path / "saves", "Fate demo")
    assert (code, said) == (
        2,
        "(watch): the players' view needs a terminal, and stdin is not one "
        "(over SSH: ssh -t, not -T)\n",
    )
    assert textual == []
    code, said, textual = refused_watch(tmp_path / "saves", "Nobody")
    assert (code, said, textual) == (2, '(watch): no campaign "Nobody"\n', [])
