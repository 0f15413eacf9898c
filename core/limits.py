"""The limits of the numbers a GM enters, each declared once, on the field that holds it.

A field typed ``Annotated[int, bounded(ge=1)]`` (a ``msgspec.Meta``) carries its limit
(``Int``, ``Count`` and ``Positive`` name the common ones; a rule system declares its own
beside its types). Every layer reads that one declaration:

* the saved log, ``check``, ``import`` and the snapshot: msgspec refuses a value outside
  its field's limit while decoding (core.files.codec), naming its place
  (``events[0].contest.options.victories_needed: must be at least 1, got 0``);
* ``decide``: the campaign refuses an action whose entry would not decode again
  (core.campaign.actions), and the engine a rule command outside its limits (core.engine), both
  with the codec's words;
* the forms and scenario files ask :func:`field_problem` for one field's value.

Every whole number anywhere also lies within :data:`SIZE` (no rating, die, point or id
comes near it), so a number a file or a form holds is never too large to work with: every
bound includes it (:func:`bounded`), and a saved class's whole numbers are all typed
``Int`` or a bounded alias (tests/core/test_limits_declared.py holds that).

:class:`Limit` is a declaration as the readers see it: its own bounds (None beyond
:data:`SIZE`) and the words for a value outside them.
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterator
from functools import cache
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

import msgspec

SIZE = 10**9


class Limit(msgspec.Struct, frozen=True):
    """The smallest (``ge``) and largest (``le``) a whole number may be; None: no bound
    beyond :data:`SIZE`. ``nonzero``: 0 is no value for it (a modifier of 0 changes
    nothing)."""

    ge: int | None = None
    le: int | None = None
    nonzero: bool = False

    def problem(self, value: int) -> str | None:
        """What is wrong with ``value`` in words a GM reads (``must be at least 1, got
        0``), or None."""
        if self.ge is not None and value < self.ge:
            return f"must be at least {self.ge}, got {value}"
        if self.le is not None and value > self.le:
            return f"must be at most {self.le}, got {value}"
        if self.nonzero and value == 0:
            return "must not be 0 (it would change nothing)"
        return None


def bounded(ge: int | None = None, le: int | None = None, nonzero: bool = False) -> msgspec.Meta:
    """The declaration of a whole number's limit, :data:`SIZE` included. ``nonzero`` is
    read where a value comes in (the forms, scenario files: :func:`field_problem`), not
    by the codec, which has no such check: a 0 saved before it was declared still loads."""
    return msgspec.Meta(
        ge=-SIZE if ge is None else max(ge, -SIZE),
        le=SIZE if le is None else min(le, SIZE),
        extra={"nonzero": True} if nonzero else None,
    )


# The limits most fields share: any whole number (within SIZE), a count (points, invokes,
# armor, trauma) and a number that is at least one (victories needed, a multiplier).
Int = Annotated[int, bounded()]
Count = Annotated[int, bounded(ge=0)]
Positive = Annotated[int, bounded(ge=1)]
NonZero = Annotated[int, bounded(nonzero=True)]  # a signed change: +2, -20, never 0


def size_problem(value: int | float) -> str | None:
    """What is wrong with a number's size (:data:`SIZE`), or None."""
    if -SIZE <= value <= SIZE:
        return None
    if value != value:  # NaN compares false with everything
        return f"{value} is not a number"
    return f"must be at most {SIZE} in size, got {_short(value)}"


def written_whole(text: str) -> int | None:
    """``text`` as a whole number if it is written as one (a sign, digits; ``−`` read as
    a minus), None if it is not; a ``ValueError`` in a GM's words when it is one beyond
    :data:`SIZE` (``must be at most 1000000000 in size, got 99999999... (24 digits)``),
    never "not a number" for a number that is only too large."""
    written = text.strip().replace("−", "-")
    if not re.fullmatch(r"[+-]?\d+", written):
        return None
    if len(written) > 4000:  # Python reads no more than 4300 digits
        raise ValueError(f"must be at most {SIZE} in size, got a number of thousands of digits")
    value = int(written)
    problem = size_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def _short(number: float) -> str:
    try:
        text = str(number)
    except ValueError:  # more digits than Python converts
        return "a number of thousands of digits"
    return shortened(text)


def shortened(written: str) -> str:
    """A number as written, shortened for an error when long: ``99999999... (22 digits)``."""
    return written if len(written) <= 20 else f"{written[:8]}... ({len(written)} digits)"


def limits_in(hint: Any) -> tuple[Limit, ...]:
    """The limits an ``Annotated`` hint declares beyond :data:`SIZE` (none for any other
    hint, nor for ``Int``)."""
    if get_origin(hint) is not Annotated:
        return ()
    found = []
    for meta in get_args(hint)[1:]:
        if isinstance(meta, msgspec.Meta):
            ge = None if meta.ge is None or meta.ge <= -SIZE else int(meta.ge)
            le = None if meta.le is None or meta.le >= SIZE else int(meta.le)
            nonzero = bool((meta.extra or {}).get("nonzero"))
            if ge is not None or le is not None or nonzero:
                found.append(Limit(ge=ge, le=le, nonzero=nonzero))
    return tuple(found)


@cache
def field_limit(cls: type, name: str) -> Limit | None:
    """The limit declared on field ``name`` of saved class ``cls`` (an optional field's
    too: ``Count | None``), or None."""
    hint = get_type_hints(cls, include_extras=True)[name]
    for option in _options(hint):
        found = limits_in(option)
        if found:
            return found[0]
    return None


def _options(hint: Any) -> Iterator[Any]:
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        yield from get_args(hint)
    else:
        yield hint


def field_problem(cls: type, name: str, value: int) -> str | None:
    """What is wrong with ``value`` for field ``name`` of ``cls``: its size, then its
    declared limit; None when it fits. What a form or a file reader asks."""
    problem = size_problem(value)
    if problem is None:
        limit = field_limit(cls, name)
        problem = None if limit is None else limit.problem(value)
    return problem


def fields_of(cls: type) -> tuple[str, ...]:
    """The field names of saved class ``cls`` (for a form that fills some of them)."""
    return tuple(f.name for f in msgspec.structs.fields(cls))


__all__ = [
    "SIZE",
    "Count",
    "Int",
    "Limit",
    "NonZero",
    "Positive",
    "bounded",
    "field_limit",
    "field_problem",
    "fields_of",
    "limits_in",
    "size_problem",
]
