"""Shared fixtures. Tests never touch the repo's saves/: they get a temporary folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SCENARIOS = Path(__file__).parent / "scenarios"

# Snapshots and colour checks need colour; a user's NO_COLOR must not leak into the tests.
os.environ.pop("NO_COLOR", None)


@pytest.fixture
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    folder.mkdir()
    monkeypatch.setenv("TUSSLE_SAVES", str(folder))
    return folder
