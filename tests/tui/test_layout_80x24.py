"""At 80x24 nothing a GM needs is hidden without a sign (issue 11, defect 8).

Each test reads the frame as drawn (``screen_text``), not what a widget holds: a line
can be in a widget and still be off the edge of the terminal.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.files.disk import CampaignLocked
from core.saves.store import CampaignFiles
from core.systems.forge.character import ForgeCharacter
from tests.helpers import HOLD_DEMO, wait_for_odds
from tests.tui.conftest import keys, new_app, seed_campaign, settle, write
from tests.tui.screen_text import screen_text
from tui.widgets.exchange_log import ExchangeLog
from tui.widgets.keybar import fit
from tui.widgets.lines import Hanging, break_offsets
from tui.widgets.panes import AspectsPane, ParticipantsPane, out_of_sight

BOX = str.maketrans({c: " " for c in "│╭╮╰╯─▊▎▔▁▌"})


def reads(screen: list[str], phrase: str) -> bool:
    """Whether ``phrase`` can be read on ``screen``, across line breaks and borders."""
    flat = " ".join(" ".join(screen).translate(BOX).split())
    return " ".join(phrase.split()) in flat


async def advantage(pilot: Pilot[None], aspect: str, total: str, opposition: str) -> None:
    """Cynere creates ``aspect`` with the form the ``a`` key opens."""
    await keys(pilot, "a", "tab")
    await write(pilot, aspect)
    await keys(pilot, "tab", "tab")
    await write(pilot, total)
    await keys(pilot, "tab")
    await write(pilot, opposition)
    await keys(pilot, "enter")


async def test_the_aspects_pane_says_what_it_hides_and_scrolls_to_sure_footing(
    saves: Path,
) -> None:
    """The report: Sure Footing, with a free invoke left, vanished under two pending
    keypad lines. Now the pane's border says how many lines are below, and ] shows them."""
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # +6 against +2 succeeds with style (rules §1.4): Sure Footing with two free
        # invokes for Cynere. Her +000 (+5) beats Teran's 0000 (+3).
        await advantage(pilot, "Sure Footing", "6", "2")
        await keys(pilot, "plus", "0", "0", "0", "0", "0", "0", "0", "enter")
        await advantage(pilot, "Slick Mud", "3", "2")
        await advantage(pilot, "Cheer", "3", "2")
        screen = screen_text(app)
        assert reads(screen, "Advantage: Cynere creates Cheer")  # two pending lines
        pane = app.screen.query_one(AspectsPane)
        # Four aspect lines (Muddy Ground, I've Got Zird's Back, Cynere's, Sure Footing
        # with its free invokes: "Sure Footing ◆◆ Cynere" fits one line) in a pane that
        # shows three: one more, and the key to it.
        assert pane.border_subtitle == "▼ 1 more · ] scrolls"
        assert "◆◆" not in "\n".join(screen)
        await keys(pilot, "right_square_bracket")
        screen = screen_text(app)
        assert reads(screen, "Sure Footing")
        assert "◆◆ Cynere" in "\n".join(screen)
        assert pane.border_subtitle == "▲ 1 above · [ scrolls"
        await keys(pilot, "left_square_bracket")
        assert pane.border_subtitle == "▼ 1 more · ] scrolls"


async def test_forge_participants_show_the_last_fighters_damage_and_trauma(
    saves: Path,
) -> None:
    """Four fighters' lines do not fit the pane at 80x24: the last one (Bandit, ×1,
    trauma 4 from earlier) is reached with ], and the pane said so beforehand."""
    fighters = [
        Character(name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4)),
        Character(
            name="Bobby",
            kind="npc",
            ratings={"Brawling": 40},
            sheet=ForgeCharacter(multiplier=5, armor=10),
        ),
        Character(name="Ash", ratings={"Knife": 45}, sheet=ForgeCharacter(multiplier=3, armor=5)),
        Character(
            name="Bandit",
            kind="npc",
            ratings={"Club": 35},
            sheet=ForgeCharacter(multiplier=1, trauma=4),
        ),
    ]
    picks = [
        Pick(character="Josef", side="Crew", rating="Brawling"),
        Pick(character="Ash", side="Crew", rating="Knife"),
        Pick(character="Bobby", side="Gang", rating="Brawling"),
        Pick(character="Bandit", side="Gang", rating="Club"),
    ]
    seed_campaign(saves, "Brawl", "forge", fighters, picks, {"combat": True})
    app = new_app(saves, "Brawl")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(ParticipantsPane)
        subtitle = str(pane.border_subtitle)
        assert re.fullmatch(r"▼ \d+ more · \] scrolls", subtitle), subtitle
        assert "Bandit" not in "\n".join(screen_text(app))
        for _ in range(5):
            if "▼" not in str(pane.border_subtitle):
                break
            await keys(pilot, "right_square_bracket")
        screen = "\n".join(screen_text(app))
        assert "Bandit" in screen
        bandit = re.search(r"×1 damage · trauma (\d+)", screen)
        assert bandit is not None, screen
        assert "▼" not in str(pane.border_subtitle)


async def test_the_lock_message_is_shown_whole(saves: Path) -> None:
    """A second dashboard on a held campaign says who holds it, and since when: all of
    it, wrapped in the dialog, not cut at its edge."""
    first = new_app(saves)
    async with first.run_test(size=(80, 24)) as pilot:  # makes the demos
        await settle(pilot)
        await keys(pilot, "q")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_DEMO, str(saves / "fate-demo")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(CampaignLocked) as held:
            CampaignFiles(saves / "fate-demo").lock.acquire("Fate demo")
        message = str(held.value)
        assert f"pid {holder.pid}" in message and "since" in message
        app = new_app(saves, "Fate demo")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert reads(screen_text(app), message), message
    finally:
        holder.kill()
        holder.wait()


