"""Campaigns on disk, in TinyDB, under the saves folder. The one module importing tinydb.

One campaign is a folder named by a safe file name::

    saves/<slug>/manifest.json      TinyDB: format version, name as typed, system,
                                    settings, and how many log entries count
    saves/<slug>/log/000000.json    TinyDB segments of SEGMENT_SIZE log entries each
    saves/<slug>/campaign.lock      held (flock) by the one process writing

Saving one GM action writes its entry into the current segment (a small file, whatever
the campaign's size), then the manifest, last: an entry counts once the manifest says so.
Every file is written whole to a temporary file, fsynced and renamed over the old one
(:class:`AtomicJSONStorage`), so a crash leaves the old file or the new, never half.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.campaign import FORMAT_VERSION, SYSTEM_NAMES, Campaign, Entry
from core.codec import CodecError, decode, encode
from core.disk import LOCK as LOCK
from core.disk import MANIFEST as MANIFEST
from core.disk import TMP_PREFIX as TMP_PREFIX
from core.disk import AtomicJSONStorage as AtomicJSONStorage
from core.disk import BadSave as BadSave
from core.disk import CampaignLock as CampaignLock
from core.disk import CampaignLocked as CampaignLocked
from core.disk import StoreError as StoreError
from core.disk import fsync_path as fsync_path
from core.disk import write_atomically as write_atomically
from core.migrate import migrate_if_needed
from core.model import Event

if TYPE_CHECKING:
    from tinydb import TinyDB
    from tinydb.table import Document

SEGMENT_SIZE = 100
APP = "tussle"


def saves_folder(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--saves DIR``, else ``$TUSSLE_SAVES``, else ``./saves``."""
    chosen = explicit or os.environ.get("TUSSLE_SAVES") or "saves"
    return Path(chosen).expanduser()


