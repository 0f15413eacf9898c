"""No re-export chains (issue 26 item 5): every module of ``core/`` and ``tui/`` imports a
name from the module that defines it, and a package's ``__init__`` owns nothing but its
docstring (what the package owns and may import).

A re-export is a name a module imports from another of Tussle's modules only to pass it
on: listed in its ``__all__``, imported ``as`` itself (``from core.files.disk import
StoreError as StoreError``: the spelling mypy and ruff take as "re-exported"), or never
used in the module at all (a ``# noqa: F401`` import). Read, not run: the source's AST.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A rule system's package imports its own modules (so the codec, loading a system by its
# tags' first word, finds every saved class) and passes on no name: checked apart below.
SYSTEM_PACKAGES = {p.relative_to(ROOT).as_posix() for p in ROOT.glob("core/systems/*/__init__.py")}
# None left (issue 26): a name passed on by name would be listed here.
KNOWN: set[str] = set()
KNOWN_NAMES: set[tuple[str, str]] = set()

NEW_PACKAGES = ("core/campaign", "core/cli", "core/files", "core/saves")


def _own(module: str) -> bool:
    return module.split(".")[0] in ("core", "tui")


def reexports(path: str, source: str) -> list[str]:
    """``path:line name`` for each name ``source`` imports from a core or tui module only
    to pass it on."""
    tree = ast.parse(source)
    imported: dict[str, tuple[int, bool]] = {}
    for node in tree.body:
        body = node.body if isinstance(node, ast.If) else [node]  # if TYPE_CHECKING:
        for statement in body:
            if isinstance(statement, ast.ImportFrom) and statement.module:
                if not _own(statement.module):
                    continue
                for alias in statement.names:
                    if alias.name == "*":
                        imported["*"] = (statement.lineno, False)
                    else:
                        name = alias.asname or alias.name
                        imported[name] = (statement.lineno, alias.asname == alias.name)
    listed: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                assert isinstance(node.value, ast.List | ast.Tuple)
                listed = {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    for node in ast.walk(tree):  # names in string annotations and docstrings' code
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            used.update(re.findall(r"[A-Za-z_]\w*", node.value))
    found = []
    for name, (line, as_itself) in sorted(imported.items()):
        if name == "*" or name in listed or as_itself or name not in used:
            found.append(f"{path}:{line} {name}")
    return found


def test_the_scan_finds_each_kind_of_re_export() -> None:
    planted = (
        "from core.files.disk import StoreError, BadSave as BadSave, LOCK\n"
        "from core.model import Contest\n"
        "from core.rules.base import *\n"
        "from msgspec import Struct\n"
        "__all__ = ['StoreError']\n"
        "def f(c: Contest) -> None: ...\n"
    )
    assert reexports("m.py", planted) == [
        "m.py:3 *",
        "m.py:1 BadSave",
        "m.py:1 LOCK",
        "m.py:1 StoreError",
    ]


def test_no_module_passes_on_a_name_it_imported() -> None:
    found = []
    for tree in ("core", "tui"):
        for path in sorted((ROOT / tree).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative in SYSTEM_PACKAGES | KNOWN:
                continue
            found += [
                f
                for f in reexports(relative, path.read_text(encoding="utf-8"))
                if (relative, f.rsplit(" ", 1)[1]) not in KNOWN_NAMES
            ]
    assert found == [], "import these from the module that defines them:\n" + "\n".join(found)


def test_each_new_package_init_is_its_docstring_alone() -> None:
    for package in NEW_PACKAGES:
        tree = ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))
        docstring = ast.get_docstring(tree)
        assert docstring and "may import" in docstring, package
        assert len(tree.body) == 1, f"{package}/__init__.py holds more than its docstring"


def test_a_system_package_imports_its_own_modules_and_no_name() -> None:
    found = []
    for init in sorted(SYSTEM_PACKAGES):
        folder = (ROOT / init).parent
        package = ".".join(folder.relative_to(ROOT).parts)
        for node in ast.parse((ROOT / init).read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                found += [f"{init}:{node.lineno} import {a.name}" for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                found += [
                    f"{init}:{node.lineno} {a.name}"
                    for a in node.names
                    if node.module != package or not (folder / f"{a.name}.py").exists()
                ]
    assert found == [], "a system package passes these on:\n" + "\n".join(found)
