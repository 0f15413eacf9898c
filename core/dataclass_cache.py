"""A bytecode cache for the methods ``dataclasses`` writes, kept like a ``.pyc``.

For each dataclass, Python writes ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and
(frozen) ``__setattr__`` and ``__delattr__`` as source text and compiles them at import.
That compiling is most of the time a dataclass takes to define (about a millisecond each):
Tussle has some sixty and Textual more, all defined before the dashboard's first frame.
The text is the same at every start, so its code is kept beside the bytecode cache, keyed
by the text itself and stamped with the interpreter's bytecode magic number: the code run
is the very code ``compile`` would have returned, run the same way.

The ``tussle`` command installs it (:func:`tui.cli.main`); it writes what it learnt a
second after its first miss and at exit, unless bytecode is not to be written
(``PYTHONDONTWRITEBYTECODE``). A missing, stale or damaged cache is simply not used.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import dataclasses
import marshal
import os
import sys
import tempfile
import threading
from importlib.util import MAGIC_NUMBER, cache_from_source
from pathlib import Path
from types import CodeType
from typing import Any

SAVE_AFTER = 1.0  # seconds after the first miss: the first frame is drawn by then
# Beyond this many entries, a save keeps only what this process used (the dashboard uses
# about 400, Textual's included): the cache does not keep every upgrade's leftovers.
MAX_ENTRIES = 1000

_cache: dict[str, CodeType] = {}
_used: set[str] = set()
_new: set[str] = set()
_path: Path | None = None
_timer: threading.Timer | None = None


def default_path() -> Path | None:
    """Beside this package's bytecode (``__pycache__``, or under ``PYTHONPYCACHEPREFIX``)."""
    try:
        pyc = Path(cache_from_source(__file__))
    except NotImplementedError:  # an interpreter without a bytecode cache
        return None
    return pyc.with_name(f"dataclass-methods.{sys.implementation.cache_tag}.bin")


def install(path: Path | None = None) -> None:
    """Compile dataclass methods through the cache from now on (once per process)."""
    global _path
    if getattr(dataclasses, "exec", None) is _exec:
        return
    _path = path or default_path()
    if _path is None:
        return
    _cache.update(_load(_path))
    # dataclasses calls exec(text, globals, namespace) by its global name: a global of
    # that name in the module comes before the builtin.
    setattr(dataclasses, "exec", _exec)  # noqa: B010
    if not sys.dont_write_bytecode:
        atexit.register(save)


def uninstall() -> None:
    """Back to plain ``exec`` (for tests); what was learnt is forgotten."""
    global _path, _timer
    if getattr(dataclasses, "exec", None) is _exec:
        delattr(dataclasses, "exec")
    with contextlib.suppress(ValueError):
        atexit.unregister(save)
    if _timer is not None:
        _timer.cancel()
    _cache.clear()
    _used.clear()
    _new.clear()
    _path, _timer = None, None


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    if isinstance(source, str):
        code = _cache.get(source)
        if code is None:
            # dont_inherit: compiled with dataclasses' own (no) future flags, as its
            # exec would, not this module's.
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _cache[source] = code
            _new.add(source)
            _save_soon()
        _used.add(source)
        source = code
    builtins.exec(source, globals, locals)


def _save_soon() -> None:
    global _timer
    if _timer is None and not sys.dont_write_bytecode:
        _timer = threading.Timer(SAVE_AFTER, save)
        _timer.daemon = True
        _timer.start()


def _load(path: Path) -> dict[str, CodeType]:
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    if not data.startswith(MAGIC_NUMBER):
        return {}  # another Python's bytecode
    try:
        loaded = marshal.loads(data[len(MAGIC_NUMBER) :])
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(loaded, dict) or not all(
        isinstance(k, str) and isinstance(v, CodeType) for k, v in loaded.items()
    ):
        return {}
    return loaded


def save() -> None:
    """Write the cache when this process compiled something new (atomically, never
    raising: a cache that cannot be written is only slower)."""
    global _timer
    _timer = None
    path = _path
    if path is None or not _new or sys.dont_write_bytecode:
        return
    pending = list(_new)
    entries = dict(_cache)
    if len(entries) > MAX_ENTRIES:
        entries = {k: v for k, v in entries.items() if k in _used}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            os.chmod(tmp, 0o644)  # like the .pyc beside it (mkstemp makes it 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(MAGIC_NUMBER + marshal.dumps(entries))
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except (OSError, ValueError):
        return
    _new.difference_update(pending)
