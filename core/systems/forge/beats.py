"""FORGE combat rounds by beats (rules.md §3.4 "Beats" [I16], "Actions" [I17]): pure rules.

A round is five beats. Each icon's own beat comes from its Physical Agility
(:func:`beat_of`); beats 1, 2 and 4 are action beats, 3 and 5 reaction beats. Which beats an
icon takes part in is read from the Actions page's two examples (A-I5), a rule option
(:data:`BEAT_PATTERNS`). An attack is *sent* in an action beat (the attacker's roll, and the
damage it deals on a success); its damage *lands* in the target's next reaction beat, where
the target may dodge it (its one reaction of that beat) or takes it on armor, then trauma.

Everything here reuses the stage rules of :mod:`core.systems.forge.rules` (``actor_succeeds``,
``thrown_number``, ``reactor_wins``, ``absorb``, the contest's targets, armor and dying): the
tracker only adds *when*. :class:`BeatRound` is the tracker's state, a frozen value each
function returns anew; the contest (trauma, armor left) changes only by :func:`land`. Nothing
here is wired to the engine yet: it imports neither the saves nor Textual.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from msgspec.structs import replace

from core.errors import OutOfTurn, RuleError, UnknownName
from core.limits import Count, Int, Positive, bounded
from core.model import Saved
from core.systems.forge.rules import (
    ForgeContest,
    Reaction,
    absorb,
    actor_succeeds,
    check_pair,
    reactor_wins,
    thrown_number,
)

CODEC_TAG = "forge"  # the saved tags ("forge.BeatRound"), as the other forge modules

BeatKind = Literal["action", "reaction"]
BEAT_KINDS: Mapping[int, BeatKind] = {
    1: "action",  # preactive
    2: "action",  # initial action
    3: "reaction",  # initial reaction
    4: "action",  # secondary action
    5: "reaction",  # secondary reaction
}
BEATS: tuple[int, ...] = tuple(BEAT_KINDS)  # beat 6 was not retrieved (rules §3.4): not played
FIRST_BEAT, LAST_BEAT = BEATS[0], BEATS[-1]
DEFAULT_BEAT = 4  # an icon whose Physical Agility is unknown [I16]
Beat = Annotated[int, bounded(ge=FIRST_BEAT, le=LAST_BEAT)]
Agility = Annotated[int, bounded(ge=1)]  # "a PA of 0 being impossible" [I16]

BeatPattern = Literal["every_later_beat", "own_beat_then_react"]
BEAT_PATTERNS: tuple[BeatPattern, ...] = ("every_later_beat", "own_beat_then_react")
"""Which beats an icon takes part in (A-I5; the first is the default).

``every_later_beat``: its own beat and every beat after it, acting in the action beats and
reacting in the reaction beats: Josef (beat 1) acts in 1, 2 and 4 and reacts in 3 and 5;
Bobby (beat 4) acts in 4 and reacts in 5 [I17]. ``own_beat_then_react``: the other
reading, where Josef's extra beats come from his "superior capabilities", not his beat: an
icon takes part in its own beat and reacts in the first reaction beat after it (beat 1 or
2: 3; beat 3, 4 or 5: 5)."""


def beat_of(agility: int | None) -> int:
    """An icon's beat from its Physical Agility (rules §3.4's table, [I16]): 40 and more
    beat 1, 30-39 beat 2, 20-29 beat 3, 11-19 beat 4, 1-10 beat 5; unknown (None) beat 4.
    PA 20 is in two bands on the page (20-29 and 11-20): beat 3 (A-I5). ``RuleError`` for
    a PA below 1 (impossible, the page says)."""
    if agility is None:
        return DEFAULT_BEAT
    if agility < 1:
        raise RuleError(f"a Physical Agility of {agility} is impossible (at least 1)")
    for floor, beat in ((40, 1), (30, 2), (20, 3), (11, 4)):
        if agility >= floor:
            return beat
    return 5


def beat_kind(beat: int) -> BeatKind:
    """Whether ``beat`` is an action or a reaction beat."""
    return BEAT_KINDS[beat]


def beats_taken(own: int, pattern: BeatPattern = "every_later_beat") -> tuple[int, ...]:
    """The beats an icon whose own beat is ``own`` takes part in, under ``pattern``."""
    if pattern == "every_later_beat":
        return tuple(b for b in BEATS if b >= own)
    react = next((b for b in BEATS if b > own and beat_kind(b) == "reaction"), None)
    return (own,) if react is None else (own, react)


def landing_beat(sent_in: int, target_beat: int, pattern: BeatPattern = "every_later_beat") -> int:
    """The beat in which an attack sent in ``sent_in`` lands on a target whose own beat is
    ``target_beat``: the target's first reaction beat after ``sent_in`` [I17]; when it has
    none left in the round (possible under ``own_beat_then_react`` only), the round's last
    beat, so nothing sent is lost."""
    for b in beats_taken(target_beat, pattern):
        if b > sent_in and beat_kind(b) == "reaction":
            return b
    return LAST_BEAT


# -- the tracker's state ------------------------------------------------------------------


class BeatOptions(Saved):
    """The round's rule option: the participation pattern (A-I5)."""

    pattern: BeatPattern = "every_later_beat"


