"""The odds package's shape (issue 12): the generic odds name no rule system, each
system's odds sit beside its rules and are found through the registry, and the scenario's
``next`` is read through the scenario readers' public functions only.

The figures the odds give are checked in test_odds.py and test_odds_cli.py; here, only
where the code lives and what it may name.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import RuleError
from core.rules import SYSTEM_NAMES, find_odds, odds_module

ROOT = Path(__file__).resolve().parents[2]
# The generic odds, and the exact-chance parts below them that the systems' odds build on.
GENERIC = sorted([*(ROOT / "core" / "odds").glob("*.py"), *(ROOT / "core" / "chance").glob("*.py")])
SYSTEM_ODDS = [ROOT / "core" / "systems" / name / "odds.py" for name in SYSTEM_NAMES]


def system_names_in(source: str) -> set[str]:
    """The rule systems a source names, as a word or a part of an identifier
    (``fate_chain``, ``HeroQuestOdds``, ``"forge"``), in any case; ``forget`` is no
    ``forge``."""
    words = set(re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", source).lower()))
    return words & {"fate", "heroquest", "forge"}


def test_the_word_check_finds_a_system_however_it_is_written() -> None:
    assert system_names_in('if contest.system == "fate":') == {"fate"}
    assert system_names_in("from core.systems.forge import ForgeContest") == {"forge"}
    assert system_names_in("HeroQuestOdds, heroquest_chain") == {"heroquest"}
    assert system_names_in("Forget every memoised count (FORGE aside)") == {"forge"}
    assert system_names_in("Forget every memoised count; the fated day") == set()


def test_the_generic_odds_exist() -> None:
    names = {f"{path.parent.name}.{path.stem}" for path in GENERIC}
    assert {"odds.__init__", "chance.solver", "chance.common", "odds.report", "odds.next"} <= names


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_generic_odds_name_no_rule_system(path: Path) -> None:
    # No `if system == ...`, no `else` that means FORGE: a system is reached through the
    # registry by the name the contest carries.
    assert system_names_in(path.read_text(encoding="utf-8")) == set()


@pytest.mark.parametrize(
    "path", [*GENERIC, *SYSTEM_ODDS], ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_no_odds_module_is_a_grab_bag(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 500


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_generic_odds_use_no_private_name_of_another_module(path: Path) -> None:
    # `HeroQuestReader._party_keys(...)`, `from core.x import _y`: what another module
    # keeps to itself may change under it.
    source = path.read_text(encoding="utf-8")
    assert re.findall(r"(?<![\w.])(?!self\b)[A-Za-z]\w*\._[a-z]\w*", source) == []
    assert re.findall(r"^\s*from core\S* import .*\b_[a-z]", source, re.MULTILINE) == []


@pytest.mark.parametrize("name", SYSTEM_NAMES)
def test_each_system_has_its_odds_beside_its_rules(name: str) -> None:
    module = odds_module(name)
    assert module.__name__ == f"core.systems.{name}.odds"
    odds = find_odds(name)
    for hook in ("odds_json", "score_lines", "exchange_lines", "clear_caches"):
        assert callable(getattr(odds, hook))


def test_an_unknown_system_has_no_odds_rather_than_another_systems() -> None:
    with pytest.raises(RuleError, match='no rule system "gurps"'):
        find_odds("gurps")


def test_core_odds_passes_on_no_system_name() -> None:
    """Each system's odds are imported from its own module (issue 26: no re-exports); the
    generic package no longer looks a name up in every system's odds in turn."""
    from core import odds

    for name in ("fate_exchange_odds", "heroquest_contest_odds", "forge_stage_odds"):
        assert not hasattr(odds, name), name


def test_a_fate_contest_odds_load_no_other_system() -> None:
    code = (
        "import sys\n"
        "from core.odds.report import odds_for\n"
        "from core.systems.fate.state import FateParticipant as P, new_contest\n"
        "sides = [P(name='A', side='A', skill=3), P(name='B', side='B', skill=2)]\n"
        "odds = odds_for(new_contest(sides))\n"
        "assert odds['contest'] is not None, odds\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('core.'))))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert run.returncode == 0, run.stderr[-2000:]
    loaded = set(run.stdout.split())
    assert "core.systems.fate.odds" in loaded
    assert not loaded & {
        "core.systems.heroquest",
        "core.systems.heroquest.odds",
        "core.systems.forge",
        "core.systems.forge.odds",
    }
