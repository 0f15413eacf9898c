"""A campaign folder's files, below the store and what upgrades or copies them: their
names, the errors a save raises, atomic writes, the lock, copying a folder.

core.store (loading and appending a campaign), core.migrate (format upgrades, which the
store runs on opening) and core.backup all build on this module and never on each other's
insides, so the store can call the upgrade without an import cycle.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import socket
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

MANIFEST = "manifest.json"
LOCK = "campaign.lock"
TMP_PREFIX = ".tmp-"
LOG = "log"  # the campaign folder's log segments (CampaignFiles.segment_path)


class StoreError(Exception):
    """A save that cannot be read or written; ``str()`` names the file and the problem."""

    title = "Save problem"


class BadSave(StoreError):
    title = "Damaged save"


class CampaignLocked(StoreError):
    title = "Campaign in use"

    def __init__(self, message: str, holder: dict[str, Any]) -> None:
        super().__init__(message)
        self.holder = holder


class AtomicJSONStorage:
    """TinyDB storage that never leaves a half-written file.

    Serialises first (a bad value leaves the file as it was), writes a temporary file in
    the same folder, fsyncs it, keeps the old file's mode, renames it over the save and
    fsyncs the folder.

    It has what TinyDB asks of a storage (``read``, ``write``, ``close``) without being
    a ``tinydb.storages.Storage``: reading a campaign, as the dashboard does before its
    first frame, never imports TinyDB; writing one does (``_db``).
    """

    def __init__(self, path: str | os.PathLike[str], **_: Any) -> None:
        self.path = Path(path)

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError:
            raise BadSave(f"{self.path}: not a Tussle save (not text)") from None
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot be read ({exc.strerror})") from None
        if not text.strip():
            return None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BadSave(f"{self.path}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(data, dict):
            raise BadSave(f"{self.path}: not a Tussle save (not a JSON object)")
        # TinyDB trusts the layout {table: {"1": {document}}} and fails on anything else
        # with AttributeError or TypeError: check it here, where the file can be named.
        for table, docs in data.items():
            if not isinstance(docs, dict) or not all(
                isinstance(doc, dict) and key.isascii() and key.isdigit()
                for key, doc in docs.items()
            ):
                raise BadSave(f"{self.path}: not a Tussle save ({table!r} is not a table)")
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        write_atomically(self.path, text)

    def close(self) -> None:
        pass


# The fault-injection seam: tests put callables here that raise OSError (a full disk, a
# read-only folder) for the files they choose. Empty in normal use.
WRITE_FAULTS: list[Callable[[Path], None]] = []


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` as ``path`` whole or not at all (see AtomicJSONStorage)."""
    for fault in WRITE_FAULTS:
        fault(path)
    folder = path.parent
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_path(folder)


def fsync_path(path: Path) -> None:
    """Flush a file, or a folder's entries (a rename in it), to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class CampaignLock:
    """An exclusive ``flock`` on ``campaign.lock`` beside the save (not on the save itself:
    the atomic rename gives the save a new inode)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK
        self._fd: int | None = None

    def acquire(self, name: str, wait: float = 0.0, what: str = "the dashboard") -> None:
        """Take the lock, trying for up to ``wait`` seconds; :class:`CampaignLocked`
        naming the holder (what, pid, host, since) when it stays taken."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() < deadline:
                    time.sleep(0.05)
                    continue
                holder = self.holder()
                os.close(fd)
                raise CampaignLocked(
                    f'"{name}" is open in {holder.get("what", "another Tussle")} '
                    f"(pid {holder.get('pid', '?')} on {holder.get('host', '?')}, "
                    f"since {holder.get('since', '?')})",
                    holder,
                ) from None
        info = {
            "what": what,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": datetime.now(UTC).astimezone().strftime("%Y-%m-%d %H:%M"),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        self._fd = fd

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def holder(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text() or "{}")
        except (OSError, json.JSONDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def copy_campaign(source: Path, target: Path, durable: bool, whole: bool = False) -> None:
    """Copy a campaign's files to ``target`` (made here; it must not exist): the manifest
    first, then the log (``whole``: every other file too), never the lock nor temporary
    files. ``durable`` fsyncs every file and folder copied."""
    target.mkdir(parents=True)
    manifest = source / MANIFEST
    if manifest.is_file():
        shutil.copyfile(manifest, target / MANIFEST)
        if durable:
            fsync_path(target / MANIFEST)
    # Listed only now, after the manifest: any log file it counts exists by then.
    folders = [target]
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(source)
        if rel == Path(MANIFEST) or rel.name == LOCK or _temporary(rel) or path.is_symlink():
            continue
        if not whole and rel.parts[0] != LOG:
            continue
        if path.is_dir():
            (target / rel).mkdir(exist_ok=True)
            folders.append(target / rel)
            continue
        try:
            shutil.copyfile(path, target / rel)
        except FileNotFoundError:
            continue  # gone since the listing (a temporary file under another name)
        if durable:
            fsync_path(target / rel)
    if durable:
        for folder in folders:
            fsync_path(folder)


def _temporary(rel: Path) -> bool:
    return any(part.startswith(TMP_PREFIX) for part in rel.parts)
