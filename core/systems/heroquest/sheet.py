"""HeroQuest around a contest: abilities with masteries, hero points, states of adversity
and lingering benefits (§2.6); setting a contest up from the roster, what it leaves
(§2.6, §2.8's rising action for an extended contest), a session's recovery, and the
resistance and augment tables of the campaign's age (§2.5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from core.campaign_state import CampaignState, Character, ContestRecord
from core.errors import RuleError
from core.model import Contest, Event, Participant
from core.sheet import Change, Demo, Pick, options
from core.systems.heroquest.quick_roll import QUICK_ROLLS
from core.systems.heroquest.rules import (
    BENEFITS,
    VICTORIES,
    ExchangeResolved,
    HQContest,
    HQOptions,
    HQParticipant,
    format_rating,
    new_contest,
    parse_rating,
)

NO_SKILL = 6  # a character with no relevant ability rolls against 6 (§2.2)
ROSTER_FILE = "core.systems.heroquest.roster_file"  # its roster files (core.roster_file)
quick_rolls = QUICK_ROLLS  # 4M vs 14, d20 vs 14 (core.quick_roll)

ADVERSITY_PENALTY = {"hurt": 3, "impaired": 6}  # §2.6, to every later use of an ability
NO_ACTIONS = ("dying", "dead")  # §2.6: "no actions"
# §2.8 rising action: the loser's state and the victory level by final difference 1..9+.
EXTENDED_STATES: tuple[str, ...] = ("hurt", "hurt", "impaired", "impaired", "injured")
EXTENDED_STATES += ("injured", "dying", "dead", "dead")
EXTENDED_LEVELS = (1, 1, 2, 2, 3, 3, 4, 4, 4)


def rating_label(value: int) -> str:
    return format_rating(value)


def typed_rating(text: str) -> int:
    """A HeroQuest rating: ``17``, ``4M``."""
    return parse_rating(text.strip())


def describe_options(opts: Mapping[str, Any]) -> list[str]:
    h = options(HQOptions, opts)
    kind = (
        "extended contest (first to 5 resolution points)"
        if h.extended
        else "chained contest"
        if h.chained
        else "simple contest"
    )
    ties = "ties: lower roll wins" if h.tie_break == "low" else "ties: higher roll wins"
    return [kind, ties, f"augments against {h.augment_base}"]


def condition(character: Character, ability: str | None) -> tuple[int, int]:
    """``(condition, bumps_down)`` for ``character`` rolling ``ability``: its lingering
    benefit with that ability, less 3 per hurt and 6 per impairment; a bump down per
    injury. A dying (or dead) character takes no actions: ``RuleError``."""
    for state in NO_ACTIONS:
        if state in character.adversity:
            raise RuleError(
                f"{character.name} is {state}: no actions (rules §2.6); "
                "heal them on the roster first"
            )
    penalty = sum(ADVERSITY_PENALTY.get(s, 0) for s in character.adversity)
    benefit = character.benefits.get(ability, 0) if ability else 0
    return benefit - penalty, character.adversity.count("injured")


def build_contest(
    chosen: Sequence[tuple[Pick, Character]],
    opts: Mapping[str, Any],
    situation_aspects: Sequence[str],
) -> Contest:
    participants = []
    for p, c in chosen:
        left, bumps = condition(c, p.rating)  # what earlier contests left
        participants.append(
            HQParticipant(
                name=c.name,
                side=p.side,
                rating=p.rating_of(c, NO_SKILL),
                vitality=c.vitality,
                hero_points=c.hero_points,
                condition=left,
                bumps_down=bumps,
            )
        )
    return new_contest(participants, options(HQOptions, opts))


def rolled(participant: Participant) -> int:
    assert isinstance(participant, HQParticipant)
    return participant.rating


def write_back(campaign: CampaignState, record: ContestRecord) -> Iterator[Change]:
    """Hero points spent; the states of adversity and lingering benefits each exchange
    (or, in an extended contest, the final difference) leaves (§2.6, §2.8, §2.9)."""
    state = record.state
    assert isinstance(state, HQContest)
    for p in state.participants:
        delta = state.hero_points_left.get(p.name, p.hero_points) - p.hero_points
        if delta:
            yield p.name, lambda c, d=delta: {"hero_points": max(0, c.hero_points + d)}
    states: dict[str, list[str]] = {}
    benefits: Counter[str] = Counter()
    if state.options.extended and state.winner is not None:
        points = state.resolution_points
        difference = points.get(state.winner, 0) - max(
            (v for side, v in points.items() if side != state.winner), default=0
        )
        step = min(max(difference, 1), len(EXTENDED_STATES)) - 1
        for p in state.participants:
            if p.side != state.winner:
                states.setdefault(p.name, []).append(EXTENDED_STATES[step])
            else:
                benefits[p.name] += BENEFITS[EXTENDED_LEVELS[step]]
                if difference == 1:
                    states.setdefault(p.name, []).append("hurt")
    else:  # a simple contest, or a chain of them: each exchange leaves its own (§2.9)
        for e in record.exchanges:
            assert isinstance(e, ExchangeResolved)
            for name, st in e.consequence.items():
                if st:
                    states.setdefault(name, []).append(st)
            benefits.update({n: b for n, b in e.benefit.items() if b})
    losers = {p.name for p in state.participants if state.winner and p.side != state.winner}
    for name in {*states, *benefits, *losers}:
        ability = record.uses.get(name)

        def change(c: Character, name: str = name, ability: str | None = ability) -> dict[str, Any]:
            kept = dict(c.benefits)
            if name in losers and ability:  # a benefit lasts until a defeat using it
                kept.pop(ability, None)
            if benefits[name] and ability:  # and several add up
                kept[ability] = kept.get(ability, 0) + benefits[name]
            return {"adversity": (*c.adversity, *states.get(name, ())), "benefits": kept}

        yield name, change


def new_session(character: Character, hero_points: int | None) -> Character:
    """Hero points reset where the table does that; hurts recover (§2.6)."""
    new = character
    if hero_points is not None and character.kind == "pc":
        new = replace(new, hero_points=hero_points)
    if "hurt" in character.adversity:
        new = replace(new, adversity=tuple(s for s in character.adversity if s != "hurt"))
    return new


def compel(character: Character) -> Character:
    raise RuleError("compels and fate points are Fate rules, not HeroQuest's")


def costs(record: ContestRecord, events: Sequence[Event]) -> Iterator[str]:
    spent: Counter[str] = Counter()
    for e in record.exchanges:
        spent.update(getattr(e, "hero_points", {}))
    for name, n in spent.items():
        yield f"{name} spent {n} hero point{'s' if n != 1 else ''}"


def level(record: ContestRecord) -> str:
    """A simple contest's level: `` (major victory)``."""
    if record.exchanges:
        victory = getattr(record.exchanges[-1], "victory", None)
        if victory:
            return f" ({VICTORIES[victory]} victory)"
    return ""


