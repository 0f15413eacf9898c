"""Campaigns on disk, in TinyDB, under the saves folder (the one module that imports it).

One campaign is a folder named by a safe file name::

    saves/<slug>/manifest.json      TinyDB: format version, name as typed, system,
                                    settings, and how many log entries count
    saves/<slug>/log/000000.json    TinyDB segments of SEGMENT_SIZE log entries each
    saves/<slug>/campaign.lock      held (flock) by the one process writing
    saves/<slug>/set-aside/*.json   log entries that did not load, moved out of the
                                    log, never deleted (core.saves.set_aside)

Saving one GM action writes its entry into the current segment (a small file, whatever
the campaign's size), then the manifest, last: an entry counts once the manifest says so.
Every file is written whole to a temporary file, fsynced and renamed over the old one
(:class:`AtomicJSONStorage`), so a crash leaves the old file or the new, never half.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import itertools
import json
import logging
import os
import re
import shutil
import stat
import unicodedata
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

import msgspec

from core.campaign.actions import Campaign
from core.campaign.log import FORMAT_VERSION, ActionRecorded, Entry
from core.campaign.state import ContestRecord
from core.files.codec import encode
from core.files.disk import (
    LOCK,
    LOG,
    MANIFEST,
    MAX_FILE_BYTES,
    SEGMENT_SIZE,
    TMP_PREFIX,
    AtomicJSONStorage,
    BadSave,
    CampaignLock,
    ReadOnlySaves,
    StoreError,
    SystemNotInstalled,
    change_point,
    fsync_path,
    make_folder,
    read_bytes,
    real_folder,
    too_deep,
    write_atomically,
)
from core.rules import SYSTEM_NAMES
from core.saves import set_aside as set_aside_files
from core.saves import snapshot
from core.saves.lazy import Reserve, ReservedActions
from core.saves.migrate import current_version, migrate_if_needed, upgrade_log
from core.saves.replay import REPLAY_ERRORS, number_problem

if TYPE_CHECKING:
    from tinydb import TinyDB
    from tinydb.table import Document
from core.saves.replay import replay_entry
from core.saves.set_aside import BadEntry
from core.text import refuse_control, visible

APP = "tussle"
# The manifest's id of its campaign, made when the campaign is (uuid4, hex), and stamped in
# the format table of each log segment the campaign writes: a segment of another
# campaign's folder is told (issue 30, item 7). A campaign an older Tussle made gets one at
# its next save, with STAMPED_FROM, the first segment that save wrote: those before it
# name no campaign, and are trusted as they were.
CAMPAIGN_ID = "campaign_id"
STAMPED_FROM = "stamped_from"
SEGMENT_OWNER = "campaign"  # a segment's format table: the campaign_id of its campaign
# The manifest's key while a restore replaces the log (core.saves.backup): nothing counts then.
RESTORING = "restoring"
SEGMENT_NAME = re.compile(r"(\d{6})\.json")

log = logging.getLogger(__name__)


def saves_folder(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--saves DIR``, else ``$TUSSLE_SAVES``, else ``./saves`` when the folder Tussle
    starts from has one (a clone, or an older Tussle's saves), else the GM's own data
    folder, the same from any folder: ``$XDG_DATA_HOME/tussle/saves`` (by default
    ``~/.local/share/tussle/saves``)."""
    chosen = explicit or os.environ.get("TUSSLE_SAVES")
    if chosen:
        return Path(chosen).expanduser()
    if os.path.isdir("saves"):
        return Path("saves")
    data = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(data):  # unset, empty or relative: the spec's default
        data = "~/.local/share"
    return Path(data).expanduser() / "tussle" / "saves"


def close_names(names: list[str], name: str) -> list[str]:
    """Those of ``names`` a GM may have meant by ``name``: the same but for case, spaces
    or punctuation (the same file name), or one or two letters off."""
    import difflib

    names = [n for n in names if n != name]
    same = [n for n in names if safe_name(n) == safe_name(name)]
    folded = {n.casefold(): n for n in names}
    near = difflib.get_close_matches(name.casefold(), list(folded), n=3, cutoff=0.85)
    return list(dict.fromkeys([*same, *(folded[n] for n in near)]))


