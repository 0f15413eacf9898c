"""Hypothesis strategies for all the tests (attrs keeps one such module; so do we)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hypothesis import event, settings
from hypothesis import strategies as st

from core.campaign.actions import Campaign
from core.campaign.log import (
    ActionRecorded,
    ActionUndone,
    AddCharacter,
    Character,
    Entry,
    Play,
    Played,
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
    ExchangeEvent,
    ResolveExchange,
    RollDice,
    SetModifier,
)
from core.systems.fate.character import FateCharacter
from core.systems.fate.conflict import Absorption, absorptions
from core.systems.fate.conflict_play import (
    Absorb,
    Attack,
    Concede,
    EndConflict,
    FateConflict,
    FullDefense,
    SetTurnOrder,
    TakeOut,
    TakeTurn,
)
from core.systems.fate.events import CreateAdvantage, DeclareAttack, InvokeAspect
from core.systems.fate.scoring import FateOptions
from core.systems.fate.state import Aspect, FateContest, FateParticipant, new_contest
from core.systems.forge.events import ChooseReaction, SetStage
from core.systems.forge.state import ForgeContest, ForgeOptions, ForgeParticipant
from core.systems.forge.state import new_contest as forge_new_contest
from core.systems.heroquest.character import HeroQuestCharacter
from core.systems.heroquest.events import Leave, SpendHeroPoints, Stretch
from core.systems.heroquest.resolution import Party
from core.systems.heroquest.state import HQContest, HQOptions, HQParticipant
from core.systems.heroquest.state import new_contest as hq_new_contest

# A strategy made afresh for every draw (st.sampled_from of a new list, a composite called
# again, an ``|`` of two) is validated and measured anew each time: in a campaign run, ten
# times the cost of the rules it plays (issue 25). The strategies drawn from in loops are
# therefore built once: module-level constants, and these two for choices among values
# known only at the time of the draw, kept per tuple of choices.


@lru_cache(maxsize=4096)
def _sampled(items: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    return st.sampled_from(items)


@lru_cache(maxsize=4096)
def _sampled_or_none(items: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    return st.none() | st.sampled_from(items)


def pick(draw: st.DrawFn, items: Iterable[Any]) -> Any:
    """``draw(st.sampled_from(items))``, from a strategy built once per tuple of items."""
    return draw(_sampled(tuple(items)))


def pick_or_none(draw: st.DrawFn, items: Iterable[Any]) -> Any:
    """``draw(st.none() | st.sampled_from(items))``, its strategy built once per tuple."""
    return draw(_sampled_or_none(tuple(items)))


def examples(times: int) -> settings:
    """Settings for a property that needs ``times`` as many examples as its profile
    gives (tests/conftest.py: 100 in CI and a plain pytest run, fewer with "dev")."""
    return settings(max_examples=times * settings.default.max_examples)


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
            holder=pick_or_none(draw, sides),
            owner=pick_or_none(draw, [p.name for p in participants]),
        )
        for i in range(draw(st.integers(0, 3)))
    ]
    return new_contest(participants, aspects, draw(fate_options))


@st.composite
def fate_commands(draw: st.DrawFn, contest: FateContest) -> Command:
    """Any command a GM might send now, legal or not (the engine must refuse the bad)."""
    return fate_command(draw, contest)


_FATE_KINDS = ("advantage", "roll", "roll", "roll", "invoke", "resolve", "attack")


def fate_command(draw: st.DrawFn, contest: FateContest) -> Command:
    """``fate_commands``' draw, called directly where it is drawn in a loop."""
    names = [p.name for p in contest.participants]
    aspects = [a.name for a in contest.aspects] + ["New Aspect"]
    kind = pick(draw, _FATE_KINDS)
    if kind == "advantage":
        return CreateAdvantage(
            by=pick(draw, names),
            aspect=pick(draw, aspects),
            on=pick_or_none(draw, names),
            result=draw(st.integers(-2, 8)),
            opposition=draw(st.integers(-2, 8)),
        )
    if kind == "roll":
        return RollDice(who=pick(draw, contest.sides), faces=draw(fate_faces))
    if kind == "invoke":
        reroll = draw(st.booleans())
        return InvokeAspect(
            by=pick(draw, names),
            aspect=pick(draw, aspects),
            free=draw(st.booleans()),
            effect="reroll" if reroll else "+2",
            faces=draw(fate_faces) if reroll else None,
        )
    if kind == "attack":
        return DeclareAttack(by=pick(draw, names))
    return ResolveExchange(twist=pick_or_none(draw, aspects))