def safe_name(name: str) -> str:
    """A file name for a campaign name as typed: ``"Children of the Grave!"`` ->
    ``"children-of-the-grave"``. Never empty, never a path, at most 60 characters."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:60].strip("-")
    return slug or "campaign"


def _db(path: Path) -> TinyDB:
    from tinydb import TinyDB

    return TinyDB(path, storage=AtomicJSONStorage)


@dataclass(frozen=True, slots=True)
class CampaignInfo:
    """What the campaign screen lists; ``problem`` is set for a save that will not open."""

    slug: str
    name: str
    system: str
    entries: int
    updated: str
    problem: str | None = None


class CampaignFiles:
    """One campaign's folder: load it, append to its log."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.manifest_path = folder / MANIFEST
        self.lock = CampaignLock(folder)
        self._meta: dict[str, Any] | None = None

    @property
    def slug(self) -> str:
        return self.folder.name

    # -- reading -------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        if self._meta is None:
            if not self.manifest_path.exists():
                raise BadSave(f"{self.manifest_path}: missing")
            # What TinyDB's table("manifest").get(doc_id=1) reads, without TinyDB.
            tables = AtomicJSONStorage(self.manifest_path).read() or {}
            doc = tables.get("manifest", {}).get("1")
            if not isinstance(doc, dict) or doc.get("app") != APP:
                raise BadSave(f"{self.manifest_path}: not a Tussle campaign")
            version = doc.get("format")
            if not isinstance(version, int) or version > FORMAT_VERSION:
                raise BadSave(
                    f"{self.manifest_path}: format {version} is newer than this Tussle "
                    f"reads ({FORMAT_VERSION}); upgrade Tussle to open it"
                )
            if doc.get("system") not in SYSTEM_NAMES:
                raise BadSave(f"{self.manifest_path}: unknown system {doc.get('system')!r}")
            entries = doc.get("entries")
            if not isinstance(entries, int) or isinstance(entries, bool) or entries < 0:
                raise BadSave(f"{self.manifest_path}: bad count of log entries {entries!r}")
            if not isinstance(doc.get("name"), str):
                raise BadSave(f"{self.manifest_path}: the campaign has no name")
            if not isinstance(doc.get("settings"), dict):
                raise BadSave(f"{self.manifest_path}: the settings are not an object")
            self._meta = dict(doc)
            # An older format is upgraded here, under the lock unless this object has it.
            try:
                upgraded = migrate_if_needed(
                    self.folder, version, doc["name"], locked=self.lock.held
                )
            except BaseException:
                self._meta = None  # never leave the old manifest cached as if it were fine
                raise
            if upgraded:
                self._meta = None
                return self.meta()  # the upgraded manifest, checked like any other
        return self._meta

    def info(self) -> CampaignInfo:
        try:
            meta = self.meta()
        except StoreError as error:
            return CampaignInfo(self.slug, self.slug, "?", 0, "", problem=str(error))
        return CampaignInfo(
            self.slug,
            str(meta["name"]),
            str(meta["system"]),
            int(meta["entries"]),
            str(meta.get("updated", "")),
        )

    def segment_path(self, index: int) -> Path:
        return self.folder / "log" / f"{index:06d}.json"

    def raw_entries(self, start: int = 0) -> Iterator[dict[str, Any]]:
        """The log's entries as saved, in order, as many as the manifest counts (from
        entry ``start``: a follower reads only what is new)."""
        count = int(self.meta()["entries"])
        for index in range(start // SEGMENT_SIZE, (count + SEGMENT_SIZE - 1) // SEGMENT_SIZE):
            path = self.segment_path(index)
            tables = AtomicJSONStorage(path).read() or {}  # one read: format and entries
            stamps: list[dict[str, Any]] = list((tables.get("format") or {}).values())
            version = stamps[0].get("format", 1) if stamps else 1  # early files had none
            if not isinstance(version, int) or version > FORMAT_VERSION:
                raise BadSave(
                    f"{path}: format {version} is newer than this Tussle reads "
                    f"({FORMAT_VERSION}); upgrade Tussle to open it"
                )
            docs = {int(k): v for k, v in (tables.get("entries") or {}).items() if k.isdigit()}
            first = max(0, start - index * SEGMENT_SIZE)
            for slot in range(first, min(SEGMENT_SIZE, count - index * SEGMENT_SIZE)):
                n = index * SEGMENT_SIZE + slot
                doc = docs.get(slot + 1)
                if doc is None:
                    raise BadSave(f"{path}: entry {n} is missing")
                entry = doc.get("entry")
                if not isinstance(entry, dict):
                    raise BadSave(f"{path}: entry {n} is not a log entry")
                yield dict(entry)

    def load(self, into: Campaign | None = None) -> Campaign:
        """The campaign as saved, every entry replayed; with ``into`` (a campaign loaded
        from these files before), only the entries saved since are read and applied."""
        meta = self.meta()
        campaign = into or Campaign(
            name=str(meta["name"]), system=str(meta["system"]), settings=dict(meta["settings"])
        )
        start = campaign.entries
        for n, raw in enumerate(self.raw_entries(start), start):
            try:
                entry = decode(raw, Event)
                campaign.apply(entry)
            except (CodecError, ValueError, KeyError, TypeError) as exc:
                raise BadSave(f"{self.folder}: log entry {n} does not replay: {exc}") from None
        return campaign

    # -- writing -------------------------------------------------------------------------
    def create(self, name: str, system: str, settings: dict[str, Any] | None = None) -> None:
        (self.folder / "log").mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        meta: dict[str, Any] = {
            "app": APP,
            "format": FORMAT_VERSION,
            "name": name,
            "slug": self.slug,
            "system": system,
            "settings": settings or {},
            "entries": 0,
            "segment_size": SEGMENT_SIZE,
            "created": stamp,
            "updated": stamp,
        }
        self._write_meta(meta)

    def append(self, entries: list[Entry]) -> None:
        """Save ``entries`` after those already saved: on disk when this returns.

        If it raises, none of them counts: the manifest on disk still has the old count,
        and so has this object (it reads the manifest again), so the next append writes
        over whatever part of them reached a segment.
        """
        from tinydb.table import Document

        meta = self.meta()
        count = int(meta["entries"])
        try:
            # One write per segment touched: a GM action's entry rewrites one small file.
            by_segment: dict[int, list[Document]] = {}
            for entry in entries:
                index, slot = divmod(count, SEGMENT_SIZE)
                doc = Document({"entry": encode(entry)}, doc_id=slot + 1)
                by_segment.setdefault(index, []).append(doc)
                count += 1
            for index, docs in by_segment.items():
                db = _db(self.segment_path(index))
                if not db.table("format"):  # every file says which format it is in
                    db.table("format").insert({"app": APP, "format": FORMAT_VERSION})
                table = db.table("entries")
                present = {d.doc_id for d in table.all()} if len(table) else set()
                stale = [d.doc_id for d in docs if d.doc_id in present]
                if stale:  # left by an append the manifest never counted
                    table.remove(doc_ids=stale)
                table.insert_multiple(docs)
            stamp = datetime.now(UTC).isoformat(timespec="seconds")
            self._write_meta({**meta, "entries": count, "updated": stamp})
        except BaseException:
            self._meta = None
            raise

    def _write_meta(self, meta: dict[str, Any]) -> None:
        """Write the manifest; only once it is on disk does this object go by it."""
        from tinydb.table import Document

        table = _db(self.manifest_path).table("manifest")
        table.upsert(Document(meta, doc_id=1))
        self._meta = meta

    def clean_temporary_files(self) -> None:
        """Remove what killed writers left behind (call with the lock held)."""
        for folder in (self.folder, self.folder / "log"):
            for tmp in folder.glob(f"{TMP_PREFIX}*"):
                with contextlib.suppress(OSError):
                    tmp.unlink()


def _unfinished(folder: Path) -> bool:
    """A campaign folder whose creation was cut short (no manifest, an empty log): safe
    to make the campaign in again."""
    log = folder / "log"
    return (
        not (folder / MANIFEST).exists()
        and all(p.name in ("log", LOCK) or p.name.startswith(TMP_PREFIX) for p in folder.iterdir())
        and (not log.exists() or not any(log.iterdir()))
    )


class Saves:
    """The saves folder: every campaign in it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def campaigns(self) -> list[CampaignInfo]:
        if not self.folder.is_dir():
            return []
        # A campaign's folder is a safe_name, which never has a dot: a name with one is a
        # copy kept aside (a migration's, .backups, .tmp-import-...), not a campaign.
        return sorted(
            (
                CampaignFiles(d).info()
                for d in self.folder.iterdir()
                if "." not in d.name and (d / MANIFEST).exists()
            ),
            key=lambda info: info.name.lower(),
        )

    def find(self, name: str) -> CampaignFiles | None:
        """The campaign called ``name`` (as typed) or stored under that file name."""
        for info in self.campaigns():
            if info.name == name or info.slug == name:
                return CampaignFiles(self.folder / info.slug)
        return None

    def create(self, name: str, system: str) -> CampaignFiles:
        if not name.strip():
            raise StoreError("a campaign needs a name")
        if system not in SYSTEM_NAMES:
            raise StoreError(f'no rule system "{system}" (try {", ".join(SYSTEM_NAMES)})')
        if self.find(name) is not None:
            raise StoreError(f'a campaign called "{name}" already exists')
        self.folder.mkdir(parents=True, exist_ok=True)
        base = safe_name(name)
        slug, n = base, 1
        while (self.folder / slug).exists() and not _unfinished(self.folder / slug):
            n += 1
            slug = f"{base}-{n}"
        files = CampaignFiles(self.folder / slug)
        files.create(name, system)
        return files

    def find_or_create(self, name: str, system: str) -> CampaignFiles:
        """The campaign called ``name``, made when missing; two processes doing this at
        once get the same campaign (a lock on the saves folder orders them)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder / ".create.lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return self.find(name) or self.create(name, system)
        finally:
            os.close(fd)
