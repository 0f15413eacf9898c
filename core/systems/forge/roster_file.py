"""FORGE's roster files (core.campaign.roster_file): its ``[[characters]]`` table, with targets
(``Brawling = 50``), the weapon's damage multiplier and maximum, armor (durability and the
capacity left: none written is no limit), the Trauma pool (Maximum Trauma: none written
is not tracked) and trauma taken. FORGE reads no other tool's files."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.campaign.log import Character
from core.campaign.roster_file import Arrival, Refused, RosterFormat, known, ratings, whole
from core.limits import field_problem
from core.systems.forge.character import ForgeCharacter, forge_sheet
from core.systems.forge.sheet import typed_rating  # the one reading of a target

FOREIGN = ""
KEYS = (
    "targets",
    "multiplier",
    "max_damage",
    "armor",
    "armor_capacity",
    "trauma_pool",
    "trauma",
    "agility",
)


def from_table(entries: Mapping[str, Any], place: str) -> dict[str, Any]:
    known(entries, KEYS, place)
    maximum, capacity = entries.get("max_damage"), entries.get("armor_capacity")
    pool, agility = entries.get("trauma_pool"), entries.get("agility")
    return {
        "ratings": ratings(
            entries.get("targets", {}), f"{place} targets", typed_rating, "a target"
        ),
        "sheet": ForgeCharacter(
            multiplier=whole(entries.get("multiplier", 1), f"{place} multiplier", 1),
            max_damage=None if maximum is None else whole(maximum, f"{place} max_damage", 0),
            armor=whole(entries.get("armor", 0), f"{place} armor", 0),
            armor_capacity=None
            if capacity is None
            else whole(capacity, f"{place} armor_capacity", 0),
            trauma_pool=None if pool is None else whole(pool, f"{place} trauma_pool", 0),
            trauma=whole(entries.get("trauma", 0), f"{place} trauma", 0),
            agility=None if agility is None else _agility(agility, f"{place} agility"),
        ),
    }


def _agility(value: Any, place: str) -> int:
    """Physical Agility, within the limit its field declares (at least 1, [I16])."""
    number = whole(value, place)
    problem = field_problem(ForgeCharacter, "agility", number)
    if problem is not None:
        raise Refused(place, problem)
    return number


def to_table(character: Character) -> dict[str, Any]:
    sheet = forge_sheet(character)
    return {
        "multiplier": sheet.multiplier,
        "max_damage": sheet.max_damage,
        "armor": sheet.armor,
        "armor_capacity": sheet.armor_capacity,
        "trauma_pool": sheet.trauma_pool,
        "trauma": sheet.trauma,
        **({} if sheet.agility is None else {"agility": sheet.agility}),  # none: not written
        "targets": dict(character.ratings),  # after the sheet's fields, as ever
    }


def summary(character: Character) -> str:
    sheet = forge_sheet(character)
    targets = ", ".join(f"{k} {v}" for k, v in character.ratings.items()) or "no targets"
    weapon = f"weapon ×{sheet.multiplier}" + (
        f" max {sheet.max_damage}" if sheet.max_damage is not None else ""
    )
    parts = [targets, weapon]
    if sheet.armor or sheet.armor_capacity is not None:
        left = "" if sheet.armor_capacity is None else f" ({sheet.armor_capacity} left)"
        parts.append(f"armor {sheet.armor}{left}")
    if sheet.trauma_pool is not None:
        parts.append(f"current trauma {sheet.trauma_pool - sheet.trauma}")
    elif sheet.trauma:
        parts.append(f"trauma {sheet.trauma}")
    return " · ".join(parts)


def recognise(data: Any) -> str | None:
    return None


def read_foreign(data: Any) -> list[Arrival] | None:
    return None


class ForgeTable(RosterFormat):
    """Its :class:`core.campaign.roster_file.RosterFormat`: the functions above."""

    FOREIGN = FOREIGN
    from_table = staticmethod(from_table)
    to_table = staticmethod(to_table)
    summary = staticmethod(summary)
    read_foreign = staticmethod(read_foreign)
    recognise = staticmethod(recognise)


FORMAT = ForgeTable()
