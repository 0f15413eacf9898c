"""The Fate Core ladder (rules §1.1): the names of the values (``Great``, ``Legendary+1``)
and how the dashboard writes a rating (``Great (+4)``)."""

from __future__ import annotations

LADDER = {
    8: "Legendary",
    7: "Epic",
    6: "Fantastic",
    5: "Superb",
    4: "Great",
    3: "Good",
    2: "Fair",
    1: "Average",
    0: "Mediocre",
    -1: "Poor",
    -2: "Terrible",
}


def ladder_label(value: int) -> str:
    """The Core ladder's name for ``value``: "Legendary+1" above +8, "-3" below -2."""
    if value > 8:
        return f"Legendary+{value - 8}"
    return LADDER.get(value, str(value))


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def ladder_with_value(value: int) -> str:
    """``Great (+4)``: how the dashboard writes a rating; below the ladder (-3 and
    under, nameless: rules F22) the number alone, ``-5``, not ``-5 (-5)``."""
    label = ladder_label(value)
    return label if label == signed(value) else f"{label} ({signed(value)})"
