"""The session recap: a campaign's recent contests as Markdown, for a campaign wiki.

Each contest with its sides, every exchange with its dice, totals and outcome (the lines
the exchange log shows), the twists and aspects created, the points spent, and the
result. By default the last session: the actions since the last gap of more than
``SESSION_GAP`` without play (Tussle has no explicit sessions yet).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

from core.campaign import ActionRecorded, Campaign, ContestRecord
from core.rules import find_system

SESSION_GAP = timedelta(hours=6)


def _when(action: ActionRecorded) -> datetime | None:
    try:
        return datetime.fromisoformat(action.at)
    except ValueError:
        return None


def last_session_start(campaign: Campaign) -> datetime | None:
    """When the last session began: the newest action, back to the last long gap."""
    times = sorted(t for a in campaign.actions.values() if (t := _when(a)) is not None)
    if not times:
        return None
    start = times[-1]
    for earlier in reversed(times[:-1]):
        if start - earlier > SESSION_GAP:
            break
        start = earlier
    return start


def contests_since(campaign: Campaign, since: datetime | None) -> list[ContestRecord]:
    """Contests with an action at or after ``since`` (all of them when None)."""
    if since is None:
        return list(campaign.contests.values())
    found = []
    for record in campaign.contests.values():
        started = [
            a
            for a in campaign.actions.values()
            if any(getattr(e, "contest_id", None) == record.contest_id for e in a.events)
        ]
        times = [t for a in started if (t := _when(a)) is not None]
        if any(t >= since for t in times):
            found.append(record)
    return found


def _sides(record: ContestRecord) -> str:
    state = record.state
    parts = []
    for side in state.sides:
        members = [p.name for p in state.participants if p.side == side]
        uses = [f"{m} ({record.uses[m]})" if m in record.uses else m for m in members]
        label = ", ".join(uses)
        parts.append(label if members == [side] else f"{side}: {label}")
    return " vs ".join(parts)


def _extras(record: ContestRecord) -> list[str]:
    """Twists, aspects created and points spent, read off the exchanges."""
    created: list[str] = []
    spent: Counter[str] = Counter()
    for event in record.exchanges:
        twist = getattr(event, "twist", None)
        if twist and getattr(event, "new_twist", False):
            created.append(f"{twist} (twist)")
        for advantage in getattr(event, "advantages", ()):
            if advantage.outcome != "fail" or advantage.free_invokes:
                created.append(f"{advantage.aspect} ({advantage.outcome})")
        for invoke in getattr(event, "invokes", ()):
            if not invoke.free:
                spent[f"{invoke.by} (fate points)"] += 1
        for who, count in (getattr(event, "hero_points", None) or {}).items():
            spent[f"{who} (hero points)"] += count
    lines = []
    if created:
        lines.append(f"**Aspects created:** {'; '.join(created)}")
    if spent:
        lines.append("**Points spent:** " + ", ".join(f"{k} {v}" for k, v in spent.items()))
    return lines


def recap_markdown(campaign: Campaign, since: datetime | None = None) -> str:
    """The recap as Markdown, from ``since`` (default: the last session)."""
    since = since if since is not None else last_session_start(campaign)
    rules = find_system(campaign.system)
    when = since.date().isoformat() if since is not None else "all sessions"
    out = [f"# {campaign.name}: recap", "", f"*{rules.title} · {when}*", ""]
    records = contests_since(campaign, since)
    if not records:
        out.append("No contest was played.")
    for record in records:
        state = record.state
        out += [f"## {record.title}", "", f"**Sides:** {_sides(record)}", ""]
        for event in record.exchanges:
            head, *rest = rules.describe(event)
            out.append(f"### {head}")
            out += [f"- {line.strip()}" for line in rest]
            out.append("")
        out += _extras(record)
        if state.finished:
            result = f"{state.winner} wins" if state.winner else "no winner"
            if getattr(state, "ended_by", None) == "attack":
                result = "ended by an attack: the scene became a conflict"
        else:
            result = f"still open after exchange {state.n}"
        out += [f"**Result:** {result}", ""]
    return "\n".join(out).rstrip() + "\n"
