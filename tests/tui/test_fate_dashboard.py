"""The GM's evening in Fate, by key presses only, checked on the panes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Static

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.fate.character import FateCharacter
from tests.helpers import files_of, wait_for_odds
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text, write
from tui.app import TussleApp
from tui.widgets.keybar import KeyBar, pretty_key


async def test_the_seed_contest_played_with_entered_dice(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Cynere" in text(app, "#participants")
        assert "Teran the Swift" in text(app, "#participants")
        assert "Muddy Ground" in text(app, "#aspects")
        # 1: Cynere ---0 (4-3 = +1), Teran 0000 (+3): Teran wins one victory.
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        assert "Exchange 1: Teran the Swift wins, 1 victory (0–1)" in text(app, "#log")
        # 2: +000 (+5) vs -000 (+2): margin 3, style, two victories.
        await keys(pilot, "plus", "0", "0", "0", "minus", "0", "0", "0", "enter")
        assert "Exchange 2: Cynere wins with style, 2 victories (2–1)" in text(app, "#log")
        # 3: -000 (+3) vs 0000 (+3): a tie; the GM names the twist.
        await keys(pilot, "minus", "0", "0", "0", "0", "0", "0", "0", "enter")
        await write(pilot, "Magical Distortions")
        await keys(pilot, "enter")
        assert "Exchange 3: tie, twist: Magical Distortions (2–1)" in text(app, "#log")
        assert "Magical Distortions" in text(app, "#aspects")
        # 4: 0000 (+4) vs +000 (+4); Cynere pays two fate points for two invokes: +8.
        await keys(pilot, "0", "0", "0", "0", "plus", "0", "0", "0")
        await keys(pilot, "i", "c", "tab", "i", "enter")  # by Cynere, I've Got Zird's Back
        await keys(pilot, "i", "c", "tab", "m", "enter")  # by Cynere, Magical Distortions
        assert "Legendary (+8)" in text(app, "#keypad")
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "Exchange 4: Cynere wins with style, 2 victories (4–1)" in log
        assert "invokes I've Got Zird's Back (fate point): +2" in log
        assert "Cynere wins" in text(app, "#scoreboard")
        assert "Cynere  FP 1" in text(app, "#participants")  # 3 - 2 fate points


async def test_advantage_and_teamwork_in_one_exchange(saves: Path) -> None:
    # The PCs' side: Cynere +4 leads, Landon +3 and Zird +1 help (+2): +6 Fantastic.
    seed_campaign(
        saves,
        "Guardians",
        "fate",
        [
            Character(name="Cynere", ratings={"Athletics": 4}, sheet=FateCharacter(fate_points=2)),
            Character(name="Landon", ratings={"Athletics": 3}),
            Character(name="Zird", ratings={"Athletics": 1}),
            Character(name="Guardian", kind="npc", ratings={"Athletics": 3}),
        ],
        [
            Pick(character="Cynere", side="PCs", rating="Athletics"),
            Pick(character="Landon", side="PCs", rating="Athletics"),
            Pick(character="Zird", side="PCs", rating="Athletics"),
            Pick(character="Guardian", side="Guardian", rating="Athletics"),
        ],
    )
    app = new_app(saves, "Guardians")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "PCs rolls Fantastic (+6)" in text(app, "#participants")
        # Zird, a helper, tries to create "Arcane Ward" and fails (1 vs 2): under Core
        # the side keeps its roll but loses his +1.
        await keys(pilot, "a", "z", "tab")
        await write(pilot, "Arcane Ward")
        await keys(pilot, "tab", "tab")
        await write(pilot, "1")
        await keys(pilot, "tab")
        await write(pilot, "2")
        await keys(pilot, "enter")
        assert "Advantage: Zird creates Arcane Ward" in text(app, "#keypad")
        # PCs roll 0000: 4 + 1 (Landon) + 0 = +5; the Guardian rolls +000: 3 + 1 = +4.
        await keys(pilot, "0", "0", "0", "0", "plus", "0", "0", "0")
        assert "Superb (+5)" in text(app, "#keypad")
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "Exchange 1: PCs wins, 1 victory (1–0)" in log
        assert "Zird creates Arcane Ward: +1 vs +2, fail (0 free invokes)" in log
        assert "PCs: 0000 → Superb (+5)" in log
        assert "Arcane Ward" not in text(app, "#aspects")  # a failed advantage makes none


async def test_undo_and_redo_also_after_a_restart(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        assert "Exchange 1" in text(app, "#log")
        await keys(pilot, "u")
        assert "Exchange 1" not in text(app, "#log")
        assert "Teran the Swift  ○○○ 0" in text(app, "#scoreboard")
        # The undone exchange's dice are back on the keypad, ready to be corrected.
        assert "[-][-][-][0]" in text(app, "#keypad")
        await keys(pilot, "escape", "U")
        assert "Exchange 1: Teran the Swift wins, 1 victory (0–1)" in text(app, "#log")
        await keys(pilot, "q")
    # A new process on the same saves: the exchange is there, and undo still works.
    again = new_app(saves)
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Exchange 1: Teran the Swift wins" in text(again, "#log")
        await keys(pilot, "u")
        assert "Exchange 1" not in text(again, "#log")
        await keys(pilot, "U")
        assert "Exchange 1: Teran the Swift wins" in text(again, "#log")


def shown_actions(app: TussleApp) -> list[str]:
    """The descriptions on the key bar, read from the screen (wide enough for all)."""
    bar = app.screen.query_one(KeyBar)
    shown = str(bar.visual)
    pairs = bar.keys()
    assert pairs and all(f"{pretty_key(k)} {d}" in shown for k, d in pairs), shown
    return [d for k, d in pairs if k != "^p"]  # the palette itself


async def test_every_shown_action_is_in_the_command_palette(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(250, 40)) as pilot:
        await settle(pilot)
        # Every action the contest screen shows, and then the roster's, is in the palette.
        for screen_key in ("", "w"):
            if screen_key:
                await keys(pilot, screen_key)
            titles = [c.title for c in app.get_system_commands(app.screen)]
            shown = shown_actions(app)
            assert len(shown) >= 5, shown
            assert [d for d in shown if d not in titles] == [], type(app.screen).__name__
        await keys(pilot, "escape")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        # Fate's actions are there; HeroQuest's and FORGE's are not.
        assert not {"Hero pt", "Augment", "Roles", "Dodge/absorb"} & set(titles)
        assert titles.count("Quit") == 1
        # The palette's Undo is the screen's undo: it takes back the exchange just played.
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
        assert "Exchange 1" in text(app, "#log")
        undo = next(c for c in app.get_system_commands(app.screen) if c.title == "Undo")
        result = undo.callback()
        if result is not None:
            await result
        await settle(pilot)
        assert "Exchange 1" not in text(app, "#log")


async def test_a_rule_error_is_shown_and_changes_nothing(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        record = app.campaign.latest_contest
        assert record is not None
        # Teran has no fate points: an invoke he pays himself is refused, and the form
        # stays open saying so under "Paid with" (the form offers an NPC the GM's pool,
        # its default for him: "a" picks "a fate point" there, the fourth field).
        await keys(pilot, "0", "0", "0", "0", "0", "0", "0", "0")
        # The backup made as the campaign opened (half a second in, when no command came
        # first: core/bus.py) is not this test's change: the files are read once it is
        # there (keys typed fast came before it, and it landed after the first read).
        for _ in range(3000):  # up to 30 s and more on a busy machine
            if list(saves.glob(".backups/*/*/backup.json")):
                break
            await asyncio.sleep(0.01)
        await settle(pilot)
        entries, state, on_disk = app.campaign.entries, record.state, files_of(saves)
        await keys(pilot, "i", "t", "tab", "tab", "tab", "a", "enter")
        refusal = str(app.screen.query_one("#e-how", Static).visual)
        assert "Teran the Swift has no fate points left (the GM's pool has 1" in refusal
        assert "Invoke:" not in text(app, "#keypad")
        # Nothing changed: no log entry, the contest as it was, the files as they were.
        assert app.campaign.entries == entries
        assert app.campaign.latest_contest is record and record.state == state
        assert files_of(saves) == on_disk
        # And the exchange goes on without the refused invoke: Cynere Athletics +4 and
        # 0000 against Teran Lore +3 and 0000 (no +2 for him): Cynere by 1, one victory.
        await keys(pilot, "escape", "enter")
        assert "Exchange 1: Cynere wins, 1 victory (1–0)" in text(app, "#log")


async def test_the_odds_follow_the_dice_typed_and_d_hides_them(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await wait_for_odds(pilot)
        assert "contest" in text(app, "#scoreboard")
        # Cynere's dice typed: 0000, total +4. Teran (+3) must roll +1 or more to beat
        # her: P(sum >= +1) = 31/81 (rules §1.2), a tie needs exactly +1... so Cynere
        # wins when Teran's dice sum to 0 or less: 50/81 = 62%.
        await keys(pilot, "0", "0", "0", "0")
        await wait_for_odds(pilot)
        cynere = next(line for line in text(app, "#scoreboard").splitlines() if "Cynere" in line)
        assert "next  62%" in cynere
        await keys(pilot, "d")
        assert "next" not in text(app, "#scoreboard")
        await keys(pilot, "d")
        await wait_for_odds(pilot)
        assert "next" in text(app, "#scoreboard")


def test_pips_turn_into_a_count_for_long_contests() -> None:
    from tui.systems.common import pips

    assert pips(2, 3) == "●●○"
    assert pips(4, 3) == "●●●●"  # overshoot shows (the seed ends 4-1 of 3)
    assert pips(7, 1_000_000) == "7/1000000"
