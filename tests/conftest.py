"""Shared fixtures, and the Hypothesis profiles. Tests never touch the repo's saves/: they
get a temporary folder."""

from __future__ import annotations

import atexit
import gc
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
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


# -- The garbage collector, set for a test run ---------------------------------------------
#
# A dashboard test makes and drops a whole app (screens, widgets, messages: cycles all),
# so many of its objects live long enough to reach the oldest generation, and with
# Python's thresholds (700, 10, 10) the collector walked every object in the worker (some
# 300,000: pytest, Hypothesis, Textual and the collected tests) about once a test. Measured
# on tests/tui/test_forms.py (issue 25): 5 to 6 CPU-s of its 35 to 42 in the collector,
# three quarters of it in the oldest generation; with these thresholds, and what is loaded
# by the time the tests are collected frozen out of its walks, about 1.3 s. Collection
# still runs, only less often: nothing a test checks depends on when.
gc.set_threshold(10_000, 10, 10)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


# And again between modules: what outlives a module's tests and its fixtures (caches,
# Hypothesis' own, what a module imported) lives on, and was walked by every full
# collection after it. Measured on the whole suite (issue 25): some 39 CPU-s of the six
# workers in the collector, a worker's full collections growing to a second each (1.2
# million objects); and each worker's five full collections as it ends (pytest's, for a
# last look for unraisable exceptions) took it past the 5 s xdist's gateway waits
# before it interrupts it: a KeyboardInterrupt in Hypothesis' gc callback, printed at
# the end of the run. What a module left as garbage is collected first.
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield
    if nextitem is None or getattr(nextitem, "module", None) is not getattr(item, "module", None):
        gc.collect()
        gc.freeze()


# -- Bytecode, written for a test run --------------------------------------------------------
#
# With PYTHONDONTWRITEBYTECODE set (as on our CI machines), nothing was cached: each of
# the 6 workers rewrote the asserts of all 250 test modules and compiled them (9.5 CPU-s
# a worker, against 2.9 from cached bytecode: the first 31 s of a run on two cores went
# to that alone), and every tussle a test starts compiled core/ and tui/ afresh (0.1
# CPU-s a start). A test run writes the bytecode (into __pycache__ folders, ignored by
# git), and so do the workers and the tussles it starts, which inherit the environment.
# Where the folder is read-only, Python and pytest quietly write nothing.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


