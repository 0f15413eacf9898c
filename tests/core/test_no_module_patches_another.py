"""No module of Tussle changes another module's globals: not the standard library's, not
Textual's, not another Tussle module's.

A patch is process-wide and invisible where it acts: core/dataclass_cache.py once
replaced ``dataclasses.exec`` for every dataclass defined after ``tussle`` started,
Textual's included, to save start-up time. The scan looks, in every module of core/ and
tui/, for what a patch is written as: an assignment to (or ``del`` of) an attribute of a
name bound by an import (``dataclasses.exec = …``, ``textual.app.App.x = …``),
``setattr``/``delattr`` on such a name, writing through its ``__dict__`` or ``vars()``,
and replacing entries of ``sys.modules``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported_names(tree: ast.AST) -> set[str]:
    """The names a module's imports bind, at any level (a lazy import counts)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name for a in node.names if a.name != "*"}
    return names


def root_name(node: ast.expr) -> str | None:
    """``a`` for ``a.b.c``, ``a.b[0].c``, ``vars(a)[…]``; None for anything else."""
    while True:
        if isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "vars"
            and node.args
        ):
            node = node.args[0]
        else:
            return node.id if isinstance(node, ast.Name) else None


def through_dict(node: ast.expr) -> bool:
    """Whether ``node`` reaches into a namespace: ``x.__dict__`` or ``vars(x)``."""
    for part in ast.walk(node):
        if isinstance(part, ast.Attribute) and part.attr == "__dict__":
            return True
        if (
            isinstance(part, ast.Call)
            and isinstance(part.func, ast.Name)
            and part.func.id == "vars"
        ):
            return True
    return False


def is_sys_modules(node: ast.expr) -> bool:
    return ast.unparse(node).startswith("sys.modules")


def patches(source: str) -> list[str]:
    """The lines of ``source`` that change another module's globals (as written)."""
    tree = ast.parse(source)
    imported = imported_names(tree)
    found = []

    def patched(target: ast.expr) -> bool:
        if isinstance(target, ast.Tuple | ast.List):
            return any(patched(t) for t in target.elts)
        if isinstance(target, ast.Attribute):
            return root_name(target) in imported or is_sys_modules(target)
        if isinstance(target, ast.Subscript):
            return is_sys_modules(target.value) or (
                through_dict(target.value) and root_name(target.value) in imported
            )
        return False

    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("setattr", "delattr") and node.args:
                if root_name(node.args[0]) in imported or is_sys_modules(node.args[0]):
                    found.append(ast.unparse(node))
            elif (
                isinstance(func, ast.Attribute)
                and func.attr in ("update", "setdefault", "pop", "clear", "__setitem__")
                and through_dict(func.value)
                and root_name(func.value) in imported
            ):
                found.append(ast.unparse(node))
        if any(patched(t) for t in targets):
            found.append(ast.unparse(node).splitlines()[0])
    return found


def test_the_scan_finds_each_way_of_patching_a_module() -> None:
    # core/dataclass_cache.py's own line, and its uninstall:
    assert patches('import dataclasses\nsetattr(dataclasses, "exec", _exec)') != []
    assert patches('import dataclasses\ndef off():\n    delattr(dataclasses, "exec")') != []
    assert patches("import dataclasses\ndataclasses.exec = f") != []
    assert patches("import dataclasses as d\nd.exec = f") != []
    assert patches("import os.path\nos.path.join = f") != []
    assert patches("from textual import app\napp.App.run = f") != []
    assert patches("from textual.app import App\nApp.run, x = f, 1") != []
    assert patches("def f():\n    import textual\n    textual.x += 1") != []
    assert patches("import builtins\ndel builtins.exec") != []
    assert patches('import dataclasses\ndataclasses.__dict__["exec"] = f') != []
    assert patches('import dataclasses\nvars(dataclasses)["exec"] = f') != []
    assert patches("import dataclasses\nvars(dataclasses).update(exec=f)") != []
    assert patches('import sys\nsys.modules["dataclasses"] = fake') != []
    assert patches('import sys\nsys.modules["dataclasses"].exec = f') != []


def test_the_scan_leaves_a_module_s_own_state_alone() -> None:
    assert patches("import os\nos.environ['X'] = '1'") == []  # not a global rebound
    assert patches("import dataclasses\nx = dataclasses.replace(y)\nx.a = 1") == []
    assert patches("class A:\n    pass\nA.x = 1\nself_x = A()\nself_x.y = 2") == []
    assert patches("import re\n_cache = {}\n_cache['k'] = re.compile('k')") == []
    assert patches("from typing import Any\ndef f(self: Any) -> None:\n    self.x = 1") == []


def test_no_module_of_tussle_patches_another() -> None:
    offenders = {
        path.relative_to(ROOT).as_posix(): found
        for package in ("core", "tui")
        for path in sorted((ROOT / package).rglob("*.py"))
        if (found := patches(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}