@st.composite
def fate_moves(draw: st.DrawFn, contest: FateContest) -> Command:
    """The GM's next command, as a GM at the table gives it: an advantage before the
    dice, the rolls still missing, invokes once everyone rolled, then the resolution (an
    attack now and then). One in eight is any command at all, legal or not. Played in a
    loop, most runs resolve several exchanges and many reach the contest's end."""
    return fate_move(draw, contest)


def fate_move(draw: st.DrawFn, contest: FateContest) -> Command:
    """``fate_moves``' draw; its choices among this contest's names from strategies built
    once per tuple of them (:func:`pick`), not anew for every draw."""
    if contest.finished or draw(_EIGHTHS) == 0:
        # Anything, but attacks only below: each ends the contest at once.
        return draw(_any_but_an_attack(contest))
    names = [p.name for p in contest.participants]
    waiting = [s for s in contest.rolling_sides if s not in contest.open.dice]
    if waiting:
        if not contest.open.dice and draw(_QUARTERS) == 0:
            return CreateAdvantage(
                by=pick(draw, names),
                aspect=pick(draw, [*(a.name for a in contest.aspects), "Dust"]),
                on=pick_or_none(draw, names),
                result=draw(_ADVANTAGE_TOTALS),
                opposition=draw(_ADVANTAGE_TOTALS),
            )
        return RollDice(who=pick(draw, waiting), faces=draw(fate_faces))
    roll = draw(_PERCENT)
    if roll < 1:
        return DeclareAttack(by=pick(draw, names))
    if roll < 25 and contest.aspects:
        by = contest.participants[pick(draw, range(len(contest.participants)))]
        aspect = contest.aspects[pick(draw, range(len(contest.aspects)))]
        usable = aspect.free_invokes > 0 and aspect.holder in (None, by.side)
        reroll = draw(_QUARTERS) == 0
        return InvokeAspect(
            by=by.name,
            aspect=aspect.name,
            free=usable,
            effect="reroll" if reroll else "+2",
            faces=draw(fate_faces) if reroll else None,
        )
    return ResolveExchange(twist=draw(_TWIST_OR_NONE))


_EIGHTHS = st.integers(0, 7)
_QUARTERS = st.integers(0, 3)
_PERCENT = st.integers(0, 99)
_ADVANTAGE_TOTALS = st.integers(-2, 8)
_TWIST_OR_NONE = st.none() | st.just("Mud")


def _any_but_an_attack(contest: FateContest) -> st.SearchStrategy[Command]:
    """``fate_commands(contest)`` without attacks (the filter kept: an attack drawn is
    drawn again, as before)."""
    return fate_commands(contest).filter(lambda c: not isinstance(c, DeclareAttack))


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
# Weights by repetition. Whole exchanges (valid by construction) lead, so contests get
# played and finished; undos and redos come often enough to interleave with them; the
# rest (roster changes, a second contest, rule commands legal or not) keeps runs varied.
CAMPAIGN_ACTION_KINDS = (
    *("exchange",) * 6,
    *("undo",) * 3,
    *("redo",) * 2,
    *("add", "rename", "start", "play", "play", "stray"),
)


_RATINGS = st.dictionaries(st.sampled_from(("Athletics", "Fight", "Lore")), st.integers(-1, 40))
_SHEETS = st.one_of(
    st.builds(
        FateCharacter,
        aspects=st.lists(st.sampled_from(("Sworn", "Quick", "Tired")), max_size=2).map(tuple),
        fate_points=st.integers(0, 3),
    ),
    st.builds(HeroQuestCharacter, hero_points=st.integers(0, 3), vitality=st.integers(0, 2)),
)


@st.composite
def characters(draw: st.DrawFn) -> Character:
    """A roster character, named from a small pool so additions and renames collide."""
    return Character(
        name=draw(st.sampled_from(ROSTER_NAMES)),
        kind=draw(st.sampled_from(("pc", "npc"))),
        ratings=draw(_RATINGS),
        sheet=draw(_SHEETS),
    )


_A_CHARACTER = characters()


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


_STARTING_CONTESTS: dict[str, st.SearchStrategy[Contest]] = {
    "fate": fate_contests(),
    "heroquest": hq_contests(),
    "forge": forge_contests(),
}