def _warm_bytecode(config: pytest.Config) -> None:
    """Before xdist's workers start: the test modules' rewritten bytecode, made once by two
    collections side by side (the suite's two halves, a core each) instead of by every
    worker at once. Nothing to do when it is there already, or when the run is not the
    whole suite on workers."""
    import subprocess

    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    if config.getoption("collectonly") or config.getoption("tests_for"):
        return
    here = Path(__file__).parent
    if {Path(a).resolve() for a in config.args} - {here, here.parent}:
        return  # some tests, not the suite: the workers' own collection is cheap enough
    tail = f".{sys.implementation.cache_tag}-pytest-{pytest.__version__}.pyc"
    modules = here.rglob("test_*.py")
    if all((m.parent / "__pycache__" / (m.stem + tail)).exists() for m in modules):
        return
    core = here / "core"
    halves = [[str(core)], [str(here), f"--ignore={core}"]]
    quietly = ["--collect-only", "-qq", "-n", "0", "-p", "no:cacheprovider"]
    collections = [
        subprocess.Popen(
            [sys.executable, "-m", "pytest", *quietly, *half],
            cwd=here.parent,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for half in halves
    ]
    for collection in collections:
        collection.wait()  # whatever it found: the workers' collection is the one that counts


# -- How many workers ``pytest -n auto`` (the README's test command) starts ---------------
#
# Three per core, not xdist's one: a dashboard test spends most of its time waiting (for
# the app to handle a key, a file to be written, a thread's odds), an end-to-end test far
# more (tmux, a tussle in a terminal, a browser), so one worker per core left the cores
# idle a third of the time. Measured on two cores (issue 25): the whole suite in 791 s
# with 2 workers, 520 s with 6, at the same CPU time (about 900 s). Every test has its own
# folders, sockets and ports; what must share a worker says so (xdist_group). xdist's own
# variable still decides when set.
WORKERS_PER_CORE = 3


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    set_by_hand = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if set_by_hand:
        return int(set_by_hand)
    return WORKERS_PER_CORE * len(os.sched_getaffinity(0))


def _own_folder(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """A new empty folder for one test: in this process's folder in memory where there is
    one (see _memory_tempdir), else pytest's. Not pytest's numbered folders, made by
    listing every folder made so far: two for every test, that listing was some 5 CPU-s
    of the suite, growing with the square of the tests a worker runs (issue 25)."""
    if _process_memory_folder() is not None:
        return Path(tempfile.mkdtemp(prefix=f"{name}-"))
    return tmp_path_factory.mktemp(name)


@pytest.fixture(autouse=True)
def config_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's own configuration folder (XDG_CONFIG_HOME), empty: no test reads or
    writes the GM's real ~/.config/tussle (keys, theme), nor sees another test's."""
    folder = _own_folder(tmp_path_factory, "config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    monkeypatch.delenv("TUSSLE_CONFIG", raising=False)
    return folder


@pytest.fixture(autouse=True)
def data_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's own data folder (XDG_DATA_HOME), empty: where the saves are by
    default when the folder Tussle starts from has no ./saves (core.saves.store.saves_folder),
    so no test reads or writes the GM's real ~/.local/share/tussle."""
    folder = _own_folder(tmp_path_factory, "data")
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder


# -- a memory-backed tmp_path (issue 25) ----------------------------------------------------
#
# Every save is fsynced (core/files/disk.py), and on a real disk that is most of what a test
# that plays a campaign costs: creating the three demos takes 140 ms on disk, 9 ms in
# memory. So each test's ``tmp_path`` (and the ``saves`` folder in it) is a folder in
# /dev/shm (tmpfs: fsync returns at once; everything else, renames, locks, links, modes,
# behaves as on disk). Real fsync is kept where it is what is tested: the end-to-end
# tests (the real tussle, as a GM runs it), the crash test and the store's atomic writes
# (REAL_DISK below, or a test marked ``real_disk``). Without a writable /dev/shm, every
# test is on disk. Module fixtures (tmp_path_factory) stay on disk; what tests make with
# tempfile goes to memory (see _memory_tempdir).
MEMORY = Path("/dev/shm")
REAL_DISK = ("tests/e2e/", "tests/core/test_crash.py", "tests/core/test_store.py")


def _on_real_disk(item: pytest.Item) -> bool:
    where = Path(str(item.path)).relative_to(Path(__file__).parent.parent).as_posix()
    return where.startswith(REAL_DISK) or item.get_closest_marker("real_disk") is not None


def _memory_usable() -> bool:
    return MEMORY.is_dir() and os.access(MEMORY, os.W_OK | os.X_OK)


def _memory_tempdir() -> None:
    """Folders tests make with :mod:`tempfile` (the round-trip properties make one per
    example) in memory too: this process's own folder in /dev/shm, removed at exit. The
    code under test always names its folder (``dir=``), so it is not moved."""
    if not _memory_usable():
        return
    # pytest's own temporary folders (tmp_path_factory, and so the tmp_path of the tests on
    # real disk and the module fixtures) are made under tempfile's folder, looked up when
    # first needed: after this moved it to memory. They keep the real one (pytest's
    # PYTEST_DEBUG_TEMPROOT, inherited by xdist's workers): the end-to-end tests ran on
    # /dev/shm, their fsync a no-op.
    os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", tempfile.gettempdir())
    folder = tempfile.mkdtemp(prefix=f"tussle-tests-{os.getpid()}-", dir=MEMORY)
    # As /tmp is (sticky, open to all): a test that hands a folder it made to another
    # user (tests/e2e/test_seats_users.py: a player's account) must get through this one.
    os.chmod(folder, 0o1777)
    tempfile.tempdir = folder
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # and in pytest_unconfigure:
    # an xdist worker leaves without running atexit's handlers


def _process_memory_folder() -> Path | None:
    """This process's folder in memory (_memory_tempdir), None when there is none."""
    folder = tempfile.tempdir
    if folder and Path(folder).parent == MEMORY and Path(folder).name.startswith("tussle-tests-"):
        return Path(folder)
    return None


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = _process_memory_folder()
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


_memory_tempdir()


@pytest.fixture
def tmp_path(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    """This test's own empty folder: in memory, or on disk where real fsync is tested."""
    if _on_real_disk(request.node) or not _memory_usable():
        name = re.sub(r"[\W]", "_", request.node.name)[:30]
        yield tmp_path_factory.mktemp(name, numbered=True)
        return
    folder = Path(tempfile.mkdtemp(prefix="tussle-test-", dir=MEMORY))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    folder.mkdir()
    monkeypatch.setenv("TUSSLE_SAVES", str(folder))
    return folder


# -- the day-to-day loop and the map from code to its tests (issue 25, item 4) ---------------
#
# ``-m "not slow"`` leaves out what takes long: what builds or installs something (marked
# in its module), the real tussle in tmux, the races and crashes of many processes, the
# long campaigns, the fuzzers and the Pilot state machine. Listed here, by path or test
# name, so one place says what the quick loop leaves out; CI runs everything.
SLOW = (
    "tests/e2e/",
    "tests/core/test_saves_race.py",
    "tests/core/test_crash.py",
    "tests/core/test_record_long.py",
    "tests/core/test_resolve_fuzz.py",
    "tests/core/test_saves_fuzz.py",
    "tests/core/test_store.py::test_a_saved_campaign_loads_back_equal",
    "tests/core/test_transfer.py::test_export_then_import_gives_an_equal_campaign",
    "tests/core/test_limits.py::test_what_the_campaign_accepts_reloads",
    "tests/tui/test_contest_machine.py",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--for",
        action="append",
        default=[],
        metavar="FILE",
        dest="tests_for",
        help="only the test modules that import FILE (core/files/disk.py, tui/watch.py, or a "
        "package folder such as core/systems/fate); repeat for more than one",
    )


def _module_of(path: str) -> str:
    """``core/files/disk.py`` -> ``core.files.disk``; ``core/systems/fate/`` ->
    ``core.systems.fate``."""
    name = path.strip().removesuffix(".py").removesuffix("/").removesuffix("/__init__")
    return name.replace("/", ".")


def _imports(source: Path) -> set[str]:
    """Every module ``source`` imports (``from a import b``: ``a`` and ``a.b``), lazy
    imports inside functions included. Read, not run: cheap for every test file."""
    import ast

    found: set[str] = set()
    for node in ast.walk(ast.parse(source.read_bytes(), str(source))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``--for FILE``: a test module that does not import FILE's module is not
    collected (its tests are not for that file)."""
    wanted = [_module_of(f) for f in config.getoption("tests_for")]
    if (
        not wanted
        or collection_path.suffix != ".py"
        or not collection_path.name.startswith("test_")
    ):
        return None
    imported = _imports(collection_path)
    related = any(i == w or i.startswith(f"{w}.") for w in wanted for i in imported)
    return None if related else True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = pytest.mark.slow
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(slow)


def pytest_configure(config: pytest.Config) -> None:
    # Part of the normal run (and CI's); `-m "not slow"` leaves them out while iterating.
    config.addinivalue_line(
        "markers",
        "slow: takes long (SLOW in tests/conftest.py) or builds or installs something "
        "(tests/e2e/test_wheel.py)",
    )
    config.addinivalue_line(
        "markers", "real_disk: its tmp_path is on disk, not in memory (real fsync is tested)"
    )
    _warm_bytecode(config)
