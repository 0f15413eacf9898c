"""Rosters in files: characters read from where GMs keep them, and a roster written out.

``tussle roster import`` and the roster screen's import key read files here; ``tussle
roster export`` writes the campaign's roster as the plain TOML roster this module reads.

* **The TOML roster** (every system): an optional ``system = "NAME"`` and one
  ``[[characters]]`` table per character, with ``name``, ``kind`` (``"pc"`` or ``"npc"``)
  and what the system's sheet holds (skills, abilities or targets as a sub-table, points,
  aspects...). Read with the standard library's ``tomllib``; written by :func:`toml_text`,
  a small emitter for exactly these shapes (Tussle depends on nothing else to write TOML).
* **Other tools' files** (JSON): whatever the campaign's system reads (its plug-in says:
  Fate reads Fari character files and Foundry VTT actors). A file of a format another
  system reads is refused, naming both.

Generic: the system's part (its table's keys, its ratings, the other tools' files) is its
plug-in's :class:`RosterFormat`, named by its sheet's ``ROSTER_FILE`` (or its sheet type's
fields: :class:`SheetTable`).
A file is read whole, checked whole, and refused whole (``FILE: place: reason``, one
line): nothing of a refused file is added. Importing is one GM action
(``ImportCharacters``), so one undo takes it back.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from core.campaign.log import Character, ImportCharacters, Sheet
from core.campaign.sheet import find_sheet
from core.errors import RuleError
from core.limits import SIZE, field_problem, fields_of, size_problem
from core.rules import SYSTEM_NAMES, load, not_a, system_title
from core.text import control_problem, visible, written_out

KINDS = ("pc", "npc")
TOP_KEYS = ("system", "characters")


class Refused(ValueError):
    """What is wrong at one place of a file: ``place`` (``character 2 ("Cynere")
    skills.Athletics``) and ``reason``. The file's name is added where it is known."""

    def __init__(self, place: str, reason: str) -> None:
        super().__init__(f"{place}: {reason}" if place else reason)
        self.place = place
        self.reason = reason


class RosterFileError(ValueError):
    """A file refused: its one line, ``FILE: place: reason``."""


@dataclass(frozen=True, slots=True)
class Arrival:
    """A character read from a file, and what the file held that Tussle has no place for
    (stress tracks, consequences, stunts, notes...), in words."""

    character: Character
    left_out: tuple[str, ...] = ()
    source: str = ""


@dataclass(frozen=True, slots=True)
class Import:
    """What the files hold, ready to send: the one GM action, and each character's
    arrival for the report."""

    command: ImportCharacters
    arrivals: tuple[Arrival, ...] = field(default_factory=tuple)


class RosterFormat(ABC):
    """A system's roster files: its plug-in's sheet names an instance in ``ROSTER_FILE``
    (``"module:attribute"``). It says how its ``[[characters]]`` table reads and writes;
    by default it reads no other tool's files."""

    FOREIGN: ClassVar[str] = ""  # the other tools' files it reads, in words ("": none)

    @abstractmethod
    def from_table(self, entries: Mapping[str, Any], place: str) -> dict[str, Any]:
        """A ``[[characters]]`` table but its name and kind: the ``Character`` fields it
        gives; :class:`Refused` for a key or value the system does not take."""

    @abstractmethod
    def to_table(self, character: Character) -> dict[str, Any]:
        """What ``from_table`` reads back as ``character`` (None: a key left out)."""

    @abstractmethod
    def summary(self, character: Character) -> str:
        """What a character holds, in a line: ratings, points, aspects..."""

    def read_foreign(self, data: Any) -> list[Arrival] | None:
        """The characters in another tool's file (parsed JSON); None when ``data`` is in
        no format this system reads; :class:`Refused` for one that is, but broken."""
        return None

    def recognise(self, data: Any) -> str | None:
        """What ``data`` is ("a Fari character file") where this system reads it."""
        return None


def roster_format(system: str) -> RosterFormat | None:
    """The roster-file part of ``system``'s plug-in (its ``ROSTER_FILE``, else a table of
    its sheet's ``CHARACTER`` fields), or None where it has neither."""
    sheet = find_sheet(system)
    if sheet.ROSTER_FILE is not None:
        if not isinstance(part := load(sheet.ROSTER_FILE), RosterFormat):
            raise not_a(sheet.ROSTER_FILE, RosterFormat)
        return part
    return None if sheet.CHARACTER is None else SheetTable(sheet.CHARACTER)


