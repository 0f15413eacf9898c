"""Frozen dataclasses <-> JSON, driven by their type hints (for the saved event log).

A dataclass becomes an object tagged with its class name (``"@": "DiceRolled"``); tuples
and frozensets become lists, and are rebuilt from the field's type hint on the way back.
The tag picks the subclass where a field is typed with a base class (an ``Event``, a
``Command``, a ``Contest``).
"""

from __future__ import annotations

import dataclasses
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from functools import cache, partial
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from core.limits import Limit, limits_in, size_problem

TAG = "@"


class CodecError(ValueError):
    """Saved data that does not decode: names what (``problem``) and where (``path``,
    like ``events[0].contest.options.victories_needed``; ``""``: the value itself)."""

    def __init__(self, problem: str, path: str = "") -> None:
        super().__init__(f"{path}: {problem}" if path else problem)
        self.problem = problem
        self.path = path

    def within(self, step: str | int) -> CodecError:
        """The same problem one level up: inside field or key ``step`` (a name), or
        item ``step`` (an index) of a list."""
        head = f"[{step}]" if isinstance(step, int) else step
        if not self.path:
            path = head
        elif self.path.startswith("["):
            path = head + self.path
        else:
            path = f"{head}.{self.path}"
        return CodecError(self.problem, path)