async def test_the_summary_footer_fits_80_columns(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # ++++ (+8) against ---- (-1): style each time, 2 victories: over after two.
        for _ in range(2):
            await keys(pilot, *["plus"] * 4, *["minus"] * 4, "enter")
        await keys(pilot, "enter")
        bar = screen_text(app)[-1]
        assert "Esc Back" in bar and "Esc Back to the" not in bar  # a word, not a cut
        assert bar.endswith("^p palette")  # the last key is there: nothing ran off


async def test_help_lines_wrap_under_their_description_never_to_column_0(
    saves: Path,
) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "question_mark")
        screen = screen_text(app)
        top = next(line for line in screen if "─ Help ─" in line)
        left = top.index("╭") + 2  # the border, then a column of padding
        right = top.index("╮", top.index("─ Help ─")) - 1
        inner = [line[left:right] for line in screen if len(line) > right and line[left - 2] == "│"]
        headings = {"Keys", "Roll keypad", "This screen", "Esc closes this help."}
        at_zero = [x.rstrip(" │▇▆▅▄▃▂▁") for x in inner if x.strip() and not x.startswith(" ")]
        assert set(at_zero) <= headings, at_zero
        # "+ or =, -, 0" explains itself in more than 60 columns: its second line starts
        # under the description (2 + 16 + 1 = column 19), not under the key.
        first = next(i for i, x in enumerate(inner) if x.startswith("  + or =, -, 0"))
        assert inner[first][19] != " " and inner[first + 1][:19].strip() == ""
        assert inner[first + 1][19] != " "


async def test_the_log_says_how_much_is_above_and_pgup_reaches_it(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Five ties, Cynere's -000 (+3) against Teran's 0000 (+3), each with its twist:
        # three lines each, 15: the log shows 12 at 80x24, 3 are above.
        for twist in ("Fog", "Mud", "Ice", "Rain", "Dust"):
            await keys(pilot, "minus", *["0"] * 7, "enter")
            await write(pilot, twist)
            await keys(pilot, "enter")
        log = app.screen.query_one(ExchangeLog)
        subtitle = str(log.border_subtitle)
        assert subtitle == "▲ 3 above · PgUp scrolls", "\n".join(screen_text(app))
        await keys(pilot, "pageup", "pageup", "pageup")
        assert "Exchange 1:" in "\n".join(screen_text(app))
        assert str(log.border_subtitle).startswith("▼")


async def test_while_correcting_the_odds_do_not_pretend(saves: Path) -> None:
    """The keypad holds exchange 1's dice while it is corrected: odds worked from them
    are the old exchange's, not the coming one's, so none are shown."""
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *["plus"] * 4, *["minus"] * 4, "enter")
        await wait_for_odds(pilot)
        await keys(pilot, "C", "enter")  # exchange 1 (the default): its dice come back
        await wait_for_odds(pilot)
        board = "\n".join(screen_text(app)[:4])
        assert "100%" not in board and "next" not in board
        assert "no odds while exchange 1 is being corrected" in board
        await keys(pilot, "escape")  # left as it was: the coming exchange's odds return
        await wait_for_odds(pilot)
        assert "next" in "\n".join(screen_text(app)[:4])


# -- the pieces, worked by hand ---------------------------------------------------------------


def test_a_pane_names_what_is_out_of_sight_and_the_keys() -> None:
    assert out_of_sight(0, 0, "]", "[") == ""
    assert out_of_sight(0, 2, "]", "[") == "▼ 2 more · ] scrolls"
    assert out_of_sight(3, 0, "]", "[") == "▲ 3 above · [ scrolls"
    assert out_of_sight(3, 2, "PgDn", "PgUp") == "▲ 3 ▼ 2 · PgUp PgDn scroll"


def test_a_long_line_wraps_under_its_own_indent() -> None:
    line = "  Exchange 3: tie, twist: Magical Distortions (2–1)"
    # 20 columns: "  Exchange 3: tie," (18), then each piece indented 4 (2 + 2) in 20.
    lines = [c.plain for c in Hanging([line]).wrapped(20)]
    assert lines == ["  Exchange 3: tie,", "    twist: Magical", "    Distortions", "    (2–1)"]
    assert all(len(x) <= 20 for x in lines)
    # A word longer than the room left is cut mid-word rather than run off the edge.
    assert break_offsets("abcdefghij", 4, 2) == [4, 6, 8]


def test_the_key_bar_shortens_then_drops_but_keeps_help_and_the_palette() -> None:
    keys = [("?", "Key help"), ("n", "Next contest"), ("Esc", "Back to the contest")]
    keys.append(("^p", "palette"))
    full = "? Key help  n Next contest  Esc Back to the contest  ^p palette"
    assert fit(keys, len(full)) == keys
    # One column short: the longest description goes to its first word, no further.
    assert fit(keys, len(full) - 1) == [*keys[:2], ("Esc", "Back"), keys[3]]
    # "? Help  n Next  Esc Back  ^p palette" is 36: at 30, Esc Back gives way.
    assert fit(keys, 30) == [("?", "Help"), ("n", "Next"), ("^p", "palette")]


async def test_the_odds_start_in_one_column_whatever_the_scores(saves: Path) -> None:
    """FORGE's "1 stage" and "0 stages" differ in length: the odds beside them still
    line up, so a glance down the column compares the sides."""
    app = new_app(saves, "FORGE demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "3", "5", "5", "5", "enter")  # 35 hits (50), 55 misses (40)
        await wait_for_odds(pilot)
        board = screen_text(app)[1:3]
        assert "1 stage " in board[0] and "0 stages" in board[1]
        assert board[0].index("next") == board[1].index("next")
