"""A campaign's snapshot: its state folded up to a log entry, kept beside the log so that
opening, watching and recording read it and the entries saved after it, not the whole log.

    saves/<slug>/snapshot/state.json            the head: how many entries it covers, the
                                                campaign's state without its contests and
                                                actions, where each action is in the log
    saves/<slug>/snapshot/contest-<sha>.json    one contest each, named by the sha256 of
                                                its bytes (a contest unchanged since the
                                                last snapshot keeps its file)

Never trusted blindly. The head is used only when its own sha256 matches, when it covers
no more entries than the manifest counts, when the entries it covers in the last log
segment it covers are, byte for byte as JSON, the ones saved there now (``tail``: the log
only grows and a full segment is never written again, so a log changed under the snapshot
shows there), when the manifest's system, first settings and creation stamp are the ones
it was made from, and when it holds every field of the state this Tussle has, decoded by
the same codec as the log. A contest's file is read the first time the contest is looked
at, and used only when its bytes have the sha256 its name says. Anything else (missing,
stale, damaged, another format) and the campaign is replayed from its log, as before
snapshots, and the snapshot written again. ``tussle check`` replays the log and compares:
a snapshot that differs is a warning, and is removed so that the next opening rebuilds it.

Actions are not copied into the snapshot: the log holds them. The head says where each is
(its entry number), and a campaign opened from the snapshot reads an action from its
segment the first time something needs it (undo, redo, a correction, the roster as it
was): so undo and redo work across the snapshot, reading back only what they need.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import logging
import os
import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Protocol, get_type_hints

from core.campaign.actions import Campaign
from core.campaign.log import ActionRecorded
from core.campaign.runs import Ids, IdSet, Places, joined, runs
from core.campaign.state import ContestRecord
from core.files.codec import decode, encode
from core.files.disk import (
    SEGMENT_SIZE,
    TMP_PREFIX,
    BadSave,
    StoreError,
    change_point,
    make_folder,
    parse_json,
    read_bytes,
    real_folder,
    too_deep,
    write_atomically,
)
from core.model import Event
from core.saves.lazy import (
    LazyActions,
    LazyContests,
    LazyExchanges,
    Reserve,
    canonical,
    plays_only,
    record_json,
    sha,
    starts_in,
)
from core.saves.replay import REPLAY_ERRORS, number_problem


class CampaignFiles(Protocol):
    """What a snapshot asks of a campaign's files (core.saves.store's ``CampaignFiles``, which
    imports this module: named here by what it does, not imported)."""

    folder: Path

    def meta(self) -> dict[str, Any]: ...

    def segment_docs(self, index: int) -> dict[int, dict[str, Any]] | None: ...

    def segment_path(self, index: int) -> Path: ...


FOLDER = "snapshot"
HEAD = "state.json"
FORMAT = 1
KIND = "snapshot"
EVERY = 200  # a snapshot is written again once the log has this many entries past it
LEFT_OUT = ("actions", "contests")  # the head's state holds every other field
CONTEST_FILE = re.compile(r"contest-[0-9a-f]{32}\.json")

log = logging.getLogger(__name__)


class SnapshotProblem(Exception):
    """Why a snapshot is not used (missing aside): ``str()`` names the file."""


@cache
def state_fields() -> dict[str, Any]:
    """The fields of a campaign's state the head holds, with their types (every field
    there is, whoever added it, but the contests and actions)."""
    hints = get_type_hints(Campaign)
    return {f.name: hints[f.name] for f in dataclasses.fields(Campaign) if f.name not in LEFT_OUT}


def checked_runs(data: Any, where: Path) -> list[list[int]]:
    if not isinstance(data, list):
        raise SnapshotProblem(f"{where}: not a snapshot (runs are not a list)")
    for run in data:
        if (
            not isinstance(run, list)
            or len(run) != 3
            or not all(type(x) is int and x >= 0 for x in run)
            or run[2] > 10**9
        ):
            raise SnapshotProblem(f"{where}: not a snapshot (a bad run {run!r})")
    return data


# -- writing --------------------------------------------------------------------------------


@dataclasses.dataclass(slots=True)
class Written:
    """What this process last wrote or read, so the next snapshot re-encodes only what
    changed: each contest's file by the objects it was encoded from."""

    entries: int = 0
    files: dict[str, tuple[tuple[Any, ...], str, int]] = dataclasses.field(default_factory=dict)


def fingerprint(record: ContestRecord) -> tuple[Any, ...]:
    """What changes whenever a contest does: its state and exchanges are new objects or
    longer lists, its marks other values (the objects are kept, so ids are never reused)."""
    return (
        record,
        record.state,
        record.exchanges,
        len(record.exchanges),
        len(record.actions),
        record.actions[-1:],
        record.written,
        record.secret,
        sorted(record.secret_participants),
        sorted(record.secret_aspects),
        record.title,
    )


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return all(x is y for x, y in zip(a[:3], b[:3], strict=True)) and a[3:] == b[3:]


