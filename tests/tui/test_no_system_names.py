"""The dashboard's generic modules name no rule system (issue 12).

What a system adds to the dashboard (its panes, its keys, its forms) lives in its own
module, ``tui/systems/<name>.py``, found by name through the registry in
``tui/systems/__init__.py``. A generic module that names a system (``if system ==
"fate"``, ``{"invoke": "fate"}``, ``from core.systems import forge``) is a place a new
system would have to be added by hand, and a place where one system silently gets
another's behaviour: this test finds them.

A name counts where it is code: an identifier (``fate``, ``core.systems.heroquest``) or a
string that is a system's name or a dotted path through one (``"forge"``,
``"tui.systems.fate"``). Words in the GM's text ("3 fate points", "Fate dice") do not.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

import pytest

SYSTEM_NAMES = {"fate", "heroquest", "forge"}
TUI = Path(__file__).resolve().parents[2] / "tui"

# The one module allowed to name the systems: the registry, which maps each system's
# name to its module (every other module asks it by the contest's ``system``).
REGISTRY = {"systems/__init__.py"}

# Generic modules that still name systems, outside the contest screen's split (issue 12
# goes on): each is to move its system-specific parts into tui/systems/<name>.py. The
# list may only shrink: a module here that no longer names a system fails the test
# below until it is taken off.
NOT_YET = {
    "app.py",  # the default system of a new campaign, the demo's
    "cli.py",  # --system's choices
    "draft.py",  # FORGE's first stage, Fate's dice kind
    "screens/campaigns.py",  # a new campaign's default system
    "screens/roster.py",  # each system's character fields, Fate's compel
    "screens/setup.py",  # each system's participant fields and presets
}


def generic_modules() -> list[Path]:
    """The modules of tui/ that serve every system alike."""
    found = [*TUI.glob("*.py"), *TUI.glob("screens/*.py"), *TUI.glob("widgets/*.py")]
    systems = TUI / "systems"
    found += [p for p in systems.glob("*.py") if p.stem not in SYSTEM_NAMES]
    return sorted(found)


def system_names(source: str) -> list[str]:
    """Where ``source`` names a rule system as code: ``line: token`` each."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            names = {token.string}
        elif token.type == tokenize.STRING:
            try:
                text = eval(token.string, {})  # a plain literal: its value
            except Exception:  # an f-string: its text as written
                text = token.string
            names = set(str(text).strip().split(".")) if "." in str(text) else {str(text)}
        else:
            continue
        if names & SYSTEM_NAMES:
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


def test_the_generic_modules_name_no_rule_system() -> None:
    named = {}
    for path in generic_modules():
        where = path.relative_to(TUI).as_posix()
        found = system_names(path.read_text(encoding="utf-8"))
        if found and where not in REGISTRY | NOT_YET:
            named[where] = found
    assert named == {}, "generic modules name a rule system: move it to tui/systems/<name>.py"


def test_the_list_of_modules_still_naming_systems_only_shrinks() -> None:
    clean = [
        where
        for where in sorted(NOT_YET | REGISTRY)
        if not system_names((TUI / where).read_text(encoding="utf-8"))
    ]
    assert clean == [], "these name no system now: take them off NOT_YET"


def test_the_contest_screen_is_split_into_modules_of_at_most_500_lines() -> None:
    parts = sorted((TUI / "screens").glob("contest*.py"))
    assert len(parts) > 1
    long = {p.name: n for p in parts if (n := len(p.read_text().splitlines())) > 500}
    assert long == {}
