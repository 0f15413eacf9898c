"""HeroQuest contests: HQ2 with the "Children of the Grave" house rules.

The rules are in ``shared/spec/rules.md`` part 2; the option names in ``scenario.md``.
The pure scoring functions at the top (``parse_rating``, ``format_rating``, ``classify``,
``simple_contest``, ``augment_bonus``, ``group_level``) are the ones ``decide`` uses and
the ones the keypad preview and the odds call: one source of truth for the rules.

Ratings are kept as *linear* values (``4M`` = 24, ``10M2`` = 50): every modifier adds to
the linear value and the result is normalised again, so bonuses make masteries and
penalties take them away (rules §2.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Literal

import msgspec
from msgspec.structs import replace

from core.campaign_log import Character, Sheet
from core.dice import DiceKind, check_faces
from core.errors import NoPoints, OutOfTurn, RuleError, UnknownName
from core.limits import Count, Int
from core.model import (
    Command,
    Contest,
    ContestEnded,
    DiceRolled,
    Event,
    ExchangeEvent,
    ModifierSet,
    Participant,
    ResolveExchange,
    RollDice,
    Saved,
    SetModifier,
)
from core.redact import HIDDEN, NO_SECRETS, Part, Secrets, render_all, secret
from core.rules.base import JSON, RuleSystem, own, require_open, unknown_command
from core.systems.heroquest.automatic import AutomaticResult, AutomaticRuled, RuleAutomatic
from core.systems.heroquest.presets import HQ_PRESETS

CODEC_TAG = "heroquest"  # the saved tags ("heroquest.ExchangeResolved"), as before the package


class HeroQuestCharacter(Sheet):
    """What HeroQuest keeps on a roster character (its ``Character.sheet``): hero points,
    vitality, states of adversity related to every ability (``adversity``) or to the
    ability they came from (``adversity_of``: rules §2.6, they apply to that ability and to
    those the GM marks ``related``, both ways), and lingering benefits by ability."""

    LABELS: ClassVar[Mapping[str, str]] = {
        "hero_points": "hero points",
        "adversity_of": "adversity",
        "benefits": "lingering benefits",
        "related": "related abilities",
    }
    hero_points: Count = 0
    vitality: Int = 0
    adversity: tuple[str, ...] = ()
    benefits: Mapping[str, Int] = msgspec.field(default_factory=dict)
    adversity_of: Mapping[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    related: Mapping[str, tuple[str, ...]] = msgspec.field(default_factory=dict)


def hq_sheet(character: Character) -> HeroQuestCharacter:
    """``character``'s HeroQuest sheet (a fresh one where it has none yet)."""
    sheet = character.sheet
    return sheet if isinstance(sheet, HeroQuestCharacter) else HeroQuestCharacter()


def with_hq(character: Character, **changes: Any) -> dict[str, Any]:
    """The change to ``character`` that sets ``changes`` on its HeroQuest sheet (for
    ``replace`` and the write-back)."""
    return {"sheet": replace(hq_sheet(character), **changes)}


TieBreak = Literal["low", "high"]
Winner = Literal["a", "b"]

MASTERY = 20  # one mastery is worth 20 on the linear scale
STRETCH_PENALTY = 6
EXTRA_OPPONENT_PENALTY = 3  # per pair after the first, for a group contest's "a"
EXTENDED_GOAL = 5  # resolution points that end an extended contest
DEFAULT_AUGMENT_BASE = 14

# Result levels of one roll (rules §2.3 step 3), as ints so bumps are additions.
FUMBLE, FAILURE, SUCCESS, CRITICAL = 0, 1, 2, 3
LEVELS = ("fumble", "failure", "success", "critical")

# Victory levels (rules §2.3 step 7); TIE is no victory at all.
TIE, MARGINAL, MINOR, MAJOR, COMPLETE = 0, 1, 2, 3, 4
VICTORIES = ("tie", "marginal", "minor", "major", "complete")
RESOLUTION_POINTS = (0, 1, 2, 3, 5)  # §2.7's table
CONSEQUENCES = ("", "hurt", "impaired", "injured", "dying")  # §2.6, the loser's state
BENEFITS = (0, 0, 3, 6, 9)  # §2.6, the winner's lingering benefit
AUGMENT_BONUSES = (0, 3, 6, 9, MASTERY)  # §2.5, by the augmenter's victory level
AUGMENT_COMPLETE_DEFEAT = -3


# -- ratings ------------------------------------------------------------------------------

_RATING = re.compile(r"(?P<base>[1-9][0-9]?)(?:(?P<mark>[MW])(?P<count>[1-9][0-9]*)?)?")


class BadRating(RuleError):
    """A rating written in a way HeroQuest does not write ratings."""

    title = "Bad rating"


def parse_rating(text: str) -> int:
    """A written rating as its linear value: ``"17"`` -> 17, ``"4M"`` -> 24, ``"10W2"`` -> 50.

    A base 1-20, then optionally ``M`` (or ``W``) and a mastery count of 2 or more.
    """
    match = _RATING.fullmatch(text)
    base = int(match["base"]) if match else 0
    count = match["count"] if match else None
    if match is None or base > MASTERY or (count is not None and int(count) < 2):
        raise BadRating(
            f'"{text}" is not a rating: write 1 to 20, then optionally M and a mastery '
            'count of 2 or more ("17", "4M", "10M2")'
        )
    masteries = 0 if match["mark"] is None else int(count) if count else 1
    return base + MASTERY * masteries


def normalise(value: int) -> tuple[int, int]:
    """``(base, masteries)`` of a linear value of 1 or more: 53 -> (13, 2), 40 -> (20, 1)."""
    masteries = (value - 1) // MASTERY
    return value - MASTERY * masteries, masteries


def format_rating(value: int) -> str:
    """A linear value as people write it: 24 -> "4M", 41 -> "1M2", 17 -> "17", -2 -> "-2"."""
    if value <= MASTERY:
        return str(value)
    base, masteries = normalise(value)
    return f"{base}M" if masteries == 1 else f"{base}M{masteries}"


# -- one simple contest -------------------------------------------------------------------


def classify(roll: int, base: int) -> int:
    """The level of a d20 ``roll`` against a mastery-stripped ``base`` (rules §2.3 step 3).

    1 is a critical even when the base is 1; 20 a fumble even when the base is 20.
    """
    if roll == 1:
        return CRITICAL
    if roll == 20:
        return FUMBLE
    return SUCCESS if roll <= base else FAILURE


def bump(own: int, other: int, bumps: int) -> tuple[int, int]:
    """Mastery bumps (rules §2.3 step 4): each raises ``own`` one level; once it is
    critical, each remaining bump lowers ``other`` one level, never below fumble."""
    raised = min(CRITICAL, own + bumps)
    left = bumps - (raised - own)
    return raised, max(FUMBLE, other - left)


class NoHeroPoints(NoPoints):
    """Hero points spent that the participant does not have."""

    title = "No hero points"


class Party(Saved):
    """One party of a simple contest, as the scoring sees it.

    ``target`` is the linear target value after every modifier (augments, stretch and
    extra-opponent penalties included); ``roll`` may be None only when ``target`` <= 0.
    """

    target: Int
    roll: Int | None = None
    hero_points: Count = 0
    stretched: bool = False
    bumps_down: Int = 0  # an injured party's automatic bumps down (rules §2.6)


class Outcome(Saved):
    """A simple contest's result: both levels after all bumps, the winner and how much."""

    levels: tuple[Int, Int]
    winner: Winner | None
    victory: Int  # TIE .. COMPLETE

    @property
    def resolution_points(self) -> int:
        return RESOLUTION_POINTS[self.victory]


def _unopposed_level(party: Party) -> int:
    """The displayed level of a party whose opponent's target is 0 or less: its roll,
    its own masteries (against none), an injury's bumps down, then its hero points (the
    bump order of A-H2, as in a contest between two rolls)."""
    if party.roll is None:
        raise ValueError(f"a party with target {party.target} needs a roll")
    base, masteries = normalise(party.target)
    level = min(CRITICAL, classify(party.roll, base) + masteries)
    return min(CRITICAL, max(FUMBLE, level - party.bumps_down) + party.hero_points)