class SheetTable(RosterFormat):
    """A system's ``[[characters]]`` table read from the fields of its own part of a
    character (``Character.sheet``): each a whole number, within its declared limit."""

    def __init__(self, kind: type[Sheet]) -> None:
        self.kind = kind

    def from_table(self, entries: Mapping[str, Any], place: str) -> dict[str, Any]:
        keys = fields_of(self.kind)
        known(entries, keys, place)
        return {"sheet": self.kind(**{k: whole(v, f"{place} {k}") for k, v in entries.items()})}

    def to_table(self, character: Character) -> dict[str, Any]:
        sheet = character.sheet if isinstance(character.sheet, self.kind) else self.kind()
        return {key: getattr(sheet, key) for key in fields_of(self.kind)}

    def summary(self, character: Character) -> str:
        labels = self.kind.LABELS
        return ", ".join(f"{labels.get(k, k)} {v}" for k, v in self.to_table(character).items())


# -- reading values: what the systems' tables share ------------------------------------------


def whole(value: Any, place: str, minimum: int | None = None) -> int:
    """A whole number, written as one (``3``) or as text (``"3"``, ``"+3"``)."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and re.fullmatch(r"\s*[+\-−]?\d+\s*", value):
        number = int(value.strip().replace("−", "-"))
    if number is None:
        raise Refused(place, f"{_shown(value)} is not a whole number (like 3 or -1)")
    if abs(number) > SIZE:
        raise Refused(place, f"{_shown(value)} is out of range")
    if minimum is not None and number < minimum:
        raise Refused(place, f"must be at least {minimum}, got {number}")
    return number


def text(value: Any, place: str, what: str = "the text") -> str:
    """Plain text of one line (a name, an aspect): no control character, not blank."""
    if not isinstance(value, str):
        raise Refused(place, f"{_shown(value)} is not text (write it in quotes)")
    problem = control_problem(value, what)
    if problem is not None:
        raise Refused(place, problem)
    if not value.strip():
        raise Refused(place, f"{what} is blank")
    return value


def texts(value: Any, place: str, what: str = "the text") -> tuple[str, ...]:
    """A list of texts (``["Sworn", "Quick"]``)."""
    if not isinstance(value, list):
        raise Refused(place, f'{_shown(value)} is not a list (write ["...", "..."])')
    return tuple(text(v, f"{place}[{i + 1}]", what) for i, v in enumerate(value))


def table(value: Any, place: str) -> dict[str, Any]:
    """A table (``{ Athletics = 4 }``, or a ``[characters.skills]`` section)."""
    if not isinstance(value, dict):
        raise Refused(place, f"{_shown(value)} is not a table (of names and values)")
    return value


def known(entries: Mapping[str, Any], keys: Iterable[str], place: str) -> None:
    """Refuse a key that is not one of ``keys`` (a typo must not vanish silently)."""
    allowed = tuple(keys)
    for key in entries:
        if key not in allowed:
            where = f"{place} " if place else ""
            raise Refused(
                f"{where}{_key(key)}".strip(),
                f"not a key Tussle reads here (try {', '.join(allowed)})",
            )


def ratings(value: Any, place: str, read: Any, what: str = "the name") -> dict[str, int]:
    """A sub-table of ratings by name, each value read by ``read`` (text or a number as
    the system writes it); a ``RuleError`` or ``Refused`` from it names the entry."""
    out: dict[str, int] = {}
    for name, rating in table(value, place).items():
        where = f"{place}.{_key(name)}"
        text(name, where, what)
        if isinstance(rating, bool) or not isinstance(rating, int | str):
            raise Refused(where, f"{_shown(rating)} is not a rating")
        try:
            out[name] = read(str(rating) if isinstance(rating, int) else rating)
        except Refused as error:
            raise Refused(where, error.reason) from None
        except (RuleError, ValueError) as error:
            raise Refused(where, str(error)) from None
    return out


def _key(key: str) -> str:
    """A key as TOML writes it: bare when it can be, else quoted."""
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_string(key)


def _shown(value: Any) -> str:
    """A value in a message, short and safe for a terminal."""
    if isinstance(value, str):
        shown = toml_string(value)
    elif isinstance(value, dict):
        shown = "a table"
    elif isinstance(value, list):
        shown = "a list"
    else:
        shown = visible(str(value))
    return shown if len(shown) <= 40 else shown[:37] + "..."


# -- the files ---------------------------------------------------------------------------------


def format_of(system: str) -> RosterFormat:
    """The roster-file part of ``system``'s plug-in; ``RuleError`` where it has none."""
    found = roster_format(system)
    if found is None:
        raise RuleError(
            f"{system_title(system)} has no roster files: its plug-in reads and writes none"
        )
    return found


