"""Fate Core's roster files (core.roster_file): its ``[[characters]]`` table (skills,
aspects, fate points, refresh), and the files of the tools Fate GMs keep characters in:

* **Fari** character files, in both of Fari's layouts: the earlier one
  (``"version": 3``, ``pages[].sections[].blocks[]``) and the current one
  (``pages[].rows[].columns[].sections[].blocks[]``). ``Skill`` blocks are skills (``"4"``
  or ``"+4"``; an empty value is no skill), the main ``PointCounter`` the fate points (its
  ``max`` the refresh), the ``Text`` blocks of a section titled "Aspects" the aspects.
* **Foundry VTT "Fate Core Official"** actors (``"type": "fate-core-official"``):
  ``system.skills.<name>.rank``, ``system.details.fatePoints.current`` and ``.refresh``,
  ``system.aspects.<name>.value`` (older exports say ``data`` for ``system``).

What these files hold that Tussle has no place for (stress tracks, consequences, stunts,
notes, extras) is listed as left out, never dropped without a word.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from typing import Any

from core.campaign_log import Character
from core.errors import RuleError
from core.roster_file import Arrival, Refused, RosterFormat, known, ratings, texts, whole
from core.systems.fate.rules import FateCharacter, fate_sheet, signed
from core.systems.fate.sheet import typed_rating  # the one reading of a rating

KEYS = ("skills", "aspects", "fate_points", "refresh")
FOREIGN = "Fari character files and Foundry VTT “Fate Core Official” actors"
FOUNDRY_TYPES = ("fate-core-official", "ModularFate")
LONGEST = 60  # a left-out item's text is cut here


# -- the TOML roster ---------------------------------------------------------------------------


def from_table(entries: Mapping[str, Any], place: str) -> dict[str, Any]:
    known(entries, KEYS, place)
    return {
        "ratings": ratings(entries.get("skills", {}), f"{place} skills", typed_rating, "a skill"),
        "sheet": FateCharacter(
            aspects=texts(entries.get("aspects", []), f"{place} aspects", "an aspect"),
            fate_points=whole(entries.get("fate_points", 0), f"{place} fate_points", 0),
            refresh=whole(entries.get("refresh", 0), f"{place} refresh", 0),
        ),
    }


def to_table(character: Character) -> dict[str, Any]:
    sheet = fate_sheet(character)
    return {
        "fate_points": sheet.fate_points,
        "refresh": sheet.refresh,
        "aspects": list(sheet.aspects),
        "skills": dict(character.ratings),
    }


def summary(character: Character) -> str:
    skills = ", ".join(f"{k} {signed(v)}" for k, v in character.ratings.items()) or "no skills"
    sheet = fate_sheet(character)
    parts = [skills, f"fate points {sheet.fate_points}, refresh {sheet.refresh}"]
    if sheet.aspects:
        parts.append("aspects " + "; ".join(sheet.aspects))
    return " · ".join(parts)


# -- other tools' files ------------------------------------------------------------------------


def recognise(data: Any) -> str | None:
    if _is_fari(data):
        return "a Fari character file"
    if _is_foundry(data):
        return "a Foundry VTT “Fate Core Official” actor"
    return None


def read_foreign(data: Any) -> list[Arrival] | None:
    if _is_fari(data):
        return [_fari(data)]
    if isinstance(data, dict) and "fariType" in data:  # Fari's, in a layout not read here
        version = data.get("version")
        seen = "" if isinstance(version, dict | list) or version is None else str(version)
        raise Refused(
            "pages",
            f"a Fari file{f' of version {_cut(_plain(seen))}' if seen else ''} in a layout "
            "Tussle does not read (it reads Fari's versions 3 and 4 and the rows of columns "
            "after them)",
        )
    if _is_foundry(data):
        return [_foundry(data, "")]
    if isinstance(data, list) and data and all(_is_foundry(d) for d in data):
        return [_foundry(d, f"actor {n}") for n, d in enumerate(data, start=1)]
    return None


def _is_fari(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("pages"), list)
        and all(isinstance(p, dict) and ("sections" in p or "rows" in p) for p in data["pages"])
    )


def _is_foundry(data: Any) -> bool:
    return isinstance(data, dict) and data.get("type") in FOUNDRY_TYPES


def _plain(value: str) -> str:
    """A Fari or Foundry text as plain text: their editors keep HTML (``&amp;``,
    ``<br>``, ``<p>``); one line, spaces squeezed."""
    without_tags = re.sub(r"<[^>]*>", " ", value)
    return " ".join(html.unescape(without_tags).split())


def _cut(value: str) -> str:
    return value if len(value) <= LONGEST else value[: LONGEST - 1] + "…"


def _name(data: Mapping[str, Any], place: str) -> str:
    name = data.get("name")
    if not isinstance(name, str) or not _plain(name):
        raise Refused(f"{place} name".strip(), "the character has no name")
    plain = _plain(name)
    try:
        from core.text import refuse_control

        refuse_control(plain, "the name", RuleError)
    except RuleError as error:
        raise Refused(f"{place} name".strip(), str(error)) from None
    return plain


def _skill(value: Any, place: str) -> int | None:
    """A skill's value: ``"4"``, ``"+4"``, 4; None for an empty one (no skill)."""
    if isinstance(value, str) and not value.strip():
        return None
    if value is None:
        return None
    return whole(value, place)


