"""Fate Core contests: 4dF on the ladder, exchanges, victories, twists, advantages, invokes.

The rules are in ``shared/spec/rules.md`` part 1; the option names in ``scenario.md``.
The pure scoring functions at the top (``ladder_label``, ``side_rating``,
``advantage_outcome``, ``score_exchange``) are the ones ``decide`` uses and the ones the
keypad preview and the odds call: one source of truth for the rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Literal

import msgspec
from msgspec.structs import replace

from core.campaign_log import Character, Sheet
from core.dice import DiceKind, check_faces, fate_glyphs
from core.errors import NoPoints, OutOfTurn, RuleError, UnknownName
from core.limits import Count, Int, Positive
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
from core.redact import NO_SECRETS, Part, Secrets, aspect_name, render_all, secret, side_secret
from core.rules.base import (
    JSON,
    Escalated,
    Pool,
    RuleSystem,
    own,
    require_open,
    unknown_command,
    updated,
)
from core.systems.fate.stress import Slot, Track

CODEC_TAG = "fate"  # the saved tags ("fate.ExchangeResolved"), as before the package


class FateCharacter(Sheet):
    """What Fate keeps on a roster character (its ``Character.sheet``): the character's
    aspects, fate points and refresh, the fate points a session's start brings a PC back
    up to (Fate Core).

    ``stress``: the stress tracks the sheet names itself (a Fari or Foundry sheet's, a
    roster file's): a "physical" or "mental" one stands instead of the one Physique or
    Will gives, any other ("Corruption") is an extra track. ``consequences``: the
    character's consequence slots, with what is written in them; None (a character made
    in Tussle, or saved before conflicts): Fate Core's, by Physique and Will
    (``conflict.character_slots``). The limits are on the values' own fields (a box
    absorbs at least 1 shift; free invokes are a count)."""

    LABELS: ClassVar[Mapping[str, str]] = {"fate_points": "fate points"}
    aspects: tuple[str, ...] = ()
    fate_points: Count = 0
    refresh: Count = 0
    stress: tuple[Track, ...] = ()
    consequences: tuple[Slot, ...] | None = None


def fate_sheet(character: Character) -> FateCharacter:
    """``character``'s Fate sheet (a fresh one where it has none yet)."""
    sheet = character.sheet
    return sheet if isinstance(sheet, FateCharacter) else FateCharacter()


def with_fate(character: Character, **changes: Any) -> dict[str, Any]:
    """The change to ``character`` that sets ``changes`` on its Fate sheet (for
    ``replace`` and the write-back)."""
    return {"sheet": replace(fate_sheet(character), **changes)}


Outcome = Literal["fail", "tie", "success", "style"]
Effect = Literal["+2", "reroll", "oppose"]

LADDER = {
    8: "Legendary",
    7: "Epic",
    6: "Fantastic",
    5: "Superb",
    4: "Great",
    3: "Good",
    2: "Fair",
    1: "Average",
    0: "Mediocre",
    -1: "Poor",
    -2: "Terrible",
}


# -- pure scoring -------------------------------------------------------------------------


def ladder_label(value: int) -> str:
    """The Core ladder's name for ``value``: "Legendary+1" above +8, "-3" below -2."""
    if value > 8:
        return f"Legendary+{value - 8}"
    return LADDER.get(value, str(value))


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def ladder_with_value(value: int) -> str:
    """``Great (+4)``: how the dashboard writes a rating."""
    return f"{ladder_label(value)} ({signed(value)})"


def teamwork(skills: Sequence[int], cap: str = "none") -> tuple[int, int]:
    """The lead's skill and the teamwork bonus for a side whose members have ``skills``.

    The lead is the first highest skill; each other member at Average (+1) or better adds
    +1; with ``cap == "lead_skill"`` the bonus is at most the lead's skill (none at 0 or
    less). ``skills`` lists the members that still help (a helper whose advantage failed
    under "forfeit" is left out).
    """
    if not skills:
        return 0, 0
    lead_index = max(range(len(skills)), key=lambda i: (skills[i], -i))
    lead = skills[lead_index]
    bonus = sum(1 for i, s in enumerate(skills) if i != lead_index and s >= 1)
    if cap == "lead_skill":
        bonus = min(bonus, max(lead, 0))
    return lead, bonus


def advantage_outcome(result: int, opposition: int, style_threshold: int = 3) -> Outcome:
    """The four outcomes of rules §1.2 for a create-an-advantage roll."""
    shifts = result - opposition
    if shifts < 0:
        return "fail"
    if shifts == 0:
        return "tie"
    return "style" if shifts >= style_threshold else "success"


class NoFatePoints(NoPoints):
    """A paid invoke by somebody with no fate points left."""

    title = "No fate points"


class FateOptions(Saved):
    """The table's rule options (scenario.md spells them; rules.md §4 gives defaults)."""

    mode: Literal["direct", "environment"] = "direct"
    difficulty: Int | None = None
    victories_needed: Positive = 3
    style_threshold: Positive = 3
    style_clause: Literal["core", "fae"] = "core"
    teamwork_cap: Literal["none", "lead_skill"] = "none"
    failed_advantage: Literal["forfeit", "cost"] = "forfeit"
    environment_requires_success: bool = False


