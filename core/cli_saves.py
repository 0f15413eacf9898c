"""``tussle check``, ``export``, ``import`` and ``restore``: the campaign files' commands."""

from __future__ import annotations

from typing import Any


def add_save_commands(sub: Any) -> None:
    """Register the save commands on the ``tussle`` parser's subcommands (being written)."""
    del sub
