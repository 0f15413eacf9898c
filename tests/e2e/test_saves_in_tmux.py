"""The dashboard's saves folder, in a real terminal (issue 11): the default one is made
with the three demos; one named with ``--saves`` and made by ``--mkdir`` stays empty; a
``--system`` that matches the campaign opens it. (Refusals: tests/core/test_saves_option.py.)
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from core.saves.store import Saves
from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import tussle_command

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

DEMOS = ["FORGE demo", "Fate demo", "HeroQuest demo"]


def in_folder(folder: Path, *args: str) -> list[str]:
    """``tussle ARGS`` started from ``folder`` (where ``./saves`` is)."""
    line = shlex.join([*tussle_command(), *args])
    return ["sh", "-c", f"cd {shlex.quote(str(folder))} && exec {line}"]


def names(saves: Path) -> list[str]:
    return sorted(info.name for info in Saves(saves).campaigns())


def test_the_default_saves_folder_is_made_with_the_demos(tmp_path: Path) -> None:
    (tmp_path / "saves").mkdir()  # a folder with ./saves (a clone has one): used, as ever
    terminal, status = Terminal(), tmp_path / "status"
    try:
        terminal.start(in_folder(tmp_path), {}, status)  # no --saves, no TUSSLE_SAVES
        assert "The race across the mud · Fate demo" in terminal.wait_for("Roll keypad")
        terminal.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert names(tmp_path / "saves") == DEMOS


def test_a_folder_made_with_mkdir_opens_empty_on_the_campaign_screen(tmp_path: Path) -> None:
    new = tmp_path / "rpg" / "saves"
    terminal, status = Terminal(), tmp_path / "status"
    try:
        terminal.start(in_folder(tmp_path, "--saves", str(new), "--mkdir"), {}, status)
        screen = terminal.wait_for("Campaigns · Enter opens · n makes a new one")
        assert not any(demo in screen for demo in DEMOS)
        terminal.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert new.is_dir() and names(new) == []
    assert not (tmp_path / "saves").exists()


def test_open_with_the_campaigns_own_system_opens_it(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()  # ./saves: the default folder when there is one
    terminal, status = Terminal(), tmp_path / "status"
    try:
        terminal.start(in_folder(tmp_path), {}, status)  # makes the demos
        terminal.wait_for("Roll keypad")
        terminal.keys("q")
        assert wait_for_file(status) == "0"
        status.unlink()
        args = ["--saves", str(saves), "open", "HeroQuest demo", "--system", "heroquest"]
        terminal.start(in_folder(tmp_path, *args), {}, status)
        assert "· HeroQuest demo ·" in terminal.wait_for("HeroQuest demo ·")
        terminal.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert names(saves) == DEMOS
