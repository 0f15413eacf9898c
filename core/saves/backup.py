"""Rotating backups of a campaign, and restoring one.

A backup is a copy of a campaign folder's files (the manifest and the log; not the lock,
not temporary files, not the snapshot) in ``<saves>/.backups/<slug>/<timestamp>/``, the
timestamp in UTC (``20250314T101502.123456Z``, so names sort by time), with a
``backup.json`` saying why it was made and the sha256 of each file. The dashboard makes
one each time it opens a campaign and each time a session starts (``why``); ``tussle
restore NAME`` lists them and puts one back. The last :data:`BACKUPS_KEPT` are kept, and
the first (the campaign as it began) too.

:func:`backup` never raises: a backup that cannot be made must not stop the GM from
playing. It returns a :class:`BackupResult` whose ``problem`` says what went wrong (also
logged on the ``core.saves.backup`` logger), for the caller to show as a warning. It is quick:
no fsync (the campaign itself is untouched, so a backup lost in a power cut costs nothing
that is not still in the save), and no copy at all when the newest backup already holds
the campaign as it is (its manifest, which every save rewrites, is byte for byte the
same), so opening and closing a campaign ten times does not push the real history out of
the rotation.

**Copies, content-addressed.** Each log segment's bytes are copied once into
``<saves>/.backups/<slug>/segments/<sha256>.json`` and every backup holding those bytes
hard links that copy (a disk that cannot link gets a copy of its own): never the
campaign's own file, so one byte changed in a live segment (a disk error, an editor, a
sync tool) reaches no backup. A backup of a campaign of 50,000 exchanges costs its
manifest and its last segment, not 48 MB. A copy whose bytes no longer match its name is
written again from the campaign when the campaign still holds them, and every backup is
verified against its ``backup.json`` before it is restored (and by ``tussle check``).

A full log segment is never written again by a save: one whose bytes differ from those
the newest backup holds for it is damage (``BackupResult.damage``), said to the GM, and
then no old backup is removed.

Copies are consistent while a writer appends: the manifest is read first and then the
log, and a save writes the log first and the manifest last, so every entry the copied
manifest counts is in the copied log.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import stat
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from core.campaign.log import FORMAT_VERSION
from core.files.disk import (
    LOCK,
    LOG,
    MANIFEST,
    SEGMENT_SIZE,
    TMP_PREFIX,
    BadSave,
    CampaignLock,
    StoreError,
    change_point,
    copy_campaign,
    exchange,
    fsync_path,
    make_folder,
    make_private,
    parse_json,
    read_bytes,
    write_all_private,
    write_point,
    write_private,
)
from core.saves.check import check_campaign
from core.saves.snapshot import FOLDER as SNAPSHOT
from core.saves.store import SEGMENT_NAME, CampaignFiles, Saves

BACKUPS_KEPT = 10  # the README documents this number (and that the first is kept too)
BACKUPS = ".backups"  # in the saves folder; starts with a dot, so never listed as a campaign
SEGMENTS = "segments"  # <saves>/.backups/<slug>/segments/<sha256>.json: shared copies
INDEX = "backup.json"  # in each backup: why it was made, and each file's sha256
STAMP = "%Y%m%dT%H%M%S.%fZ"
STALE_TEMPORARY = 3600.0  # seconds after which a half-made backup is a killed one's leftover
RESTORER = "tussle restore"
OPENED = "opened"  # why the dashboard's backups were made (backup.json's "why")
BEFORE_RESTORE = "before a restore"

log = logging.getLogger(__name__)


def session_started(number: int) -> str:
    return f"session {number} started"


class Backup(msgspec.Struct, frozen=True):
    """One backup folder of a campaign."""

    folder: Path

    @property
    def stamp(self) -> str:
        return self.folder.name

    @property
    def when(self) -> datetime:
        return datetime.strptime(self.stamp, STAMP).replace(tzinfo=UTC)

    def manifest(self) -> dict[str, Any] | None:
        """The backup's manifest document, or None when it cannot be read."""
        try:
            data = parse_json(read_bytes(self.folder / MANIFEST) or b"", self.folder / MANIFEST)
            doc = data["manifest"]["1"]
        except (StoreError, KeyError, TypeError):
            return None
        return doc if isinstance(doc, dict) else None

    @property
    def entries(self) -> int | None:
        """How many log entries the backup holds (None for a damaged manifest)."""
        return _whole(self.manifest(), "entries")

    @property
    def format(self) -> int | None:
        """The format its files are written in (None for a damaged manifest)."""
        return _whole(self.manifest(), "format")

    def index(self) -> dict[str, Any] | None:
        """Its ``backup.json`` (None for a backup made before there was one, as by
        ``tussle delete``, or one that cannot be read)."""
        try:
            data = parse_json(read_bytes(self.folder / INDEX) or b"", self.folder / INDEX)
        except StoreError:
            return None
        return data if isinstance(data, dict) else None

    @property
    def why(self) -> str:
        """Why it was made (``opened``, ``session 3 started``...), "" when not said."""
        why = (self.index() or {}).get("why")
        return why if isinstance(why, str) else ""

    def digests(self) -> dict[str, str]:
        """Each file's sha256 when backed up, by its path in the backup."""
        files = (self.index() or {}).get("files")
        if not isinstance(files, dict):
            return {}
        return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