class ExchangeScore(Saved):
    """Who won an exchange from the final totals, and what it was worth."""

    winner: str | None
    victories: Int
    twist: bool
    shifts: Mapping[str, Int] | None = None


def score_exchange(options: FateOptions, totals: Mapping[str, int]) -> ExchangeScore:
    """Score an exchange from each rolling side's final total (rules §1.3 step 4).

    Direct mode: the highest total wins by its margin over the next best (two victories
    at ``style_threshold``); a lone roller wins one. Environment mode: shifts against the
    difficulty, with the "no one else" clause unless ``style_clause == "fae"``. A tie for
    the best makes a twist. Nobody rolling scores nothing.
    """
    if not totals:
        return ExchangeScore(winner=None, victories=0, twist=False)
    if options.mode == "environment":
        difficulty = options.difficulty or 0
        shifts = {side: total - difficulty for side, total in totals.items()}
        best = max(shifts.values())
        leaders = [side for side, s in shifts.items() if s == best]
        if options.environment_requires_success and best < 0:
            return ExchangeScore(winner=None, victories=0, twist=False, shifts=shifts)
        if len(leaders) > 1:
            return ExchangeScore(winner=None, victories=0, twist=True, shifts=shifts)
        winner = leaders[0]
        others_style = any(
            s >= options.style_threshold for side, s in shifts.items() if side != winner
        )
        style = best >= options.style_threshold and (
            options.style_clause == "fae" or not others_style
        )
        return ExchangeScore(winner=winner, victories=2 if style else 1, twist=False, shifts=shifts)
    best = max(totals.values())
    leaders = [side for side, t in totals.items() if t == best]
    if len(leaders) > 1:
        return ExchangeScore(winner=None, victories=0, twist=True)
    winner = leaders[0]
    if len(totals) == 1:
        return ExchangeScore(winner=winner, victories=1, twist=False)
    margin = best - max(t for side, t in totals.items() if side != winner)
    return ExchangeScore(
        winner=winner, victories=2 if margin >= options.style_threshold else 1, twist=False
    )


# -- state --------------------------------------------------------------------------------


class FateParticipant(Participant):
    skill: Int
    fate_points: Count = 0


class Aspect(Saved):
    """An aspect in play. ``holder`` is the side that may spend its free invokes (None:
    anyone); ``owner`` is the participant a paid invoke's fate point goes to."""

    name: str
    free_invokes: Count = 0
    holder: str | None = None
    boost: bool = False
    owner: str | None = None


class AdvantageResult(Saved):
    by: str
    aspect: str
    outcome: Outcome
    free_invokes: Count
    result: Int
    opposition: Int
    on: str | None = None


class InvokeRecord(Saved):
    """An invoke made: ``side`` is the side whose roll it changed (the invoker's own,
    an ally's, or the one facing a raised opposition)."""

    by: str
    side: str
    aspect: str
    free: bool
    effect: Effect
    faces: tuple[Int, ...] | None = None
    by_side: str = ""
    pool: bool = False  # paid from the GM's pool (for an NPC), not by ``by``


class OpenExchange(Saved):
    """What has been entered for the exchange being played, before it is resolved."""

    advantages: tuple[AdvantageResult, ...] = ()
    forfeited: frozenset[str] = frozenset()
    lost_helpers: frozenset[str] = frozenset()
    dice: Mapping[str, tuple[Int, ...]] = msgspec.field(default_factory=dict)
    bonus: Mapping[str, Int] = msgspec.field(default_factory=dict)
    modifiers: Mapping[str, Int] = msgspec.field(default_factory=dict)
    paid: frozenset[tuple[str, str]] = frozenset()  # (side, aspect) paid for on this roll
    invokes: tuple[InvokeRecord, ...] = ()
    attack: str | None = None


