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
    ability or target name; None or one the character lacks: the system's rule for no
    relevant skill, :func:`no_skill`). ``value`` sets the rating outright (a rating typed
    for this contest only, a HeroQuest resistance from the table, a FORGE target built
    from tiers); with it, ``character`` need not be on the roster (an unnamed
    opposition)."""

    character: str
    side: str
    rating: str | None = None
    value: int | None = None


def _options(kind: type[OptionsT], opts: Mapping[str, Any]) -> OptionsT:
    """The system's options from ``opts``; an unknown name is a ``RuleError``, not a
    ``TypeError`` from the dataclass."""
    known = {f.name for f in fields(kind)}  # type: ignore[arg-type]
    for key in opts:
        if key not in known:
            raise RuleError(f'no option "{key}" (try {", ".join(sorted(known))})')
    return kind(**opts)


def no_skill(system: str) -> int:
    """What a character rolls with no relevant skill: Mediocre (+0) in Fate, 6 in
    HeroQuest (rules §2.2), a target of 0 in FORGE."""
    return NO_ABILITY if system == "heroquest" else 0


def rating_label(system: str, value: int) -> str:
    """A rating as the system writes it: ``Great (+4)``, ``4M``, ``50``."""
    if system == "fate":
        from core.systems.fate import ladder_with_value

        return ladder_with_value(value)
    if system == "heroquest":
        from core.systems.heroquest import format_rating

        return format_rating(value)
    return str(value)


def own_ratings(system: str, character: Character) -> list[tuple[str, str]]:
    """The character's own skills, abilities or targets as (``"Sword 4M"``, name) pairs,
    in the roster's order."""
    return [(f"{name} {rating_label(system, v)}", name) for name, v in character.ratings.items()]


def typed_rating(system: str, text: str) -> int:
    """A rating typed for one contest: a ladder name or number in Fate (``Great``,
    ``+4``), a HeroQuest rating (``17``, ``4M``), a FORGE target (``50``)."""
    word = text.strip()
    if system == "fate":
        return fate_difficulty(word)
    if system == "heroquest":
        from core.systems.heroquest import parse_rating

        return parse_rating(word)
    try:
        return int(word.removesuffix("%").strip())
    except ValueError:
        raise RuleError(f'"{text}" is not a target: write a whole number (like 50)') from None


def describe_options(system: str, options: Mapping[str, Any]) -> list[str]:
    """The rule options in force, in words a GM reads (``chained contest``, ``ties:
    lower roll wins``); ``RuleError`` for an option the system does not have."""
    if system == "fate":
        from core.systems import fate

        f = _options(fate.FateOptions, options)
        victories = "victory" if f.victories_needed == 1 else "victories"
        out = [
            f"environment vs {fate.ladder_with_value(f.difficulty or 0)}"
            if f.mode == "environment"
            else "direct",
            f"first to {f.victories_needed} {victories}",
            f"style at {f.style_threshold} shifts"
            + (" (two victories whenever)" if f.style_clause == "fae" else ""),
        ]
        if f.teamwork_cap == "lead_skill":
            out.append("teamwork capped at the lead's skill")
        if f.failed_advantage == "cost":
            out.append("a failed advantage succeeds at a cost")
        if f.mode == "environment" and f.environment_requires_success:
            out.append("nobody scores below 0 shifts")
        return out
    if system == "heroquest":
        from core.systems import heroquest

        h = _options(heroquest.HQOptions, options)
        kind = (
            "extended contest (first to 5 resolution points)"
            if h.extended
            else "chained contest"
            if h.chained
            else "simple contest"
        )
        ties = "ties: lower roll wins" if h.tie_break == "low" else "ties: higher roll wins"
        return [kind, ties, f"augments against {h.augment_base}"]
    if system == "forge":
        from core.systems import forge

        g = _options(forge.ForgeOptions, options)
        return [
            "combat (damage thrown, dodge or absorb)" if g.combat else "no combat (no damage)",
            "the reactor wins ties" if g.reactor_wins_ties else "the actor wins ties",
        ]
    raise RuleError(f'no rule system "{system}"')


