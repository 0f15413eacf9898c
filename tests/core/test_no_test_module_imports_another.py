"""A test module never imports another test module: shared helpers live in
tests/helpers.py and tests/strategies.py (and Pilot helpers in tests/tui/conftest.py).

Importing a test module runs it twice under two names, collects its tests into the
importer's namespace, and ties one file's tests to another's internals."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def imported_test_modules(source: str) -> list[str]:
    """The test modules (``test_*``) a Python source imports, by dotted name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [f"{node.module or ''}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found += [n for n in names if any(part.startswith("test_") for part in n.split("."))]
    return found


def test_the_scan_finds_each_kind_of_import_of_a_test_module() -> None:
    assert imported_test_modules("from tests.core.test_check import seed") != []
    assert imported_test_modules("import tests.tui.test_fate_dashboard") != []
    assert imported_test_modules("from .test_check import seed") != []
    assert imported_test_modules("from tests.tui import test_secrets") != []
    assert imported_test_modules("from tests.helpers import seed\nimport pytest") == []


def test_no_test_module_imports_another() -> None:
    offenders = {
        path.relative_to(TESTS).as_posix(): imported
        for path in sorted(TESTS.rglob("*.py"))
        if (imported := imported_test_modules(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}