class FateContest(Contest):
    system: ClassVar[str] = "fate"
    participants: tuple[FateParticipant, ...]
    options: FateOptions = FateOptions()
    aspects: tuple[Aspect, ...] = ()
    victories: Mapping[str, Int] = msgspec.field(default_factory=dict)
    ended_by: str | None = None
    open: OpenExchange = OpenExchange()
    owed: Mapping[str, Int] = msgspec.field(default_factory=dict)  # fate points due at scene end
    # The GM's fate points for this scene (a contest is a scene) and the participants they
    # may pay for. Fate Core, "The GM and fate points": the scene starts with one point per
    # PC in it; the GM spends them "on behalf of any NPC" (invokes, refusing compels,
    # stunts), and an NPC that accepts a compel adds one. PCs pay with their own points,
    # so a PC never draws on the pool. The campaign sets both (``scene``); a contest read
    # from a scenario file has no pool.
    gm_pool: Int = 0
    npcs: frozenset[str] = frozenset()

    def fate_participant(self, name: str) -> FateParticipant:
        for p in self.participants:
            if p.name == name:
                return p
        raise UnknownName(f'no participant "{name}"')

    def aspect(self, name: str) -> Aspect | None:
        for a in self.aspects:
            if a.name == name:
                return a
        return None

    def side_skills(self, side: str, leave_out: frozenset[str] = frozenset()) -> list[int]:
        return [p.skill for p in self.participants if p.side == side and p.name not in leave_out]

    def lead(self, side: str) -> FateParticipant:
        members = [p for p in self.participants if p.side == side]
        return max(members, key=lambda p: (p.skill, -members.index(p)))

    def rating(self, side: str) -> int:
        """Lead skill plus teamwork for ``side`` this exchange (before dice and invokes)."""
        lead, bonus = teamwork(
            self.side_skills(side, self.open.lost_helpers), self.options.teamwork_cap
        )
        return lead + bonus

    def total(self, side: str) -> int | None:
        """The side's total so far this exchange, or None before it rolls."""
        faces = self.open.dice.get(side)
        if faces is None:
            return None
        return (
            self.rating(side)
            + sum(faces)
            + self.open.bonus.get(side, 0)
            + self.open.modifiers.get(side, 0)
        )

    @property
    def rolling_sides(self) -> tuple[str, ...]:
        return tuple(s for s in self.sides if s not in self.open.forfeited)


def scene(contest: FateContest, gm_pool: int, npcs: frozenset[str]) -> FateContest:
    """``contest`` as a scene of a campaign: the GM's pool and who it may pay for."""
    return replace(contest, gm_pool=gm_pool, npcs=npcs)


class FatePool(Pool):
    """The GM's fate points (Fate Core): one per PC in the scene at its start; they pay
    for the NPCs' invokes and refusals, and an NPC's compel adds to them."""

    def opening(self, pcs: int) -> int:
        return pcs

    def scene(self, contest: Contest, pool: int, npcs: frozenset[str]) -> Contest:
        return scene(own(contest, FateContest), pool, npcs)

    def left(self, contest: Contest) -> int:
        return own(contest, FateContest).gm_pool

    def award(self, who: str) -> Command:
        return AwardFatePoint(who=who)

    def pay(self, by: str, reason: str, count: int) -> Command:
        return PayFromPool(by=by, reason=reason, count=count)

    def paid(self, count: int) -> Event:
        return PoolPaid(by="", reason="", count=count)

    def into_pool(self, event: Event) -> bool:
        return isinstance(event, FatePointAwarded) and event.pool

    def gm_action(self, command: Command) -> bool:
        return isinstance(command, AwardFatePoint | PayFromPool)


def new_contest(
    participants: Sequence[FateParticipant],
    aspects: Sequence[Aspect] = (),
    options: FateOptions | None = None,
) -> FateContest:
    """A contest before its first exchange."""
    contest = FateContest(
        participants=tuple(participants),
        aspects=tuple(aspects),
        options=options or FateOptions(),
    )
    return replace(contest, victories={side: 0 for side in contest.sides})


# -- commands and events --------------------------------------------------------------------


class CreateAdvantage(Command):
    """A create-an-advantage attempt before the contest rolls (its result already known)."""

    before_rolls: ClassVar[bool] = True

    by: str
    aspect: str
    result: Int
    opposition: Int
    on: str | None = None


class InvokeAspect(Command):
    """Invoke ``aspect``, free, paid by ``by`` or (``pool``, for an NPC) paid from the
    GM's pool: +2 to a roll (``by``'s own side's, or ``target``'s, an ally helped), a
    reroll of ``by``'s side's dice (``faces``), or ``"oppose"``: +2 to the passive
    opposition ``target`` faces (environment mode)."""

    by: str
    aspect: str
    free: bool = False
    pool: bool = False
    effect: Effect = "+2"
    faces: tuple[Int, ...] | None = None
    target: str | None = None


class DeclareAttack(Command):
    """``by`` tries to harm another participant: the contest ends as a conflict.

    Rules §1.3, "Attacks end contests": the GM stops and the scene becomes a conflict,
    so the exchange needs no dice (the keypad puts the attack before them, and asks
    nobody to roll once it is there)."""

    before_rolls: ClassVar[bool] = True

    by: str


class AwardFatePoint(Command):
    """A compel accepted during the contest: ``who`` gains a fate point now (an NPC's
    goes into the GM's pool, which pays for NPCs)."""

    who: str


class FatePointAwarded(Event):
    who: str
    pool: bool = False  # the point went into the GM's pool (``who`` is an NPC)


class PayFromPool(Command):
    """The GM spends ``count`` of the pool's points for NPC ``by`` outside an invoke:
    refusing a compel, a stunt (``reason`` says which). Invokes say ``pool`` instead."""

    by: str = ""
    reason: str = ""
    count: Positive = 1


class PoolPaid(Event):
    by: str
    reason: str
    count: Positive = 1


