"""The real ``tussle`` in tmux, keys sent together in one ``send-keys`` (as a GM typing
fast, or over SSH, sends them): each acts after the one before it, as if typed slowly.

Found playing: ``send-keys m r`` opened the modifier form and rolled Teran's dice under
it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.saves.store import CampaignFiles
from tests.e2e.tmux import TMUX, Pane, Terminal, find_dialog, wait_for_file
from tests.helpers import tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

MODIFIER = "A modifier for this exchange"


def line_of(screen: str, who: str) -> str:
    """The keypad's line for roller ``who`` (the last line naming them: the keypad is
    the bottom pane)."""
    found = [line for line in screen.splitlines() if f" {who} " in line]
    assert found, f"no line for {who}:\n{screen}"
    return found[-1]


def still_to_roll(screen: str, who: str) -> bool:
    """Whether ``who`` has no die on the keypad: the total is what they have "so far"."""
    return "so far" in line_of(screen, who)


def exchanges(saves: Path) -> int:
    return len(CampaignFiles(saves / "fate-demo").load().contest("c1").exchanges)


def test_m_and_r_sent_together_open_the_form_and_roll_nothing(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    terminal, status = Terminal(), tmp_path / "status"
    pane = Pane(terminal)
    try:
        terminal.start(tussle_command(), {"TUSSLE_SAVES": str(saves)}, status)
        pane.wait_for("Roll keypad")
        # The demo's Fate contest: Cynere rolls 0000 (Great +4); Teran the Swift is next.
        pane.keys("0", "0", "0", "0")
        pane.wait_until(lambda s: not still_to_roll(s, "Cynere"), "Cynere's dice")
        assert still_to_roll(pane.screen(), "Teran the Swift")
        pane.keys("m", "r")  # one send-keys: both bytes in one read
        pane.dialog(MODIFIER)
        time.sleep(0.5)  # time for an r that went astray to roll (it never must)
        pane.keys("Escape")
        shown = pane.wait_until(lambda s: find_dialog(s, MODIFIER) is None, "the form to go")
        assert not still_to_roll(shown, "Cynere")
        assert still_to_roll(shown, "Teran the Swift"), "r rolled Teran's dice under the form"
        # Enter behind m is the form's: the value is required, nothing is committed.
        pane.keys("0", "0", "0", "0")
        pane.wait_until(lambda s: not still_to_roll(s, "Teran the Swift"), "Teran's dice")
        pane.keys("m", "Enter")
        pane.wait_for("required")
        pane.keys("Escape")
        shown = pane.wait_until(lambda s: find_dialog(s, MODIFIER) is None, "the form to go")
        assert "Exchange 1:" not in shown  # the log's (the scoreboard says "Exchange 1")
        assert not still_to_roll(shown, "Teran the Swift")
        pane.keys("q")  # dice on the keypad: q asks first
        pane.wait_for("Cynere rolled")
        pane.keys("y")
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert exchanges(saves) == 0


def test_u_and_enter_sent_together_commit_the_exchange_undone(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    terminal, status = Terminal(), tmp_path / "status"
    pane = Pane(terminal)
    try:
        terminal.start(tussle_command(), {"TUSSLE_SAVES": str(saves)}, status)
        pane.wait_for("Roll keypad")
        pane.keys(*("0",) * 8)  # 0000 against 0000: Cynere +4, Teran +3
        pane.wait_until(lambda s: not still_to_roll(s, "Teran the Swift"), "both dice")
        pane.keys("Enter")
        pane.wait_for("Exchange 1: Cynere wins")
        # u takes exchange 1 back onto the keypad; the Enter right behind commits it
        # again, as typed slowly: the same exchange, and an empty keypad.
        pane.keys("u", "Enter")
        pane.wait_for("Undone")
        shown = pane.wait_until(
            lambda s: still_to_roll(s, "Cynere") and still_to_roll(s, "Teran the Swift"),
            "the keypad emptied by the exchange committed again",
        )
        assert "Exchange 1: Cynere wins" in shown
        assert "not rolled" not in shown
        pane.keys("q")  # nothing on the keypad: quits at once
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert exchanges(saves) == 1
