"""The rule systems, as a literal registry (python-chess's variants are the model).

A system's module is imported the first time it is asked for, so a Fate campaign never
pays for loading HeroQuest and FORGE (start-up time is a benchmark).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from core.errors import RuleError
from core.rules.base import RuleSystem, SystemOdds

SYSTEM_NAMES = ("fate", "heroquest", "forge")


def find_system(name: str) -> RuleSystem:
    """The rule system called ``name`` (``"fate"``, ``"heroquest"``, ``"forge"``)."""
    if name not in SYSTEM_NAMES:
        raise RuleError(f'no rule system "{name}" (try {", ".join(SYSTEM_NAMES)})')
    module = importlib.import_module(f"core.rules.{name}")
    system: RuleSystem = getattr(module, name.upper())
    return system


def find_odds(name: str) -> SystemOdds:
    """The exact odds of the rule system called ``name``, from ``core.rules.<name>_odds``
    (loaded the first time it is asked for, like the system's rules)."""
    odds: SystemOdds = getattr(odds_module(name), f"{name.upper()}_ODDS")
    return odds


def odds_module(name: str) -> ModuleType:
    """The module ``core.rules.<name>_odds`` of the rule system called ``name``."""
    if name not in SYSTEM_NAMES:
        raise RuleError(f'no rule system "{name}" (try {", ".join(SYSTEM_NAMES)})')
    return importlib.import_module(f"core.rules.{name}_odds")


def all_systems() -> tuple[RuleSystem, ...]:
    return tuple(find_system(name) for name in SYSTEM_NAMES)