def demo() -> Demo:
    """Tripitaka against a ghoul, a chained contest (Sandy waits on the roster)."""
    return Demo(
        characters=(
            Character(
                name="Tripitaka",
                ratings={"Sword and Shield": 24, "Ghost Lore": 17},
                hero_points=3,
                vitality=1,
            ),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 17}),
            Character(name="Sandy", ratings={"Staff Fighting": 15}, hero_points=3),
        ),
        title="Ghouls in the graveyard",
        picks=(
            Pick(character="Tripitaka", side="Heroes", rating="Sword and Shield"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ),
        options={"chained": True},
    )


# -- the tables GMs look things up in (§2.5) ------------------------------------------------

RESISTANCE_CLASSES = {  # relative to the base for the campaign
    "nearly impossible": 40,  # +W2
    "very high": 9,
    "high": 6,
    "moderate": 0,
    "low": -6,
    "very low": None,  # "-W or 6, whichever is lower"
}


def base_resistance(sessions: int) -> int:
    """The Moderate resistance after ``sessions`` sessions (the current one included):
    14 for sessions 1-2, 15 for 3-4, 16 for 5-6... (rules §2.5: 13 + ceil(sessions / 2))."""
    if sessions < 1:
        raise RuleError("sessions played counts the current one: at least 1")
    return 13 + (sessions + 1) // 2


def augment_base(sessions: int) -> int:
    """The augment resistance for the campaign's age (rules §2.5: 14 + (k - 1) // 2)."""
    k = base_resistance(sessions) - 13
    return 14 + (k - 1) // 2


def resistance(resistance_class: str, sessions: int) -> int:
    """A resistance's linear value by class and sessions played. Very Low is the base
    less a mastery, or 6, whichever is lower (as printed: it can be 0 or less, an
    automatic defeat of the resistance)."""
    base = base_resistance(sessions)
    key = resistance_class.strip().lower()
    if key not in RESISTANCE_CLASSES:
        raise RuleError(
            f'no resistance class "{resistance_class}" (try {", ".join(RESISTANCE_CLASSES)})'
        )
    step = RESISTANCE_CLASSES[key]
    return min(base - 20, 6) if step is None else base + step
