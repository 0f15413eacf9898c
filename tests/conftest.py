"""Shared fixtures. Tests never touch the repo's saves/: they get a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import neutralise_environment

SCENARIOS = Path(__file__).parent / "scenarios"

# The same environment whatever terminal started pytest (its size, TMUX, TERM, NO_COLOR,
# the locale...): snapshots need colour, and a tussle in tmux must not think it is in a
# 120x40 terminal because pytest was. See tests/helpers.py.
neutralise_environment()


@pytest.fixture
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    folder.mkdir()
    monkeypatch.setenv("TUSSLE_SAVES", str(folder))
    return folder
