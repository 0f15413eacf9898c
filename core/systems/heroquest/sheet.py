"""HeroQuest around a contest: abilities with masteries, hero points, states of adversity
and lingering benefits (§2.6); setting a contest up from the roster, what it leaves
(§2.6, §2.8's rising action for an extended contest), a session's recovery, and the
resistance and augment tables of the campaign's age (§2.5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from core.campaign.log import Character
from core.campaign.sheet import Change, Demo, Pick, SystemSheet, options
from core.campaign.state import CampaignState, ContestRecord
from core.engine import play
from core.errors import RuleError
from core.model import Command, Contest, Event, Participant, ResolveExchange, RollDice
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet, with_hq
from core.systems.heroquest.consequences import BENEFITS
from core.systems.heroquest.events import ExchangeResolved
from core.systems.heroquest.group_extended import FOLLOWER_ROLES, GroupError, Role
from core.systems.heroquest.group_extended import consequences as group_consequences
from core.systems.heroquest.group_play import HQGroupContest, new_group
from core.systems.heroquest.ratings import format_rating, parse_rating
from core.systems.heroquest.resolution import MAJOR, VICTORIES
from core.systems.heroquest.state import HQContest, HQOptions, HQParticipant, new_contest

NO_SKILL = 6  # a character with no relevant ability rolls against 6 (§2.2)
ROSTER_FILE = (
    "core.systems.heroquest.roster_file:FORMAT"  # its roster files (core.campaign.roster_file)
)
QUICK_ROLL = "core.systems.heroquest.quick_roll"  # 4M vs 14, d20 vs 14 (core.campaign.quick_roll)

ADVERSITY_PENALTY = {"hurt": 3, "impaired": 6}  # §2.6, on every later related use
NO_ACTIONS = ("dying", "dead")  # §2.6: "no actions"
# What a consequence leaves on the roster: "dazed" (§2.8.7's climactic method) has no
# penalty in §2.6, so it is told in the summary but not kept.
WRITTEN_STATES = ("hurt", "impaired", "injured", "dying", "dead")


def rating_label(value: int) -> str:
    return format_rating(value)


def typed_rating(text: str) -> int:
    """A HeroQuest rating: ``17``, ``4M``."""
    return parse_rating(text.strip())


def describe_options(opts: Mapping[str, Any]) -> list[str]:
    h = options(HQOptions, opts)
    kind = (
        "group extended contest (pairings, round by round)"
        if h.group_extended
        else "extended contest (first to 5 resolution points)"
        if h.extended
        else "chained contest"
        if h.chained
        else "simple contest"
    )
    ties = "ties: lower roll wins" if h.tie_break == "low" else "ties: higher roll wins"
    # Left out, the augment base is the table's for the sessions played (§2.5), set as
    # the contest starts.
    base = h.augment_base if "augment_base" in opts else "the base for the sessions played"
    out = [kind, ties, f"augments against {base}"]
    if h.wherewithal_waiver:
        out.append("a major or complete wherewithal victory waives the injury's bump down")
    if h.group_extended and h.followers:  # HQ2, Followers
        marked = (f"{name} ({role}, of {leader})" for name, role, leader in h.followers)
        out.append("followers: " + ", ".join(marked))
    if h.extended:  # §2.8.6-7
        out.append(
            f"consequences: {'climactic' if h.consequences == 'climactic' else 'rising action'}"
        )
    return out


def is_related(character: Character, source: str, ability: str | None) -> bool:
    """Whether what ``source`` earned or suffered applies when ``character`` rolls
    ``ability`` (rules §2.6): the same ability, or one the GM marked related to it (either
    way round). No ability (a roll against 6) relates to none."""
    if ability is None:
        return False
    return (
        source == ability
        or ability in hq_sheet(character).related.get(source, ())
        or source in hq_sheet(character).related.get(ability, ())
    )


def states_for(character: Character, ability: str | None) -> tuple[str, ...]:
    """The states of adversity that apply when ``character`` rolls ``ability``: those
    related to every ability, then those of ``ability`` and of abilities related to it."""
    tied = (
        s
        for source, states in hq_sheet(character).adversity_of.items()
        if is_related(character, source, ability)
        for s in states
    )
    return (*hq_sheet(character).adversity, *tied)


def benefit_for(character: Character, ability: str | None) -> int:
    """The lingering benefits that apply when rolling ``ability``: its own, and those of
    abilities related to it (several add up, §2.6)."""
    return sum(
        v for k, v in hq_sheet(character).benefits.items() if is_related(character, k, ability)
    )


def out_of_action(character: Character) -> str | None:
    """``dying`` or ``dead`` when the character can take no actions at all (§2.6),
    whatever ability the state came from."""
    every = (
        *hq_sheet(character).adversity,
        *(s for st in hq_sheet(character).adversity_of.values() for s in st),
    )
    return next((s for s in NO_ACTIONS if s in every), None)


def condition(character: Character, ability: str | None) -> tuple[int, int]:
    """``(condition, bumps_down)`` for ``character`` rolling ``ability``: its related
    lingering benefits, less 3 per related hurt and 6 per related impairment; a bump
    down per related injury (rules §2.6). A dying (or dead) character takes no
    actions: ``RuleError``."""
    state = out_of_action(character)
    if state is not None:
        raise RuleError(
            f"{character.name} is {state}: no actions (rules §2.6); heal them on the roster first"
        )
    states = states_for(character, ability)
    penalty = sum(ADVERSITY_PENALTY.get(s, 0) for s in states)
    return benefit_for(character, ability) - penalty, states.count("injured")


def conditions(character: Character, ability: str | None) -> str:
    """What the roster's states and benefits do to ``ability``, for the setup screen:
    ``hurt -3, injured: 1 bump down, Sword +3``; ``""`` when nothing applies."""
    state = out_of_action(character)
    if state is not None:
        return f"{state}: no actions"
    states = Counter(states_for(character, ability))
    parts = []
    for s, n in states.items():
        times = "" if n == 1 else f"×{n}"
        if s == "injured":
            parts.append(f"injured{times}: {n} bump{'s' if n > 1 else ''} down")
        else:
            parts.append(f"{s}{times} -{ADVERSITY_PENALTY.get(s, 0) * n}")
    parts += [
        f"{k} +{v}"
        for k, v in hq_sheet(character).benefits.items()
        if is_related(character, k, ability)
    ]
    return ", ".join(parts)


def injured(character: Character) -> bool:
    """Whether the character must first win a contest of wherewithal to take part in a
    contest at all (rules §2.6: an injury, on whatever ability)."""
    every = (
        *hq_sheet(character).adversity,
        *(s for st in hq_sheet(character).adversity_of.values() for s in st),
    )
    return "injured" in every


RESISTANCE = "Resistance"  # the contest of wherewithal's other party


def wherewithal(
    character: Character,
    ability: str | None,
    resistance: int,
    roll: int | None,
    resistance_roll: int | None,
    tie_break: str = "low",
) -> ExchangeResolved:
    """An injured character's contest of wherewithal (rules §2.6), scored by the engine
    as a simple contest: ``ability`` (its rating, vitality, and the hurts, impairments and
    benefits related to it, but not the injury's bump down) against ``resistance`` (the
    campaign's Moderate, §2.5). Only a victory lets the character take part: a tie or a
    defeat keeps them out of the contest. ``RuleError`` for a bad roll or a dying
    character."""
    left = condition(character, ability)[0]  # penalties and benefits; no bump down
    rating = character.ratings.get(ability, NO_SKILL) if ability else NO_SKILL
    name = character.name if character.name != RESISTANCE else f"{RESISTANCE} (character)"
    contest = new_contest(
        [
            HQParticipant(
                name=name,
                side=name,
                rating=rating,
                vitality=hq_sheet(character).vitality,
                condition=left,
            ),
            HQParticipant(name=RESISTANCE, side=RESISTANCE, rating=resistance),
        ],
        options(HQOptions, {"tie_break": tie_break}),
    )
    commands: list[Command] = []
    if roll is not None:
        commands.append(RollDice(who=name, faces=(roll,)))
    if resistance_roll is not None:
        commands.append(RollDice(who=RESISTANCE, faces=(resistance_roll,)))
    _, events = play(contest, [*commands, ResolveExchange()])
    return next(e for e in events if isinstance(e, ExchangeResolved))


def followers_of(
    h: HQOptions, participants: Sequence[HQParticipant]
) -> dict[str, tuple[Role, str]]:
    """The followers the setup marked (``HQOptions.followers``) among ``participants``:
    name -> (role, leader). One marked before the GM took them (or their leader) out of
    the setup is left out; a role the rules lack is a ``GroupError``."""
    names = {p.name for p in participants}
    found: dict[str, tuple[Role, str]] = {}
    for name, role, leader in h.followers:
        if name not in names or leader not in names:
            continue
        chosen = next((r for r in FOLLOWER_ROLES if r == role), None)
        if chosen is None:
            raise GroupError(f'{name}: no follower role "{role}" ({", ".join(FOLLOWER_ROLES)})')
        found[name] = (chosen, leader)
    return found


def build_contest(
    chosen: Sequence[tuple[Pick, Character]],
    opts: Mapping[str, Any],
    situation_aspects: Sequence[str],
) -> Contest:
    h = options(HQOptions, opts)
    participants = []
    for p, c in chosen:
        left, bumps = condition(c, p.rating)  # what earlier contests left
        if h.wherewithal_waiver and c.name in h.waived:
            bumps = 0  # HQ2's optional rule: waived by a major or complete wherewithal
        participants.append(
            HQParticipant(
                name=c.name,
                side=p.side,
                rating=p.rating_of(c, NO_SKILL),
                vitality=hq_sheet(c).vitality,
                hero_points=hq_sheet(c).hero_points,
                condition=left,
                bumps_down=bumps,
            )
        )
    if h.group_extended:  # HQ2's group extended contest: pairings engaged on the contest screen
        return new_group(participants, h, followers=followers_of(h, participants))
    return new_contest(participants, h)


def waives_bump(victory: int | None) -> bool:
    """Whether a wherewithal victory this large waives the injury's bump down under
    HQ2's optional rule: a major or a complete one."""
    return victory is not None and victory >= MAJOR


def rolled(participant: Participant) -> int:
    assert isinstance(participant, HQParticipant)
    return participant.rating


def newcomer(participant: Participant) -> Character:
    """An NPC for a recorded scenario's participant the roster lacks: its ability (as
    "Rating"), vitality and hero points."""
    assert isinstance(participant, HQParticipant)
    return Character(
        name=participant.name,
        kind="npc",
        ratings={"Rating": participant.rating},
        sheet=HeroQuestCharacter(
            vitality=participant.vitality, hero_points=participant.hero_points
        ),
    )


def write_back(campaign: CampaignState, record: ContestRecord) -> Iterator[Change]:
    """Hero points spent; the states of adversity and lingering benefits each exchange
    (or, in an extended contest, the final difference) leaves (§2.6, §2.8, §2.9)."""
    state = record.state
    assert isinstance(state, HQContest)
    for p in state.participants:
        delta = state.hero_points_left.get(p.name, p.hero_points) - p.hero_points
        if delta:
            yield (
                p.name,
                lambda c, d=delta: with_hq(c, hero_points=max(0, hq_sheet(c).hero_points + d)),
            )
    states: dict[str, list[str]] = {}
    benefits: Counter[str] = Counter()
    final = state.extended_result()
    if isinstance(state, HQGroupContest):  # each one's own (HQ2, Group Extended Contests)
        found = group_consequences(state.group_state) if state.finished else None
        for name, taken in (found.states if found else {}).items():
            states[name] = [s for s in taken if s in WRITTEN_STATES]
        for name, won in (found.victories if found else {}).items():
            benefits[name] += BENEFITS[won]
    elif final is not None:  # the engine's rising-action (or climactic) consequences, §2.8
        victory, consequences = final
        for p in state.participants:
            if p.name in consequences and consequences[p.name] in WRITTEN_STATES:
                states.setdefault(p.name, []).append(consequences[p.name])
            if p.side == state.winner:
                benefits[p.name] += BENEFITS[victory]
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
            kept = dict(hq_sheet(c).benefits)
            if name in losers:  # a benefit lasts until a defeat using it (§2.6)
                for used in [k for k in kept if is_related(c, k, ability)]:
                    del kept[used]
            if benefits[name] and ability:  # and several add up
                kept[ability] = kept.get(ability, 0) + benefits[name]
            new = tuple(states.get(name, ()))
            if not new:
                return with_hq(c, benefits=kept)
            if ability is None:  # no ability of the sheet: related to any (the GM narrows it)
                return with_hq(c, adversity=(*hq_sheet(c).adversity, *new), benefits=kept)
            tied = dict(hq_sheet(c).adversity_of)
            tied[ability] = (*tied.get(ability, ()), *new)
            return with_hq(c, adversity_of=tied, benefits=kept)

        yield name, change


def new_session(character: Character, reset: int | None) -> Character:
    """Hero points reset where the table does that; hurts recover (§2.6)."""
    sheet = new = hq_sheet(character)
    if reset is not None and character.kind == "pc":
        new = replace(new, hero_points=reset)
    if "hurt" in sheet.adversity:
        new = replace(new, adversity=tuple(s for s in sheet.adversity if s != "hurt"))
    healed = {k: tuple(s for s in v if s != "hurt") for k, v in sheet.adversity_of.items()}
    if healed != sheet.adversity_of:
        new = replace(new, adversity_of={k: v for k, v in healed.items() if v})
    return character if new is sheet else replace(character, sheet=new)


def _hurts(c: Character) -> int:
    """Hurts on a character, related to every ability or to one (rules §2.6)."""
    return hq_sheet(c).adversity.count("hurt") + sum(
        v.count("hurt") for v in hq_sheet(c).adversity_of.values()
    )


def session_news(old: Character, new: Character) -> list[str]:
    healed = _hurts(old) - _hurts(new)
    if not healed:
        return []
    return [f"{new.name}'s {'hurt' if healed == 1 else f'{healed} hurts'} healed"]


def costs(record: ContestRecord, events: Sequence[Event]) -> Iterator[str]:
    spent: Counter[str] = Counter()
    state = record.state
    if isinstance(state, HQGroupContest):  # its exchanges keep them in the moves: what
        for p in state.participants:  # left the sheet, as the roster's write-back counts
            spent[p.name] = p.hero_points - state.hero_points_left.get(p.name, p.hero_points)
    else:
        for e in record.exchanges:
            spent.update(getattr(e, "hero_points", {}))
    for name, n in spent.items():
        if n <= 0:
            continue
        yield f"{name} spent {n} hero point{'s' if n != 1 else ''}"
    final = state.extended_result() if isinstance(state, HQContest) else None
    if isinstance(state, HQGroupContest) and state.finished:  # each one's own
        found = group_consequences(state.group_state)
        who = ", ".join(f"{n} {', '.join(s)}" for n, s in found.states.items())
        won = ", ".join(f"{n} {VICTORIES[v]}" for n, v in found.victories.items())
        yield f"Consequences: {who or 'nobody harmed'}; victories: {won or 'none'}"
        return
    if final is not None:  # §2.8.6-7, as the engine scored them (a dazed one included)
        assert isinstance(state, HQContest)
        victory, states = final
        method = "climactic" if state.options.consequences == "climactic" else "rising action"
        who = ", ".join(f"{n} {s}" for n, s in states.items()) or "nobody harmed"
        yield f"Consequences ({method}): {VICTORIES[victory]} victory; {who}"


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
                sheet=HeroQuestCharacter(hero_points=3, vitality=1),
            ),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 17}),
            Character(
                name="Sandy",
                ratings={"Staff Fighting": 15},
                sheet=HeroQuestCharacter(hero_points=3),
            ),
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


class HeroQuestSheet(SystemSheet):
    """HeroQuest's :class:`core.campaign.sheet.SystemSheet`: the functions above."""

    NO_SKILL = NO_SKILL
    CHARACTER = HeroQuestCharacter
    ROSTER_FILE = ROSTER_FILE
    QUICK_ROLL = QUICK_ROLL
    rating_label = staticmethod(rating_label)
    typed_rating = staticmethod(typed_rating)
    describe_options = staticmethod(describe_options)
    build_contest = staticmethod(build_contest)
    rolled = staticmethod(rolled)
    newcomer = staticmethod(newcomer)
    conditions = staticmethod(conditions)
    write_back = staticmethod(write_back)
    new_session = staticmethod(new_session)
    session_news = staticmethod(session_news)
    costs = staticmethod(costs)
    level = staticmethod(level)
    demo = staticmethod(demo)


SHEET = HeroQuestSheet()
