"""Tussle stands on Textual's public API (issue 26, item 4): an upgrade of Textual must not
silently break every key or every frame.

A scan of every module of core/, tui/ and tests/ (an AST, however the thing is spelled)
fails on:

* an import of a private Textual module or name (``textual._queue``,
  ``textual.widgets._toast``, ``from textual.widgets import _tree``,
  ``importlib.import_module("textual._border")``, ``sys.modules.get("textual._x")``);
* an assignment to an attribute of a class (or module) Tussle did not write: ``Widget.x =
  ...``, ``setattr(Widget, ...)``, through an alias or a loop (``for cls in [Widget]:``),
  through a helper (``setattr(owner, ...)`` on anything but ``self``/``cls`` or a name of
  Tussle's), through ``vars()`` or ``__dict__``, ``object.__setattr__``, ``setattr``
  passed around as a value, ``monkeypatch.setattr``/``mock.patch`` on a foreign target,
  and replacing ``sys.modules`` entries;
* a read of a private attribute that Textual defines and Tussle never does
  (``app._notifications``, ``pump._message_queue``, ``screen._compositor``...): the
  names are read from Textual's installed source;
* a class of tui/ that, subclassing a Textual class, writes a private name one of its
  Textual bases has (a method, a class attribute, ``self._x = …``): it would change
  Textual's own state (ExchangeLog's ``self._width`` was Log's longest line).

Each kind of violation is planted in a temporary module and must be caught; the
harmless look-alikes must not be.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import inspect
import re
import sys
import types
from functools import cache
from pathlib import Path

import pytest
import textual

# One worker scans: the scan of every module (and of Textual's source) is made once per
# process and shared by this module's tests; spread over xdist's workers, each made it.
pytestmark = pytest.mark.xdist_group("public_textual")

ROOT = Path(__file__).resolve().parents[1]
OURS = {"core", "tui", "tests"}  # Tussle's own top-level packages
SCANNED = ("core", "tui", "tests")
SETTERS = {"setattr", "delattr", "__setattr__", "__delattr__"}
DICT_WRITES = {"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"}
MODULE_NAME = re.compile(r"^textual(\.\w+)*$")


def private_part(dotted: str) -> bool:
    """``textual.widgets._toast`` -> True: a part after ``textual`` starts with ``_``."""
    return any(part.startswith("_") for part in dotted.split(".")[1:])


def defined_names(nodes: list[ast.AST]) -> tuple[dict[str, str | None], set[str]]:
    """Names the module's imports bind to other packages than Tussle's (foreign: each with
    the dotted path it stands for), and to Tussle's own (plus the classes and functions
    the module defines)."""
    foreign: dict[str, str | None] = {}
    own: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in OURS:
                    own.add(alias.asname or top)
                else:
                    foreign[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            for alias in node.names:
                bound = alias.asname or alias.name
                if node.level or module.split(".")[0] in OURS:
                    own.add(bound)
                else:
                    foreign[bound] = f"{module}.{alias.name}"
        elif isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            own.add(node.name)
    return {k: v for k, v in foreign.items() if k not in own}, own


@cache
def stdlib_module(path: str) -> bool:
    """Whether ``path`` (``os``, ``os.path``, ``sys``) is a module of the standard library
    (not a class of it: ``asyncio.Queue`` is not)."""
    if path.split(".")[0] not in sys.stdlib_module_names:
        return False
    found: object = None
    try:
        found = importlib.import_module(path)
    except ImportError:
        parent, _, name = path.rpartition(".")
        try:
            found = getattr(importlib.import_module(parent), name, None) if parent else None
        except ImportError:
            return False
    return isinstance(found, types.ModuleType)


def root(node: ast.expr) -> ast.expr:
    """``a`` for ``a.b.c``, ``a.b[0]``."""
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Starred):
        node = node.value
    return node


def call_name(node: ast.Call) -> str:
    """``setattr``, ``object.__setattr__``, ``monkeypatch.setattr``: the dotted callee."""
    try:
        return ast.unparse(node.func)
    except Exception:  # pragma: no cover - unparse takes any expression
        return ""


class Scan:
    """One module's violations, each as (kind, the line as written)."""

    def __init__(self, source: str) -> None:
        self.tree = ast.parse(source)
        self.nodes = list(ast.walk(self.tree))  # walked once: the scan looks many times
        self.foreign, self.own = defined_names(self.nodes)
        self.found: list[tuple[str, str]] = []
        self._aliases()
        self._imports()
        self._assignments()

    def say(self, kind: str, node: ast.AST) -> None:
        self.found.append((kind, ast.unparse(node).splitlines()[0]))

    # -- which names stand for something Tussle did not write -----------------------------
    def is_foreign(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.foreign
        if isinstance(node, ast.Attribute):
            return node.attr == "__class__" or self.is_foreign(node.value)
        if isinstance(node, ast.Subscript | ast.Starred):
            return self.is_foreign(node.value)
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            return any(self.is_foreign(e) for e in node.elts)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "type":  # the class of anything: not known to be Tussle's
                return True
            if node.func.id in ("getattr", "vars") and node.args:
                return self.is_foreign(node.args[0])
        if isinstance(node, ast.NamedExpr):
            return self.is_foreign(node.value)
        return False

    def is_own(self, node: ast.expr) -> bool:
        """Known to be Tussle's (``self``/``cls``, or a name of Tussle's), or a module of
        the standard library (``sys.stdin``, ``tempfile.tempdir``: a module, not a
        class; tests swap such globals and put them back)."""
        base = root(node)
        if isinstance(base, ast.Name) and base.id not in self.foreign:
            return base.id in ("self", "cls") or base.id in self.own
        return self.is_stdlib_module(node)

    def path_of(self, node: ast.expr) -> str | None:
        """The dotted path an import-bound ``a.b.c`` stands for; None if not one."""
        if isinstance(node, ast.Name):
            return self.foreign.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.path_of(node.value)
            return None if base is None else f"{base}.{node.attr}"
        return None

    def is_stdlib_module(self, node: ast.expr) -> bool:
        path = self.path_of(node)
        return path is not None and stdlib_module(path)

    def _aliases(self) -> None:
        """Names bound to something foreign (``W = Widget``, ``for cls in [Widget]``,
        ``with ... as``), until nothing new is found."""

        def bind(target: ast.expr) -> bool:
            names = [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
            new = [n for n in names if n not in self.foreign]
            self.foreign.update(dict.fromkeys(new))  # standing for something unknown
            return bool(new)

        kinds = (ast.Assign, ast.AnnAssign, ast.NamedExpr, ast.For, ast.AsyncFor, ast.comprehension)
        binders = [
            n for n in self.nodes if isinstance(n, (*kinds, ast.comprehension, ast.withitem))
        ]
        changed = True
        while changed:
            changed = False
            for node in binders:
                if isinstance(node, ast.Assign) and self.is_foreign(node.value):
                    for target in node.targets:
                        changed |= bind(target)
                elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
                    if self.is_foreign(node.value):
                        changed |= bind(node.target)
                elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
                    if self.is_foreign(node.iter):
                        changed |= bind(node.target)
                elif (
                    isinstance(node, ast.withitem)
                    and node.optional_vars is not None
                    and self.is_foreign(node.context_expr)
                ):
                    changed |= bind(node.optional_vars)

    # -- private modules of Textual --------------------------------------------------------
    def _imports(self) -> None:
        for node in self.nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "textual" and private_part(alias.name):
                        self.say("private import", node)
            elif isinstance(node, ast.ImportFrom) and not node.level:
                module = node.module or ""
                if module.split(".")[0] != "textual":
                    continue
                if private_part(module) or any(
                    a.name.startswith("_") and not a.name.startswith("__") for a in node.names
                ):
                    self.say("private import", node)
            elif isinstance(node, ast.Call | ast.Subscript):
                values = node.args if isinstance(node, ast.Call) else [node.slice]
                for value in values:
                    if (
                        isinstance(value, ast.Constant)
                        and isinstance(value.value, str)
                        and MODULE_NAME.match(value.value)
                        and private_part(value.value)
                    ):
                        self.say("private import", node)

    # -- assignments to what Tussle did not write ------------------------------------------
    def through_dict(self, node: ast.expr) -> ast.expr | None:
        """The namespace's owner for ``x.__dict__`` or ``vars(x)``; None otherwise."""
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            return node.value
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "vars"
            and node.args
        ):
            return node.args[0]
        return None

    def patched(self, target: ast.expr) -> bool:
        if isinstance(target, ast.Tuple | ast.List):
            return any(self.patched(t) for t in target.elts)
        if isinstance(target, ast.Starred):
            return self.patched(target.value)
        if isinstance(target, ast.Attribute):
            if ast.unparse(target).startswith("sys.modules"):
                return True
            owner = self.through_dict(target.value)
            if owner is not None:
                return not self.is_own(owner)
            return self.is_foreign(target.value) and not self.is_stdlib_module(target.value)
        if isinstance(target, ast.Subscript):
            if ast.unparse(target.value) == "sys.modules":
                return True
            owner = self.through_dict(target.value)
            return owner is not None and not self.is_own(owner)
        return False

    def _assignments(self) -> None:
        called = {id(node.func) for node in self.nodes if isinstance(node, ast.Call)}
        for node in self.nodes:
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign | ast.Delete):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            if any(self.patched(t) for t in targets):
                self.say("assignment", node)
            if isinstance(node, ast.Call):
                self._call(node)
            # setattr handed on as a value (an alias, a partial, map's function)
            if isinstance(node, ast.Name | ast.Attribute) and id(node) not in called:
                name = node.id if isinstance(node, ast.Name) else node.attr
                if name in SETTERS and isinstance(node.ctx, ast.Load):
                    self.say("setattr as a value", node)
            # getattr(builtins, "setattr"): setattr fetched by its name
            if (
                isinstance(node, ast.Call)
                and call_name(node) == "getattr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in SETTERS
            ):
                self.say("setattr by name", node)

    @staticmethod
    def own_path(path: str) -> bool:
        """``"core.odds.odds_for"``, ``"os.replace"``: what the path's last name belongs to
        is Tussle's or a module of the standard library."""
        owner = path.rpartition(".")[0]
        return path.split(".")[0] in OURS or (bool(owner) and stdlib_module(owner))

    def _call(self, node: ast.Call) -> None:
        name = call_name(node)
        last = name.rsplit(".", 1)[-1]
        args = node.args
        if last in SETTERS and args:
            # setattr(x, ...), builtins.setattr, object.__setattr__(x, ...),
            # monkeypatch.setattr(x, ...): x must be known to be Tussle's; x.__setattr__(..)
            # sets on x itself.
            if name.endswith((".__setattr__", ".__delattr__")) and name.split(".")[0] not in (
                "object",
                "type",
                "super()",
            ):
                target: ast.expr = node.func.value  # type: ignore[attr-defined]
            else:
                target = args[0]
            if isinstance(target, ast.Constant) and isinstance(target.value, str):
                # monkeypatch.setattr("package.module.name", value)
                if not self.own_path(target.value):
                    self.say("assignment", node)
            elif not self.is_own(target):
                self.say("assignment", node)
        elif last in ("patch", "object", "dict", "multiple") and "patch" in name and args:
            target = args[0]
            if isinstance(target, ast.Constant) and isinstance(target.value, str):
                if not self.own_path(target.value):
                    self.say("assignment", node)
            elif not self.is_own(target):
                self.say("assignment", node)
        elif isinstance(node.func, ast.Attribute) and last in DICT_WRITES:
            owner = self.through_dict(node.func.value)
            if owner is not None and not self.is_own(owner):
                self.say("assignment", node)
            if ast.unparse(node.func.value) == "sys.modules" and last != "pop":
                self.say("assignment", node)
        elif name == "operator.setitem" and args:
            owner = self.through_dict(args[0])
            if owner is not None and not self.is_own(owner):
                self.say("assignment", node)


