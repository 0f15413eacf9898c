"""``tussle --version`` names the version pyproject.toml declares."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

from tests.helpers import clean_env, tussle_script

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_the_one_pyproject_declares() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    done = subprocess.run(
        [tussle_script(), "--version"], capture_output=True, text=True, env=clean_env(), timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"tussle {declared}"
