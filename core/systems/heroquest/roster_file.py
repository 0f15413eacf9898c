"""HeroQuest's roster files (core.campaign.roster_file): its ``[[characters]]`` table, with
abilities as written (``Sword = "4M"``, ``Lore = 17``), hero points, vitality, states of
adversity and lingering benefits. HeroQuest reads no other tool's files."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec.structs import fields

from core.campaign.log import Character
from core.campaign.roster_file import (
    Arrival,
    Refused,
    RosterFormat,
    known,
    ratings,
    table,
    text,
    texts,
    whole,
)
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet
from core.systems.heroquest.ratings import format_rating, parse_rating

STATES = ("hurt", "impaired", "injured", "dying", "dead")  # §2.6
FOREIGN = ""
# What a character holds by ability where the sheet has it (states tied to an ability,
# abilities the GM marks related: §2.6), written as tables of lists.
BY_ABILITY = tuple(
    f.name for f in fields(HeroQuestCharacter) if f.name in ("adversity_of", "related")
)
KEYS = ("abilities", "hero_points", "vitality", "adversity", "benefits", *BY_ABILITY)


def _rating(written: str) -> int:
    return parse_rating(written.strip())


def _states(value: Any, place: str) -> tuple[str, ...]:
    states = texts(value, place, "a state of adversity")
    for n, state in enumerate(states, start=1):
        if state not in STATES:
            raise Refused(f"{place}[{n}]", f'"{state}" is not one of {", ".join(STATES)}')
    return states


def from_table(entries: Mapping[str, Any], place: str) -> dict[str, Any]:
    known(entries, KEYS, place)
    benefits = {}
    for name, bonus in table(entries.get("benefits", {}), f"{place} benefits").items():
        text(name, f"{place} benefits", "an ability")
        benefits[name] = whole(bonus, f"{place} benefits.{name}", 1)
    out: dict[str, Any] = {
        "hero_points": whole(entries.get("hero_points", 0), f"{place} hero_points", 0),
        "vitality": whole(entries.get("vitality", 0), f"{place} vitality"),
        "adversity": _states(entries.get("adversity", []), f"{place} adversity"),
        "benefits": benefits,
    }
    for key in BY_ABILITY:
        where = f"{place} {key}"
        out[key] = {
            text(name, where, "an ability"): (
                _states(v, f"{where}.{name}")
                if key == "adversity_of"
                else texts(v, f"{where}.{name}", "an ability")
            )
            for name, v in table(entries.get(key, {}), where).items()
        }
    return {
        "ratings": ratings(
            entries.get("abilities", {}), f"{place} abilities", _rating, "an ability"
        ),
        "sheet": HeroQuestCharacter(**out),
    }


def to_table(character: Character) -> dict[str, Any]:
    sheet = hq_sheet(character)
    out: dict[str, Any] = {
        "hero_points": sheet.hero_points,
        "vitality": sheet.vitality,
        "adversity": list(sheet.adversity),
        "abilities": {k: format_rating(v) for k, v in character.ratings.items()},
        "benefits": dict(sheet.benefits),
    }
    for key in BY_ABILITY:
        out[key] = {k: list(v) for k, v in getattr(sheet, key).items()}
    return out


def summary(character: Character) -> str:
    abilities = ", ".join(f"{k} {format_rating(v)}" for k, v in character.ratings.items())
    sheet = hq_sheet(character)
    parts = [abilities or "no abilities", f"hero points {sheet.hero_points}"]
    if sheet.vitality:
        parts.append(f"vitality {sheet.vitality:+d}")
    if sheet.adversity:
        parts.append(", ".join(sheet.adversity))
    if sheet.benefits:
        parts.append(", ".join(f"{k} {v:+d}" for k, v in sheet.benefits.items()))
    return " · ".join(parts)


def recognise(data: Any) -> str | None:
    return None


def read_foreign(data: Any) -> list[Arrival] | None:
    return None


class HeroQuestTable(RosterFormat):
    """Its :class:`core.campaign.roster_file.RosterFormat`: the functions above."""

    FOREIGN = FOREIGN
    from_table = staticmethod(from_table)
    to_table = staticmethod(to_table)
    summary = staticmethod(summary)
    read_foreign = staticmethod(read_foreign)
    recognise = staticmethod(recognise)


FORMAT = HeroQuestTable()
