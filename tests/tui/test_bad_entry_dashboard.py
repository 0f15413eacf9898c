"""The dashboard and the players' view open a campaign whose log has an entry that does not
load (issue 23 item 3): as it stood before that entry, saying which, why and what to do.

The seed campaign (tests/helpers.py ``seed``): entries 0 and 1 add Cynere and Teran, 2
starts the race c1, 3 and 4 are its exchanges, 5 undoes the second, 6 redoes it. Entry 2
is made to need 0 victories, as the GM of the story typed.
"""

from __future__ import annotations

import json
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import OptionList

from core.campaign.log import AddCharacter, Character
from core.saves.store import CampaignFiles, Saves
from tests.helpers import act, files_of, seed
from tests.tui.conftest import keys, new_app, settle
from tui.app import TussleApp
from tui.screens.contest import ContestScreen
from tui.watch import WatchApp


def toasts(app: TussleApp) -> list[str]:
    return [str(n.message) for n in app.told]


def spoil_the_race(files: CampaignFiles) -> None:
    data = json.loads(files.segment_path(0).read_text())
    entry = data["entries"]["3"]["entry"]  # log entry 2
    entry["events"][0]["contest"]["options"]["victories_needed"] = 0
    files.segment_path(0).write_text(json.dumps(data))


async def test_the_dashboard_opens_before_the_bad_entry_sets_it_aside_and_says_so(
    saves: Path,
) -> None:
    files, _ = seed(saves)
    spoil_the_race(files)
    app = new_app(saves, "Seed")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.files is not None and app.campaign.entries == 2
        assert list(app.campaign.roster) == ["Cynere", "Teran"] and not app.campaign.contests
        said = [t for t in toasts(app) if "Log entry 2 does not load" in t]
        assert len(said) == 1
        assert "victories_needed: must be at least 1, got 0" in said[0]
        assert "set aside" in said[0] and "tussle check seed --repair" in said[0]
    (kept,) = (files.folder / "set-aside").iterdir()
    assert json.loads(kept.read_text())["from"] == 2
    assert CampaignFiles(files.folder).load().entries == 2  # and it opens clean now


async def test_esc_takes_the_toast_off_the_exchange_log(saves: Path) -> None:
    """At 80x24 the damaged entry's toast (30 s) covers the exchange log: Esc on the empty
    keypad takes it away, no mouse needed; Esc again says the keypad has nothing to clear.
    (Found in tmux: the e2e test waited 30 s for the toast to go.)"""
    files, _ = seed(saves)
    data = json.loads(files.segment_path(0).read_text())
    data["entries"]["5"]["entry"]["@"] = "ActionForeseen"  # log entry 4: an exchange
    files.segment_path(0).write_text(json.dumps(data))
    app = new_app(saves, "Seed")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:  # toasts drawn
        await settle(pilot)
        assert isinstance(app.screen, ContestScreen), app.screen
        assert app.screen.query("Toast"), "the damaged entry's toast is up"
        await keys(pilot, "escape")
        assert not app.screen.query("Toast") and not app.told
        await keys(pilot, "escape")
        assert [n.title for n in app.told] == ["Nothing to clear"]


async def test_the_campaign_list_says_what_is_set_aside_and_how_to_bring_it_back(
    saves: Path,
) -> None:
    files, _ = seed(saves)
    spoil_the_race(files)
    opened = CampaignFiles(files.folder)
    opened.lock.acquire("Seed")
    opened.load()  # as the dashboard or --record would: entries 2 to 6 set aside
    opened.lock.release()
    app = new_app(saves, "Seed")
    async with app.run_test(size=(120, 24)) as pilot:
        await settle(pilot)
        for _ in range(3000):  # up to 30 s: the contest screen's first odds, then leave it
            if all(w.is_finished for w in app.workers if w.group == "odds"):
                break
            await pilot.pause(0.01)
        await pilot.press("c")
        await settle(pilot)
        listing = app.screen.query_one(OptionList)
        lines = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        (seed_line,) = [line for line in lines if line.startswith("Seed")]
        assert "2 actions" in seed_line
        assert "5 set aside (tussle check seed --repair)" in seed_line


async def test_a_damaged_snapshot_is_said_and_the_log_replayed(saves: Path) -> None:
    files = Saves(saves).create("Crowd", "fate")
    campaign = files.load()
    files.lock.acquire("Crowd")
    for n in range(210):  # past 200: the next opening writes a snapshot
        act(campaign, files, AddCharacter(character=Character(name=f"C{n:03d}")))
    files.load()
    files.lock.release()
    head = files.folder / "snapshot" / "state.json"
    head.write_text(head.read_text()[:-20])  # cut short
    app = new_app(saves, "Crowd")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert len(app.campaign.roster) == 210
        said = [t for t in toasts(app) if str(head) in t]
        assert len(said) == 1 and "read from its log instead" in said[0]
    json.loads(head.read_text())  # written again, whole


async def test_the_players_view_shows_the_campaign_up_to_the_bad_entry_and_says_so(
    saves: Path,
) -> None:
    files, _ = seed(saves)
    data = json.loads(files.segment_path(0).read_text())
    data["entries"]["7"]["entry"]["@"] = "ActionForeseen"  # the redo, in a newer format
    files.segment_path(0).write_text(json.dumps(data))
    before = files_of(files.folder)
    app = WatchApp(files.folder)
    async with app.run_test(size=(80, 24)) as pilot:
        app.poll()
        await pilot.pause()
        await wait_for_status(pilot, app, "Log entry 6 does not load")
        # Up to the undo: the race with its first exchange only (Cynere's).
        assert "Exchange 1: Cynere wins" in str(app.query_one("#last").visual)
        assert "Exchange 2" not in str(app.query_one("#last").visual)
    assert files_of(files.folder) == before  # the players' view writes nothing


async def wait_for_status(pilot: Pilot[None], app: WatchApp, text: str) -> None:
    for _ in range(300):  # up to 30 s
        if text in str(app.query_one("#status").visual):
            return
        await pilot.pause(0.1)
    raise AssertionError(f"{text!r} not in {app.query_one('#status').visual}")
