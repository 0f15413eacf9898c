"""Installing the test plug-ins the way any package is installed: a distribution's
``.dist-info`` folder with an ``entry_points.txt`` naming the ``tussle.rule_systems``
entry point, found on the path (``PYTHONPATH`` for the console script, ``sys.path`` in
this process)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.rules import forget_installed

REPO = Path(__file__).resolve().parents[2]  # where ``tests.plugins`` imports from

METADATA = "Metadata-Version: 2.1\nName: tussle-coin-race\nVersion: 1.0\n"
ENTRY_POINTS = "[tussle.rule_systems]\ncoin = tests.plugins.coin_race:PLUGIN\n"


def write_distribution(folder: Path) -> Path:
    """``folder`` holding the coin race's distribution (metadata and entry point)."""
    info = folder / "tussle_coin_race-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(METADATA)
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    return folder


def plugin_env(folder: Path) -> dict[str, str]:
    """What a process needs to find the plug-in: its distribution and the repository."""
    return {"PYTHONPATH": f"{folder}:{REPO}"}


@contextmanager
def installed(folder: Path) -> Iterator[None]:
    """The coin race installed in this process for the ``with`` block, and forgotten
    after it (the registry reads the entry points again both times)."""
    write_distribution(folder)
    sys.path.insert(0, str(folder))
    forget_installed()
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        forget_installed()
