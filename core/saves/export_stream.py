"""``tussle export`` written as it goes: the text :func:`core.saves.transfer.to_text` makes of
:func:`core.saves.transfer.export_campaign`, a contest's exchange and a log entry at a time, so a
campaign of any length exports in the memory of a short one.

The log is read three times, a segment at a time: replayed and checked whole first,
keeping no history (a damaged campaign raises before anything is written:
:func:`core.saves.check.replay_checked`), then each contest's exchanges read again from its
actions as it is written, then the log written out entry by entry.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from core.campaign.actions import Campaign
from core.rules import find_system
from core.saves.check import LogStops, exchanges_of, replay_checked
from core.saves.store import CampaignFiles
from core.saves.transfer import contest_parts, export_head


class Stream:
    """A list member written item by item."""

    def __init__(self, items: Iterator[Any]) -> None:
        self.items = items


def write_export(files: CampaignFiles, out: TextIO, safe: Callable[[str], str] = str) -> Campaign:
    """Write the export of ``files``'s campaign to ``out`` (``safe`` applied to each part
    written); the campaign exported (its exchanges kept only as a digest). A log entry
    that does not load: the campaign as it stood before it is written, and
    :attr:`bad_entry` (set on ``files``) says which and why."""
    files.bad_entry = None
    try:
        campaign = replay_checked(files, bounded=True)
    except LogStops as stop:
        files.bad_entry = stop.bad
        campaign = replay_checked(files, bounded=True, upto=stop.bad.n)
    members: list[tuple[str, Any]] = list(export_head(campaign, files.settings_at_start()).items())
    members.append(("contests", Stream(_contests(campaign))))
    log = (raw for _, _, raw in files.counted_entries())
    members.append(("log", Stream(itertools.islice(log, campaign.entries))))
    _write_object(out, members, 0, safe)
    out.write("\n")
    return campaign


def _contests(campaign: Campaign) -> Iterator[Any]:
    for contest_id in campaign.contests:
        record = campaign.contests[contest_id]
        rules = find_system(record.start.system)
        before, after = contest_parts(record)
        exchanges = (rules.exchange_json(e) for e in exchanges_of(campaign, record))
        yield [*before.items(), ("exchanges", Stream(exchanges)), *after.items()]


def _write_object(
    out: TextIO, members: list[tuple[str, Any]], level: int, safe: Callable[[str], str]
) -> None:
    """An object at ``level`` as ``json.dumps(indent=2)`` writes it there."""
    if not members:
        out.write("{}")
        return
    inner = "  " * (level + 1)
    for n, (key, value) in enumerate(members):
        out.write(safe(("{\n" if n == 0 else ",\n") + f"{inner}{_dumped(key, level + 1)}: "))
        _write_value(out, value, level + 1, safe)
    out.write("\n" + "  " * level + "}")


def _write_value(out: TextIO, value: Any, level: int, safe: Callable[[str], str]) -> None:
    if not isinstance(value, Stream):
        out.write(safe(_dumped(value, level)))
        return
    inner = "  " * (level + 1)
    empty = True
    for item in value.items:
        out.write(("[\n" if empty else ",\n") + inner)
        if isinstance(item, list):  # an object given as its members (a contest)
            _write_object(out, item, level + 1, safe)
        else:
            out.write(safe(_dumped(item, level + 1)))
        empty = False
    out.write("[]" if empty else "\n" + "  " * level + "]")


def _dumped(value: Any, level: int) -> str:
    """``value`` as ``json.dumps(..., indent=2)`` writes it ``level`` deep."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return text.replace("\n", "\n" + "  " * level)  # a newline in a string is escaped