# -- private attributes of Textual -----------------------------------------------------------


def private_names(scan: Scan) -> set[str]:
    """Every ``_name`` (not a dunder) a module defines: attributes and names assigned,
    functions, methods, classes, parameters."""
    names: set[str] = set()
    for node in scan.nodes:
        name = None
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = node.name
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            name = node.attr
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            name = node.id
        elif isinstance(node, ast.arg | ast.keyword):
            name = node.arg
        if name and name.startswith("_") and not name.startswith("__"):
            names.add(name)
    return names


@cache
def tussle() -> dict[str, Scan]:
    """Every module of Tussle, scanned, by its path in the repository."""
    return {
        path.relative_to(ROOT).as_posix(): Scan(path.read_text(encoding="utf-8"))
        for package in SCANNED
        for path in sorted((ROOT / package).rglob("*.py"))
    }


@cache
def textual_private() -> frozenset[str]:
    """Textual's private names (every ``_name`` its source writes) that Tussle never
    defines itself: reading one is reading Textual's insides."""
    theirs: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        theirs |= set(re.findall(r"\b_[A-Za-z]\w*", path.read_text(encoding="utf-8")))
    ours = set().union(*(private_names(scan) for scan in tussle().values()))
    return frozenset(theirs - ours)


def private_reads(scan: Scan, private: frozenset[str]) -> list[tuple[str, str]]:
    """Reads of Textual's private names (``os._exit`` is the standard library's own)."""
    found = []
    for node in scan.nodes:
        name = None
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            if scan.is_stdlib_module(node.value):
                continue
            name = node.attr
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
        ):
            name = str(node.args[1].value)
        if name is not None and name in private:
            found.append(("private read", ast.unparse(node).splitlines()[0]))
    return found


