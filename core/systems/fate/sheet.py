"""Fate Core around a contest: a character's skills on the ladder, fate points and refresh;
setting a contest up from the roster, what it leaves (fate points, §1.4.1), a session's
refresh, compels outside a contest, and the costs the summary lists."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from core.campaign.log import Character
from core.campaign.sheet import Change, Demo, Pick, SystemSheet, options
from core.campaign.state import CampaignState, ContestRecord
from core.errors import RuleError
from core.limits import written_whole
from core.model import Command, Contest, Event, Participant
from core.systems.fate.character import FateCharacter, fate_sheet, with_fate
from core.systems.fate.conflict import (
    Recover,
    character_slots,
    recover,
    time_passes,
)
from core.systems.fate.conflict_play import ConflictEnded, ConflictParticipant, FateConflict
from core.systems.fate.conflict_setup import conflict_from, order_words, seats, split_options
from core.systems.fate.events import AspectInvoked, FatePointAwarded, PoolPaid
from core.systems.fate.ladder import LADDER, ladder_with_value
from core.systems.fate.scoring import FateOptions
from core.systems.fate.state import Aspect, FateContest, FateParticipant, new_contest
from core.systems.fate.stress import RECOVERY_WAIT, Period, Slot

NO_SKILL = 0  # Mediocre (+0)
ROSTER_FILE = "core.systems.fate.roster_file:FORMAT"  # its roster files (core.campaign.roster_file)
QUICK_ROLL = "core.systems.fate.quick_roll"  # 4dF+3, 4dF+3 vs 2 (core.campaign.quick_roll)


def rating_label(value: int) -> str:
    return ladder_with_value(value)


def typed_rating(text: str) -> int:
    """A rating as anybody types or writes it, the one reading every layer uses (the
    roster's form and files, the setup, difficulties, quick rolls, an advantage's total):
    a ladder name ("Great", any case), "Legendary+2", or a number ("+4", "-1", "−1")."""
    word = text.strip()
    names = {name.lower(): value for value, name in LADDER.items()}
    if word.lower() in names:
        return names[word.lower()]
    if word.lower().startswith("legendary+") and word[10:].isdigit() and len(word) < 20:
        return 8 + int(word[10:])
    try:
        value = written_whole(word)
    except ValueError as too_large:  # a number, only too large: said so, not "no number"
        raise RuleError(str(too_large)) from None
    if value is not None:
        return value
    raise RuleError(f'"{text}" is neither a ladder name (Fair, Great...) nor a number')


def difficulty(text: str) -> int:
    """A passive difficulty by ladder name or number: "Great", "+4", "-1", "Legendary+2"
    (:func:`typed_rating`)."""
    return typed_rating(text)


def describe_options(opts: Mapping[str, Any]) -> list[str]:
    rest, kind, order = split_options(opts)
    if kind is not None:  # a conflict from the setup: the contest's options do not apply
        seated = ", ".join(order) if order else order_words(kind)
        return [f"a {kind} conflict, turn order {seated}"]
    f = options(FateOptions, rest)
    victories = "victory" if f.victories_needed == 1 else "victories"
    out = [
        f"environment vs {ladder_with_value(f.difficulty or 0)}"
        if f.mode == "environment"
        else "direct",
        f"first to {f.victories_needed} {victories}",
        f"style at {f.style_threshold} shifts"
        + (" (two victories whenever)" if f.style_clause == "fae" else ""),
    ]
    if f.teamwork_cap == "lead_skill":
        out.append("teamwork capped at the lead's skill")
    if f.failed_advantage == "cost":
        out.append("a failed advantage succeeds at a cost")
    if f.mode == "environment" and f.environment_requires_success:
        out.append("nobody scores below 0 shifts")
    return out


def build_contest(
    chosen: Sequence[tuple[Pick, Character]],
    opts: Mapping[str, Any],
    situation_aspects: Sequence[str],
) -> Contest:
    participants = [
        FateParticipant(
            name=c.name,
            side=p.side,
            skill=p.rating_of(c, NO_SKILL),
            fate_points=fate_sheet(c).fate_points,
        )
        for p, c in chosen
    ]
    aspects: dict[str, Aspect] = {}  # one aspect per name: the first stands
    for a in situation_aspects:
        aspects.setdefault(a, Aspect(name=a))
    for _, c in chosen:
        for a in fate_sheet(c).aspects:
            aspects.setdefault(a, Aspect(name=a, owner=c.name))
    rest, kind, order = split_options(opts)
    if kind is None and rest.get("mode") == "environment" and rest.get("difficulty") is None:
        raise RuleError("an environment contest needs a difficulty")
    contest = new_contest(participants, list(aspects.values()), options(FateOptions, rest))
    if kind is None:
        return contest
    # A conflict from the setup (issue 28): the same people, fate points and aspects,
    # each one's skills, tracks and slots from the roster, the turn order by the rules
    # for the harm or the GM's.
    if contest.options.mode == "environment":
        raise RuleError("a conflict is fought between sides, not against a difficulty")
    roster = {c.name: c for _, c in chosen}
    seated = seats([p.name for p in participants], roster, kind, order)
    return conflict_from(contest, roster, kind, order=seated)


def rolled(participant: Participant) -> int | None:
    """A contest's skill; a conflict's participant rolls a skill per action, and its
    ``skill`` is the contest's an attack ended, 0 (Mediocre) when there was none: no
    one rating then (a typed Mediocre and none are the same number)."""
    assert isinstance(participant, FateParticipant | ConflictParticipant)
    if isinstance(participant, ConflictParticipant) and participant.skill == 0:
        return None
    return participant.skill


def newcomer(participant: Participant) -> Character:
    """An NPC for a recorded scenario's participant the roster lacks: its skill (as
    "Skill"; a conflict's participant: their skills) and fate points."""
    assert isinstance(participant, FateParticipant | ConflictParticipant)
    skills = participant.skills if isinstance(participant, ConflictParticipant) else {}
    return Character(
        name=participant.name,
        kind="npc",
        ratings=dict(skills) if skills else {"Skill": participant.skill},
        sheet=FateCharacter(fate_points=participant.fate_points),
    )


