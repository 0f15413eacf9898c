"""Fate conflict scenarios (``tussle resolve``, ``tussle odds``): a Fate scenario with a
top-level ``conflict`` plays a conflict instead of a contest (README, "Scenario files").

* ``conflict``: ``kind`` ("physical", the default, or "mental"), ``stress`` ("core" or
  "condensed"), ``extreme`` (every character has the extreme slot), ``extra_boxes``,
  ``box_rule`` ("covers" or "next"), ``order`` (the GM's turn order; else by the rules:
  Notice, Athletics, Physique; mental: Empathy, Rapport, Will).
* ``aspects`` (top level, as a contest's): the situation aspects in play.
* each participant: ``name``, ``side``, ``skills`` (``{"Fight": 3}``; a missing skill is
  Mediocre; Physique and Will give the tracks), ``fate_points``.
* each exchange is one action of the conflict, in turn order: ``order`` (a new turn
  order, first), then one of ``concede`` (a name), ``full_defense`` (a name), ``turn``
  (a name, with ``what`` they do) or ``attack`` (``by``, ``target``, ``skill``,
  ``dice``, ``defense``, ``defense_dice``; ``track``, ``bonus``, ``defense_bonus``,
  ``take_boost``, ``boost``, ``invokes``: as a contest's exchange spells them, ``by``,
  ``aspect``, ``free``, ``effect``, ``dice``, on the roll of ``by``'s side), then, for
  a hit, ``absorb`` (``boxes``: the values of the boxes checked, ``consequences``:
  ``[{"severity": "moderate", "name": "Slashed Arm"}]``) or ``"taken_out": true``;
  ``"end": true`` ends it where it stands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from core.model import Command, Contest
from core.rules.base import own
from core.rules.reading import Node, name_in, read_participants
from core.systems.fate.character import FateCharacter
from core.systems.fate.conflict import (
    Absorption,
    Conflict,
    ConflictOptions,
    combatant_of,
    gm_order,
    ordered,
    turn_order,
    usable_slots,
)
from core.systems.fate.conflict_play import (
    Absorb,
    Attack,
    Concede,
    ConflictInvoke,
    EndConflict,
    FateConflict,
    FullDefense,
    SetTurnOrder,
    TakeOut,
    TakeTurn,
    new_conflict,
)
from core.systems.fate.state import FateParticipant
from core.systems.fate.stress import SEVERITIES, Kind, Track

CONFLICT_KEYS = ("kind", "stress", "extreme", "extra_boxes", "box_rule", "order")
ACTION_KEYS = frozenset(
    {"order", "concede", "full_defense", "turn", "what", "attack", "absorb", "taken_out", "end"}
)
ATTACK_KEYS = (
    "by",
    "target",
    "skill",
    "dice",
    "defense",
    "defense_dice",
    "track",
    "bonus",
    "defense_bonus",
    "take_boost",
    "boost",
    "invokes",
)
INVOKE_KEYS = ("by", "aspect", "free", "effect", "dice")  # a contest's (scenario.md)
MOST_EXTRA_BOXES = 10  # a track of 14 boxes at most: more is a typo


def read_conflict(root: Node) -> FateConflict:
    """The starting conflict of a scenario with a ``conflict`` key."""
    node = root.need("conflict")
    node.expect_object()
    node.check_keys(CONFLICT_KEYS)
    mental = node.str_("kind", "physical", ("physical", "mental")) == "mental"
    kind: Kind = "mental" if mental else "physical"
    options = ConflictOptions(
        stress="condensed"
        if node.str_("stress", "core", ("core", "condensed")) == "condensed"
        else "core",
        extreme=node.bool_("extreme", False),
        extra_boxes=_extra_boxes(node),
        box_rule="next"
        if node.str_("box_rule", "covers", ("covers", "next")) == "next"
        else "covers",
    )
    skills: dict[str, dict[str, int]] = {}

    def participant(item: Node, name: str, side: str) -> FateParticipant:
        table = item.get("skills")
        skills[name] = {}
        for skill, value in table.entries() if table is not None else ():
            if not skill.strip():
                value.fail("a skill needs a name")
            skills[name][skill] = value.as_int()
        return FateParticipant(
            name=name,
            side=side,
            skill=0,
            fate_points=item.int_("fate_points", 0, of=FateParticipant),
        )

    participants = read_participants(root, ("skills", "fate_points"), participant)
    combatants = [
        combatant_of(p.name, p.side, skills[p.name], FateCharacter(), options) for p in participants
    ]
    order_node = node.get("order")
    by_rules = turn_order(skills, kind)
    order = by_rules if order_node is None else _order(order_node, by_rules)
    conflict = Conflict(kind=kind, options=options, combatants=ordered(combatants, order))
    return new_conflict(participants, skills, conflict)


def _extra_boxes(node: Node) -> int:
    found = node.get("extra_boxes")
    return 0 if found is None else found.as_int(0, MOST_EXTRA_BOXES)


def _order(node: Node, names: tuple[str, ...]) -> tuple[str, ...]:
    wanted = tuple(name_in(item, names) for item in node.items())
    if sorted(wanted) != sorted(names):
        node.fail("a turn order names every participant once")
    return gm_order(names, wanted)


def action_steps(
    ex: Node,
    current: Callable[[], Contest],
    read_dice: Callable[[Node], tuple[int, ...]],
) -> Iterator[tuple[str, Command]]:
    """One action of a conflict scenario, as commands with their places."""

    def state() -> FateConflict:
        return own(current(), FateConflict)

    names = [p.name for p in state().participants]
    order = ex.get("order")
    if order is not None:
        yield order.place, SetTurnOrder(order=_order(order, tuple(names)))
    concede = ex.get("concede")
    if concede is not None:
        yield concede.place, Concede(who=name_in(concede, names))
    defend = ex.get("full_defense")
    if defend is not None:
        yield defend.place, FullDefense(who=name_in(defend, names))
    turn = ex.get("turn")
    if turn is not None:
        what = ex.get("what")
        yield (
            turn.place,
            TakeTurn(who=name_in(turn, names), what="" if what is None else what.as_str()),
        )
    attack = ex.get("attack")
    if attack is not None:
        yield attack.place, _attack(attack, names, read_dice, state())
    absorb = ex.get("absorb")
    if absorb is not None:
        yield absorb.place, _absorb(absorb, state())
    taken = ex.get("taken_out")
    if taken is not None and taken.as_bool():
        hit = state().hit
        yield taken.place, TakeOut(who=hit.target if hit is not None else "")
    end = ex.get("end")
    if end is not None and end.as_bool():
        yield end.place, EndConflict()


def _attack(
    node: Node, names: list[str], read_dice: Callable[[Node], tuple[int, ...]], c: FateConflict
) -> Attack:
    node.expect_object()
    node.check_keys(ATTACK_KEYS)
    boost = node.get("boost")
    invokes = node.get("invokes")
    return Attack(
        by=name_in(node.need("by"), names),
        target=name_in(node.need("target"), names),
        skill=node.need("skill").as_nonempty_str(),
        faces=read_dice(node.need("dice")),
        defense=node.need("defense").as_nonempty_str(),
        defense_faces=read_dice(node.need("defense_dice")),
        track=node.str_("track", "physical"),
        bonus=node.int_("bonus", 0, of=Attack),
        defense_bonus=node.int_("defense_bonus", 0, of=Attack),
        take_boost=node.bool_("take_boost", False),
        boost="" if boost is None else boost.as_nonempty_str(),
        invokes=tuple(_invoke(item, names, read_dice, c) for item in _list(invokes)),
    )


def _invoke(
    node: Node, names: list[str], read_dice: Callable[[Node], tuple[int, ...]], c: FateConflict
) -> ConflictInvoke:
    """An invoke on the attack's rolls, spelt as a contest's (scenario.md): on the roll
    of ``by``'s side, an aspect in play as the attack is made; ``free`` a free invoke,
    else a fate point of ``by``'s; ``effect`` "+2" or "reroll" with the new ``dice``."""
    node.expect_object()
    node.check_keys(INVOKE_KEYS)
    aspect = name_in(node.need("aspect"), [a.name for a in c.aspects], "aspect in play")
    effect = node.str_("effect", "+2", ("+2", "reroll"))
    return ConflictInvoke(
        by=name_in(node.need("by"), names),
        aspect=aspect,
        effect="reroll" if effect == "reroll" else "+2",
        faces=read_dice(node.need("dice")) if effect == "reroll" else None,
        free=node.bool_("free", False),
    )


