"""Log entries set aside: what becomes of a campaign's log from its first entry that does
not load (a bug, a disk error, an older or newer format, a hand edit).

The campaign opens as it stood before that entry. The entry and every one after it (they
may depend on it) are moved, as saved, into a file of their own in the campaign's folder,
never deleted::

    saves/<slug>/set-aside/20261205T064512Z-entry-2.json

holding the raw entries, which entry failed and why. The manifest then counts the entries
before it, records the file (``set_aside``: its entries' range and how many were brought
back) and the ids those entries took (``reserved``: core.saves.lazy.Reserve), so that the
actions played from then on never reuse them. ``tussle check NAME --repair`` tries the
entries again, in order, and brings back those that now load, stopping at the first that
still fails. Only a process holding the campaign's lock (the dashboard, ``--record``,
``check --repair``) sets entries aside; a reader (``watch``, ``check``, ``export``) shows
the campaign up to the bad entry and says so.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from core.files.disk import BadSave, parse_json, read_bytes
from core.model import TAG
from core.saves.lazy import Reserve

FOLDER = "set-aside"
KIND = "set-aside"
FORMAT = 1
# The campaign's format its entries are saved in. They are kept as saved, never rewritten:
# a format upgrade of the campaign (core.saves.migrate) records in a file written before it
# (without this key) the format the campaign had, and ``check --repair`` upgrades the
# entries from there before replaying them. A file without it is in the campaign's format.
LOG_FORMAT = "log_format"


class BadEntry(msgspec.Struct, frozen=True):
    """The first log entry a load could not replay, and where it and those after went."""

    slug: str  # the campaign's folder
    n: int  # the entry's number (the campaign stands at the entries before it)
    count: int  # the entries the manifest counted
    reason: str  # why (names the file and the entry)
    kept_in: Path | None = None  # the set-aside file; None: still in the log (a reader)

    def message(self) -> str:
        """Which entry, why, and what to do, in a sentence or three."""
        later = self.count - self.n - 1
        after = f" and the {later} after it" if later > 1 else " and the one after it"
        moved = f"log entry {self.n}{after if later else ''}"
        head = (
            f"Log entry {self.n} does not load ({self.reason}); the campaign is as it stood "
            f"before it ({self.n} of {self.count} entries)."
        )
        them, they = ("them", "they") if later else ("it", "it")
        if self.kept_in is None:
            return (
                f"{head} `tussle check {self.slug} --repair` (or opening it in the "
                f"dashboard) sets {moved} aside in a file of their own, nothing deleted, "
                "and tries them again."
            )
        return (
            f"{head} {moved[0].upper()}{moved[1:]} {'are' if later else 'is'} set aside, "
            f"not deleted, in {self.kept_in}; `tussle check {self.slug} --repair` "
            f"brings {them} back once {they} can load (a Tussle or plug-in that reads "
            f"{them}, a file put right)."
        )


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


def reserve_of(entries: Iterable[Any], before: Reserve) -> Reserve:
    """``before`` and what ``entries`` (raw, maybe damaged) took: their highest action id
    and the contests they started. Read leniently: taking too many is harmless."""
    top, contests = before.action_id, before.contests
    for raw in entries:
        if not isinstance(raw, dict):
            continue
        action_id = raw.get("action_id")
        if type(action_id) is int and 0 < action_id <= 10**9:
            top = max(top, action_id)
        if _kind(raw) == "ActionRecorded":
            contests += _starts(raw.get("events"))
    return Reserve(top, min(contests, 10**9))


def _kind(item: dict[str, Any]) -> str:
    """A saved object's class name, without its module (``campaign.ActionRecorded``)."""
    return str(item.get(TAG, "")).rsplit(".", 1)[-1]


def _starts(value: Any) -> int:
    """The ``ContestStarted`` objects in a raw value (walked without recursion)."""
    found, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found += _kind(item) == "ContestStarted"
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def document(
    name: str,
    first: int,
    count: int,
    reason: str,
    entries: list[Any],
    unreadable: dict[str, bytes],
    log_format: int,
) -> dict[str, Any]:
    """A set-aside file's contents: entries ``first`` to ``count - 1`` as saved (None for
    one that could not be read) in the campaign's format ``log_format``, and the bytes of
    each log file that could not be."""
    return {
        "app": "tussle",
        "kind": KIND,
        "format": FORMAT,
        LOG_FORMAT: log_format,
        "campaign": name,
        "from": first,
        "to": count,
        "reason": reason,
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
        "entries": [{"n": first + k, "entry": raw} for k, raw in enumerate(entries)],
        "unreadable": {
            file: base64.b64encode(data).decode("ascii") for file, data in unreadable.items()
        },
    }


def read_document(path: Path) -> dict[str, Any]:
    """A set-aside file read back; ``BadSave`` naming it when it is not one."""
    raw = read_bytes(path)
    data = None if raw is None else parse_json(raw, path)
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise BadSave(f"{path}: not a Tussle set-aside file")
    if not isinstance(data.get("entries"), list):
        raise BadSave(f"{path}: not a Tussle set-aside file (no entries)")
    return data


def log_format(data: dict[str, Any], current: int) -> int:
    """The format a set-aside file's entries are saved in (:data:`LOG_FORMAT`)."""
    found = data.get(LOG_FORMAT)
    return found if type(found) is int and 1 <= found <= current else current


def records(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """The manifest's record of each set-aside file: ``file`` (in the campaign's folder),
    ``from``, ``to`` and ``back`` (how many were brought back)."""
    found = meta.get("set_aside")
    if not isinstance(found, list):
        return []
    return [
        r
        for r in found
        if isinstance(r, dict)
        and isinstance(r.get("file"), str)
        and all(type(r.get(k)) is int for k in ("from", "to", "back"))
    ]


def waiting(meta: dict[str, Any]) -> int:
    """How many entries set aside are not back in the log."""
    return sum(max(0, r["to"] - r["from"] - r["back"]) for r in records(meta))


def summary(meta: dict[str, Any], slug: str) -> str | None:
    """A line saying what is set aside and what to do, None when nothing is."""
    left = [r for r in records(meta) if r["to"] - r["from"] > r["back"]]
    if not left:
        return None
    total = waiting(meta)
    files = ", ".join(r["file"] for r in left)
    return (
        f"{total} log {'entry' if total == 1 else 'entries'} set aside, not in the campaign "
        f"(kept in {files}); `tussle check {slug} --repair` brings back those that now load"
    )


__all__ = [
    "FOLDER",
    "LOG_FORMAT",
    "BadEntry",
    "document",
    "log_format",
    "read_document",
    "records",
    "reserve_of",
    "stamp",
    "summary",
    "waiting",
]
