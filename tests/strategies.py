"""Hypothesis strategies for all the tests (attrs keeps one such module; so do we)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from core.model import Command, ResolveExchange, RollDice
from core.rules.fate import (
    Aspect,
    CreateAdvantage,
    DeclareAttack,
    FateContest,
    FateOptions,
    FateParticipant,
    InvokeAspect,
    new_contest,
)
from core.rules.forge import ForgeParticipant
from core.rules.heroquest import Party

fate_faces = st.tuples(*[st.sampled_from((-1, 0, 1))] * 4)
fate_glyph_strings = st.text(alphabet="+-0", min_size=4, max_size=4)

fate_options = st.builds(
    FateOptions,
    mode=st.sampled_from(("direct", "environment")),
    difficulty=st.integers(-2, 6),
    victories_needed=st.integers(1, 5),
    style_threshold=st.integers(1, 4),
    style_clause=st.sampled_from(("core", "fae")),
    teamwork_cap=st.sampled_from(("none", "lead_skill")),
    failed_advantage=st.sampled_from(("forfeit", "cost")),
    environment_requires_success=st.booleans(),
)


@st.composite
def fate_contests(draw: st.DrawFn) -> FateContest:
    """Two to four sides of one to three members, with a few aspects in play."""
    n_sides = draw(st.integers(2, 4))
    participants = []
    for s in range(n_sides):
        for m in range(draw(st.integers(1, 3))):
            participants.append(
                FateParticipant(
                    name=f"P{s}{m}",
                    side=f"S{s}",
                    skill=draw(st.integers(-1, 5)),
                    fate_points=draw(st.integers(0, 3)),
                )
            )
    sides = [f"S{s}" for s in range(n_sides)]
    aspects = [
        Aspect(
            name=f"A{i}",
            free_invokes=draw(st.integers(0, 2)),
            holder=draw(st.none() | st.sampled_from(sides)),
            owner=draw(st.none() | st.sampled_from([p.name for p in participants])),
        )
        for i in range(draw(st.integers(0, 3)))
    ]
    return new_contest(participants, aspects, draw(fate_options))


@st.composite
def fate_commands(draw: st.DrawFn, contest: FateContest) -> Command:
    """Any command a GM might send now, legal or not (the engine must refuse the bad)."""
    names = [p.name for p in contest.participants]
    aspects = [a.name for a in contest.aspects] + ["New Aspect"]
    kind = draw(
        st.sampled_from(("advantage", "roll", "roll", "roll", "invoke", "resolve", "attack"))
    )
    if kind == "advantage":
        return CreateAdvantage(
            by=draw(st.sampled_from(names)),
            aspect=draw(st.sampled_from(aspects)),
            on=draw(st.none() | st.sampled_from(names)),
            result=draw(st.integers(-2, 8)),
            opposition=draw(st.integers(-2, 8)),
        )
    if kind == "roll":
        return RollDice(who=draw(st.sampled_from(contest.sides)), faces=draw(fate_faces))
    if kind == "invoke":
        reroll = draw(st.booleans())
        return InvokeAspect(
            by=draw(st.sampled_from(names)),
            aspect=draw(st.sampled_from(aspects)),
            free=draw(st.booleans()),
            effect="reroll" if reroll else "+2",
            faces=draw(fate_faces) if reroll else None,
        )
    if kind == "attack":
        return DeclareAttack(by=draw(st.sampled_from(names)))
    return ResolveExchange(twist=draw(st.none() | st.sampled_from(aspects)))


# -- scenario JSON, valid and broken ---------------------------------------------------

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-5, 200)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
json_values = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside nested dicts and lists (the root excluded)."""
    found: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return found
    for key, child in items:
        found.append((*prefix, key))
        found.extend(paths(child, (*prefix, key)))
    return found


def place_of(path: tuple[Any, ...]) -> str:
    """``("exchanges", 0, "rolls")`` as scenario.md writes it: ``exchanges[0].rolls``."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


# -- HeroQuest ----------------------------------------------------------------------

d20s = st.integers(min_value=1, max_value=20)
tie_breaks = st.sampled_from(["low", "high"])

# Linear hq_targets from well below 0 (automatic complete defeats) to three masteries.
hq_targets = st.integers(min_value=-10, max_value=75)


@st.composite
def parties(draw: st.DrawFn) -> Party:
    """One party of a simple contest; a party at 0 or less may or may not give a roll."""
    target = draw(hq_targets)
    roll = draw(st.none() | d20s) if target <= 0 else draw(d20s)
    return Party(
        target=target,
        roll=roll,
        hero_points=draw(st.integers(min_value=0, max_value=3)),
        stretched=draw(st.booleans()),
    )


# -- FORGE ----------------------------------------------------------------------------

d100 = st.integers(min_value=1, max_value=100)

# Targets on both sides of the automatic bounds: ≤ 0 never succeeds, ≥ 100 always does.
forge_targets = st.one_of(
    st.integers(min_value=-60, max_value=0),
    st.integers(min_value=1, max_value=99),
    st.integers(min_value=100, max_value=180),
    st.sampled_from([-1, 0, 1, 99, 100, 101]),
)
multipliers = st.integers(min_value=1, max_value=12)
max_damages = st.none() | st.integers(min_value=0, max_value=120)
armors = st.integers(min_value=0, max_value=30)
capacities = st.integers(min_value=0, max_value=60)  # 0: unlimited


@dataclass(frozen=True)
class Stage:
    """One stage's inputs, as the scoring functions take them."""

    actor_target: int
    actor_roll: int
    reactor_target: int
    reactor_roll: int
    multiplier: int
    max_damage: int | None


stages = st.builds(
    Stage,
    actor_target=forge_targets,
    actor_roll=d100,
    reactor_target=forge_targets,
    reactor_roll=d100,
    multiplier=multipliers,
    max_damage=max_damages,
)


@st.composite
def fighters(draw: st.DrawFn, name: str, side: str | None = None) -> ForgeParticipant:
    """A combatant with a weapon and armor (limited or unlimited)."""
    return ForgeParticipant(
        name=name,
        side=side or name,
        target=draw(forge_targets),
        multiplier=draw(multipliers),
        max_damage=draw(max_damages),
        armor=draw(armors),
        armor_capacity=draw(capacities),
    )