class BackupResult(msgspec.Struct, frozen=True):
    """What :func:`backup` did. ``backup`` holds the campaign as it is now: a new copy
    (``created``), or the newest one when nothing changed since; ``problem`` is set, and
    ``backup`` None, when no backup could be made. ``damage`` says which full log segment
    changed since the newest backup (no save does that): then no backup was removed."""

    backup: Backup | None
    created: bool = False
    problem: str | None = None
    removed: tuple[Path, ...] = ()
    damage: str | None = None


class Restored(msgspec.Struct, frozen=True):
    """What :func:`restore` did: the backup put back, and the one holding the state it
    replaced (None when there was no campaign left to keep)."""

    restored: Backup
    before: Backup | None


def backups_folder(saves: Path, slug: str) -> Path:
    return saves / BACKUPS / slug


def list_backups(saves: Path, slug: str) -> list[Backup]:
    """The campaign's backups, newest first (half-made ones and stray files left out)."""
    root = backups_folder(saves, slug)
    if not root.is_dir():
        return []
    found = []
    for path in root.iterdir():
        try:
            datetime.strptime(path.name, STAMP)
        except ValueError:
            continue
        if path.is_dir():
            found.append(Backup(path))
    return sorted(found, key=lambda b: b.stamp, reverse=True)


def backup(files: CampaignFiles, keep: int = BACKUPS_KEPT, why: str = "") -> BackupResult:
    """Back up ``files``'s campaign and keep only the last ``keep`` backups (and the
    first); never raises. ``why`` is what ``tussle restore`` lists beside it.

    Call it with the campaign's lock held (the dashboard, once it has opened the
    campaign): that is what makes clearing a killed backup's leftovers safe.
    """
    try:
        return make_backup(files, keep, why)
    except (OSError, StoreError) as exc:
        problem = f"{files.folder}: no backup made ({_reason(exc)})"
        log.warning("%s", problem)
    except Exception as exc:  # a bug, but a backup must never stop a session opening
        problem = f"{files.folder}: no backup made (a bug in Tussle: {exc!r})"
        log.exception("%s", problem)
    return BackupResult(None, problem=problem)


def make_backup(
    files: CampaignFiles, keep: int | None = BACKUPS_KEPT, why: str = ""
) -> BackupResult:
    """:func:`backup`, raising ``OSError`` or ``StoreError`` when it fails; ``keep=None``
    removes no old backup."""
    manifest = read_bytes(files.manifest_path)  # first: every entry it counts is on disk
    if manifest is None:
        raise StoreError(f"{files.manifest_path}: missing, so there is nothing to back up")
    saves = files.folder.parent
    root = backups_folder(saves, files.slug)
    existing = list_backups(saves, files.slug)
    make_private(saves / BACKUPS)  # one an older Tussle made under the umask
    make_private(root)
    _unshare(existing, files.folder, root)
    segments = _segments(files.folder)
    damage = _changed_full_segments(manifest, segments, existing[0] if existing else None)
    if damage is not None:
        damage += (
            f" (tussle check {files.slug} says; tussle restore {files.slug} puts a backup "
            "back). No backup was removed"
        )
        log.warning("%s", damage)
    if existing and _bytes_or_none(existing[0].folder / MANIFEST) == manifest:
        removed = () if damage is not None else _removed(saves, files, keep)
        return BackupResult(existing[0], created=False, removed=removed, damage=damage)
    make_folder(root)
    _clear_leftovers(root)
    made = _copy_into(root, manifest, segments, why)
    removed = () if damage is not None else _removed(saves, files, keep)
    return BackupResult(made, created=True, removed=removed, damage=damage)


