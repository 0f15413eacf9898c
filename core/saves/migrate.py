"""Format migrations: an older campaign's files brought up to ``FORMAT_VERSION`` on opening.

Every campaign's manifest records the format its files are written in. When one older than
this Tussle's ``FORMAT_VERSION`` is read, :func:`migrate_if_needed` (called by
``CampaignFiles.meta()`` once the manifest has been read) does this, under the campaign's
lock:

1. copies the whole campaign folder (not its lock, nor temporary files) to
   ``<saves>/<slug>.backup-v<old>-<timestamp>/`` and fsyncs it: the original is kept;
2. runs ``STEPS[old]``, ``STEPS[old + 1]``... in order, each taking the campaign folder from
   its version to the next; after each step the manifest records the version reached, so
   a step interrupted by a crash runs again on the next opening (steps must therefore be
   safe to run twice on a folder they have half changed);
3. reads the manifest again, as ``meta()`` would, so the caller sees the upgraded one.

A newer format than this Tussle's is refused by ``meta()`` itself (``BadSave``), before
this module is involved, and nothing is written.

A step is added here with the change of format that needs it. Steps work on the files
(see :func:`read_manifest` and :func:`write_manifest`), not on loaded campaigns: the
classes that would load them are the new format's.

Format 2: what a rule system's own records mean changed. Each log entry, as saved, goes
through the system's sheet's ``upgrade_entries(version, entries)`` hook (FORGE's: its
armor capacity 0 meant "no limit" in format 1 and means "used up" since).
An export of an older format is upgraded the same way when imported (:func:`upgrade_log`).

Format 3: a rule system's character data is its own (issue 26). A roster character
(``campaign.Character``) was written with every system's fields beside its name, kind and
ratings (``fate_points``, ``refresh``, ``aspects``...). From format 2 on, each step gives
it the shape of this Tussle's ``Character``: the fields it no longer has move, under the
same names, into its ``sheet``, of the type the campaign's system keeps
(``SystemSheet.CHARACTER``: ``{"@": "fate.FateCharacter", "fate_points": 3, ...}``); a
field that type lacks (another system's, never used by this campaign) is dropped
(:func:`reshape_characters`). The snapshot, whose state holds the roster as it was, no
would no longer decode: it is removed, and written again from the upgraded log.

Format 4: the generic contract speaks no system's words (issue 26 item 2). A field of a
generic record named after one system is renamed (:data:`RENAMED`): ``StartSession``'s
``hero_points`` (HeroQuest's) is ``reset``, what every PC's points are set to where a system
resets them. Only log entries hold commands (a snapshot holds none), so the log's segments
are the step's whole work (:func:`rename_fields`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

import core.campaign.log
from core.campaign.sheet import find_sheet
from core.files.codec import decode, encode
from core.files.disk import (
    MANIFEST,
    AtomicJSONStorage,
    BadSave,
    CampaignLock,
    CampaignLocked,
    copy_campaign,
    fsync_path,
    write_atomically,
)
from core.rules import find_plugin, load
from core.saves import set_aside
from core.saves.snapshot import FOLDER as SNAPSHOT

Step = Callable[[Path], None]

# from_version -> the step taking a campaign folder from that version to the next.
STEPS: dict[int, Step] = {}

SEGMENT_NAME = "[0-9][0-9][0-9][0-9][0-9][0-9].json"  # log/000000.json ...


def upgrade_log(system: str, version: int, entries: list[dict[str, Any]]) -> None:
    """Bring a log's entries as saved (JSON objects) from format ``version`` to this
    Tussle's, in place: what an export of an older format holds, before it is replayed."""
    for step_from in range(version, current_version()):
        upgrade_entries(system, step_from, entries)


def upgrade_entries(system: str, version: int, entries: list[dict[str, Any]]) -> None:
    """Log ``entries`` (JSON, as saved) of a campaign of ``system`` from format
    ``version`` to the next, in place: its sheet's ``upgrade_entries`` (a hook, nothing
    by default), then, from format 2, the characters' shape (:func:`reshape_characters`)
    and, from format 3, the renamed fields (:func:`rename_fields`)."""
    find_sheet(system).upgrade_entries(version, entries)
    if version >= 2:
        reshape_characters(system, entries)
    if version >= 3:
        rename_fields(entries)


CHARACTER_TAG = "campaign.Character"