def _rating(pick: Pick, character: Character, fallback: int) -> int:
    if pick.value is not None:
        return pick.value
    if pick.rating is None:
        return fallback
    return character.ratings.get(pick.rating, fallback)


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
        if pick.character in roster:
            chars.append((pick, roster[pick.character]))
        elif pick.value is not None:  # an opposition that is only a number
            chars.append((pick, Character(name=pick.character, kind="npc")))
        else:
            raise RuleError(f'no character "{pick.character}" on the roster')
    opts = dict(options or {})
    # Each system's module is imported only for its own contests (start-up time).
    if system == "fate":
        from core.systems import fate

        participants = [
            fate.FateParticipant(
                name=c.name,
                side=p.side,
                skill=_rating(p, c, 0),
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
        from core.aftermath import hq_condition
        from core.systems import heroquest

        hq = []
        for p, c in chars:
            condition, bumps = hq_condition(c, p.rating)  # what earlier contests left
            hq.append(
                heroquest.HQParticipant(
                    name=c.name,
                    side=p.side,
                    rating=_rating(p, c, NO_ABILITY),
                    vitality=c.vitality,
                    hero_points=c.hero_points,
                    condition=condition,
                    bumps_down=bumps,
                )
            )
        return heroquest.new_contest(hq, _options(heroquest.HQOptions, opts))
    if system == "forge":
        from core.systems import forge

        return forge.new_contest(
            [
                forge.ForgeParticipant(
                    name=c.name,
                    side=p.side,
                    target=_rating(p, c, 0),
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


# -- the tables GMs look things up in -------------------------------------------------------

RESISTANCE_CLASSES = {  # HeroQuest 2 (rules §2.5), relative to the base for the campaign
    "nearly impossible": 40,  # +W2
    "very high": 9,
    "high": 6,
    "moderate": 0,
    "low": -6,
    "very low": None,  # "-W or 6, whichever is lower"
}


def heroquest_base(sessions: int) -> int:
    """The Moderate resistance after ``sessions`` sessions (the current one included):
    14 for sessions 1-2, 15 for 3-4, 16 for 5-6... (rules §2.5: 13 + ceil(sessions / 2))."""
    if sessions < 1:
        raise RuleError("sessions played counts the current one: at least 1")
    return 13 + (sessions + 1) // 2


def heroquest_augment_base(sessions: int) -> int:
    """The augment resistance for the campaign's age (rules §2.5: 14 + (k - 1) // 2)."""
    k = heroquest_base(sessions) - 13
    return 14 + (k - 1) // 2


def heroquest_resistance(resistance_class: str, sessions: int) -> int:
    """A resistance's linear value by class and sessions played. Very Low is the base
    less a mastery, or 6, whichever is lower (as printed: it can be 0 or less, an
    automatic defeat of the resistance)."""
    base = heroquest_base(sessions)
    key = resistance_class.strip().lower()
    if key not in RESISTANCE_CLASSES:
        raise RuleError(
            f'no resistance class "{resistance_class}" (try {", ".join(RESISTANCE_CLASSES)})'
        )
    step = RESISTANCE_CLASSES[key]
    return min(base - 20, 6) if step is None else base + step


AIMING = {
    "none": 0,
    "extremity": -20,
    "part of one": -40,
    "finer": -60,
    "finer still": -80,
    "absurd": -100,
}
DISTANCE = {  # FORGE (rules §3.4), yards
    "within 25 yd": 0,
    "26-50 yd": -20,
    "51-75 yd": -40,
    "76-100 yd": -60,
    "101-125 yd": -80,
    "126+ yd": -100,
    "point blank": 20,
    "touching": 40,
    "grappling": 60,
    "restrained": 80,
}


def forge_target(tiers: Sequence[int], attribute: int = 0, modifiers: Sequence[int] = ()) -> int:
    """A FORGE target: the skill tiers down to the most specific that applies, plus the
    attribute, plus modifiers (rules §3.2: Piloting 25 + 4-Wheeled 20 + Racing 10 = 55)."""
    return sum(tiers) + attribute + sum(modifiers)


def cover_modifier(percent_covered: int) -> int:
    """Cover lowers the attacker's target by the share of the body covered (rules §3.4)."""
    if not 0 <= percent_covered <= 100:
        raise RuleError("cover is 0 to 100 percent of the body")
    return -percent_covered


def fate_difficulty(text: str) -> int:
    """A passive difficulty by ladder name or number: "Great", "+4", "-1", "Legendary+2"."""
    from core.systems.fate import LADDER

    word = text.strip()
    names = {name.lower(): value for value, name in LADDER.items()}
    if word.lower() in names:
        return names[word.lower()]
    if word.lower().startswith("legendary+") and word[10:].isdigit():
        return 8 + int(word[10:])
    try:
        return int(word.replace("−", "-"))
    except ValueError:
        raise RuleError(
            f'"{text}" is neither a ladder name (Fair, Great...) nor a number'
        ) from None