def _unshare(backups: list[Backup], folder: Path, root: Path) -> None:
    """An older Tussle's backups hard linked the campaign's own full log segments: each
    file of a backup that is still one of the campaign's is made a link to the shared copy
    of its bytes instead (a copy of its own where the disk cannot link), so that damage to
    the campaign reaches none of them."""
    live: set[tuple[int, int]] = set()
    with contextlib.suppress(OSError):
        for name in os.listdir(folder / LOG):
            info = os.lstat(folder / LOG / name)
            if SEGMENT_NAME.fullmatch(name) and stat.S_ISREG(info.st_mode):
                live.add((info.st_dev, info.st_ino))
    if not live:
        return
    for old in backups:
        log_folder = old.folder / LOG
        if log_folder.is_symlink() or not log_folder.is_dir():
            continue
        for path in sorted(log_folder.iterdir()):
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode) or (info.st_dev, info.st_ino) not in live:
                continue
            data = read_bytes(path) or b""
            segment = _Segment(path.name, data, hashlib.sha256(data).hexdigest())
            work = log_folder / f"{TMP_PREFIX}{path.name}"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(work)
            _place(root, segment, work)
            change_point(path)
            os.replace(work, path)


def _removed(saves: Path, files: CampaignFiles, keep: int | None) -> tuple[Path, ...]:
    return _prune(saves, files.slug, keep) if keep is not None else ()


class _Segment(msgspec.Struct, frozen=True):
    """One log segment as read for a backup: its name in the log, its bytes, their sha256."""

    name: str
    data: bytes
    digest: str


def _segments(folder: Path) -> list[_Segment]:
    """Every log segment file of the campaign (those past the manifest's count too: a
    restore backs up a damaged campaign as it stands), read as every save file is."""
    log_folder = folder / LOG
    if log_folder.is_symlink() or not log_folder.is_dir():
        return []
    found = []
    for name in sorted(os.listdir(log_folder)):
        if not SEGMENT_NAME.fullmatch(name):
            continue
        try:
            data = read_bytes(log_folder / name)
        except BadSave:
            continue  # a link, a pipe...: not the campaign's, never copied
        if data is not None:
            found.append(_Segment(name, data, hashlib.sha256(data).hexdigest()))
    return found


def _whole(doc: dict[str, Any] | None, key: str) -> int | None:
    """A manifest document's whole number ``key`` (None: no document, or not one)."""
    value = None if doc is None else doc.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _manifest_doc(manifest: bytes | None) -> dict[str, Any] | None:
    try:
        doc = parse_json(manifest or b"", MANIFEST)["manifest"]["1"]
    except (StoreError, KeyError, TypeError):
        return None
    return doc if isinstance(doc, dict) else None


def _changed_full_segments(
    manifest: bytes, segments: list[_Segment], newest: Backup | None
) -> str | None:
    """What says that a log segment full in both the campaign and its newest backup has
    other bytes now (no save writes a full segment again: damage), or None."""
    if newest is None:
        return None
    doc = _manifest_doc(manifest)
    then, now = newest.entries, _whole(doc, "entries")
    if then is None or now is None or now < then:  # not the same history (a restore)
        return None
    if newest.format != _whole(doc, "format"):  # a format upgrade (core.saves.migrate) wrote
        return None  # the full segments again, in the new format: not damage
    before = newest.digests()
    for segment in segments:
        index = int(segment.name.split(".")[0])
        if (index + 1) * SEGMENT_SIZE > then:
            break
        digest = before.get(f"{LOG}/{segment.name}")
        if digest is not None and digest != segment.digest:
            return (
                f"{LOG}/{segment.name} of the campaign has changed since the backup of "
                f"{newest.stamp}, though no save writes a full log segment again: it may "
                "be damaged"
            )
    return None


def _copy_into(root: Path, manifest: bytes, segments: list[_Segment], why: str) -> Backup:
    stamp = datetime.now(UTC).strftime(STAMP)
    while (root / stamp).exists():  # two backups in one microsecond: wait for the next
        time.sleep(0.000_01)
        stamp = datetime.now(UTC).strftime(STAMP)
    work = root / f"{TMP_PREFIX}{stamp}"
    try:
        make_folder(work / LOG)
        write_private(work / MANIFEST, manifest)
        digests = {MANIFEST: hashlib.sha256(manifest).hexdigest()}
        for segment in segments:
            _place(root, segment, work / LOG / segment.name)
            digests[f"{LOG}/{segment.name}"] = segment.digest
        index = {"app": "tussle", "kind": "backup", "why": why, "files": digests}
        write_private(work / INDEX, json.dumps(index, ensure_ascii=False, indent=1).encode())
        change_point(root / stamp)
        os.rename(work, root / stamp)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return Backup(root / stamp)


