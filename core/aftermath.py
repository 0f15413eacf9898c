"""After a contest and between sessions.

What a finished contest leaves on the roster (rules §1.4.1 fate points, §2.6 states of
adversity and lingering benefits, §3.4 trauma and armor), what starting a session changes,
and the summary the GM reads at a contest's end. Pure functions over the campaign: the
campaign turns their answers into events (``WriteBack``, ``StartSession``), so they are
saved and undone like any other GM action.

Results are written as *differences* between the contest's start and its end, added to the
roster as it stands: a fate point the roster gained meanwhile (a compel outside the
contest) is kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from typing import Any

from core.campaign_state import (
    CampaignState,
    Character,
    CharacterUpdated,
    ContestRecord,
    ResultsWritten,
    SessionStarted,
    SettingsChanged,
    now,
)
from core.errors import RuleError
from core.model import Event
from core.rules import find_system

ADVERSITY_PENALTY = {"hurt": 3, "impaired": 6}  # §2.6, to every later use of an ability
NO_ACTIONS = ("dying", "dead")  # §2.6: "no actions"
# §2.8 rising action: the loser's state and the victory level by final difference 1..9+.
EXTENDED_STATES: tuple[str, ...] = ("hurt", "hurt", "impaired", "impaired", "injured")
EXTENDED_STATES += ("injured", "dying", "dead", "dead")
EXTENDED_LEVELS = (1, 1, 2, 2, 3, 3, 4, 4, 4)


# -- HeroQuest: what earlier contests left on a character ------------------------------------


def hq_condition(character: Character, ability: str | None) -> tuple[int, int]:
    """``(condition, bumps_down)`` for ``character`` rolling ``ability``: its lingering
    benefit with that ability, less 3 per hurt and 6 per impairment; a bump down per
    injury. A dying (or dead) character takes no actions: ``RuleError``."""
    for state in NO_ACTIONS:
        if state in character.adversity:
            raise RuleError(
                f"{character.name} is {state}: no actions (rules §2.6); "
                "heal them on the roster first"
            )
    penalty = sum(ADVERSITY_PENALTY.get(s, 0) for s in character.adversity)
    benefit = character.benefits.get(ability, 0) if ability else 0
    return benefit - penalty, character.adversity.count("injured")


# -- writing a contest back ------------------------------------------------------------------


def results(campaign: CampaignState, record: ContestRecord) -> list[Character]:
    """The roster characters a finished contest changes, as they become (unchanged ones
    are left out; participants not on the roster are skipped)."""
    writer = {"fate": _fate, "heroquest": _heroquest, "forge": _forge}[record.state.system]
    now: dict[str, Character] = {}
    for name, changes in writer(campaign, record):
        if name not in campaign.roster:
            continue
        character = now.get(name, campaign.roster[name])
        now[name] = replace(character, **changes(character))
    return [c for name, c in now.items() if c != campaign.roster[name]]


Change = tuple[str, Any]  # (character name, function: Character -> fields to replace)


def _fate(campaign: CampaignState, record: ContestRecord) -> Iterator[Change]:
    from core.systems.fate import AspectInvoked

    start = {p.name: p for p in record.start.participants}
    for p in record.state.participants:
        delta = getattr(p, "fate_points", 0) - getattr(start[p.name], "fate_points", 0)
        if delta:
            yield p.name, lambda c, d=delta: {"fate_points": max(0, c.fate_points + d)}
    # Fate points paid to owners who were not in the contest (a participant's were
    # credited when the contest ended, so they are in the difference above).
    owed = Counter(
        e.paid_to
        for e in campaign.contest_log(record.contest_id)[1]
        if isinstance(e, AspectInvoked) and e.paid_to and e.paid_to not in start
    )
    for name, count in owed.items():
        yield name, lambda c, n=count: {"fate_points": c.fate_points + n}


def _heroquest(campaign: CampaignState, record: ContestRecord) -> Iterator[Change]:
    from core.systems import heroquest as hq

    state = record.state
    assert isinstance(state, hq.HQContest)
    for p in state.participants:
        delta = state.hero_points_left.get(p.name, p.hero_points) - p.hero_points
        if delta:
            yield p.name, lambda c, d=delta: {"hero_points": max(0, c.hero_points + d)}
    states: dict[str, list[str]] = {}
    benefits: Counter[str] = Counter()
    if state.options.extended and state.winner is not None:
        points = state.resolution_points
        difference = points.get(state.winner, 0) - max(
            (v for side, v in points.items() if side != state.winner), default=0
        )
        step = min(max(difference, 1), len(EXTENDED_STATES)) - 1
        for p in state.participants:
            if p.side != state.winner:
                states.setdefault(p.name, []).append(EXTENDED_STATES[step])
            else:
                benefits[p.name] += hq.BENEFITS[EXTENDED_LEVELS[step]]
                if difference == 1:
                    states.setdefault(p.name, []).append("hurt")
    else:  # a simple contest, or a chain of them: each exchange leaves its own (§2.9)
        for e in record.exchanges:
            assert isinstance(e, hq.ExchangeResolved)
            for name, st in e.consequence.items():
                if st:
                    states.setdefault(name, []).append(st)
            benefits.update({n: b for n, b in e.benefit.items() if b})
    losers = {p.name for p in state.participants if state.winner and p.side != state.winner}
    for name in {*states, *benefits, *losers}:
        ability = record.uses.get(name)

        def change(c: Character, name: str = name, ability: str | None = ability) -> dict[str, Any]:
            kept = dict(c.benefits)
            if name in losers and ability:  # a benefit lasts until a defeat using it
                kept.pop(ability, None)
            if benefits[name] and ability:  # and several add up
                kept[ability] = kept.get(ability, 0) + benefits[name]
            return {"adversity": (*c.adversity, *states.get(name, ())), "benefits": kept}

        yield name, change


def _forge(campaign: CampaignState, record: ContestRecord) -> Iterator[Change]:
    from core.systems.forge import ForgeContest

    state = record.state
    assert isinstance(state, ForgeContest)
    start = {p.name: p for p in record.start.participants}
    for p in state.participants:
        taken = state.trauma.get(p.name, 0)
        if taken:
            yield p.name, lambda c, t=taken: {"trauma": c.trauma + t}
        left = state.armor_left.get(p.name)
        used = (getattr(start[p.name], "armor_capacity", 0) or 0) - left if left is not None else 0
        if used:
            yield p.name, lambda c, u=used: {"armor_capacity": max(0, c.armor_capacity - u)}


# -- a session -------------------------------------------------------------------------------


def session_events(campaign: CampaignState, hero_points: int | None = None) -> tuple[Event, ...]:
    """Starting a session: the recap's mark, the session count, each PC's fate points
    refreshed (up to their refresh, never down: Fate Core), HeroQuest hero points reset
    to ``hero_points`` where the table does that, and hurts recovering (§2.6)."""
    before = campaign.settings.get("sessions")
    played = before if isinstance(before, int) and not isinstance(before, bool) else 0
    events: list[Event] = [
        SessionStarted(number=len(campaign.sessions) + 1, at=now()),
        SettingsChanged(changes={"sessions": played + 1}, before={"sessions": before}),
    ]
    for c in campaign.roster.values():
        new = c
        if campaign.system == "fate" and c.kind == "pc" and c.fate_points < c.refresh:
            new = replace(new, fate_points=c.refresh)
        if campaign.system == "heroquest":
            if hero_points is not None and c.kind == "pc":
                new = replace(new, hero_points=hero_points)
            if "hurt" in c.adversity:
                new = replace(new, adversity=tuple(s for s in c.adversity if s != "hurt"))
        if new != c:
            events.append(CharacterUpdated(name=c.name, character=new))
    return tuple(events)


# -- the summary at a contest's end ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Summary:
    """What the end-of-contest screen shows."""

    title: str
    result: str  # who won, by how much
    costs: tuple[str, ...]  # points spent and paid, damage taken
    exchanges: tuple[str, ...]  # one line each
    roster: tuple[str, ...]  # what writing back changes (or changed)
    written: bool


LABELS = {
    "fate_points": "fate points",
    "hero_points": "hero points",
    "armor_capacity": "armor capacity",
    "trauma": "trauma",
    "adversity": "adversity",
    "benefits": "lingering benefits",
}


def differences(old: Character, new: Character) -> str:
    """``Cynere: fate points 3 → 1`` for what changed between two versions."""

    def shown(value: Any) -> str:
        if isinstance(value, tuple):
            return ", ".join(value) or "none"
        if isinstance(value, dict):
            return ", ".join(f"{k} +{v}" for k, v in value.items()) or "none"
        return str(value)

    parts = []
    for f in fields(new):
        was, now = getattr(old, f.name), getattr(new, f.name)
        if was != now:
            parts.append(f"{LABELS.get(f.name, f.name)} {shown(was)} → {shown(now)}")
    return f"{new.name}: {'; '.join(parts)}"


def summary(campaign: CampaignState, record: ContestRecord) -> Summary:
    rules = find_system(record.state.system)
    state = record.state
    roster: tuple[str, ...] = ()
    if state.finished and not record.written:
        roster = tuple(differences(campaign.roster[c.name], c) for c in results(campaign, record))
    elif record.written:
        roster = tuple(_written(campaign, record))
    return Summary(
        title=record.title,
        result=_result(record),
        costs=tuple(_costs(campaign, record)),
        exchanges=tuple(rules.describe(e)[0] for e in record.exchanges),
        roster=roster,
        written=record.written,
    )


def _written(campaign: CampaignState, record: ContestRecord) -> Iterator[str]:
    for action_id in campaign.done:
        events = campaign.actions[action_id].events
        if any(isinstance(e, ResultsWritten) and e.contest_id == record.contest_id for e in events):
            before = campaign.roster_before(action_id)
            for e in events:
                if isinstance(e, CharacterUpdated) and e.name in before:
                    yield differences(before[e.name], e.character)


def _result(record: ContestRecord) -> str:
    state = record.state
    ended_by = getattr(state, "ended_by", None)
    if ended_by == "attack":
        return (
            "An attack ended the contest: it escalates to a conflict (rules §1.3). "
            "The contest is kept as it stood."
        )
    how = {"leave": ", the other party left", "gm": ", closed by the GM"}.get(ended_by or "", "")
    if state.finished and state.winner is not None:
        return f"{state.winner} won{final_score(record)}{how}"
    score = _standing(record)
    if not state.finished:
        return f"Not over yet ({score})" if score else "Not over yet"
    return f"Nobody won ({score})" if score else "Nobody won"


def _counts(record: ContestRecord) -> tuple[dict[str, int], str] | None:
    """Each side's count (victories, resolution points, stages won) and its unit."""
    state = record.state
    for attr, unit in (
        ("victories", "victories"),
        ("resolution_points", "resolution points"),
        ("stage_wins", "stages"),
    ):
        values = getattr(state, attr, None)
        if values:
            return {s: values.get(s, 0) for s in state.sides}, unit
    return None


