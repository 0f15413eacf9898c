"""The coin race (tests/plugins/coin_race), a rule system written only under tests/ and
installed by entry point, on the dashboard by key presses: a new campaign of it, the
roster, the setup (participants, the target, who rolls), typed and rolled coins, undo and
redo, the summary and the recap, with no file of tui/ naming it (issue 12, point 1).

The rules: each side's first member flips a coin (1 tails, 2 heads on the keypad); the
only heads scores, anything else ties; first to the target wins.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.helpers import wait_for_odds
from tests.plugins.coin_race.rules import CoinContest
from tests.plugins.installed import installed
from tests.tui.conftest import keys, new_app, recap_written, settle, text, write
from tui.app import TussleApp


@pytest.fixture
def coin(tmp_path: Path) -> Iterator[None]:
    with installed(tmp_path / "site"):
        yield


def scored(ann: int, bob: int) -> str | None:
    """Who scores, from the rules alone: the one heads (2) when there is exactly one."""
    heads = [name for name, face in (("Ann", ann), ("Bob", bob)) if face == 2]
    return heads[0] if len(heads) == 1 else None


async def set_up(pilot: Pilot[None], target: str, tussle_for_bob: bool) -> None:
    """On the setup screen: Ann and Bob, each their own side; the target; who rolls."""
    for _ in range(2):
        await keys(pilot, "a")
        await keys(pilot, "enter")  # the first free character, with a coin
    await keys(pilot, "o", "backspace")
    await write(pilot, target)
    await keys(pilot, "enter")
    if tussle_for_bob:
        await keys(pilot, "T", "tab", "right", "enter")
    await keys(pilot, "g", "enter")  # start, with the title it offers


async def test_a_coin_race_by_keys(saves: Path, coin: None) -> None:
    app = new_app(saves, "Coins", "coin")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app, TussleApp)
        assert app.campaign.system == "coin"
        assert "Roster" in text(app, "#title")
        for name in ("Ann", "Bob"):
            await keys(pilot, "a")
            await write(pilot, name)
            await keys(pilot, "enter")
        assert list(app.campaign.roster) == ["Ann", "Bob"]

        await keys(pilot, "n")
        await set_up(pilot, "2", tussle_for_bob=False)
        board = text(app, "#scoreboard")
        assert "Coin race · first to 2" in board
        # Nothing flipped, first to 2 from 0–0: each side alone heads 1/4, a tie 1/2;
        # the race even.
        await wait_for_odds(pilot)
        board = text(app, "#scoreboard")
        assert "tie  50%" in board
        assert board.count("next  25%") == 2 and board.count("race  50%") == 2

        # 1: Ann heads, Bob tails: Ann alone heads scores, 1–0.
        await keys(pilot, "2")
        assert "would score" not in text(app, "#keypad")  # Bob's coin is not in
        await keys(pilot, "1")
        assert "⇒ Ann would score" in text(app, "#keypad")
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "Exchange 1: Ann scores (1–0)" in log
        assert "  Bob: tails" in log
        # At 1–0, first to 2: Ann needs one scoring exchange, Bob two in a row (1/4): 3/4.
        await wait_for_odds(pilot)
        assert "race  75%" in text(app, "#scoreboard")
        # 2: both heads: a tie. Undone, the coins come back on the keypad; redone, again.
        await keys(pilot, "2", "2", "enter")
        assert "Exchange 2: a tie (1–0)" in text(app, "#log")
        await keys(pilot, "u")
        assert "Exchange 2" not in text(app, "#log")
        assert "⇒ a tie: nobody scores" in text(app, "#keypad")
        await keys(pilot, "U")
        assert "Exchange 2: a tie (1–0)" in text(app, "#log")
        # 3: Bob alone heads, 1–1. 4: Ann alone heads: 2–1, Ann has reached 2 and wins.
        await keys(pilot, "1", "2", "enter")
        assert "Exchange 3: Bob scores (1–1)" in text(app, "#log")
        await keys(pilot, "2", "1", "enter")
        assert "Exchange 4: Ann scores (2–1)" in text(app, "#log")
        assert "Ann wins" in text(app, "#scoreboard")
        record = app.campaign.latest_contest
        assert record is not None and record.state.winner == "Ann"

        await keys(pilot, "M")  # the recap, as the players may read it
        await recap_written(app)
        (recap,) = (saves / "recaps").glob("*.md")
        shown = recap.read_text()
        assert "Exchange 3: Bob scores (1–1)" in shown
        assert "Ann won, 2 points to 1" in shown
        await keys(pilot, "enter")  # the summary
        summary = text(app, "#summary-body")
        assert "Ann won, 2 points to 1" in summary
        assert "Exchange 2: a tie (1–0)" in summary


async def test_tussle_rolls_coins(saves: Path, coin: None) -> None:
    """Bob's coin rolled by Tussle (set up with T), Ann's by r on the keypad: each
    exchange scores as the rules say for the faces that came up."""
    app = new_app(saves, "Coins", "coin")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for name in ("Ann", "Bob"):
            await keys(pilot, "a")
            await write(pilot, name)
            await keys(pilot, "enter")
        await keys(pilot, "n")
        await set_up(pilot, "3", tussle_for_bob=True)
        for n in range(1, 4):
            keypad = text(app, "#keypad")
            # Bob's coin is on the keypad before anybody typed it: Tussle flipped it.
            bob_row = next(line for line in keypad.splitlines() if "Bob" in line)
            assert "[1]" in bob_row or "[2]" in bob_row, keypad
            await keys(pilot, "r")  # Tussle flips Ann's too
            keypad = text(app, "#keypad")
            ann_row = next(line for line in keypad.splitlines() if "Ann" in line)
            assert "[1]" in ann_row or "[2]" in ann_row, keypad
            ann = 2 if "[2]" in ann_row else 1
            bob = 2 if "[2]" in bob_row else 1
            before = app.campaign.latest_contest
            assert before is not None and isinstance(before.state, CoinContest)
            score = dict(before.state.points)
            await keys(pilot, "enter")
            who = scored(ann, bob)
            if who is not None:
                score[who] += 1
            what = f"{who} scores" if who else "a tie"
            line = f"Exchange {n}: {what} ({score['Ann']}–{score['Bob']})"
            assert line in text(app, "#log")
            if max(score.values()) >= 3:
                break
