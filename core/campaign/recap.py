"""The session recap: a campaign's recent contests as Markdown, for a campaign wiki.

Each contest with its sides, every exchange with its dice, totals and outcome (the lines
the exchange log shows), the twists and aspects created, the points spent, and the
result. By default the last session: since the GM last started one (the roster's
``S``), or, in a campaign that never marked one, the actions since the last gap of more
than ``SESSION_GAP`` without play. What the GM hides from the players stays out of it,
unless asked for (``secrets``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta

from core.campaign.actions import Campaign
from core.campaign.aftermath import final_score
from core.campaign.log import ActionRecorded, Played, PoolSpent
from core.campaign.state import ContestRecord, secrets_of
from core.model import Event
from core.redact import HIDDEN, Secrets
from core.rules import find_system
from core.text import visible

SESSION_GAP = timedelta(hours=6)


def _when(action: ActionRecorded) -> datetime | None:
    try:
        return datetime.fromisoformat(action.at)
    except ValueError:
        return None


RELEASE_EVERY = 256  # actions read back from the log, let go of as the recap goes


def _newest_first(campaign: Campaign) -> Iterator[tuple[ActionRecorded, datetime | None]]:
    """Each action with its time, the newest first (by id: each is stamped when it is
    decided, so a later id has a later time; only a clock set back could say otherwise).
    Actions read back from the log (core.saves.lazy) are let go of as it goes: a recap of a
    long session keeps a few hundred in memory, not all of them (which made the
    collector's passes, and so the recap, grow faster than the session)."""
    release = getattr(campaign.actions, "release", None)
    for n, action_id in enumerate(sorted(campaign.actions, reverse=True), 1):
        action = campaign.actions[action_id]
        yield action, _when(action)
        if release is not None and n % RELEASE_EVERY == 0:
            release()


def last_session_start(campaign: Campaign) -> datetime | None:
    """When the last session began: its start as the GM marked it, else the newest
    action, back to the last long gap (the actions before it are not read)."""
    if campaign.sessions:
        try:
            return datetime.fromisoformat(campaign.sessions[-1])
        except ValueError:
            pass
    start: datetime | None = None
    for _, when in _newest_first(campaign):
        if when is None:
            continue
        if start is not None and start - when > SESSION_GAP:
            break
        start = when if start is None else min(start, when)
    return start


def contests_since(campaign: Campaign, since: datetime | None) -> list[ContestRecord]:
    """Contests with an action at or after ``since`` (all of them when None).

    The actions are read newest first, down to the first more than ``SESSION_GAP``
    older than ``since`` (a margin for a clock corrected by a little), and only the
    contests they touched are read: the cost grows with the actions of the period asked
    for, never with contests times actions (a campaign of 5,000 contests took minutes
    when each contest looked through every action)."""
    return _since(campaign, since)[0]


def _since(
    campaign: Campaign, since: datetime | None, session: bool = False
) -> tuple[list[ContestRecord], dict[str, list[Event]], datetime | None]:
    """:func:`contests_since`, and the GM's pool payments outside an invoke (``P``) in
    force in each of those contests, found in the same one pass over the actions (each
    action read once: a second look through a contest's actions doubled the reads); and
    ``since``. With ``session`` (and no ``since``), since the last session's start
    (:func:`last_session_start`'s, without a session the GM marked), found in that same
    pass: the actions back to the last long gap are the session's."""
    pool = find_system(campaign.system).pool
    paid = type(pool.paid(1)) if pool is not None else None  # the pool's payment event
    payments: dict[str, list[Event]] = {}
    touched: set[str] = set()
    in_force: dict[str, set[int]] = {}

    def payments_of(action: ActionRecorded) -> None:
        for event in action.events:
            contest_id = getattr(event, "contest_id", None)
            if not isinstance(contest_id, str) or contest_id not in campaign.contests:
                continue
            if contest_id not in in_force:
                in_force[contest_id] = set(campaign.contests[contest_id].actions)
            if action.action_id not in in_force[contest_id] or pool is None:
                continue
            if isinstance(event, Played) and paid is not None and isinstance(event.event, paid):
                payments.setdefault(contest_id, []).insert(0, event.event)
            elif isinstance(event, PoolSpent):  # an old log's
                payments.setdefault(contest_id, []).insert(0, pool.paid(event.count))

    start = since
    for action, when in _newest_first(campaign):
        if since is None and not session:
            payments_of(action)
            continue
        if when is None:
            continue
        if since is None:  # the last session: back to the last long gap
            if start is not None and start - when > SESSION_GAP:
                break
            start = when if start is None else min(start, when)
        elif when < since:
            if since - when > SESSION_GAP:
                break
            continue
        touched.update(
            contest_id
            for event in action.events
            if isinstance(contest_id := getattr(event, "contest_id", None), str)
        )
        payments_of(action)
    if start is None and session:  # no action has a time: every contest, as without
        return _since(campaign, None)
    if start is None:
        return list(campaign.contests.values()), payments, None
    return [campaign.contests[c] for c in campaign.contests if c in touched], payments, start


def _sides(record: ContestRecord) -> str:
    state = record.state
    parts = []
    for side in state.sides:
        members = [p.name for p in state.participants if p.side == side]
        uses = [f"{m} ({record.uses[m]})" if m in record.uses else m for m in members]
        label = markdown_text(", ".join(uses))
        parts.append(label if members == [side] else f"{markdown_text(side)}: {label}")
    return " vs ".join(parts)


def _extras(record: ContestRecord, secrets: Secrets, events: Sequence[Event] = ()) -> list[str]:
    """What the exchanges created (twists, aspects) and the points they spent, as the
    system tells them (``created``, ``spent``), and the GM's pool paid outside an invoke
    (``P``: a refused compel, a stunt): the pool's payment ``events``; hidden aspects
    left out, a hidden participant's points spent as ``??``."""
    rules = find_system(record.state.system)
    created: list[str] = []
    spent: Counter[tuple[str, str]] = Counter()
    for event in events:  # the pool's payments outside an invoke
        for who, what, count in rules.spent(event):
            spent[who, what] += count
    for event in record.exchanges:
        created += [label for aspect, label in rules.created(event) if not secrets.aspect(aspect)]
        for who, what, count in rules.spent(event):
            spent[who, what] += count
    lines = []
    if created:
        lines.append(f"**Aspects created:** {markdown_text('; '.join(created))}")
    if spent:
        counts = [
            f"{markdown_text(who)} ({kind}) {HIDDEN if who in secrets.participants else count}"
            for (who, kind), count in spent.items()
        ]
        lines.append("**Points spent:** " + ", ".join(counts))
    return lines


def _consequences(record: ContestRecord) -> list[str]:
    """What a contest scored as a whole leaves (a HeroQuest extended contest's final
    consequences, rules §2.8.6-7: its exchanges leave none), as the write-back takes
    it; nothing for a contest whose exchanges say it all."""
    result = find_system(record.state.system).consequences(record.state)
    if result is None:
        return []
    states = ", ".join(f"{name} {state}" for name, state in result.items()) or "nobody"
    return [f"**Consequences:** {markdown_text(states)}", ""]


def recap_markdown(campaign: Campaign, since: datetime | None = None, secrets: bool = False) -> str:
    """The recap as Markdown, from ``since`` (default: the last session).

    What the GM hides from the players stays out of it unless ``secrets``: a secret
    contest is left out (a last line counts them), a hidden participant's numbers and a
    hidden aspect's name are ``??`` (each system's ``describe``, :mod:`core.redact`)."""
    if since is None and campaign.sessions:
        since = last_session_start(campaign)  # as the GM marked it
    # Without a start, the last session's is found in the pass that finds its contests.
    records, payments, since = _since(campaign, since, session=since is None)
    rules = find_system(campaign.system)
    when = since.date().isoformat() if since is not None else "all sessions"
    out = [f"# {markdown_text(campaign.name)}: recap", "", f"*{rules.title} · {when}*", ""]
    left_out = 0 if secrets else sum(r.secret for r in records)
    records = [r for r in records if secrets or not r.secret]
    if not records and not left_out:
        out.append("No contest was played.")
    for record in records:
        state = record.state
        hidden = Secrets() if secrets else secrets_of(record)
        out += [f"## {markdown_text(record.title)}", "", f"**Sides:** {_sides(record)}", ""]
        for event in record.exchanges:
            lines = rules.describe(event, hidden)
            head, *rest = (markdown_text(line) for line in lines)
            out.append(f"### {head}")
            out += [f"- {line.strip()}" for line in rest]
            out.append("")
        out += _extras(record, hidden, payments.get(record.contest_id, ()))
        harm = rules.recap(state, record.exchanges, hidden)
        if harm:
            head, *rest = harm
            out += [
                f"**{markdown_text(head)}**",
                *(f"- {markdown_text(line)}" for line in rest),
                "",
            ]
        if state.finished:
            won = f"{markdown_text(state.winner)} won" if state.winner else ""
            result = f"{won}{final_score(record)}" if state.winner else "no winner"
            escalated = rules.escalated(state)
            if escalated is not None:
                result = escalated.told
        else:
            # One begun and left: where it stands; one with no exchange yet says so.
            played = rules.exchanges_played(record.exchanges)  # a conflict's, not its actions
            result = f"still open after exchange {played}" if state.n else "not begun yet"
        out += [f"**Result:** {result}", ""]
        out += _consequences(record)
    rolls = _rolls(campaign, since)
    if rolls and out[-1]:
        out.append("")
    out += rolls
    if left_out:
        plural = "s" if left_out != 1 else ""
        out.append(f"*{left_out} secret contest{plural} left out.*")
    return "\n".join(out).rstrip() + "\n"


def _rolls(campaign: Campaign, since: datetime | None) -> list[str]:
    """The rolls outside the contests since ``since`` (all when None), as they came out:
    a heading, then a line each (``4dF+3 vs 2: ++0- → ... success, 2 shifts · chance of
    success or better: 61.7% ...``) with the steps that led there below it."""
    from core.campaign.quick_roll import dice_text

    lines = []
    for action_id, roll in campaign.rolls:
        when = _when(campaign.actions[action_id])
        if since is not None and (when is None or when < since):
            continue
        dice = f"{dice_text(roll.faces)} → " if roll.faces else ""
        said = f"{roll.expression}: {dice}{roll.outcome}"
        said += f" · {roll.chance}" if roll.chance else ""
        lines.append(f"- {markdown_text(said)}")
        lines += [f"  - {markdown_text(detail)}" for detail in roll.details]
    if not lines:
        return []
    return ["## Rolls outside the contests", "", *lines, ""]


MARKDOWN = re.compile(r"([\\`*_\[\]<>@])")
# What GitHub-flavoured Markdown (and linkify) would turn into a link: a scheme's ``://``,
# ``www.`` and a dot between a word and a letter (``evil.com``, not ``61.7``); an
# address's ``@`` is escaped with the characters above. An escaped character shows as
# itself, and stops the link.
LINK_PARTS = re.compile(r"(:(?=//)|(?<=\w)\.(?=[^\W\d_]))")


def markdown_text(text: str) -> str:
    """``text`` (names and the lines that quote them) as Markdown that shows it as it
    is: control and invisible formatting characters written out (core.text: the recap
    is printed to terminals too), what Markdown would read (``[x](url)``, ``*``,
    ``<tag>``, ``\\``) escaped, and nothing that would become a link (a URL, an address)."""
    return LINK_PARTS.sub(r"\\\1", MARKDOWN.sub(r"\\\1", visible(text)))
