"""Text typed in one burst is none of a screen's letter keys, on every screen that has
them (the contest screen's own test: tests/tui/test_contest_at_the_table.py, item 20).

A GM typing a name fast for a prompt that did not open (or pasting text) while the
roster, a setup or the campaign list shows must not start a session, remove a
participant or delete a campaign, letter by letter: the first letter may be a key (it
may open the prompt the rest is for), the rest are left aside and a toast says so.
"""

from __future__ import annotations

from pathlib import Path

from textual.events import Key
from textual.pilot import Pilot
from textual.widgets import OptionList

from tests.tui.conftest import keys, new_app, settle
from tui.app import TussleApp
from tui.screens.campaigns import CampaignScreen
from tui.screens.contest import ContestScreen
from tui.screens.roster import RosterScreen
from tui.screens.setup import SetupScreen


async def at_once(pilot: Pilot[None], *names: str) -> None:
    """Every key in the app's queue before it handles the first (a burst), then wait."""
    for name in names:
        pilot.app.post_message(Key(name, " " if name == "space" else name))
    await settle(pilot)


async def odds_shown(pilot: Pilot[None]) -> None:
    """Wait for the contest screen's first odds (leaving it while its odds worker runs
    is a problem of its own, not tested here). The odds are its painter's: looked for on
    the screen itself, they were never there, and every wait ran its 30 s out."""
    await settle(pilot)
    app = pilot.app
    for _ in range(3000):  # generous: the first odds come 0.3 s after the first frame
        await pilot.pause(0.01)
        screen = app.screen
        idle = all(w.is_finished for w in app.workers if w.group == "odds")
        if isinstance(screen, ContestScreen) and screen.painter.odds is not None and idle:
            return
    raise AssertionError(f"no odds on the contest screen after 30 s: {app.screen_stack}")


def left_aside(app: TussleApp, typed: str) -> bool:
    return any(f'"{typed}" was typed with no prompt' in str(n.message) for n in app.told)


async def test_text_typed_on_the_roster_starts_no_session_and_opens_no_setup(
    saves: Path,
) -> None:
    """Typing "oSn" in one burst on the roster: o is no key there; S (start a session) and n (a
    new contest's setup) are letters of text, not keys."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_shown(pilot)
        await keys(pilot, "w")
        assert isinstance(app.screen, RosterScreen)
        sessions = app.campaign.settings.get("sessions")
        await at_once(pilot, "o", "S", "n")
        assert isinstance(app.screen, RosterScreen), app.screen_stack
        assert app.campaign.settings.get("sessions") == sessions
        assert left_aside(app, "oSn"), [n.message for n in app.told]
        await keys(pilot, "n")  # typed alone, a key again
        assert isinstance(app.screen, SetupScreen)


async def test_text_typed_on_a_setup_removes_nobody(saves: Path) -> None:
    """Typing "xdog" in one burst on a setup with Cynere added (a, then Enter on the form's
    first choices): d (remove), o (options) and g (start) are letters of text, not keys."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_shown(pilot)
        await keys(pilot, "n")
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        await keys(pilot, "a", "enter")
        picks = [p.character for p in screen.picks]
        assert picks == ["Cynere"]
        await at_once(pilot, "x", "d", "o", "g")
        assert app.screen is screen, app.screen_stack
        assert [p.character for p in screen.picks] == picks
        assert left_aside(app, "xdog"), [n.message for n in app.told]


async def test_text_typed_on_the_campaigns_deletes_nothing(saves: Path) -> None:
    """Typing "xdraw" in one burst on the campaign list: d (delete), r (rename), a (archive)
    and w (roster) are letters of text, not keys: no form opens, the list stays."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_shown(pilot)
        await keys(pilot, "c")
        screen = app.screen
        assert isinstance(screen, CampaignScreen)
        await at_once(pilot, "x", "d", "r", "a", "w")
        assert app.screen is screen, app.screen_stack
        assert left_aside(app, "xdraw"), [n.message for n in app.told]


async def test_text_typed_on_a_summary_opens_nothing(saves: Path) -> None:
    """The FORGE demo ended at once (e on an empty keypad), its summary shown (Enter):
    typing "xnw" in one burst there, n (the next contest) and w (the roster) are letters
    of text, not keys: the summary stays."""
    from tui.screens.summary import SummaryScreen

    app = new_app(saves, campaign="FORGE demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_shown(pilot)
        await keys(pilot, "e")
        await settle(pilot)
        await keys(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, SummaryScreen), app.screen_stack
        await at_once(pilot, "x", "n", "w")
        assert app.screen is screen, app.screen_stack
        assert left_aside(app, "xnw"), [n.message for n in app.told]


async def test_a_command_typed_fast_in_the_palette_is_found_and_run(saves: Path) -> None:
    """The command palette over the roster: "Campaigns" typed in one burst is its search,
    not keys of the roster under it. The guard asked every binding for the palette's list
    and refused them all while the text came: "No matches found", and Enter did nothing
    (tests/e2e/test_no_dead_ends_in_tmux.py found it)."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_shown(pilot)
        await keys(pilot, "w")
        assert isinstance(app.screen, RosterScreen)
        await keys(pilot, "ctrl+p")
        await at_once(pilot, *"Campaigns")
        found = 0
        for _ in range(3000):  # generous: the palette searches in a worker
            await pilot.pause(0.01)
            found = sum(o.option_count for o in app.screen.query(OptionList))
            if found:
                break
        assert found, "the palette found no command"  # "No matches found" before
        await keys(pilot, "enter")
        for _ in range(3000):
            if isinstance(app.screen, CampaignScreen):
                break
            await pilot.pause(0.01)
        assert isinstance(app.screen, CampaignScreen), app.screen_stack
        assert not left_aside(app, "Campaigns")


async def test_keys_that_each_change_the_screen_are_keys_not_text(saves: Path) -> None:
    """Keys arriving while the one before is in hand (typed fast, or one by one on a loaded
    machine) but each changing the screen are keys for the screen they find: w (the
    roster) then c (the campaigns) then z. The guard took "wcz" for text and left c
    aside; on a CI machine "S", "w", "q" sent one by one left q aside, and the dashboard
    never quit (tests/e2e/test_coin_luck_in_tmux.py)."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_shown(pilot)
        await at_once(pilot, "w", "c", "z")
        assert isinstance(app.screen, CampaignScreen), app.screen_stack
        assert not any("was typed with no prompt" in str(n.message) for n in app.told)
