"""A campaign folder's files, below the store and what upgrades or copies them: their
names, the errors a save raises, atomic writes, the lock, copying a folder.

core.saves.store (loading and appending a campaign), core.saves.migrate (format upgrades, which the
store runs on opening) and core.saves.backup all build on this module and never on each other's
insides, so the store can call the upgrade without an import cycle.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import socket
import stat
import tempfile
import time
from collections.abc import Callable, Collection, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

MANIFEST = "manifest.json"
LOCK = "campaign.lock"
TMP_PREFIX = ".tmp-"
LOG = "log"  # the campaign folder's log segments (CampaignFiles.segment_path)
SEGMENT_SIZE = 100  # log entries a segment holds (core.saves.store writes them)

# No file Tussle writes comes near these: a log segment of 100 entries is well under a
# megabyte, and no entry nests more than a few levels. Bigger or deeper is damage (or a
# file made to hurt), refused with the file's name before it can stop anything else.
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 64

# Everything Tussle writes in the saves folder is the GM's alone, whatever the umask: the
# log holds the dice of hidden NPCs, and a player may have an account on the GM's machine.
# (Seats still work: the players' view runs as the GM, inside the GM's tmux.)
PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700
# What is refused before it is written, so that every file stays within what is read: a
# log entry at most a segment's share of MAX_FILE_BYTES (less room for its slot), and no
# deeper than MAX_DEPTH (core.campaign.actions's decide, tussle import; a roster file's bound).
MAX_ENTRY_BYTES = MAX_FILE_BYTES // SEGMENT_SIZE - 4096


class StoreError(Exception):
    """A save that cannot be read or written; ``str()`` names the file and the problem."""

    title = "Save problem"


class BadSave(StoreError):
    title = "Damaged save"


class SystemNotInstalled(BadSave):
    """A sound save of a rule system no installed plug-in provides: it opens once the
    plug-in is installed again (nothing to restore)."""

    title = "Rule system not installed"


class ReadOnlySaves(StoreError):
    """The campaign's folder cannot be written (a read-only disk or folder)."""

    title = "Read-only saves"


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
        raw = read_bytes(self.path)
        if raw is None:
            return None
        data = parse_json(raw, self.path)
        if data is None:
            return None
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


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, for a message."""
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def read_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """A save file's bytes, None when it does not exist.

    Never follows a link, never opens anything but a regular file (a pipe would block
    for ever, a link could make a campaign folder read a file anywhere), never reads
    more than ``limit`` bytes: ``BadSave`` naming the file for each of those.
    """
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(before.st_mode):
        raise BadSave(f"{path}: {file_kind(before.st_mode)}, not a file (Tussle opens only files)")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # made a link since the look above
            raise BadSave(f"{path}: a link, not a file (Tussle opens only files)") from None
        raise StoreError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise BadSave(
                f"{path}: {file_kind(info.st_mode)}, not a file (Tussle opens only files)"
            )
        if info.st_size > limit:
            raise BadSave(f"{path}: {info.st_size} bytes, too large to be a Tussle save")
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # grew since the fstat
                raise BadSave(f"{path}: more than {limit} bytes, too large to be a Tussle save")
        return b"".join(chunks)
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)


def parse_json(raw: bytes, path: Path | str) -> Any:
    """JSON from a save's bytes (None for an empty file); ``BadSave`` naming ``path`` for
    anything else than UTF-8 JSON of a bounded depth."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadSave(f"{path}: not a Tussle save (not UTF-8 text)") from None
    if not text.strip():
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadSave(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    except RecursionError:
        raise BadSave(f"{path}: not a Tussle save (nested too deep)") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise BadSave(f"{path}: not a Tussle save ({exc})") from None
    return data


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when ``value`` nests lists and objects more than ``limit`` deep: something
    sits more than ``limit`` levels below its top. The walk goes no more than ``limit``
    levels down, however deep the value: a deep value cannot exhaust the stack that
    checks it. (Every entry a GM saves is checked: a recursion, not a stack of pairs,
    takes half the time.)"""
    if isinstance(value, dict):
        inside: Collection[Any] = value.values()
    elif isinstance(value, list):
        inside = value
    else:
        return False
    if not inside:
        return False
    if limit <= 0:
        return True
    for item in inside:  # noqa: SIM110 (a loop: twice as fast as any() over a generator)
        if isinstance(item, (dict, list)) and too_deep(item, limit - 1):
            return True
    return False


def entry_problem(saved: Any) -> str | None:
    """Why a log entry, as it would be saved (JSON), must not be: deeper than
    :data:`MAX_DEPTH`, or larger than :data:`MAX_ENTRY_BYTES`; None when it may."""
    if too_deep(saved):
        return f"it nests more than {MAX_DEPTH} deep"
    size = len(json.dumps(saved, ensure_ascii=False, separators=(",", ":")).encode())
    if size > MAX_ENTRY_BYTES:
        return (
            f"it would take {size:,} bytes to save, more than one action may ({MAX_ENTRY_BYTES:,})"
        )
    return None


def real_folder(path: Path) -> None:
    """``BadSave`` unless ``path`` is a folder itself, not a link to one (nor a file):
    what is written in a campaign folder must land in it, never where a link points."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise BadSave(f"{path}: missing") from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror})") from None
    if not stat.S_ISDIR(info.st_mode):
        raise BadSave(
            f"{path}: {file_kind(info.st_mode) if not stat.S_ISREG(info.st_mode) else 'a file'}, "
            "not a folder (Tussle follows no link in a campaign)"
        )