def read_file(path: Path, system: str, shown: str | None = None) -> list[Arrival]:
    """The characters in the file at ``path`` for a campaign of ``system``;
    :class:`RosterFileError` (``FILE: place: reason``) for a file that cannot be read,
    does not parse or holds a value the system refuses."""
    from core.files.named_files import ROSTER_BYTES, read_named

    name = visible(shown if shown is not None else str(path))
    try:
        raw = read_named(path, ROSTER_BYTES)  # never a pipe or a device: nothing blocks
    except OSError as exc:
        raise RosterFileError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    try:
        return read_bytes(raw, system, name)
    except Refused as error:
        raise RosterFileError(f"{name}: {error}") from None


def read_bytes(raw: bytes, system: str, name: str = "(file)") -> list[Arrival]:
    """As :func:`read_file`, from the file's bytes; :class:`Refused` for what is wrong."""
    try:
        content = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Refused(f"byte {exc.start}", "not UTF-8 text") from None
    own = format_of(system)
    start = content.lstrip()[:2]
    data = _json(content) if start[:1] == "{" or (start[:1] == "[" and start != "[[") else None
    if data is not None:
        arrivals = _read_json(data, system, own)
    else:
        arrivals = _read_toml(content, system, own)
    if not arrivals:
        raise Refused("", "no characters in it")
    return [replace(a, source=name) for a in arrivals]


def _json(content: str) -> Any:
    """The JSON in ``content``: a file that opens with ``{`` is JSON or broken; one that
    opens with ``[`` may be TOML (``[characters]``), read as such when not JSON."""
    from core.files.disk import MAX_DEPTH, too_deep

    try:
        data = json.loads(content)
    except json.JSONDecodeError as exc:
        if content.lstrip().startswith("["):
            return None
        raise Refused(f"line {exc.lineno}, column {exc.colno}", exc.msg) from None
    except RecursionError:
        raise Refused("", "nested too deep to be a character file") from None
    except ValueError:  # an integer of more digits than Python converts
        raise Refused("", "a number of thousands of digits") from None
    if too_deep(data, MAX_DEPTH):
        raise Refused("", f"nested more than {MAX_DEPTH} deep: not a character file")
    return data


def _read_json(data: Any, system: str, own: RosterFormat) -> list[Arrival]:
    found = own.read_foreign(data)
    if found is not None:
        return [replace(a, character=within_limits(a.character, a.character.name)) for a in found]
    for other in SYSTEM_NAMES:  # a file another system reads: say so, naming both
        if other == system:
            continue
        try:
            theirs = roster_format(other)
        except RuleError:
            continue
        what = theirs.recognise(data) if theirs is not None else None
        if what is not None:
            raise Refused(
                "",
                f"{what}, for {system_title(other)} campaigns; this campaign plays "
                f"{system_title(system)}",
            )
    if isinstance(data, dict) and "log" in data and "participants" in data:
        raise Refused("", "a whole campaign's export (tussle import makes a campaign of it)")
    expected = own.FOREIGN or "no JSON file"
    raise Refused("", f"not a file Tussle reads ({system_title(system)} reads {expected})")


def _read_toml(content: str, system: str, own: RosterFormat) -> list[Arrival]:
    import tomllib

    from core.files.named_files import read_toml

    try:
        data = read_toml(content)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        at = re.search(r"\s*\(at (line \d+, column \d+|end of document)\)$", message)
        if at is None:
            raise Refused("", message) from None
        raise Refused(at.group(1), message[: at.start()]) from None
    except ValueError as exc:  # nested too deep, a number of thousands of digits
        raise Refused("", f"{exc}: not a roster") from None
    known(data, TOP_KEYS, "")
    said = data.get("system")
    if said is not None and said != system:
        title = system_title(said) if isinstance(said, str) else _shown(said)
        raise Refused(
            "system",
            f"a {visible(title)} roster; this campaign plays {system_title(system)}",
        )
    characters = data.get("characters", [])
    if not isinstance(characters, list):
        raise Refused("characters", "write each character as a [[characters]] table")
    arrivals = []
    for n, entry in enumerate(characters, start=1):
        place = f"character {n}"
        entry = table(entry, place)
        if "name" not in entry:
            raise Refused(place, 'no name (name = "...")')
        name = text(entry["name"], f"{place} name", "the name")
        place = f"{place} ({toml_string(name)})"
        kind = entry.get("kind", "pc")
        if kind not in KINDS:
            raise Refused(f"{place} kind", f'{_shown(kind)} is not "pc" or "npc"')
        rest = {k: v for k, v in entry.items() if k not in ("name", "kind")}
        fields = own.from_table(rest, place)
        arrivals.append(Arrival(within_limits(Character(name=name, kind=kind, **fields), place)))
    return arrivals


