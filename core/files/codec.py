"""Saved values <-> JSON-ready builtins, over msgspec: the one entry point of the saves.

A saved class (core.model's :class:`~core.model.Saved`) becomes an object tagged with its
tag (``"@": "fate.DiceRolled"``); tuples and sets become lists (a set's items sorted, so
equal values encode alike); on the way back each field's type, and the limit declared on
it (core.limits), is checked by msgspec. A field typed with a base class's marker
(``AnyEvent``) holds whichever kind its tag names, from a rule system loaded on demand
too. A refusal is a :class:`CodecError` naming its place in today's words
(``events[0].contest.options.victories_needed: must be at least 1, got 0``).
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

import msgspec

from core.limits import SIZE, size_problem
from core.model import TAG, AnyOf, Saved, SavedRecord, any_of

__all__ = ["CodecError", "decode", "encode"]


class CodecError(ValueError):
    """Saved data that does not decode: names what (``problem``) and where (``path``,
    like ``events[0].contest.options.victories_needed``; ``""``: the value itself)."""

    def __init__(self, problem: str, path: str = "") -> None:
        super().__init__(f"{path}: {problem}" if path else problem)
        self.problem = problem
        self.path = path


# -- encoding --------------------------------------------------------------------------------


def encode(value: Any) -> Any:
    """A JSON-ready copy of ``value``: saved classes tagged, tuples and sets as lists (a
    set's items sorted by their ``repr``, as they always were: equal values encode
    alike, whatever order a set iterates in)."""
    last = _last
    if last and last[0] is value:  # a frozen value encoded just now (a GM action's entry:
        return last[
            1
        ]  # checked by core.campaign.actions's reloads, then saved by core.saves.store)
    try:
        # Through JSON bytes (C both ways): plain lists and string keys throughout.
        out = msgspec.json.decode(msgspec.json.encode(value, enc_hook=_plain))
    except msgspec.EncodeError as exc:
        raise TypeError(f"cannot save it: {exc}") from None
    if type(value) not in _PLAIN:
        _sort_sets(out)
    if type(out) is dict and out.get(TAG) == _ENTRY:
        _last[:] = [value, out]
    return out


# The last log entry encoded and what it made: core.campaign.actions's reloads encodes a GM
# action's entry to check it reads back, and core.saves.store saves what that made, not a copy.
# (Nobody changes what encode makes of an entry.)
_ENTRY = "campaign.ActionRecorded"
_last: list[Any] = []


_PLAIN = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """A mapping of another type than dict (a lazy one of core.saves.lazy) as a plain one."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"cannot save a {type(value).__name__}")


