"""Generic modules never read a field that only one rule system defines (issue 26).

A system keeps what it needs on its own classes: its contest, participants, events and
sheet (Fate's ``fate_points``, HeroQuest's ``hero_points_left``, FORGE's ``trauma``). A
generic module of ``core/`` or ``tui/`` (everything outside ``core/systems/<name>/`` and
``tui/systems/<name>``) that reads one of those by name (``state.fate_points``,
``getattr(event, "twist", None)``) works for that system alone, and a fourth system with
a sheet would have to edit it: it must ask the system through a hook instead.

The scan, by the syntax tree: the names each system's classes define (annotated fields,
methods, properties), less those any generic class defines; a generic module's attribute
reads (``x.name``, ``getattr(x, "name")``, ``hasattr``) must name none of them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _systems() -> dict[str, list[Path]]:
    """Each system's own modules: its core package, its dashboard module or package,
    and (for the test plug-ins) its whole package."""
    out: dict[str, list[Path]] = {}
    for package in sorted((ROOT / "core" / "systems").iterdir()):
        if package.is_dir() and (package / "__init__.py").exists():
            out[package.name] = sorted(package.rglob("*.py"))
    for name in out:
        tui = ROOT / "tui" / "systems"
        out[name] += [tui / f"{name}.py"] if (tui / f"{name}.py").exists() else []
        out[name] += sorted((tui / name).rglob("*.py")) if (tui / name).is_dir() else []
    for package in sorted((ROOT / "tests" / "plugins").iterdir()):
        if package.is_dir() and (package / "__init__.py").exists():
            out[package.name] = sorted(package.rglob("*.py"))
    return out


SYSTEMS = _systems()
OWN = {path for paths in SYSTEMS.values() for path in paths}


def generic_modules() -> list[Path]:
    return sorted(
        p for tree in ("core", "tui") for p in (ROOT / tree).rglob("*.py") if p not in OWN
    )


# Reads of another library's attribute that a system's class happens to name too.
NOT_OURS = {("tui/glyphs.py", "style")}  # Rich's Segment.style (Fate's is a victory's)


# The three tests scan the same tree (:func:`scanned`, once), on one worker.
pytestmark = pytest.mark.xdist_group("no_system_fields")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def defined(tree: ast.AST) -> Iterator[str]:
    """The names the classes of ``tree`` define: fields, methods, properties, and what
    their methods set on ``self``."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            yield node.attr
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                yield item.target.id
            elif isinstance(item, ast.Assign):
                yield from (t.id for t in item.targets if isinstance(t, ast.Name))
            elif isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                yield item.name


def _modules(tree: ast.AST) -> set[str]:
    """The names ``tree`` imports (``itertools``, ``glyphs``): ``glyphs.mode`` reads a
    module, not an object's field."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {(a.asname or a.name).partition(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name for a in node.names}
    return names


def read(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Where ``tree`` reads an attribute by name: ``x.name``, ``getattr(x, "name"...)``,
    ``hasattr(x, "name")`` (not a module's attribute: ``itertools.chain``)."""
    modules = _modules(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            if not (isinstance(node.value, ast.Name) and node.value.id in modules):
                yield node.lineno, node.attr
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            yield node.lineno, node.args[1].value


def own_fields(systems: dict[str, Iterable[ast.AST]], generic: Iterable[ast.AST]) -> dict[str, str]:
    """Each name that exactly one system's classes define and no generic class does,
    with that system's name."""
    shared = {name for tree in generic for name in defined(tree)}
    by_name: dict[str, set[str]] = {}
    for system, trees in systems.items():
        for tree in trees:
            for name in defined(tree):
                by_name.setdefault(name, set()).add(system)
    return {
        name: next(iter(owners))
        for name, owners in by_name.items()
        if len(owners) == 1 and name not in shared and not name.startswith("__")
    }


def reads_of_system_fields(
    modules: Iterable[tuple[str, ast.AST]], fields: dict[str, str]
) -> list[str]:
    return [
        f"{where}:{line} reads {name} ({fields[name]}'s)"
        for where, tree in modules
        for line, name in read(tree)
        if name in fields and (where, name) not in NOT_OURS
    ]


@cache
def scanned() -> tuple[dict[Path, ast.Module], dict[str, str]]:
    """The real tree's generic modules, and the fields only one system defines: worked
    out once for the module's three tests (they only read them)."""
    generic = {p: _tree(p) for p in generic_modules()}
    fields = own_fields(
        {s: [_tree(p) for p in paths] for s, paths in SYSTEMS.items()}, generic.values()
    )
    return generic, fields


def test_no_generic_module_reads_a_field_only_one_system_defines() -> None:
    generic, fields = scanned()
    found = reads_of_system_fields(
        ((str(p.relative_to(ROOT)), t) for p, t in generic.items()), fields
    )
    assert found == []


def test_the_scan_finds_a_planted_read() -> None:
    """A recap that reads HeroQuest's ``hero_points`` off an event, planted in the real
    tree's generic modules: the scan names it, by ``getattr`` as by the dot."""
    fields = scanned()[1]
    assert fields.get("hero_points_left") == "heroquest"
    planted = ast.parse(
        "def spent(event, state):\n"
        "    a = getattr(event, 'hero_points_left', None)\n"
        "    return state.hero_points_left\n"
    )
    assert reads_of_system_fields([("core/campaign/recap.py", planted)], fields) == [
        "core/campaign/recap.py:2 reads hero_points_left (heroquest's)",
        "core/campaign/recap.py:3 reads hero_points_left (heroquest's)",
    ]


def test_the_scan_finds_a_read_of_a_field_the_roster_no_longer_holds() -> None:
    """The built-in systems' character fields are their sheets' (issue 26 item 1), no
    longer the roster's ``Character``'s: a generic module reading one off a character
    (the summary's ``fate_points``, the watch's ``trauma_pool``) is named."""
    fields = scanned()[1]
    moved = {
        "fate_points": "fate",
        "adversity_of": "heroquest",
        "related": "heroquest",
        "benefits": "heroquest",
        "trauma_pool": "forge",
        "armor_capacity": "forge",
        "max_damage": "forge",
    }
    assert {name: fields.get(name) for name in moved} == moved
    planted = ast.parse(
        "def line(character):\n"
        "    return character.fate_points, getattr(character, 'trauma_pool', None)\n"
    )
    assert reads_of_system_fields([("core/campaign/aftermath.py", planted)], fields) == [
        "core/campaign/aftermath.py:2 reads fate_points (fate's)",
        "core/campaign/aftermath.py:2 reads trauma_pool (forge's)",
    ]
