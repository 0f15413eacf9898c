"""What a form asks: its fields (plain data; the form screen itself loads on demand),
how a form's parser says which field is wrong, and the number a field holds.

Plain data on purpose: the rule systems' screen parts (``tui.systems``) describe their
forms with it, without importing any screen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

import msgspec

from core.limits import SIZE, field_problem, size_problem
from core.text import clipped


class Field(msgspec.Struct, frozen=True):
    """One field: free text, or one of ``choices`` (label, value) pairs.

    ``follows`` names a choice field whose value picks this choice's options from
    ``choices_by`` (the abilities of the character chosen above). ``shown_when`` is a
    (key, value) pair: the field shows only while that choice holds that value (a typed
    rating under "Other"). ``typed_to`` (a choice's) names the text field a digit or a sign
    typed on the choice goes to: the modifier form opens on "For", and ``2`` there is the
    number's first digit, not a key lost.
    """

    key: str
    label: str
    default: str = ""
    choices: tuple[tuple[str, str], ...] = msgspec.field(default_factory=tuple)
    placeholder: str = ""
    required: bool = True
    follows: str = ""
    choices_by: Mapping[str, tuple[tuple[str, str], ...]] = msgspec.field(default_factory=dict)
    shown_when: tuple[str, str] | None = None
    typed_to: str = ""

    @property
    def is_choice(self) -> bool:
        return bool(self.choices or self.follows)


Answers = dict[str, str]
Options = tuple[tuple[str, str], ...]


class Follow(msgspec.Struct, frozen=True):
    """A choice whose options and default are worked out again from the answers so far
    whenever one of the fields named in ``on`` changes (an invoke's payment follows the
    invoker and the aspect)."""

    key: str
    on: tuple[str, ...]
    options: Callable[[Answers], tuple[Options, str]]


class FieldError(ValueError):
    """What is wrong with one field's answer (``key``; None: the form as a whole). A
    form's parser raises it; the form shows ``message`` under that field, focuses it, and
    stays open with everything typed kept."""

    def __init__(self, key: str | None, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


@contextmanager
def blame(key: str) -> Iterator[None]:
    """Any ``ValueError`` (a ``RuleError`` included) raised inside is ``key``'s fault."""
    try:
        yield
    except FieldError:
        raise
    except ValueError as error:
        raise FieldError(key, str(error)) from error


def whole(text: str, key: str | None = None) -> int:
    """A whole number, within :data:`core.limits.SIZE`; a ``FieldError`` on field ``key``
    (a ``RuleError`` without one)."""
    written = text.strip().replace("−", "-")
    try:
        value = int(written) if len(written) <= 4000 else None  # Python's own limit: 4300
    except ValueError:
        value = None
    if value is None and re.fullmatch(r"[+-]?\d+", written):
        problem: str | None = f"must be at most {SIZE} in size"
    elif value is None:
        problem = f'"{clipped(text)}" is not a whole number (like 3 or -1)'
    else:
        problem = size_problem(value)
    if problem is None and value is not None:
        return value
    message = problem or f'"{clipped(text)}" is not a whole number'
    if key is None:
        from core.errors import RuleError

        raise RuleError(message)
    raise FieldError(key, message)


def whole_field(
    answers: Answers,
    key: str,
    default: int | None = None,
    minimum: int | None = None,
    of: type | None = None,
) -> int:
    """Field ``key``'s whole number: blank gives ``default`` (None: the field is
    required). ``of`` is the type whose field ``key`` the number fills: the limit declared
    there (core.limits) is the form's, in its words; ``minimum`` is for a number no type
    holds (a die typed in a form). A ``FieldError`` names the field."""
    text = answers.get(key, "").strip()
    if not text and default is not None:
        return default
    value = whole(text, key)
    problem = field_problem(of, key, value) if of is not None else None
    if problem is None and minimum is not None and value < minimum:
        problem = f"must be at least {minimum}, got {value}"
    if problem is not None:
        raise FieldError(key, problem)
    return value
