"""Every saved class declares what the loader checks (issue 27): each whole number within
core.limits.SIZE at least (``Int``, ``Count``, ``Positive`` or its own ``bounded``), and
each field that may hold any kind of a base class (an ``Event``...) typed with its marker,
so that msgspec decodes the kind its tag names."""

from __future__ import annotations

import importlib
import pkgutil
from collections import Counter
from typing import Annotated, Any, get_args, get_origin, get_type_hints

import msgspec
import pytest

from core.files.codec import decode, encode
from core.limits import SIZE
from core.model import AnyOf, Saved, SavedRecord
from core.rules import SYSTEM_NAMES, find_system


def saved_classes() -> list[type]:
    for name in SYSTEM_NAMES:
        find_system(name)
    # The campaign's log and records, and every module of the built-in systems, not only
    # what their rules import: a module of saved classes not wired in yet (a conflict's,
    # a round of beats') is checked before it is.
    import core.campaign.actions
    import core.systems

    for module in pkgutil.walk_packages(core.systems.__path__, "core.systems."):
        importlib.import_module(module.name)

    found: list[type] = []
    todo: list[type] = [Saved, SavedRecord]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return [c for c in found if c not in (Saved, SavedRecord)]


def loose_places(hint: Any, place: str) -> list[str]:
    """Where in ``hint`` a whole number has no bound, or a base class stands for its
    kinds without its marker."""
    if hint is int:
        return [f"{place}: int with no bound (Int)"]
    if isinstance(hint, type) and issubclass(hint, Saved) and hint.__subclasses__():
        return [f"{place}: {hint.__name__} (Any{hint.__name__})"]
    if get_origin(hint) is Annotated:
        inner, *metas = get_args(hint)
        bounded = any(
            isinstance(m, msgspec.Meta)
            and m.ge is not None
            and m.le is not None
            and m.ge >= -SIZE
            and m.le <= SIZE
            for m in metas
        )
        return [] if inner is int and bounded else loose_places(inner, place)
    return [p for a in get_args(hint) for p in loose_places(a, place)]


@pytest.mark.parametrize("cls", saved_classes(), ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_every_field_of_a_saved_class_is_declared_for_the_loader(cls: type) -> None:
    hints = get_type_hints(cls, include_extras=True)
    loose = [
        p for name in cls.__struct_fields__ for p in loose_places(hints[name], f"{cls}.{name}")
    ]
    assert loose == []


def test_a_marker_is_what_it_stands_for() -> None:
    from core.model import AnyEvent, DiceRolled, Event

    assert isinstance(AnyEvent, AnyOf)
    assert isinstance(DiceRolled(who="A", faces=(1,)), AnyEvent)
    assert issubclass(DiceRolled, AnyEvent) and not issubclass(int, AnyEvent)
    assert decode(encode(DiceRolled(who="A", faces=(1,))), Event) == DiceRolled(who="A", faces=(1,))


def test_no_two_saved_classes_share_a_tag() -> None:
    """A tag names one class in the saves (``fate.Track``): two classes of one system's
    modules with one name would share it, and the loader would read one as the other."""
    tags = Counter(cls.__struct_config__.tag for cls in saved_classes())
    assert [tag for tag, count in tags.items() if count > 1] == []