def starting_contests(system: str) -> st.SearchStrategy[Contest]:
    return _STARTING_CONTESTS[system]


# The strategies drawn from in the loops below, built once (issue 25): built at each draw,
# each was looked up in Hypothesis' cache of strategies and checked again, every time.
_HQ_KINDS = st.sampled_from(("roll", "roll", "modifier", "hero", "stretch", "leave", "end"))
_HQ_MODIFIERS = st.integers(-6, 6)
_HERO_POINTS = st.integers(0, 2)
_FORGE_KINDS = st.sampled_from(("stage", "roll", "roll", "modifier", "reaction", "end"))
_FORGE_MODIFIERS = st.integers(-20, 20)
_REACTIONS = st.sampled_from(("dodge", "absorb"))
_ONE_IN_SIX = st.integers(0, 5)
_TITLES = st.sampled_from(("Race", "Duel"))
_ONE_TO_THREE = st.integers(1, 3)
_CAMPAIGN_KINDS = st.sampled_from(CAMPAIGN_ACTION_KINDS)


@st.composite
def hq_commands(draw: st.DrawFn, contest: HQContest) -> Command:
    """A party action in a two-participant HeroQuest contest, legal or not."""
    return hq_command(draw, contest)


def hq_command(draw: st.DrawFn, contest: HQContest) -> Command:
    """``hq_commands``' draw, called directly where it is drawn in a loop."""
    who = pick(draw, [p.name for p in contest.participants])
    kind = draw(_HQ_KINDS)
    if kind == "roll":
        return RollDice(who=who, faces=(draw(d20s),))
    if kind == "modifier":
        return SetModifier(who=who, value=draw(_HQ_MODIFIERS))
    if kind == "hero":
        return SpendHeroPoints(who=who, count=draw(_HERO_POINTS))
    if kind == "stretch":
        return Stretch(who=who)
    if kind == "leave":
        return Leave(who=who)
    return ResolveExchange()


@st.composite
def forge_commands(draw: st.DrawFn, contest: ForgeContest) -> Command:
    """A stage action in a two-participant FORGE contest, legal or not."""
    return forge_command(draw, contest)


_FORGE_ENDS = st.sampled_from((ResolveExchange(), EndContest()))


def forge_command(draw: st.DrawFn, contest: ForgeContest) -> Command:
    """``forge_commands``' draw, called directly where it is drawn in a loop."""
    names = [p.name for p in contest.participants]
    kind = draw(_FORGE_KINDS)
    if kind == "stage":
        return SetStage(actor=pick_or_none(draw, names), reactor=pick_or_none(draw, names))
    if kind == "roll":
        return RollDice(who=pick(draw, names), faces=(draw(d100),))
    if kind == "modifier":
        return SetModifier(who=pick(draw, names), value=draw(_FORGE_MODIFIERS))
    if kind == "reaction":
        return ChooseReaction(reaction=draw(_REACTIONS))
    return draw(_FORGE_ENDS)


_MUD_OR_NONE = st.none() | st.just("Mud")


def whole_exchange(draw: st.DrawFn, contest: Contest) -> tuple[Command, ...]:
    """The rolls an exchange still needs, then its resolution: a Play that succeeds while
    the contest runs, so contests get played to their end. A FORGE contest, which only
    the GM ends, is sometimes ended instead."""
    if isinstance(contest, FateContest):
        rolls: list[Command] = [
            RollDice(who=side, faces=draw(fate_faces))
            for side in contest.rolling_sides
            if side not in contest.open.dice
        ]
        return (*rolls, ResolveExchange(twist=draw(_MUD_OR_NONE)))
    if isinstance(contest, HQContest):
        return (
            *(
                RollDice(who=p.name, faces=(draw(d20s),))
                for p in contest.participants
                if p.name not in contest.open.rolls
            ),
            ResolveExchange(),
        )
    assert isinstance(contest, ForgeContest)
    if contest.n and draw(_ONE_IN_SIX) == 0:
        return (EndContest(),)
    first = contest.participants[0].name
    unset = contest.last_reactor is None and contest.actor is None and not contest.rolls
    stage: tuple[Command, ...] = (SetStage(actor=first),) if unset else ()
    return (
        *stage,
        *(
            RollDice(who=p.name, faces=(draw(d100),))
            for p in contest.participants
            if p.name not in contest.rolls
        ),
        ResolveExchange(),
    )