# The fault-injection seams (empty in normal use): tests put callables here that raise
# OSError (a full disk, a read-only folder) for the paths they choose, or stop there as a
# crash would. WRITE_FAULTS: before every file written and every folder made in the saves
# (what a full disk refuses); CHANGE_FAULTS: before every other change to what they hold,
# a rename that publishes a copy made whole or a removal (where a crash leaves a state of
# its own; temporary files cleared are none).
WRITE_FAULTS: list[Callable[[Path], None]] = []
CHANGE_FAULTS: list[Callable[[Path], None]] = []


def write_point(path: Path) -> None:
    """``path`` is about to be written (a file, or a folder made): the seam."""
    for fault in WRITE_FAULTS:
        fault(path)


def change_point(path: Path) -> None:
    """``path`` is about to be renamed into place or removed: the seam."""
    for fault in CHANGE_FAULTS:
        fault(path)


def write_atomically(path: Path, text: str, keep_mode: bool = False) -> None:
    """Write ``text`` as ``path`` whole or not at all (see AtomicJSONStorage)."""
    with writing_atomically(path, keep_mode) as handle:
        handle.write(text)


@contextlib.contextmanager
def writing_atomically(path: Path, keep_mode: bool = False) -> Iterator[TextIO]:
    """A file to write ``path`` with, a part at a time, that becomes ``path`` whole once
    the block ends, or not at all if it raises (see AtomicJSONStorage).

    The file is the GM's alone (:data:`PRIVATE_FILE`), whatever it was before: a save
    written by an older Tussle with the umask's 0644 becomes private at its next write.
    ``keep_mode`` (a file the user named, outside the saves: an export's ``-o``) keeps an
    existing file's mode instead; a new one is still private."""
    write_point(path)
    folder = path.parent
    mode = PRIVATE_FILE
    if keep_mode:
        with contextlib.suppress(FileNotFoundError):
            info = path.lstat()  # a link's target is never written, nor its mode taken
            mode = info.st_mode & 0o777 if stat.S_ISREG(info.st_mode) else PRIVATE_FILE
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_path(folder)


def exchange(new: Path, old: Path) -> None:
    """Put the folder ``new`` at ``old``'s path, and ``old``'s folder at ``new``'s, in
    one step (Linux's ``renameat2`` with ``RENAME_EXCHANGE``): whoever looks sees one or
    the other whole, never neither. Where the system cannot, two renames, ``old`` aside
    first: a crash between leaves ``new`` whole beside no folder at ``old``'s path."""
    change_point(old)
    try:
        _rename_exchange(new, old)
        return
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EXDEV):
            raise
    aside = new.with_name(f"{new.name}-aside")
    os.rename(old, aside)
    os.rename(new, old)
    os.rename(aside, new)


def _rename_exchange(a: Path, b: Path) -> None:
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except AttributeError:  # no such call in this C library
        raise OSError(errno.ENOSYS, "renameat2 is not available") from None
    at_cwd, rename_exchange = -100, 2
    if renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), rename_exchange) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(b))