class BeatAttack(Saved):
    """An attack sent in an action beat: the attacker's ``roll`` (None when her target was 0
    or less), whether it ``hit`` and the ``damage`` it throws (None on a miss), and the beat
    it lands in (None on a miss: nothing lands)."""

    attacker: str
    target: str
    sent_in: Beat
    roll: Int | None
    hit: bool
    damage: Count | None = None
    lands_in: Beat | None = None


class BeatHit(Saved):
    """An attack's damage landing in the target's reaction beat: dodged (her one reaction
    of that beat, with ``dodge_roll``) or absorbed: armor first, the rest trauma."""

    attack: BeatAttack
    beat: Beat
    reaction: Reaction
    dodge_roll: Int | None
    dodged: bool
    absorbed: Count = 0
    trauma: Count = 0
    armor_left: Int | None = None


class BeatRound(Saved):
    """A combat round between two steps: the ``beat`` it is in (``over`` once past the
    last), each icon's own beat, who has already acted or reacted in this beat (``used``),
    the attacks sent this round and the hits that landed. ``pending`` are the attacks sent
    that have not landed yet."""

    icon_beats: Mapping[str, Beat]
    options: BeatOptions = BeatOptions()
    number: Positive = 1
    beat: Beat = FIRST_BEAT
    over: bool = False
    used: tuple[str, ...] = ()
    sent: tuple[BeatAttack, ...] = ()
    landed: tuple[BeatHit, ...] = ()

    @property
    def pending(self) -> tuple[BeatAttack, ...]:
        # an attacker acts once a beat, so no two attacks sent in a round are equal
        done = {h.attack for h in self.landed}
        return tuple(a for a in self.sent if a.hit and a not in done)


# -- who may do what ----------------------------------------------------------------------


def takes_part(r: BeatRound, name: str, beat: int) -> bool:
    """Whether ``name`` takes part in ``beat`` (its own beat and the pattern)."""
    own = r.icon_beats.get(name)
    if own is None:
        raise UnknownName(f'no icon "{name}" in the round')
    return beat in beats_taken(own, r.options.pattern)


def landing_now(r: BeatRound, target: str | None = None) -> tuple[BeatAttack, ...]:
    """The attacks landing in the current beat (on ``target`` only, when given)."""
    return tuple(
        a for a in r.pending if a.lands_in == r.beat and (target is None or a.target == target)
    )


def may_act(contest: ForgeContest, r: BeatRound, name: str) -> bool:
    """Whether ``name`` may send an attack now: an action beat it takes part in, not yet
    used, and not dying (a dying icon has no actions: rules §3.4, [I15])."""
    return (
        not r.over
        and beat_kind(r.beat) == "action"
        and takes_part(r, name, r.beat)
        and name not in r.used
        and not contest.dying(name)
    )


def may_dodge(contest: ForgeContest, r: BeatRound, name: str) -> bool:
    """Whether ``name`` may dodge a hit now: a reaction beat it takes part in, a hit
    landing on it, its reaction not yet used, and not dying (a dying icon cannot dodge)."""
    return (
        not r.over
        and beat_kind(r.beat) == "reaction"
        and takes_part(r, name, r.beat)
        and name not in r.used
        and not contest.dying(name)
        and bool(landing_now(r, name))
    )


