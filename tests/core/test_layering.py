"""The core stays headless: no Textual in the engine, and TinyDB in the store alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"

HEADLESS = (
    "core.campaign",
    "core.codec",
    "core.rules",
    "core.rules.fate",
    "core.rules.heroquest",
    "core.rules.forge",
    "core.setup",
)


def loaded_after_import(*modules: str) -> set[str]:
    """The top-level packages in ``sys.modules`` after importing ``modules`` afresh."""
    code = (
        "import importlib, sys\n"
        f"for m in {list(modules)!r}:\n"
        "    importlib.import_module(m)\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split())


def test_the_campaign_the_codec_and_the_rules_never_import_textual_or_tinydb() -> None:
    loaded = loaded_after_import(*HEADLESS)
    assert "core" in loaded  # the check ran
    assert not loaded & {"textual", "rich", "tui", "tinydb"}


def test_the_store_and_the_bus_never_import_textual() -> None:
    loaded = loaded_after_import("core.store", "core.bus", "core.demo")
    assert "core" in loaded  # the check ran
    assert not loaded & {"textual", "rich", "tui"}


def test_reading_a_campaign_leaves_tinydb_unloaded_and_writing_loads_it(saves: Path) -> None:
    """The dashboard reads its campaign before the first frame: TinyDB, for writing,
    can wait until then."""
    from core.demo import create_demos
    from core.store import Saves

    create_demos(Saves(saves))
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from core.store import CampaignFiles, Saves\n"
        f"saves = Saves(Path({str(saves)!r}))\n"
        "infos = saves.campaigns()\n"
        "files = CampaignFiles(saves.folder / infos[0].slug)\n"
        "campaign = files.load()\n"
        "print(len(infos), 'tinydb' in sys.modules)\n"
        "saves.create('Another', 'fate')\n"
        "print('tinydb' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["3", "False", "True"]


def test_only_the_store_mentions_tinydb() -> None:
    sources = sorted(CORE.rglob("*.py"))
    assert CORE / "store.py" in sources
    mentioning = [
        p.relative_to(ROOT).as_posix() for p in sources if "tinydb" in p.read_text().lower()
    ]
    assert mentioning == ["core/store.py"]
