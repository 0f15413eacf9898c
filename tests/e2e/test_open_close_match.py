"""Where the campaigns are, and which one a name means (issue 24, item 19).

* ``tussle open "friday fate"`` beside "Friday Fate" silently made a second, empty
  campaign: a name close to one there is refused (exit 2), naming it, and ``--new``
  makes the new one all the same.
* ``./saves`` depended on the folder Tussle was started from, so a GM who started it from
  ``~`` saw only new demos: with no ``./saves`` there (and no ``--saves``, no
  ``TUSSLE_SAVES``), the saves are in the GM's data folder, ``$XDG_DATA_HOME/tussle/saves``,
  the same from any folder. A ``./saves`` that exists is still used (a clone has one).

Each test has its own XDG_DATA_HOME (tests/conftest.py: data_home), never the real one.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from core.saves.store import Saves, saves_folder
from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import clean_env, tussle_command

needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def tussle(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*tussle_command(), *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
    )


def names(saves: Path) -> list[str]:
    return sorted(info.name for info in Saves(saves).campaigns())


def in_folder(folder: Path, *args: str) -> list[str]:
    line = shlex.join([*tussle_command(), *args])
    return ["sh", "-c", f"cd {shlex.quote(str(folder))} && exec {line}"]


@pytest.mark.parametrize("typed", ["friday fate", "Friday-Fate", "Firday Fate"])
def test_open_a_name_close_to_a_campaign_is_refused_naming_it(tmp_path: Path, typed: str) -> None:
    saves = tmp_path / "saves"
    Saves(saves).create("Friday Fate", "fate")
    done = tussle("--saves", str(saves), "open", typed, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f'tussle: no campaign called "{typed}", but there is "Friday Fate": open it with  '
        f"tussle open 'Friday Fate'  (or add --new to make \"{typed}\" beside it)\n"
    )
    assert names(saves) == ["Friday Fate"]  # nothing made


@needs_tmux
def test_open_new_makes_the_campaign_beside_the_close_one(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    Saves(saves).create("Friday Fate", "fate")
    terminal, status = Terminal(), tmp_path / "status"
    try:
        args = ["--saves", str(saves), "open", "friday fate", "--new"]
        terminal.start(in_folder(tmp_path, *args), {}, status)
        terminal.wait_for("Roster · friday fate")
        terminal.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert names(saves) == ["Friday Fate", "friday fate"]
    # A name far from both is not refused for it (here it stops for want of a terminal,
    # after that check).
    done = tussle("--saves", str(saves), "open", "Saturday Spirits", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == "tussle: the dashboard needs a terminal, and stdin is not one\n"


def test_the_default_saves_folder(
    tmp_path: Path, data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TUSSLE_SAVES", raising=False)
    monkeypatch.chdir(tmp_path)
    assert saves_folder() == data_home / "tussle" / "saves"  # no ./saves here
    (tmp_path / "saves").mkdir()
    assert saves_folder() == Path("saves")  # one here: used, as before
    monkeypatch.setenv("TUSSLE_SAVES", str(tmp_path / "elsewhere"))
    assert saves_folder() == tmp_path / "elsewhere"
    assert saves_folder(str(tmp_path / "named")) == tmp_path / "named"
    # No XDG_DATA_HOME (or one that is not absolute, as the spec says): ~/.local/share.
    monkeypatch.delenv("TUSSLE_SAVES")
    (tmp_path / "saves").rmdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for data in ("", "relative/data"):
        monkeypatch.setenv("XDG_DATA_HOME", data)
        assert saves_folder() == tmp_path / "home" / ".local" / "share" / "tussle" / "saves"


@needs_tmux
def test_the_same_campaigns_from_any_folder(tmp_path: Path, data_home: Path) -> None:
    first, second = tmp_path / "table", tmp_path / "home"
    first.mkdir()
    second.mkdir()
    default = data_home / "tussle" / "saves"
    terminal, status = Terminal(), tmp_path / "status"
    try:
        # From one folder: the demos, then a campaign of the GM's.
        terminal.start(in_folder(first, "open", "Friday Fate"), {}, status)
        terminal.wait_for("Roster · Friday Fate")
        terminal.keys("q")
        assert wait_for_file(status) == "0"
        status.unlink()
        # From another: the same campaigns, and the campaign screen says where they are.
        terminal.start(in_folder(second), {}, status)
        terminal.wait_for("Roll keypad")
        terminal.keys("c")
        shown = terminal.wait_for("Saves folder:")
        flat = "".join(shown.split())  # a long path wraps
        assert "".join(f"Saves folder: {default}".split()) in flat
        assert "Friday Fate" in shown and "Fate demo" in shown
        terminal.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert names(default) == ["FORGE demo", "Fate demo", "Friday Fate", "HeroQuest demo"]
    assert not (first / "saves").exists() and not (second / "saves").exists()
    done = tussle("check", "Friday Fate", cwd=second)
    assert done.returncode == 0, done.stderr