@st.composite
def conflict_commands(draw: st.DrawFn, contest: FateConflict) -> Command:
    """An action in a Fate conflict, legal or not: an attack by anyone on anyone (with
    any dice, skills, bonus), absorbing the hit one of the ways the rules list or any
    way, taken out, a concession, full defense, another action, a turn order, the end."""
    names = [p.name for p in contest.participants]
    who = draw(st.sampled_from(names))
    kinds = ("attack", "attack", "absorb", "absorb", "out", "concede", "defend", "turn")
    kind = draw(st.sampled_from((*kinds, "order", "end")))
    if kind == "attack":
        return Attack(
            by=who,
            target=draw(st.sampled_from(names)),
            skill=draw(st.sampled_from(("Fight", "Shoot", "Lore"))),
            faces=draw(fate_faces),
            defense=draw(st.sampled_from(("Athletics", "Fight"))),
            defense_faces=draw(fate_faces),
            track=draw(st.sampled_from(("physical", "mental", "Corruption"))),
            bonus=draw(st.integers(-2, 4)),
            take_boost=draw(st.booleans()),
        )
    if kind == "absorb":
        hit = contest.hit
        if hit is not None and draw(st.booleans()):
            ways = absorptions(contest.conflict.combatant(hit.target), hit.track, hit.shifts)
            if ways:
                way = draw(st.sampled_from(ways))
                names_given = tuple(f"Scar {i}" for i in range(len(way.slots)))
                return Absorb(who=hit.target, absorption=way, names=names_given)
        return Absorb(
            who=who,
            absorption=Absorption(
                track=draw(st.sampled_from(("physical", "mental"))),
                boxes=tuple(draw(st.lists(st.integers(0, 4), max_size=2))),
                slots=tuple(draw(st.lists(st.integers(0, 4), max_size=2))),
            ),
            names=tuple(draw(st.lists(st.sampled_from(("Cut", "", "Bruise")), max_size=2))),
        )
    if kind == "out":
        return TakeOut(who=who)
    if kind == "concede":
        return Concede(who=who)
    if kind == "defend":
        return FullDefense(who=who)
    if kind == "turn":
        return TakeTurn(who=who, what="an advantage")
    if kind == "order":
        return SetTurnOrder(order=tuple(draw(st.permutations(names))))
    return EndConflict()


def rule_commands(contest: Contest) -> st.SearchStrategy[Command]:
    if isinstance(contest, FateConflict):
        return conflict_commands(contest)
    if isinstance(contest, FateContest):
        return fate_commands(contest)
    if isinstance(contest, HQContest):
        return hq_commands(contest)
    assert isinstance(contest, ForgeContest)
    return forge_commands(contest)


def rule_command(draw: st.DrawFn, contest: Contest) -> Command:
    """``rule_commands``' draw, called directly where it is drawn in a loop."""
    if isinstance(contest, FateContest):
        return fate_command(draw, contest)
    if isinstance(contest, HQContest):
        return hq_command(draw, contest)
    assert isinstance(contest, ForgeContest)
    return forge_command(draw, contest)


_STRAY = st.sampled_from(
    (Undo(), Redo(), UpdateCharacter(name="Nobody", character=Character(name="X")))
)
_USES = st.sampled_from(({}, {"Cynere": "Athletics"}))


@st.composite
def campaign_commands(draw: st.DrawFn, campaign: Campaign) -> Command:
    """The GM's next action: roster changes, contests started and played, undo, redo."""
    return campaign_command(draw, campaign)


