"""The wheel, as a GM installs it: built from the source, installed into a new virtual
environment, and run there, away from the source tree.

The editable install every other test runs reads the source tree, so it hides whatever the
wheel leaves out (a hand-kept package list once left out tui.screens, tui.widgets and
tui.systems). Nothing is downloaded: the wheel is built with the build backend this
environment has (``--no-build-isolation``), and installed without its dependencies
(``--no-deps --no-index``); the new environment sees the dependencies already installed
here through a ``.pth`` file naming this environment's site-packages. A ``.pth`` file's
folder is added to ``sys.path`` after the new environment's own, and the ``.pth`` files in
that folder are not read: the editable install's finder, which would bring back the source
tree's ``core`` and ``tui``, stays off. Every process runs in a temporary folder, never
the repo (``python -c`` would import ``core`` from the folder it starts in).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.conftest import SCENARIOS
from tests.e2e.tmux import TMUX, Terminal, wait_for_file
from tests.helpers import clean_env, contains

# One wheel built and installed for the module (its fixture): one worker builds it.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PACKAGES = ("core", "tui")


@dataclass(frozen=True)
class Installed:
    venv: Path
    site_packages: Path
    work: Path  # an empty folder outside the repo, to run in

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    @property
    def tussle(self) -> str:
        return str(self.venv / "bin" / "tussle")


def outside_env() -> dict[str, str]:
    """``clean_env`` without any PYTHON* variable (a PYTHONPATH naming the repo would
    import the source tree instead of the wheel) and without pip's settings."""
    return {
        **{k: v for k, v in clean_env().items() if not k.startswith(("PYTHON", "PIP_"))},
        "PIP_CONFIG_FILE": "/dev/null",  # no user's pip.conf (an index, find-links...)
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",  # pip asks the index for its version else
    }


def run(args: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        args,
        cwd=cwd,
        env=outside_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def unmet_build_requirements() -> list[str]:
    """pyproject.toml's build requirements this environment does not satisfy."""
    unmet = []
    for text in PYPROJECT["build-system"]["requires"]:
        wanted = Requirement(text)
        try:
            have = version(wanted.name)
        except PackageNotFoundError:
            unmet.append(f"{text} (not installed)")
            continue
        if not wanted.specifier.contains(have, prereleases=True):
            unmet.append(f"{text} ({have} installed)")
    return unmet


def source_modules() -> set[str]:
    """Every module of the source tree's packages, by its dotted name."""
    names = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    unmet = unmet_build_requirements()
    if unmet:
        pytest.fail(
            "this environment cannot build the wheel without downloading: "
            f"{', '.join(unmet)}; pip install -e '.[test]' brings them"
        )
    base = tmp_path_factory.mktemp("wheel")
    # A copy of the source to build from: a build in the repo would write build/ and
    # *.egg-info there, and would package modules left in an old build/lib.
    source = base / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    pip = [sys.executable, "-m", "pip"]
    offline = ["--no-deps", "--no-index", "--no-cache-dir"]
    dist = base / "dist"
    run([*pip, "wheel", *offline, "--no-build-isolation", "-w", str(dist), str(source)], cwd=base)
    (wheel,) = dist.glob("tussle-*.whl")
    venv = base / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=base)
    python = str(venv / "bin" / "python")
    run([*pip, "--python", python, "install", *offline, str(wheel)], cwd=base)
    ask = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site_packages = Path(run([python, "-c", ask], cwd=base).stdout.strip())
    # The dependencies (Textual, TinyDB and theirs), from this environment.
    here = dict.fromkeys([sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    (site_packages / "tussle-test-dependencies.pth").write_text("\n".join(here) + "\n")
    work = base / "work"
    work.mkdir()
    return Installed(venv, site_packages, work)


def test_the_test_extras_bring_what_building_the_wheel_needs() -> None:
    """``pip install -e '.[test]'`` (the README's) builds in an isolated environment and
    leaves the venv's own setuptools as venv made it (65 on Python 3.11): too old for
    pyproject.toml's license = "MIT". The test extras must bring the build requirements."""
    extras = {Requirement(r).name.lower(): Requirement(r) for r in PYPROJECT["project"][
        "optional-dependencies"]["test"]}  # fmt: skip
    for text in PYPROJECT["build-system"]["requires"]:
        wanted = Requirement(text)
        assert wanted.name.lower() in extras, f"the test extras lack {text}"
        assert extras[wanted.name.lower()].specifier == wanted.specifier, text


def test_the_wheel_runs_from_its_own_environment_not_the_source(installed: Installed) -> None:
    where = run(
        [installed.python, "-c", "import core, tui, tinydb, textual; print(core.__file__);"
         " print(tui.__file__); print(textual.__file__)"],
        cwd=installed.work,
    ).stdout.split()  # fmt: skip
    core_file, tui_file, textual_file = map(Path, where)
    assert core_file.is_relative_to(installed.site_packages)
    assert tui_file.is_relative_to(installed.site_packages)
    assert not core_file.is_relative_to(ROOT) and not tui_file.is_relative_to(ROOT)
    assert textual_file.is_relative_to(sysconfig.get_path("purelib"))  # this environment's


def test_tussle_version_names_the_declared_version(installed: Installed) -> None:
    done = run([installed.tussle, "--version"], cwd=installed.work)
    assert done.stdout.strip() == f"tussle {PYPROJECT['project']['version']}"


def test_tussle_resolve_plays_an_example(installed: Installed) -> None:
    scenario = SCENARIOS / "fate-cynere-vs-teran.json"
    done = run([installed.tussle, "resolve", str(scenario)], cwd=installed.work)
    expected = json.loads(scenario.with_suffix(".expected.json").read_text())
    assert contains(expected, json.loads(done.stdout)) is None


IMPORT_ALL = """
import importlib, json, pkgutil
found = {}
for top in ("core", "tui"):
    package = importlib.import_module(top)
    found[top] = package.__file__
    for info in pkgutil.walk_packages(package.__path__, top + "."):
        found[info.name] = importlib.import_module(info.name).__file__
print(json.dumps(found))
"""


def test_every_module_of_the_source_is_in_the_wheel_and_imports(installed: Installed) -> None:
    found: dict[str, str] = json.loads(
        run([installed.python, "-c", IMPORT_ALL], cwd=installed.work).stdout
    )
    assert set(found) == source_modules()
    outside = {name for name, file in found.items() if not Path(file).is_relative_to(
        installed.site_packages)}  # fmt: skip
    assert not outside, f"imported from elsewhere than the wheel: {sorted(outside)}"


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_the_dashboard_draws_its_first_frame_in_a_terminal(
    installed: Installed, data_home: Path
) -> None:
    """A new GM's first run: ``tussle`` in a folder of its own (no ./saves there) makes
    the saves folder in the GM's data folder with the demos and opens the Fate one. The
    styles (package data) must be in the wheel too."""
    status = installed.work / "status"
    # The tmux server passes the tests' environment to the pane: unset any PYTHON* there.
    unset = [a for k in clean_env() if k.startswith("PYTHON") for a in ("-u", k)]
    terminal = Terminal()
    try:
        terminal.start(["env", *unset, installed.tussle], {}, status, cwd=installed.work)
        shown = terminal.wait_for("Roll keypad", timeout=60)
        assert "The race across the mud" in shown
        assert "Cynere" in shown and "Teran the Swift" in shown
        terminal.keys("q")
        assert wait_for_file(status) == "0"
    finally:
        terminal.kill()
    assert (data_home / "tussle" / "saves").is_dir()
    assert not (installed.work / "saves").exists()
