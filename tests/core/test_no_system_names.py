"""Generic modules name no rule system, nor any of their commands (issue 12).

A rule system is one plug-in: its core part in ``core/systems/<name>/`` (rules, odds,
scenario reader, sheet), its dashboard part in ``tui/systems/<name>.py`` (keys, forms,
panes, roster), both found by name through the registry's list of built-in plug-ins in
``core/rules/__init__.py``. A generic module that names a system (``if system ==
"fate"``, ``{"invoke": "fate"}``, ``from core.systems import forge``) or one of its
commands (``AwardFatePoint``) is a place a new system would have to be added by hand,
and a place where one system silently gets another's behaviour: this test finds them.

A name counts where it is code: an identifier (``fate``, ``core.systems.heroquest``) or a
string that is a system's name or a dotted path through one (``"forge"``,
``"tui.systems.fate"``). Words in the GM's text ("3 fate points", "Fate dice") do not.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_NAMES = {"fate", "heroquest", "forge"}


def _commands() -> set[str]:
    """Every command and event class a system's modules define."""
    found: set[str] = set()
    for rules in (ROOT / "core" / "systems").glob("*/*.py"):
        source = rules.read_text(encoding="utf-8")
        found |= set(re.findall(r"^class (\w+)\((?:Command|Event|ExchangeEvent)\)", source, re.M))
    return found


COMMANDS = _commands()
NAMED = SYSTEM_NAMES | COMMANDS

# The registry's list of the built-in plug-ins: the one generic module that names them.
REGISTRY = {"core/rules/__init__.py"}
# The benchmarks' cases: one contest of each system, as a test would have them.
CASES = {"core/cli/bench.py"}


def generic_modules() -> list[Path]:
    """Every module of core/ and tui/ but a system's own."""
    own = [
        ROOT / "core" / "systems",
        *(ROOT / "tui" / "systems" / f"{n}.py" for n in SYSTEM_NAMES),  # a module
        *(ROOT / "tui" / "systems" / n for n in SYSTEM_NAMES),  # or a package
    ]
    return sorted(
        p
        for tree in ("core", "tui")
        for p in (ROOT / tree).rglob("*.py")
        if not any(p == o or o in p.parents for o in own)
    )


def system_names(source: str) -> list[str]:
    """Where ``source`` names a rule system or one of its commands as code: ``line:
    token`` each. In a string, a command counts by a compound name (``"AwardFatePoint"``),
    not a plain word that a command shares with the GM's text (``"Leave"``)."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            names = {token.string}
            named = names & NAMED
        elif token.type == tokenize.STRING:
            try:
                text = eval(token.string, {})  # a plain literal: its value
            except Exception:  # an f-string: its text as written
                text = token.string
            names = set(str(text).strip().split(".")) if "." in str(text) else {str(text)}
            compound = {n for n in names & COMMANDS if sum(c.isupper() for c in n) > 1}
            named = (names & SYSTEM_NAMES) | compound
        else:
            continue
        if named:
            found.append(f"{token.start[0]}: {token.string}")
    return found


@pytest.mark.parametrize(
    "code",
    [
        'if system == "fate":\n    pass\n',
        'SYSTEM_ACTIONS = {"invoke": "fate", "roles": "forge"}\n',
        "from core.systems import heroquest\n",
        "import core.systems.forge\n",
        'module = "tui.systems.heroquest"\n',
        'if type(command).__name__ in ("AwardFatePoint", "PayFromPool"):\n    pass\n',
    ],
)
def test_the_scan_finds_a_system_named_in_code(code: str) -> None:
    assert system_names(code)


@pytest.mark.parametrize(
    "code",
    [
        'note = "Cynere gains a fate point"\n',
        'hint = "Fate dice, one key per die"\n',
        "points = p.fate_points\n",
        "# a comment on heroquest\n",
        "module = view(state.system)\n",
    ],
)
def test_the_scan_leaves_words_for_the_gm_alone(code: str) -> None:
    assert system_names(code) == []


def test_the_scan_sees_every_module_and_every_command() -> None:
    where = {p.relative_to(ROOT).as_posix() for p in generic_modules()}
    assert {
        "core/campaign/aftermath.py",
        "core/campaign/setup.py",
        "tui/screens/roster.py",
        "tui/draft.py",
    } <= where
    assert not any(w.startswith("core/systems/") for w in where)
    assert {"AwardFatePoint", "Gamble", "SetStage", "InvokeAspect"} <= COMMANDS


def test_the_generic_modules_name_no_rule_system() -> None:
    named = {}
    for path in generic_modules():
        where = path.relative_to(ROOT).as_posix()
        found = system_names(path.read_text(encoding="utf-8"))
        if found and where not in REGISTRY | CASES:
            named[where] = found
    assert named == {}, "generic modules name a rule system: move it to the system's plug-in"


def test_each_exception_still_names_a_system() -> None:
    clean = [
        where
        for where in sorted(REGISTRY | CASES)
        if not system_names((ROOT / where).read_text(encoding="utf-8"))
    ]
    assert clean == [], "these name no system: take them off the exceptions"


def test_the_contest_screen_is_split_into_modules_of_at_most_500_lines() -> None:
    parts = sorted((ROOT / "tui" / "screens").glob("contest*.py"))
    assert len(parts) > 1
    long = {p.name: n for p in parts if (n := len(p.read_text().splitlines())) > 500}
    assert long == {}
