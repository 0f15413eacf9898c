"""Small helpers the tests share."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any


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
