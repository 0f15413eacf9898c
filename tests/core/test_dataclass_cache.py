"""The cache of dataclass methods: the same classes with it, and never a reason to fail."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from typing import Any

import pytest

from core import dataclass_cache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = tmp_path / "pycache" / "dataclass-methods.bin"
    dataclass_cache.uninstall()
    dataclass_cache.install(path)
    yield path
    dataclass_cache.uninstall()


def make() -> type:
    @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
    class Roll:
        who: str
        faces: tuple[int, ...] = ()

    return Roll


def check(cls: type) -> None:
    roll = cls(who="Cynere", faces=(1, -1))
    assert roll == cls(who="Cynere", faces=(1, -1))
    assert roll != cls(who="Teran", faces=(1, -1))
    assert hash(roll) == hash(cls(who="Cynere", faces=(1, -1)))
    assert repr(roll) == "make.<locals>.Roll(who='Cynere', faces=(1, -1))"
    assert dataclasses.replace(roll, who="Teran").who == "Teran"
    with pytest.raises(dataclasses.FrozenInstanceError):
        roll.who = "Teran"  # type: ignore[misc]
    with pytest.raises(TypeError):
        cls("Cynere")  # keyword-only


def test_a_class_made_through_the_cache_is_the_same_class(cache: Path) -> None:
    check(make())
    dataclass_cache.save()
    assert cache.read_bytes().startswith(MAGIC_NUMBER)


def compiled_while(action: Callable[[], object]) -> int:
    """How many times ``action`` compiled source text."""
    calls = []
    real_compile = compile

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real_compile(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("builtins.compile", counting)
        action()
    return len(calls)


def test_a_saved_cache_is_used_by_the_next_process(cache: Path) -> None:
    assert compiled_while(make) > 0
    dataclass_cache.save()
    dataclass_cache.uninstall()
    dataclass_cache.install(cache)
    assert compiled_while(lambda: check(make())) == 0  # every method from the cache


@pytest.mark.parametrize(
    "content",
    [b"", b"garbage", MAGIC_NUMBER + b"\x00\x01", b"\x00\x00\r\n" + b"x", MAGIC_NUMBER + b"N"],
)
def test_a_damaged_or_foreign_cache_is_ignored(cache: Path, content: bytes) -> None:
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(content)
    dataclass_cache.uninstall()
    dataclass_cache.install(cache)
    check(make())
    dataclass_cache.save()
    assert cache.read_bytes().startswith(MAGIC_NUMBER)  # written anew


def test_nothing_is_written_when_bytecode_is_not_to_be(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    check(make())
    dataclass_cache.save()
    assert not cache.exists()


def test_an_unwritable_cache_is_only_slower(cache: Path) -> None:
    cache.parent.write_text("a file where the folder should be")
    check(make())
    dataclass_cache.save()  # no error
    assert cache.parent.read_text() == "a file where the folder should be"


def test_uninstall_puts_exec_back(cache: Path) -> None:
    assert "exec" in vars(dataclasses)
    dataclass_cache.uninstall()
    assert "exec" not in vars(dataclasses)
    check(make())


def test_a_cache_too_large_keeps_only_what_was_used(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def other() -> type:
        @dataclasses.dataclass(frozen=True)
        class Stale:
            unused_field: int

        return Stale

    other()
    make()
    dataclass_cache.save()
    dataclass_cache.uninstall()
    dataclass_cache.install(cache)
    make()  # this process uses Roll's methods, not Stale's
    monkeypatch.setattr(dataclass_cache, "MAX_ENTRIES", 1)
    dataclasses.make_dataclass("New", [("n", int)])  # something new, so it saves
    dataclass_cache.save()
    dataclass_cache.uninstall()
    dataclass_cache.install(cache)
    assert compiled_while(make) == 0
    assert compiled_while(other) > 0