def _absorb(node: Node, c: FateConflict) -> Absorb:
    """``absorb``: the values of the boxes to check and the consequences to take, each
    matched to the first free box of that value and the first free slot of that
    severity the hit may fill."""
    node.expect_object()
    node.check_keys(("boxes", "consequences"))
    hit = c.hit
    if hit is None:
        node.fail("no hit is waiting to be absorbed")
    target = c.conflict.combatant(hit.target)
    track: Track = target.track(hit.track)
    boxes: list[int] = []
    for item in _list(node.get("boxes")):
        value = item.as_int(1)
        free = [
            i
            for i, b in enumerate(track.boxes)
            if b.value == value and not b.checked and i not in boxes
        ]
        if not free:
            item.fail(f"{hit.target} has no free {value}-box on the {hit.track} track")
        boxes.append(free[0])
    slots: list[int] = []
    names: list[str] = []
    usable = usable_slots(target, hit.track)
    for item in _list(node.get("consequences")):
        item.expect_object()
        item.check_keys(("severity", "name"))
        severity = item.need("severity").as_str(SEVERITIES)
        free = [i for i in usable if target.slots[i].severity == severity and i not in slots]
        if not free:
            item.fail(f"{hit.target} has no free {severity} consequence slot for this hit")
        slots.append(free[0])
        names.append(item.need("name").as_nonempty_str())
    return Absorb(
        who=hit.target,
        absorption=Absorption(track=hit.track, boxes=tuple(boxes), slots=tuple(slots)),
        names=tuple(names),
    )


def _list(node: Node | None) -> Iterator[Node]:
    if node is None:
        return iter(())
    return node.items()