class AdvantageCreated(Event):
    """An attempt's outcome and its effects, decided: what ``evolve`` applies as is."""

    advantage: AdvantageResult
    side: str
    gainer: str | None  # the side whose free invokes these are (None: nobody gains)
    new_aspect: bool
    boost: bool
    forfeit_side: str | None
    lost_helper: str | None
    # A new aspect placed on a participant is theirs: a fate point paid to invoke it goes
    # to them (rules §1.4.1, SRD: "This includes advantages created on your character").
    # None: placed on the scene (or an event saved before owners were kept).
    owner: str | None = None


class AspectInvoked(Event):
    invoke: InvokeRecord
    paid_by: str | None  # the participant who paid a fate point (not the pool)
    paid_to: str | None  # the aspect's owner, credited when the contest ends
    bonus: Int
    boost_used: bool


class AttackDeclared(Event):
    by: str


class FateContestEnded(ContestEnded):
    """The contest is over, with the fate points it owes (rules §1.4.1): a point paid to
    invoke an aspect that belongs to another character goes to that character, "usable
    only after the scene". ``owed`` counts them by owner (participant or not).

    ``scene_over``: the scene ended with the contest (a side reached its victories), so
    the owners among the participants are credited as it ends. False when an attack
    turned the contest into a conflict: the scene goes on, nobody is credited here, and
    the points stay owed until that scene is over (the contest keeps them in ``owed``)."""

    owed: Mapping[str, Int] = msgspec.field(default_factory=dict)
    scene_over: bool = True


class ExchangeResolved(ExchangeEvent):
    """One exchange, scored. Everything the log and ``tussle resolve`` print."""

    totals: Mapping[str, Int]
    shifts: Mapping[str, Int] | None
    dice: Mapping[str, tuple[Int, ...]]
    winner: str | None
    victories: Int
    style: bool
    twist: str | None
    new_twist: bool
    forfeited: tuple[str, ...]
    advantages: tuple[AdvantageResult, ...]
    invokes: tuple[InvokeRecord, ...]
    score: Mapping[str, Int]
    attack: str | None = None


# -- the rule system ------------------------------------------------------------------------


