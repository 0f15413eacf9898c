"""No class of Tussle is made by generic code with ``type(name, bases, namespace)`` (issue
26 item 5: a system adds parts, not subclasses): every class under core/ and tui/ is a
class statement someone can read, find and check with mypy. A scan of the modules' AST,
however the call is spelled (``type``, ``builtins.type``, an alias of it,
``types.new_class``); each spelling is planted in a temporary module and must be caught,
and ``type(x)`` (one argument: the type of x) must not."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("core", "tui")


def made_classes(source: str) -> list[int]:
    """The lines of ``source`` that make a class by calling ``type`` with three
    arguments (or ``types.new_class``)."""
    tree = ast.parse(source)
    types_ = {"type", "builtins.type"}  # the builtin type, and names bound to it
    new_class = {"types.new_class"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and dotted(node.value) in types_:
            types_ |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.ImportFrom) and node.module in {"builtins", "types"}:
            for name in node.names:
                if (node.module, name.name) == ("builtins", "type"):
                    types_.add(name.asname or name.name)
                elif (node.module, name.name) == ("types", "new_class"):
                    new_class.add(name.asname or name.name)
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = dotted(node.func)
            arguments = len(node.args) + len(node.keywords)
            if called in new_class or (called in types_ and arguments >= 3):
                lines.append(node.lineno)
    return lines


def dotted(node: ast.expr) -> str:
    """``builtins.type`` for that expression; "" for anything but a dotted name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    return ""


def test_no_class_under_core_or_tui_is_made_with_type() -> None:
    found = []
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            for line in made_classes(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}:{line}")
    assert found == [], f"classes made with type(name, bases, namespace): {found}"


@pytest.mark.parametrize(
    "source",
    [
        "Made = type('Made', (object,), {})",
        "def of(system):\n    return type(f'{system}Screen', (Base,), {'BINDINGS': []})",
        "import builtins\nMade = builtins.type('Made', (), {})",
        "make = type\nMade = make('Made', (), {})",
        "from builtins import type as make\nMade = make('Made', (), {})",
        "import types\nMade = types.new_class('Made', ())",
        "from types import new_class\nMade = new_class('Made')",
        "Made = type(name='Made', bases=(), dict={})",
    ],
)
def test_each_way_of_making_a_class_with_type_is_caught(source: str) -> None:
    assert made_classes(source), source


@pytest.mark.parametrize(
    "source",
    [
        "kind = type(screen)",
        "same = type(a) is type(b)",
        "class Made(Base):\n    pass",
        "def f(type):\n    return type",
    ],
)
def test_the_harmless_look_alikes_are_not(source: str) -> None:
    assert made_classes(source) == [], source