def campaign_command(draw: st.DrawFn, campaign: Campaign) -> Command:
    """``campaign_commands``' draw, called directly where it is drawn in a loop."""
    kind = draw(_CAMPAIGN_KINDS)
    # Undo, redo and renames are drawn where they apply, so most actions are accepted;
    # "stray" keeps a few that are refused (nothing to undo, an unknown name).
    if kind == "stray":
        return draw(_STRAY)
    if kind == "undo" and campaign.done:
        return Undo()
    if kind == "redo" and campaign.undone:
        return Redo()
    if kind == "rename" and campaign.roster:
        old = pick(draw, campaign.roster)
        return UpdateCharacter(name=old, character=draw(_A_CHARACTER))
    if kind in ("add", "rename"):
        return AddCharacter(character=draw(_A_CHARACTER))
    running = sorted(cid for cid, r in campaign.contests.items() if not r.state.finished)
    if kind == "start" or not campaign.contests or (kind == "exchange" and not running):
        return StartContest(
            title=draw(_TITLES),
            contest=draw(starting_contests(campaign.system)),
            uses=draw(_USES),
        )
    if kind == "exchange":
        contest_id = pick(draw, running)
        state = campaign.contests[contest_id].state
        return Play(contest_id=contest_id, commands=whole_exchange(draw, state))
    contest_id = pick(draw, sorted(campaign.contests))
    state = campaign.contests[contest_id].state
    return Play(
        contest_id=contest_id,
        commands=tuple(rule_command(draw, state) for _ in range(draw(_ONE_TO_THREE))),
    )


@dataclass
class CampaignRun:
    """A campaign after a random run, and the log entries that made it (in order)."""

    campaign: Campaign
    entries: list[Entry]

    @property
    def resolved(self) -> bool:
        """An exchange was resolved at some point (it may have been undone since)."""
        return any(
            isinstance(e, Played) and isinstance(e.event, ExchangeEvent)
            for entry in self.entries
            if isinstance(entry, ActionRecorded)
            for e in entry.events
        )

    @property
    def undid(self) -> bool:
        return any(isinstance(entry, ActionUndone) for entry in self.entries)

    @property
    def finished(self) -> bool:
        """A contest in force reached its end."""
        return any(r.state.finished for r in self.campaign.contests.values())

    def report(self) -> None:
        """Tell Hypothesis' statistics what the run did (``--hypothesis-show-statistics``)."""
        event(f"run resolved an exchange: {_yes(self.resolved)}")
        event(f"run undid an action: {_yes(self.undid)}")
        event(f"run finished a contest: {_yes(self.finished)}")


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


@st.composite
def campaign_runs(draw: st.DrawFn, system: str, max_actions: int = 25) -> CampaignRun:
    """A campaign played by a GM: its first action starts a contest, then four to
    ``max_actions`` more, mostly whole exchanges, with undos and redos between. The
    entries the campaign refused are skipped (a refused action leaves it as it was).

    Most runs resolve an exchange, undo something and (Fate, HeroQuest) finish a contest:
    ``CampaignRun.report`` counts them in the statistics."""
    campaign = Campaign(name="Random run", system=system)
    start = StartContest(title="Race", contest=draw(starting_contests(system)))
    entries: list[Entry] = [campaign.act(start)]
    for _ in range(draw(st.integers(min(4, max_actions), max_actions))):
        command = campaign_command(draw, campaign)
        try:
            entry = campaign.decide(command)
        except RuleError:
            continue
        campaign.apply(entry)
        entries.append(entry)
    return CampaignRun(campaign, entries)


# -- what a GM types into the dashboard's forms, good and bad ---------------------------
#
# Each is a pair (text, parses): ``parses`` is False for text no field of its kind can
# take (the form must then stay open), True for text that reads (the rules may still
# refuse what it says).


def typed(good: st.SearchStrategy[str], bad: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Mostly good text, sometimes bad, each with whether it parses."""
    return st.one_of(
        good.map(lambda t: (t, True)), good.map(lambda t: (t, True)), bad.map(lambda t: (t, False))
    )


whole_numbers_typed = typed(
    st.integers(-3, 9).map(str) | st.sampled_from(("+2", " 3 ", "-1")),
    st.sampled_from(("x", "2.5", "3d", "--1", "two")),
)
fate_dice_typed = typed(
    st.sampled_from(("+0-0", "++++", "----", "0000", "-+0+", "")),  # blank: Tussle rolls
    st.sampled_from(("+0-", "+0-0+", "abcd", "12")),
)
hq_ratings_typed = typed(
    st.sampled_from(("17", "4M", "10M2", "1")), st.sampled_from(("M", "4X", "x"))
)
d20s_typed = typed(
    d20s.map(str) | st.just(""),  # blank: Tussle rolls
    st.sampled_from(("x", "1.5", "d20")),
)
aspect_names_typed = typed(
    st.sampled_from(("Slippery", "On Fire", "Muddy Ground", "Zird's Back")),
    st.nothing(),
)
twist_names = st.sampled_from(("", "Collapsing Bridge", "Rain"))  # blank: the default name