def encode(value: Any) -> Any:
    """A JSON-ready copy of ``value`` (dataclasses tagged, tuples as lists)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {TAG: tag_of(type(value))}
        for f in dataclasses.fields(value):
            out[f.name] = encode(getattr(value, f.name))
        return out
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted((encode(v) for v in value), key=repr)
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | str | float):
        return value
    raise TypeError(f"cannot save a {type(value).__name__}")


Decoder = Callable[[Any], Any]


def decode(data: Any, hint: Any) -> Any:
    """Rebuild a value of type ``hint`` from what :func:`encode` made."""
    return _decoder(hint)(data)


@cache
def _decoder(hint: Any) -> Decoder:
    """A function decoding values of ``hint``, worked out once per type: loading a
    campaign decodes hundreds of thousands of values of a few dozen types."""
    origin = get_origin(hint)
    if hint is Any:
        return _same
    if origin is Annotated:
        return _limited(get_args(hint)[0], limits_in(hint))
    if origin is Union or origin is types.UnionType:
        return _union(hint)
    if origin is Literal:
        allowed = get_args(hint)

        def literal(data: Any) -> Any:
            if data not in allowed:
                raise CodecError(f"{data!r} is not one of {allowed}")
            return data

        return literal
    if origin is tuple:
        return _tuple(hint)
    if origin in (frozenset, set, list):
        (arg,) = get_args(hint)
        item = _decoder(arg)
        build: Callable[[Any], Any] = {frozenset: frozenset, set: set}.get(origin, list)

        def collection(data: Any) -> Any:
            _list(data, hint)
            return build(_each(item, data))

        return collection
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        key_hint, value_hint = get_args(hint) or (str, Any)
        key, value = _decoder(key_hint), _decoder(value_hint)

        def mapping(data: Any) -> Any:
            if not isinstance(data, dict):
                raise CodecError(f"expected an object, got {data!r}")
            out = {}
            for k, v in data.items():
                try:
                    out[key(k)] = value(v)
                except CodecError as exc:
                    raise exc.within(str(k)) from None
            return out

        return mapping
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return partial(_decode_dataclass, hint=hint)
    if hint in (int, str, bool, float):
        return partial(_scalar, hint=hint)
    if hint is type(None):
        return _none
    raise TypeError(f"cannot load a {hint}")


def _same(data: Any) -> Any:
    return data


def _limited(hint: Any, limits: tuple[Limit, ...]) -> Decoder:
    """A value of ``hint`` within ``limits`` (core.limits: declared on the field)."""
    inner = _decoder(hint)

    def limited(data: Any) -> Any:
        value = inner(data)
        for limit in limits:
            problem = limit.problem(value)
            if problem is not None:
                raise CodecError(problem)
        return value

    return limited


def _each(item: Decoder, data: list[Any]) -> Iterator[Any]:
    for i, v in enumerate(data):
        try:
            yield item(v)
        except CodecError as exc:
            raise exc.within(i) from None


def _none(data: Any) -> None:
    if data is not None:
        raise CodecError(f"expected null, got {data!r}")


def _scalar(data: Any, hint: Any) -> Any:
    if type(data) is not hint and not (hint is float and type(data) is int):
        raise CodecError(f"expected {hint.__name__}, got {_short_repr(data)}")
    if hint is int or hint is float:
        problem = size_problem(data)  # every number, whatever its field
        if problem is not None:
            raise CodecError(problem)
    return data


def _short_repr(data: Any) -> str:
    text = repr(data) if not isinstance(data, int) or abs(data) < 10**30 else "a huge number"
    return text if len(text) <= 60 else text[:57] + "..."


def _union(hint: Any) -> Decoder:
    options = [o for o in get_args(hint) if o is not type(None)]
    nullable = len(options) < len(get_args(hint))
    decoders = [_decoder(o) for o in options]

    if nullable and len(decoders) == 1:  # ``X | None``: X's own words when it is not X
        (only,) = decoders

        def optional(data: Any) -> Any:
            return None if data is None else only(data)

        return optional

    def union(data: Any) -> Any:
        if data is None and nullable:
            return None
        errors = []
        for decoder in decoders:
            try:
                return decoder(data)
            except (CodecError, TypeError, ValueError, KeyError) as exc:
                errors.append(str(exc))
        raise CodecError(f"{data!r} is none of {hint}: {'; '.join(errors)}")

    return union


def _tuple(hint: Any) -> Decoder:
    args = get_args(hint)
    if len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])

        def variable(data: Any) -> Any:
            _list(data, hint)
            return tuple(_each(item, data))

        return variable
    decoders = [_decoder(a) for a in args]

    def fixed(data: Any) -> Any:
        _list(data, hint)
        if len(decoders) != len(data):
            raise CodecError(f"expected {len(decoders)} items, got {len(data)}")
        return tuple(_each_fixed(decoders, data))

    return fixed


def _each_fixed(decoders: list[Decoder], data: list[Any]) -> Iterator[Any]:
    for i, (d, v) in enumerate(zip(decoders, data, strict=True)):
        try:
            yield d(v)
        except CodecError as exc:
            raise exc.within(i) from None


def _list(data: Any, hint: Any) -> None:
    if not isinstance(data, list):
        raise CodecError(f"expected a list for {hint}, got {data!r}")


def _decode_dataclass(data: Any, hint: type) -> Any:
    if not isinstance(data, dict) or TAG not in data:
        raise CodecError(f"expected a tagged {hint.__name__}, got {data!r}")
    if not isinstance(data[TAG], str):
        raise CodecError(f"a {hint.__name__}'s tag is a string, not {data[TAG]!r}")
    cls = _subclass_named(hint, data[TAG])
    fields = _fields(cls)
    kwargs: dict[str, Any] = {}
    for name, value in data.items():
        if name == TAG:
            continue
        decoder = fields.get(name)
        if decoder is None:
            raise CodecError(f"{cls.__name__} has no field {name!r}")
        try:
            kwargs[name] = decoder(value)
        except CodecError as exc:
            raise exc.within(name) from None
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise CodecError(f"{cls.__name__}: {exc}") from None


@cache
def _fields(cls: type) -> dict[str, Decoder]:
    hints = _hints(cls)
    return {f.name: _decoder(hints[f.name]) for f in dataclasses.fields(cls)}


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls, include_extras=True)  # Annotated: the fields' limits


@cache
def tag_of(cls: type) -> str:
    """``"fate.ExchangeResolved"``: the module's last name and the class's (each system
    has its own ``ExchangeResolved``), or the module's ``CODEC_TAG`` where it has one:
    a module that moved keeps the tags its saves were written with."""
    module = getattr(sys.modules.get(cls.__module__), "CODEC_TAG", None)
    return f"{module or cls.__module__.rsplit('.', 1)[-1]}.{cls.__name__}"


@cache
def _subclass_named(base: type, name: str) -> type:
    if tag_of(base) == name:
        return base
    # The classes loaded already first: asking whether a tag's prefix is an installed
    # system reads the packages' entry points (importlib.metadata, some 15 ms at start-up),
    # which the campaign's own tags ("campaign.ContestStarted") never need.
    found = _loaded_subclass(base, name)
    if found is None:
        _load_system_of(name)
        found = _loaded_subclass(base, name)
    if found is None:
        raise CodecError(f"{name!r} is not a kind of {base.__name__}")
    return found


def _loaded_subclass(base: type, name: str) -> type | None:
    return next((sub for sub in _all_subclasses(base) if tag_of(sub) == name), None)


def _load_system_of(tag: str) -> None:
    """Rule systems load on demand: import the one a tag like ``heroquest.Augmented``
    comes from, so its classes are there to be found."""
    from core.rules import SYSTEM_NAMES, find_system

    module = tag.split(".", 1)[0]
    if module in SYSTEM_NAMES:  # a system's rules tag their classes with its name
        find_system(module)


def _all_subclasses(base: type) -> list[type]:
    """Subclasses as their modules define them. ``slots=True`` makes a dataclass anew, and
    the class it replaced can linger in ``__subclasses__()``: skip such leftovers."""
    found: list[type] = []
    subs: list[type] = base.__subclasses__()
    for sub in subs:
        if getattr(sys.modules.get(sub.__module__), sub.__qualname__, None) is sub:
            found.append(sub)
        found.extend(_all_subclasses(sub))
    return found


__all__ = ["CodecError", "decode", "encode"]