def within_limits(character: Character, place: str) -> Character:
    """``character`` when each of its numbers is within the limit declared on its field
    (core.limits: what the forms, decide and the loader take); else :class:`Refused`
    naming the field, so a file never brings in what the campaign would refuse."""
    holders: list[object] = [character, *([character.sheet] if character.sheet else [])]
    for holder in holders:  # the roster's fields, and the system's sheet's
        for key in fields_of(type(holder)):
            value = getattr(holder, key)
            if isinstance(value, int) and not isinstance(value, bool):
                problem = field_problem(type(holder), key, value)
                if problem is not None:
                    raise Refused(f"{place} {key}", problem)
    for rating, value in character.ratings.items():
        problem = size_problem(value)
        if problem is not None:
            raise Refused(f"{place} {rating}", problem)
    return character


def read_files(
    paths: Sequence[Path],
    system: str,
    roster: Mapping[str, Character],
    replace: bool,
    how_to_replace: str = "--replace replaces it",
) -> Import:
    """Every file's characters as one import, all or nothing: the first file refused
    raises :class:`RosterFileError`; so does a character in two files, or already on the
    ``roster`` without ``replace`` (the message ends with ``how_to_replace``)."""
    arrivals: list[Arrival] = []
    first: dict[str, str] = {}
    for path in paths:
        shown = visible(str(path))
        for arrival in read_file(path, system):
            name = arrival.character.name
            if name in first:
                raise RosterFileError(
                    f'{shown}: "{visible(name)}" is in {first[name]} too (import it once)'
                    if first[name] != shown
                    else f'{shown}: "{visible(name)}" is in it twice'
                )
            first[name] = shown
            if name in roster and not replace:
                raise RosterFileError(
                    f'{shown}: "{visible(name)}" is already on the roster ({how_to_replace})'
                )
            arrivals.append(arrival)
    source = ", ".join(path.name for path in paths)
    command = ImportCharacters(
        characters=tuple(a.character for a in arrivals), replace=replace, source=source
    )
    return Import(command, tuple(arrivals))


def report(done: Import, roster_before: Mapping[str, Character], system: str) -> list[str]:
    """What came in, per character, and what was left out, in lines."""
    own = format_of(system)
    lines = []
    for arrival in done.arrivals:
        c = arrival.character
        how = "replaced" if c.name in roster_before else "added"
        lines.append(f"{visible(c.name)} ({c.kind.upper()}, {how}): {visible(own.summary(c))}")
        for item in arrival.left_out:
            lines.append(f"  left out: {visible(item)}")
    return lines


# -- writing TOML ------------------------------------------------------------------------------

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f"}
_ESCAPES["\r"] = "\\r"


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string: quotes and backslashes escaped, every control
    character (C0, DEL, and C1, which TOML allows raw but a terminal must not get) as an
    escape; other characters, non-ASCII ones too, as they are. A lone surrogate (which no
    file can hold) is written out as text, ``\\ud800``, as the dashboard shows it."""
    out = ['"']
    for char in value:
        code = ord(char)
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif code < 0x20 or 0x7F <= code <= 0x9F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\" + written_out(char))
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"no TOML for a {type(value).__name__}")


def toml_text(system: str, tables: Sequence[Mapping[str, Any]], title: str = "") -> str:
    """A roster file: ``system``, then one ``[[characters]]`` table each; a key whose
    value is None or empty is left out, a table becomes a sub-table after the rest."""
    lines = [
        f"# A Tussle roster{f': {visible(title)}' if title else ''}.",
        "# tussle roster import CAMPAIGN FILE reads it back (--replace to overwrite).",
        f"system = {toml_string(system)}",
    ]
    for entries in tables:
        lines += ["", "[[characters]]"]
        subs = []
        for key, value in entries.items():
            if value is None or (isinstance(value, Mapping | list | tuple) and not value):
                continue  # left out: what reading it back takes when it is missing
            if isinstance(value, Mapping) and value:
                subs.append((key, value))
            else:
                lines.append(f"{_key(key)} = {_value(value)}")
        for key, value in subs:
            lines.append(f"[characters.{_key(key)}]")
            lines += [f"{_key(k)} = {_value(v)}" for k, v in value.items()]
    return "\n".join(lines) + "\n"


def export_text(system: str, roster: Iterable[Character], title: str = "") -> str:
    """The roster as a TOML roster file (what :func:`read_bytes` reads back the same)."""
    own = format_of(system)
    tables = [{"name": c.name, "kind": c.kind, **own.to_table(c)} for c in roster]
    return toml_text(system, tables, title)