class FateRules(RuleSystem):
    """Fate Core contests: a :class:`~core.rules.base.RuleSystem`."""

    name: ClassVar[str] = "fate"
    title: ClassVar[str] = "Fate Core"
    contest_type: ClassVar[type[Contest]] = FateContest
    dice: ClassVar[DiceKind] = DiceKind.FATE
    pool: ClassVar[Pool | None] = FatePool()

    def tally(self, contest: Contest) -> tuple[dict[str, int], str] | None:
        c = own(contest, FateContest)
        return {s: c.victories.get(s, 0) for s in c.sides}, "victories"

    def rollers(self, contest: Contest) -> list[str]:
        c = own(contest, FateContest)
        return [] if c.open.attack is not None else list(c.rolling_sides)  # §1.3: stop

    # decide ---------------------------------------------------------------------------
    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        c = own(contest, FateContest)
        require_open(c)
        match command:
            case CreateAdvantage():
                return (self._advantage(c, command),)
            case RollDice():
                return (self._roll(c, command),)
            case InvokeAspect():
                return (self._invoke(c, command),)
            case SetModifier():
                self._side(c, command.who)
                return (ModifierSet(who=command.who, value=command.value),)
            case AwardFatePoint():
                c.fate_participant(command.who)
                return (FatePointAwarded(who=command.who, pool=command.who in c.npcs),)
            case PayFromPool():
                return (self._pay_from_pool(c, command),)
            case DeclareAttack():
                c.fate_participant(command.by)
                return (AttackDeclared(by=command.by),)
            case ResolveExchange():
                return self._resolve(c, command)
        raise unknown_command(self.title, command)

    @staticmethod
    def _side(c: FateContest, side: str) -> str:
        if side not in c.sides:
            raise UnknownName(f'no side "{side}"')
        return side

    def _advantage(self, c: FateContest, cmd: CreateAdvantage) -> AdvantageCreated:
        creator = c.fate_participant(cmd.by)
        if cmd.on is not None:
            c.fate_participant(cmd.on)
        if not cmd.aspect:
            raise RuleError("an aspect needs a name")
        if c.open.dice:
            raise OutOfTurn("advantages are created before the contest rolls")
        side = creator.side
        outcome = advantage_outcome(cmd.result, cmd.opposition, c.options.style_threshold)
        existing = c.aspect(cmd.aspect)
        other = self._other_side(c, side, cmd.on)
        # scenario.md: free invokes never change hands. The attempt is refused only while
        # the aspect holds free invokes of a side other than the one this attempt would
        # make its holder (the creator's side, or on a failure the other side).
        would_gain = other if outcome == "fail" else side
        if (
            existing is not None
            and existing.free_invokes > 0
            and existing.holder is not None
            and existing.holder != would_gain
        ):
            raise RuleError(
                f'"{cmd.aspect}" has free invokes held by {existing.holder}; '
                f"they must be used before {would_gain} can gain any on it"
            )
        forfeit_side: str | None = None
        lost_helper: str | None = None
        if outcome == "fail" and c.options.failed_advantage == "forfeit":
            if c.lead(side).name == creator.name:
                forfeit_side = side
            elif creator.skill >= 1:
                lost_helper = creator.name
        gainer: str | None
        if existing is None:
            gains = {"fail": 0, "tie": 1, "success": 1, "style": 2}[outcome]
            gainer = side
            if outcome == "fail":
                if c.options.failed_advantage == "cost":
                    gains, gainer = 1, other
                else:
                    gainer = None
        else:
            gains = {"fail": 1, "tie": 1, "success": 1, "style": 2}[outcome]
            gainer = other if outcome == "fail" else side
        return AdvantageCreated(
            advantage=AdvantageResult(
                by=cmd.by,
                aspect=cmd.aspect,
                outcome=outcome,
                free_invokes=gains,
                result=cmd.result,
                opposition=cmd.opposition,
                on=cmd.on,
            ),
            side=side,
            gainer=gainer,
            new_aspect=existing is None and gainer is not None,
            owner=cmd.on if existing is None else None,
            boost=existing.boost if existing is not None else outcome == "tie",
            forfeit_side=forfeit_side,
            lost_helper=lost_helper,
        )

    @staticmethod
    def _other_side(c: FateContest, side: str, on: str | None) -> str:
        """The side that gains from a failed advantage: ``on``'s, else the first other."""
        if on is not None:
            target_side = c.fate_participant(on).side
            if target_side != side:
                return target_side
        return next(s for s in c.sides if s != side)

    def _roll(self, c: FateContest, cmd: RollDice) -> DiceRolled:
        side = self._side(c, cmd.who)
        check_faces(DiceKind.FATE, cmd.faces)
        if side in c.open.forfeited:
            raise RuleError(f"{side} forfeited this exchange's roll (a failed advantage)")
        if side in c.open.dice:
            raise OutOfTurn(f"{side} has already rolled this exchange (invoke for a reroll)")
        return DiceRolled(who=side, faces=cmd.faces, source=cmd.source)

    def _invoke(self, c: FateContest, cmd: InvokeAspect) -> AspectInvoked:
        invoker = c.fate_participant(cmd.by)
        side = invoker.side
        on = self._side(c, cmd.target) if cmd.target is not None else side
        if cmd.effect == "reroll" and on != side:
            raise RuleError("a reroll is of your own side's dice")
        if cmd.effect == "oppose":
            if c.options.mode != "environment":
                raise RuleError("only an environment contest has a passive opposition")
            if on == side:
                raise RuleError("the opposition is raised against another side")
        if on in c.open.forfeited:
            raise RuleError(f"{on} forfeited this exchange and has no roll to invoke on")
        if on not in c.open.dice:
            raise OutOfTurn(f"{on} has not rolled yet: invoke after the roll")
        aspect = c.aspect(cmd.aspect)
        if aspect is None:
            raise UnknownName(f'no aspect "{cmd.aspect}" in play')
        if cmd.effect == "reroll":
            if cmd.faces is None:
                raise RuleError("a reroll needs the new dice")
            check_faces(DiceKind.FATE, cmd.faces)
        elif cmd.effect not in ("+2", "oppose"):
            raise RuleError(f'an invoke gives "+2", "reroll" or "oppose", not "{cmd.effect}"')
        paid_by: str | None = None
        paid_to: str | None = None
        if cmd.free and cmd.pool:
            raise RuleError("an invoke is either free or paid (from the GM's pool), not both")
        if cmd.free:
            if aspect.free_invokes < 1:
                raise RuleError(f'"{aspect.name}" has no free invokes left')
            if aspect.holder is not None and aspect.holder != side:
                raise RuleError(f'the free invokes on "{aspect.name}" belong to {aspect.holder}')
        else:
            if aspect.boost:
                raise RuleError(f'"{aspect.name}" is a boost: it is invoked free, never paid')
            if (on, aspect.name) in c.open.paid:
                whose = f"{on}'" if on.endswith("s") else f"{on}'s"  # Heroes' roll
                raise RuleError(f'"{aspect.name}" has already been paid for on {whose} roll')
            if cmd.pool:
                self._check_pool(c, invoker.name)
            elif invoker.fate_points < 1:
                hint = ""
                if invoker.name in c.npcs and c.gm_pool > 0:
                    hint = f" (the GM's pool has {c.gm_pool}: pay with it)"
                raise NoFatePoints(f"{invoker.name} has no fate points left{hint}")
            else:
                paid_by = invoker.name
            # Rules §1.4.1: the point paid goes to the aspect's owner, whoever paid it.
            if aspect.owner is not None and aspect.owner != invoker.name:
                paid_to = aspect.owner
        record = InvokeRecord(
            by=cmd.by,
            by_side=side,
            side=on,
            aspect=aspect.name,
            free=cmd.free,
            effect=cmd.effect,
            faces=cmd.faces if cmd.effect == "reroll" else None,
            pool=cmd.pool,
        )
        return AspectInvoked(
            invoke=record,
            paid_by=paid_by,
            paid_to=paid_to,
            bonus={"+2": 2, "reroll": 0, "oppose": -2}[cmd.effect],
            boost_used=cmd.free and aspect.boost,
        )

    @staticmethod
    def _check_pool(c: FateContest, who: str, count: int = 1) -> None:
        """The pool pays for NPCs only (Fate Core: the GM spends it "on behalf of any
        NPC"; a PC's invokes are the player's to pay), and only what it has."""
        if who and who not in c.npcs:
            raise RuleError(f"{who} is a PC: the GM's pool pays only for NPCs (PCs pay their own)")
        if c.gm_pool - count < 0:
            raise NoFatePoints("the GM's fate point pool is empty")

    def _pay_from_pool(self, c: FateContest, cmd: PayFromPool) -> PoolPaid:
        if cmd.by:
            c.fate_participant(cmd.by)
        if cmd.count == 0:
            raise RuleError("nothing to pay")
        self._check_pool(c, cmd.by, cmd.count)
        return PoolPaid(by=cmd.by, reason=cmd.reason, count=cmd.count)

    def _resolve(self, c: FateContest, cmd: ResolveExchange) -> tuple[Event, ...]:
        attack = c.open.attack
        # An attack stops the exchange where it is (rules §1.3): the dice rolled before it
        # are kept, nobody else need roll.
        rolled = [s for s in c.rolling_sides if attack is None or s in c.open.dice]
        missing = [s for s in rolled if s not in c.open.dice]
        if missing:
            raise OutOfTurn(f"{missing[0]} has not rolled yet")
        totals: dict[str, int] = {}
        for s in rolled:
            total = c.total(s)
            assert total is not None  # every rolling side has dice, checked above
            totals[s] = total
        n = c.n + 1
        if attack is not None:
            scored = ExchangeScore(winner=None, victories=0, twist=False)
            if c.options.mode == "environment":
                difficulty = c.options.difficulty or 0
                scored = replace(scored, shifts={s: t - difficulty for s, t in totals.items()})
        else:
            scored = score_exchange(c.options, totals)
        twist: str | None = None
        new_twist = False
        if scored.twist:
            twist = cmd.twist or f"Twist {n}"
            new_twist = c.aspect(twist) is None
        score = {s: c.victories.get(s, 0) for s in c.sides}
        if scored.winner is not None:
            score[scored.winner] += scored.victories
        resolved = ExchangeResolved(
            n=n,
            totals=totals,
            shifts=scored.shifts,
            dice={s: c.open.dice[s] for s in rolled},
            winner=scored.winner,
            victories=scored.victories,
            style=scored.victories == 2,
            twist=twist,
            new_twist=new_twist,
            forfeited=tuple(s for s in c.sides if s in c.open.forfeited),
            advantages=c.open.advantages,
            invokes=c.open.invokes,
            score=score,
            attack=attack,
        )
        owed = {name: n for name, n in c.owed.items() if n}
        if attack is not None:
            # The contest becomes a conflict and the scene goes on: nothing is paid yet.
            ended = FateContestEnded(winner=None, ended_by="attack", owed=owed, scene_over=False)
            return resolved, ended
        done = [s for s in c.sides if score[s] >= c.options.victories_needed]
        if done:
            return resolved, FateContestEnded(winner=done[0], ended_by="victories", owed=owed)
        return (resolved,)

    # evolve ---------------------------------------------------------------------------
    def evolve(self, contest: Contest, event: Event) -> Contest:
        c = own(contest, FateContest)
        o = c.open
        match event:
            case AdvantageCreated():
                return self._apply_advantage(c, event)
            case DiceRolled():
                return replace(c, open=replace(o, dice={**o.dice, event.who: event.faces}))
            case AspectInvoked():
                return self._apply_invoke(c, event)
            case ModifierSet():
                return replace(
                    c, open=replace(o, modifiers={**o.modifiers, event.who: event.value})
                )
            case AttackDeclared():
                return replace(c, open=replace(o, attack=event.by))
            case FatePointAwarded() if event.pool:
                return replace(c, gm_pool=c.gm_pool + 1)
            case PoolPaid():
                return replace(c, gm_pool=c.gm_pool - event.count)
            case FatePointAwarded():
                return replace(
                    c,
                    participants=tuple(
                        replace(p, fate_points=p.fate_points + 1) if p.name == event.who else p
                        for p in c.participants
                    ),
                )
            case ExchangeResolved():
                aspects = c.aspects
                if event.twist is not None and event.new_twist:
                    aspects = (*aspects, Aspect(name=event.twist))
                return replace(
                    c, n=event.n, victories=event.score, aspects=aspects, open=OpenExchange()
                )
            case FateContestEnded(scene_over=False):
                # An attack: the scene goes on as a conflict; the points stay owed.
                return replace(c, finished=True, winner=event.winner, ended_by=event.ended_by)
            case ContestEnded():
                # The scene is over (a saved plain ContestEnded, from before the points
                # owed were recorded, always credited them here).
                owed = event.owed if isinstance(event, FateContestEnded) else c.owed
                participants = c.participants
                if owed:
                    participants = tuple(
                        replace(p, fate_points=p.fate_points + owed.get(p.name, 0))
                        for p in participants
                    )
                return replace(
                    c,
                    finished=True,
                    winner=event.winner,
                    ended_by=event.ended_by,
                    participants=participants,
                    owed={},
                )
        raise TypeError(f"{type(event).__name__} is not a Fate event")

    @staticmethod
    def _apply_advantage(c: FateContest, event: AdvantageCreated) -> FateContest:
        adv = event.advantage
        o = c.open
        aspects = list(c.aspects)
        if event.gainer is not None:
            if event.new_aspect:
                aspects.append(
                    Aspect(
                        name=adv.aspect,
                        free_invokes=adv.free_invokes,
                        holder=event.gainer,
                        boost=event.boost,
                        owner=event.owner,
                    )
                )
            else:
                i = next(i for i, a in enumerate(aspects) if a.name == adv.aspect)
                aspects[i] = replace(
                    aspects[i],
                    free_invokes=aspects[i].free_invokes + adv.free_invokes,
                    holder=event.gainer,
                )
        forfeited = o.forfeited | ({event.forfeit_side} if event.forfeit_side else set())
        lost = o.lost_helpers | ({event.lost_helper} if event.lost_helper else set())
        return replace(
            c,
            aspects=tuple(aspects),
            open=replace(
                o,
                advantages=(*o.advantages, adv),
                forfeited=frozenset(forfeited),
                lost_helpers=frozenset(lost),
            ),
        )

    @staticmethod
    def _apply_invoke(c: FateContest, event: AspectInvoked) -> FateContest:
        inv = event.invoke
        o = c.open
        aspects: list[Aspect] = []
        for a in c.aspects:
            if a.name == inv.aspect and inv.free:
                if event.boost_used:
                    continue  # a boost leaves play once used
                a = replace(a, free_invokes=a.free_invokes - 1)
            aspects.append(a)
        participants = c.participants
        if event.paid_by is not None:
            participants = tuple(
                replace(p, fate_points=p.fate_points - 1) if p.name == event.paid_by else p
                for p in participants
            )
        owed = updated(c.owed, event.paid_to, 1) if event.paid_to else c.owed
        gm_pool = c.gm_pool - 1 if inv.pool else c.gm_pool
        dice = o.dice
        if inv.effect == "reroll" and inv.faces is not None:
            dice = {**dice, inv.side: inv.faces}
        paid = o.paid | {(inv.side, inv.aspect)} if not inv.free else o.paid
        return replace(
            c,
            aspects=tuple(aspects),
            participants=participants,
            owed=owed,
            gm_pool=gm_pool,
            open=replace(
                o,
                dice=dice,
                bonus=updated(o.bonus, inv.side, event.bonus),
                paid=paid,
                invokes=(*o.invokes, inv),
            ),
        )

    # -- what generic code asks (core.rules.base) ----------------------------------------
    def aspects(self, contest: Contest) -> tuple[str, ...]:
        return tuple(a.name for a in own(contest, FateContest).aspects)

    def situation(self, contest: Contest) -> tuple[str, ...]:
        return tuple(a.name for a in own(contest, FateContest).aspects if a.owner is None)

    def named_aspects(self, event: ExchangeEvent) -> Iterator[str]:
        if not isinstance(event, ExchangeResolved):
            return
        e = event
        if e.twist:
            yield e.twist
        yield from (advantage.aspect for advantage in e.advantages)
        yield from (invoke.aspect for invoke in e.invokes)

    def created(self, event: ExchangeEvent) -> Iterator[tuple[str, str]]:
        if not isinstance(event, ExchangeResolved):
            return
        e = event
        if e.twist and e.new_twist:
            yield e.twist, f"{e.twist} (twist)"
        for advantage in e.advantages:
            if advantage.outcome != "fail" or advantage.free_invokes:
                yield advantage.aspect, f"{advantage.aspect} ({advantage.outcome})"

    def spent(self, event: Event) -> Iterator[tuple[str, str, int]]:
        if isinstance(event, PoolPaid):  # the GM's pool outside an invoke
            yield event.by or "the GM", "fate points from the GM's pool", event.count
        elif isinstance(event, ExchangeResolved):
            for invoke in event.invokes:
                if invoke.pool:
                    yield invoke.by, "fate points from the GM's pool", 1
                elif not invoke.free:
                    yield invoke.by, "fate points", 1

    def points(self, contest: Contest, who: str) -> tuple[int, str] | None:
        return own(contest, FateContest).fate_participant(who).fate_points, "fate points"

    def escalated(self, contest: Contest) -> Escalated | None:
        if own(contest, FateContest).ended_by != "attack":
            return None
        return Escalated(
            "Ended by an attack: now a conflict",
            "An attack ended the contest: it escalates to a conflict (rules §1.3).",
        )

    # output ---------------------------------------------------------------------------
    def exchange_json(self, event: ExchangeEvent) -> JSON:
        e = self._exchange(event)
        out: JSON = {
            "n": e.n,
            "totals": dict(e.totals),
            "ladder": {s: ladder_label(t) for s, t in e.totals.items()},
        }
        if e.shifts is not None:
            out["shifts"] = dict(e.shifts)
        out.update(
            {
                "dice": {s: fate_glyphs(f) for s, f in e.dice.items()},
                "winner": e.winner,
                "victories": e.victories,
                "style": e.style,
                "twist": e.twist,
                "forfeited": list(e.forfeited),
                "advantages": [
                    {
                        "by": a.by,
                        "aspect": a.aspect,
                        "outcome": a.outcome,
                        "free_invokes": a.free_invokes,
                    }
                    for a in e.advantages
                ],
                "invokes": [
                    {
                        "by": i.by,
                        "aspect": i.aspect,
                        "free": i.free,
                        "effect": i.effect,
                        # Only a campaign's scene has a pool (scenario files have no key
                        # for it), so a resolved scenario never shows this key.
                        **({"pool": True} if i.pool else {}),
                    }
                    for i in e.invokes
                ],
                "score": dict(e.score),
            }
        )
        if e.attack is not None:
            out["attack"] = e.attack
        return out

    def final_json(self, contest: Contest) -> JSON:
        c = own(contest, FateContest)
        return {
            "score": dict(c.victories),
            "fate_points": {p.name: p.fate_points for p in c.participants},
            "aspects": [
                {
                    "name": a.name,
                    "free_invokes": a.free_invokes,
                    "holder": a.holder,
                    "boost": a.boost,
                }
                for a in c.aspects
            ],
            "ended_by": c.ended_by,
        }

    def describe(self, event: ExchangeEvent, secrets: Secrets = NO_SECRETS) -> list[str]:
        """The exchange log's lines, with ``??`` for what ``secrets`` hide."""
        return render_all(self.lines(event), secrets)

    def lines(self, event: ExchangeEvent) -> list[list[str | Part]]:
        """The result first, then each side's dice and total, invokes under the side.

        What a hidden participant keeps from the players (rules §1.3: a total is skill +
        dice + invokes): the dice and the total of a side with a hidden member (rolled
        behind the GM's screen), a reroll's dice, the side's shifts (against a difficulty
        the table knows, they give the total away); both numbers of an advantage the
        hidden one creates or is the target of.

        What stays, because the table sees it anyway: the first line, who won, how many
        victories ("with style" is the two victories the score shows) or a tie (the score
        stays put and the twist goes on the table); invokes and their +2 (declared aloud,
        paid with a fate point) and free invokes (on the table). So a tie with a visible
        side still tells the hidden total (it is the other side's), and a win bounds it
        (by 1 or 2, by 3 or more with style); without the dice, the skill under it stays
        hidden (anything within ±4 of it, less the invokes)."""
        e = self._exchange(event)
        score = "–".join(str(v) for v in e.score.values())
        head: list[str | Part]
        if e.attack is not None:
            head = [f"{e.attack} attacks: the contest becomes a conflict"]
        elif e.winner is not None:
            with_style = " with style" if e.style else ""
            plural = "ies" if e.victories != 1 else "y"
            head = [f"{e.winner} wins{with_style}, {e.victories} victor{plural} ({score})"]
        elif e.twist is not None:
            head = ["tie, twist: ", aspect_name(e.twist), f" ({score})"]
        else:
            head = [f"nobody scores ({score})"]
        lines: list[list[str | Part]] = [[f"Exchange {e.n}: ", *head]]
        for a in e.advantages:
            on = f" on {a.on}" if a.on else ""
            free = f"{a.free_invokes} free invoke{'s' if a.free_invokes != 1 else ''}"
            lines.append(
                [
                    f"  {a.by} creates ",
                    aspect_name(a.aspect),
                    f"{on}: ",
                    secret(signed(a.result), a.by, a.on),
                    " vs ",
                    secret(signed(a.opposition), a.by, a.on),
                    f", {a.outcome} ({free})",
                ]
            )
        for side in e.forfeited:
            lines.append([f"  {side} forfeits the roll"])
        for side, faces in e.dice.items():
            total = e.totals[side]
            line: list[str | Part] = [
                f"  {side}: ",
                side_secret(fate_glyphs(faces), side),
                " → ",
                side_secret(ladder_with_value(total), side),
            ]
            if e.shifts is not None:
                line += [", ", side_secret(signed(e.shifts[side]), side), " shifts"]
            lines.append(line)
            for i in e.invokes:
                if i.side != side:
                    continue
                how = "free" if i.free else "paid from the GM's pool" if i.pool else "fate point"
                what: list[str | Part] = ["+2"]
                if i.faces is not None:
                    what = ["reroll ", side_secret(fate_glyphs(i.faces), side)]
                elif i.effect == "oppose":
                    what = ["+2 opposition"]
                by = "" if i.by == side else f"{i.by} "
                lines.append([f"    {by}invokes ", aspect_name(i.aspect), f" ({how}): ", *what])
        if not e.dice:
            lines.append(["  nobody rolls"])
        return lines

    @staticmethod
    def _exchange(event: ExchangeEvent) -> ExchangeResolved:
        if not isinstance(event, ExchangeResolved):
            raise TypeError(f"{type(event).__name__} is not a Fate exchange")
        return event


FATE = FateRules()
