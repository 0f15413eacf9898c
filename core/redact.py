"""Secrets kept from the players: exchange lines with ``??`` for what the GM hides.

The GM hides a participant's numbers, an aspect, or a whole contest (``ToggleSecret`` in
:mod:`core.campaign`). The players' view (``tussle watch``) and the recap show each rule
system's own lines (its ``describe``), passed through :func:`redact_exchange` first:

* the first line of an exchange (who won it, the score) is what the table sees anyway:
  only hidden aspects' names go from it, as from a HeroQuest "Resolution points" line;
* in any other line, a part that names a hidden participant, or a side with a hidden
  member (Fate rolls per side: the side's total gives its lead's skill away), has every
  number, rating and ladder word replaced by ``??``: totals, targets, shifts, augments,
  rolls, hero points. Names, Fate's dice (thrown in plain sight), a count of free invokes
  and resolution points stay. A line's parts are split at "; " (HeroQuest's pairs), and at
  ", " after a "→" (HeroQuest's states of adversity and benefits, one per participant);
* FORGE: the damage line of a stage a hidden participant acted in (the damage is their
  weapon's) is redacted too;
* a hidden aspect's name is ``??`` everywhere.

Nothing here changes a line of a contest without secrets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from core.campaign import ContestRecord
from core.model import ExchangeEvent
from core.rules.fate import LADDER

HIDDEN = "??"


@dataclass(frozen=True, slots=True)
class Secrets:
    """What one contest keeps from the players. ``names`` is every participant, side and
    aspect name it knows, kept as written inside a redacted line (a name may hold a digit
    or a ladder word)."""

    contest: bool = False
    participants: frozenset[str] = frozenset()
    sides: frozenset[str] = frozenset()  # the sides with a hidden member
    aspects: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return self.contest or bool(self.participants or self.aspects)

    def participant(self, name: str) -> bool:
        return self.contest or name in self.participants

    def aspect(self, name: str) -> bool:
        return self.contest or name in self.aspects


def secrets_of(record: ContestRecord) -> Secrets:
    """The secrets of ``record`` as the GM has set them."""
    state = record.state
    hidden = frozenset(p.name for p in state.participants if record.hidden("participant", p.name))
    sides = frozenset(p.side for p in state.participants if p.name in hidden)
    aspects = set(_aspect_names(record)) | set(record.secret_aspects)
    names = {p.name for p in state.participants} | set(state.sides) | aspects
    return Secrets(
        contest=record.secret,
        participants=hidden,
        sides=sides,
        aspects=frozenset(aspects if record.secret else record.secret_aspects),
        names=frozenset(n for n in names if n),
    )


def _aspect_names(record: ContestRecord) -> Iterable[str]:
    """The aspects in play, and those the exchanges named (a boost used up, a twist)."""
    for aspect in getattr(record.state, "aspects", ()):
        yield aspect.name
    for event in record.exchanges:
        twist = getattr(event, "twist", None)
        if twist:
            yield twist
        for advantage in getattr(event, "advantages", ()):
            yield advantage.aspect
        for invoke in getattr(event, "invokes", ()):
            yield invoke.aspect


# -- the lines ------------------------------------------------------------------------------

_SIGN = r"[+\-−]"
_LADDER = "|".join(sorted(LADDER.values(), key=len, reverse=True))
_VALUE = rf"(?: \({_SIGN}?\d+\))?"  # the "(+4)" after a ladder word
_TOKENS = (
    r"|(?P<keep>\(\d+ RP\)|\b\d+ free invokes?\b)"
    rf"|(?P<points>{_SIGN}?\d+ (?P<kind>hero|fate) points?\b)"
    rf"|(?P<ladder>\b(?:Legendary\+\d+|{_LADDER})\b{_VALUE})"
    rf"|(?P<number>{_SIGN}?\d+(?:[MW]\d*)?%?{_VALUE})"
)
_GLYPHS = r"|(?P<glyphs>(?<![\w+\-−])[-+0]{4}(?![\w+\-−]))"  # Fate dice: "-0++"


@lru_cache(maxsize=64)
def _names_pattern(names: frozenset[str]) -> re.Pattern[str] | None:
    if not names:
        return None
    ordered = sorted(names, key=len, reverse=True)
    return re.compile("|".join(re.escape(n) for n in ordered))


@lru_cache(maxsize=64)
def _tokens_pattern(names: frozenset[str], fate: bool) -> re.Pattern[str]:
    ordered = sorted(names, key=len, reverse=True)
    name = "|".join(re.escape(n) for n in ordered) or r"(?!)"
    return re.compile(f"(?P<name>{name})" + (_GLYPHS if fate else "") + _TOKENS)


def hide_aspects(text: str, secrets: Secrets) -> str:
    """``text`` with each hidden aspect's name as ``??`` (other names kept whole: a
    hidden "Blade" leaves a visible "Hidden Blade" alone)."""
    pattern = _names_pattern(secrets.names | secrets.aspects)
    if pattern is None or not (secrets.aspects or secrets.contest):
        return text
    return pattern.sub(lambda m: HIDDEN if secrets.aspect(m.group()) else m.group(), text)


def _mentions(text: str, secrets: Secrets) -> bool:
    """Whether ``text`` names a hidden participant or a side with one."""
    pattern = _names_pattern(secrets.names)
    if pattern is None:
        return False
    hidden = secrets.participants | secrets.sides
    return any(m.group() in hidden for m in pattern.finditer(text))


def redact_numbers(text: str, secrets: Secrets, fate: bool = False) -> str:
    """``text`` with its numbers, ratings and ladder words as ``??``; names, Fate's dice
    (``fate``), free invokes and resolution points kept."""

    def swap(m: re.Match[str]) -> str:
        if m.group("points"):
            return f"{HIDDEN} {m.group('kind')} points"
        if m.group("ladder") or m.group("number"):
            return HIDDEN
        return m.group()

    return _tokens_pattern(secrets.names, fate).sub(swap, text)


def redact_exchange(
    system: str, event: ExchangeEvent, lines: Sequence[str], secrets: Secrets
) -> list[str]:
    """``lines`` (the rule system's ``describe(event)``) as the players may see them."""
    if not secrets:
        return list(lines)
    forced = _forced(event, lines, secrets)
    out = []
    for i, line in enumerate(lines):
        line = hide_aspects(line, secrets)
        if i == 0 or line.strip().startswith("Resolution points:"):
            out.append(line)
            continue
        sep = ", " if line.lstrip().startswith("→") else "; "
        parts = [
            redact_numbers(part, secrets, system == "fate")
            if i in forced or _mentions(part, secrets)
            else part
            for part in line.split(sep)
        ]
        out.append(sep.join(parts))
    return out


def _forced(event: ExchangeEvent, lines: Sequence[str], secrets: Secrets) -> set[int]:
    """Lines to redact that need not name the hidden participant: FORGE's damage line,
    when the one who threw it is hidden."""
    actor, reactor = getattr(event, "actor", None), getattr(event, "reactor", None)
    if not isinstance(actor, str) or not secrets.participant(actor):
        return set()
    return {i for i, line in enumerate(lines) if line.startswith(f"  {reactor} takes ")}
