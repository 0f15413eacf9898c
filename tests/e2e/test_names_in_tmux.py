"""Names are data in a real terminal (issue 17, items 11 and 12): the real ``tussle``
in tmux opens a contest whose aspect is called ``Pinned [2`` (it crashed with a
MarkupError), and a campaign saved with escape codes in its names neither retitles nor
clears the terminal: the codes show written out."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, Play, StartContest
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.model import ResolveExchange, RollDice
from core.saves.store import CampaignFiles
from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import clean_env, tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

# Cynere makes "Pinned [2" with style (4 against 1: two free invokes), then both roll
# 0000 on Good (+3): a tie, and the twist "[2J".
SCENARIO = {
    "system": "fate",
    "participants": [{"name": "Cynere", "skill": 3}, {"name": "Teran", "skill": 3}],
    "exchanges": [
        {
            "advantages": [{"by": "Cynere", "aspect": "Pinned [2", "result": 4, "opposition": 1}],
            "rolls": {"Cynere": "0000", "Teran": "0000"},
            "twist": "[2J",
        }
    ],
}


def test_an_aspect_named_pinned_2_opens_on_the_dashboard_and_the_players_view(
    tmp_path: Path,
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    scenario = tmp_path / "pinned.json"
    scenario.write_text(json.dumps(SCENARIO))
    done = subprocess.run(
        [*tussle_command(), "--saves", str(saves), "resolve", str(scenario), "--record", "Names"],
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    gm, players, status = Terminal(), Terminal(), tmp_path / "status"
    try:
        gm.start([*tussle_command(), "--saves", str(saves), "open", "Names"], {}, status)
        screen = gm.wait_for("Roll keypad")
        assert "Pinned [2" in screen
        # The aspects pane (left): the aspect, and its two free invokes beside or under it.
        pane = [line[:32] for line in screen.splitlines()]  # 32 columns wide at 80x24
        at = next(i for i, line in enumerate(pane) if line.startswith("│ Pinned [2"))
        assert "◆◆" in pane[at] + pane[at + 1]
        assert "[2J" in screen  # the twist, as typed
        players.start([*tussle_command(), "--saves", str(saves), "watch", "Names"], {})
        watched = players.wait_for("following")
        assert "Pinned [2" in watched
        gm.keys("q")
        assert wait_for_file(status) == "0"  # left normally, not by a traceback
    finally:
        gm.kill()
        players.kill()


def test_escape_codes_saved_in_names_show_written_out_and_leave_the_terminal_alone(
    tmp_path: Path,
) -> None:
    """A campaign saved before names were checked: its name retitles a terminal
    (OSC 0), a character's resets it (ESC c)."""
    saves = tmp_path / "saves"
    files = CampaignFiles(saves / "evil")
    name, evil = "x\x1b]0;pwned\x07", "Evil\x1bc"
    files.create(name, "fate")  # below the checks, as an older save would be
    campaign = Campaign(name=name, system="fate")
    entries = [
        campaign.act(AddCharacter(character=Character(name=evil, ratings={"Fight": 3}))),
        campaign.act(AddCharacter(character=Character(name="Teran", ratings={"Fight": 3}))),
    ]
    picks = [
        Pick(character=evil, side=evil, rating="Fight"),
        Pick(character="Teran", side="Teran", rating="Fight"),
    ]
    contest = build_contest("fate", campaign.roster, picks)
    entries.append(campaign.act(StartContest(title="Race", contest=contest, uses={})))
    rolls = (RollDice(who=evil, faces=(1, 0, 0, 0)), RollDice(who="Teran", faces=(0, 0, 0, 0)))
    entries.append(campaign.act(Play(contest_id="c1", commands=(*rolls, ResolveExchange()))))
    files.append(entries)

    gm, players = Terminal(), Terminal()
    try:
        gm.start([*tussle_command(), "--saves", str(saves), "open", "evil"], {})
        screen = gm.wait_for("Roll keypad")
        assert "x\\x1b]0;pwned\\x07" in screen
        assert "Evil\\x1bc" in screen
        assert "Exchange 1: Evil\\x1bc wins" in screen
        players.start([*tussle_command(), "--saves", str(saves), "watch", "evil"], {})
        watched = players.wait_for("following")
        assert "Evil\\x1bc" in watched
        for terminal in (gm, players):
            title = terminal.tmux("display-message", "-p", "#{pane_title}")
            assert "pwned" not in title
    finally:
        gm.kill()
        players.kill()
