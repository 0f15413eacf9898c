"""What a form asks: its fields (plain data; the form screen itself loads on demand)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Field:
    """One field: free text, or one of ``choices`` (label, value) pairs."""

    key: str
    label: str
    default: str = ""
    choices: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    placeholder: str = ""
    required: bool = True


Answers = dict[str, str]
