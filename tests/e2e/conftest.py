"""Fixtures the end-to-end tests share."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder for the players' sockets, short (a socket's path holds 107 bytes at
    most; pytest's tmp_path is long) and removed afterwards."""
    made = Path(tempfile.mkdtemp(prefix="tussle-share-"))
    yield made
    shutil.rmtree(made, ignore_errors=True)
