"""Pilot helpers: a real app on a temporary saves folder, waited on properly."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual import events
from textual.keys import REPLACED_KEYS, key_to_character
from textual.pilot import Pilot
from textual.widgets import DataTable, Log, Static

from core.campaign.log import Character, Play
from core.campaign.sheet import Pick
from core.cli.demo import create_campaign, create_demos
from core.dice import RandomDice
from core.model import ResolveExchange, RollDice
from core.saves.store import CampaignFiles, Saves
from core.systems.forge.character import ForgeCharacter
from tests.conflict_campaigns import CYNERE, DRISBAN
from tests.helpers import fate_dice
from tui.app import TussleApp, make_app
from tui.config import character_key
from tui.watch import WatchApp
from tui.widgets.exchange_log import ExchangeLog


def new_app(saves: Path, campaign: str | None = None, system: str | None = None) -> TussleApp:
    return make_app(saves, campaign=campaign, system=system, dice=RandomDice(7))


def demo_app(saves: Path, campaign: str) -> TussleApp:
    """The app on ``campaign``, one of the three demos, made in ``saves`` first."""
    create_demos(Saves(saves))
    return new_app(saves, campaign=campaign)


# A form, a question or the summary over a screen has a see-through background: Textual
# draws the screen under it again, dimmed, for every key typed into the form (issue 25:
# most of what a test that types into forms costs). A test that reads widgets' text, never
# the picture, may give those screens a solid background in its own app.
OPAQUE_MODALS = "ModalScreen { background: $background; }"


def opaque_modals(app: TussleApp) -> TussleApp:
    """``app`` (not yet started) with solid forms and questions: nothing is drawn under
    them. Not for a test that reads the frame (tests/tui/screen_text.py, snapshots)."""
    app.CSS = OPAQUE_MODALS
    return app


# A wait ends when what it waits for has happened, on a quiet machine or a busy one
# (issue 25): this limit only turns a hang into a failure, far past any real wait.
SETTLE_TIMEOUT = 300.0


async def settle(pilot: Pilot[None]) -> None:
    """Wait until the app is done with every key typed (``keys_handled``: each key's
    effects, a form opened, a command through the bus), the bus has handled every
    command, and the screens have handled what that sent them (a round of Pilot's
    ``call_later`` on every node).

    Not Pilot's ``pause()`` alone: its wait for idle reads the process's CPU time, and a
    process waiting for a core on a loaded machine uses none, so it looks idle while
    keys typed fast are still waiting their turn (tui/keys_in_order.py)."""
    async with asyncio.timeout(SETTLE_TIMEOUT):
        await pilot.pause()  # the keys posted so far reach the app (in hand, or held)
    await _settle_keys_arrived(pilot)


async def _settle_keys_arrived(pilot: Pilot[None]) -> None:
    """:func:`settle` once every key typed has reached the app (as :func:`keys` knows):
    without its first pause, a fifth of what a key costs a test."""
    app = pilot.app
    assert isinstance(app, TussleApp)
    async with asyncio.timeout(SETTLE_TIMEOUT):
        await app.keys_handled()
        if app.bus is not None:
            await app.bus.drain()
        await pilot.pause()
        await pilot.pause()


async def odds_done(pilot: Pilot[None]) -> None:
    """The odds are worked out in a worker (a conflict's exactly, which takes seconds):
    wait until it is done (up to a minute and more), then :func:`settle`."""
    for _ in range(3000):
        await pilot.pause(0.02)
        if all(w.is_finished for w in pilot.app.workers if w.group == "odds"):
            break
    await settle(pilot)


async def recap_written(app: TussleApp) -> None:
    """Wait until the recap ``M`` started (in a thread of its own) is written."""
    for worker in [w for w in app.workers if w.group == "recap"]:
        await worker.wait()


def key_event(key: str) -> events.Key:
    """The event a terminal sends for ``key`` (a name like "tab", or a character), as
    ``Pilot.press`` makes it."""
    if len(key) == 1 and not key.isalnum():
        key = character_key(key)
    char = key_to_character(REPLACED_KEYS.get(key, key))
    return events.Key(key, char if char is not None or len(key) != 1 else key)


async def keys(pilot: Pilot[None], *presses: str) -> None:
    """Press ``presses`` one after the other, each once the app is done with the one
    before (:meth:`TussleApp.keys_handled`), as a GM at the keyboard does; then
    :func:`settle`. Letters sent together would be a burst of text, which the app does
    not take as keys (tui/keys_in_order.py, TEXT_RUN): :func:`write` types text so.

    Not ``Pilot.press``: it waits for the process to look idle after every key and walks
    every widget of the screen twice, some four times the CPU of the app's own handling
    of the key (issue 25, measured on 40 letters typed into a form: 1.95 CPU-s against
    0.48), and a wait for idle reads the CPU time, wrong on a busy machine."""
    app = pilot.app
    assert isinstance(app, TussleApp)
    for key in presses:
        app.post_message(key_event(key))
        async with asyncio.timeout(SETTLE_TIMEOUT):
            arrived = asyncio.Event()  # the app has the key in hand (queued behind it)
            if app.call_later(arrived.set):
                await arrived.wait()
            await app.keys_handled()
    await _settle_keys_arrived(pilot)


async def write(pilot: Pilot[None], words: str) -> None:
    """Type ``words`` into the focused input, fast: all its keys at once, handled in
    order by the app (tui/keys_in_order.py), as tmux's send-keys or a quick typist
    sends them; then :func:`settle`."""
    for char in words:
        pilot.app.post_message(key_event("space" if char == " " else char))
    await settle(pilot)


def text(app: TussleApp, selector: str) -> str:
    """A pane's text as shown (markup stripped), on the top screen that has it."""
    screen = next(s for s in reversed(app.screen_stack) if s.query(selector))
    widget = screen.query_one(selector)
    if isinstance(widget, ExchangeLog):
        return "\n".join(widget.raw)  # as written, before wrapping to the pane's width
    if isinstance(widget, Log):
        return "\n".join(widget.lines)
    statics = [widget] if isinstance(widget, Static) else list(widget.query(Static))
    return "\n".join(str(s.visual) for s in statics if s.visual is not None)


def seed_campaign(
    saves: Path,
    name: str,
    system: str,
    characters: list[Character],
    picks: list[Pick],
    options: dict[str, object] | None = None,
    aspects: tuple[str, ...] = (),
) -> None:
    """A saved campaign with a roster and one contest ready to play."""
    create_campaign(
        Saves(saves), name, system, characters, f"{name} contest", picks, options, aspects
    )


# -- the players' view (tests/tui/test_watch_layout.py, test_watch_small.py) -----------------

# Cynere (Athletics +4) rolls ++0- (+1): Superb (+5); Teran (Lore +3) 0000: Good (+3).
# Cynere wins by 2: one victory each time, so after three she has won the race (3-0).
CYNERE_WINS = (
    RollDice(who="Cynere", faces=fate_dice("++0-")),
    RollDice(who="Teran the Swift", faces=fate_dice("0000")),
    ResolveExchange(),
)


def warehouse_contest(saves: Path) -> str:
    """Cynere (Athletics) against Drisban (Fight) in a Fate contest, not yet a conflict;
    the campaign's name."""
    seed_campaign(
        saves,
        "Warehouse",
        "fate",
        [CYNERE, DRISBAN],
        [
            Pick(character="Cynere", side="Cynere", rating="Athletics"),
            Pick(character="Drisban", side="Drisban", rating="Fight"),
        ],
    )
    return "Warehouse"


def rolls_column(app: TussleApp) -> dict[str, str]:
    """The setup's Rolls column, by character."""
    table = app.screen.query_one(DataTable)
    rows = [table.get_row_at(i) for i in range(table.row_count)]
    return {str(row[0]): str(row[2]) for row in rows}


def fate_demo(saves: Path, exchanges: int) -> Path:
    create_demos(Saves(saves))
    files = CampaignFiles(saves / "fate-demo")
    for _ in range(exchanges):
        campaign = files.load()
        files.append([campaign.decide(Play(contest_id="c1", commands=CYNERE_WINS))])
    return files.folder


async def steady(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, WatchApp)
    await pilot.pause()
    app.updated = "12:00:00"  # the clock would change the picture every run
    app.paint()
    await pilot.pause()
    await pilot.pause()


def forge_alley(saves: Path) -> TussleApp:
    """Josef (Brawling 50, ×4) against Bobby (Brawling 40, Trauma pool 20, 5 taken:
    Current Trauma 15), in combat."""
    seed_campaign(
        saves,
        "Alley",
        "forge",
        [
            Character(name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4)),
            Character(
                name="Bobby",
                kind="npc",
                ratings={"Brawling": 40},
                sheet=ForgeCharacter(trauma_pool=20, trauma=5),
            ),
        ],
        [
            Pick(character="Josef", side="Josef", rating="Brawling"),
            Pick(character="Bobby", side="Bobby", rating="Brawling"),
        ],
        {"combat": True},
    )
    return new_app(saves, "Alley")