def reshape_characters(system: str, entries: list[dict[str, Any]]) -> None:
    """Each roster character in ``entries`` given this Tussle's ``Character``'s shape,
    in place (format 3, above): a field ``Character`` lacks moves into its ``sheet``
    where the system's sheet type has that field, and is dropped where not. A character
    of this shape already is left as it is, so a step runs twice safely."""
    own = set(core.campaign.log.Character.__struct_fields__)
    kind = getattr(load(find_plugin(system).sheet), "CHARACTER", None)
    for found in _objects(entries):
        if found.get("@") != CHARACTER_TAG or set(found) <= own | {"@"}:
            continue
        moved = {k: found.pop(k) for k in [k for k in found if k not in own | {"@"}]}
        if kind is not None and "sheet" not in found:
            kept = {k: v for k, v in moved.items() if k in kind.__struct_fields__}
            tag = kind.__struct_config__.tag
            found["sheet"] = encode(decode({"@": tag, **kept}, kind))
        reshaped = encode(decode(found, core.campaign.log.Character))
        found.clear()
        found.update(reshaped)


# Format 4's renamed fields: saved tag -> {old name: new name}.
RENAMED: dict[str, dict[str, str]] = {"campaign.StartSession": {"hero_points": "reset"}}


def rename_fields(entries: list[dict[str, Any]]) -> None:
    """Each object of ``entries`` whose tag :data:`RENAMED` lists, its old fields given
    their new names, in place (format 4, above). One renamed already is left as it is, so
    a step runs twice safely."""
    for found in _objects(entries):
        renames = RENAMED.get(str(found.get("@")))
        for old, new in (renames or {}).items():
            if old in found:
                found[new] = found.pop(old)


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object in ``value``, walked without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def log_step(version: int) -> Step:
    """The step taking a campaign's log segments from ``version`` to the next: its
    system's ``upgrade_entries`` over the entries of every segment not yet upgraded; a
    segment it changes is rewritten (atomically) stamped with the new format. A segment
    already stamped newer (an interrupted run) is left alone, so the step runs twice
    safely; one left unchanged keeps its stamp (any format up to this Tussle's reads)."""

    def step(folder: Path) -> None:
        upgrade_segments(folder, version)

    return step


def upgrade_segments(folder: Path, version: int) -> bool:
    """:func:`log_step`'s work. True when a segment is upgraded: now, or by a run of the
    step that was interrupted (stamped newer than ``version`` already)."""
    system = str(read_manifest(folder).get("system"))
    segments: list[tuple[Path, dict[str, Any], list[dict[str, Any]], bytes]] = []
    upgraded = False
    for path in sorted((folder / "log").glob(SEGMENT_NAME)):
        tables = AtomicJSONStorage(path).read()
        if not tables:
            continue
        stamps = list((tables.get("format") or {}).values())
        stamped = stamps[0].get("format", 1) if stamps else 1
        if stamped > version:  # upgraded already (an interrupted run)
            upgraded = True
            continue
        entries = [e for _, e in sorted((tables.get("entries") or {}).items(), key=_slot)]
        segments.append((path, tables, entries, _content(entries)))
    upgrade_entries(system, version, [e for _, _, entries, _ in segments for e in entries])
    for path, tables, entries, before in segments:
        if _content(entries) != before:
            # The stamp's other fields (the campaign it belongs to) kept.
            old: dict[str, Any] = next(iter((tables.get("format") or {}).values()), {})
            stamp = {"1": {**old, "app": "tussle", "format": version + 1}}
            AtomicJSONStorage(path).write({**tables, "format": stamp})
            upgraded = True
    return upgraded


def _content(entries: list[dict[str, Any]]) -> bytes:
    """``entries`` as JSON with sorted keys, to compare before and after a step: equal
    exactly when their content is (msgspec's encoder: a tenth of ``json.dumps``' time
    on a long campaign's segments)."""
    return msgspec.json.encode(entries, order="sorted")


def _slot(item: tuple[str, Any]) -> int:
    return int(item[0]) if item[0].isdigit() else 0


STEPS[1] = log_step(1)


def characters_step(folder: Path) -> None:
    """Format 2 to 3: the log's characters reshaped (:func:`log_step`), and the snapshot,
    whose state holds the roster in the old shape, removed: the next opening writes it
    again from the upgraded log (the original is in the copy kept)."""
    log_step(2)(folder)
    shutil.rmtree(folder / SNAPSHOT, ignore_errors=True)


STEPS[2] = characters_step


def renames_step(folder: Path) -> None:
    """Format 3 to 4: the log's renamed fields (:func:`rename_fields`); a snapshot made
    before is removed when a segment changed, in this run or an interrupted one (the
    entries it covers are not the ones it was made from: stale), and written again at the
    next opening."""
    if upgrade_segments(folder, 3):
        shutil.rmtree(folder / SNAPSHOT, ignore_errors=True)


STEPS[3] = renames_step

# Campaign folders being migrated in this process: the hook re-reads the manifest once a
# migration is done, and that read must not start another.
_ACTIVE: set[Path] = set()


