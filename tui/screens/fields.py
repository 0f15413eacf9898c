"""What a form asks: its fields (plain data; the form screen itself loads on demand),
and how a form's parser says which field is wrong."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Field:
    """One field: free text, or one of ``choices`` (label, value) pairs.

    ``follows`` names a choice field whose value picks this choice's options from
    ``choices_by`` (the abilities of the character chosen above). ``shown_when`` is a
    (key, value) pair: the field shows only while that choice holds that value (a typed
    rating under "Other").
    """

    key: str
    label: str
    default: str = ""
    choices: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    placeholder: str = ""
    required: bool = True
    follows: str = ""
    choices_by: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    shown_when: tuple[str, str] | None = None

    @property
    def is_choice(self) -> bool:
        return bool(self.choices or self.follows)


Answers = dict[str, str]


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
