"""Fate conflicts: stress, consequences, attacks, concessions and recovery, as pure values.

The rules are the Fate Core SRD's "Conflicts" (turn order, the exchange, full defense,
resolving attacks, stress, consequences, conceding, ending a conflict, recovering from a
consequence, extreme consequences), its "Attack" and "Defend" actions and the Physique
and Will skills; Fate Condensed's one-point stress boxes are an option
(:attr:`ConflictOptions.stress`). Everything here is a frozen value and a pure function:
the engine, the keypad and the odds (``conflict_odds``) all ask these, so the rules live
once. The module knows nothing of the saves (import-linter holds that).

Where the SRD reads two ways, the reading chosen is named on the function that makes it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Literal

from msgspec.structs import replace

from core.errors import RuleError, UnknownName
from core.limits import Count, Int, Positive
from core.model import Command, Saved
from core.systems.fate.character import FateCharacter
from core.systems.fate.ladder import ladder_with_value
from core.systems.fate.scoring import Outcome, advantage_outcome
from core.systems.fate.stress import (
    MENTAL,
    PHYSICAL,
    RECOVERY_WAIT,
    Box,
    Kind,
    Period,
    Severity,
    Slot,
    Track,
)

CODEC_TAG = "fate"  # saved as "fate.Combatant"..., beside the contest's classes

# SRD, Recovering from a Consequence: "Mild is Fair (+2), moderate is Great (+4), and
# severe is Fantastic (+6). If you are trying to perform the recovery action on yourself,
# increase the difficulty by two steps on the ladder."
RECOVERY_DIFFICULTY: Mapping[Severity, int] = {"mild": 2, "moderate": 4, "severe": 6}
SELF_TREATMENT = 2
_PERIOD_RANK: Mapping[Period, int] = {"scene": 0, "session": 1, "scenario": 2}
# SRD, Full Defense: "you get to roll all defend actions for the exchange at a +2 bonus."
FULL_DEFENSE_BONUS = 2
# SRD, Turn Order: the skill compared first, then the tie-breakers.
TURN_ORDER_SKILLS: Mapping[Kind, tuple[str, str, str]] = {
    "physical": ("Notice", "Athletics", "Physique"),
    "mental": ("Empathy", "Rapport", "Will"),
}
# SRD, Physique / Will: the skill that lengthens each track.
TRACK_SKILL: Mapping[Kind, str] = {"physical": "Physique", "mental": "Will"}


class ConflictError(RuleError):
    """What the conflict rules forbid (a box already checked, a slot already filled...)."""

    title = "Not in this conflict"


# -- state ----------------------------------------------------------------------------------


class ConflictOptions(Saved):
    """The table's options for conflicts.

    ``stress``: "core" (escalating boxes 1, 2, 3, 4; one box per hit) or "condensed"
    (one-point boxes, any number per hit). ``extreme``: every character also has the
    extreme consequence slot (8 shifts, once between major milestones). ``extra_boxes``:
    boxes added to each physical and mental track (Condensed: "you may want to add one or
    two boxes to the default quantity"; in Core style they continue the values: 3, 4...).
    ``box_rule``: which free box a Core hit may check, see :func:`absorptions`.
    """

    stress: Literal["core", "condensed"] = "core"
    extreme: bool = False
    extra_boxes: Count = 0
    box_rule: Literal["covers", "next"] = "covers"
    style_threshold: Positive = 3


CORE = ConflictOptions()  # the defaults: Fate Core stress


class Combatant(Saved):
    """A participant in a conflict: their side, stress tracks and consequence slots, and
    how they left (``taken_out``, ``conceded``). ``taken_here`` counts the consequences
    taken in this conflict (a concession pays one fate point each)."""

    name: str
    side: str
    tracks: tuple[Track, ...]
    slots: tuple[Slot, ...]
    taken_out: bool = False
    conceded: bool = False
    taken_here: Count = 0

    @property
    def in_conflict(self) -> bool:
        return not (self.taken_out or self.conceded)

    def track(self, name: str) -> Track:
        for track in self.tracks:
            if track.name == name:
                return track
        raise UnknownName(f"{self.name} has no {name} stress track")


class Conflict(Saved):
    """A conflict: its participants in turn order, the kind that set that order, the
    exchange and whose turn it is (an index into ``combatants``)."""

    kind: Kind = "physical"
    options: ConflictOptions = CORE
    combatants: tuple[Combatant, ...] = ()
    exchange: Positive = 1
    turn: Count = 0

    def combatant(self, name: str) -> Combatant:
        for c in self.combatants:
            if c.name == name:
                return c
        raise UnknownName(f"{name} is not in this conflict")

    def with_combatant(self, new: Combatant) -> Conflict:
        return replace(
            self, combatants=tuple(new if c.name == new.name else c for c in self.combatants)
        )


# -- tracks and slots by skill --------------------------------------------------------------


def stress_boxes(rating: int, options: ConflictOptions = CORE) -> tuple[int, ...]:
    """The values of a physical (Physique) or mental (Will) track's boxes.

    Core (SRD, Stress and Physique): "all characters get a 1-point and a 2-point box";
    Average (+1) or Fair (+2) "gives you a 3-point stress box", Good (+3) or Great (+4) "a
    3-point and a 4-point", Superb (+5) and above the same. Condensed (its table): three
    one-point boxes; +1 at Average or Fair; +3 at Good and above. ``extra_boxes`` more.
    """
    if options.stress == "condensed":
        count = 3 + (1 if 1 <= rating <= 2 else 3 if rating >= 3 else 0)
        return (1,) * (count + options.extra_boxes)
    top = 2 + (1 if 1 <= rating <= 2 else 2 if rating >= 3 else 0)
    return tuple(range(1, top + options.extra_boxes + 1))


def has_extra_mild(rating: int) -> bool:
    """SRD, Physique: "Superb (+5) and above give you an additional mild consequence
    slot" (Will the same, for mental harm); Condensed: "Superb (+5) and higher"."""
    return rating >= 5


def new_combatant(
    name: str,
    side: str,
    physique: int = 0,
    will: int = 0,
    options: ConflictOptions = CORE,
    extra_tracks: Mapping[str, Sequence[int]] | None = None,
) -> Combatant:
    """A fresh participant: both tracks by Physique and Will, the named extra tracks
    (their box values as the sheet gives them), and the slots: mild, moderate, severe,
    the extreme one by option, a mild reserved for physical harm at Superb Physique and
    one for mental harm at Superb Will."""
    tracks = [
        Track(name=PHYSICAL, boxes=tuple(Box(value=v) for v in stress_boxes(physique, options))),
        Track(name=MENTAL, boxes=tuple(Box(value=v) for v in stress_boxes(will, options))),
    ]
    for track, values in (extra_tracks or {}).items():
        if track in (PHYSICAL, MENTAL):
            raise ConflictError(f"{track} is one of every character's two tracks")
        tracks.append(Track(name=track, boxes=tuple(Box(value=v) for v in values)))
    slots = [Slot(severity="mild"), Slot(severity="moderate"), Slot(severity="severe")]
    if options.extreme:
        slots.append(Slot(severity="extreme"))
    if has_extra_mild(physique):
        slots.append(Slot(severity="mild", only=PHYSICAL))
    if has_extra_mild(will):
        slots.append(Slot(severity="mild", only=MENTAL))
    return Combatant(name=name, side=side, tracks=tuple(tracks), slots=tuple(slots))


def character_tracks(
    ratings: Mapping[str, int], sheet: FateCharacter, options: ConflictOptions = CORE
) -> tuple[Track, ...]:
    """A roster character's stress tracks: the physical and mental ones by Physique and
    Will (``ratings``; a skill the character lacks is Mediocre), unless the sheet names
    its own, then the sheet's extra tracks, as the sheet has them (boxes checked too)."""
    own = {t.name: t for t in sheet.stress}
    tracks = [
        own.get(kind)
        or Track(
            name=kind,
            boxes=tuple(
                Box(value=v) for v in stress_boxes(ratings.get(TRACK_SKILL[kind], 0), options)
            ),
        )
        for kind in (PHYSICAL, MENTAL)
    ]
    return (*tracks, *(t for t in sheet.stress if t.name not in (PHYSICAL, MENTAL)))


def character_slots(
    ratings: Mapping[str, int], sheet: FateCharacter, options: ConflictOptions = CORE
) -> tuple[Slot, ...]:
    """A roster character's consequence slots: the sheet's own, or (a sheet without them,
    as every one saved before conflicts) Fate Core's: mild, moderate, severe, the extreme
    one by option, and the extra mild of a Superb Physique or Will."""
    if sheet.consequences is not None:
        return sheet.consequences
    physique = ratings.get(TRACK_SKILL[PHYSICAL], 0)
    will = ratings.get(TRACK_SKILL[MENTAL], 0)
    return new_combatant("", "", physique, will, options).slots


def combatant_of(
    name: str,
    side: str,
    ratings: Mapping[str, int],
    sheet: FateCharacter,
    options: ConflictOptions = CORE,
) -> Combatant:
    """A roster character in a conflict: their tracks and slots as their sheet holds
    them (:func:`character_tracks`, :func:`character_slots`)."""
    return Combatant(
        name=name,
        side=side,
        tracks=character_tracks(ratings, sheet, options),
        slots=character_slots(ratings, sheet, options),
    )


# -- turn order -----------------------------------------------------------------------------


def turn_order(skills: Mapping[str, Mapping[str, int]], kind: Kind = "physical") -> tuple[str, ...]:
    """The participants (``skills``: each one's skills by name, a missing skill Mediocre)
    in turn order. SRD, Turn Order: physical by Notice, ties by Athletics then Physique;
    mental by Empathy, then Rapport, then Will; highest first. A tie on all three keeps
    the order given (the GM decides)."""
    keys = TURN_ORDER_SKILLS[kind]
    names = list(skills)
    return tuple(sorted(names, key=lambda n: tuple(-skills[n].get(skill, 0) for skill in keys)))


def gm_order(order: Sequence[str], wanted: Sequence[str]) -> tuple[str, ...]:
    """The GM's override: ``wanted`` must name the same participants, each once."""
    if sorted(order) != sorted(wanted):
        raise ConflictError("a turn order names every participant once")
    return tuple(wanted)


def npcs_together(order: Sequence[str], npcs: Sequence[str]) -> tuple[str, ...]:
    """SRD, Turn Order: "pick your most advantageous NPC to determine your place in the
    turn order, and let all your NPCs go at that time": every NPC moves to the seat of
    the first NPC in ``order``, keeping their order among themselves."""
    group = [n for n in order if n in npcs]
    if not group:
        return tuple(order)
    out: list[str] = []
    for name in order:
        if name == group[0]:
            out.extend(group)
        elif name not in npcs:
            out.append(name)
    return tuple(out)


# -- attacks --------------------------------------------------------------------------------


class AttackResult(Saved):
    """An attack's outcome: the hit's shifts (0: no harm) and who gains a boost."""

    outcome: Outcome
    shifts: Count = 0
    attacker_boost: bool = False
    defender_boost: bool = False


def attack_result(
    attack: int,
    defense: int,
    *,
    full_defense: bool = False,
    take_boost: bool = False,
    style_threshold: int = 3,
) -> AttackResult:
    """An attack's total against the defense's (SRD, Attack and Defend; Full Defense).

    Fail: no harm; the defender's success with style (by ``style_threshold`` or more)
    gives the defender a boost. Tie: no harm, the attacker gets a boost. Success: a hit
    of the margin's shifts. With style: the same, or (``take_boost``) one shift less and
    a boost. Full defense adds +2 to the defense.
    """
    defended = defense + (FULL_DEFENSE_BONUS if full_defense else 0)
    outcome = advantage_outcome(attack, defended, style_threshold)
    margin = attack - defended
    if outcome == "fail":
        return AttackResult(outcome="fail", defender_boost=-margin >= style_threshold)
    if outcome == "tie":
        return AttackResult(outcome="tie", attacker_boost=True)
    if outcome == "style" and take_boost:
        return AttackResult(outcome="style", shifts=margin - 1, attacker_boost=True)
    return AttackResult(outcome=outcome, shifts=margin)


# -- absorbing a hit ------------------------------------------------------------------------


class Absorption(Saved):
    """One way to absorb a hit: the boxes checked on ``track`` (indexes into its boxes;
    at most one in Core) and the consequence slots filled (indexes into the slots)."""

    track: str
    boxes: tuple[Count, ...] = ()
    slots: tuple[Count, ...] = ()


def absorbed(c: Combatant, a: Absorption) -> int:
    """The shifts an absorption soaks up: its boxes' values and its slots' shifts."""
    track = c.track(a.track)
    return sum(track.boxes[i].value for i in a.boxes) + sum(c.slots[i].shifts for i in a.slots)


def usable_slots(c: Combatant, track: str) -> tuple[int, ...]:
    """The free slots a hit on ``track`` may fill (a reserved slot only for its track).
    SRD, Consequences: "you only have one set of consequences ... The exception to this is
    the extra consequence slot you would get from a Superb (+5) Physique or Will"."""
    return tuple(i for i, s in enumerate(c.slots) if s.free and (s.only is None or s.only == track))


def absorptions(
    c: Combatant, track: str, shifts: int, options: ConflictOptions = CORE
) -> tuple[Absorption, ...]:
    """Every legal way for ``c`` to absorb a hit of ``shifts`` on ``track``; none: taken
    out (SRD, Stress; Consequences; Getting Taken Out).

    A way is a set of free consequence slots plus stress: in Core "one stress box per
    hit", a free box whose value covers what the consequences leave ("covers", the
    reading of the issue's own example: a 5-shift hit takes the 2-box and a moderate);
    with ``box_rule="next"``, the SRD's strict words, only the smallest free box that
    covers it ("a box with a value equal to the shift value of the hit. If that box is
    already checked, check off a higher value box"). In Condensed, any number of free
    boxes, each absorbing its value (boxes of one value are alike: the first free ones
    are named). Only ways with nothing wasted are listed: dropping any box or slot of one
    would leave the hit uncovered (a severe consequence alone covers 5 shifts, so
    "severe and the 1-box" is not offered). A hit of no shifts needs nothing.
    """
    if shifts <= 0:
        return (Absorption(track=track),)
    stress = c.track(track)
    free_boxes = [i for i, b in enumerate(stress.boxes) if not b.checked]
    slots = usable_slots(c, track)
    found: list[Absorption] = []
    for n in range(len(slots) + 1):
        for chosen in itertools.combinations(slots, n):
            soaked = sum(c.slots[i].shifts for i in chosen)
            if any(soaked - c.slots[i].shifts >= shifts for i in chosen):
                continue  # a slot is wasted
            left = shifts - soaked
            if left <= 0:
                found.append(Absorption(track=track, slots=chosen))
                continue
            for boxes in _box_choices(stress, free_boxes, left, options):
                found.append(Absorption(track=track, boxes=boxes, slots=chosen))
    return tuple(a for a in found if _nothing_wasted(c, a, shifts))


def _box_choices(
    track: Track, free: Sequence[int], left: int, options: ConflictOptions
) -> Iterator[tuple[int, ...]]:
    """The sets of free boxes that absorb ``left`` shifts, with no box to spare."""
    if options.stress == "core":
        covering = [i for i in free if track.boxes[i].value >= left]
        if options.box_rule == "next" and covering:
            smallest = min(track.boxes[i].value for i in covering)
            covering = [i for i in covering if track.boxes[i].value == smallest][:1]
        seen: set[int] = set()
        for i in covering:  # boxes of one value are alike: the first one stands for all
            if track.boxes[i].value not in seen:
                seen.add(track.boxes[i].value)
                yield (i,)
        return
    by_value: dict[int, list[int]] = {}
    for i in free:
        by_value.setdefault(track.boxes[i].value, []).append(i)
    values = sorted(by_value)
    ranges = [range(len(by_value[v]) + 1) for v in values]
    for counts in itertools.product(*ranges):
        total = sum(v * k for v, k in zip(values, counts, strict=True))
        if total < left or any(total - v >= left for v, k in zip(values, counts, strict=True) if k):
            continue
        yield tuple(sorted(i for v, k in zip(values, counts, strict=True) for i in by_value[v][:k]))


def _nothing_wasted(c: Combatant, a: Absorption, shifts: int) -> bool:
    total = absorbed(c, a)
    track = c.track(a.track)
    parts = [track.boxes[i].value for i in a.boxes] + [c.slots[i].shifts for i in a.slots]
    return total >= shifts and all(total - p < shifts for p in parts)


def capacity(c: Combatant, track: str, options: ConflictOptions = CORE) -> int:
    """The largest hit on ``track`` that ``c`` can still absorb: every usable free slot,
    plus the largest free box (Core) or every free box (Condensed)."""
    free = [b.value for b in c.track(track).boxes if not b.checked]
    boxes = (max(free, default=0)) if options.stress == "core" else sum(free)
    return boxes + sum(c.slots[i].shifts for i in usable_slots(c, track))


def is_taken_out_by(c: Combatant, track: str, shifts: int, options: ConflictOptions = CORE) -> bool:
    """Whether a hit of ``shifts`` on ``track`` takes ``c`` out whatever they choose."""
    return not absorptions(c, track, shifts, options)


def legal(c: Combatant, a: Absorption, shifts: int, options: ConflictOptions = CORE) -> bool:
    """Whether ``a`` is a legal way to absorb the hit (the boxes free, at most one in
    Core and covering what the slots leave, the slots free and usable, the whole hit
    covered). Unlike :func:`absorptions`, a way that wastes something is legal: the
    player may take a consequence they did not need."""
    try:
        track = c.track(a.track)
    except UnknownName:
        return False
    if len(set(a.boxes)) != len(a.boxes) or len(set(a.slots)) != len(a.slots):
        return False
    if any(i >= len(track.boxes) or track.boxes[i].checked for i in a.boxes):
        return False
    if any(i not in usable_slots(c, a.track) for i in a.slots):
        return False
    if options.stress == "core":
        if len(a.boxes) > 1:
            return False
        left = shifts - sum(c.slots[i].shifts for i in a.slots)
        if a.boxes and track.boxes[a.boxes[0]].value < left:
            return False
        if a.boxes and options.box_rule == "next":
            bigger = [b.value for b in track.boxes if not b.checked and b.value >= max(left, 1)]
            if track.boxes[a.boxes[0]].value != min(bigger):
                return False
    return absorbed(c, a) >= shifts


def absorb(
    c: Combatant,
    a: Absorption,
    shifts: int,
    names: Sequence[str] = (),
    by: str | None = None,
    options: ConflictOptions = CORE,
) -> Combatant:
    """``c`` after absorbing a hit of ``shifts`` the way ``a`` says: its boxes checked,
    its slots filled with ``names`` (one per slot, in the order of ``a.slots``), each a
    new aspect with one free invoke for ``by``, the side that inflicted it (SRD,
    Consequences: "The opponent who forced you to take a consequence gets a free
    invocation")."""
    if not c.in_conflict:
        raise ConflictError(f"{c.name} is no longer in the conflict")
    if not legal(c, a, shifts, options):
        raise ConflictError(f"that does not absorb a {shifts}-shift hit for {c.name}")
    if len(names) != len(a.slots) or any(not n.strip() for n in names):
        raise ConflictError("each consequence taken needs its name")
    tracks = tuple(
        replace(
            t,
            boxes=tuple(
                replace(b, checked=True) if i in a.boxes else b for i, b in enumerate(t.boxes)
            ),
        )
        if t.name == a.track
        else t
        for t in c.tracks
    )
    named = dict(zip(a.slots, names, strict=True))
    slots = tuple(
        replace(s, aspect=named[i], holder=by, free_invokes=1) if i in named else s
        for i, s in enumerate(c.slots)
    )
    return replace(c, tracks=tracks, slots=slots, taken_here=c.taken_here + len(a.slots))


def take_out(c: Combatant) -> Combatant:
    """``c`` taken out: the hit was not absorbed (SRD, Getting Taken Out)."""
    if not c.in_conflict:
        raise ConflictError(f"{c.name} is no longer in the conflict")
    return replace(c, taken_out=True)


# -- conceding, and the end of a conflict ---------------------------------------------------


def concession_points(c: Combatant) -> int:
    """SRD, Conceding the Conflict: "you get a fate point for choosing to concede ... an
    additional fate point for each consequence" sustained in this conflict."""
    return 1 + c.taken_here


def concede(conflict: Conflict, name: str) -> Conflict:
    """``name`` concedes (before an exchange's roll: the caller asks at that moment).
    The points are paid when the conflict ends (:func:`payouts`)."""
    c = conflict.combatant(name)
    if not c.in_conflict:
        raise ConflictError(f"{name} is no longer in the conflict")
    return conflict.with_combatant(replace(c, conceded=True))


def sides_left(conflict: Conflict) -> tuple[str, ...]:
    """The sides with someone still in the conflict, in the order they first appear."""
    return tuple(dict.fromkeys(c.side for c in conflict.combatants if c.in_conflict))


def is_over(conflict: Conflict) -> bool:
    """SRD, Ending a Conflict: over "when all of the members of one side have either
    conceded the conflict or have been taken out" (here: when fewer than two sides have
    anyone left, so a three-way conflict goes on while two sides fight)."""
    return len(sides_left(conflict)) < 2


def winner(conflict: Conflict) -> str | None:
    """The side left once the conflict is over (None while it goes on, or nobody left)."""
    left = sides_left(conflict)
    return left[0] if is_over(conflict) and left else None


def payouts(conflict: Conflict) -> Mapping[str, int]:
    """The fate points owed at the end of the conflict for concessions, by participant."""
    return {c.name: concession_points(c) for c in conflict.combatants if c.conceded}


def clear_stress(c: Combatant) -> Combatant:
    """Stress clears after the conflict ("any stress boxes you checked off become
    available for your use again"); consequences stay; the conflict's count restarts."""
    return replace(
        c,
        tracks=tuple(
            replace(t, boxes=tuple(replace(b, checked=False) for b in t.boxes)) for t in c.tracks
        ),
        taken_here=0,
    )


def end_conflict(conflict: Conflict) -> Conflict:
    """Everyone's stress cleared, consequences kept (with their free invokes)."""
    return replace(conflict, combatants=tuple(clear_stress(c) for c in conflict.combatants))


# -- recovery -------------------------------------------------------------------------------


def recovery_difficulty(severity: Severity, on_self: bool = False) -> int:
    """The recovery overcome's difficulty: Fair, Great, Fantastic; +2 treating yourself.
    An extreme consequence has none: "you can't make a recovery action" for it."""
    if severity == "extreme":
        raise ConflictError("an extreme consequence stays until the next major milestone")
    return RECOVERY_DIFFICULTY[severity] + (SELF_TREATMENT if on_self else 0)


def treat(slot: Slot, result: int, on_self: bool = False) -> Slot:
    """A recovery action's total (an overcome against :func:`recovery_difficulty`):
    reaching the difficulty starts the recovery ("treated"), less changes nothing.
    Reading: a tie counts (an overcome's tie is a success at a minor cost in Core; the
    cost is the table's to narrate)."""
    if slot.free:
        raise ConflictError("there is no consequence in that slot to treat")
    if slot.recovery != "none":
        raise ConflictError(f"{slot.aspect} is already recovering")
    if result >= recovery_difficulty(slot.severity, on_self):
        return replace(slot, recovery="treated")
    return slot


class Recover(Command):
    """A recovery action on a roster character's consequence (SRD, Recovering from a
    Consequence): the overcome's ``total`` against the consequence's difficulty, by
    someone else or (``on_self``) by the character themselves. Played on the roster
    (``CharacterAction``), outside any conflict: "the circumstances have to be
    appropriately free of distraction and tension"."""

    consequence: str
    total: Int
    on_self: bool = False


def recover(slots: Sequence[Slot], action: Recover) -> tuple[Slot, ...]:
    """``slots`` once ``action`` treated the consequence it names (:func:`treat`); a
    total short of the difficulty is refused, saying so (the recovery fails: nothing
    changes on the sheet)."""
    named = [i for i, s in enumerate(slots) if s.aspect == action.consequence.strip()]
    if not named:
        raise UnknownName(f'no consequence "{action.consequence}"')
    i = named[0]
    slot = slots[i]
    needed = recovery_difficulty(slot.severity, action.on_self)
    treated = treat(slot, action.total, action.on_self)
    if treated == slot:
        raise ConflictError(
            f"{ladder_with_value(action.total)} does not reach {ladder_with_value(needed)}: "
            f"the recovery fails, {slot.aspect} stays as it is"
        )
    return tuple(treated if j == i else s for j, s in enumerate(slots))


def rename(slot: Slot, aspect: str) -> Slot:
    """The consequence renamed to show its recovery (Broken Leg to Stuck in a Cast)."""
    if slot.free or not aspect.strip():
        raise ConflictError("a consequence is renamed to a new name")
    return replace(slot, aspect=aspect)


def time_passes(slot: Slot, ended: Period) -> Slot:
    """A slot after a scene, session or scenario ends (a longer one ends the shorter ones
    too). Reading of "wait one whole scene after the recovery action": the end of the
    period the treatment happened in starts the whole period ("healing"); the end of that
    next one clears the slot (its aspect erased, the slot free again)."""
    if slot.recovery == "none" or slot.severity == "extreme":
        return slot
    if _PERIOD_RANK[ended] < _PERIOD_RANK[RECOVERY_WAIT[slot.severity]]:
        return slot
    if slot.recovery == "treated":
        return replace(slot, recovery="healing")
    return Slot(severity=slot.severity, only=slot.only)


def major_milestone(slot: Slot) -> Slot:
    """An extreme consequence's slot is free again after a major milestone (the aspect
    it replaced stays changed on the sheet: that is the sheet's business)."""
    if slot.severity != "extreme":
        return slot
    return Slot(severity="extreme", only=slot.only)


# -- the exchange's turn --------------------------------------------------------------------


def next_turn(conflict: Conflict) -> Conflict:
    """The next participant still in the conflict (a new exchange after the last)."""
    n = len(conflict.combatants)
    turn, exchange = conflict.turn, conflict.exchange
    for _ in range(n):
        turn += 1
        if turn >= n:
            turn, exchange = 0, exchange + 1
        if conflict.combatants[turn].in_conflict:
            break
    return replace(conflict, turn=turn, exchange=exchange)


def ordered(combatants: Sequence[Combatant], order: Sequence[str]) -> tuple[Combatant, ...]:
    """``combatants`` in ``order`` (from :func:`turn_order` or :func:`gm_order`)."""
    by_name = {c.name: c for c in combatants}
    if sorted(by_name) != sorted(order) or len(by_name) != len(combatants):
        raise ConflictError("a turn order names every participant once")
    return tuple(by_name[n] for n in order)
