"""Hypothesis strategies for all the tests (attrs keeps one such module; so do we)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from core.campaign import (
    AddCharacter,
    Campaign,
    Character,
    Entry,
    Play,
    Redo,
    StartContest,
    Undo,
    UpdateCharacter,
)
from core.errors import RuleError
from core.model import (
    Command,
    Contest,
    EndContest,
    ResolveExchange,
    RollDice,
    SetModifier,
)
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
from core.rules.forge import (
    ChooseReaction,
    ForgeContest,
    ForgeOptions,
    ForgeParticipant,
    SetStage,
)
from core.rules.forge import new_contest as forge_new_contest
from core.rules.heroquest import (
    HQContest,
    HQOptions,
    HQParticipant,
    Leave,
    Party,
    SpendHeroPoints,
    Stretch,
)
from core.rules.heroquest import new_contest as hq_new_contest

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


# -- campaigns: GM actions with undos and redos interleaved ------------------------------
#
# A campaign's next action depends on what it holds (its contests, its roster), so
# ``campaign_runs`` plays the actions as it draws them, keeps the entries the campaign
# accepted, and skips the refused ones (a refused action leaves the campaign as it was).

CAMPAIGN_SYSTEMS = ("fate", "heroquest", "forge")
ROSTER_NAMES = ("Cynere", "Teran", "Zird", "Landon", "")
# Weights by repetition: undos, redos and plays often enough to interleave.
CAMPAIGN_ACTION_KINDS = (
    *("undo", "undo", "redo", "redo", "add", "rename", "start"),
    *("exchange", "exchange", "play", "play"),
)


@st.composite
def characters(draw: st.DrawFn) -> Character:
    """A roster character, named from a small pool so additions and renames collide."""
    return Character(
        name=draw(st.sampled_from(ROSTER_NAMES)),
        kind=draw(st.sampled_from(("pc", "npc"))),
        ratings=draw(
            st.dictionaries(st.sampled_from(("Athletics", "Fight", "Lore")), st.integers(-1, 40))
        ),
        aspects=tuple(draw(st.lists(st.sampled_from(("Sworn", "Quick", "Tired")), max_size=2))),
        fate_points=draw(st.integers(0, 3)),
        hero_points=draw(st.integers(0, 3)),
        vitality=draw(st.integers(0, 2)),
    )


@st.composite
def hq_contests(draw: st.DrawFn) -> HQContest:
    """Two participants, so each exchange starts with its first action."""
    return hq_new_contest(
        [
            HQParticipant(
                name=name,
                side=name,
                rating=draw(st.integers(1, 40)),
                vitality=draw(st.integers(0, 2)),
                hero_points=draw(st.integers(0, 3)),
            )
            for name in ("Hero", "Foe")
        ],
        HQOptions(chained=draw(st.booleans())),
    )


@st.composite
def forge_contests(draw: st.DrawFn) -> ForgeContest:
    return forge_new_contest(
        [draw(fighters("Josef")), draw(fighters("Bobby"))],
        ForgeOptions(combat=draw(st.booleans())),
    )


def starting_contests(system: str) -> st.SearchStrategy[Contest]:
    strategies: dict[str, st.SearchStrategy[Contest]] = {
        "fate": fate_contests(),
        "heroquest": hq_contests(),
        "forge": forge_contests(),
    }
    return strategies[system]


@st.composite
def hq_commands(draw: st.DrawFn, contest: HQContest) -> Command:
    """A party action in a two-participant HeroQuest contest, legal or not."""
    who = draw(st.sampled_from([p.name for p in contest.participants]))
    kind = draw(st.sampled_from(("roll", "roll", "modifier", "hero", "stretch", "leave", "end")))
    if kind == "roll":
        return RollDice(who=who, faces=(draw(d20s),))
    if kind == "modifier":
        return SetModifier(who=who, value=draw(st.integers(-6, 6)))
    if kind == "hero":
        return SpendHeroPoints(who=who, count=draw(st.integers(0, 2)))
    if kind == "stretch":
        return Stretch(who=who)
    if kind == "leave":
        return Leave(who=who)
    return ResolveExchange()


@st.composite
def forge_commands(draw: st.DrawFn, contest: ForgeContest) -> Command:
    """A stage action in a two-participant FORGE contest, legal or not."""
    names = [p.name for p in contest.participants]
    kind = draw(st.sampled_from(("stage", "roll", "roll", "modifier", "reaction", "end")))
    if kind == "stage":
        return SetStage(
            actor=draw(st.none() | st.sampled_from(names)),
            reactor=draw(st.none() | st.sampled_from(names)),
        )
    if kind == "roll":
        return RollDice(who=draw(st.sampled_from(names)), faces=(draw(d100),))
    if kind == "modifier":
        return SetModifier(who=draw(st.sampled_from(names)), value=draw(st.integers(-20, 20)))
    if kind == "reaction":
        return ChooseReaction(reaction=draw(st.sampled_from(("dodge", "absorb"))))
    return draw(st.sampled_from((ResolveExchange(), EndContest())))


def whole_exchange(draw: st.DrawFn, contest: Contest) -> tuple[Command, ...]:
    """Every roll an exchange needs, then its resolution: a Play that usually succeeds,
    so contests get past their first exchange."""
    if isinstance(contest, FateContest):
        rolls: list[Command] = [
            RollDice(who=side, faces=draw(fate_faces)) for side in contest.rolling_sides
        ]
        twist = draw(st.none() | st.just("Mud"))
        return (*rolls, ResolveExchange(twist=twist))
    if isinstance(contest, HQContest):
        return (
            *(RollDice(who=p.name, faces=(draw(d20s),)) for p in contest.participants),
            ResolveExchange(),
        )
    assert isinstance(contest, ForgeContest)
    first = contest.participants[0].name
    stage: tuple[Command, ...] = (SetStage(actor=first),) if contest.last_reactor is None else ()
    return (
        *stage,
        *(RollDice(who=p.name, faces=(draw(d100),)) for p in contest.participants),
        ResolveExchange(),
    )


def rule_commands(contest: Contest) -> st.SearchStrategy[Command]:
    if isinstance(contest, FateContest):
        return fate_commands(contest)
    if isinstance(contest, HQContest):
        return hq_commands(contest)
    assert isinstance(contest, ForgeContest)
    return forge_commands(contest)


@st.composite
def campaign_commands(draw: st.DrawFn, campaign: Campaign) -> Command:
    """The GM's next action: roster changes, contests started and played, undo, redo."""
    kind = draw(st.sampled_from(CAMPAIGN_ACTION_KINDS))
    if kind == "undo":
        return Undo()
    if kind == "redo":
        return Redo()
    if kind == "add":
        return AddCharacter(character=draw(characters()))
    if kind == "rename":
        old = draw(st.sampled_from([*campaign.roster, "Nobody"]))
        return UpdateCharacter(name=old, character=draw(characters()))
    if kind == "start" or not campaign.contests:
        return StartContest(
            title=draw(st.sampled_from(("Race", "Duel"))),
            contest=draw(starting_contests(campaign.system)),
            uses=draw(st.sampled_from(({}, {"Cynere": "Athletics"}))),
        )
    contest_id = draw(st.sampled_from(sorted(campaign.contests)))
    state = campaign.contests[contest_id].state
    if kind == "exchange":
        return Play(contest_id=contest_id, commands=whole_exchange(draw, state))
    return Play(
        contest_id=contest_id,
        commands=tuple(draw(st.lists(rule_commands(state), min_size=1, max_size=3))),
    )


@dataclass
class CampaignRun:
    """A campaign after a random run, and the log entries that made it (in order)."""

    campaign: Campaign
    entries: list[Entry]


@st.composite
def campaign_runs(draw: st.DrawFn, system: str, max_actions: int = 25) -> CampaignRun:
    campaign = Campaign(name="Random run", system=system)
    entries: list[Entry] = []
    for _ in range(draw(st.integers(0, max_actions))):
        command = draw(campaign_commands(campaign))
        try:
            entry = campaign.decide(command)
        except RuleError:
            continue
        campaign.apply(entry)
        entries.append(entry)
    return CampaignRun(campaign, entries)
