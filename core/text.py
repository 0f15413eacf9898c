"""Names are data: what a control character is, how one is shown, and the check at entry.

A name a GM types (a campaign, a character, an aspect, a twist, a contest, an ability) is
shown on the dashboard, on the players' terminals and in exports printed to a terminal. A
control character in it would reach that terminal raw: ESC starts a sequence that can
retitle the window or reset the screen, BEL rings, CR overwrites the line. So a control
character is refused wherever a name comes in (forms, ``tussle import``, scenario files,
new and renamed campaigns), and one that is already stored (an older save, a file edited
by hand) is shown written out, ``\\x1b``, never sent as it is.

Control characters here are C0 (U+0000-U+001F: tab and newline too, since a name is one
line), DEL (U+007F) and C1 (U+0080-U+009F: U+009B is a one-character CSI to some
terminals); lone surrogates, which no terminal can be sent at all (printing one raises);
and the invisible formatting characters that make a name look like another or reorder
the text around it: the bidirectional embeddings, overrides, isolates and marks
(U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), and the zero-width space, the
invisible operators and the byte order mark (U+200B, U+2061-U+2064, U+FEFF). The
zero-width joiner and non-joiner (U+200C, U+200D) stay: scripts and emoji need them; so
does the word joiner (U+2060), which the dashboard writes itself (tui.widgets.lines).
Everything else a GM may type, however unusual, is a name.

A name is also bounded: :data:`MAX_TEXT` characters at most, checked at entry with the
control characters (a form, a scenario, a roster file, ``tussle import``), so no name
can make a save file larger than its readers take (core.files.disk's ``MAX_FILE_BYTES``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

# One character class for all of them; ``visible`` and ``first_control`` share it.
_INVISIBLE = "\u061c\u200b\u200e\u200f\u202a-\u202e\u2061-\u2064\u2066-\u2069\ufeff"
_CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f\ud800-\udfff{_INVISIBLE}]")

# The longest name (or any one line of text a GM types: an aspect, a twist, a skill
# list): a few lines of a terminal. Longer is a paste gone wrong, or a file made to
# fill the disk; each is refused where it comes in, as a control character is.
MAX_TEXT = 500

__all__ = [
    "MAX_TEXT",
    "clipped",
    "control_in",
    "control_problem",
    "first_control",
    "is_control",
    "json_safe",
    "refuse_control",
    "refuse_control_in",
    "visible",
    "visible_lines",
    "written_out",
]


def clipped(text: str, most: int = 20) -> str:
    """``text`` as an error message repeats it: whole up to ``most`` characters, else its
    start and its length (``99999999... (62 digits)``), so a paste gone wrong is named,
    not printed back in full."""
    if len(text) <= most:
        return text
    digits = text.lstrip("+-−").isdigit()
    return f"{text[:8]}... ({len(text)} {'digits' if digits else 'characters'})"


def is_control(char: str) -> bool:
    """Whether the one character ``char`` must never reach a terminal as it is."""
    return _CONTROL.fullmatch(char) is not None


def written_out(char: str) -> str:
    """A control character as people read it: ``\\x1b``, ``\\x9b``, ``\\ud800``."""
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with each control character written out (``\\x1b``): safe to show on any
    terminal, and the same as ``text`` when it holds none."""
    return _CONTROL.sub(lambda m: written_out(m.group()), text)


def visible_lines(text: str) -> str:
    """As :func:`visible`, keeping line breaks as line breaks (a message of several
    lines); every other control character is written out."""
    return "\n".join(visible(line) for line in text.split("\n"))


def first_control(text: str) -> str | None:
    """The first control character in ``text``, or None."""
    found = _CONTROL.search(text)
    return found.group() if found else None


def control_problem(text: str, what: str) -> str | None:
    """What is wrong with ``text`` as ``what`` (a field's name: "the campaign's name",
    "Aspect") when it holds a control character or is longer than :data:`MAX_TEXT`;
    None when it is plain text."""
    if len(text) > MAX_TEXT:
        return (
            f'{what} "{visible(text[:40])}..." is {len(text):,} characters long: '
            f"at most {MAX_TEXT} are allowed"
        )
    char = first_control(text)
    if char is None:
        return None
    return (
        f'{what} "{visible(text)}" holds a control character ({written_out(char)}): '
        "only plain text is allowed"
    )


def refuse_control(text: str, what: str, error: Callable[[str], Exception]) -> str:
    """``text`` itself when it holds no control character; else ``error(message)`` is
    raised, the message naming ``what`` (the caller's own error type: a form's, an
    import's, a scenario's), so the check is one call wherever a name comes in."""
    problem = control_problem(text, what)
    if problem is not None:
        raise error(problem)
    return text


def control_in(value: object) -> tuple[str, str] | None:
    """The place (``log[3].command.name``) and the text of the first string or object
    key in the JSON ``value`` that holds a control character; None when none does.
    Walked with a stack, not recursion: a file may be nested deep."""
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        place, item = stack.pop()
        if isinstance(item, str):
            if first_control(item) is not None:
                return place, item
        elif isinstance(item, dict):
            for key in item:
                if isinstance(key, str) and first_control(key) is not None:
                    return place, key
            children = [(f"{place}.{k}" if place else str(k), v) for k, v in item.items()]
            stack.extend(reversed(children))
        elif isinstance(item, list):
            stack.extend(reversed([(f"{place}[{i}]", v) for i, v in enumerate(item)]))
    return None


def refuse_control_in(value: object, where: str, error: Callable[[str], Exception]) -> None:
    """``error(message)`` when a string (or key) anywhere in the JSON ``value`` holds a
    control character, the message naming ``where`` (the file) and the place in it."""
    found = control_in(value)
    if found is not None:
        place, text = found
        problem = control_problem(text, f"{where}: {place or 'the file'}")
        raise error(problem or "")


_JSON_RAW = re.compile(f"[\x7f-\x9f\ud800-\udfff{_INVISIBLE}]")


def json_safe(dumped: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with DEL, C1, lone surrogates
    and the invisible formatting characters as ``\\u`` escapes: the same JSON, safe to
    print. (json.dumps escapes C0 itself; these it leaves raw, and a lone surrogate
    cannot even be written out.)"""
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)
