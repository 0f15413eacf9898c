"""No dead ends, in a real terminal, as the issue's evening went (issue 24, item 1): a
campaign filled by ``tussle roster import`` opens on a setup ("A new contest"), and one
made on the campaign screen opens on an empty roster. Esc used to do nothing there, w and
c were not bound and the palette had neither: the only ways out were a throwaway contest
or quitting. Now Esc leaves each, and each reaches the roster, a setup and the campaigns.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from core.saves.store import Saves
from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import clean_env, tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

PARTY = Path(__file__).parent.parent / "data" / "roster" / "party-heroquest.toml"
CAMPAIGNS = "Campaigns · Enter opens · n makes a new one"
SETUP = "A new contest: who takes part"


def test_campaigns_from_an_import_and_from_the_campaign_screen_are_no_dead_ends(
    tmp_path: Path,
) -> None:
    saves = tmp_path / "saves"
    Saves(saves).create("Children of the Grave", "heroquest")
    argv = ["--saves", str(saves), "roster", "import", "Children of the Grave", str(PARTY)]
    imported = subprocess.run(
        [*tussle_command(), *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
    )
    assert imported.returncode == 0, imported.stderr
    terminal, status = Terminal(), tmp_path / "status"
    line = shlex.join([*tussle_command(), "--saves", str(saves), "open", "Children of the Grave"])
    try:
        terminal.start(["sh", "-c", line], {}, status)
        # The import's campaign: no contest yet, so the setup of one.
        terminal.wait_for(SETUP)
        terminal.keys("Escape")  # back one step: the campaigns
        terminal.wait_for(CAMPAIGNS)
        terminal.keys("Escape")  # and back to the campaign open
        terminal.wait_for(SETUP)
        terminal.keys("W")  # the roster (w is wherewithal on a HeroQuest setup)
        terminal.wait_for("Roster · Children of the Grave")
        terminal.keys("Escape")  # back to the setup it came from
        terminal.wait_for(SETUP)
        terminal.keys("c")
        terminal.wait_for(CAMPAIGNS)
        terminal.keys("w")  # the roster of the campaign open, from the campaigns
        terminal.wait_for("Roster · Children of the Grave")
        terminal.keys("c")
        terminal.wait_for(CAMPAIGNS)
        terminal.keys("N")  # a new contest there (n makes a new campaign)
        terminal.wait_for(SETUP)
        # The next step: c n "friday fate" Enter, an empty roster.
        terminal.keys("c")
        terminal.wait_for(CAMPAIGNS)
        terminal.keys("n")
        terminal.wait_for("A new campaign")
        terminal.keys("-l", "friday fate")
        terminal.keys("Enter")
        terminal.wait_for("Roster · friday fate")
        terminal.keys("Escape")  # back one step: the campaigns it was made on
        terminal.wait_for(CAMPAIGNS)
        terminal.keys("Escape")
        terminal.wait_for("Roster · friday fate")
        terminal.keys("n")  # a setup, from the empty roster
        terminal.wait_for(SETUP)
        terminal.keys("w")  # the roster again (w on a Fate setup)
        terminal.wait_for("Roster · friday fate")
        # The palette has the campaigns too, by name.
        terminal.keys("C-p")
        terminal.wait_for("Search for commands")
        terminal.keys("-l", "Campaigns")
        terminal.wait_for("key c")  # the palette's command, with its key
        terminal.keys("Enter")
        shown = terminal.wait_for(CAMPAIGNS)
        assert "Children of the Grave" in shown and "friday fate" in shown
        terminal.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert sorted(c.name for c in Saves(saves).campaigns()) == [
        "Children of the Grave",
        "friday fate",
    ]