def simple_contest(a: Party, b: Party, tie_break: TieBreak = "low") -> Outcome:
    """Score one simple contest (rules §2.3) from both parties' final targets and rolls.

    A target of 0 or less loses with a complete defeat without rolling (its level shows
    as fumble); the other party's roll then only gives its displayed level. Both at 0 or
    less tie. Otherwise masteries cancel, the rest bump, hero points bump the spender, the
    levels compare, and equal levels go to the low roll (``tie_break="high"``: the high
    one) as a marginal victory. A stretched party's own victory is at most minor.
    """
    winner: Winner | None
    if a.target <= 0 and b.target <= 0:
        return Outcome(levels=(FUMBLE, FUMBLE), winner=None, victory=TIE)
    if a.target <= 0:
        levels, winner, victory = (FUMBLE, _unopposed_level(b)), "b", COMPLETE
    elif b.target <= 0:
        levels, winner, victory = (_unopposed_level(a), FUMBLE), "a", COMPLETE
    else:
        if a.roll is None or b.roll is None:
            raise ValueError("both parties need a roll")
        base_a, mastery_a = normalise(a.target)
        base_b, mastery_b = normalise(b.target)
        level_a, level_b = classify(a.roll, base_a), classify(b.roll, base_b)
        if mastery_a > mastery_b:
            level_a, level_b = bump(level_a, level_b, mastery_a - mastery_b)
        elif mastery_b > mastery_a:
            level_b, level_a = bump(level_b, level_a, mastery_b - mastery_a)
        # Bump order (A-H2): masteries, then adversity, then hero points.
        level_a = min(CRITICAL, max(FUMBLE, level_a - a.bumps_down) + a.hero_points)
        level_b = min(CRITICAL, max(FUMBLE, level_b - b.bumps_down) + b.hero_points)
        levels = (level_a, level_b)
        difference = level_a - level_b
        if difference:
            winner = "a" if difference > 0 else "b"
            victory = abs(difference) + 1  # one level better: minor, two major, ...
        elif level_a == FUMBLE or a.roll == b.roll:
            winner, victory = None, TIE
        else:
            a_lower = a.roll < b.roll
            winner = "a" if a_lower == (tie_break == "low") else "b"
            victory = MARGINAL
    if (winner == "a" and a.stretched) or (winner == "b" and b.stretched):
        victory = min(victory, MINOR)
    return Outcome(levels=levels, winner=winner, victory=victory)


def augment_bonus(
    rating: int,
    roll: int | None,
    resistance_roll: int | None,
    augment_base: int = DEFAULT_AUGMENT_BASE,
    tie_break: TieBreak = "low",
) -> int:
    """The bonus an augment gives (rules §2.5): ``rating`` (linear, no vitality) rolls
    ``roll`` against ``augment_base`` rolling ``resistance_roll``. Complete victory +20,
    major +9, minor +6, marginal +3; a tie or a defeat 0, a complete defeat -3."""
    out = simple_contest(
        Party(target=rating, roll=roll), Party(target=augment_base, roll=resistance_roll), tie_break
    )
    if out.winner == "a":
        return AUGMENT_BONUSES[out.victory]
    if out.winner == "b" and out.victory == COMPLETE:
        return AUGMENT_COMPLETE_DEFEAT
    return 0


def lodged_points(
    victory: int,
    *,
    winner_gambled: bool = False,
    loser_gambled: bool = False,
    winner_defensive: bool = False,
    loser_defensive: bool = False,
) -> int:
    """The resolution points an extended contest's exchange lodges (rules §2.8.4-5, as
    scenario.md settles them): the table's points for ``victory``, +1 if the winner made
    a risky gambit, +2 if the loser did, +2 in all (not 3) if both did; -2 if the winner
    responded defensively, -1 if the loser did; never below 0. A tie lodges nothing."""
    if victory == TIE:
        return 0
    points = RESOLUTION_POINTS[victory]
    if winner_gambled and loser_gambled:
        points += 2
    else:
        points += (1 if winner_gambled else 0) + (2 if loser_gambled else 0)
    points -= (2 if winner_defensive else 0) + (1 if loser_defensive else 0)
    return max(0, points)