def whose_beat(contest: ForgeContest, r: BeatRound) -> tuple[str, ...]:
    """The icons who may still act (or dodge) in the current beat, in the round's order."""
    return tuple(n for n in r.icon_beats if may_act(contest, r, n) or may_dodge(contest, r, n))


def still_to_do(contest: ForgeContest, r: BeatRound, name: str) -> tuple[tuple[int, BeatKind], ...]:
    """What ``name`` may still do this round: ``(beat, "action" | "reaction")`` for the
    current beat (unless used) and every later one it takes part in; nothing when dying."""
    if r.over or contest.dying(name):
        return ()
    return tuple(
        (b, beat_kind(b))
        for b in beats_taken(r.icon_beats[name], r.options.pattern)
        if b > r.beat or (b == r.beat and name not in r.used)
    )


def _busy(contest: ForgeContest, r: BeatRound, beat: int) -> bool:
    """Whether anybody may do anything in ``beat``: someone (not dying) acts in an action
    beat; a hit lands in a reaction beat."""
    if beat_kind(beat) == "reaction":
        return any(a.lands_in == beat for a in r.pending)
    return any(takes_part(r, n, beat) and not contest.dying(n) for n in r.icon_beats)


def _first_busy(contest: ForgeContest, r: BeatRound, after: int) -> BeatRound:
    for b in BEATS:
        if b > after and _busy(contest, r, b):
            return replace(r, beat=b, used=())
    return replace(r, over=True, used=())


# -- steps --------------------------------------------------------------------------------


def new_round(
    contest: ForgeContest,
    agility: Mapping[str, int | None],
    options: BeatOptions | None = None,
    number: int = 1,
) -> BeatRound:
    """A round's first busy beat, every participant of ``contest`` in its beat from its
    Physical Agility (a name missing from ``agility``: unknown, beat 4)."""
    for name in agility:
        contest.participant(name)
    beats = {p.name: beat_of(agility.get(p.name)) for p in contest.participants}
    r = BeatRound(icon_beats=beats, options=options or BeatOptions(), number=number)
    return _first_busy(contest, r, FIRST_BEAT - 1)


def send(
    contest: ForgeContest, r: BeatRound, attacker: str, target: str, roll: int | None
) -> BeatRound:
    """``attacker`` attacks ``target`` in this action beat (rules §3.3-3.4, [I17]): her
    roll against her target; on a success the damage it deals (tens × weapon) is on its
    way, to land in the target's next reaction beat. A miss sends nothing. It is her one
    action of the beat."""
    if not may_act(contest, r, attacker):
        raise OutOfTurn(_why_not(contest, r, attacker, "act"))
    check_pair(contest.participant(attacker), contest.participant(target))
    aim = contest.target(attacker)
    try:
        hit = actor_succeeds(aim, roll)
    except ValueError as e:
        raise RuleError(f"{attacker}'s target of {aim} needs a roll") from e
    if hit and roll is None:
        raise RuleError(f"{attacker} succeeds automatically but still rolls for the damage")
    weapon = contest.participant(attacker)
    attack = BeatAttack(attacker=attacker, target=target, sent_in=r.beat, roll=roll, hit=hit)
    if hit and roll is not None:
        attack = replace(
            attack,
            damage=thrown_number(
                roll, combat=True, multiplier=weapon.multiplier, max_damage=weapon.max_damage
            ),
            lands_in=landing_beat(r.beat, r.icon_beats[target], r.options.pattern),
        )
    return replace(r, sent=(*r.sent, attack), used=(*r.used, attacker))