def _place(root: Path, segment: _Segment, target: Path) -> None:
    """``target`` made a hard link to the shared copy of ``segment``'s bytes (written
    first when missing, or again when its bytes are no longer its name's), or a copy of
    its own where the disk cannot link."""
    shared = root / SEGMENTS / f"{segment.digest}.json"
    if _bytes_or_none(shared) != segment.data:
        make_folder(shared.parent)
        _rewrite(shared, segment.data)
    try:
        os.link(shared, target, follow_symlinks=False)
    except OSError:
        write_private(target, segment.data)


def _rewrite(path: Path, data: bytes) -> None:
    """Write the shared copy ``path`` with ``data``: in place when it is there (the
    backups linking it are mended too), else as a new file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        write_private(path, data)
        return
    if not stat.S_ISREG(info.st_mode):  # not ours: put ours in its place
        change_point(path)
        os.unlink(path)
        write_private(path, data)
        return
    write_point(path)
    write_all_private(os.open(path, os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW), data)


def _bytes_or_none(path: Path) -> bytes | None:
    try:
        return read_bytes(path)
    except StoreError:
        return None


def _clear_leftovers(root: Path) -> None:
    """Remove half-made backups a killed process left (old enough not to be in progress)."""
    for path in root.glob(f"{TMP_PREFIX}*"):
        with contextlib.suppress(OSError):
            if time.time() - path.stat().st_mtime > STALE_TEMPORARY:
                shutil.rmtree(path, ignore_errors=True)


def _prune(
    saves: Path, slug: str, keep: int, protect: frozenset[Path] = frozenset()
) -> tuple[Path, ...]:
    """Remove all but the newest ``keep`` backups and the first (never one in
    ``protect``); then the shared copies no backup left holds."""
    removed = []
    found = list_backups(saves, slug)
    for old in found[max(keep, 1) : -1]:  # the last listed is the first made: kept
        if old.folder in protect:
            continue
        change_point(old.folder)
        shutil.rmtree(old.folder, ignore_errors=True)
        removed.append(old.folder)
    if removed:
        _drop_unheld(backups_folder(saves, slug))
    return tuple(removed)


def _drop_unheld(root: Path) -> None:
    """Remove the shared copies of segments no backup holds any more (those of a
    half-made backup count as held: it may be being made)."""
    shared = root / SEGMENTS
    if not shared.is_dir():
        return
    held: set[str] = set()
    for folder in root.iterdir():
        if folder.name != SEGMENTS and folder.is_dir() and not folder.is_symlink():
            held.update(f"{digest}.json" for digest in Backup(folder).digests().values())
            if folder.name.startswith(TMP_PREFIX):
                return  # being made: its backup.json is not written yet
    for path in shared.iterdir():
        if path.name not in held:
            change_point(path)
            with contextlib.suppress(OSError):
                path.unlink()


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return str(exc)


def backup_problems(files: CampaignFiles) -> list[str]:
    """What ``tussle check`` says of the campaign's backups: each one whose files are not
    as backed up, and a full log segment of the campaign whose bytes are not those its
    newest backup holds for it."""
    saves = files.folder.parent
    found = list_backups(saves, files.slug)
    problems = [
        f"backup {b.stamp} is damaged: {problem}"
        for b in found
        if (problem := verify(b)) is not None
    ]
    if found:
        manifest = _bytes_or_none(files.manifest_path)
        if manifest is not None:
            changed = _changed_full_segments(manifest, _segments(files.folder), found[0])
            if changed is not None:
                problems.append(f"{changed} (tussle restore {files.slug} puts a backup back)")
    return problems


def verify(chosen: Backup) -> str | None:
    """What in ``chosen`` is not as backed up (a file whose sha256 is not the one its
    ``backup.json`` gives, or a file missing), or None. A backup without a
    ``backup.json`` (made by an older Tussle, or by ``tussle delete``) has nothing to
    verify against."""
    for name, digest in sorted(chosen.digests().items()):
        path = chosen.folder / name
        try:
            data = read_bytes(path)
        except StoreError as error:
            return str(error)
        if data is None:
            return f"{path}: missing from the backup"
        if hashlib.sha256(data).hexdigest() != digest:
            return f"{path}: damaged (its bytes are not those backed up: another sha256)"
    return None


# -- restore --------------------------------------------------------------------------------


def check_backup(chosen: Backup) -> None:
    """``BadSave`` naming the file when ``chosen`` would not make a sound campaign.

    Its files are verified against their sha256 (:func:`verify`); then a backup of this
    Tussle's format is checked as ``tussle check`` checks a campaign; an
    older one (from before an upgrade) only for readable files: it is upgraded, with a copy
    kept, the first time the restored campaign is opened.
    """
    damage = verify(chosen)
    if damage is not None:
        raise BadSave(damage)
    doc = chosen.manifest()
    path = chosen.folder / MANIFEST
    if doc is None or doc.get("app") != "tussle":
        raise BadSave(f"{path}: not a Tussle campaign manifest")
    version = doc.get("format")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise BadSave(f"{path}: format {version} is newer than this Tussle reads")
    if version == FORMAT_VERSION:
        check_campaign(CampaignFiles(chosen.folder, backup_copy=True))
        return
    for file in sorted(chosen.folder.rglob("*.json")):
        parse_json(read_bytes(file) or b"", file)  # BadSave naming it


def restore(files: CampaignFiles, chosen: Backup, keep: int = BACKUPS_KEPT) -> Restored:
    """Put ``chosen`` back as ``files``'s campaign; a restore can itself be undone.

    Checks the backup first; takes the campaign's lock (``CampaignLocked`` naming the
    holder when another process has it); backs up the campaign as it stands; then makes
    the restored campaign whole in a folder beside it and swaps the two folders in one
    step (:func:`~core.files.disk.exchange`): cut short at any point, the campaign is the one
    before or the one restored, never a mix nor an empty one (issue 30, items 1 and 6).
    Use a new ``CampaignFiles`` afterwards: this one's cached manifest is the old one's.
    """
    check_backup(chosen)
    name = str((chosen.manifest() or {}).get("name", files.slug))
    saves = files.folder.parent
    if not os.path.lexists(files.folder):  # a deleted campaign brought back
        with Saves(saves).names_locked():  # nobody makes a campaign there meanwhile
            if os.path.lexists(files.folder):
                raise StoreError(f"{files.folder}: made while it was being restored")
            work = _restored_copy(files.folder, chosen.folder)
            change_point(files.folder)
            os.rename(work, files.folder)
            fsync_path(saves)
        _prune(saves, files.slug, keep, frozenset({chosen.folder}))
        return Restored(chosen, None)
    lock = CampaignLock(files.folder)
    lock.acquire(name, what=RESTORER)
    try:
        files.clean_temporary_files()
        before = None
        if files.manifest_path.exists():
            before = make_backup(files, keep=None, why=BEFORE_RESTORE).backup
        work = _restored_copy(files.folder, chosen.folder)
        exchange(work, files.folder)  # the one step: the old campaign is at work's path now
        fsync_path(saves)
    finally:
        lock.release()
    change_point(work)
    shutil.rmtree(work, ignore_errors=True)
    protect = frozenset({chosen.folder} | ({before.folder} if before else set()))
    _prune(saves, files.slug, keep, protect)
    return Restored(chosen, before)


def _restored_copy(folder: Path, source: Path) -> Path:
    """The campaign restored from the backup ``source``, made whole and durable in a
    folder beside ``folder`` (which Saves does not list): the backup's manifest and log,
    and every other file of the campaign but its lock and snapshot (the entries it set
    aside, never deleted; the GM's own). Call it with the campaign's lock held, or the
    lock on names when there is no campaign: a killed restore's copy, left under that
    name, is cleared first."""
    work = folder.with_name(f"{TMP_PREFIX}restore-{folder.name}")
    if os.path.lexists(work):
        change_point(work)
        if work.is_symlink() or not work.is_dir():
            work.unlink()
        else:
            shutil.rmtree(work)
    copy_campaign(source, work, durable=True)
    skipped = {MANIFEST, LOG, LOCK, SNAPSHOT}
    folders = [work]
    if os.path.isdir(folder) and not os.path.islink(folder):
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder)
            if rel.parts[0] in skipped or any(p.startswith(TMP_PREFIX) for p in rel.parts):
                continue
            if not (work / rel).parent.is_dir():
                continue  # inside a folder that was a link: not copied
            if path.is_dir() and not path.is_symlink():
                make_folder(work / rel)
                folders.append(work / rel)
                continue
            data = _bytes_or_none(path)  # a link, a pipe...: never copied
            if data is not None:
                write_private(work / rel, data)
                fsync_path(work / rel)
    for made in folders:
        fsync_path(made)
    return work


__all__ = [
    "BACKUPS",
    "BACKUPS_KEPT",
    "BEFORE_RESTORE",
    "OPENED",
    "Backup",
    "BackupResult",
    "Restored",
    "backup",
    "backup_problems",
    "backups_folder",
    "check_backup",
    "list_backups",
    "make_backup",
    "restore",
    "session_started",
    "verify",
]
