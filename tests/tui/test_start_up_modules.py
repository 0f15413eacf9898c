"""What the dashboard loads before its first frame (issue 15: start-up time is a
benchmark, ``tussle bench dashboard``): the contest screen it opens on, and not the parts
of screens it has not opened yet. Each check runs in a fresh interpreter, since this test
session has loaded everything long before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import clean_env

FIRST_FRAME = """
import asyncio, json, sys
from pathlib import Path
from core.demo import create_demos
from core.store import Saves
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


def test_the_first_frame_loads_the_contest_screen_and_nothing_it_does_not_show(
    tmp_path: Path,
) -> None:
    run = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME, str(tmp_path / "saves")],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    shown = json.loads(run.stdout.strip().splitlines()[-1])
    loaded = set(shown["loaded"])
    assert shown["screen"] == "FateContestScreen"
    assert {"tui.systems.fate.keys", "core.systems.fate.rules"} <= loaded  # the report is right
    # The roster's and setup's parts, the quick roll's reading, the installed packages'
    # entry points: none of them is on screen yet.
    for later in (
        "tui.systems.fate.setup",
        "tui.systems.fate.roster",
        "tui.systems.setup_part",
        "tui.systems.roster_part",
        "core.quick_roll",
        "importlib.metadata",
    ):
        assert later not in loaded, later