def land(
    contest: ForgeContest,
    r: BeatRound,
    attack: BeatAttack,
    reaction: Reaction = "absorb",
    dodge_roll: int | None = None,
) -> tuple[ForgeContest, BeatRound, BeatHit]:
    """``attack`` lands in this reaction beat. ``"dodge"`` is the target's one reaction of
    the beat: a roll within her target and at or above the damage avoids it (above only
    without the contest's ``reactor_wins_ties``). Otherwise (absorbed, or a dodge that
    failed) armor takes what it can and the rest is trauma (rules §3.4, [I8], A-I4). The
    contest comes back with the target's trauma and armor left changed."""
    if attack not in landing_now(r):
        raise OutOfTurn(
            f"{attack.attacker}'s attack on {attack.target} does not land in beat {r.beat}"
        )
    who = attack.target
    damage = attack.damage or 0
    dodged = False
    used = r.used
    if reaction == "dodge":
        if not may_dodge(contest, r, who):
            raise OutOfTurn(_why_not(contest, r, who, "dodge"))
        if dodge_roll is None:
            raise RuleError(f"{who}'s dodge needs a roll")
        dodged = reactor_wins(
            contest.target(who),
            dodge_roll,
            damage,
            reactor_wins_ties=contest.options.reactor_wins_ties,
        )
        used = (*used, who)
    elif dodge_roll is not None:
        raise RuleError("an absorbed hit takes no roll")
    absorbed, trauma, left = 0, 0, contest.armor_left.get(who)
    if not dodged:
        absorbed, left = absorb(damage, contest.participant(who).armor, left)
        trauma = damage - absorbed
        contest = replace(
            contest,
            armor_left={**contest.armor_left, who: left},
            trauma={**contest.trauma, who: contest.trauma.get(who, 0) + trauma},
        )
    hit = BeatHit(
        attack=attack,
        beat=r.beat,
        reaction=reaction,
        dodge_roll=dodge_roll,
        dodged=dodged,
        absorbed=absorbed,
        trauma=trauma,
        armor_left=left,
    )
    return contest, replace(r, landed=(*r.landed, hit), used=used), hit


def next_beat(contest: ForgeContest, r: BeatRound) -> BeatRound:
    """On to the next beat in which anybody may do anything (``over`` after the last).
    ``OutOfTurn`` while a hit that lands in this beat has not been met: the GM has it
    absorbed (or dodged) first."""
    if r.over:
        raise OutOfTurn(f"round {r.number} is over")
    waiting = landing_now(r)
    if waiting:
        names = ", ".join(sorted({a.target for a in waiting}))
        raise OutOfTurn(f"{len(waiting)} hit(s) land in beat {r.beat} first (on {names})")
    return _first_busy(contest, r, r.beat)


# -- the GM's overrides -------------------------------------------------------------------


def move_icon(r: BeatRound, name: str, beat: int) -> BeatRound:
    """The GM puts ``name`` in another beat (a surprise, a power): it takes part from
    there on by the pattern; what it already did this round stands."""
    if name not in r.icon_beats:
        raise UnknownName(f'no icon "{name}" in the round')
    if beat not in BEAT_KINDS:
        raise RuleError(f"a round has beats {FIRST_BEAT} to {LAST_BEAT}, not {beat}")
    return replace(r, icon_beats={**r.icon_beats, name: beat})


def skip(r: BeatRound, name: str) -> BeatRound:
    """``name`` lets this beat go by: its action (or reaction) of the beat is spent."""
    if name not in r.icon_beats:
        raise UnknownName(f'no icon "{name}" in the round')
    return r if name in r.used else replace(r, used=(*r.used, name))


def end_round(r: BeatRound) -> BeatRound:
    """The GM ends the round now. Attacks sent that had not landed stay in ``pending``,
    for the GM to see (they are not applied)."""
    return replace(r, over=True, used=())


def next_round(contest: ForgeContest, r: BeatRound) -> BeatRound:
    """The round after ``r`` (ended or not): the same icons in the beats they are in now,
    nothing sent yet."""
    fresh = BeatRound(icon_beats=r.icon_beats, options=r.options, number=r.number + 1)
    return _first_busy(contest, fresh, FIRST_BEAT - 1)


def _why_not(contest: ForgeContest, r: BeatRound, name: str, what: str) -> str:
    if r.over:
        return f"round {r.number} is over"
    if contest.dying(name):
        return f"{name} is dying: no actions"
    kind = beat_kind(r.beat)
    if what == "act" and kind != "action":
        return f"beat {r.beat} is a reaction beat: nobody acts in it"
    if what == "dodge" and kind != "reaction":
        return f"beat {r.beat} is an action beat: nobody reacts in it"
    if not takes_part(r, name, r.beat):
        return f"{name} (beat {r.icon_beats[name]}) takes no part in beat {r.beat}"
    if name in r.used:
        return f"{name} has already {'acted' if kind == 'action' else 'reacted'} in beat {r.beat}"
    return f"no hit lands on {name} in beat {r.beat}"