def make_folder(path: Path) -> None:
    """Make ``path`` and any missing folder above it, each the GM's alone
    (:data:`PRIVATE_FOLDER`, whatever the umask); a folder already there is left as it
    is (``OSError`` as ``Path.mkdir`` raises it, ``FileExistsError`` for a file there)."""
    missing = []
    for folder in (path, *path.parents):
        if os.path.lexists(folder):
            break
        missing.append(folder)
    for folder in reversed(missing):
        write_point(folder)
        try:
            os.mkdir(folder, PRIVATE_FOLDER)
        except FileExistsError:
            if folder is path and not os.path.isdir(folder):
                raise
            continue  # made by another process meanwhile: theirs, and as private
        os.chmod(folder, PRIVATE_FOLDER)  # the umask may have taken bits off
    if not missing and not path.is_dir():
        raise FileExistsError(errno.EEXIST, "not a folder", str(path))


def make_private(folder: Path) -> None:
    """Take the group's and others' bits off ``folder`` (one made by an older Tussle
    under the umask), when it is ours; the owner's stay as they are (a folder made
    read-only stays so). Never raises: nothing else depends on it."""
    with contextlib.suppress(OSError):
        info = os.lstat(folder)
        if stat.S_ISDIR(info.st_mode) and info.st_mode & 0o077 and info.st_uid == os.geteuid():
            os.chmod(folder, stat.S_IMODE(info.st_mode) & ~0o077)


def fsync_path(path: Path) -> None:
    """Flush a file, or a folder's entries (a rename in it), to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class CampaignLock:
    """An exclusive ``flock`` on the campaign's folder itself.

    Not on a file in it: a file can be removed or replaced under its holder (``rm
    campaign.lock``), and the next process would lock the new one and get in; the folder
    is what every file of the campaign is in, and the holder checks, on taking the lock
    and before each save (:meth:`verify`), that the folder at the path is still the one
    it locked. ``campaign.lock`` only says who holds the lock (what, pid, host, since),
    for the message another process shows; it is replaced whole, never written through.
    """

    def __init__(self, folder: Path, on_acquire: Callable[[], None] | None = None) -> None:
        self.folder = folder
        self.path = folder / LOCK
        self._fd: int | None = None
        self._identity: tuple[int, int] | None = None
        # Called once the lock is taken: what was read before it may be stale by then.
        self._on_acquire = on_acquire

    def acquire(self, name: str, wait: float = 0.0, what: str = "the dashboard") -> None:
        """Take the lock, trying for up to ``wait`` seconds; :class:`CampaignLocked`
        naming the holder (what, pid, host, since) when it stays taken,
        :class:`ReadOnlySaves` when the folder cannot be written, ``BadSave`` when the
        campaign's folder is a link or not a folder."""
        deadline = time.monotonic() + wait
        while True:
            fd = self._open_folder()
            try:
                locked = self._try_lock(fd, deadline)
            except BaseException:
                os.close(fd)
                raise
            if not locked:
                os.close(fd)
                holder = self.holder()
                raise CampaignLocked(
                    f'"{name}" is open in {holder.get("what", "another Tussle")} '
                    f"(pid {holder.get('pid', '?')} on {holder.get('host', '?')}, "
                    f"since {holder.get('since', '?')})",
                    holder,
                ) from None
            identity = _identity(os.fstat(fd))
            if identity == self._identity_at_path():
                break
            # Moved or replaced while we waited: the lock is on a folder no longer the
            # campaign's. Try the one now there.
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
            if time.monotonic() >= deadline:
                raise StoreError(f"{self.folder}: the campaign folder was moved or replaced")
        self._fd, self._identity = fd, identity
        # The campaign's folder private: files an older Tussle wrote under the umask
        # (0644) cannot be reached through it any more.
        make_private(self.folder)
        if not os.access(self.folder, os.W_OK):
            self.release()
            raise ReadOnlySaves(f"{self.folder}: read-only, so the campaign cannot be saved")
        info = {
            "what": what,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": datetime.now(UTC).astimezone().strftime("%Y-%m-%d %H:%M"),
        }
        try:
            _replace_quietly(self.path, json.dumps(info))
        except OSError as exc:
            self.release()
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise ReadOnlySaves(
                    f"{self.folder}: read-only, so the campaign cannot be saved"
                ) from None
            raise StoreError(f"{self.path}: cannot be written ({exc.strerror})") from None
        if self._on_acquire is not None:
            self._on_acquire()

    def _open_folder(self) -> int:
        try:
            return os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            raise StoreError(f"{self.folder}: no such campaign folder") from None
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                real_folder(self.folder)  # says what it is instead
            raise StoreError(f"{self.folder}: cannot be opened ({exc.strerror})") from None

    @staticmethod
    def _try_lock(fd: int, deadline: float) -> bool:
        pause = 0.001  # a save takes milliseconds: look again soon, then every 10 ms
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                time.sleep(min(pause, left))
                pause = min(pause * 2, 0.01)

    def _identity_at_path(self) -> tuple[int, int] | None:
        try:
            info = os.lstat(self.folder)
        except OSError:
            return None
        return _identity(info) if stat.S_ISDIR(info.st_mode) else None

    def verify(self) -> None:
        """``StoreError`` unless this object holds the lock on the folder that is at the
        campaign's path now (a folder moved or replaced while open is not written)."""
        if self._fd is None:
            return
        if self._identity_at_path() != self._identity:
            raise StoreError(
                f"{self.folder}: the campaign folder was moved or replaced while open; "
                "not saved (open the campaign again)"
            )

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def holder(self) -> dict[str, Any]:
        """Who holds the lock, as they wrote it; what cannot be read is left out (the
        file is only information, written by whoever holds the lock)."""
        try:
            data = parse_json(read_bytes(self.path, limit=4096) or b"", self.path)
        except StoreError:
            return {}
        if not isinstance(data, dict):
            return {}
        out: dict[str, Any] = {}
        for key in ("what", "pid", "host", "since"):
            value = data.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 32:
                out[key] = value
            elif isinstance(value, str):  # shown in a message: one printable line
                out[key] = "".join(ch for ch in " ".join(value.split()) if ch.isprintable())[:80]
        return out

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
            self._identity = None