def write_back(campaign: CampaignState, record: ContestRecord) -> Iterator[Change]:
    """Each participant's fate points as the contest left them (as a difference), and the
    points owed for invokes on their aspects (§1.4.1: "usable only after the scene").

    Writing the results back is the GM closing the scene. A contest that ended with a
    side's victories ended its scene, and credited the owners among the participants as
    it ended (they are in the difference); one that an attack ended (the scene goes on
    as a conflict) still owes them: they are credited now. Owners who were not in the
    contest are credited now either way."""
    state = record.state
    assert isinstance(state, FateContest | FateConflict)
    start = {p.name: p for p in record.start.participants}
    if isinstance(state, FateConflict):
        yield from _scars(campaign, state)
    yield from _scene_ends(campaign)
    for p in state.participants:
        delta = getattr(p, "fate_points", 0) - getattr(start[p.name], "fate_points", 0)
        delta += state.owed.get(p.name, 0)  # an attack ended it: owed until now
        if delta:
            yield (
                p.name,
                lambda c, d=delta: with_fate(c, fate_points=max(0, fate_sheet(c).fate_points + d)),
            )
    owed = Counter(
        e.paid_to
        for e in campaign.contest_log(record.contest_id)[1]
        if isinstance(e, AspectInvoked) and e.paid_to and e.paid_to not in start
    )
    for name, count in owed.items():
        yield name, lambda c, n=count: with_fate(c, fate_points=fate_sheet(c).fate_points + n)


def _scars(campaign: CampaignState, state: FateConflict) -> Iterator[Change]:
    """What a conflict leaves on each roster character's sheet: the consequences in their
    slots (they stay, and recover later), and the tracks the sheet names itself, with
    their stress cleared (SRD: stress clears after the conflict). A sheet whose slots
    the rules derive keeps deriving them until a consequence is written in one."""
    for combatant in state.conflict.combatants:
        character = campaign.roster.get(combatant.name)
        if character is None:
            continue
        sheet = fate_sheet(character)
        derived = character_slots(character.ratings, sheet, state.conflict.options)
        slots = combatant.slots if combatant.slots != derived else sheet.consequences
        named = {t.name: t for t in combatant.tracks}
        stress = tuple(named.get(t.name, t) for t in sheet.stress)
        if (slots, stress) != (sheet.consequences, sheet.stress):
            yield (
                combatant.name,
                lambda c, s=slots, t=stress: with_fate(c, consequences=s, stress=t),
            )


