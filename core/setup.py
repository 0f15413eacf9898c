"""Building a contest from the roster: who is on which side, rolling what.

The contest setup screen collects :class:`Pick` rows and options, and these functions turn
them into the system's starting contest (the same values a scenario file describes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from core.campaign import Character
from core.errors import RuleError
from core.model import Contest

NO_ABILITY = 6  # HeroQuest: a character with no relevant ability rolls against 6 (§2.2)

OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True, kw_only=True)
class Pick:
    """One participant: a roster character on ``side`` using ``rating`` (a skill,
    ability or target name; None or unknown: the system's fallback)."""

    character: str
    side: str
    rating: str | None = None


def _options(kind: type[OptionsT], opts: Mapping[str, Any]) -> OptionsT:
    """The system's options from ``opts``; an unknown name is a ``RuleError``, not a
    ``TypeError`` from the dataclass."""
    known = {f.name for f in fields(kind)}  # type: ignore[arg-type]
    for key in opts:
        if key not in known:
            raise RuleError(f'no option "{key}" (try {", ".join(sorted(known))})')
    return kind(**opts)


def _rating(character: Character, name: str | None, fallback: int) -> int:
    if name is None:
        return fallback
    return character.ratings.get(name, fallback)


def build_contest(
    system: str,
    roster: Mapping[str, Character],
    picks: Sequence[Pick],
    options: Mapping[str, Any] | None = None,
    situation_aspects: Sequence[str] = (),
) -> Contest:
    """The starting contest for ``picks``; ``RuleError`` when it cannot be played."""
    if len({p.character for p in picks}) != len(picks):
        raise RuleError("a character can take part only once")
    if len({p.side for p in picks}) < 2:
        raise RuleError("a contest needs at least two sides")
    chars = []
    for pick in picks:
        if pick.character not in roster:
            raise RuleError(f'no character "{pick.character}" on the roster')
        chars.append((pick, roster[pick.character]))
    opts = dict(options or {})
    # Each system's module is imported only for its own contests (start-up time).
    if system == "fate":
        from core.rules import fate

        participants = [
            fate.FateParticipant(
                name=c.name,
                side=p.side,
                skill=_rating(c, p.rating, 0),
                fate_points=c.fate_points,
            )
            for p, c in chars
        ]
        aspects: dict[str, fate.Aspect] = {}  # one aspect per name: the first stands
        for a in situation_aspects:
            aspects.setdefault(a, fate.Aspect(name=a))
        for _, c in chars:
            for a in c.aspects:
                aspects.setdefault(a, fate.Aspect(name=a, owner=c.name))
        if opts.get("mode") == "environment" and opts.get("difficulty") is None:
            raise RuleError("an environment contest needs a difficulty")
        return fate.new_contest(
            participants, list(aspects.values()), _options(fate.FateOptions, opts)
        )
    if system == "heroquest":
        from core.rules import heroquest

        return heroquest.new_contest(
            [
                heroquest.HQParticipant(
                    name=c.name,
                    side=p.side,
                    rating=_rating(c, p.rating, NO_ABILITY),
                    vitality=c.vitality,
                    hero_points=c.hero_points,
                )
                for p, c in chars
            ],
            _options(heroquest.HQOptions, opts),
        )
    if system == "forge":
        from core.rules import forge

        return forge.new_contest(
            [
                forge.ForgeParticipant(
                    name=c.name,
                    side=p.side,
                    target=_rating(c, p.rating, 0),
                    multiplier=c.multiplier,
                    max_damage=c.max_damage,
                    armor=c.armor,
                    armor_capacity=c.armor_capacity,
                )
                for p, c in chars
            ],
            _options(forge.ForgeOptions, opts),
        )
    raise RuleError(f'no rule system "{system}"')