def _sort_sets(value: Any) -> None:
    """Sort, in place, the lists the set fields became, going only where one may be
    (:func:`_plan`): a long contest's exchanges are not walked."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            tag = item.get(TAG)
            if tag is None:  # a mapping: any value may be a saved object
                stack.extend(item.values())
                continue
            sets, inner = _plan(tag)
            for name in sets:
                found = item.get(name)
                if type(found) is list:
                    found.sort(key=repr)
            stack.extend(item[name] for name in inner if name in item)
        elif kind is list:
            stack.extend(item)


_NOTHING: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


@cache
def _plan(tag: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """For the saved class tagged ``tag``: its fields holding a set, and those that may
    hold a saved object holding one (looked into as the value says)."""
    cls = _loaded(tag)
    if cls is None:
        return _NOTHING
    hints = get_type_hints(cls, include_extras=True)
    fields = [(name, hints[name]) for name in _names(cls)]
    _plan_of[cls] = _NOTHING  # (a class that holds itself: not looked into again)
    sets = tuple(name for name, hint in fields if _holds(hint, _is_set))
    inner = tuple(name for name, hint in fields if _holds(hint, _may_hold_set))
    _plan_of[cls] = (sets, inner)
    return sets, inner


_plan_of: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _holds(hint: Any, test: Any) -> bool:
    return bool(test(hint)) or any(_holds(a, test) for a in get_args(hint))


def _is_set(hint: Any) -> bool:
    return get_origin(hint) in (set, frozenset)


def _may_hold_set(hint: Any) -> bool:
    if isinstance(hint, AnyOf):
        return True
    if isinstance(hint, type) and issubclass(hint, Saved):
        tag = hint.__struct_config__.tag
        plan = _plan_of.get(hint) or _plan(str(tag))
        return plan != _NOTHING
    return False


# -- decoding --------------------------------------------------------------------------------


def decode(data: Any, hint: Any) -> Any:
    """Rebuild a value of type ``hint`` from what :func:`encode` made; ``CodecError``
    naming the place when it does not fit ``hint`` (its fields' types and limits)."""
    try:
        return msgspec.convert(data, _marked(hint), dec_hook=_hook)
    except msgspec.ValidationError as exc:
        raise _error(str(exc), data) from None
    except RecursionError:
        raise CodecError("nested too deep") from None


@cache
def _marked(hint: Any) -> Any:
    """``hint`` with each saved class that others extend as its marker (``Event``: any
    kind of event; ``tuple[Event, ...]``: any kinds)."""
    if isinstance(hint, type) and issubclass(hint, Saved) and hint.__subclasses__():
        return _marker(hint)
    args = get_args(hint)
    if not args:
        return hint
    origin = get_origin(hint)
    if origin is Annotated:
        return Annotated[(_marked(args[0]), *hint.__metadata__)]
    marked = tuple(a if a is Ellipsis else _marked(a) for a in args)
    if origin is Union or origin is types.UnionType:
        return Union[marked]  # noqa: UP007 (a union of the types in a tuple)
    if isinstance(hint, types.GenericAlias):
        return types.GenericAlias(origin, marked)
    return hint


@cache
def _marker(base: type) -> AnyOf:
    for module in ("core.model",):
        for value in vars(sys.modules[module]).values():
            if isinstance(value, AnyOf) and value.base is base:
                return value
    return any_of(base)


def _hook(kind: Any, data: Any) -> Any:
    """msgspec's hook for the markers: the saved class the tag names, decoded."""
    if not isinstance(kind, AnyOf):
        raise NotImplementedError
    base = kind.base
    if type(data) is not dict or TAG not in data:
        raise ValueError(f"expected a tagged {base.__name__}, got {_short_repr(data)}")
    tag = data[TAG]
    if not isinstance(tag, str):
        raise ValueError(f"a {base.__name__}'s tag is a string, not {_short_repr(tag)}")
    cls = _class_of(base, tag)
    try:
        return msgspec.convert(data, cls, dec_hook=_hook)
    except msgspec.ValidationError as exc:
        raise ValueError(str(exc)) from None  # msgspec adds the place it is at


_CLASSES: dict[str, type] = {}  # every saved class loaded so far, by tag


def _loaded(tag: str) -> type | None:
    """The saved class tagged ``tag`` among those loaded (None: none is)."""
    cls = _CLASSES.get(tag)
    if cls is None:
        _CLASSES.update(_tags(Saved))
        _CLASSES.update(_tags(SavedRecord))
        cls = _CLASSES.get(tag)
    return cls


def _class_of(base: type, tag: str) -> type:
    cls = _loaded(tag)
    if cls is None:
        # Rule systems load on demand: import the one a tag like ``heroquest.Augmented``
        # comes from, so its classes are there to be found.
        from core.rules import SYSTEM_NAMES, find_system

        system = tag.split(".", 1)[0]
        if system in SYSTEM_NAMES:  # a system's rules tag their classes with its name
            find_system(system)
            _CLASSES.update(_tags(Saved))
            cls = _CLASSES.get(tag)
    if cls is None or not issubclass(cls, base):
        raise ValueError(f"{tag!r} is not a kind of {base.__name__}")
    return cls


def _tags(base: type[Saved | SavedRecord]) -> dict[str, type]:
    found: dict[str, type] = {}
    sub: type[Saved | SavedRecord]
    for sub in base.__subclasses__():
        found[str(sub.__struct_config__.tag)] = sub
        found.update(_tags(sub))
    return found


def _names(cls: type) -> tuple[str, ...]:
    names: tuple[str, ...] = getattr(cls, "__struct_fields__", ())
    return names


def _short_repr(data: Any) -> str:
    text = repr(data) if not isinstance(data, int) or abs(data) < 10**30 else "a huge number"
    return text if len(text) <= 60 else text[:57] + "..."


# -- msgspec's words as the saves have always said them ------------------------------------

_PLACE = re.compile(r" - at `\$([^`]*)`")
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_JSON_TYPES = {str: "str", int: "int", float: "float", bool: "bool", list: "array", dict: "object"}


def _error(message: str, data: Any) -> CodecError:
    """A :class:`CodecError` for msgspec's ``message`` about ``data``: its place as a path
    (``events[0].character.ratings.Fight``: a hook's inner place last, a mapping's key
    found where msgspec says ``[...]``) and its problem in the saves' words."""
    places = _PLACE.findall(message)
    problem = _PLACE.sub("", message)
    steps = _STEP.findall("".join(reversed(places)))
    found = _find(data, steps, _culprit(problem))
    path, value = found if found is not None else ("".join(reversed(places)), None)
    return CodecError(_words(problem, value), path.lstrip("."))


def _culprit(problem: str) -> Any:
    """What the value msgspec's ``problem`` is about looks like (to tell which of a
    mapping's values it is)."""
    bound = re.fullmatch(r"Expected `int` (>=|<=) (-?\d+)", problem)
    if bound:
        limit, below = int(bound.group(2)), bound.group(1) == ">="
        return lambda v: type(v) is int and (v < limit if below else v > limit)
    kind = re.fullmatch(r"Expected `.*`, got `(\w+)`", problem)
    if kind:
        return lambda v: _JSON_TYPES.get(type(v), "null") == kind.group(1)
    return lambda v: True


def _find(data: Any, steps: list[tuple[str, str]], culprit: Any) -> tuple[str, Any] | None:
    """The path in words and the value at msgspec's ``steps`` into ``data``: at a
    ``[...]``, the first key leading to a value ``culprit`` says is the one."""
    if not steps:
        return ("", data) if culprit(data) else None
    (name, index), rest = steps[0], steps[1:]
    try:
        if name:
            inner = _find(data[name], rest, culprit)
            return None if inner is None else (f".{name}{inner[0]}", inner[1])
        if index != "...":
            inner = _find(data[int(index)], rest, culprit)
            return None if inner is None else (f"[{index}]{inner[0]}", inner[1])
    except (KeyError, IndexError, TypeError):
        return None
    for key, value in data.items() if isinstance(data, dict) else ():
        inner = _find(value, rest, culprit)
        if inner is not None:
            return (f".{key}{inner[0]}", inner[1])
    return None


def _words(problem: str, value: Any) -> str:
    bound = re.fullmatch(r"Expected `int` (>=|<=) (-?\d+)", problem)
    if bound:
        limit = int(bound.group(2))
        if abs(limit) == SIZE and isinstance(value, int):
            return size_problem(value) or problem
        side = "least" if bound.group(1) == ">=" else "most"
        return f"must be at {side} {limit}, got {_short_repr(value)}"
    if problem == "Number out of range" and isinstance(value, int | float):
        return size_problem(value) or problem
    unknown = re.fullmatch(r"Object contains unknown field `(.*)`", problem)
    if unknown:
        return f"{_name(value)} has no field {unknown.group(1)!r}"
    missing = re.fullmatch(r"Object missing required field `(.*)`", problem)
    if missing:
        return f"{_name(value)}: missing field {missing.group(1)!r}"
    enum = re.fullmatch(r"Invalid enum value (.*)", problem)
    if enum:
        return f"{enum.group(1)} is not one of the values allowed"
    length = re.fullmatch(r"Expected `array` of length (\d+), got (\d+)", problem)
    if length:
        return f"expected {length.group(1)} items, got {length.group(2)}"
    if problem.startswith("Expected "):
        return f"{problem[0].lower()}{problem[1:]}".replace("`", "")
    return problem


def _name(value: Any) -> str:
    tag = value.get(TAG) if isinstance(value, dict) else None
    return str(tag).rsplit(".", 1)[-1] if tag else "the object"