def violations(source: str, private: frozenset[str] = frozenset()) -> list[str]:
    """The kinds of violation found in ``source`` (``private``: Textual's private names)."""
    scan = Scan(source)
    return [kind for kind, _ in scan.found + private_reads(scan, private)]


# -- each kind of violation, planted ---------------------------------------------------------

PLANTED = {
    # private modules
    "import a private module": "import textual._queue",
    "import a private module, aliased": "import textual.widgets._toast as toast",
    "from a private module": "from textual._queue import Queue",
    "from a widget's private module": "from textual.widgets._toast import Toast",
    "a private module from its package": "from textual.widgets import _tree",
    "a private module of textual": "from textual import _border",
    "a private name": "from textual.app import _get_key_display",
    "import_module": 'import importlib\nm = importlib.import_module("textual._border")',
    "__import__": '__import__("textual._queue")',
    "lazy, in a function": "def f():\n    from textual._border import get_box\n",
    "sys.modules": 'import sys\nborder = sys.modules.get("textual._border")',
    # assignments to a class Tussle did not write
    "attribute": "from textual.widget import Widget\nWidget.render_lines = f",
    "a module's table": "from textual.renderables import digits\ndigits.DIGITS3X3 = []",
    "dotted": "import textual.app\ntextual.app.App.run = f",
    "augmented": "from textual.app import App\nApp.CSS += 'x'",
    "deleted": "from textual.app import App\ndel App.run",
    "in a tuple": "from textual.app import App\nApp.run, x = f, 1",
    "setattr": 'from textual.widget import Widget\nsetattr(Widget, "render_lines", f)',
    "delattr": 'from textual.widget import Widget\ndelattr(Widget, "render_lines")',
    "builtins.setattr": (
        'import builtins\nfrom textual.app import App\nbuiltins.setattr(App, "x", 1)'
    ),
    "object.__setattr__": 'from textual.app import App\nobject.__setattr__(App, "x", 1)',
    "type.__setattr__": 'from textual.app import App\ntype.__setattr__(App, "x", 1)',
    "its own __setattr__": 'from textual.app import App\nApp.__setattr__("x", 1)',
    "an alias": "from textual.widget import Widget\nW = Widget\nW.render_lines = f",
    "an alias of an alias": "from textual.widget import Widget\nW = Widget\nV = W\nV.x = 1",
    "a loop": (
        "from textual.widget import Widget\nfrom textual.widgets import Static\n"
        "for cls in [Widget, Static]:\n    cls.render_lines = f"
    ),
    "a loop over a list": (
        "from textual.widget import Widget\nclasses = [Widget]\n"
        "for cls in classes:\n    setattr(cls, 'render_lines', f)"
    ),
    "a comprehension": (
        "from textual.widget import Widget\n[setattr(c, 'x', 1) for c in (Widget,)]"
    ),
    "getattr of a module": (
        "import textual.widget as w\ncls = getattr(w, 'Widget')\ncls.render_lines = f"
    ),
    "type() of an object": "type(widget).render_lines = f",
    "__class__": "widget.__class__.render_lines = f",
    "through a helper": (
        "def _patch(owner, name, value):\n    setattr(owner, name, value)\n"
        "from textual.widget import Widget\n_patch(Widget, 'render_lines', f)"
    ),
    "vars()": "from textual.widget import Widget\nvars(Widget)['x'] = 1",
    "__dict__": "from textual.widget import Widget\nWidget.__dict__['x'] = 1",
    "vars().update": "from textual.widget import Widget\nvars(Widget).update(x=1)",
    "operator.setitem": (
        "import operator\nfrom textual.widget import Widget\noperator.setitem(vars(Widget), 'x', 1)"
    ),
    "setattr as a value": "from functools import partial\nset_it = partial(setattr, obj)",
    "setattr renamed": "put = setattr\nput(thing, 'x', 1)",
    "setattr by name": "import builtins\nput = getattr(builtins, 'setattr')",
    "monkeypatch.setattr": (
        "from textual.app import App\n"
        "def test(monkeypatch):\n    monkeypatch.setattr(App, 'run', f)"
    ),
    "monkeypatch.setattr by path": (
        "def test(monkeypatch):\n    monkeypatch.setattr('textual.app.App.run', f)"
    ),
    "mock.patch": "from unittest import mock\nwith mock.patch('textual.app.App.run'):\n    pass",
    "patch.object": (
        "from unittest.mock import patch\nfrom textual.app import App\n"
        "with patch.object(App, 'run'):\n    pass"
    ),
    "sys.modules replaced": 'import sys\nsys.modules["textual.app"] = fake',
    "sys.modules updated": "import sys\nsys.modules.update(fake=fake)",
    # private attributes of Textual
    "a private attribute": "def f(app):\n    return app._notifications",
    "a private attribute by getattr": "def f(app):\n    return getattr(app, '_keymap', {})",
}