def tail_digest(files: CampaignFiles, entries: int) -> str:
    """The sha256 of the entries up to ``entries`` in the segment holding the last."""
    index = (entries - 1) // SEGMENT_SIZE
    docs = files.segment_docs(index) or {}
    digest = hashlib.sha256()
    for slot in range(1, entries - index * SEGMENT_SIZE + 1):
        doc = docs.get(slot)
        if not isinstance(doc, dict) or not isinstance(doc.get("entry"), dict):
            raise SnapshotProblem(f"{files.segment_path(index)}: log entry {slot} is missing")
        digest.update(canonical(doc["entry"]))
    return digest.hexdigest()


def write(
    files: CampaignFiles, campaign: Campaign, positions: Mapping[int, int], written: Written
) -> bool:
    """Write ``campaign``'s snapshot (it must be the campaign as its files hold it now);
    False, writing nothing, when an action's place in the log is not known."""
    folder = files.folder / FOLDER
    entries = campaign.entries
    meta = files.meta()
    listed = _placed(campaign, positions)
    if listed is None:
        return False
    lazy_actions = campaign.actions if isinstance(campaign.actions, LazyActions) else None
    if lazy_actions is not None:  # kept as runs: nothing one action at a time
        quiet, started = lazy_actions.plays_only.runs(), lazy_actions.started
    else:
        quiet = runs((i, i) for i, a in sorted(campaign.actions.items()) if plays_only(a))
        started = sum(starts_in(a) for a in campaign.actions.values())
    if not os.path.lexists(folder):
        make_folder(folder)
    real_folder(folder)
    contests = []
    lazy_contests = campaign.contests if isinstance(campaign.contests, LazyContests) else None
    for contest_id in campaign.contests:
        pending = lazy_contests.saved_as(contest_id) if lazy_contests is not None else None
        if pending is not None:  # not read since its file was checked: the same file
            contests.append([contest_id, *pending])
            continue
        known = written.files.get(contest_id)
        record = campaign.contests[contest_id]
        mark = fingerprint(record)
        if known is not None and _same(known[0], mark):
            contests.append([contest_id, known[1], known[2]])
            continue
        data = canonical({"contest": contest_id, "record": record_json(record)})
        name = f"contest-{sha(data)[:32]}.json"
        if not _holds(folder / name, data):
            write_atomically(folder / name, data.decode())
        written.files[contest_id] = (mark, name, len(data))
        contests.append([contest_id, name, len(data)])
    head: dict[str, Any] = {
        "app": "tussle",
        "kind": KIND,
        "format": FORMAT,
        "entries": entries,
        "tail": tail_digest(files, entries),
        "system": meta["system"],
        "settings": sha(canonical(meta["settings"])),
        "created": meta.get("created"),
        "state": {name: state_json(campaign, name) for name in state_fields()},
        "contests": contests,
        "actions": listed,
        "plays_only": quiet,
        "contests_started": started,
    }
    head["digest"] = sha(canonical(head))
    before = _names(folder / HEAD)
    write_atomically(folder / HEAD, json.dumps(head, ensure_ascii=False, separators=(",", ":")))
    keep = {c[1] for c in contests} | before | {HEAD}
    for path in folder.iterdir():  # contests of neither this snapshot nor the one before
        if path.name not in keep and not path.name.startswith(TMP_PREFIX):
            change_point(path)
            with contextlib.suppress(OSError):
                path.unlink()
    written.entries = entries
    return True


def _placed(campaign: Campaign, positions: Mapping[int, int]) -> list[list[int]] | None:
    """Where each of ``campaign``'s actions is in the log, as runs ``[id, entry, count]``
    (those of a campaign opened from its snapshot kept as runs, the others from
    ``positions``); None when one's place is not known."""
    actions = campaign.actions
    lazy = actions if isinstance(actions, LazyActions) else None
    pairs: list[tuple[int, int]] = []
    for action_id in lazy.unplaced() if lazy is not None else actions:
        entry = positions.get(action_id)
        if entry is None:
            return None
        pairs.append((action_id, entry))
    return joined(lazy.where.runs() if lazy is not None else (), runs(pairs))


def state_json(campaign: Campaign, name: str) -> Any:
    """A field of ``campaign``'s state as the head holds it: a long list of action ids as
    its runs of consecutive ones (``{"@runs": [[first, first, count], ...]}``)."""
    value = getattr(campaign, name)
    if isinstance(value, Ids):
        return {"@runs": value.runs()} if len(value) > 8 else list(value)
    return encode(value)


