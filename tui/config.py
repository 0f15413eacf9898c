"""The GM's own settings: the keys and the theme, from ``config.toml`` in the user's
configuration folder (``$XDG_CONFIG_HOME/tussle/``, ``~/.config/tussle/`` by default;
``$TUSSLE_CONFIG`` names another file)::

    theme = "nord"
    [keys]
    undo = "z"
    "roster.add" = "A"

A file that cannot be read, is not TOML or holds a bad entry never stops Tussle: each
problem is one line naming the file, and the defaults stand in for what was bad. The
theme chosen in the command palette is written back into the same file, changing that
one line and nothing else (checked by reading the result back before it replaces the
file), atomically. Nothing here knows the screens: the app hands in where each binding
is (:class:`Place`), from :mod:`tui.keymap`.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from textual.binding import Binding
from textual.keys import (
    ASCII_KEY_NAMES,
    KEY_NAME_REPLACEMENTS,
    REPLACED_KEYS,
    Keys,
    key_to_character,
)

from core.text import visible

CONFIG_VARIABLE = "TUSSLE_CONFIG"
SETTINGS = ("theme", "keys")
MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
# Keys every screen has from Textual itself, which a remapped key must leave alone.
RESERVED = {"ctrl+p": "the command palette", "ctrl+c": "copy"}
# Named keys (escape, f5, pageup...) without their modifiers: "ctrl+shift+left" -> "left".
_NAMED = frozenset(k.value.rpartition("+")[2] for k in Keys if not k.value.startswith("<"))


def config_path() -> Path:
    """The settings file: ``$TUSSLE_CONFIG``, else ``config.toml`` in ``tussle/`` under
    ``$XDG_CONFIG_HOME`` (an absolute path, as the XDG spec asks) or ``~/.config``."""
    named = os.environ.get(CONFIG_VARIABLE)
    if named:
        return Path(named).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME", "")
    folder = Path(base) if base and os.path.isabs(base) else Path.home() / ".config"
    return folder / "tussle" / "config.toml"


class Place(msgspec.Struct, frozen=True):
    """Where bindings work together (one screen, with its focused widget and the app's):
    a key may do one thing there. ``typing``: the place has text fields, which take
    printable keys before any binding sees them."""

    name: str
    bindings: tuple[Binding, ...]
    typing: bool = False


@dataclass
class Settings:
    """What the file says, checked: the theme (None: the default), the keymap (binding
    id -> keys, as Textual's ``App.set_keymap`` takes it) and one line per problem."""

    path: Path
    theme: str | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def problem(self, what: str) -> None:
        """One line: what the file holds is the GM's typing, shown with its control
        characters written out (a toast, and stderr, which a raw escape would drive)."""
        self.problems.append(visible(f"{self.path}: {what}"))


def character_key(character: str) -> str:
    """The name Textual gives the key that types ``character``: ``?`` -> ``question_mark``,
    ``/`` -> ``slash``, a letter or digit itself (as Textual's own private
    ``textual.keys._character_to_key`` does, from the public tables it uses)."""
    if character.isalnum():
        key = character
    else:
        try:
            key = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
        except ValueError:
            key = ASCII_KEY_NAMES.get(character, character)
    return KEY_NAME_REPLACEMENTS.get(key, key)


def normalise(keys: str) -> str:
    """``"?,ctrl+z"`` -> ``"question_mark,ctrl+z"``: Textual's names, as bindings hold them
    (Textual's own ``_normalize_key_list``, which the keymap goes through)."""
    parts = [k.strip() for k in keys.split(",")]
    return ",".join(character_key(k) if len(k) == 1 else k for k in parts)


def key_problem(key: str) -> str | None:
    """Why ``key`` (one key, normalised) is not a key Textual can bind, or None."""
    if not key:
        return "an empty key"
    *modifiers, base = key.split("+")
    bad = [m for m in modifiers if m not in MODIFIERS]
    if bad or len(set(modifiers)) < len(modifiers):
        return f'"{key}" is not a key name: modifiers are ctrl, shift, alt (lower case)'
    if len(base) == 1 and base.isprintable() and not base.isspace():
        return None
    if base in _NAMED or base in REPLACED_KEYS:
        return None
    character = key_to_character(base)  # a named character: the name Textual gives it
    if character is not None and len(character) == 1 and character_key(character) == base:
        return None
    return (
        f'"{key}" is not a key name (Textual\'s names: z, Z, ctrl+z, f5, escape, enter, '
        "space, question_mark…)"
    )


def read(path: Path | None = None) -> tuple[dict[str, Any], Settings]:
    """The file's tables as TOML gives them, and settings holding the read's problem
    (the file missing is none: the defaults, silently)."""
    settings = Settings(path or config_path())
    try:
        text = _read_text(settings.path)
    except (FileNotFoundError, NotADirectoryError):  # no file there: the defaults
        return {}, settings
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        settings.problem(f"cannot be read ({reason}); the default keys and theme are used")
        return {}, settings
    # Only when there is a file: no settings file, no TOML reader loaded.
    from core.files.named_files import read_toml

    try:
        return read_toml(text), settings
    except ValueError as error:  # not TOML, nested too deep, a number too long
        settings.problem(f"is not TOML ({error}); the default keys and theme are used")
        return {}, settings


def _read_text(path: Path) -> str:
    """The settings file's text: a file (never a pipe or a device, which would stop
    Tussle before its first frame) of at most ``SETTINGS_BYTES``, in UTF-8."""
    from core.files.named_files import SETTINGS_BYTES, read_named

    return read_named(path, SETTINGS_BYTES).decode("utf-8")


def load(
    places: Callable[[], Iterable[Place]] | None, themes: Iterable[str], path: Path | None = None
) -> Settings:
    """The settings in the file, checked against ``themes`` (their names) and the
    bindings of the ``places`` (asked for only when the file remaps keys: they load every
    screen; None: the keys are checked as key names only)."""
    data, settings = read(path)
    for name in data:
        if name not in SETTINGS:
            settings.problem(f'"{name}" is no setting (there are: theme, [keys]); ignored')
    theme = data.get("theme")
    known = sorted(themes)
    if theme is not None:
        if isinstance(theme, str) and theme in known:
            settings.theme = theme
        else:
            near = difflib.get_close_matches(str(theme), known, n=1)
            hint = (
                f'did you mean "{near[0]}"?' if near else "the palette's Theme command lists them"
            )
            settings.problem(
                f"theme {_shown(theme)} is not one of Textual's themes ({hint}); "
                "the default theme is used"
            )
    keys = data.get("keys", {})
    if not isinstance(keys, dict):
        settings.problem('"keys" must be a table ([keys], then lines like undo = "z"); ignored')
        keys = {}
    _check_keys(settings, keys, None if places is None or not keys else list(places()))
    return settings


def _shown(value: object, width: int = 40) -> str:
    """A value from the file as a problem quotes it: a string in quotes, anything else
    as Python writes it; cut to ``width``."""
    text = f'"{value}"' if isinstance(value, str) else repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _check_keys(settings: Settings, keys: Mapping[str, Any], places: list[Place] | None) -> None:
    defaults = {} if places is None else {b.id: b.key for p in places for b in p.bindings if b.id}
    for binding_id, value in keys.items():
        where = f"keys.{binding_id}"
        if places is not None and binding_id not in defaults:
            near = difflib.get_close_matches(binding_id, list(defaults), n=1)
            hint = f'did you mean "{near[0]}"? ' if near else ""
            settings.problem(
                f'{where}: "{binding_id}" is no binding id ({hint}the README lists them); ignored'
            )
            continue
        kept = f"its default key ({defaults[binding_id]}) kept" if defaults else "ignored"
        if not isinstance(value, str):
            settings.problem(
                f'{where}: {_shown(value)} is not a key (write it in quotes: "z"); {kept}'
            )
            continue
        wanted = normalise(value)
        problem = next(filter(None, (key_problem(k) for k in wanted.split(","))), None)
        if problem is not None:
            settings.problem(f"{where}: {problem}; {kept}")
            continue
        settings.keymap[binding_id] = wanted
    for place in places or ():
        _check_place(settings, place)


def _check_place(settings: Settings, place: Place) -> None:
    """Drop the GM's keys that would make one key do two things in ``place`` (or type
    into its fields), until none does: the defaults do one thing each."""
    while True:
        users: dict[str, list[str]] = {}  # key -> the labels of what it does here
        for key, label in RESERVED.items():
            users.setdefault(key, []).append(label)
        for binding in place.bindings:
            label = binding.id or binding.action
            for key in settings.keymap.get(label, binding.key).split(","):
                if label not in users.setdefault(key, []):
                    users[key].append(label)
        clash = next(
            (
                (key, labels)
                for key, labels in users.items()
                if len(labels) > 1 and any(label in settings.keymap for label in labels)
            ),
            None,
        )
        if clash is not None:
            key, labels = clash
            remapped = [label for label in labels if label in settings.keymap]
            for label in remapped:
                del settings.keymap[label]
            settings.problem(
                f'keys: "{key}" would do two things on the {place.name}: '
                f"{' and '.join(labels)}; the default key kept for {', '.join(remapped)}"
            )
            continue
        typed = next(
            (
                (key, labels)
                for key, labels in users.items()
                if place.typing
                and key_to_character(key) is not None
                and any(label in settings.keymap for label in labels)
            ),
            None,
        )
        if typed is None:
            return
        key, labels = typed
        for label in labels:
            settings.keymap.pop(label, None)
        settings.problem(
            f'keys: "{key}" would be typed into the fields of the {place.name} '
            f"({', '.join(labels)}); the default key kept"
        )


# -- the theme, written back -------------------------------------------------------------
_HEADER = re.compile(r"\s*\[")
_THEME_LINE = re.compile(r"""(\s*(?:theme|"theme"|'theme')\s*=\s*)("[^"\\\n]*"|'[^'\n]*')(.*)""")
_THEME_KEY = re.compile(r"""\s*(?:theme|"theme"|'theme')\s*=""")


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def with_theme(text: str, theme: str) -> str:
    """``text`` (a TOML file) with its top-level ``theme`` set to ``theme``: that line
    changed (its comment kept), or one added before the first table; every other byte
    as it was. ``ValueError`` when the result would not read back as exactly that."""
    from core.files.named_files import read_toml

    before = read_toml(text)
    lines = text.splitlines(keepends=True)
    value = _toml_string(theme)
    end = next((i for i, line in enumerate(lines) if _HEADER.match(line)), len(lines))
    at = next((i for i in range(end) if _THEME_KEY.match(lines[i])), None)
    if at is not None:
        line = lines[at]
        newline = line[len(line.rstrip("\r\n")) :]
        match = _THEME_LINE.fullmatch(line.rstrip("\r\n"))
        if match is None:
            lines[at] = f"theme = {value}{newline or chr(10)}"
        else:
            lines[at] = f"{match.group(1)}{value}{match.group(3)}{newline}"
    else:
        if end == len(lines) and lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        lines[end:end] = [f"theme = {value}\n"] + (["\n"] if end < len(lines) else [])
    result = "".join(lines)
    if read_toml(result) != {**before, "theme": theme}:
        raise ValueError("the file's layout is beyond a one-line change")
    return result


def remember_theme(theme: str, path: Path | None = None) -> str | None:
    """Write ``theme`` into the settings file (made, with its folder, when missing), or
    say in one line why not; never raises for the disk or the file's content."""
    import tomllib

    path = path or config_path()
    try:
        try:
            text = _read_text(path)
        except (FileNotFoundError, NotADirectoryError):
            text = ""
        new = with_theme(text, theme)
        _write_atomically(path, new)
    except tomllib.TOMLDecodeError as error:
        return f"{path}: is not TOML ({error}); the theme was not remembered"
    except ValueError as error:
        return f"{path}: {error}; the theme was not remembered (set theme = ... by hand)"
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        return f"{path}: cannot be written ({reason}); the theme was not remembered"
    return None


def _write_atomically(path: Path, text: str) -> None:
    """A temporary file beside ``path``, synced, then renamed over it: a crash leaves
    the old file or the new one, never half of one. The file keeps its mode; a new one,
    and a folder made for it, are the user's alone, as Tussle's saves are."""
    from core.files.disk import PRIVATE_FILE, make_folder

    make_folder(path.parent)
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = PRIVATE_FILE
    handle, temporary = tempfile.mkstemp(prefix=".config-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    try:
        folder = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)
