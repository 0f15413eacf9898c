"""Fate Core's roster files (core.campaign.roster_file): its ``[[characters]]`` table (skills,
aspects, fate points, refresh), and the files of the tools Fate GMs keep characters in:

* **Fari** character files, in both of Fari's layouts: the earlier one
  (``"version": 3``, ``pages[].sections[].blocks[]``) and the current one
  (``pages[].rows[].columns[].sections[].blocks[]``). ``Skill`` blocks are skills (``"4"``
  or ``"+4"``; an empty value is no skill), the main ``PointCounter`` the fate points (its
  ``max`` the refresh), the ``Text`` blocks of a section titled "Aspects" the aspects.
  Each ``SlotTracker`` is a stress track (labelled "Physical"/"Physical Stress": the
  physical one; "Mental": the mental one; any other, "Corruption", an extra track), each
  box worth its label (``"3"``) or, unlabelled, its place (1, 2, 3 as in Fate Core), its
  ``checked`` kept; the ``Text`` blocks of a section titled "Consequences" are the
  consequence slots, their severity from the label ("Mild", "2 | Mild": mild; a label
  naming Physical or Mental reserves the slot for that harm), their text the consequence.
* **Foundry VTT "Fate Core Official"** actors (``"type": "fate-core-official"``):
  ``system.skills.<name>.rank``, ``system.details.fatePoints.current`` and ``.refresh``,
  ``system.aspects.<name>.value`` (older exports say ``data`` for ``system``); the
  ``system.tracks`` of category "Stress" (boxes from ``box_values``, worth 1, 2, 3... or
  1 each when the track's ``label`` is "none", or its ``custom_label``) and of category
  "Consequences" (severity from ``harm_can_absorb`` or the name, the consequence from
  ``aspect.name``).

A consequence read from a file has no free invoke left to anyone (the file does not say
who holds it). What these files hold that Tussle has no place for (stunts, notes, extras,
another kind of track) is listed as left out, never dropped without a word.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from typing import Any

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
from core.errors import RuleError
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.ladder import signed
from core.systems.fate.sheet import typed_rating  # the one reading of a rating
from core.systems.fate.stress import (
    KINDS,
    SEVERITIES,
    SEVERITY_SHIFTS,
    Box,
    Severity,
    Slot,
    Track,
    track_label,
)

KEYS = ("skills", "aspects", "fate_points", "refresh", "stress", "consequences")
SLOT_KEYS = ("severity", "aspect", "only", "holder", "free_invokes", "recovery")
RECOVERY = ("none", "treated", "healing")
FOREIGN = "Fari character files and Foundry VTT “Fate Core Official” actors"
FOUNDRY_TYPES = ("fate-core-official", "ModularFate")
LONGEST = 60  # a left-out item's text is cut here


# -- the TOML roster ---------------------------------------------------------------------------


def from_table(entries: Mapping[str, Any], place: str) -> dict[str, Any]:
    known(entries, KEYS, place)
    slots = entries.get("consequences")
    return {
        "ratings": ratings(entries.get("skills", {}), f"{place} skills", typed_rating, "a skill"),
        "sheet": FateCharacter(
            aspects=texts(entries.get("aspects", []), f"{place} aspects", "an aspect"),
            fate_points=whole(entries.get("fate_points", 0), f"{place} fate_points", 0),
            refresh=whole(entries.get("refresh", 0), f"{place} refresh", 0),
            stress=_stress_table(entries.get("stress", {}), f"{place} stress"),
            consequences=None if slots is None else _slots_list(slots, f"{place} consequences"),
        ),
    }


def _stress_table(value: Any, place: str) -> tuple[Track, ...]:
    """``[characters.stress]``: each track by name, its boxes' values (``physical = [1,
    2, 3]``), or with the places of the checked ones (``{ boxes = [1, 2], checked = [1]
    }``)."""
    tracks: list[Track] = []
    seen: set[str] = set()
    for name, written in table(value, place).items():
        where = f"{place}.{name}"
        text(name, where, "a track's name")
        key = _track_name(name)
        if key in seen:
            raise Refused(where, f"a second {track_label(key)} track")
        seen.add(key)
        checked: Any = []
        if isinstance(written, dict):
            known(written, ("boxes", "checked"), where)
            checked = written.get("checked", [])
            written = written.get("boxes", [])
        if not isinstance(written, list):
            raise Refused(where, "not a list of boxes' values (write [1, 2, 3])")
        values = [whole(v, f"{where}[{i + 1}]", 1) for i, v in enumerate(written)]
        if not isinstance(checked, list):
            raise Refused(f"{where}.checked", "not a list of boxes' places (write [1])")
        marked = {whole(n, f"{where}.checked", 1) for n in checked}
        beyond = [n for n in marked if n > len(values)]
        if beyond:
            raise Refused(f"{where}.checked", f"no box {beyond[0]} (the track has {len(values)})")
        tracks.append(
            Track(
                name=key,
                boxes=tuple(Box(value=v, checked=i + 1 in marked) for i, v in enumerate(values)),
            )
        )
    return tuple(tracks)


def _slots_list(value: Any, place: str) -> tuple[Slot, ...]:
    """``consequences = [{ severity = "mild", aspect = "Sprained Ankle" }, ...]``."""
    if not isinstance(value, list):
        raise Refused(place, 'not a list of slots (write [{ severity = "mild" }, ...])')
    slots = []
    for i, entry in enumerate(value):
        where = f"{place}[{i + 1}]"
        entry = table(entry, where)
        known(entry, SLOT_KEYS, where)
        severity = entry.get("severity")
        if severity not in SEVERITIES:
            raise Refused(f"{where}.severity", f"not one of {', '.join(SEVERITIES)}")
        recovery = entry.get("recovery", "none")
        if recovery not in RECOVERY:
            raise Refused(f"{where}.recovery", f"not one of {', '.join(RECOVERY)}")
        words = {
            key: text(entry[key], f"{where}.{key}", f"the {key}")
            for key in ("aspect", "only", "holder")
            if key in entry
        }
        if "only" in words:
            words["only"] = _track_name(words["only"])
        slots.append(
            Slot(
                severity=severity,
                free_invokes=whole(entry.get("free_invokes", 0), f"{where}.free_invokes", 0),
                recovery=recovery,
                **words,
            )
        )
    return tuple(slots)


def _track_name(name: str) -> str:
    """A track's name as the sheet keeps it: "Physical" and "Physical Stress" are the
    physical track, "Mental" the mental one; any other as written."""
    plain = name.strip()
    for kind in KINDS:
        if plain.lower() in (kind, f"{kind} stress"):
            return kind
    return plain


def _track_table(track: Track) -> Any:
    values = [b.value for b in track.boxes]
    checked = [i + 1 for i, b in enumerate(track.boxes) if b.checked]
    return {"boxes": values, "checked": checked} if checked else values


def _slot_table(slot: Slot) -> dict[str, Any]:
    out: dict[str, Any] = {"severity": slot.severity}
    for key in ("aspect", "only", "holder"):
        if getattr(slot, key) is not None:
            out[key] = getattr(slot, key)
    if slot.free_invokes:
        out["free_invokes"] = slot.free_invokes
    if slot.recovery != "none":
        out["recovery"] = slot.recovery
    return out


def to_table(character: Character) -> dict[str, Any]:
    sheet = fate_sheet(character)
    return {
        "fate_points": sheet.fate_points,
        "refresh": sheet.refresh,
        "aspects": list(sheet.aspects),
        "consequences": None
        if sheet.consequences is None
        else [_slot_table(s) for s in sheet.consequences],
        "skills": dict(character.ratings),
        "stress": {t.name: _track_table(t) for t in sheet.stress},
    }


def summary(character: Character) -> str:
    skills = ", ".join(f"{k} {signed(v)}" for k, v in character.ratings.items()) or "no skills"
    sheet = fate_sheet(character)
    parts = [skills, f"fate points {sheet.fate_points}, refresh {sheet.refresh}"]
    if sheet.aspects:
        parts.append("aspects " + "; ".join(sheet.aspects))
    if sheet.stress:
        parts.append("stress " + ", ".join(map(str, sheet.stress)))
    if sheet.consequences is not None:
        parts.append("consequences " + (", ".join(map(str, sheet.consequences)) or "none"))
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
    tracks: list[Track] = []
    slots: list[Slot] = []
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
            elif kind == "SlotTracker" and isinstance(value, list):
                track = _fari_track(label or title, value, place)
                if any(t.name == track.name for t in tracks):
                    left_out.append(f"a second {track_label(track.name)} track: {len(value)} boxes")
                else:
                    tracks.append(track)
            elif (
                kind == "Text"
                and "consequence" in title.lower()
                and (severity := _severity(label)) is not None
            ):
                slots.append(_slot(severity, label, value, place))
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
            aspects=tuple(dict.fromkeys(aspects)),
            fate_points=fate_points,
            refresh=refresh,
            stress=tuple(tracks),
            consequences=_with_core_slots(slots),
        ),
    )
    return Arrival(character, tuple(left_out))


def _with_core_slots(slots: list[Slot]) -> tuple[Slot, ...] | None:
    """The slots a file names, with any of Fate Core's mild, moderate and severe it does
    not name added free (every character has those three; a file may list only the one
    in use); None for a file naming none (the sheet then has Fate Core's by Physique and
    Will, its extra mild at Superb too)."""
    if not slots:
        return None
    named = {s.severity for s in slots if s.only is None}
    added = [Slot(severity=s) for s in SEVERITIES[:3] if s not in named]
    return tuple(sorted((*slots, *added), key=lambda s: SEVERITIES.index(s.severity)))


def _fari_track(label: str, boxes: list[Any], place: str) -> Track:
    """A Fari ``SlotTracker``: each box worth its label, or its place when the label is
    no whole number of at least 1 (Fate Core's 1, 2, 3...), checked as it is."""
    _check_name(label, place, "a track")
    read = []
    for n, box in enumerate(boxes, start=1):
        box = _dict(box, f"{place} box {n}")
        written = _plain(str(box.get("label", "")))
        value = int(written) if written.isdigit() and len(written) <= 9 and int(written) else n
        read.append(Box(value=value, checked=box.get("checked") is True))
    return Track(name=_track_name(label), boxes=tuple(read))


def _severity(label: str) -> Severity | None:
    """The severity a consequence's label names ("Mild", "2 | Mild", "Moderate (4)"),
    or its shifts alone ("2", "4"); None: not a consequence slot Tussle knows."""
    words = label.lower()
    for severity in SEVERITIES:
        if severity in words:
            return severity
    numbers = re.findall(r"\d+", words)
    by_shifts = {v: k for k, v in SEVERITY_SHIFTS.items()}
    if len(numbers) == 1 and int(numbers[0]) in by_shifts:
        return by_shifts[int(numbers[0])]
    return None


def _slot(severity: Severity, label: str, value: Any, place: str) -> Slot:
    """A consequence slot read from a file: reserved for the harm its label names
    (Physical, Mental), holding the consequence written in it (none: free)."""
    aspect = _plain(value) if isinstance(value, str) else ""
    if aspect:
        _check_name(aspect, place, "a consequence")
    words = label.lower()
    only = next((kind for kind in KINDS if kind in words), None)
    return Slot(severity=severity, only=only, aspect=aspect or None)


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
    tracks: list[Track] = []
    slots: list[Slot] = []
    for key, track in _dict_or_empty(system.get("tracks"), f"{where}.tracks").items():
        at = f"{where}.tracks.{key}"
        read = _foundry_track(key, track, at)
        if isinstance(read, Slot):
            slots.append(read)
        elif isinstance(read, Track) and all(t.name != read.name for t in tracks):
            tracks.append(read)
        else:
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
            aspects=tuple(dict.fromkeys(aspects)),
            fate_points=fate_points,
            refresh=refresh,
            stress=tuple(tracks),
            consequences=_with_core_slots(slots),
        ),
    )
    return Arrival(character, tuple(left_out))