def _long(value: Any, path: Path) -> Any:
    if isinstance(value, dict) and set(value) == {"@runs"}:
        spans = checked_runs(value["@runs"], path)
        return Ids.from_runs(spans)
    return value


def _holds(path: Path, data: bytes) -> bool:
    try:
        return read_bytes(path) == data
    except StoreError:
        return False


def _names(head: Path) -> set[str]:
    """The contest files a head on disk names (none when it cannot be read)."""
    try:
        data = parse_json(read_bytes(head) or b"", head)
        return {c[1] for c in data["contests"] if isinstance(c[1], str)}
    except (StoreError, KeyError, TypeError, IndexError):
        return set()


# -- reading --------------------------------------------------------------------------------


def covered(files: CampaignFiles) -> int:
    """How many entries the snapshot on disk says it covers (0: none, or unreadable)."""
    try:
        data = parse_json(read_bytes(files.folder / FOLDER / HEAD) or b"", FOLDER)
        count = data["entries"]
    except (StoreError, KeyError, TypeError):
        return 0
    return count if type(count) is int else 0


def read(
    files: CampaignFiles,
    read_action: Callable[[int, int], ActionRecorded],
    read_contest: Callable[[str, str], ContestRecord],
    runs_only: list[Any] | None = None,
) -> Campaign | None:
    """The campaign as the snapshot holds it (its ``entries`` say how far), None when
    there is none; ``SnapshotProblem`` naming the file when it is not to be used.
    ``runs_only`` (a list): the actions are not listed one by one, their runs and those
    of the actions that only play are put in it instead (for a comparison)."""
    folder = files.folder / FOLDER
    path = folder / HEAD
    if not os.path.lexists(folder):
        return None
    try:
        real_folder(folder)
        raw = read_bytes(path)
        if raw is None:
            return None
        head = parse_json(raw, path)
    except StoreError as error:
        raise SnapshotProblem(str(error)) from None
    if not isinstance(head, dict) or head.get("app") != "tussle" or head.get("kind") != KIND:
        raise SnapshotProblem(f"{path}: not a Tussle snapshot")
    if head.get("format") != FORMAT:
        raise SnapshotProblem(f"{path}: snapshot format {head.get('format')!r}, not {FORMAT}")
    digest = head.pop("digest", None)
    if digest != sha(canonical(head)):
        raise SnapshotProblem(f"{path}: damaged (its digest does not match)")
    meta = files.meta()
    entries = head.get("entries")
    if type(entries) is not int or not 0 < entries <= int(meta["entries"]):
        raise SnapshotProblem(
            f"{path}: covers {entries!r} entries, the log {meta['entries']} (stale)"
        )
    made_from = (meta["system"], sha(canonical(meta["settings"])), meta.get("created"))
    if (head.get("system"), head.get("settings"), head.get("created")) != made_from:
        raise SnapshotProblem(f"{path}: made from another manifest (stale)")
    try:
        tail = tail_digest(files, entries)
    except StoreError as error:
        raise SnapshotProblem(f"{path}: the log it covers cannot be read ({error})") from None
    if head.get("tail") != tail:
        raise SnapshotProblem(f"{path}: the log it covers has changed since (stale)")
    campaign = _state(head, path, meta)
    actions = LazyActions(read_action)
    listed = checked_runs(head.get("actions"), path)
    quiet = checked_runs(head.get("plays_only"), path)
    if runs_only is not None:
        runs_only += [listed, quiet]
        listed = []
    try:
        actions.where = Places.from_runs(listed)
        actions.plays_only = IdSet.from_runs(quiet if listed else ())
    except ValueError:  # two runs overlap
        raise SnapshotProblem(f"{path}: actions at wrong places") from None
    if any(r[1] + r[2] > entries for r in listed):
        raise SnapshotProblem(f"{path}: actions at wrong places")
    actions.top = max((a + count - 1 for a, _, count in listed), default=0)
    started = head.get("contests_started")
    if type(started) is not int or started < 0:
        raise SnapshotProblem(f"{path}: not a snapshot (contests started {started!r})")
    actions.started = started
    actions.reserved = Reserve.of(meta.get("reserved"))  # ids of entries set aside
    contests = LazyContests(read_contest)
    for item in head.get("contests") or ():
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not isinstance(item[0], str)
            or not isinstance(item[1], str)
            or not CONTEST_FILE.fullmatch(item[1])
            or _size(folder / item[1]) != item[2]
        ):
            raise SnapshotProblem(f"{path}: a contest's file is missing or damaged: {item!r}")
        contests.pend(item[0], item[1], item[2])
    in_force = [*campaign.done.runs(), *campaign.undone.runs()]
    if listed and not all(actions.where.covers(a, count) for a, _, count in in_force):
        raise SnapshotProblem(f"{path}: actions in force that it does not list")
    campaign.actions, campaign.contests = actions, contests
    return campaign