# -- Fari --------------------------------------------------------------------------------------


def _fari_sections(data: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each section with its place: ``page "Character", section "Skills"``; every
    layout Fari wrote, or several mixed in one file: a page's ``sections`` as a list
    (version 3), as ``{left, right}`` columns (version 4), or ``rows`` of ``columns``
    (later versions)."""
    for p, page in enumerate(data["pages"], start=1):
        page_place = f"page {_label(page, p)}"
        written = page.get("sections", [])
        if isinstance(written, dict):  # version 4: {"left": [...], "right": [...]}
            sections = [
                section
                for side in ("left", "right")
                for section in _list(written.get(side, []), f"{page_place}, {side}")
            ]
        else:
            sections = list(_list(written, page_place))
        for row in _list(page.get("rows", []), page_place):
            for column in _list(_dict(row, page_place).get("columns", []), page_place):
                sections += _list(_dict(column, page_place).get("sections", []), page_place)
        for s, section in enumerate(sections, start=1):
            section = _dict(section, page_place)
            yield f"{page_place}, section {_label(section, s)}", section


def _label(item: Any, n: int) -> str:
    label = item.get("label") if isinstance(item, dict) else None
    plain = _plain(label) if isinstance(label, str) else ""
    return f"“{_cut(plain)}”" if plain else str(n)


def _list(value: Any, place: str) -> list[Any]:
    if not isinstance(value, list):
        raise Refused(place, "not a Fari character file (a list was expected)")
    return value


def _dict(value: Any, place: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Refused(place, "not a Fari character file (an object was expected)")
    return value


def _fari(data: Mapping[str, Any]) -> Arrival:
    """A Fari character; a file refused says the Fari version it was written by."""
    try:
        return _fari_character(data)
    except Refused as error:
        version = data.get("version")
        if version is None or isinstance(version, dict | list):
            raise
        seen = _cut(_plain(str(version)))
        raise Refused(error.place, f"{error.reason} (a Fari file of version {seen})") from None


def _fari_character(data: Mapping[str, Any]) -> Arrival:
    name = _name(data, "")
    skills: dict[str, int] = {}
    aspects: list[str] = []
    points: tuple[int, int] | None = None
    left_out: list[str] = []
    for where, section in _fari_sections(data):
        title = _plain(str(section.get("label", "")))
        for b, block in enumerate(_list(section.get("blocks", []), where), start=1):
            block = _dict(block, where)
            kind = block.get("type")
            label = _plain(str(block.get("label", "")))
            value = block.get("value")
            given = block.get("meta")
            meta: dict[str, Any] = given if isinstance(given, dict) else {}
            place = f"{where}, {str(kind).lower()} {_label(block, b)}"
            if kind == "Skill":
                rating = _skill(value, place)
                if rating is not None:
                    _check_name(label, place, "a skill")
                    skills[label] = rating
            elif kind == "PointCounter" and meta.get("isMainPointCounter") and points is None:
                points = (
                    whole(value, place, 0),
                    whole(meta.get("max") or 0, f"{place} max", 0),
                )
            elif kind == "Text" and title.lower() == "aspects":
                aspect = _plain(value) if isinstance(value, str) else ""
                if aspect:
                    _check_name(aspect, place, "an aspect")
                    aspects.append(aspect)
            elif kind != "Separator":
                item = _left_out(str(kind), label, title, value, meta)
                if item:
                    left_out.append(item)
    fate_points, refresh = points if points is not None else (0, 0)
    if points is None:
        left_out.append("fate points: the sheet has no main point counter (0 and refresh 0)")
    character = Character(
        name=name,
        ratings=skills,
        sheet=FateCharacter(
            aspects=tuple(dict.fromkeys(aspects)), fate_points=fate_points, refresh=refresh
        ),
    )
    return Arrival(character, tuple(left_out))


def _check_name(text: str, place: str, what: str) -> None:
    from core.text import control_problem

    problem = control_problem(text, what)
    if problem is not None:
        raise Refused(place, problem)
    if not text.strip():
        raise Refused(place, f"{what} without a name")


def _left_out(kind: str, label: str, section: str, value: Any, meta: Mapping[str, Any]) -> str:
    """A Fari block Tussle has no place for, in words; "" for an empty one."""
    what = f"“{_cut(label)}”" if label else "(no label)"
    if kind == "SlotTracker" and isinstance(value, list):
        checked = sum(1 for box in value if isinstance(box, dict) and box.get("checked"))
        return f"{section.lower() or 'track'} {what}: {len(value)} boxes, {checked} checked"
    if kind == "PointCounter":
        return f"point counter {what}: {_plain(str(value))}/{_plain(str(meta.get('max', '')))}"
    shown = _plain(value) if isinstance(value, str) else ""
    if not shown:
        return ""
    where = section.lower() if section else kind.lower()
    return f"{where} {what}: {_cut(shown)}"


# -- Foundry VTT -------------------------------------------------------------------------------


def _foundry(data: Mapping[str, Any], place: str) -> Arrival:
    name = _name(data, place)
    system = data.get("system", data.get("data"))
    where = f"{place} system".strip()
    system = _dict(system, where)
    left_out: list[str] = []
    skills: dict[str, int] = {}
    mediocre = 0
    for key, skill in _dict_or_empty(system.get("skills"), f"{where}.skills").items():
        at = f"{where}.skills.{key}"
        skill = _dict(skill, at)
        label = _plain(str(skill.get("name") or key))
        rank = _skill(skill.get("rank", 0), f"{at}.rank")
        if rank is None or rank == 0:
            mediocre += 1
            continue
        _check_name(label, at, "a skill")
        skills[label] = rank
    if mediocre:
        left_out.append(
            f"{mediocre} skill{'s' if mediocre != 1 else ''} at Mediocre (+0), the same as none"
        )
    aspects: list[str] = []
    for key, aspect in _dict_or_empty(system.get("aspects"), f"{where}.aspects").items():
        at = f"{where}.aspects.{key}"
        aspect = _dict(aspect, at)
        value = aspect.get("value")
        plain = _plain(value) if isinstance(value, str) else ""
        if plain:
            _check_name(plain, at, "an aspect")
            aspects.append(plain)
    details = _dict_or_empty(system.get("details"), f"{where}.details")
    points = _dict_or_empty(details.get("fatePoints"), f"{where}.details.fatePoints")
    fate_points = _points(points.get("current"), f"{where}.details.fatePoints.current")
    refresh = _points(points.get("refresh"), f"{where}.details.fatePoints.refresh")
    for key, stunt in _dict_or_empty(system.get("stunts"), f"{where}.stunts").items():
        label = stunt.get("name", key) if isinstance(stunt, dict) else key
        left_out.append(f"stunt “{_cut(_plain(str(label)))}”")
    for key, track in _dict_or_empty(system.get("tracks"), f"{where}.tracks").items():
        left_out.append(_track(key, track))
    for item in data.get("items", []) if isinstance(data.get("items"), list) else []:
        if isinstance(item, dict):
            kind = _plain(str(item.get("type", "item"))).lower()
            left_out.append(f"{kind} “{_cut(_plain(str(item.get('name', ''))))}”")
    biography = details.get("biography")
    if isinstance(biography, dict) and _plain(str(biography.get("value", ""))):
        left_out.append("biography")
    character = Character(
        name=name,
        ratings=skills,
        sheet=FateCharacter(
            aspects=tuple(dict.fromkeys(aspects)), fate_points=fate_points, refresh=refresh
        ),
    )
    return Arrival(character, tuple(left_out))


def _dict_or_empty(value: Any, place: str) -> dict[str, Any]:
    return {} if value is None or value == "" else _dict(value, place)


def _points(value: Any, place: str) -> int:
    if value is None or (isinstance(value, str) and not value.strip()):
        return 0
    return whole(value, place, 0)


def _track(key: str, track: Any) -> str:
    """A Foundry track (stress, a consequence, a condition) in words."""
    if not isinstance(track, dict):
        return f"track “{_cut(_plain(key))}”"
    label = _cut(_plain(str(track.get("name") or key)))
    category = _plain(str(track.get("category", ""))).lower()
    kind = "consequence" if "consequence" in category else "track"
    boxes = track.get("box_values")
    text = f"{kind} “{label}”"
    if isinstance(boxes, list):
        text += f": {len(boxes)} boxes, {sum(1 for b in boxes if b is True)} checked"
    aspect = track.get("aspect")
    if isinstance(aspect, dict) and _plain(str(aspect.get("name", ""))):
        text += f": {_cut(_plain(str(aspect['name'])))}"
    return text


class FateTable(RosterFormat):
    """Its :class:`core.roster_file.RosterFormat`: the functions above."""

    FOREIGN = FOREIGN
    from_table = staticmethod(from_table)
    to_table = staticmethod(to_table)
    summary = staticmethod(summary)
    read_foreign = staticmethod(read_foreign)
    recognise = staticmethod(recognise)


FORMAT = FateTable()
