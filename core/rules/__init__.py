"""The rule systems, as a literal registry (python-chess's variants are the model)."""

from __future__ import annotations

from core.errors import RuleError
from core.rules.base import RuleSystem
from core.rules.fate import FATE
from core.rules.forge import FORGE
from core.rules.heroquest import HEROQUEST

SYSTEMS: tuple[RuleSystem, ...] = (FATE, HEROQUEST, FORGE)


def find_system(name: str) -> RuleSystem:
    """The rule system called ``name`` (``"fate"``, ``"heroquest"``, ``"forge"``)."""
    for system in SYSTEMS:
        if system.name == name:
            return system
    raise RuleError(f'no rule system "{name}" (try {", ".join(s.name for s in SYSTEMS)})')