def _scene_ends(campaign: CampaignState) -> Iterator[Change]:
    """Writing a contest back closes its scene: a mild consequence recovering waits a
    whole scene (SRD, Recovering from a Consequence), so each roster character's
    recovering milds move on (:func:`_time_passes`)."""
    for name, character in campaign.roster.items():
        slots = fate_sheet(character).consequences
        if slots is not None and slots != _slots_after(slots, "scene"):
            yield name, lambda c: _time_passes(c, "scene")


def _slots_after(slots: tuple[Slot, ...], ended: Period) -> tuple[Slot, ...]:
    return tuple(time_passes(s, ended) for s in slots)


def _time_passes(character: Character, ended: Period) -> dict[str, Any]:
    """The change to ``character`` once a scene, session or scenario ends: each
    consequence recovering a step on (``conflict.time_passes``: the end of the period
    the recovery action was made in begins the whole period it waits; the end of that
    one clears it)."""
    slots = fate_sheet(character).consequences
    if slots is None:
        return {}
    return with_fate(character, consequences=_slots_after(slots, ended))


def new_session(character: Character, reset: int | None) -> Character:
    """A PC's fate points back up to their refresh (never down: Fate Core); each
    consequence recovering a step on, as a session ends (a moderate clears a whole
    session after its recovery action; a mild a whole scene after it)."""
    character = replace(character, **_time_passes(character, "session"))
    sheet = fate_sheet(character)
    if character.kind == "pc" and sheet.fate_points < sheet.refresh:
        return replace(character, **with_fate(character, fate_points=sheet.refresh))
    return character


def end_scenario(character: Character) -> Character:
    """Each consequence recovering a step on, as a scenario ends (a severe clears a
    whole scenario after its recovery action; a scenario's end ends its session too)."""
    return replace(character, **_time_passes(character, "scenario"))


def act(character: Character, action: Command) -> Character:
    """A recovery action (:class:`conflict.Recover`) on one of ``character``'s
    consequences: it is marked recovering, or refused when the total falls short."""
    if not isinstance(action, Recover):
        raise RuleError(f"{type(action).__name__} is not a Fate action on a character")
    sheet = fate_sheet(character)
    slots = recover(character_slots(character.ratings, sheet), action)
    return replace(character, **with_fate(character, consequences=slots))


_WHEN = {
    "scene": "at the next scene's end (a contest written back, or S)",
    "session": "at the next session's end (S)",
    "scenario": "at the next scenario's end (E)",
}


def session_news(old: Character, new: Character) -> list[str]:
    """Fate points refreshed; a consequence recovering (a recovery action), a step on,
    or cleared."""
    out: list[str] = []
    points = fate_sheet(new).fate_points
    if points != fate_sheet(old).fate_points:
        out.append(f"{new.name} refreshed to {_points(points)}")
    before = fate_sheet(old).consequences or ()
    after = fate_sheet(new).consequences or ()
    for was, now in zip(before, after, strict=False):
        if was.aspect is not None and now.free:
            out.append(f"{new.name}'s {was.aspect} ({was.severity}) has cleared")
        elif was.recovery == "none" and now.recovery == "treated":
            period = RECOVERY_WAIT[now.severity]
            out.append(
                f"{new.name}'s {now.aspect} ({now.severity}) is recovering: it clears "
                f"a whole {period} after this one"
            )
        elif was.recovery == "treated" and now.recovery == "healing":
            when = _WHEN[RECOVERY_WAIT[now.severity]]
            out.append(f"{new.name}'s {now.aspect} ({now.severity}) clears {when}")
    return out


def award(character: Character) -> Character:
    return replace(
        character, **with_fate(character, fate_points=fate_sheet(character).fate_points + 1)
    )


def _points(n: int) -> str:
    return f"{n} fate point{'s' if n != 1 else ''}"