def boost_cost(members: int, double: bool = False) -> int:
    """A group boost's price in hero points (rules §2.7.4): 1 for a side of 1-3, 2 for
    4-6, 3 for 7-9 and so on (one per started three), twice that for a double boost."""
    return -(-members // 3) * (2 if double else 1)


def boosted(victory: int, steps: int) -> int:
    """A group result raised ``steps`` levels for the boosting side (rules §2.7.4): a tie
    becomes its marginal victory, and so on, never past complete."""
    return min(COMPLETE, victory + steps)


RISING_ACTION_STATES = ("hurt", "hurt", "impaired", "impaired", "injured", "injured", "dying")
RISING_ACTION_LEVELS = (MARGINAL, MARGINAL, MINOR, MINOR, MAJOR, MAJOR, COMPLETE)


def rising_action(difference: int) -> tuple[int, str]:
    """An extended contest's consequences by the rising-action method (rules §2.8.6):
    the victory level and the losers' state for a final difference of resolution points
    (below 1 counts as 1): 1-2 marginal, hurt; 3-4 minor, impaired; 5-6 major, injured;
    7 complete, dying; 8 or more complete, dead. At 1 the winners are hurt too."""
    d = max(difference, 1)
    if d >= 8:
        return COMPLETE, "dead"
    return RISING_ACTION_LEVELS[d - 1], RISING_ACTION_STATES[d - 1]


# The climactic method's states by points scored against a character: 0..8; 9+ is dead.
CLIMACTIC_STATES: tuple[str, ...] = ("unharmed", "dazed", *("hurt",) * 2, *("impaired",) * 2)
CLIMACTIC_STATES += ("injured", "injured", "dying")
CLIMACTIC_LEVELS = {"hurt": MARGINAL, "impaired": MINOR, "injured": MAJOR}


def climactic(against: Mapping[str, int], losers: Sequence[str]) -> tuple[int, dict[str, str]]:
    """An extended contest's consequences by the climactic method (rules §2.8.7): each
    character's state by the resolution points scored against them, 1 more for a loser
    (0 unharmed, 1 dazed, 2-3 hurt, 4-5 impaired, 6-7 injured, 8 dying, 9+ dead); the
    victory level from the second-worst state among the losers (the only one's when one
    lost): hurt marginal, impaired minor, injured major, dying or dead complete (dazed,
    which the table leaves out, marginal). Unharmed characters are left out."""
    totals = {name: points + (1 if name in losers else 0) for name, points in against.items()}
    states = {name: _climactic_state(t) for name, t in totals.items() if t > 0}
    worst_first = sorted((totals[name] for name in losers if name in totals), reverse=True)
    second = worst_first[min(1, len(worst_first) - 1)] if worst_first else 1
    state = _climactic_state(second)
    level = COMPLETE if state in ("dying", "dead") else CLIMACTIC_LEVELS.get(state, MARGINAL)
    return level, states


def _climactic_state(points: int) -> str:
    return "dead" if points >= len(CLIMACTIC_STATES) else CLIMACTIC_STATES[points]


ADVERSITY_PENALTIES = {"hurt": 3, "impaired": 6}  # §2.6, on the target; "injured" bumps


def adversity_effects(states: Sequence[str]) -> tuple[int, int]:
    """What states of adversity carried into a contest do to the rating they relate to
    (rules §2.6): ``(condition, bumps_down)``, -3 per hurt and -6 per impairment on the
    target, one bump down per injury. A dying character cannot take part (RuleError)."""
    condition = bumps = 0
    for state in states:
        if state == "dying":
            raise RuleError("a dying character cannot take part in a contest")
        if state == "injured":
            bumps += 1
        elif state in ADVERSITY_PENALTIES:
            condition -= ADVERSITY_PENALTIES[state]
        else:
            raise RuleError(f'"{state}" is not a state of adversity (hurt, impaired, injured)')
    return condition, bumps


def group_level(difference: int) -> int:
    """The group victory level for a difference of side points (rules §2.7): 0 tie,
    1 marginal, 2 minor, 3-4 major, 5 or more complete."""
    d = abs(difference)
    if d >= 5:
        return COMPLETE
    return (TIE, MARGINAL, MINOR, MAJOR, MAJOR)[d]


# -- state --------------------------------------------------------------------------------


class HQParticipant(Participant):
    """``rating`` is the linear value of the ability used (``4M`` = 24). ``condition`` is
    what earlier contests left on it (rules §2.6): lingering benefits minus the penalties
    of hurts and impairments; ``bumps_down`` one per injury."""

    rating: Int
    vitality: Int = 0
    hero_points: Count = 0
    condition: Int = 0
    bumps_down: Int = 0


class HQOptions(Saved):
    """The table's rule options (scenario.md spells them; rules.md §4 gives defaults)."""

    tie_break: TieBreak = "low"
    chained: bool = False
    extended: bool = False
    augment_base: Int = DEFAULT_AUGMENT_BASE
    # An extended contest's consequences (rules §2.8.6-7): "rising" action by the final
    # difference, or "climactic" by the points each character had scored against them.
    consequences: Literal["rising", "climactic"] = "rising"
    # HQ2's optional rule: a major or complete victory in the contest of wherewithal
    # (rules §2.6) waives the injury's automatic bump down for the contest it let the
    # character into. ``waived`` names those who won it so (the setup records them).
    wherewithal_waiver: bool = False
    waived: tuple[str, ...] = ()
    # A group extended contest (HQ2; ``group_play``): pairings engaged round by round.
    group_extended: bool = False

    @property
    def chain(self) -> bool:
        """A chain of exchanges (chained or extended) rather than one simple contest."""
        return self.chained or self.extended or self.group_extended


class Pair(Saved):
    """One pairing of a group simple contest: ``a`` against ``b``, with their rolls."""

    a: str
    b: str
    roll_a: Int | None = None
    roll_b: Int | None = None


class AugmentResult(Saved):
    """An augment, decided: its roll against the augment base and the bonus it gives."""

    recipient: str
    rating: Int
    roll: Int | None
    base: Int
    resistance_roll: Int | None
    bonus: Int


class BoostResult(Saved):
    """A group boost bought for ``side`` (rules §2.7.4): ``paid`` by its members, in
    hero points, ``cost`` in all; ``double`` raises the result two levels, else one."""

    side: str
    double: bool
    paid: tuple[tuple[str, Int], ...]
    cost: Int

    @property
    def steps(self) -> int:
        return 2 if self.double else 1


class OpenExchange(Saved):
    """What has been entered for the exchange being played, before it is resolved.

    ``kind`` is "" until something fixes it: "simple" (two parties) or "group" (pairs).
    """

    kind: Literal["", "simple", "group"] = ""
    parties: tuple[str, ...] = ()
    rolls: Mapping[str, Int] = msgspec.field(default_factory=dict)
    modifiers: Mapping[str, Int] = msgspec.field(default_factory=dict)
    augments: tuple[AugmentResult, ...] = ()
    hero_points: Mapping[str, Int] = msgspec.field(default_factory=dict)  # spent this exchange
    stretched: tuple[str, ...] = ()
    pairs: tuple[Pair, ...] = ()
    leave: str | None = None
    gambits: tuple[str, ...] = ()  # parties making a risky gambit (extended, §2.8.4)
    defensive: tuple[str, ...] = ()  # parties responding defensively (extended, §2.8.5)
    boost: BoostResult | None = None  # a group exchange's boost (§2.7.4)
    automatic: AutomaticResult | None = None  # ruled without dice (``automatic``)
    modifier_labels: Mapping[str, str] = msgspec.field(default_factory=dict)  # presets named


class HQContest(Contest):
    """A HeroQuest contest. The exchanges played are in the log, not here."""

    system: ClassVar[str] = "heroquest"
    participants: tuple[HQParticipant, ...]
    options: HQOptions = HQOptions()
    open: OpenExchange = OpenExchange()
    hero_points_left: Mapping[str, Int] = msgspec.field(default_factory=dict)
    resolution_points: Mapping[str, Int] = msgspec.field(default_factory=dict)  # lodged, by side
    last_parties: tuple[str, ...] = ()  # the previous exchange's, for a leave-only one
    ended_by: str | None = None
    against: Mapping[str, Int] = msgspec.field(default_factory=dict)  # RP scored against each one

    def decide_variant(self, rules: HeroQuestRules, command: Any) -> tuple[Event, ...] | None:
        """A variant of the contest deciding ``command`` its own way (a group extended
        contest: ``group_play.HQGroupContest``); None: as every HeroQuest contest."""
        return None

    def evolve_variant(self, rules: HeroQuestRules, event: Event) -> Contest | None:
        """A variant's own ``evolve`` of ``event``; None: as every HeroQuest contest."""
        return None

    def final_variant(self) -> JSON | None:
        """A variant's own final output (``tussle resolve``); None: the usual one."""
        return None

    def hq_participant(self, name: str) -> HQParticipant:
        for p in self.participants:
            if p.name == name:
                return p
        raise UnknownName(f'no participant "{name}"')

    def named(self, name: str) -> HQParticipant:
        """The participant a GM names: exactly, or else the only one whose name matches
        whatever the case ("ghoul king" for "Ghoul King"); ``UnknownName`` otherwise,
        naming those who take part."""
        typed = name.strip()
        for p in self.participants:
            if p.name == typed:
                return p
        found = [p for p in self.participants if p.name.casefold() == typed.casefold()]
        if len(found) == 1:
            return found[0]
        names = ", ".join(p.name for p in self.participants)
        raise UnknownName(f'no participant "{name}" (taking part: {names})')

    @property
    def parties(self) -> tuple[str, ...]:
        """The open exchange's parties: its two, its pairs' members, or (before anything
        fixes them) the two participants of a two-participant contest, and with more the
        previous exchange's two (remembered until the GM names others)."""
        o = self.open
        if o.kind == "simple":
            return o.parties
        if o.kind == "group":
            return tuple(dict.fromkeys(n for p in o.pairs for n in (p.a, p.b)))
        if len(self.participants) == 2:
            return tuple(p.name for p in self.participants)
        return self.last_parties if len(self.last_parties) == 2 else ()

    def pairs_as_a(self, name: str) -> int:
        return sum(1 for p in self.open.pairs if p.a == name)

    def target(self, name: str) -> int:
        """``name``'s linear target in the open exchange, after everything entered so far:
        rating + vitality + condition + modifier + augment, -6 stretched, -3 per extra pair
        as ``a``."""
        p = self.hq_participant(name)
        o = self.open
        value = p.rating + p.vitality + p.condition + o.modifiers.get(name, 0)
        value += sum(a.bonus for a in o.augments if a.recipient == name)
        if name in o.stretched:
            value -= STRETCH_PENALTY
        extra = self.pairs_as_a(name) - 1
        if extra > 0:
            value -= EXTRA_OPPONENT_PENALTY * extra
        return value

    def extended_result(self) -> tuple[int, dict[str, str]] | None:
        """An extended contest's final victory level and consequences (rules §2.8.6, the
        rising-action method, as scenario.md settles it), or None while it has no winner
        (or is not extended). Every side but the winner loses, each by its own difference:
        what the winning side lodged less what that side lodged, and its participants
        take that difference's state; the victory level follows the closest loser (the
        smallest difference), and at 1 the winners are hurt too."""
        if not self.options.extended or self.winner is None:
            return None
        if self.options.consequences == "climactic":
            losers = [p.name for p in self.participants if p.side != self.winner]
            return climactic(
                {p.name: self.against.get(p.name, 0) for p in self.participants}, losers
            )
        points = self.resolution_points
        won = points.get(self.winner, 0)
        differences = {
            side: max(won - points.get(side, 0), 1) for side in self.sides if side != self.winner
        }
        closest = min(differences.values(), default=1)
        victory, _ = rising_action(closest)
        consequences = {
            p.name: rising_action(differences[p.side])[1]
            for p in self.participants
            if p.side in differences
        }
        if closest == 1:
            consequences.update(
                {p.name: "hurt" for p in self.participants if p.side == self.winner}
            )
        return victory, {
            p.name: consequences[p.name] for p in self.participants if p.name in consequences
        }

    def lodged(self, winner: str, loser: str, victory: int) -> int:
        """The resolution points ``winner`` lodges against ``loser`` with ``victory`` in
        the open exchange, with the gambits and defensive responses declared."""
        o = self.open
        return lodged_points(
            victory,
            winner_gambled=winner in o.gambits,
            loser_gambled=loser in o.gambits,
            winner_defensive=winner in o.defensive,
            loser_defensive=loser in o.defensive,
        )

    def party(self, name: str, roll: int | None) -> Party:
        """``name`` as the scoring sees it, with ``roll``."""
        return Party(
            target=self.target(name),
            roll=roll,
            hero_points=self.open.hero_points.get(name, 0),
            stretched=name in self.open.stretched,
            bumps_down=self.hq_participant(name).bumps_down,
        )


def new_contest(
    participants: Sequence[HQParticipant], options: HQOptions | None = None
) -> HQContest:
    """A contest before its first exchange."""
    contest = HQContest(participants=tuple(participants), options=options or HQOptions())
    return replace(
        contest,
        hero_points_left={p.name: p.hero_points for p in contest.participants},
        resolution_points={side: 0 for side in contest.sides},
    )


def _scored_against(against: Mapping[str, int], e: ExchangeResolved) -> dict[str, int]:
    """The points scored against each character after exchange ``e``: a simple
    exchange's points against its loser, a group exchange's against each pair's loser
    (rules §2.8.7 counts them per character)."""
    out = dict(against)
    if e.kind == "simple" and e.winner is not None:
        for loser in (p for p in e.parties if p != e.winner):
            out[loser] = out.get(loser, 0) + e.resolution_points
    for pair in e.pairs:
        if pair.winner is not None:
            loser = pair.b if pair.winner == pair.a else pair.a
            out[loser] = out.get(loser, 0) + pair.resolution_points
    return out


# -- commands and events --------------------------------------------------------------------


class SetParties(Command):
    """Name the exchange's two parties (needed with more than two participants)."""

    before_rolls: ClassVar[bool] = True

    a: str
    b: str


class Augment(Command):
    """``recipient``'s augment this exchange: ``rating`` (linear, no vitality) rolls
    ``roll`` against the augment base, which rolls ``resistance_roll``."""

    before_rolls: ClassVar[bool] = True

    recipient: str
    rating: Int
    roll: Int | None
    resistance_roll: Int | None


class SpendHeroPoints(Command):
    who: str
    count: Count = 1


class Stretch(Command):
    """``who`` uses a stretched ability: -6, and its own victory is at most minor."""

    before_rolls: ClassVar[bool] = True

    who: str


class Gamble(Command):
    """``who`` makes a risky gambit this exchange of an extended contest (rules §2.8.4):
    a win lodges 1 more resolution point, a defeat lets the opponent lodge 2 more (both
    gambling: the winner lodges 2 more)."""

    before_rolls: ClassVar[bool] = True

    who: str


class RespondDefensively(Command):
    """``who`` responds defensively this exchange of an extended contest (rules §2.8.5):
    a win lodges 2 fewer resolution points, a defeat lets the opponent lodge 1 fewer."""

    before_rolls: ClassVar[bool] = True

    who: str


class Boost(Command):
    """A group boost for ``side`` (rules §2.7.4), bought before the rolls with hero
    points ``paid`` by its members (name, count): one level up on a tie or the side's
    win, two when ``double`` (at twice the price). The points go whatever happens."""

    before_rolls: ClassVar[bool] = True

    side: str
    paid: tuple[tuple[str, Int], ...]
    double: bool = False


class SetPairs(Command):
    """Make the exchange a group simple contest of these pairs (rules §2.7)."""

    before_rolls: ClassVar[bool] = True

    pairs: tuple[Pair, ...]


class Leave(Command):
    """``who`` leaves the chain after this exchange; the other party's side wins it."""

    who: str


class PartiesSet(Event):
    a: str
    b: str


class Augmented(Event):
    augment: AugmentResult


class HeroPointsSpent(Event):
    who: str
    count: Count


class Stretched(Event):
    who: str


class GambitDeclared(Event):
    who: str


class DefensiveDeclared(Event):
    who: str


class Boosted(Event):
    boost: BoostResult


class PairsSet(Event):
    pairs: tuple[Pair, ...]


class LeaveDeclared(Event):
    who: str


class PairResult(Saved):
    """One pairing of a group exchange, scored."""

    a: str
    b: str
    targets: tuple[Int, Int]
    rolls: tuple[Int | None, Int | None]
    levels: tuple[Int, Int]
    winner: str | None
    victory: Int
    resolution_points: Int


class OwnExchange(ExchangeEvent):
    """An exchange of a variant of the contest (``group_play``) that says itself: its
    log lines and its output, where ``ExchangeResolved``'s are the rules' own."""

    def lines(self) -> list[list[str | Part]]:
        raise NotImplementedError

    def as_json(self) -> JSON:
        raise NotImplementedError


class ExchangeResolved(ExchangeEvent):
    """One exchange, scored: everything the log and ``tussle resolve`` print.

    ``kind`` is "simple", "group" or "leave" (a leave-only exchange). ``winner`` is a
    participant in a simple exchange and a side in a group one; ``victory`` is None only
    for a leave-only exchange. ``lodged_by`` is the side credited with the resolution
    points; ``totals`` the resolution points of every side after this exchange.
    """

    kind: Literal["simple", "group", "leave"]
    parties: tuple[str, ...]
    targets: Mapping[str, Int]
    rolls: Mapping[str, Int | None]
    levels: Mapping[str, Int]
    winner: str | None
    victory: Int | None
    resolution_points: Int
    lodged_by: str | None
    augments: tuple[AugmentResult, ...]
    hero_points: Mapping[str, Int]
    stretched: tuple[str, ...]
    consequence: Mapping[str, str]
    benefit: Mapping[str, Int]
    pairs: tuple[PairResult, ...] = ()
    side_points: Mapping[str, Int] = msgspec.field(default_factory=dict)
    leave: str | None = None
    totals: Mapping[str, Int] = msgspec.field(default_factory=dict)
    chain: bool = False
    gambits: tuple[str, ...] = ()
    defensive: tuple[str, ...] = ()
    boost: BoostResult | None = None
    # An extended contest's exchange: its ``consequence`` and ``benefit`` are a simple
    # contest's, which never apply here (rules §2.8: the final difference decides them).
    # False in an exchange saved before this was kept.
    extended: bool = False
    automatic: AutomaticResult | None = None  # ruled without dice: no rolls, no levels
    # The presets used (``presets.HQ_PRESETS``): party -> "situation: advantage +3".
    modifier_labels: Mapping[str, str] = msgspec.field(default_factory=dict)


# -- the rule system ------------------------------------------------------------------------


def _points(count: int) -> str:
    return f"{count} hero point{'s' if count != 1 else ''}"


HIDDEN_POINTS = f"{HIDDEN} hero points"  # a hidden count, whatever its plural


def check_pair(contest: HQContest, earlier: Sequence[Pair], pair: Pair) -> None:
    """Raise ``RuleError`` unless ``pair`` may follow ``earlier`` in one group exchange:
    known names on different sides, two sides in all, each name always ``a`` or always
    ``b``, and rolls (when given) a d20's."""
    a = contest.hq_participant(pair.a)
    b = contest.hq_participant(pair.b)
    if a.side == b.side:
        raise RuleError(f"{a.name} and {b.name} are both on side {a.side}")
    sides = {contest.hq_participant(n).side for p in earlier for n in (p.a, p.b)}
    if len(sides | {a.side, b.side}) > 2:
        raise RuleError("a group exchange is between exactly two sides")
    if any(p.b == a.name for p in earlier):
        raise RuleError(f'{a.name} is "b" in an earlier pair: always "a" or always "b"')
    if any(p.a == b.name for p in earlier):
        raise RuleError(f'{b.name} is "a" in an earlier pair: always "a" or always "b"')
    for roll in (pair.roll_a, pair.roll_b):
        if roll is not None:
            check_faces(DiceKind.D20, (roll,))


class HeroQuestRules(RuleSystem):
    """HeroQuest contests: a :class:`~core.rules.base.RuleSystem`."""

    name: ClassVar[str] = "heroquest"
    title: ClassVar[str] = "HeroQuest"
    contest_type: ClassVar[type[Contest]] = HQContest
    dice: ClassVar[DiceKind] = DiceKind.D20

    def modifier_presets(self, contest: Contest) -> tuple[tuple[str, int], ...]:
        """HQ2's situational modifiers and ability adjustments (rules §2.4)."""
        return HQ_PRESETS

    def tally(self, contest: Contest) -> tuple[dict[str, int], str] | None:
        c = own(contest, HQContest)
        if not c.options.chain or not c.resolution_points:  # a simple contest: its level
            return None
        return {s: c.resolution_points.get(s, 0) for s in c.sides}, "resolution points"

    def rollers(self, contest: Contest) -> list[str]:
        c = own(contest, HQContest)
        return [] if c.open.kind == "group" or c.open.automatic else list(c.parties)

    # decide ---------------------------------------------------------------------------
    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        c = own(contest, HQContest)
        require_open(c)
        own_way = c.decide_variant(self, command)
        if own_way is not None:
            return own_way
        match command:
            case SetParties():
                return (self._set_parties(c, command),)
            case SetPairs():
                return (self._set_pairs(c, command),)
            case Leave():
                return (self._leave(c, command),)
            case ResolveExchange():
                return self._resolve(c)
            case Boost():
                return (self._boost(c, command),)
            case RuleAutomatic():
                start = self._start_simple(c)
                started = own(self.evolve(c, start[0]), HQContest) if start else c
                return (*start, _automatic(started, command))
            case Gamble() | RespondDefensively():
                self._check_declaration(c)
                start = self._start_simple(c)
                started = own(self.evolve(c, start[0]), HQContest) if start else c
                return (*start, *self._party_action(started, command))
            case RollDice() | SetModifier() | Augment() | SpendHeroPoints() | Stretch():
                start = self._start_simple(c)
                started = own(self.evolve(c, start[0]), HQContest) if start else c
                return (*start, *self._party_action(started, command))
        raise unknown_command(self.title, command)

    @staticmethod
    def _set_parties(c: HQContest, cmd: SetParties) -> PartiesSet:
        if c.open.kind:
            raise OutOfTurn("this exchange's parties are already set")
        a, b = c.named(cmd.a), c.named(cmd.b)
        if a.side == b.side:
            raise RuleError(f"{a.name} and {b.name} are both on side {a.side}")
        return PartiesSet(a=a.name, b=b.name)

    @staticmethod
    def _set_pairs(c: HQContest, cmd: SetPairs) -> PairsSet:
        if c.open.kind:
            raise OutOfTurn("this exchange's parties are already set")
        if not cmd.pairs:
            raise RuleError("a group exchange needs at least one pair")
        pairs = tuple(
            replace(pair, a=c.named(pair.a).name, b=c.named(pair.b).name) for pair in cmd.pairs
        )
        for i, pair in enumerate(pairs):
            check_pair(c, pairs[:i], pair)
        return PairsSet(pairs=pairs)

    @staticmethod
    def _start_simple(c: HQContest) -> tuple[Event, ...]:
        """An exchange needs no SetParties with two participants (the first action names
        both of them), nor with more after an exchange of two (the same two again)."""
        if c.open.kind:
            return ()
        if len(c.participants) == 2:
            a, b = (p.name for p in c.participants)
            return (PartiesSet(a=a, b=b),)
        if len(c.last_parties) == 2:
            return (PartiesSet(a=c.last_parties[0], b=c.last_parties[1]),)
        return ()

    @staticmethod
    def _require_party(c: HQContest, name: str, parties: tuple[str, ...]) -> HQParticipant:
        p = c.hq_participant(name)
        if not parties:
            raise OutOfTurn("name the exchange's two parties first")
        if name not in parties:
            raise RuleError(f"{name} is not a party to this exchange")
        return p

    def _party_action(self, c: HQContest, cmd: Any) -> tuple[Event, ...]:
        o = c.open
        p = self._require_party(
            c, cmd.recipient if isinstance(cmd, Augment) else cmd.who, c.parties
        )
        if o.automatic is not None:
            raise RuleError(f"this exchange is ruled an {o.automatic.words()}: {_NO_DICE}")
        match cmd:
            case RollDice():
                if o.kind == "group":
                    raise OutOfTurn("in a group exchange the rolls go with the pairs")
                check_faces(DiceKind.D20, cmd.faces)
                if p.name in o.rolls:
                    raise OutOfTurn(f"{p.name} has already rolled this exchange")
                return (DiceRolled(who=p.name, faces=cmd.faces, source=cmd.source),)
            case SetModifier():
                label = self.preset_label(c, cmd.label, cmd.value)
                return (ModifierSet(who=p.name, value=cmd.value, label=label),)
            case Augment():
                return (self._augment(c, cmd),)
            case SpendHeroPoints():
                return (self._spend(c, p, cmd.count),)
            case Stretch():
                return () if p.name in o.stretched else (Stretched(who=p.name),)
            case Gamble():
                if p.name in o.defensive:
                    raise RuleError(_both(p.name))
                return () if p.name in o.gambits else (GambitDeclared(who=p.name),)
            case RespondDefensively():
                if p.name in o.gambits:
                    raise RuleError(_both(p.name))
                return () if p.name in o.defensive else (DefensiveDeclared(who=p.name),)
        raise unknown_command(self.title, cmd)  # pragma: no cover - decide() filters

    @staticmethod
    def _check_declaration(c: HQContest) -> None:
        """Risky gambits and defensive responses: an extended contest's simple exchange."""
        if not c.options.extended:
            raise RuleError(
                "risky gambits and defensive responses are for an extended contest's exchanges"
            )
        if c.open.kind == "group":
            raise RuleError(
                "risky gambits and defensive responses are for a simple exchange, not a group one"
            )

    @staticmethod
    def _boost(c: HQContest, cmd: Boost) -> Boosted:
        o = c.open
        if o.kind != "group":
            raise RuleError("a boost is for a group exchange: set its pairs first")
        if o.boost is not None:
            raise RuleError(f"this exchange already has a boost, for {o.boost.side}")
        sides = {c.hq_participant(n).side for p in o.pairs for n in (p.a, p.b)}
        if cmd.side not in c.sides:
            raise UnknownName(f'no side "{cmd.side}"')
        if cmd.side not in sides:
            raise RuleError(f"{cmd.side} has nobody in this group exchange")
        members = [p for p in c.participants if p.side == cmd.side]
        cost = boost_cost(len(members), cmd.double)
        paid: dict[str, int] = {}
        for name, count in cmd.paid:
            who = c.hq_participant(name)
            if who.side != cmd.side:
                raise RuleError(f"{name} is not on side {cmd.side}: only its members pay")
            if count < 0:
                raise RuleError("hero points paid cannot be negative")
            paid[name] = paid.get(name, 0) + count
            left = c.hero_points_left.get(name, 0)
            if paid[name] > left:
                has = "no hero points" if left == 0 else f"only {_points(left)}"
                raise NoHeroPoints(f"{name} has {has}")
        total = sum(paid.values())
        if total != cost:
            kind = "a double boost" if cmd.double else "a boost"
            raise RuleError(
                f"{kind} for {cmd.side} ({len(members)} taking part) costs {_points(cost)}, "
                f"not {total}"
            )
        return Boosted(
            boost=BoostResult(
                side=cmd.side,
                double=cmd.double,
                paid=tuple((n, k) for n, k in paid.items() if k),
                cost=cost,
            )
        )

    @staticmethod
    def _augment(c: HQContest, cmd: Augment) -> Augmented:
        if any(a.recipient == cmd.recipient for a in c.open.augments):
            raise RuleError(f"{cmd.recipient} already has an augment this exchange")
        base = c.options.augment_base
        # A side at 0 or less does not roll (rules §2.2): its roll is ignored.
        roll = cmd.roll if cmd.rating > 0 else None
        resistance = cmd.resistance_roll if base > 0 else None
        if cmd.rating > 0 and roll is None:
            raise OutOfTurn("the augment needs its roll")
        if base > 0 and resistance is None:
            raise OutOfTurn("the augment needs the resistance roll")
        for needed in (roll, resistance):
            if needed is not None:
                check_faces(DiceKind.D20, (needed,))
        bonus = augment_bonus(cmd.rating, roll, resistance, base, c.options.tie_break)
        return Augmented(
            augment=AugmentResult(
                recipient=cmd.recipient,
                rating=cmd.rating,
                roll=roll,
                base=base,
                resistance_roll=resistance,
                bonus=bonus,
            )
        )

    @staticmethod
    def _spend(c: HQContest, p: HQParticipant, count: int) -> HeroPointsSpent:
        if count < 0:
            raise RuleError("hero points spent cannot be negative")
        left = c.hero_points_left.get(p.name, 0)
        if count > left:
            has = "no hero points" if left == 0 else f"only {_points(left)}"
            raise NoHeroPoints(f"{p.name} has {has}")
        already = c.open.hero_points.get(p.name, 0)
        if c.options.extended and already + count > 1:
            raise RuleError(
                f"{p.name} may spend at most 1 hero point per exchange in an extended contest"
            )
        return HeroPointsSpent(who=p.name, count=count)

    def _leave(self, c: HQContest, cmd: Leave) -> LeaveDeclared:
        c.hq_participant(cmd.who)
        if not c.options.chain:
            raise RuleError("only a chained or extended contest can be left")
        parties = c.parties or c.last_parties
        if not parties:
            raise OutOfTurn("no earlier exchange to take the parties from: name them first")
        self._require_party(c, cmd.who, parties)
        return LeaveDeclared(who=cmd.who)

    def _resolve(self, c: HQContest) -> tuple[Event, ...]:
        o = c.open
        if o.kind == "simple":
            resolved = self._resolve_simple(c)
        elif o.kind == "group":
            resolved = self._resolve_group(c)
        elif o.leave is not None:
            parties = c.parties or c.last_parties
            resolved = self._empty(c, "leave", parties)
        else:
            raise OutOfTurn("nothing to resolve yet: roll first")
        if o.leave is not None and o.leave not in resolved.parties:
            raise RuleError(f"{o.leave} is not a party to this exchange")
        return (resolved, *self._ending(c, resolved))

    def _empty(
        self, c: HQContest, kind: Literal["leave"], parties: tuple[str, ...]
    ) -> ExchangeResolved:
        return ExchangeResolved(
            n=c.n + 1,
            kind=kind,
            parties=parties,
            targets={},
            rolls={},
            levels={},
            winner=None,
            victory=None,
            resolution_points=0,
            lodged_by=None,
            augments=(),
            hero_points={},
            stretched=(),
            consequence={},
            benefit={},
            leave=c.open.leave,
            totals=dict(c.resolution_points),
            chain=c.options.chain,
            extended=c.options.extended,
        )

    def _resolve_simple(self, c: HQContest) -> ExchangeResolved:
        o = c.open
        a, b = o.parties
        if o.automatic is not None:
            out = ruled_outcome(o.automatic, a)
        else:
            for name in (a, b):
                if c.target(name) > 0 and name not in o.rolls:
                    raise OutOfTurn(f"{name} has not rolled yet")
            out = simple_contest(
                c.party(a, o.rolls.get(a)), c.party(b, o.rolls.get(b)), c.options.tie_break
            )
        winner = None if out.winner is None else (a if out.winner == "a" else b)
        loser = None if winner is None else (b if winner == a else a)
        consequence = {loser: CONSEQUENCES[out.victory]} if loser else {}
        benefit = {winner: BENEFITS[out.victory]} if winner else {}
        lodged_by = c.hq_participant(winner).side if winner else None
        points = c.lodged(winner, loser, out.victory) if winner and loser else 0
        return self._scored(
            c,
            kind="simple",
            points=points,
            parties=(a, b),
            rolls={} if o.automatic else {a: o.rolls.get(a), b: o.rolls.get(b)},
            levels={} if o.automatic else {a: out.levels[0], b: out.levels[1]},
            winner=winner,
            victory=out.victory,
            lodged_by=lodged_by,
            consequence=consequence,
            benefit=benefit,
        )

    def _resolve_group(self, c: HQContest) -> ExchangeResolved:
        o = c.open
        side_points = {side: 0 for side in c.sides}
        results: list[PairResult] = []
        for i, pair in enumerate(o.pairs, start=1):
            for name, roll in ((pair.a, pair.roll_a), (pair.b, pair.roll_b)):
                if roll is None and c.target(name) > 0:
                    raise OutOfTurn(f"{name} has not rolled in pair {i}")
            out = simple_contest(
                c.party(pair.a, pair.roll_a), c.party(pair.b, pair.roll_b), c.options.tie_break
            )
            winner = None if out.winner is None else (pair.a if out.winner == "a" else pair.b)
            if winner is not None:
                side = c.hq_participant(winner).side
                side_points[side] += out.resolution_points
            results.append(
                PairResult(
                    a=pair.a,
                    b=pair.b,
                    targets=(c.target(pair.a), c.target(pair.b)),
                    rolls=(pair.roll_a, pair.roll_b),
                    levels=out.levels,
                    winner=winner,
                    victory=out.victory,
                    resolution_points=out.resolution_points,
                )
            )
        first = o.pairs[0]
        side_a = c.hq_participant(first.a).side
        side_b = c.hq_participant(first.b).side
        difference = side_points[side_a] - side_points[side_b]
        victory = group_level(difference)
        winner_side = None if difference == 0 else (side_a if difference > 0 else side_b)
        boost = o.boost
        if boost is not None and winner_side in (None, boost.side):
            victory, winner_side = boosted(victory, boost.steps), boost.side
        consequence: dict[str, str] = {}
        benefit: dict[str, int] = {}
        if winner_side is not None:
            loser_side = side_b if winner_side == side_a else side_a
            for p in c.participants:
                if p.side == loser_side:
                    consequence[p.name] = CONSEQUENCES[victory]
                elif p.side == winner_side:
                    benefit[p.name] = BENEFITS[victory]
                    if victory == MARGINAL:
                        consequence[p.name] = CONSEQUENCES[MARGINAL]
        return self._scored(
            c,
            kind="group",
            points=RESOLUTION_POINTS[victory],
            parties=c.parties,
            rolls={},
            levels={},
            winner=winner_side,
            victory=victory,
            lodged_by=winner_side,
            consequence=consequence,
            benefit=benefit,
            pairs=tuple(results),
            side_points=side_points,
        )

    @staticmethod
    def _scored(
        c: HQContest,
        *,
        kind: Literal["simple", "group"],
        points: int,
        parties: tuple[str, ...],
        rolls: Mapping[str, int | None],
        levels: Mapping[str, int],
        winner: str | None,
        victory: int,
        lodged_by: str | None,
        consequence: Mapping[str, str],
        benefit: Mapping[str, int],
        pairs: tuple[PairResult, ...] = (),
        side_points: Mapping[str, int] | None = None,
    ) -> ExchangeResolved:
        o = c.open
        totals = dict(c.resolution_points)
        if lodged_by is not None:
            totals[lodged_by] = totals.get(lodged_by, 0) + points
        return ExchangeResolved(
            n=c.n + 1,
            kind=kind,
            parties=parties,
            targets={name: c.target(name) for name in parties},
            rolls=rolls,
            levels=levels,
            winner=winner,
            victory=victory,
            resolution_points=points,
            lodged_by=lodged_by,
            augments=o.augments,
            hero_points={n: k for n, k in o.hero_points.items() if k},
            stretched=o.stretched,
            consequence=consequence,
            benefit=benefit,
            pairs=pairs,
            side_points=side_points or {},
            leave=o.leave,
            totals=totals,
            chain=c.options.chain,
            extended=c.options.extended,
            gambits=o.gambits,
            defensive=o.defensive,
            boost=o.boost,
            automatic=o.automatic,
            modifier_labels=o.modifier_labels,
        )

    @staticmethod
    def _ending(c: HQContest, e: ExchangeResolved) -> tuple[Event, ...]:
        """The contest's end after exchange ``e``, if it ends there."""
        if not c.options.chain:
            side = e.lodged_by if e.winner is not None else None
            return (ContestEnded(winner=side, ended_by="exchange"),)
        if c.options.extended:
            reached = [side for side in c.sides if e.totals.get(side, 0) >= EXTENDED_GOAL]
            if reached:
                return (ContestEnded(winner=reached[0], ended_by="resolution_points"),)
        if e.leave is not None:
            leaver_side = c.hq_participant(e.leave).side
            sides = {c.hq_participant(n).side for n in e.parties}
            others = [s for s in c.sides if s in sides and s != leaver_side]
            return (ContestEnded(winner=others[0] if others else None, ended_by="leave"),)
        return ()

    # evolve ---------------------------------------------------------------------------
    def evolve(self, contest: Contest, event: Event) -> Contest:
        c = own(contest, HQContest)
        changed = c.evolve_variant(self, event)
        if changed is not None:
            return changed
        o = c.open
        match event:
            case PartiesSet():
                return replace(c, open=replace(o, kind="simple", parties=(event.a, event.b)))
            case PairsSet():
                return replace(c, open=replace(o, kind="group", pairs=event.pairs))
            case DiceRolled():
                return replace(c, open=replace(o, rolls={**o.rolls, event.who: event.faces[0]}))
            case ModifierSet():
                labels = {k: v for k, v in o.modifier_labels.items() if k != event.who}
                if event.label is not None:
                    labels[event.who] = f"{event.label} {event.value:+d}"
                modifiers = {**o.modifiers, event.who: event.value}
                return replace(c, open=replace(o, modifiers=modifiers, modifier_labels=labels))
            case Augmented():
                return replace(c, open=replace(o, augments=(*o.augments, event.augment)))
            case HeroPointsSpent():
                left = {**c.hero_points_left}
                left[event.who] = left.get(event.who, 0) - event.count
                spent = {**o.hero_points}
                spent[event.who] = spent.get(event.who, 0) + event.count
                return replace(c, hero_points_left=left, open=replace(o, hero_points=spent))
            case Stretched():
                return replace(c, open=replace(o, stretched=(*o.stretched, event.who)))
            case LeaveDeclared():
                return replace(c, open=replace(o, leave=event.who))
            case GambitDeclared():
                return replace(c, open=replace(o, gambits=(*o.gambits, event.who)))
            case DefensiveDeclared():
                return replace(c, open=replace(o, defensive=(*o.defensive, event.who)))
            case AutomaticRuled():
                return replace(c, open=replace(o, automatic=event.automatic))
            case Boosted():
                left = {**c.hero_points_left}
                for name, count in event.boost.paid:
                    left[name] = left.get(name, 0) - count
                return replace(c, hero_points_left=left, open=replace(o, boost=event.boost))
            case ExchangeResolved():
                return replace(
                    c,
                    n=event.n,
                    open=OpenExchange(),
                    resolution_points=event.totals,
                    last_parties=event.parties,
                    against=_scored_against(c.against, event),
                )
            case ContestEnded():
                return replace(c, finished=True, winner=event.winner, ended_by=event.ended_by)
        raise TypeError(f"{type(event).__name__} is not a HeroQuest event")

    # -- what generic code asks (core.rules.base) ----------------------------------------
    def spent(self, event: Event) -> Iterator[tuple[str, str, int]]:
        if isinstance(event, ExchangeResolved):
            for who, count in event.hero_points.items():
                yield who, "hero points", count

    def points(self, contest: Contest, who: str) -> tuple[int, str] | None:
        return own(contest, HQContest).hero_points_left.get(who, 0), "hero points"

    def consequences(self, contest: Contest) -> Mapping[str, str] | None:
        result = own(contest, HQContest).extended_result()
        return None if result is None else result[1]

    def ending(self, contest: Contest) -> str:
        return ", the other party left" if own(contest, HQContest).ended_by == "leave" else ""

    # output ---------------------------------------------------------------------------
    def exchange_json(self, event: ExchangeEvent) -> JSON:
        if isinstance(event, OwnExchange):
            return event.as_json()
        e = self._exchange(event)
        out: JSON = {
            "n": e.n,
            "targets": {n: format_rating(t) for n, t in e.targets.items()},
        }
        if e.kind != "group":
            out["levels"] = {n: LEVELS[level] for n, level in e.levels.items()}
        out.update(
            {
                "winner": e.winner,
                "victory": None if e.victory is None else VICTORIES[e.victory],
                "resolution_points": e.resolution_points,
                "augments": [{"for": a.recipient, "bonus": a.bonus} for a in e.augments],
                "consequence": dict(e.consequence),
                "benefit": dict(e.benefit),
            }
        )
        if e.kind == "group":
            out["pairs"] = [
                {
                    "a": p.a,
                    "b": p.b,
                    "targets": {p.a: format_rating(p.targets[0]), p.b: format_rating(p.targets[1])},
                    "rolls": list(p.rolls),
                    "levels": {p.a: LEVELS[p.levels[0]], p.b: LEVELS[p.levels[1]]},
                    "winner": p.winner,
                    "victory": VICTORIES[p.victory],
                    "resolution_points": p.resolution_points,
                }
                for p in e.pairs
            ]
            out["side_points"] = dict(e.side_points)
        else:
            out["rolls"] = dict(e.rolls)
        if e.automatic is not None:
            out["automatic"] = {
                "who": e.automatic.who,
                "result": e.automatic.result,
                "victory": e.automatic.victory,
            }
        if e.modifier_labels:
            out["presets"] = dict(e.modifier_labels)
        out["hero_points"] = dict(e.hero_points)
        out["stretch"] = list(e.stretched)
        out["leave"] = e.leave
        if e.gambits:
            out["gambits"] = list(e.gambits)
        if e.defensive:
            out["defensive"] = list(e.defensive)
        if e.boost is not None:
            out["boost"] = {
                "side": e.boost.side,
                "double": e.boost.double,
                "paid": dict(e.boost.paid),
                "cost": e.boost.cost,
            }
        return out

    def final_json(self, contest: Contest) -> JSON:
        c = own(contest, HQContest)
        own_way = c.final_variant()
        if own_way is not None:
            return own_way
        out: JSON = {"hero_points": {p.name: c.hero_points_left[p.name] for p in c.participants}}
        if c.options.chain:
            out["resolution_points"] = {side: c.resolution_points.get(side, 0) for side in c.sides}
        result = c.extended_result()
        out["victory"] = None if result is None else VICTORIES[result[0]]
        out["consequences"] = None if result is None else result[1]
        out["ended_by"] = c.ended_by
        return out

    def describe(self, event: ExchangeEvent, secrets: Secrets = NO_SECRETS) -> list[str]:
        """The exchange log's lines, with ``??`` for what ``secrets`` hide."""
        return render_all(self.lines(event), secrets)

    def lines(self, event: ExchangeEvent) -> list[list[str | Part]]:
        """The result first, then one line per party (the log pane is narrow).

        What a hidden participant keeps from the players: their target (the rating and
        its modifiers), their roll ("no roll", which says the target is 0 or less,
        reads as any fumble), a benefit they gain, an augment they receive (the bonus,
        both ratings and rolls) and how many hero points they spend. Who won, the
        victory and its resolution points, each side's levels of success, states of
        adversity and the resolution points' totals stay: the table sees them anyway (a
        tie on equal levels says the rolls were equal, §2.3: a die, not the rating)."""
        if isinstance(event, OwnExchange):
            return event.lines()
        e = self._exchange(event)
        lines: list[list[str | Part]]
        if e.kind == "leave":
            lines = [[f"Exchange {e.n}: {e.leave} leaves the contest"]]
            if e.chain:
                lines.append(["  Resolution points: " + _totals(e.totals)])
            return lines
        if e.kind == "simple" and e.automatic is not None:
            lines = [[f"Exchange {e.n}: {_result(e)}"], [f"  {e.automatic.words()}, no dice"]]
        elif e.kind == "simple":
            lines = [[f"Exchange {e.n}: {_result(e)}"]]
            lines.extend(["  ", *_roll_text(e, name)] for name in e.parties)
        else:
            # The pairs' points decide the group's level (§2.7); the level's own
            # resolution points are what a chain lodges: two counts, said apart.
            score = ", ".join(f"{s} {p}" for s, p in e.side_points.items())
            lines = [[f"Exchange {e.n}, group: {_result(e)}"], [f"  Pairs' points: {score}"]]
        lines.extend(_effects(e))
        for p in e.pairs:
            outcome = (
                "tie"
                if p.winner is None
                else f"{p.winner}, {VICTORIES[p.victory]} ({p.resolution_points} RP)"
            )
            lines.append([f"  {p.a} v {p.b}: {outcome}"])
            lines.append(["    ", *_pair_side(p, 0), "; ", *_pair_side(p, 1)])
        for name, label in e.modifier_labels.items():
            lines.append([f"  {name}: ", secret(label, name)])
        for aug in e.augments:
            who = aug.recipient
            lines.append(
                [
                    f"  {who} augmented ",
                    secret(_signed(aug.bonus), who),
                    ": ",
                    *_augment_side(aug.rating, aug.roll, who),
                    " against ",
                    *_augment_side(aug.base, aug.resistance_roll, who),
                ]
            )
        for name, count in e.hero_points.items():
            # Hidden, the count goes with its plural: "a hero point" would give it away.
            lines.append([f"  {name} spends ", secret(_points(count), name, mask=HIDDEN_POINTS)])
        for name in e.stretched:
            lines.append([f"  {name} stretches: −6, victory at most minor"])
        for name in e.gambits:
            lines.append(
                [f"  {name} makes a risky gambit: +1 RP if winning, +2 to the other if not"]
            )
        for name in e.defensive:
            lines.append(
                [f"  {name} responds defensively: −2 RP if winning, −1 to the other if not"]
            )
        if e.boost is not None:
            b = e.boost
            paid = ", ".join(f"{n} {k}" for n, k in b.paid)
            levels = "2 levels" if b.double else "1 level"
            double = " (double)" if b.double else ""
            cost = f"{_points(b.cost)}: {paid}"
            lines.append([f"  {b.side} boost{double}: +{levels} on a tie or a win ({cost})"])
        if e.leave is not None:
            lines.append([f"  {e.leave} leaves the contest"])
        if e.chain:
            lines.append(["  Resolution points: " + _totals(e.totals)])
        return lines

    @staticmethod
    def _exchange(event: ExchangeEvent) -> ExchangeResolved:
        if not isinstance(event, ExchangeResolved):
            raise TypeError(f"{type(event).__name__} is not a HeroQuest exchange")
        return event


_NO_DICE = "no dice, modifiers, augments, stretches, hero points or declarations"


def _automatic(c: HQContest, cmd: RuleAutomatic) -> AutomaticRuled:
    """The GM's ruling (``automatic``): a simple exchange of two parties, with nothing
    entered that dice would need (the ruling replaces the roll, so nothing bumps it)."""
    o = c.open
    if o.kind == "group":
        raise RuleError("a group exchange is played by its pairs, not ruled automatic")
    if not c.parties:
        raise OutOfTurn("name the exchange's two parties first")
    who = c.named(cmd.who).name
    if who not in c.parties:
        raise RuleError(f"{who} is not a party to this exchange")
    if o.automatic is not None:
        raise RuleError(f"this exchange is already ruled an {o.automatic.words()}")
    entered = [
        what
        for what, there in (
            ("rolls", o.rolls),
            ("modifiers", any(o.modifiers.values())),
            ("augments", o.augments),
            ("hero points", o.hero_points),
            ("stretches", o.stretched),
            ("risky gambits", o.gambits),
            ("defensive responses", o.defensive),
        )
        if there
    ]
    if entered:
        raise RuleError(
            f"an automatic result takes no dice: this exchange has {', '.join(entered)} already"
        )
    return AutomaticRuled(
        automatic=AutomaticResult(who=who, result=cmd.result, victory=cmd.victory)
    )


def ruled_outcome(ruling: AutomaticResult, a: str) -> Outcome:
    """The outcome of an automatic exchange whose first party is ``a``: its victory
    level for the winner (the ruled party on a success, the other on a failure)."""
    wins_a = (ruling.who == a) == (ruling.result == "success")
    return Outcome(levels=(FUMBLE, FUMBLE), winner="a" if wins_a else "b", victory=ruling.level)


def _both(name: str) -> str:
    return f"{name} makes a risky gambit or a defensive response, not both"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _totals(totals: Mapping[str, int]) -> str:
    return ", ".join(f"{side} {points}" for side, points in totals.items())


def _roll_text(e: ExchangeResolved, name: str) -> list[str | Part]:
    target = secret(format_rating(e.targets[name]), name)
    level = LEVELS[e.levels[name]]
    if e.targets[name] <= 0:
        # "No roll" tells a hidden target is 0 or less: hidden, it reads as any fumble.
        no_roll = f"vs {format_rating(e.targets[name])}, no roll (complete defeat)"
        return [f"{name}: ", secret(no_roll, name, mask=f"{HIDDEN} vs {HIDDEN}, {level}")]
    return [f"{name}: ", secret(e.rolls.get(name), name), " vs ", target, f", {level}"]


def _augment_side(target: int, roll: int | None, recipient: str) -> list[str | Part]:
    rating = secret(format_rating(target), recipient)
    if roll is None:
        return [rating, " (no roll)"]
    return [rating, " rolling ", secret(roll, recipient)]


def _pair_side(p: PairResult, i: int) -> list[str | Part]:
    name = (p.a, p.b)[i]
    target = secret(format_rating(p.targets[i]), name)
    level = LEVELS[p.levels[i]]
    if p.targets[i] <= 0:  # hidden, as any fumble (see _roll_text)
        no_roll = f" vs {format_rating(p.targets[i])}, no roll"
        return [name, secret(no_roll, name, mask=f" {HIDDEN} vs {HIDDEN} {level}")]
    return [f"{name} ", secret(p.rolls[i], name), " vs ", target, f" {level}"]


def _result(e: ExchangeResolved) -> str:
    if e.winner is None or e.victory is None:
        return "tie"
    verb = "win" if e.kind == "group" else "wins"
    if e.kind == "simple" and not e.chain:  # resolution points count only in a chain (§2.8)
        return f"{e.winner} {verb}, {VICTORIES[e.victory]}"
    return f"{e.winner} {verb}, {VICTORIES[e.victory]} ({e.resolution_points} RP)"


def _effects(e: ExchangeResolved) -> list[list[str | Part]]:
    """States of adversity and lingering benefits the exchange left, one line; none in
    an extended contest, where only the final difference leaves any (rules §2.8.6-7)."""
    if e.extended:
        return []
    parts: list[list[str | Part]] = [[f"{name} {state}"] for name, state in e.consequence.items()]
    parts += [[f"{name} ", secret(f"+{b}", name), " benefit"] for name, b in e.benefit.items() if b]
    if not parts:
        return []
    line: list[str | Part] = ["  → "]
    for i, part in enumerate(parts):
        line += [", "] * (i > 0) + part
    return [line]


HEROQUEST = HeroQuestRules()