def final_score(record: ContestRecord) -> str:
    """What the winner won by, to follow their name: ``, 3 victories to 2`` (the
    winner's count first, then the others' in side order), `` (major victory)`` for a
    HeroQuest simple contest, nothing when there is nothing to count."""
    state = record.state
    counts = _counts(record)
    if counts is not None and state.winner in counts[0]:
        values, unit = counts
        others = [str(v) for s, v in values.items() if s != state.winner]
        return f", {values[state.winner]} {unit} to {' and '.join(others)}"
    if record.exchanges:  # a HeroQuest simple contest: its one exchange's level
        e = record.exchanges[-1]
        victory = getattr(e, "victory", None)
        if victory:
            from core.systems.heroquest import VICTORIES

            return f" ({VICTORIES[victory]} victory)"
    return ""


def _standing(record: ContestRecord) -> str:
    """With no winner, each side's count by name: ``victories: Cynere 2, Teran 2``."""
    counts = _counts(record)
    if counts is None:
        return ""
    values, unit = counts
    return f"{unit}: " + ", ".join(f"{s} {v}" for s, v in values.items())


def _costs(campaign: CampaignState, record: ContestRecord) -> Iterator[str]:
    state = record.state
    events = campaign.contest_log(record.contest_id)[1]
    if state.system == "fate":
        yield from _fate_costs(record, events)
    elif state.system == "heroquest":
        spent: Counter[str] = Counter()
        for e in record.exchanges:
            spent.update(getattr(e, "hero_points", {}))
        for name, n in spent.items():
            yield f"{name} spent {n} hero point{'s' if n != 1 else ''}"
    else:
        from core.systems.forge import ExchangeResolved

        for name, taken in getattr(state, "trauma", {}).items():
            if taken:
                yield f"{name} took {taken} trauma"
        absorbed: Counter[str] = Counter()
        for e in record.exchanges:
            if isinstance(e, ExchangeResolved) and e.absorbed:
                absorbed[e.reactor] += e.absorbed
        for name, n in absorbed.items():
            yield f"{name}'s armor absorbed {n}"


def _points(n: int) -> str:
    return f"{n} fate point{'s' if n != 1 else ''}"


def _fate_costs(record: ContestRecord, events: list[Event]) -> Iterator[str]:
    """Fate points spent and paid, free invokes used, compels, and the GM's pool: what
    it paid (invokes, by NPC; other spending, by reason), what compels added, what is
    left of what the scene started with."""
    from core.systems.fate import AspectInvoked, FatePointAwarded, PoolPaid

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
    for name, n in owed.items():
        yield f"{name} is paid {_points(n)} for invokes on their aspects"
    for name, n in awarded.items():
        yield f"{name} gained {_points(n)} from compels"
    for name, n in pool_invokes.items():
        yield f"The GM's pool paid {_points(n)} for {name}'s invokes"
    for what, n in pool_other.items():
        yield f"The GM's pool paid {_points(n)}: {what}"
    for name, n in pool_awarded.items():
        yield f"The GM's pool gained {_points(n)} from compels on {name}"
    start = getattr(record.start, "gm_pool", 0)
    spent = sum(pool_invokes.values()) + sum(pool_other.values())
    if start or spent or pool_awarded:
        yield f"The GM's pool: {start} at the start, {spent} paid, {record.gm_pool} left"
