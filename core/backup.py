"""Rotating backups of a campaign, and restoring one.

A backup is a copy of a campaign folder's files (the manifest and the log; not the lock,
not temporary files, not the snapshot) in ``<saves>/.backups/<slug>/<timestamp>/``, the
timestamp in UTC (``20250314T101502.123456Z``, so names sort by time). The last
:data:`BACKUPS_KEPT` are kept. The dashboard makes one when it opens a campaign; ``tussle
restore NAME`` lists them and puts one back.

:func:`backup` never raises: a backup that cannot be made must not stop the GM from
playing. It returns a :class:`BackupResult` whose ``problem`` says what went wrong (also
logged on the ``core.backup`` logger), for the caller to show as a warning. It is quick:
it copies the campaign's files without fsyncing them (the campaign itself is untouched,
so a backup lost in a power cut costs nothing that is not still in the save), and makes
no copy at all when the newest backup already holds the campaign as it is (its manifest,
which every save rewrites, is byte for byte the same), so opening and closing a campaign
ten times does not push the real history out of the rotation.

Full log segments are shared, not copied: each backup hard links them (a save never
writes a full segment again, and writes every file as a new one renamed into place, so a
linked segment is never changed under a backup), so a backup of a long campaign costs its
manifest and its last segment. A disk that cannot link gets copies.

Copies are consistent while a writer appends: the manifest is copied first and then the
log, and a save writes the log first and the manifest last, so every entry the copied
manifest counts is in the copied log.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.campaign import FORMAT_VERSION
from core.check import check_campaign
from core.disk import (
    LOG,
    MANIFEST,
    TMP_PREFIX,
    BadSave,
    CampaignLock,
    StoreError,
    copy_campaign,
    make_folder,
    parse_json,
    read_bytes,
    write_atomically,
)
from core.snapshot import remove as remove_snapshot
from core.store import RESTORING, SEGMENT_SIZE, CampaignFiles

BACKUPS_KEPT = 10  # the README documents this number
BACKUPS = ".backups"  # in the saves folder; starts with a dot, so never listed as a campaign
STAMP = "%Y%m%dT%H%M%S.%fZ"
STALE_TEMPORARY = 3600.0  # seconds after which a half-made backup is a killed one's leftover
RESTORER = "tussle restore"

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Backup:
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
        doc = self.manifest()
        count = None if doc is None else doc.get("entries")
        return count if isinstance(count, int) and not isinstance(count, bool) else None


@dataclass(frozen=True, slots=True)
class BackupResult:
    """What :func:`backup` did. ``backup`` holds the campaign as it is now: a new copy
    (``created``), or the newest one when nothing changed since; ``problem`` is set, and
    ``backup`` None, when no backup could be made."""

    backup: Backup | None
    created: bool = False
    problem: str | None = None
    removed: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class Restored:
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


def backup(files: CampaignFiles, keep: int = BACKUPS_KEPT) -> BackupResult:
    """Back up ``files``'s campaign and keep only the last ``keep`` backups; never raises.

    Call it with the campaign's lock held (the dashboard, once it has opened the
    campaign): that is what makes clearing a killed backup's leftovers safe.
    """
    try:
        return make_backup(files, keep)
    except (OSError, StoreError) as exc:
        problem = f"{files.folder}: no backup made ({_reason(exc)})"
        log.warning("%s", problem)
    except Exception as exc:  # a bug, but a backup must never stop a session opening
        problem = f"{files.folder}: no backup made (a bug in Tussle: {exc!r})"
        log.exception("%s", problem)
    return BackupResult(None, problem=problem)


def make_backup(files: CampaignFiles, keep: int | None = BACKUPS_KEPT) -> BackupResult:
    """:func:`backup`, raising ``OSError`` or ``StoreError`` when it fails; ``keep=None``
    removes no old backup."""
    if not files.manifest_path.is_file():
        raise StoreError(f"{files.manifest_path}: missing, so there is nothing to back up")
    root = backups_folder(files.folder.parent, files.slug)
    existing = list_backups(files.folder.parent, files.slug)
    if existing and _same_file(files.manifest_path, existing[0].folder / MANIFEST):
        made, created = existing[0], False
    else:
        make_folder(root)
        _clear_leftovers(root)
        made, created = _copy_into(root, files.folder), True
    removed = _prune(files.folder.parent, files.slug, keep) if keep is not None else ()
    return BackupResult(made, created=created, removed=removed)


def _copy_into(root: Path, folder: Path) -> Backup:
    stamp = datetime.now(UTC).strftime(STAMP)
    while (root / stamp).exists():  # two backups in one microsecond: wait for the next
        time.sleep(0.000_01)
        stamp = datetime.now(UTC).strftime(STAMP)
    work = root / f"{TMP_PREFIX}{stamp}"
    try:
        copy_campaign(folder, work, durable=False, share=_full_segments(folder))
        os.rename(work, root / stamp)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return Backup(root / stamp)


def _full_segments(folder: Path) -> frozenset[Path]:
    """The log segments the manifest counts as full (relative to ``folder``): no save
    writes them again. Read before the copy: a count read later is only larger."""
    count = Backup(folder).entries or 0
    return frozenset(Path(LOG) / f"{index:06d}.json" for index in range(count // SEGMENT_SIZE))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return read_bytes(a) == read_bytes(b)
    except StoreError:
        return False


def _clear_leftovers(root: Path) -> None:
    """Remove half-made backups a killed process left (old enough not to be in progress)."""
    for path in root.glob(f"{TMP_PREFIX}*"):
        with contextlib.suppress(OSError):
            if time.time() - path.stat().st_mtime > STALE_TEMPORARY:
                shutil.rmtree(path, ignore_errors=True)


def _prune(
    saves: Path, slug: str, keep: int, protect: frozenset[Path] = frozenset()
) -> tuple[Path, ...]:
    """Remove all but the newest ``keep`` backups (never one in ``protect``)."""
    removed = []
    for old in list_backups(saves, slug)[max(keep, 1) :]:
        if old.folder in protect:
            continue
        shutil.rmtree(old.folder, ignore_errors=True)
        removed.append(old.folder)
    return tuple(removed)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return str(exc)


# -- restore --------------------------------------------------------------------------------


def check_backup(chosen: Backup) -> None:
    """``BadSave`` naming the file when ``chosen`` would not make a sound campaign.

    A backup of this Tussle's format is checked as ``tussle check`` checks a campaign; an
    older one (from before an upgrade) only for readable files: it is upgraded, with a copy
    kept, the first time the restored campaign is opened.
    """
    doc = chosen.manifest()
    path = chosen.folder / MANIFEST
    if doc is None or doc.get("app") != "tussle":
        raise BadSave(f"{path}: not a Tussle campaign manifest")
    version = doc.get("format")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise BadSave(f"{path}: format {version} is newer than this Tussle reads")
    if version == FORMAT_VERSION:
        check_campaign(CampaignFiles(chosen.folder))
        return
    for file in sorted(chosen.folder.rglob("*.json")):
        parse_json(read_bytes(file) or b"", file)  # BadSave naming it


def restore(files: CampaignFiles, chosen: Backup, keep: int = BACKUPS_KEPT) -> Restored:
    """Put ``chosen`` back as ``files``'s campaign; a restore can itself be undone.

    Checks the backup first; takes the campaign's lock (``CampaignLocked`` naming the
    holder when another process has it); backs up the campaign as it stands; then
    replaces its files. While the log is replaced the manifest counts no entry, so a
    crash midway leaves an empty but sound campaign, never a mix of two states (and both
    states are in backups). Use a new ``CampaignFiles`` afterwards: this one's cached
    manifest is the old one's.
    """
    check_backup(chosen)
    name = str((chosen.manifest() or {}).get("name", files.slug))
    make_folder(files.folder)  # a deleted campaign brought back
    lock = CampaignLock(files.folder)
    lock.acquire(name, what=RESTORER)
    try:
        files.clean_temporary_files()
        before = None
        if files.manifest_path.exists():
            before = make_backup(files, keep=None).backup
        _replace_files(files.folder, chosen.folder)
    finally:
        lock.release()
    protect = frozenset({chosen.folder} | ({before.folder} if before else set()))
    _prune(files.folder.parent, files.slug, keep, protect)
    return Restored(chosen, before)


def _replace_files(folder: Path, source: Path) -> None:
    """The campaign's manifest and log made the backup's; other files are left alone.
    Whatever stands where the log folder should be (a link, a file, a pipe) is removed,
    never followed: a restore is how a damaged campaign is mended."""
    manifest_text = _text(source / MANIFEST)
    data = json.loads(manifest_text)
    data["manifest"]["1"]["entries"] = 0
    data["manifest"]["1"][RESTORING] = source.name  # the log past 0 is neither state's
    write_atomically(folder / MANIFEST, json.dumps(data, ensure_ascii=False))
    remove_snapshot(CampaignFiles(folder))  # of the state replaced: rebuilt at the next opening
    log_folder = folder / LOG
    if log_folder.is_symlink() or (log_folder.exists() and not log_folder.is_dir()):
        log_folder.unlink()
    wanted = {path.name for path in (source / LOG).glob("*.json") if path.is_file()}
    make_folder(log_folder)
    for name in sorted(wanted):
        write_atomically(log_folder / name, _text(source / LOG / name))
    for path in sorted(log_folder.iterdir()):
        if (path.is_file() or path.is_symlink()) and path.name not in wanted:
            path.unlink()
    write_atomically(folder / MANIFEST, manifest_text)


def _text(path: Path) -> str:
    """A backup's file as text, read as every save file is (no link, no pipe)."""
    raw = read_bytes(path)
    if raw is None:
        raise BadSave(f"{path}: missing")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadSave(f"{path}: not a Tussle save (not UTF-8 text)") from None


__all__ = [
    "BACKUPS",
    "BACKUPS_KEPT",
    "Backup",
    "BackupResult",
    "Restored",
    "backup",
    "backups_folder",
    "check_backup",
    "copy_campaign",
    "list_backups",
    "make_backup",
    "restore",
]
