"""The rule systems, as a literal registry (python-chess's variants are the model).

A system's module is imported the first time it is asked for, so a Fate campaign never
pays for loading HeroQuest and FORGE (start-up time is a benchmark).
"""

from __future__ import annotations

import importlib

from core.errors import RuleError
from core.rules.base import RuleSystem

SYSTEM_NAMES = ("fate", "heroquest", "forge")


def find_system(name: str) -> RuleSystem:
    """The rule system called ``name`` (``"fate"``, ``"heroquest"``, ``"forge"``)."""
    if name not in SYSTEM_NAMES:
        raise RuleError(f'no rule system "{name}" (try {", ".join(SYSTEM_NAMES)})')
    module = importlib.import_module(f"core.rules.{name}")
    system: RuleSystem = getattr(module, name.upper())
    return system


def all_systems() -> tuple[RuleSystem, ...]:
    return tuple(find_system(name) for name in SYSTEM_NAMES)
