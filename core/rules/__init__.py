"""The rule systems: one registry of plug-ins (python-chess's variants are the model).

A rule system is one package: its rules, exact odds, scenario reader and character sheet
under ``core/`` (``core/rules/<name>/`` for the three that ship), its keys, forms and panes
under ``tui/`` (``tui/systems/<name>.py``). The registry knows each by a :class:`Plugin`,
a few names of where its parts live, and imports a part the first time it is asked for:
a Fate campaign never pays for loading HeroQuest and FORGE (start-up time is a benchmark).

Another installed package adds a system the same way, through the ``tussle.rule_systems``
entry point group: each entry point names a :class:`Plugin`. The three built in are
listed here, so that opening one of their campaigns never scans the installed packages;
the group is read only for a name that is not built in, or to list every system.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Iterator
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

import msgspec

from core.errors import RuleError
from core.rules.base import RuleSystem, SystemOdds

if TYPE_CHECKING:
    from core.rules.reading import SystemReader

ENTRY_POINTS = "tussle.rule_systems"


class Plugin(msgspec.Struct, frozen=True):
    """Where one rule system's parts live, as ``"module:attribute"`` or a module's name.

    ``name`` is what a contest's and a campaign's ``system`` holds, ``--system`` takes and
    a scenario's ``"system"`` names; ``title`` is what the GM reads (``"Fate Core"``).
    Each part is an object of the contract's base class, loaded when first asked for and
    checked to be one (:func:`load`): ``rules`` a :class:`~core.rules.base.RuleSystem`,
    ``odds`` a :class:`~core.rules.base.SystemOdds`, ``scenario`` a
    :class:`~core.rules.reading.SystemReader`, ``sheet`` a ``core.campaign.sheet.SystemSheet``
    (setup, writing back, sessions, costs), and ``dashboard`` its part of the dashboard
    (a ``tui.systems.SystemView``, which the core never imports). Subclassing those, a
    plug-in is checked against the contract by ``mypy --strict``. ``demo`` names the
    demo campaign a first run creates, where the system has one (its sheet's ``demo()``
    builds it).
    """

    name: str
    title: str
    rules: str
    odds: str
    scenario: str
    sheet: str
    dashboard: str
    demo: str = ""


def _built_in(name: str, title: str, upper: str, demo: str, rules: str = "rules") -> Plugin:
    package = f"core.systems.{name}"
    return Plugin(
        name=name,
        title=title,
        demo=demo,
        rules=f"{package}.{rules}:{upper}",
        odds=f"{package}.odds:{upper}_ODDS",
        scenario=f"{package}.scenario:{upper}_READER",
        sheet=f"{package}.sheet:SHEET",
        dashboard=f"tui.systems.{name}:VIEW",
    )


BUILT_IN: dict[str, Plugin] = {
    p.name: p
    for p in (
        _built_in("fate", "Fate Core", "FATE", "Fate demo", rules="play"),  # and conflicts
        _built_in("heroquest", "HeroQuest", "HEROQUEST", "HeroQuest demo"),
        _built_in("forge", "FORGE", "FORGE", "FORGE demo", rules="beats"),  # and rounds by beats
    )
}


DEFAULT_SYSTEM = next(iter(BUILT_IN))  # a new campaign's, where none is chosen


@cache
def _installed() -> dict[str, Plugin]:
    """The plug-ins other installed packages declare (``tussle.rule_systems``); one that
    fails to load, is not a :class:`Plugin` or takes a built-in name is a ``RuleError``
    naming it, not a silent gap."""
    from importlib.metadata import entry_points  # only when a system is not built in

    found: dict[str, Plugin] = {}
    for point in entry_points(group=ENTRY_POINTS):
        try:
            plugin = point.load()
        except Exception as exc:  # a broken plug-in: say which and why
            raise RuleError(f'the rule system plug-in "{point.name}" does not load: {exc}') from exc
        if not isinstance(plugin, Plugin):
            raise RuleError(f'the rule system plug-in "{point.name}" is not a Plugin')
        if plugin.name in BUILT_IN or plugin.name in found:
            raise RuleError(f'two rule systems are called "{plugin.name}"')
        found[plugin.name] = plugin
    return found


def forget_installed() -> None:
    """Read the entry points again next time (after a test installs a plug-in)."""
    _installed.cache_clear()
    _load.cache_clear()


class _Names(Collection[str]):
    """Every rule system's name, built in first: ``name in SYSTEM_NAMES`` reads the
    installed plug-ins only for a name that is not built in."""

    def __contains__(self, name: object) -> bool:
        return name in BUILT_IN or (isinstance(name, str) and name in _installed())

    def __iter__(self) -> Iterator[str]:
        yield from BUILT_IN
        yield from _installed()

    def __len__(self) -> int:
        return len(BUILT_IN) + len(_installed())

    def __repr__(self) -> str:
        return f"SYSTEM_NAMES({', '.join(self)})"


SYSTEM_NAMES: Collection[str] = _Names()


def find_plugin(name: str) -> Plugin:
    """The plug-in of the rule system called ``name``; ``RuleError`` for no such system."""
    plugin = BUILT_IN.get(name) or _installed().get(name)
    if plugin is None:
        raise RuleError(f'no rule system "{name}" (try {", ".join(SYSTEM_NAMES)})')
    return plugin


def system_title(name: str) -> str:
    """What the GM reads for the system called ``name``, without loading it; for a system
    no installed plug-in provides (a campaign from another table), says so."""
    try:
        return find_plugin(name).title
    except RuleError:
        return f"{name} (not installed)"


@cache
def _load(reference: str) -> Any:
    module_name, _, attribute = reference.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


def load(reference: str) -> object:
    """The object a plug-in names by ``"module:attribute"``, imported the first time it
    is asked for. Each finder checks it is an instance of the contract's base class
    (:func:`not_a` otherwise): a part that does not follow the contract is named, not
    met later as an ``AttributeError``."""
    part: object = _load(reference)
    return part


def not_a(reference: str, kind: type) -> RuleError:
    return RuleError(f"the rule system part {reference} is not a {kind.__name__}")


def find_system(name: str) -> RuleSystem:
    """The rules of the system called ``name`` (``"fate"``, ``"heroquest"``...)."""
    reference = find_plugin(name).rules
    if not isinstance(rules := load(reference), RuleSystem):
        raise not_a(reference, RuleSystem)
    return rules


def find_odds(name: str) -> SystemOdds:
    """The exact odds of the system called ``name`` (loaded the first time they are
    asked for, like the system's rules)."""
    reference = find_plugin(name).odds
    if not isinstance(odds := load(reference), SystemOdds):
        raise not_a(reference, SystemOdds)
    return odds


def odds_module(name: str) -> ModuleType:
    """The module holding the exact odds of the system called ``name``."""
    module: ModuleType = _load(find_plugin(name).odds.partition(":")[0])
    return module


def find_reader(name: str) -> SystemReader:
    """How scenarios of the system called ``name`` read (``tussle resolve``, ``odds``)."""
    from core.rules import reading  # only where scenarios are read

    reference = find_plugin(name).scenario
    if not isinstance(reader := load(reference), reading.SystemReader):
        raise not_a(reference, reading.SystemReader)
    return reader


def sheet_module(name: str) -> ModuleType:
    """The module of the system called ``name`` that holds its character sheet
    (``core.campaign.sheet.find_sheet`` gives the sheet itself, which sits above the campaign)."""
    module: ModuleType = _load(find_plugin(name).sheet.partition(":")[0])
    return module


def all_systems() -> tuple[RuleSystem, ...]:
    return tuple(find_system(name) for name in SYSTEM_NAMES)