def safe_name(name: str) -> str:
    """A file name for a campaign name as typed: ``"Children of the Grave!"`` ->
    ``"children-of-the-grave"``. Never empty, never a path, at most 60 characters."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:60].strip("-")
    return slug or "campaign"


class CampaignInfo(msgspec.Struct, frozen=True):
    """What the campaign screen lists; ``problem`` is set for a save that will not open."""

    slug: str
    name: str
    system: str
    entries: int
    updated: str
    problem: str | None = None
    missing_system: bool = False  # the problem: its rule system's plug-in is not installed
    set_aside: int = 0  # log entries set aside that are not back (core.saves.set_aside)


# -- TinyDB: the files' layout and the table operations that write them ------------------


@contextlib.contextmanager
def tinydb_file(path: Path, fresh: bool = False) -> Iterator[TinyDB]:
    """The save at ``path`` as a TinyDB database whose table operations in the block reach
    the disk in one write, whole, as the block ends (:class:`AtomicJSONStorage`); nothing
    is written when the block raises. TinyDB writes its file once per table operation: a
    new segment (its format table, then its entries) cut between the two left a file no
    reader takes (issue 30, item 1). ``fresh``: the file is written anew, never read.

    TinyDB loads here, when a campaign is first written: reading one (what the dashboard
    does before its first frame) goes by :class:`AtomicJSONStorage` alone."""
    from tinydb import TinyDB

    batch = _one_write()(AtomicJSONStorage)
    db = TinyDB(path, storage=batch)
    if fresh:
        batch.pending = {}
    yield db
    batch.commit()


@functools.cache
def _one_write() -> type[Any]:
    """TinyDB middleware that keeps what the table operations write until ``commit``,
    then writes it in one go (built when first asked: importing TinyDB waits till then)."""
    from tinydb.middlewares import Middleware

    class OneWrite(Middleware):
        def __init__(self, storage_cls: Any) -> None:
            super().__init__(storage_cls)
            self.pending: dict[str, Any] | None = None

        def read(self) -> dict[str, Any] | None:
            return self.pending if self.pending is not None else self.storage.read()

        def write(self, data: dict[str, Any]) -> None:
            self.pending = data

        def commit(self) -> None:
            if self.pending is not None:
                self.storage.write(self.pending)
                self.pending = None

        def close(self) -> None:
            self.storage.close()

    return OneWrite


def document(fields: dict[str, Any], doc_id: int) -> Document:
    """A TinyDB document with its id (a log entry's slot; the manifest's 1)."""
    from tinydb.table import Document

    return Document(fields, doc_id=doc_id)


class CampaignFiles:
    """One campaign's folder: load it, append to its log."""

    def __init__(self, folder: Path, backup_copy: bool = False) -> None:
        self.folder = folder
        self.manifest_path = folder / MANIFEST
        # A copy kept aside (a backup, in a folder named by its time): the one campaign
        # folder whose name is not the one its manifest gives.
        self.backup_copy = backup_copy
        # Whatever was read before the lock was taken may be stale once it is: forget it.
        self.lock = CampaignLock(folder, on_acquire=self.forget)
        self._meta: dict[str, Any] | None = None
        # For the snapshot (core.saves.snapshot): the entry of each action this object replayed
        # or saved, what it last wrote, and what an opening from the snapshot reads back.
        self.positions: dict[int, int] = {}
        self.snapshot_problem: str | None = None
        self._written = snapshot.Written()
        self._reader: Callable[[int, int], ActionRecorded] | None = None
        self._replayed: Campaign | None = None
        # The first log entry the last load() could not replay (core.saves.set_aside).
        self.bad_entry: BadEntry | None = None

    def forget(self) -> None:
        """Read the manifest again at the next look (another process may have saved)."""
        self._meta = None

    @property
    def slug(self) -> str:
        return self.folder.name

    # -- reading -------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        if self._meta is None:
            real_folder(self.folder)
            if not os.path.lexists(self.manifest_path):
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
            if not isinstance(doc.get("system"), str):
                raise BadSave(f"{self.manifest_path}: unknown system {doc.get('system')!r}")
            if doc["system"] not in SYSTEM_NAMES:
                raise SystemNotInstalled(
                    f'{self.manifest_path}: this campaign plays "{visible(doc["system"])}", a '
                    "rule system no installed plug-in provides (installed: "
                    f"{', '.join(SYSTEM_NAMES)}); install its plug-in to open it"
                )
            entries = doc.get("entries")
            if not isinstance(entries, int) or isinstance(entries, bool) or entries < 0:
                raise BadSave(f"{self.manifest_path}: bad count of log entries {entries!r}")
            if not isinstance(doc.get("name"), str):
                raise BadSave(f"{self.manifest_path}: the campaign has no name")
            if not isinstance(doc.get("settings"), dict):
                raise BadSave(f"{self.manifest_path}: the settings are not an object")
            if too_deep(doc):
                raise BadSave(f"{self.manifest_path}: not a Tussle campaign (nested too deep)")
            problem = number_problem(doc["settings"])
            if problem is not None:
                raise BadSave(f"{self.manifest_path}: settings.{problem}")
            self._refuse_another_folders(doc)
            size = doc.get("segment_size", SEGMENT_SIZE)
            if size != SEGMENT_SIZE:
                raise BadSave(
                    f"{self.manifest_path}: log segments of {size!r} entries; "
                    f"this Tussle writes and reads {SEGMENT_SIZE}"
                )
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

    def _refuse_another_folders(self, doc: dict[str, Any]) -> None:
        """``BadSave`` for a manifest that is not this folder's: one that names another
        folder (copied, or the folder moved, by hand: two folders would claim one name,
        and a save go into the wrong one), or whose ids are not well formed."""
        slug = doc.get("slug")
        if isinstance(slug, str) and slug != self.slug and not self.backup_copy:
            raise BadSave(
                f'{self.manifest_path}: the manifest of the campaign in folder "{visible(slug)}", '
                f'not of this one ("{self.slug}"): copied or moved here by hand? Move it '
                f"back; to keep a copy of a campaign, export it and import it under "
                "another name"
            )
        ident = doc.get(CAMPAIGN_ID)
        if ident is not None and not (
            isinstance(ident, str) and re.fullmatch(r"[0-9a-f]{32}", ident)
        ):
            raise BadSave(f"{self.manifest_path}: a bad campaign id {ident!r}")
        first = doc.get(STAMPED_FROM, 0)
        if type(first) is not int or first < 0:
            raise BadSave(f"{self.manifest_path}: a bad first stamped log segment {first!r}")

    def info(self) -> CampaignInfo:
        try:
            meta = self.meta()
        except StoreError as error:
            missing = isinstance(error, SystemNotInstalled)
            return CampaignInfo(
                self.slug, self.slug, "?", 0, "", problem=str(error), missing_system=missing
            )
        return CampaignInfo(
            self.slug,
            str(meta["name"]),
            str(meta["system"]),
            int(meta["entries"]),
            str(meta.get("updated", "")),
            set_aside=set_aside_files.waiting(meta),
        )

    def segment_path(self, index: int) -> Path:
        return self.folder / "log" / f"{index:06d}.json"

    def raw_entries(self, start: int = 0) -> Iterator[dict[str, Any]]:
        """The log's entries as saved, in order, as many as the manifest counts (from
        entry ``start``: a follower reads only what is new)."""
        for _, _, entry in self.counted_entries(start):
            yield entry

    def counted_entries(self, start: int = 0) -> Iterator[tuple[Path, int, dict[str, Any]]]:
        """Each entry the manifest counts, from ``start``: the segment file it is in, its
        number and the entry as saved. The one reading of the log that opening, following,
        checking and exporting share, so what ``tussle check`` passes is what opens.

        ``BadSave`` naming the file for a segment missing, damaged, of another format, or
        short of an entry; and for a log that holds entries past the count which no
        unfinished save left (the manifest is older than the log: a save would overwrite
        them).
        """
        count = int(self.meta()["entries"])
        segments = (count + SEGMENT_SIZE - 1) // SEGMENT_SIZE
        if count:
            real_folder(self.folder / LOG)
        last: dict[int, Any] | None = None  # the segment holding entry `count`, if read
        for index in range(start // SEGMENT_SIZE, segments):
            path = self.segment_path(index)
            if not os.path.lexists(path):
                raise BadSave(
                    f"{path}: missing (the manifest counts {count} log entries, "
                    f"in {segments} segment files)"
                )
            docs = self.segment_docs(index)
            if docs is None:
                raise BadSave(f"{path}: empty")
            first = max(0, start - index * SEGMENT_SIZE)
            for slot in range(first, min(SEGMENT_SIZE, count - index * SEGMENT_SIZE)):
                n = index * SEGMENT_SIZE + slot
                doc = docs.get(slot + 1)
                if doc is None:
                    raise BadSave(f"{path}: log entry {n} is missing (the manifest counts {count})")
                entry = doc.get("entry")
                if not isinstance(entry, dict):
                    raise BadSave(f"{path}: log entry {n} is not a log entry")
                yield path, n, dict(entry)
            last = docs
        self.check_tail(count, last if count % SEGMENT_SIZE else None)

    def segment_docs(self, index: int, past: bool = False) -> dict[int, dict[str, Any]] | None:
        """Segment ``index``'s documents by slot (1 to SEGMENT_SIZE), None for a missing
        or empty file; ``BadSave`` for one that is not a log segment of this format.
        ``past``: a segment past the manifest's count, where a file with its format but
        no entries yet is what an older Tussle's save cut short left (issue 30, item 1):
        no entries, not damage."""
        path = self.segment_path(index)
        tables = AtomicJSONStorage(path).read()  # one read: format and entries
        if tables is None:
            return None
        stamps: list[dict[str, Any]] = list((tables.get("format") or {}).values())
        version = stamps[0].get("format", 1) if stamps else 1  # early files had none
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise BadSave(f"{path}: not a Tussle log segment (format {version!r})")
        if version > FORMAT_VERSION:
            raise BadSave(
                f"{path}: format {version} is newer than this Tussle reads "
                f"({FORMAT_VERSION}); upgrade Tussle to open it"
            )
        table = tables.get("entries")
        if table is None and past and set(tables) == {"format"}:
            return {}
        if table is None:
            raise BadSave(f"{path}: not a Tussle log segment (no entries table)")
        if stamps:  # the earliest files had no stamp at all: what they hold tells
            self._refuse_another_campaigns(path, index, stamps[0], past)
        return {int(k): v for k, v in table.items() if 1 <= int(k) <= SEGMENT_SIZE}

    def _refuse_another_campaigns(
        self, path: Path, index: int, stamp: dict[str, Any], past: bool
    ) -> None:
        """``BadSave`` for a log segment that is not this campaign's (issue 30, item 7):
        one stamped with another campaign's id, or none where every segment this campaign
        has written names it (a segment past the count, left by an older Tussle's save
        cut short, may name none)."""
        meta = self.meta()
        ours = meta.get(CAMPAIGN_ID)
        owner = stamp.get(SEGMENT_OWNER)
        if owner is not None and owner != ours:
            raise BadSave(
                f"{path}: a log segment of another campaign (its id {visible(str(owner))!r}, "
                f"this one's {ours!r}): copied in from another campaign's folder? tussle "
                f"restore {self.slug} puts a backup back"
            )
        if owner is None and ours is not None and not past and index >= meta.get(STAMPED_FROM, 0):
            raise BadSave(
                f"{path}: a log segment that names no campaign, where every one this campaign "
                "wrote names it: from another campaign's folder? tussle restore "
                f"{self.slug} puts a backup back"
            )

    def check_tail(self, count: int, docs: dict[int, Any] | None = None) -> None:
        """``BadSave`` when the log holds an entry past the manifest's ``count`` saved by
        a later save than the one an unfinished save would be (each entry records the
        count its save started from: entries past the count are the leftovers of a save
        cut short only when they all started from this count). ``docs``: the segment
        holding entry ``count``, when already read."""
        if self.meta().get(RESTORING):
            return  # a restore cut short: the log is part old, part restored, none counted
        trimming = self.meta().get("trimming")
        moved = range(trimming[0], trimming[1]) if _pair(trimming) else range(0)  # set aside
        first = count // SEGMENT_SIZE
        try:
            names = os.listdir(self.folder / LOG)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StoreError(f"{self.folder / LOG}: cannot be read ({exc.strerror})") from None
        found = sorted(int(match.group(1)) for match in map(SEGMENT_NAME.fullmatch, names) if match)
        for index in (i for i in found if i >= first):
            past = index * SEGMENT_SIZE >= count  # none of it counts: maybe a save cut short
            slots = docs if index == first and docs is not None else self.segment_docs(index, past)
            for slot, doc in sorted((slots or {}).items()):
                n = index * SEGMENT_SIZE + slot - 1
                base = doc.get("base", count) if isinstance(doc, dict) else count
                if n in moved:
                    continue
                if n >= count and base != count and self._count_on_disk() == count:
                    path = self.segment_path(index)
                    raise BadSave(
                        f"{path}: log entry {n} was saved after the {count} entries the "
                        "manifest counts, so the manifest is older than the log and the "
                        "next save would overwrite it; tussle restore "
                        f"{self.slug} puts a backup back"
                    )

    def refuse_unfinished_restore(self) -> None:
        """``BadSave`` for a campaign whose restore was cut short (issue 30, item 6): its
        manifest counts no entry while the log is replaced, which is neither the campaign
        before nor the backup, and must not pass for an empty campaign."""
        chosen = self.meta().get(RESTORING)
        if chosen:
            raise BadSave(
                f"{self.manifest_path}: a restore of backup {visible(str(chosen))} was cut "
                f"short; `tussle restore {self.slug}` lists the backups (the campaign as "
                "it was before is one of them) and puts the one you choose back"
            )

    def _count_on_disk(self) -> int | None:
        """The manifest's count as on disk now (a writer may have saved since ours was
        read: entries past our count are then its, not damage)."""
        try:
            tables = AtomicJSONStorage(self.manifest_path).read() or {}
        except StoreError:
            return None
        doc = tables.get("manifest", {}).get("1")
        count = doc.get("entries") if isinstance(doc, dict) else None
        return count if isinstance(count, int) else None

    def load(self, into: Campaign | None = None) -> Campaign:
        """The campaign as saved: its snapshot (core.saves.snapshot) and the entries saved
        after it, or, without a sound snapshot, every entry replayed; with ``into`` (a
        campaign loaded from these files before), only the entries saved since are read
        and applied. Writes the snapshot again when it is due (and the lock held)."""
        self.bad_entry = None
        self.refuse_unfinished_restore()
        if self.lock.held:
            try:
                self._finish_trimming()
            except (OSError, StoreError) as error:  # the leftovers are known: not damage
                self._meta = None
                log.warning("%s: the log is trimmed later (%s)", self.folder, _why(error))
        count = int(self.meta()["entries"])
        campaign = into or self._from_snapshot() or self.empty()
        try:
            costly = self._replay_into(campaign, count)
        except BadSave as problem:
            n = campaign.entries  # an entry counts once applied whole: this one did not
            if n >= count or not self.plain_log(n, count):
                raise  # the log past the count, a link: damage, not an entry's problem
            kept_in = None
            if self.lock.held:
                try:
                    kept_in = self.set_aside(n, str(problem))
                except (OSError, StoreError) as error:  # a full or read-only disk
                    self._meta = None
                    # Saving after the bad entry would write over what is set aside.
                    raise ReadOnlySaves(
                        f"{self.folder}: log entry {n} does not load, and it could not be "
                        f"set aside ({_why(error)})"
                    ) from None
            # It may be half applied: the campaign again, to the entry before it (and
            # with the ids of those set aside taken).
            campaign = self._from_snapshot(upto=n) or self.empty()
            self._replay_into(campaign, n)
            self.bad_entry = BadEntry(self.slug, n, count, str(problem), kept_in)
            log.warning("%s", self.bad_entry.message())
            costly = False
        self.keep_snapshot(campaign, now=costly)
        return campaign

    def _replay_into(self, campaign: Campaign, count: int) -> bool:
        """Apply the entries from ``campaign.entries`` to ``count`` (not past it); whether
        an undo or redo was among them."""
        costly = False  # an undo or redo replayed: opening again would read back as much
        start = campaign.entries
        entries: Iterator[dict[str, Any]] = self.raw_entries(start)  # whole: its tail checked
        if count < int(self.meta()["entries"]):  # never read past: what follows is damaged
            entries = itertools.islice(entries, count - start)
        for n, raw in enumerate(entries, start):
            entry = replay_entry(str(self.folder), n, raw, campaign)
            if isinstance(entry, ActionRecorded):
                self.positions[entry.action_id] = n
            else:
                costly = True
        return costly

    def settings_at_start(self) -> dict[str, Any]:
        """The settings the campaign's log starts from (the manifest's: none, but for a
        campaign imported from an export that started with some)."""
        return dict(self.meta()["settings"])

    def empty(self) -> Campaign:
        """The campaign before its first log entry."""
        meta = self.meta()
        campaign = Campaign(
            name=str(meta["name"]), system=str(meta["system"]), settings=self.settings_at_start()
        )
        reserved = self.reserved()
        if reserved != Reserve():  # ids taken by entries set aside: never handed out again
            campaign.actions = ReservedActions(reserved)
        return campaign

    def reserved(self) -> Reserve:
        """The ids that entries set aside from the log took (core.saves.lazy.Reserve)."""
        return Reserve.of(self.meta().get("reserved"))

    def replay(self, entries: int) -> Campaign:
        """The campaign as its first ``entries`` log entries make it, every one replayed
        (never the snapshot)."""
        campaign = self.empty()
        for n, raw in enumerate(itertools.islice(self.raw_entries(), entries)):
            replay_entry(str(self.folder), n, raw, campaign)
        return campaign

    # -- the snapshot (core.saves.snapshot) ------------------------------------------------------
    def _from_snapshot(self, upto: int | None = None) -> Campaign | None:
        """The campaign as the snapshot holds it (None without a sound one, or one past
        entry ``upto``)."""
        try:
            campaign = snapshot.read(self, self._read_action, self._read_contest)
        except snapshot.SnapshotProblem as problem:
            self.snapshot_problem = str(problem)
            log.info("%s: the log is replayed instead", problem)
            return None
        if campaign is not None and upto is not None and campaign.entries > upto:
            return None
        if campaign is not None:
            self._written.entries = campaign.entries
        return campaign

    def _read_action(self, action_id: int, n: int) -> ActionRecorded:
        """Action ``action_id``, at log entry ``n`` as the snapshot says, read back."""
        if self._reader is None:
            self._reader = snapshot.log_reader(self)
        try:
            return self._reader(action_id, n)
        except BadSave as problem:  # the snapshot was wrong, or the log is damaged there
            return self._instead(snapshot.SnapshotProblem(str(problem))).actions[action_id]

    def _read_contest(self, contest_id: str, name: str) -> ContestRecord:
        try:
            return snapshot.read_contest_file(self.folder, contest_id, name)
        except snapshot.SnapshotProblem as problem:
            return self._instead(problem).contests[contest_id]

    def _instead(self, problem: snapshot.SnapshotProblem) -> Campaign:
        """The log replayed to where the snapshot stands, for what it could not give."""
        log.warning("%s: the log is replayed instead", problem)
        self.snapshot_problem = str(problem)
        if self._replayed is None:
            self._replayed = self.replay(self._written.entries)
        return self._replayed

    def snapshot_due(self, campaign: Campaign, now: bool = False) -> bool:
        """Whether to write the snapshot: :data:`core.saves.snapshot.EVERY` entries were saved
        since the last, or (``now``) any was (after an undo, whose replay reads back
        every action of its contest). A campaign of fewer entries has none: its whole log
        replays in no time."""
        since = campaign.entries - self._written.entries
        early = now and since > 0 and campaign.entries >= snapshot.EVERY  # none if short
        return self.lock.held and (since >= snapshot.EVERY or early)

    def keep_snapshot(self, campaign: Campaign, now: bool = False) -> None:
        """Write ``campaign``'s snapshot when :data:`core.saves.snapshot.EVERY` entries or more
        were saved since the last one: only by the process holding the lock, only for the
        campaign as saved (nothing unsaved). Never raises: a snapshot only saves time."""
        if not self.snapshot_due(campaign, now):
            return
        try:
            if campaign.entries != int(self.meta()["entries"]):
                return
            snapshot.write(self, campaign, self.positions, self._written)
        except (OSError, StoreError, *REPLAY_ERRORS) as error:
            log.warning("%s: no snapshot written (%s)", self.folder, error)

    # -- writing -------------------------------------------------------------------------
    def create(self, name: str, system: str, settings: dict[str, Any] | None = None) -> None:
        try:
            make_folder(self.folder / LOG)  # the GM's alone, as every file in it
        except OSError as exc:
            raise StoreError(f"{self.folder}: not created ({exc.strerror or exc})") from None
        real_folder(self.folder)
        real_folder(self.folder / LOG)
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
            CAMPAIGN_ID: uuid.uuid4().hex,
            "created": stamp,
            "updated": stamp,
        }
        self._write_meta(meta)

    def append(self, entries: list[Entry], meta_update: dict[str, Any] | None = None) -> None:
        """Save ``entries`` after those already saved: on disk when this returns.

        If it raises, none of them counts: the manifest on disk still has the old count,
        and so has this object (it reads the manifest again), so the next append writes
        over whatever part of them reached a segment.
        """
        self.lock.verify()  # the folder this process locked is still the campaign's
        meta = self.meta()
        count = base = int(meta["entries"])
        real_folder(self.folder / LOG)
        ours = meta.get(CAMPAIGN_ID)
        if ours is None:  # made by an older Tussle: its id from now on (see CAMPAIGN_ID)
            ours = uuid.uuid4().hex
            meta = {**meta, CAMPAIGN_ID: ours, STAMPED_FROM: base // SEGMENT_SIZE}
        try:
            # One write per segment touched: a GM action's entry rewrites one small file,
            # whole (its format and entries at once: a file cut short is the old one).
            by_segment: dict[int, dict[str, Any]] = {}
            for entry in entries:
                index, slot = divmod(count, SEGMENT_SIZE)
                # "base": the count this save starts from (see check_tail)
                doc = {"entry": encode(entry), "base": base}
                by_segment.setdefault(index, {})[str(slot + 1)] = doc
                count += 1
            for index, docs in by_segment.items():
                with tinydb_file(self.segment_path(index)) as db:
                    # Every file says which format it is in, and whose it is; slots an
                    # append the manifest never counted left are written over.
                    stamps = db.table("format")
                    if not stamps:
                        stamps.insert({"app": APP, "format": FORMAT_VERSION, SEGMENT_OWNER: ours})
                    else:  # an older Tussle's segment, trusted once (loaded): stamped
                        first = stamps.all()[0]
                        if first.get(SEGMENT_OWNER) not in (None, ours):
                            raise BadSave(
                                f"{self.segment_path(index)}: a log segment of another "
                                "campaign; not saved"
                            )
                        stamps.update({SEGMENT_OWNER: ours}, doc_ids=[first.doc_id])
                    table = db.table("entries")
                    for key, doc in docs.items():
                        table.upsert(document(doc, int(key)))
            when = datetime.now(UTC).isoformat(timespec="seconds")
            self._write_meta({**meta, **(meta_update or {}), "entries": count, "updated": when})
        except BaseException:
            self._meta = None
            raise
        for n, entry in enumerate(entries, base):
            if isinstance(entry, ActionRecorded):
                self.positions[entry.action_id] = n

    # -- entries set aside (core.saves.set_aside) ----------------------------------------------
    def set_aside(self, first: int, reason: str) -> Path:
        """Move log entries ``first`` to the last counted into a set-aside file (never
        deleted), and have the log end before them: the campaign goes on as it stood
        before entry ``first``, its next actions taking none of their ids. The file that
        holds them. Lock held. Each step is one atomic write, in an order a crash leaves
        whole: the file; then the manifest (its count, the file's record, the ids taken,
        and that the log is being trimmed); then the log trimmed and the manifest again."""
        self.lock.verify()
        meta = self.meta()
        count = int(meta["entries"])
        raws, unreadable = self._lenient_entries(first, count)
        where = self.folder / set_aside_files.FOLDER
        if not os.path.lexists(where):
            make_folder(where)  # the GM's alone, as every file in it
        real_folder(where)
        path = self._set_aside_before(where, meta, first, count, raws)
        if path is None:  # not already there from an opening cut short: written now
            path = where / f"{set_aside_files.stamp()}-entry-{first}.json"
            k = 1
            while os.path.lexists(path):
                k += 1
                path = where / f"{set_aside_files.stamp()}-entry-{first}-{k}.json"
            data = set_aside_files.document(
                str(meta["name"]), first, count, reason, raws, unreadable, current_version()
            )
            write_atomically(path, json.dumps(data, ensure_ascii=False, indent=1))
        reserve = set_aside_files.reserve_of(raws, self.reserved())
        record = {"file": str(path.relative_to(self.folder)), "from": first, "to": count}
        self._write_meta(
            {
                **meta,
                "entries": first,
                "reserved": reserve.json(),
                "set_aside": [*set_aside_files.records(meta), {**record, "back": 0}],
                "trimming": [first, count],
                "updated": datetime.now(UTC).isoformat(timespec="seconds"),
            }
        )
        if snapshot.covered(self) > first:
            snapshot.remove(self)  # it holds what was set aside
        self._finish_trimming()
        return path

    def plain_log(self, first: int, count: int) -> bool:
        """Whether the log's folder and the segments holding entries ``first`` to
        ``count - 1`` are plain (a folder, files, none too big, or missing): entries in
        them that do not load can be set aside. A link or anything else is damage, never
        read, moved or written through."""
        try:
            real_folder(self.folder / LOG)
            for index in range(first // SEGMENT_SIZE, (count - 1) // SEGMENT_SIZE + 1):
                path = self.segment_path(index)
                if not os.path.lexists(path):
                    continue
                found = os.lstat(path)
                if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_FILE_BYTES:
                    return False
        except (StoreError, OSError):
            return False
        return True

    def _set_aside_before(
        self, where: Path, meta: dict[str, Any], first: int, count: int, raws: list[Any]
    ) -> Path | None:
        """A set-aside file the manifest does not record yet that holds these very
        entries: written by an opening cut before its manifest (used again, not copied)."""
        recorded = {r["file"] for r in set_aside_files.records(meta)}
        for path in sorted(where.glob(f"*-entry-{first}*.json")):
            if str(path.relative_to(self.folder)) in recorded:
                continue
            try:
                data = set_aside_files.read_document(path)
            except StoreError:
                continue
            same = [e.get("entry") if isinstance(e, dict) else e for e in data["entries"]]
            if (data.get("from"), data.get("to"), same) == (first, count, raws):
                return path
        return None

    def _lenient_entries(self, first: int, count: int) -> tuple[list[Any], dict[str, bytes]]:
        """Entries ``first`` to ``count - 1`` as saved, None for one that cannot be read,
        and the bytes of each segment that cannot be (by its name in the log folder)."""
        raws: list[Any] = []
        unreadable: dict[str, bytes] = {}
        segments: dict[int, dict[int, Any] | None] = {}
        for n in range(first, count):
            index, slot = divmod(n, SEGMENT_SIZE)
            if index not in segments:
                try:
                    segments[index] = self.segment_docs(index)
                except StoreError:
                    segments[index] = None
                    path = self.segment_path(index)
                    with contextlib.suppress(StoreError, OSError):
                        unreadable[path.name] = read_bytes(path) or b""
            doc = (segments[index] or {}).get(slot + 1)
            raws.append(doc.get("entry") if isinstance(doc, dict) else None)
        return raws, unreadable

    def _finish_trimming(self) -> None:
        """Take out of the log the entries a set-aside moved out (``trimming`` in the
        manifest: until it is gone, they are not mistaken for damage)."""
        meta = self.meta()
        trimming = meta.get("trimming")
        if trimming is None:
            return
        count = int(meta["entries"])
        last = count // SEGMENT_SIZE
        real_folder(self.folder / LOG)  # never through a link
        try:
            names = os.listdir(self.folder / LOG)
        except FileNotFoundError:
            names = []
        for name in names:
            match = SEGMENT_NAME.fullmatch(name)
            index = int(match.group(1)) if match else -1
            if index > last or (index == last and count % SEGMENT_SIZE == 0):
                change_point(self.folder / LOG / name)
                (self.folder / LOG / name).unlink()  # a link's own name, if one
            elif index == last:
                path = self.segment_path(index)
                with tinydb_file(path) as db:
                    table = db.table("entries")
                    past = [d.doc_id for d in table.all() if d.doc_id > count % SEGMENT_SIZE]
                    if past:
                        table.remove(doc_ids=past)
        with contextlib.suppress(OSError):
            fsync_path(self.folder / LOG)
        rest = {k: v for k, v in meta.items() if k != "trimming"}
        self._write_meta(rest)

    def repair(self) -> tuple[int, int, BadEntry | None]:
        """Bring back the entries set aside that now load, in order, stopping at the
        first that still fails (lock held): how many came back, how many are still set
        aside, and the first that still fails (None when none did)."""
        # Every entry read again, none taken from the snapshot (which may cover one that
        # no longer loads): what no longer loads is set aside first.
        snapshot.remove(self)
        campaign = self.load()
        meta = self.meta()
        kept = set_aside_files.records(meta)
        back: list[Entry] = []
        failed: BadEntry | None = None
        updated = [dict(r) for r in kept]
        for record in updated:
            if failed is not None or record["back"] >= record["to"] - record["from"]:
                continue
            path = self.folder / record["file"]
            try:
                data = set_aside_files.read_document(path)
            except StoreError as error:
                failed = BadEntry(self.slug, record["from"] + record["back"], 0, str(error))
                break
            items = data["entries"][record["back"] : record["to"] - record["from"]]
            upgrade = self._upgrade_set_aside(path, data, items)
            for item in items:
                raw = item.get("entry") if isinstance(item, dict) else None
                n = campaign.entries
                where = (
                    f"{path}: set-aside entry {item.get('n') if isinstance(item, dict) else '?'}"
                )
                try:
                    if upgrade is not None:
                        raise upgrade
                    if not isinstance(raw, dict):
                        raise BadSave(f"{where}: could not be read from the log")
                    back.append(replay_entry(where, n, raw, campaign))
                except BadSave as error:
                    failed = BadEntry(self.slug, n, 0, str(error), path)
                    break
                record["back"] += 1
        if back:
            self.append(back, {"set_aside": updated})
        still = set_aside_files.waiting(self.meta())
        return len(back), still, failed

    def _upgrade_set_aside(
        self, path: Path, data: dict[str, Any], items: list[Any]
    ) -> BadSave | None:
        """The raw entries of ``items`` (from set-aside file ``path``) brought, in place,
        from the format they were saved in to this Tussle's (core.saves.migrate); what
        went wrong if they cannot be (they then stay set aside)."""
        saved_in = set_aside_files.log_format(data, current_version())
        raws = [
            i["entry"] for i in items if isinstance(i, dict) and isinstance(i.get("entry"), dict)
        ]
        try:
            upgrade_log(str(self.meta()["system"]), saved_in, raws)
        except (BadSave, msgspec.MsgspecError, ValueError, TypeError, KeyError) as error:
            return BadSave(f"{path}: cannot be upgraded from format {saved_in} ({error})")
        return None

    def _write_meta(self, meta: dict[str, Any]) -> None:
        """Write the manifest; only once it is on disk does this object go by it."""
        self.lock.verify()
        # One write, the whole file (the table "manifest", document 1), never read first
        # (a damaged manifest is written over): cut short, the old manifest, never an
        # empty table.
        with tinydb_file(self.manifest_path, fresh=True) as db:
            db.table("manifest").insert(document(meta, 1))
        self._meta = meta

    def clean_temporary_files(self) -> None:
        """Remove what killed writers left behind (call with the lock held)."""
        for folder in (self.folder, self.folder / LOG, self.folder / snapshot.FOLDER):
            if folder.is_symlink():  # never where a link points
                continue
            for tmp in folder.glob(f"{TMP_PREFIX}*"):
                with contextlib.suppress(OSError):
                    tmp.unlink()


def _why(error: BaseException) -> str:
    return str(getattr(error, "strerror", None) or error)


def _pair(value: Any) -> TypeGuard[list[int]]:
    return isinstance(value, list) and len(value) == 2 and all(type(x) is int for x in value)


def _unfinished(folder: Path) -> bool:
    """A campaign folder whose creation was cut short (no manifest, an empty log): safe
    to make the campaign in again."""
    log = folder / LOG
    try:
        return (
            not os.path.lexists(folder / MANIFEST)
            and not folder.is_symlink()
            and all(
                p.name in (LOG, LOCK) or p.name.startswith(TMP_PREFIX) for p in folder.iterdir()
            )
            and (not log.exists() or (not log.is_symlink() and not any(log.iterdir())))
        )
    except OSError:
        return False


def creation_cut_short(folder: Path) -> bool:
    """A campaign folder whose creation was cut short before its manifest: no campaign
    (issue 30, item 2), and the name is free."""
    return _unfinished(folder)


def _looks_like_a_campaign(folder: Path) -> bool:
    """A folder with a manifest, or a log, whatever state they are in."""
    return os.path.lexists(folder / MANIFEST) or os.path.lexists(folder / LOG)


class NameTaken(StoreError):
    """A new campaign under a name a campaign already goes by."""


# A campaign being made (Saves.create), in the saves folder: never listed (a dot), and
# cleared under the lock on names when a process making one was killed.
NEW_PREFIX = f"{TMP_PREFIX}new-"


class Saves:
    """The saves folder: every campaign in it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def campaigns(self) -> list[CampaignInfo]:
        if not self.folder.is_dir():
            return []
        # A campaign's folder is a safe_name, which never has a dot: a name with one is a
        # copy kept aside (a migration's, .backups, .tmp-import-...), not a campaign. A
        # damaged one is listed with its problem (a link is listed, never followed).
        return sorted(
            (
                CampaignFiles(d).info()
                for d in self.folder.iterdir()
                if "." not in d.name and os.path.lexists(d / MANIFEST)
            ),
            key=lambda info: info.name.lower(),
        )

    def find(self, name: str) -> CampaignFiles | None:
        """The campaign called ``name`` (as typed) or stored under that file name."""
        for info in self.campaigns():
            if info.name == name or info.slug == name:
                return CampaignFiles(self.folder / info.slug)
        return None

    def create(self, name: str, system: str, entries: Sequence[Entry] = ()) -> CampaignFiles:
        """A new campaign called ``name`` whose log holds ``entries``; :class:`NameTaken`
        for a name taken, and ``BadSave`` when a damaged campaign may be the one of that
        name (making another beside it would hide it).

        One step: the campaign is made whole in a folder of its own in the saves folder
        (one ``Saves`` does not list), then renamed to its name; cut short at any point,
        there is no campaign of that name (the name is free), never one half made (an
        empty campaign where ``tussle resolve --record`` was making one with its contest:
        issue 30, item 1)."""
        with self.names_locked():
            return self._create(name, system, entries)

    def _create(self, name: str, system: str, entries: Sequence[Entry] = ()) -> CampaignFiles:
        if not name.strip():
            raise StoreError("a campaign needs a name")
        refuse_control(name, "the campaign's name", StoreError)
        if system not in SYSTEM_NAMES:
            raise StoreError(f'no rule system "{system}" (try {", ".join(SYSTEM_NAMES)})')
        if self.find(name) is not None:
            raise NameTaken(f'a campaign called "{name}" already exists')
        self.refuse_beside_damaged(name)
        make_folder(self.folder)
        base = safe_name(name)
        slug, n = base, 1
        while os.path.lexists(self.folder / slug) and not _unfinished(self.folder / slug):
            n += 1
            slug = f"{base}-{n}"
        # Under the lock on names: no other process builds one now, so what a killed one
        # left is cleared.
        for leftover in self.folder.glob(f"{NEW_PREFIX}*"):
            if not leftover.is_symlink() and leftover.is_dir():
                change_point(leftover)
                shutil.rmtree(leftover, ignore_errors=True)
        work = self.folder / f"{NEW_PREFIX}{slug}"
        target = self.folder / slug
        try:
            make_folder(work)
            built = CampaignFiles(work / slug)
            built.create(name, system)
            if entries:
                built.append(list(entries))
            if os.path.lexists(target):  # a creation an older Tussle cut short: no campaign
                change_point(target)
                shutil.rmtree(target)
            change_point(target)
            os.rename(built.folder, target)
            fsync_path(self.folder)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return CampaignFiles(target)

    def refuse_beside_damaged(self, name: str) -> None:
        """``BadSave`` when a campaign folder that ``name`` maps to (``name``'s file name,
        or it with ``-2``, ``-3``...) holds a campaign that cannot be read: it may well be
        the campaign called ``name``, which a new one must not hide."""
        base = safe_name(name)
        pattern = re.compile(re.escape(base) + r"(-\d+)?")
        try:
            folders = sorted(d for d in self.folder.iterdir() if pattern.fullmatch(d.name))
        except OSError:
            return
        for folder in folders:
            if folder.is_symlink() or not folder.is_dir():
                what = "a link" if folder.is_symlink() else "not a folder"
                raise BadSave(
                    f'{folder} is {what}, where the campaign "{name}" would be kept: '
                    "move it out of the saves folder first. Nothing was saved"
                )
            if not _looks_like_a_campaign(folder) or _unfinished(folder):
                continue
            info = CampaignFiles(folder).info()
            if info.missing_system:
                raise SystemNotInstalled(
                    f'the campaign in {folder} may be "{name}", and {info.problem}'
                )
            if info.problem is not None:
                raise BadSave(
                    f'the campaign in {folder} cannot be read, and it may be "{name}": '
                    f"{info.problem}. Nothing was saved; `tussle check {folder.name}` says "
                    f"more, `tussle restore {folder.name}` lists its backups"
                )

    @contextlib.contextmanager
    def names_locked(self) -> Iterator[None]:
        """The saves folder's lock on names: no two processes make (or rename to) the same
        name at once, and a campaign is made whole before another looks for it."""
        # The saves folder itself is locked (no file made in it, nothing to remove).
        make_folder(self.folder)
        fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def find_or_create(self, name: str, system: str) -> CampaignFiles:
        """The campaign called ``name``, made when missing; two processes doing this at
        once get the same campaign (the lock on names orders them)."""
        with self.names_locked():
            return self.find(name) or self._create(name, system)
