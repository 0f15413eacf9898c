"""The real ``tussle`` in tmux: keys sent together into a form (as a GM over a slow SSH
link sends them) land in the field the keys before them moved to, as if typed slowly.

Found playing: with Cynere's form open on its Name, ``send-keys Tab Tab C-u "Athletics
x"`` left the Name "Athletics x" and emptied the Skills: every key went to the field
focused when it arrived, before the Tabs had moved the focus."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.saves.store import CampaignFiles
from core.systems.fate.character import fate_sheet
from tests.e2e.tmux import TMUX, Pane, Terminal, find_dialog, shows, wait_for_file
from tests.helpers import tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

EDIT = "Edit Cynere"


def cynere_line(screen: str) -> str:
    found = [line for line in screen.splitlines() if line.startswith(" Cynere ")]
    assert found, f"no roster line for Cynere:\n{screen}"
    return found[0]


def test_tabs_then_text_sent_together_fill_the_field_tabbed_to(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    terminal, status = Terminal(), tmp_path / "status"
    pane = Pane(terminal)
    try:
        terminal.start(tussle_command(), {"TUSSLE_SAVES": str(saves)}, status)
        pane.wait_for("Roll keypad")
        pane.keys("w")  # the roster, its cursor on Cynere (Athletics +4, Fight +4...)
        pane.wait_for("Roster ·")
        pane.keys("e")
        pane.dialog(EDIT)
        # Name, Kind, Skills: two Tabs reach the Skills, Ctrl+U empties them. One call.
        pane.keys("Tab", "Tab", "C-u", "Athletics 5, Lore 2")
        shown = pane.wait_until(
            lambda s: shows(s, EDIT, "Skills", "Athletics 5, Lore 2"), "the Skills typed"
        )
        assert shows(shown, EDIT, "Name", "Cynere"), "the letters went to the Name"
        pane.keys("Enter")
        shown = pane.wait_until(
            lambda s: find_dialog(s, EDIT) is None and "Athletics +5, Lore +2" in s,
            "the form closed, the roster saying what was typed",
        )
        assert "Athletics +5, Lore +2" in cynere_line(shown)
        # The key that opens the form in the same burst, and its Enter: the same again.
        pane.keys("e", "Tab", "Tab", "C-u", "Athletics 3", "Enter")
        shown = pane.wait_until(
            lambda s: "Athletics +3" in s and find_dialog(s, EDIT) is None, "the second edit"
        )
        assert "Athletics +3" in cynere_line(shown)
        pane.keys("Escape")  # alone: Escape then a letter at once would be Alt+letter
        pane.wait_for("Roll keypad")
        pane.keys("q")  # nothing on the keypad: quits at once
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    cynere = CampaignFiles(saves / "fate-demo").load().roster["Cynere"]
    assert cynere.ratings == {"Athletics": 3}
    assert fate_sheet(cynere).aspects == ("I've Got Zird's Back",)