HARMLESS = {
    "a public import": "from textual.widgets import Static\nimport textual.app",
    "a public module named with an underscore-free path": "import textual.renderables.digits",
    "an instance's attribute": "from textual.widgets import Static\ns = Static()\ns.x = 1",
    "self": "class A:\n    def f(self, n):\n        setattr(self, n, 1)\n        self.y = 2",
    "a class of Tussle's": "from tui.app import TussleApp\nTussleApp.x = 1",
    "a class defined here": "class A:\n    pass\nA.x = 1\nsetattr(A, 'y', 2)",
    "a module of Tussle's": (
        "import core.odds\ndef test(monkeypatch):\n"
        "    monkeypatch.setattr(core.odds, 'odds_for', f)"
    ),
    "monkeypatch.setenv": "def test(monkeypatch):\n    monkeypatch.setenv('X', '1')",
    "os.environ": "import os\nos.environ['X'] = '1'",
    "a dict of Tussle's": "cache = {}\ncache['k'] = 1",
    "a private name of Tussle's": "def f(app):\n    return app._sent",
    "getattr of a public name": "def f(app):\n    return getattr(app, 'title', '')",
    "a string that names a private module in prose": 'x = "read textual._border for why"',
}


@pytest.mark.parametrize("name", list(PLANTED))
def test_the_scan_catches_each_kind_of_violation(name: str, tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(PLANTED[name], encoding="utf-8")
    private = frozenset({"_notifications", "_keymap"}) | textual_private()
    assert violations(planted.read_text(encoding="utf-8"), private) != [], PLANTED[name]


@pytest.mark.parametrize("name", list(HARMLESS))
def test_the_scan_leaves_lookalikes_alone(name: str) -> None:
    assert violations(HARMLESS[name], textual_private()) == [], HARMLESS[name]


def test_textuals_private_names_are_found_in_its_source() -> None:
    # Names read from Textual's own code (app.py, message_pump.py, screen.py): the scan of
    # private reads knows them without a list kept by hand.
    assert {"_notifications", "_keymap", "_message_queue", "_compositor"} <= textual_private()
    assert "_sent" not in textual_private()  # TussleApp's own


def test_tussle_uses_textuals_public_api_only() -> None:
    private = textual_private()
    offenders = {
        path: [line for _, line in found]
        for path, scan in tussle().items()
        if (found := scan.found + private_reads(scan, private))
    }
    assert offenders == {}


# -- Tussle's classes writing Textual's private state -----------------------------------------

SELF_WRITE = re.compile(r"self\.(_[A-Za-z]\w*)\s*(?::[^=\n]*)?=(?!=)")


def textual_bases_private(cls: type) -> set[str]:
    """The private names ``cls``'s Textual bases define: their methods and class
    attributes, and what their code assigns to ``self._x``."""
    names: set[str] = set()
    for base in cls.__mro__:
        if base.__module__.startswith("textual"):
            names |= textual_class_private(base)
    return names


@cache
def textual_class_private(base: type) -> frozenset[str]:
    """One Textual class's own private names (read once: most of Tussle's classes share
    Widget, Screen and their bases, and reading a class's source is the scan's cost)."""
    names = {n for n in vars(base) if n.startswith("_") and not n.startswith("__")}
    with contextlib.suppress(OSError, TypeError):  # no source: made at run time
        names |= set(SELF_WRITE.findall(inspect.getsource(base)))
    return frozenset(names)


def written_private(module: types.ModuleType, source: str) -> list[tuple[str, str]]:
    """(class, name) for each private name a class of ``module`` that subclasses a Textual
    class writes and one of the Textual bases has."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(module, node.name, None)
        if not isinstance(cls, type):
            continue
        theirs = textual_bases_private(cls)
        if not theirs:
            continue
        ours: set[str] = set()
        for part in ast.walk(node):
            if isinstance(part, ast.FunctionDef | ast.AsyncFunctionDef) and part in node.body:
                ours.add(part.name)
            elif isinstance(part, ast.Assign | ast.AnnAssign) and part in node.body:
                targets = part.targets if isinstance(part, ast.Assign) else [part.target]
                ours |= {t.id for t in targets if isinstance(t, ast.Name)}
            elif (
                isinstance(part, ast.Attribute)
                and isinstance(part.ctx, ast.Store)
                and isinstance(part.value, ast.Name)
                and part.value.id == "self"
            ):
                ours.add(part.attr)
        found += [(node.name, name) for name in sorted(ours & theirs)]
    return found


SHADOWING = """
from textual.widgets import Log

class Pane(Log):
    def __init__(self) -> None:
        super().__init__()
        self._width = 0  # Log's own

class Hooked(Log):
    def _update_maximum_width(self, updates: int, size: int) -> None:  # Log's method
        pass
"""

OWN_NAMES = """
from textual.widgets import Log

class Pane(Log):
    def __init__(self) -> None:
        super().__init__()
        self._pane_width = 0
"""


@pytest.mark.parametrize(("source", "expected"), [(SHADOWING, 2), (OWN_NAMES, 0)])
def test_the_scan_catches_a_subclass_writing_textuals_private_state(
    source: str, expected: int, tmp_path: Path
) -> None:
    planted = tmp_path / "planted_widget.py"
    planted.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("planted_widget", planted)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert len(written_private(module, source)) == expected


def test_no_class_of_tussle_writes_textuals_private_state() -> None:
    offenders = {}
    for path in sorted((ROOT / "tui").rglob("*.py")):
        dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        module = importlib.import_module(dotted.removesuffix(".__init__"))
        if found := written_private(module, path.read_text(encoding="utf-8")):
            offenders[dotted] = found
    assert offenders == {}
