"""A Fate conflict set up from what the table has: the contest an attack ended (the same
people, sides, fate points, aspects with their free invokes, the GM's pool and the points
still owed: the scene goes on) and the roster (each one's skills, stress tracks and
consequence slots, from their sheet, or by Physique and Will as the rules say)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec.structs import replace

from core.campaign.log import Character
from core.systems.fate.character import fate_sheet
from core.systems.fate.conflict import (
    CORE,
    Conflict,
    ConflictOptions,
    combatant_of,
    gm_order,
    ordered,
    turn_order,
)
from core.systems.fate.conflict_play import FateConflict, new_conflict
from core.systems.fate.state import FateContest, FateParticipant
from core.systems.fate.stress import Kind


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


def _ratings(character: Character | None) -> dict[str, int]:
    return dict(character.ratings) if character is not None else {}
