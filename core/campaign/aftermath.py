"""After a contest and between sessions.

What a finished contest leaves on the roster, what starting a session changes, and the
summary the GM reads at a contest's end; the system's sheet (``core.campaign.sheet``) says what
each of them means in its rules (fate points, states of adversity, trauma...). Pure
functions over the campaign: the campaign turns their answers into events (``WriteBack``,
``StartSession``), so they are saved and undone like any other GM action.

Results are written as *differences* between the contest's start and its end, added to the
roster as it stands: a fate point the roster gained meanwhile (a compel outside the
contest) is kept.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import msgspec
from msgspec.structs import fields, replace

from core.campaign.log import (
    Character,
    CharacterUpdated,
    ResultsWritten,
    SessionStarted,
    SettingsChanged,
    Sheet,
    now,
)
from core.campaign.sheet import find_sheet
from core.campaign.state import CampaignState, ContestRecord
from core.model import Event
from core.rules import find_system

# -- writing a contest back ------------------------------------------------------------------


def results(campaign: CampaignState, record: ContestRecord) -> list[Character]:
    """The roster characters a finished contest changes, as they become (unchanged ones
    are left out; participants not on the roster are skipped)."""
    changes_of = find_sheet(record.state.system).write_back(campaign, record)
    now: dict[str, Character] = {}
    for name, changes in changes_of:
        if name not in campaign.roster:
            continue
        character = now.get(name, campaign.roster[name])
        now[name] = replace(character, **changes(character))
    return [c for name, c in now.items() if c != campaign.roster[name]]


# -- a session -------------------------------------------------------------------------------


def session_events(campaign: CampaignState, reset: int | None = None) -> tuple[Event, ...]:
    """Starting a session: the recap's mark, the session count, and each character as
    their system's sheet starts a session (refresh, recovery; ``reset``: what the table
    resets the system's points to, where it does)."""
    before = campaign.settings.get("sessions")
    played = before if isinstance(before, int) and not isinstance(before, bool) else 0
    events: list[Event] = [
        SessionStarted(number=len(campaign.sessions) + 1, at=now()),
        SettingsChanged(changes={"sessions": played + 1}, before={"sessions": before}),
    ]
    sheet = find_sheet(campaign.system)
    for c in campaign.roster.values():
        new = sheet.new_session(c, reset)
        if new != c:
            events.append(CharacterUpdated(name=c.name, character=new))
    return tuple(events)


def scenario_events(campaign: CampaignState) -> tuple[Event, ...]:
    """A scenario's end: the count of scenarios, and each character as their system's
    sheet ends a scenario (Fate: severe consequences recovering clear)."""
    before = campaign.settings.get("scenarios")
    played = before if isinstance(before, int) and not isinstance(before, bool) else 0
    events: list[Event] = [
        SettingsChanged(changes={"scenarios": played + 1}, before={"scenarios": before})
    ]
    sheet = find_sheet(campaign.system)
    for c in campaign.roster.values():
        new = sheet.end_scenario(c)
        if new != c:
            events.append(CharacterUpdated(name=c.name, character=new))
    return tuple(events)


# -- the summary at a contest's end ----------------------------------------------------------


class Summary(msgspec.Struct, frozen=True):
    """What the end-of-contest screen shows."""

    title: str
    result: str  # who won, by how much
    costs: tuple[str, ...]  # points spent and paid, damage taken
    exchanges: tuple[str, ...]  # one line each
    roster: tuple[str, ...]  # what writing back changes (or changed)
    written: bool
    # The rules' whole-contest account, the recap's own lines (a Fate conflict's "Harm:"
    # and each participant's hits, what absorbed them, taken out, conceded); the GM's
    # summary: nothing hidden.
    account: tuple[str, ...] = ()


LABELS: dict[str, str] = {}  # the roster's own fields, by name (a sheet's: its LABELS)


def differences(old: Character, new: Character) -> str:
    """``Cynere: fate points 3 → 1`` for what changed between two versions."""

    def shown(value: Any) -> str:
        if value is None:
            return "none"
        if isinstance(value, tuple):
            return ", ".join(map(str, value)) or "none"
        if isinstance(value, dict) and all(isinstance(v, tuple) for v in value.values()):
            return "; ".join(f"{k}: {', '.join(v)}" for k, v in value.items()) or "none"
        if isinstance(value, dict):
            return ", ".join(f"{k} +{v}" for k, v in value.items()) or "none"
        return str(value)

    def changed(old: Any, new: Any, labels: Mapping[str, str]) -> Iterator[str]:
        for f in fields(new):
            was, now = getattr(old, f.name, None), getattr(new, f.name)
            if f.name == "sheet" and isinstance(now, Sheet):  # the system's own words
                yield from changed(was if type(was) is type(now) else type(now)(), now, now.LABELS)
            elif was != now:
                yield f"{labels.get(f.name, f.name)} {shown(was)} → {shown(now)}"

    return f"{new.name}: {'; '.join(changed(old, new, LABELS))}"


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
        account=tuple(rules.recap(state, record.exchanges)),
    )


def _written(campaign: CampaignState, record: ContestRecord) -> Iterator[str]:
    for action_id, action in campaign.acting(campaign.done):
        events = action.events
        if any(isinstance(e, ResultsWritten) and e.contest_id == record.contest_id for e in events):
            before = campaign.roster_before(action_id)
            for e in events:
                if isinstance(e, CharacterUpdated) and e.name in before:
                    yield differences(before[e.name], e.character)


def _result(record: ContestRecord) -> str:
    state = record.state
    rules = find_system(state.system)
    escalated = rules.escalated(state) if state.finished else None
    if escalated is not None:
        return f"{escalated.told} The contest is kept as it stood."
    if state.finished and state.winner is not None:
        return f"{state.winner} won{final_score(record)}{rules.ending(state)}"
    score = _standing(record)
    if not state.finished:
        return f"Not over yet ({score})" if score else "Not over yet"
    return f"Nobody won ({score})" if score else "Nobody won"


def _counts(record: ContestRecord) -> tuple[dict[str, int], str] | None:
    """Each side's count (victories, resolution points, stages won) and its unit."""
    return find_system(record.state.system).tally(record.state)


def final_score(record: ContestRecord) -> str:
    """What the winner won by, to follow their name: ``, 3 victories to 2`` (the
    winner's count first, then the others' in side order), `` (major victory)`` for a
    HeroQuest simple contest, nothing when there is nothing to count."""
    state = record.state
    counts = _counts(record)
    if counts is not None and state.winner in counts[0]:
        values, unit = counts
        others = [str(v) for s, v in values.items() if s != state.winner]
        won = values[state.winner]
        return f", {won} {counted(unit, won)} to {' and '.join(others)}"
    return find_sheet(state.system).level(record)


def counted(unit: str, count: int) -> str:
    """A system's unit (a plural: ``victories``, ``stages``, ``resolution points``) as
    ``count`` of it reads: ``1 victory``, ``1 stage``, ``2 stages``."""
    if count != 1:
        return unit
    return unit[:-3] + "y" if unit.endswith("ies") else unit.removesuffix("s")


def _standing(record: ContestRecord) -> str:
    """With no winner, each side's count by name: ``victories: Cynere 2, Teran 2``."""
    counts = _counts(record)
    if counts is None:
        return ""
    values, unit = counts
    return f"{unit}: " + ", ".join(f"{s} {v}" for s, v in values.items())


def _costs(campaign: CampaignState, record: ContestRecord) -> Iterator[str]:
    events = campaign.contest_log(record.contest_id)[1]
    yield from find_sheet(record.state.system).costs(record, events)
