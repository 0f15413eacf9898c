"""Small helpers the tests share."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any

# The terminal pytest was started from must not reach what the tests run: its size
# (COLUMNS, LINES: Textual and Rich read them before asking the terminal), the tmux it
# runs in (TMUX, TMUX_PANE), its colours (TERM, COLORTERM, NO_COLOR, FORCE_COLOR), its
# locale (LANG, LANGUAGE, LC_*), and settings of Textual or Tussle (TEXTUAL_*, TUSSLE_*:
# a user's TUSSLE_SAVES would point a test at real campaigns). Tests set what they need.
TERMINAL_VARIABLES = frozenset(
    {"COLUMNS", "LINES", "TMUX", "TMUX_PANE", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR"}
    | {"LANG", "LANGUAGE"}
)
TERMINAL_PREFIXES = ("LC_", "TEXTUAL_", "TUSSLE_")
KEPT = ("TEXTUAL_SNAPSHOT_",)  # pytest-textual-snapshot's own, set in this run
# What every test sees instead: one locale, one terminal type.
NEUTRAL = {"LANG": "C.UTF-8", "TERM": "xterm-256color"}


def from_the_terminal(name: str) -> bool:
    if name.startswith(KEPT):
        return False
    return name in TERMINAL_VARIABLES or name.startswith(TERMINAL_PREFIXES)


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a process a test starts: this one's, without anything from the
    terminal pytest runs in, plus ``extra``. Pass it as ``env=``: a child started without
    one inherits the C-level environment, which can hold more than ``os.environ`` (pytest
    imports readline, and readline sets COLUMNS and LINES there when stdin is a tty)."""
    env = {k: v for k, v in os.environ.items() if not from_the_terminal(k)}
    return {**env, **NEUTRAL, **(extra or {})}


def neutralise_environment(environ: MutableMapping[str, str] = os.environ) -> None:
    """Make the tests' own environment the same whatever started them, for the tests
    themselves and for any child started without ``env=`` (see ``clean_env``)."""
    for name in [name for name in environ if from_the_terminal(name)]:
        del environ[name]
    for name in ("COLUMNS", "LINES"):  # set by readline below os.environ: unset there too
        os.unsetenv(name)
    environ.update(NEUTRAL)


def contains(expected: Any, actual: Any, path: str = "$") -> str | None:
    """The first place where ``actual`` does not contain ``expected`` (extra keys are
    fine; lists must match item by item), or None. As shared/tools/check_scenarios.py."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{path}.{key}: missing"
            found = contains(value, actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected a list of {len(expected)}, got {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            found = contains(e, a, f"{path}[{i}]")
            if found:
                return found
        return None
    if type(expected) is not type(actual) or expected != actual:
        return f"{path}: expected {expected!r}, got {actual!r}"
    return None


def tussle_command() -> list[str]:
    """The installed ``tussle`` console script (beside this Python), or the module."""
    script = Path(sys.executable).parent / "tussle"
    if script.exists():
        return [str(script)]
    found = shutil.which("tussle")
    return [found] if found else [sys.executable, "-m", "core.cli"]