def current_version() -> int:
    """This Tussle's format version (read at call time, so tests can pretend a newer one)."""
    return core.campaign.log.FORMAT_VERSION


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest's document as stored in ``folder``; ``BadSave`` if it is not one."""
    path = folder / MANIFEST
    data = AtomicJSONStorage(path).read()
    doc = (data or {}).get("manifest", {}).get("1")
    if not isinstance(doc, dict):
        raise BadSave(f"{path}: not a Tussle campaign")
    return dict(doc)


def write_manifest(folder: Path, doc: dict[str, Any]) -> None:
    """Replace the manifest's document (atomically, like every save)."""
    AtomicJSONStorage(folder / MANIFEST).write({"manifest": {"1": doc}})


def migrate_if_needed(folder: Path, version: int, name: str, locked: bool) -> bool:
    """Upgrade the campaign in ``folder`` when its manifest's format ``version`` is older
    than this Tussle's; True when it did (the caller reads the manifest again).

    The hook ``CampaignFiles.meta()`` calls once it has read and checked a manifest (of
    campaign ``name``; ``locked``: that object holds the lock). Does nothing (and costs a
    comparison) for a campaign of the current format. Raises ``BadSave`` when the upgrade
    cannot be made (no step for a version, a step failing, the campaign held by another
    process); the files are then as the message says.
    """
    target = current_version()
    if version >= target or folder in _ACTIVE:
        return False
    _ACTIVE.add(folder)
    try:
        _migrate(folder, version, target, name, locked)
    finally:
        _ACTIVE.discard(folder)
    return True


def _migrate(folder: Path, version: int, target: int, name: str, locked: bool) -> None:
    manifest_path = folder / MANIFEST
    missing = [v for v in range(version, target) if v not in STEPS]
    if missing:
        raise BadSave(
            f"{manifest_path}: format {version} cannot be upgraded to {target} "
            f"(this Tussle has no step from format {missing[0]})"
        )
    # The one writer: upgrade under the lock, unless the caller already holds it.
    lock = None if locked else CampaignLock(folder)
    if lock is not None:
        try:
            lock.acquire(name, what="a format upgrade")
        except CampaignLocked as error:
            if _version_on_disk(folder) >= target:
                return  # the holder upgraded it meanwhile
            raise BadSave(
                f"{manifest_path}: format {version} must be upgraded to {target}, "
                f"but {error}; close it there first"
            ) from None
    try:
        reached = _version_on_disk(folder)  # another process may have done it
        if reached >= target:
            return
        copy = keep_original(folder, reached)
        stamp_set_aside(folder, reached)
        for step_from in range(reached, target):
            try:
                STEPS[step_from](folder)
                doc = read_manifest(folder)
                write_manifest(folder, {**doc, "format": step_from + 1})
            except Exception as exc:
                raise BadSave(
                    f"{manifest_path}: upgrading format {step_from} to "
                    f"{step_from + 1} failed ({exc}); the original is kept in {copy}"
                ) from exc
    finally:
        if lock is not None:
            lock.release()


def stamp_set_aside(folder: Path, version: int) -> None:
    """Each set-aside file of the campaign in ``folder`` that does not say the format its
    entries are saved in records ``version``, the campaign's before the upgrade: the steps
    change the log, never what is set aside (kept as saved), and ``check --repair``
    upgrades those entries from there. Done before the first step, so a run cut short and
    run again records the format they were in, not one the campaign reached since."""
    for path in sorted((folder / set_aside.FOLDER).glob("*.json")):
        try:
            data = set_aside.read_document(path)
        except BadSave:
            continue  # damage: repair names it, and nothing can be brought back from it
        if set_aside.LOG_FORMAT not in data:
            data[set_aside.LOG_FORMAT] = version
            write_atomically(path, json.dumps(data, ensure_ascii=False, indent=1))


def _version_on_disk(folder: Path) -> int:
    version = read_manifest(folder).get("format")
    return version if isinstance(version, int) else 0


def keep_original(folder: Path, version: int) -> Path:
    """Copy the campaign folder to ``<saves>/<slug>.backup-v<version>-<timestamp>/``.

    Copied into a temporary folder first and renamed into place, so a copy under that name
    is always whole; fsynced, since the files it copies are about to be changed in place.
    """
    saves = folder.parent
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = saves / f"{folder.name}.backup-v{version}-{stamp}"
    n = 1
    while target.exists():
        n += 1
        target = saves / f"{folder.name}.backup-v{version}-{stamp}-{n}"
    work = Path(tempfile.mkdtemp(prefix=".tmp-migrate-", dir=saves))
    try:
        copy_campaign(folder, work / "copy", durable=True, whole=True)
        os.rename(work / "copy", target)
        fsync_path(saves)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


__all__ = [
    "STEPS",
    "current_version",
    "keep_original",
    "log_step",
    "migrate_if_needed",
    "read_manifest",
    "rename_fields",
    "reshape_characters",
    "stamp_set_aside",
    "upgrade_entries",
    "upgrade_log",
    "write_manifest",
]