def _foundry_track(key: str, track: Any, place: str) -> Track | Slot | None:
    """A Foundry track of category "Stress" as a stress track, of "Consequences" as a
    consequence slot; None: another kind (a condition), left out."""
    if not isinstance(track, dict):
        return None
    label = _plain(str(track.get("name") or key))
    category = _plain(str(track.get("category", ""))).lower()
    if "consequence" in category:
        harm = track.get("harm_can_absorb")
        by_shifts = {v: k for k, v in SEVERITY_SHIFTS.items()}
        severity = (
            by_shifts.get(harm) if isinstance(harm, int) and not isinstance(harm, bool) else None
        ) or _severity(label)
        if severity is None:
            return None
        aspect = track.get("aspect")
        name = aspect.get("name") if isinstance(aspect, dict) else None
        return _slot(severity, label, name, place)
    if "stress" not in category:
        return None
    marks = track.get("box_values")
    if not isinstance(marks, list):
        return None
    _check_name(label, place, "a track")
    custom = track.get("custom_label")
    values: list[int] = list(range(1, len(marks) + 1))
    if track.get("label") == "none":
        values = [1] * len(marks)
    elif track.get("label") == "custom" and isinstance(custom, list):
        values = [whole(v, f"{place}.custom_label", 1) for v in custom[: len(marks)]]
        values += list(range(len(values) + 1, len(marks) + 1))
    return Track(
        name=_track_name(label),
        boxes=tuple(Box(value=v, checked=m is True) for v, m in zip(values, marks, strict=True)),
    )


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
    """Its :class:`core.campaign.roster_file.RosterFormat`: the functions above."""

    FOREIGN = FOREIGN
    from_table = staticmethod(from_table)
    to_table = staticmethod(to_table)
    summary = staticmethod(summary)
    read_foreign = staticmethod(read_foreign)
    recognise = staticmethod(recognise)


FORMAT = FateTable()