def costs(record: ContestRecord, events: Sequence[Event]) -> Iterator[str]:
    """Fate points spent and paid, free invokes used, compels, and the GM's pool: what
    it paid (invokes, by NPC; other spending, by reason), what compels added, what is
    left of what the scene started with."""
    paid: Counter[str] = Counter()
    owed: Counter[str] = Counter()
    free: Counter[str] = Counter()
    pool_invokes: Counter[str] = Counter()
    pool_other: Counter[str] = Counter()
    awarded: Counter[str] = Counter()
    pool_awarded: Counter[str] = Counter()
    for e in events:
        if isinstance(e, AspectInvoked):
            if e.invoke.pool:
                pool_invokes[e.invoke.by] += 1
            elif e.paid_by:
                paid[e.paid_by] += 1
            else:
                free[e.invoke.by] += 1
            if e.paid_to:
                owed[e.paid_to] += 1
        elif isinstance(e, PoolPaid):
            what = " ".join(w for w in (e.by, e.reason) if w) or "outside an invoke"
            pool_other[what] += e.count
        elif isinstance(e, FatePointAwarded):
            (pool_awarded if e.pool else awarded)[e.who] += 1
    for name, n in paid.items():
        yield f"{name} spent {_points(n)}"
    for name, n in free.items():
        yield f"{name} used {n} free invoke{'s' if n != 1 else ''}"
    waiting = dict(getattr(record.state, "owed", {}))  # an attack ended it: the scene goes on
    for name, n in owed.items():
        if waiting.get(name):
            yield (
                f"{name} is owed {_points(n)} for invokes on their aspects "
                "(after the scene: when the results are written back)"
            )
        else:
            yield f"{name} is paid {_points(n)} for invokes on their aspects"
    for name, n in awarded.items():
        yield f"{name} gained {_points(n)} from compels"
    for e in events:
        if isinstance(e, ConflictEnded):
            for name, n in e.paid.items():
                yield f"{name} is paid {_points(n)} for conceding"
    for name, n in pool_invokes.items():
        yield f"The GM's pool paid {_points(n)} for {name}'s invokes"
    for what, n in pool_other.items():
        yield f"The GM's pool paid {_points(n)}: {what}"
    for name, n in pool_awarded.items():
        yield f"The GM's pool gained {_points(n)} from compels on {name}"
    start = getattr(record.start, "gm_pool", 0)
    spent = sum(pool_invokes.values()) + sum(pool_other.values())
    if start or spent or pool_awarded:
        yield f"The GM's pool: {start} at the start, {spent} paid, {record.pool_left} left"


def demo() -> Demo:
    """Cynere against Teran across the mud (the Fate SRD's contest)."""
    cynere = Character(
        name="Cynere",
        ratings={"Athletics": 4, "Fight": 4, "Burglary": 3},
        sheet=FateCharacter(aspects=("I've Got Zird's Back",), fate_points=3, refresh=3),
    )
    teran = Character(name="Teran the Swift", kind="npc", ratings={"Lore": 3, "Athletics": 2})
    return Demo(
        characters=(cynere, teran),
        title="The race across the mud",
        picks=(
            Pick(character="Cynere", side="Cynere", rating="Athletics"),
            Pick(character="Teran the Swift", side="Teran the Swift", rating="Lore"),
        ),
        aspects=("Muddy Ground",),
    )


class FateSheet(SystemSheet):
    """Fate's :class:`core.campaign.sheet.SystemSheet`: the functions above."""

    NO_SKILL = NO_SKILL
    CHARACTER = FateCharacter
    ROSTER_FILE = ROSTER_FILE
    QUICK_ROLL = QUICK_ROLL
    rating_label = staticmethod(rating_label)
    typed_rating = staticmethod(typed_rating)
    describe_options = staticmethod(describe_options)
    build_contest = staticmethod(build_contest)
    rolled = staticmethod(rolled)
    newcomer = staticmethod(newcomer)
    write_back = staticmethod(write_back)
    new_session = staticmethod(new_session)
    session_news = staticmethod(session_news)
    end_scenario = staticmethod(end_scenario)
    act = staticmethod(act)
    award = staticmethod(award)
    costs = staticmethod(costs)
    demo = staticmethod(demo)


SHEET = FateSheet()