def _identity(info: os.stat_result) -> tuple[int, int]:
    return (info.st_dev, info.st_ino)


def _replace_quietly(path: Path, text: str) -> None:
    """Write ``path`` as a new file renamed over the old (never through it: a link there
    is replaced, not followed), without fsync: for information only."""
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, PRIVATE_FILE)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def copy_campaign(
    source: Path,
    target: Path,
    durable: bool,
    whole: bool = False,
) -> None:
    """Copy a campaign's files to ``target`` (made here; it must not exist): the manifest
    first, then the log (``whole``: every other file too), never the lock nor temporary
    files, nor anything that is not a file or a folder (a link is not followed, a pipe not
    read). ``durable`` fsyncs every file and folder copied. Every copy is a file of its
    own, private (never a link to the campaign's: damage to one must not reach the other).
    """
    if os.path.lexists(target):
        raise FileExistsError(errno.EEXIST, "already there", str(target))
    make_folder(target)
    if _copy_file(source / MANIFEST, target / MANIFEST) and durable:
        fsync_path(target / MANIFEST)
    # Listed only now, after the manifest: any log file it counts exists by then.
    folders = [target]
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(source)
        if rel == Path(MANIFEST) or rel.name == LOCK or _temporary(rel):
            continue
        if not whole and rel.parts[0] != LOG:
            continue
        try:
            mode = path.lstat().st_mode
        except FileNotFoundError:
            continue  # gone since the listing (a temporary file under another name)
        if stat.S_ISDIR(mode):
            if not (target / rel).parent.is_dir():
                continue  # inside a folder that was a link: not copied
            make_folder(target / rel)
            folders.append(target / rel)
            continue
        if not stat.S_ISREG(mode) or not (target / rel).parent.is_dir():
            continue
        if _copy_file(path, target / rel) and durable:
            fsync_path(target / rel)
    if durable:
        for folder in folders:
            fsync_path(folder)


def _copy_file(source: Path, target: Path) -> bool:
    """Copy one regular file (its bytes, read as :func:`read_bytes` reads them); False
    when there is none to copy."""
    try:
        data = read_bytes(source)
    except BadSave:
        return False  # a link, a pipe...: not the campaign's, never copied
    if data is None:
        return False
    write_private(target, data)
    return True


def write_private(path: Path, data: bytes) -> None:
    """Write a new file (never one already there, nor through a link) of
    :data:`PRIVATE_FILE` mode, not atomically: for copies made in a folder of their own
    that is renamed into place once whole."""
    write_point(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, PRIVATE_FILE)
    write_all_private(fd, data)


def write_all_private(fd: int, data: bytes) -> None:
    """Make the open file ``fd`` the GM's alone (:data:`PRIVATE_FILE`), write all of
    ``data`` to it, and close it."""
    try:
        os.fchmod(fd, PRIVATE_FILE)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _temporary(rel: Path) -> bool:
    return any(part.startswith(TMP_PREFIX) for part in rel.parts)
