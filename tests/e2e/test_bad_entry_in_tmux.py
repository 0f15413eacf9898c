"""The real ``tussle`` on a campaign whose log has an entry that does not load (issue 23,
item 3): it opens as it stood before it, the GM is told, and the entry is kept aside.

The seed campaign (tests/helpers.py ``seed``): entries 0 and 1 add Cynere and Teran, 2
starts the race, 3 is its first exchange (Cynere 0000 + 4 against Teran -000 + 3: Cynere
wins), 4 its second, 5 undoes it, 6 redoes it. Entry 4 is hand-edited into an event no
Tussle knows.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import clean_env, seed, tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def test_the_dashboard_opens_a_campaign_before_its_bad_entry_and_says_so(
    tmp_path: Path,
) -> None:
    saves = tmp_path / "saves"
    files, _ = seed(saves)
    data = json.loads(files.segment_path(0).read_text())
    data["entries"]["5"]["entry"]["@"] = "ActionForeseen"
    files.segment_path(0).write_text(json.dumps(data))
    # 80x40, not 80x24: the toast that says so (its message names the saves folder twice,
    # a long path under pytest) stands over the exchange log's rows for its 30 s at 80x24,
    # so the log could only be read once it had gone. 40 rows leave the log's top clear:
    # the GM reads both at once.
    terminal, status = Terminal((80, 40)), tmp_path / "status"
    try:
        terminal.start([*tussle_command(), "open", "Seed"], {"TUSSLE_SAVES": str(saves)}, status)
        shown = terminal.wait_for("does not load")
        assert "Log entry 4" in shown
        shown = terminal.wait_for("Exchange 1: Cynere wins")
        assert "does not load" in shown  # the toast still up: read beside it, not after it
        assert "Exchange 2:" not in shown  # the second exchange was never loaded
        assert "Cynere  ●○○ 1" in shown  # one victory to none: the first exchange alone
        terminal.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    done = subprocess.run(
        [*tussle_command(), "--saves", str(saves), "check", "Seed"],
        capture_output=True, text=True, timeout=60, env=clean_env(),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "3 log entries set aside" in done.stdout and "--repair" in done.stdout
    (kept,) = (files.folder / "set-aside").iterdir()
    assert [e["n"] for e in json.loads(kept.read_text())["entries"]] == [4, 5, 6]