def _size(path: Path) -> int | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info.st_size if os.path.isfile(path) and not os.path.islink(path) else None


def _decode(value: Any, hint: Any) -> Any:
    """As the codec decodes, a long list of whole numbers at once."""
    if hint is Ids:
        return value if type(value) is Ids else Ids(decode(value, list[int]))
    return decode(value, hint)


def _state(head: dict[str, Any], path: Path, meta: dict[str, Any]) -> Campaign:
    state = head.get("state")
    fields = state_fields()
    if not isinstance(state, dict) or set(state) != set(fields):
        raise SnapshotProblem(f"{path}: holds another state than this Tussle's (stale)")
    problem = number_problem(state)
    if problem is not None or too_deep(state):
        raise SnapshotProblem(f"{path}: damaged ({problem or 'nested too deep'})")
    try:
        values = {name: _decode(_long(state[name], path), hint) for name, hint in fields.items()}
        values.update(name=str(meta["name"]), system=str(meta["system"]))
        campaign = Campaign(**values)
    except REPLAY_ERRORS as exc:
        raise SnapshotProblem(f"{path}: damaged ({exc})") from None
    if campaign.entries != head["entries"]:
        raise SnapshotProblem(f"{path}: damaged (its state is not at its entry count)")
    return campaign


def read_contest_file(folder: Path, contest_id: str, name: str) -> ContestRecord:
    """A contest's snapshot file; ``SnapshotProblem`` when its bytes are not the ones its
    name says, or not that contest's record."""
    path = folder / FOLDER / name
    try:
        raw = read_bytes(path)
    except StoreError as error:
        raise SnapshotProblem(str(error)) from None
    if raw is None or not name.startswith(f"contest-{sha(raw)[:32]}"):
        raise SnapshotProblem(f"{path}: damaged (its digest does not match its name)")
    try:
        data = parse_json(raw, path)
        saved = data["record"]
        exchanges = saved.get("exchanges")
        if not isinstance(exchanges, list) or not all(isinstance(e, dict) for e in exchanges):
            raise SnapshotProblem(f"{path}: not contest {contest_id}'s record (its exchanges)")
        rest = {k: v for k, v in saved.items() if k != "exchanges"}
        if data.get("contest") != contest_id or number_problem(rest) is not None:
            raise SnapshotProblem(f"{path}: not contest {contest_id}'s record")
        record = decode({**saved, "exchanges": []}, ContestRecord)
        record.exchanges = LazyExchanges(exchanges)
    except (StoreError, AttributeError, *REPLAY_ERRORS) as exc:
        raise SnapshotProblem(f"{path}: damaged ({exc})") from None
    if not isinstance(record, ContestRecord) or record.contest_id != contest_id:
        raise SnapshotProblem(f"{path}: not contest {contest_id}'s record")
    return record


def read_action_entry(raw: Any, action_id: int, where: str) -> ActionRecorded:
    """Log entry ``raw`` (as saved) decoded as action ``action_id``; ``SnapshotProblem``
    when it is not that action (the snapshot is wrong, or the log damaged)."""
    if not isinstance(raw, dict) or number_problem(raw) is not None:
        raise SnapshotProblem(f"{where}: not action {action_id}")
    try:
        entry = decode(raw, Event)
    except REPLAY_ERRORS as exc:
        raise SnapshotProblem(f"{where}: does not decode ({exc})") from None
    if not isinstance(entry, ActionRecorded) or entry.action_id != action_id:
        raise SnapshotProblem(f"{where}: not action {action_id}")
    return entry


def log_reader(files: CampaignFiles, kept: int = 8) -> Callable[[int, int], ActionRecorded]:
    """What reads action ``action_id`` back from log entry ``n`` (the last ``kept``
    segments read are kept); ``BadSave`` naming the entry when it is not that action."""
    segments: dict[int, dict[int, dict[str, Any]]] = {}

    def read_action(action_id: int, n: int) -> ActionRecorded:
        index, slot = divmod(n, SEGMENT_SIZE)
        docs = segments.get(index)
        if docs is None:
            docs = files.segment_docs(index) or {}
            if len(segments) >= kept:
                segments.pop(next(iter(segments)))
            segments[index] = docs
        doc = docs.get(slot + 1)
        where = f"{files.segment_path(index)}: log entry {n}"
        try:
            return read_action_entry(doc and doc.get("entry"), action_id, where)
        except SnapshotProblem as problem:
            raise BadSave(str(problem)) from None

    return read_action


def remove(files: CampaignFiles) -> None:
    """Remove the snapshot (it is rebuilt at the next opening)."""
    folder = files.folder / FOLDER
    if os.path.islink(folder) or not folder.is_dir():
        return
    for path in folder.iterdir():
        change_point(path)
        with contextlib.suppress(OSError):
            path.unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()
