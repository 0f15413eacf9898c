"""A Fate conflict set up from what the table has: the contest an attack ended (the same
people, sides, fate points, aspects with their free invokes, the GM's pool and the points
still owed: the scene goes on) and the roster (each one's skills, stress tracks and
consequence slots, from their sheet, or by Physique and Will as the rules say)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from core.campaign.log import Character
from core.errors import RuleError
from core.systems.fate.character import fate_sheet
from core.systems.fate.conflict import (
    CORE,
    TURN_ORDER_SKILLS,
    Conflict,
    ConflictOptions,
    combatant_of,
    gm_order,
    ordered,
    turn_order,
)
from core.systems.fate.conflict_play import FateConflict, new_conflict
from core.systems.fate.state import FateContest, FateParticipant
from core.systems.fate.stress import KINDS, Kind

# The setup's options (beside the contest's own) that make it a conflict from the start
# (issue 28: "n → conflict in setup"): the harm, "physical" or "mental", which sets the
# turn order by the rules; and the GM's own turn order (every participant once).
CONFLICT_OPTION = "conflict"
ORDER_OPTION = "order"


def conflict_from(
    contest: FateContest,
    roster: Mapping[str, Character],
    kind: Kind = "physical",
    options: ConflictOptions = CORE,
    order: Sequence[str] | None = None,
) -> FateConflict:
    """The conflict ``contest`` becomes (SRD, Conflicts; rules §1.3: an attack ends a
    contest as a conflict). Each participant as the contest left them (fate points),
    with their roster skills and sheet (one not on the roster: no skills, Fate Core's
    tracks for Mediocre Physique and Will); the turn order by the rules for ``kind``,
    or the GM's ``order``."""
    skills = {p.name: _ratings(roster.get(p.name)) for p in contest.participants}
    combatants = [
        combatant_of(
            p.name,
            p.side,
            skills[p.name],
            fate_sheet(roster[p.name]) if p.name in roster else fate_sheet(Character(name="")),
            options,
        )
        for p in contest.participants
    ]
    by_rules = turn_order(skills, kind)
    seats = gm_order(by_rules, order) if order is not None else by_rules
    conflict = Conflict(kind=kind, options=options, combatants=ordered(combatants, seats))
    started = new_conflict(contest.participants, skills, conflict, contest.aspects)
    return replace(
        started,
        owed=dict(contest.owed),
        gm_pool=contest.gm_pool,
        npcs=contest.npcs,
    )


def conflict_of(
    participants: Sequence[FateParticipant],
    roster: Mapping[str, Character],
    kind: Kind = "physical",
    options: ConflictOptions = CORE,
) -> FateConflict:
    """A conflict set up directly (no contest before it): the participants' sides and
    fate points, as a contest would have them."""
    return conflict_from(FateContest(participants=tuple(participants)), roster, kind, options)


def split_options(
    opts: Mapping[str, Any],
) -> tuple[dict[str, Any], Kind | None, tuple[str, ...] | None]:
    """A setup's options: the contest's own, and (None: a contest) the conflict's harm
    and the GM's turn order (None: by the rules)."""
    rest = dict(opts)
    kind = rest.pop(CONFLICT_OPTION, None)
    order = rest.pop(ORDER_OPTION, None)
    if kind is None:
        return rest, None, None
    if kind not in KINDS:
        raise RuleError(f'a conflict\'s harm is "physical" or "mental", not "{kind}"')
    chosen: Kind = "mental" if kind == "mental" else "physical"
    return rest, chosen, tuple(order) if order else None


def seats(
    names: Sequence[str],
    roster: Mapping[str, Character],
    kind: Kind,
    order: Sequence[str] | None = None,
) -> tuple[str, ...]:
    """The turn order of ``names`` in a ``kind`` conflict: the GM's ``order``, or the
    rules' (SRD, Turn Order: Notice, then Athletics, then Physique; mental: Empathy,
    Rapport, Will; each from the roster, a skill missing Mediocre)."""
    by_rules = turn_order({n: _ratings(roster.get(n)) for n in names}, kind)
    if order is None:
        return by_rules
    if sorted(order) != sorted(names):
        raise RuleError(
            f"the turn order ({', '.join(order)}) does not name the participants "
            f"({', '.join(by_rules)}) each once: set it again"
        )
    return tuple(order)


def order_words(kind: Kind) -> str:
    """``by Notice, then Athletics, then Physique``: the rules' turn order for ``kind``."""
    first, second, third = TURN_ORDER_SKILLS[kind]
    return f"by {first}, then {second}, then {third}"


def _ratings(character: Character | None) -> dict[str, int]:
    return dict(character.ratings) if character is not None else {}
