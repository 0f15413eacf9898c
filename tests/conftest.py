"""Shared fixtures, and the Hypothesis profiles. Tests never touch the repo's saves/: they
get a temporary folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.helpers import neutralise_environment

SCENARIOS = Path(__file__).parent / "scenarios"

# The same environment whatever terminal started pytest (its size, TMUX, TERM, NO_COLOR,
# the locale...): snapshots need colour, and a tussle in tmux must not think it is in a
# 120x40 terminal because pytest was. See tests/helpers.py.
neutralise_environment()

# -- Hypothesis profiles: the one place the number of examples is chosen ------------------
#
# "ci" runs every property at least 100 times. CI (the env var CI set) gets it, and so does
# a plain ``pytest`` (the README's command): it is the profile unless HYPOTHESIS_PROFILE or
# ``--hypothesis-profile`` names another, so nobody's run is weaker than CI's. "dev" is
# quicker, for iterating: ``HYPOTHESIS_PROFILE=dev .venv/bin/pytest …``. A property that
# needs more than its profile gives asks for a multiple of it with
# ``tests.strategies.examples(times)``, never a fixed count, so "dev" stays quick.
# Deadlines are off: the runs play whole campaigns and write files, and a busy two-core
# machine would make timings flaky. Properties that write files take pytest's tmp_path,
# made once per test, and write a fresh file per example: that health check is off.
_QUIET = [HealthCheck.function_scoped_fixture]
settings.register_profile(
    "ci", max_examples=100, deadline=None, print_blob=True, suppress_health_check=_QUIET
)
settings.register_profile("dev", max_examples=20, deadline=None, suppress_health_check=_QUIET)
settings.load_profile(
    "ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE") or "ci"
)


@pytest.fixture(autouse=True)
def config_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's own configuration folder (XDG_CONFIG_HOME), empty: no test reads or
    writes the GM's real ~/.config/tussle (keys, theme), nor sees another test's."""
    folder = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    monkeypatch.delenv("TUSSLE_CONFIG", raising=False)
    return folder


@pytest.fixture
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    folder.mkdir()
    monkeypatch.setenv("TUSSLE_SAVES", str(folder))
    return folder


def pytest_configure(config: pytest.Config) -> None:
    # Part of the normal run (and CI's); `-m "not slow"` leaves them out while iterating.
    config.addinivalue_line(
        "markers", "slow: builds or installs something (tests/e2e/test_wheel.py: a few seconds)"
    )
