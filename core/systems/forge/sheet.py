"""Iconoclast FORGE around a contest: targets, damage multiplier and maximum, armor and its
capacity, trauma; setting a contest up from the roster, what it leaves (trauma, armor
used: §3.4), the costs the summary lists, and the target-building tables (§3.2, §3.4)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from core.campaign.log import Character
from core.campaign.sheet import Change, Demo, Pick, SystemSheet, options
from core.campaign.state import CampaignState, ContestRecord
from core.errors import RuleError
from core.limits import written_whole
from core.model import Contest, Event, Participant
from core.systems.forge.beat_round import BEAT_PATTERN_WORDS
from core.systems.forge.beats import HitLanded
from core.systems.forge.character import ForgeCharacter, forge_sheet, with_forge
from core.systems.forge.events import ExchangeResolved
from core.systems.forge.state import ForgeContest, ForgeOptions, ForgeParticipant, new_contest
from core.systems.forge.upgrade import upgrade_entries

NO_SKILL = 0  # a target of 0
QUICK_ROLL = "core.systems.forge.quick_roll"  # d100 vs 45 (core.campaign.quick_roll)
ROSTER_FILE = (
    "core.systems.forge.roster_file:FORMAT"  # its roster files (core.campaign.roster_file)
)


def rating_label(value: int) -> str:
    return str(value)


def typed_rating(text: str) -> int:
    """A target as anybody types or writes it, the one reading every layer uses (the
    roster's form and files, the setup): a whole number, with or without a percent sign
    (``50``, ``50%``, ``-10``)."""
    try:
        value = written_whole(text.strip().removesuffix("%"))
    except ValueError as too_large:  # a number, only too large: said so, not "no target"
        raise RuleError(str(too_large)) from None
    if value is not None:
        return value
    raise RuleError(f'"{text}" is not a target: write a whole number (like 50 or 50%)')


def describe_options(opts: Mapping[str, Any]) -> list[str]:
    g = options(ForgeOptions, opts)
    return [
        "combat (damage thrown, dodge or absorb)" if g.combat else "no combat (no damage)",
        "the reactor wins ties" if g.reactor_wins_ties else "the actor wins ties",
        f"rounds by beats: {BEAT_PATTERN_WORDS[g.beat_pattern]}",
    ]


def build_contest(
    chosen: Sequence[tuple[Pick, Character]],
    opts: Mapping[str, Any],
    situation_aspects: Sequence[str],
) -> Contest:
    return new_contest(
        [
            ForgeParticipant(
                name=c.name,
                side=p.side,
                target=p.rating_of(c, NO_SKILL),
                multiplier=forge_sheet(c).multiplier,
                max_damage=forge_sheet(c).max_damage,
                armor=forge_sheet(c).armor,
                armor_capacity=forge_sheet(c).armor_capacity,
                current_trauma=current_trauma(c),
                agility=forge_sheet(c).agility,
            )
            for p, c in chosen
        ],
        options(ForgeOptions, opts),
    )


def current_trauma(character: Character) -> int | None:
    """A character's Current Trauma (rules §3.4, [I15]): the Trauma pool less the trauma
    taken; None when the roster keeps no pool for them."""
    sheet = forge_sheet(character)
    return None if sheet.trauma_pool is None else sheet.trauma_pool - sheet.trauma


def dying(character: Character) -> bool:
    """Current Trauma at 0 or below: dying (rules §3.4), out of any contest."""
    now = current_trauma(character)
    return now is not None and now <= 0


def rolled(participant: Participant) -> int:
    assert isinstance(participant, ForgeParticipant)
    return participant.target


def newcomer(participant: Participant) -> Character:
    """An NPC for a recorded scenario's participant the roster lacks: its target (as
    "Target"), weapon, armor and Current Trauma (as its pool) as the contest starts."""
    assert isinstance(participant, ForgeParticipant)
    return Character(
        name=participant.name,
        kind="npc",
        ratings={"Target": participant.target},
        sheet=ForgeCharacter(
            multiplier=participant.multiplier,
            max_damage=participant.max_damage,
            armor=participant.armor,
            armor_capacity=participant.armor_capacity,
            trauma_pool=participant.current_trauma,
            agility=participant.agility,
        ),
    )


def write_back(campaign: CampaignState, record: ContestRecord) -> Iterator[Change]:
    """Trauma taken (so Current Trauma, the pool less it, and a character dying at 0 or
    below), and the armor capacity used up absorbing damage (§3.4): armor with no limit
    stays so; armor used up stays at 0 (A-I4: it absorbs nothing more)."""
    state = record.state
    assert isinstance(state, ForgeContest)
    start = {p.name: p for p in record.start.participants}
    for p in state.participants:
        taken = state.trauma.get(p.name, 0)
        if taken:
            yield p.name, lambda c, t=taken: with_forge(c, trauma=forge_sheet(c).trauma + t)
        began, left = getattr(start[p.name], "armor_capacity", None), state.armor_left.get(p.name)
        if began is None or left is None or began == left:
            continue
        yield (
            p.name,
            lambda c, u=began - left: with_forge(c, armor_capacity=_used(forge_sheet(c), u)),
        )


def _used(sheet: ForgeCharacter, used: int) -> int | None:
    """The armor capacity left once ``used`` more is absorbed (no limit stays so)."""
    return None if sheet.armor_capacity is None else max(0, sheet.armor_capacity - used)


def costs(record: ContestRecord, events: Sequence[Event]) -> Iterator[str]:
    state = record.state
    for name, taken in getattr(state, "trauma", {}).items():
        if taken:
            yield f"{name} took {taken} trauma"
    if isinstance(state, ForgeContest):
        for p in state.participants:
            if state.dying(p.name):
                yield f"{p.name} is dying (current trauma {state.current_trauma(p.name)})"
    absorbed: Counter[str] = Counter()
    for e in record.exchanges:
        if isinstance(e, ExchangeResolved) and e.absorbed:
            absorbed[e.reactor] += e.absorbed
        elif isinstance(e, HitLanded) and e.hit.absorbed:
            absorbed[e.hit.attack.target] += e.hit.absorbed
    for name, n in absorbed.items():
        yield f"{name}'s armor absorbed {n}"


def demo() -> Demo:
    """Josef and Bobby brawl in an alley (combat: damage, armor)."""
    return Demo(
        characters=(
            Character(name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4)),
            Character(
                name="Bobby",
                kind="npc",
                ratings={"Brawling": 40},
                sheet=ForgeCharacter(multiplier=5, armor=10, armor_capacity=100),
            ),
        ),
        title="Back-alley brawl",
        picks=(
            Pick(character="Josef", side="Josef", rating="Brawling"),
            Pick(character="Bobby", side="Bobby", rating="Brawling"),
        ),
        options={"combat": True},
    )


# -- building a target (§3.2, §3.4) ---------------------------------------------------------


def target(tiers: Sequence[int], attribute: int = 0, modifiers: Sequence[int] = ()) -> int:
    """A target: the skill tiers down to the most specific that applies, plus the
    attribute, plus modifiers (rules §3.2: Piloting 25 + 4-Wheeled 20 + Racing 10 = 55)."""
    return sum(tiers) + attribute + sum(modifiers)


def cover_modifier(percent_covered: int) -> int:
    """Cover lowers the attacker's target by the share of the body covered (rules §3.4)."""
    if not 0 <= percent_covered <= 100:
        raise RuleError("cover is 0 to 100 percent of the body")
    return -percent_covered


class ForgeSheet(SystemSheet):
    """FORGE's :class:`core.campaign.sheet.SystemSheet`: the functions above."""

    NO_SKILL = NO_SKILL
    CHARACTER = ForgeCharacter
    ROSTER_FILE = ROSTER_FILE
    QUICK_ROLL = QUICK_ROLL
    rating_label = staticmethod(rating_label)
    typed_rating = staticmethod(typed_rating)
    describe_options = staticmethod(describe_options)
    build_contest = staticmethod(build_contest)
    rolled = staticmethod(rolled)
    newcomer = staticmethod(newcomer)
    write_back = staticmethod(write_back)
    costs = staticmethod(costs)
    demo = staticmethod(demo)
    upgrade_entries = staticmethod(upgrade_entries)


SHEET = ForgeSheet()
