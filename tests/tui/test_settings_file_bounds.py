"""A settings file never stops Tussle (issue 30, item 11), whatever the path holds: TOML
nested 100,000 deep or a number of 5,000 digits gave a traceback in the dashboard and
every player's view; a pipe (FIFO) stopped both before their first frame; /dev/zero was
read until 13 GB. Each is now one line naming the file, and the defaults stand in."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from core.files.named_files import SETTINGS_BYTES
from tui.config import Settings, load, remember_theme

THEMES = ["textual-dark", "nord"]


def within_30_s(work: Callable[[], object], unblock: Callable[[], None]) -> list[object]:
    """``work()``'s result, run in a thread; ``[]`` when it is still running after 30 s
    (then ``unblock`` lets it end)."""
    done: list[object] = []
    thread = threading.Thread(target=lambda: done.append(work()), daemon=True)
    thread.start()
    thread.join(30)
    if thread.is_alive():
        unblock()
        thread.join(30)
        return []
    return done


def writer_for(fifo: Path) -> Callable[[], None]:
    def unblock() -> None:  # a writer that comes and goes: the reader sees the end
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    return unblock


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("keys = " + "[" * 100_000 + "]" * 100_000, "nested more than 64 deep"),
        ("a = " + "[" * 70 + "]" * 70, "nested more than 64 deep"),
        ('theme = "nord"\nlimit = ' + "9" * 5000, "a number of thousands of digits"),
    ],
    ids=["100,000 deep", "70 deep", "5,000 digits"],
)
def test_a_file_tussle_cannot_parse_is_one_line_and_the_defaults(
    text: str, said: str, tmp_path: Path
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    settings = load(None, THEMES, path)
    assert settings.theme is None and settings.keymap == {}
    assert settings.problems == [
        f"{path}: is not TOML ({said}); the default keys and theme are used"
    ]
    # Choosing a theme in the palette leaves such a file alone, and says why.
    problem = remember_theme("nord", path)
    assert problem is not None and said in problem
    assert path.read_text() == text


def test_a_pipe_is_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    done = within_30_s(lambda: load(None, THEMES, fifo), writer_for(fifo))
    assert done, "reading the settings waited on a pipe"
    (settings,) = done
    assert isinstance(settings, Settings)
    assert settings.problems == [
        f"{fifo}: cannot be read (a pipe (FIFO), not a file); the default keys and theme are used"
    ]
    done = within_30_s(lambda: remember_theme("nord", fifo), writer_for(fifo))
    assert done == [f"{fifo}: cannot be written (a pipe (FIFO), not a file); the theme was "
                    "not remembered"]  # fmt: skip


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_not_read() -> None:
    settings = load(None, THEMES, Path("/dev/zero"))
    assert settings.problems == [
        "/dev/zero: cannot be read (a device, not a file); the default keys and theme are used"
    ]


def test_a_file_larger_than_any_settings_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# " + "x" * SETTINGS_BYTES + "\n")
    settings = load(None, THEMES, path)
    (problem,) = settings.problems
    assert problem == (
        f"{path}: cannot be read ({SETTINGS_BYTES + 3:,} bytes, more than the "
        f"{SETTINGS_BYTES:,} Tussle reads of it); the default keys and theme are used"
    )


def test_a_plain_file_is_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('theme = "nord"\n[keys]\nundo = "z"\n')
    settings = load(None, THEMES, path)
    assert (settings.theme, settings.problems) == ("nord", [])
