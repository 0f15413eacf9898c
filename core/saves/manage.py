"""Renaming, archiving and deleting campaigns: the campaign screen's and the CLI's.

Each of these takes the campaign's lock (:class:`~core.files.disk.CampaignLock`) for the time
it writes, so a campaign open in a dashboard elsewhere is refused with
:class:`~core.files.disk.CampaignLocked` naming that dashboard: its process keeps the manifest
in memory and would write the old one back with its next save. The dashboard's own open
campaign is changed through the :class:`~core.saves.store.CampaignFiles` it holds (``held``),
so that object goes by the new manifest.

* **Rename** changes the name in the manifest only. The folder keeps its file name (the
  slug): the players' watcher, the backups (``.backups/<slug>/``) and ``tussle restore``
  go by it. ``Saves.find`` finds the campaign by its new name, or by its folder's.
* **Archive** sets ``"archived": true`` in the manifest document (``false`` once
  unarchived; absent in a campaign never archived). Nothing else changes, neither the
  files nor the ``created``, ``system`` and ``name`` the players' watcher compares: an
  archived campaign is only hidden from :func:`listed` (so from the campaign screen)
  until unarchived. It still opens by name.
* **Delete** first copies the whole campaign (every file but the lock and temporary ones,
  fsynced) as a backup in ``<saves>/.backups/<slug>/<timestamp>/``, where every backup of
  it already is, checks the copy against the files, and only then removes the folder
  (renamed aside first, so the campaign is gone at once, even if the removal is cut
  short). ``tussle restore <slug> --backup <timestamp>`` (with ``--saves``, for another
  saves folder than the default one) brings it back as it was (its name, its log,
  archived or not): :attr:`Deleted.restore_command`. No rotation touches
  that backup while the campaign stays deleted: only backing up a campaign in that same
  folder prunes it, that is a new campaign made later under a name with the same file
  name, once it has had :data:`~core.saves.backup.BACKUPS_KEPT` sessions of its own (restoring
  the deleted one before then replaces that new one, which is itself backed up first).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from core.files.disk import (
    LOCK,
    TMP_PREFIX,
    StoreError,
    change_point,
    copy_campaign,
    fsync_path,
    make_folder,
    read_bytes,
)
from core.saves.backup import STAMP, Backup, backups_folder
from core.saves.store import CampaignFiles, CampaignInfo, Saves, saves_folder
from core.text import refuse_control

ARCHIVED = "archived"  # the manifest document's key: true, or false (or absent) when not
RENAMER = "tussle rename"
ARCHIVER = "tussle archive"
DELETER = "tussle delete"


class ManageError(StoreError):
    """A rename, archive or delete that was not done; ``str()`` says why."""

    title = "Not done"


class UnknownCampaign(ManageError):
    title = "No such campaign"


class BadName(ManageError):
    """An empty name, or one another campaign goes by."""

    title = "Name refused"


class Listed(msgspec.Struct, frozen=True):
    """One campaign as the campaign screen lists it."""

    info: CampaignInfo
    archived: bool


class Deleted(msgspec.Struct, frozen=True):
    """What :func:`delete` did: the campaign's name and folder, and its backup."""

    name: str
    slug: str
    backup: Backup | None
    link: str | None = None  # what the folder pointed to, when it was a link

    @property
    def restore_command(self) -> str:
        """The command that brings it back; with ``--saves`` unless the saves folder is
        the one ``tussle`` uses without it (``$TUSSLE_SAVES``, else ``./saves``)."""
        if self.backup is None:
            return ""
        saves = self.backup.folder.parents[2]  # <saves>/.backups/<slug>/<stamp>
        try:
            default = saves.resolve() == saves_folder().resolve()
        except OSError:  # no current folder any more: name the folder, to be sure
            default = False
        option = "" if default else f"--saves {shlex.quote(str(saves))} "
        return f"tussle {option}restore {self.slug} --backup {self.backup.stamp}"

    def message(self) -> str:
        if self.backup is None:
            return (
                f'Removed "{self.slug}": it was a link to {self.link}, which Tussle does not '
                "follow; what it pointed to is left as it was"
            )
        return (
            f'Deleted "{self.name}". A backup is kept in {self.backup.folder}; '
            f"to get it back: {self.restore_command}"
        )


# -- finding ---------------------------------------------------------------------------------


def find(saves: Saves, name: str) -> CampaignFiles:
    """The campaign called ``name`` or stored in folder ``name``; :class:`UnknownCampaign`."""
    files = saves.find(name)
    if files is None:
        raise UnknownCampaign(f'no campaign called "{name}" in {saves.folder}')
    return files


def is_archived(files: CampaignFiles) -> bool:
    """True for an archived campaign (False for one whose manifest cannot be read)."""
    try:
        return files.meta().get(ARCHIVED) is True
    except StoreError:
        return False


def listed(saves: Saves, show_archived: bool = False) -> list[Listed]:
    """The campaigns, by name as ``Saves.campaigns``; archived ones only with
    ``show_archived``. A damaged save is always listed (it cannot say it is archived)."""
    out = []
    for info in saves.campaigns():
        archived = info.problem is None and is_archived(CampaignFiles(saves.folder / info.slug))
        if show_archived or not archived:
            out.append(Listed(info, archived))
    return out


# -- changing --------------------------------------------------------------------------------


@contextlib.contextmanager
def _locked(
    files: CampaignFiles, held: CampaignFiles | None, what: str, wait: float
) -> Iterator[CampaignFiles]:
    """The campaign's files to write through, its lock held meanwhile: ``held`` (whose
    owner holds the lock already) when it is this campaign, else ``files`` once locked."""
    if held is not None and held.folder.resolve() == files.folder.resolve():
        yield held
        return
    files.lock.acquire(files.info().name, wait=wait, what=what)
    try:
        yield CampaignFiles(files.folder)  # read under the lock, not before it
    finally:
        files.lock.release()


def _names_locked(saves: Saves) -> contextlib.AbstractContextManager[None]:
    """The saves folder's lock on names (``Saves.names_locked``): no campaign is made
    under a name while a rename checks that name is free."""
    return saves.names_locked()


def rename(
    saves: Saves,
    name: str,
    new_name: str,
    held: CampaignFiles | None = None,
    wait: float = 0.0,
) -> CampaignInfo:
    """Call the campaign ``name`` (its name or folder) ``new_name`` from now on.

    :class:`BadName` for an empty name or one another campaign goes by (its name, or
    its folder's name, which ``Saves.find`` also matches); :class:`UnknownCampaign`;
    :class:`~core.files.disk.CampaignLocked` while another process has it open (trying for
    ``wait`` seconds). ``held``: the caller's own open campaign, already locked by it.
    The folder and everything in it but the manifest's name stay as they are.
    """
    new = new_name.strip()
    if not new:
        raise BadName("a campaign needs a name")
    refuse_control(new, "the campaign's new name", BadName)
    files = find(saves, name)
    with _names_locked(saves):
        other = saves.find(new)
        if other is not None and other.slug != files.slug:
            raise BadName(f'a campaign called "{new}" already exists')
        with _locked(files, held, RENAMER, wait) as target:
            meta = target.meta()
            if meta["name"] != new:
                target._write_meta({**meta, "name": new})
            return target.info()


def set_archived(
    saves: Saves,
    name: str,
    archived: bool,
    held: CampaignFiles | None = None,
    wait: float = 0.0,
) -> bool:
    """Archive (or, with ``archived=False``, unarchive) the campaign ``name``; True when
    that changed something. Locks as :func:`rename` does; the files stay on disk."""
    files = find(saves, name)
    with _locked(files, held, ARCHIVER, wait) as target:
        meta = target.meta()
        if (meta.get(ARCHIVED) is True) == archived:
            return False
        # False rather than no key: the manifest is updated key by key, never one taken out.
        target._write_meta({**meta, ARCHIVED: archived})
        return True


def archive(saves: Saves, name: str, held: CampaignFiles | None = None) -> bool:
    """Hide the campaign from :func:`listed`; see :func:`set_archived`."""
    return set_archived(saves, name, True, held)


def unarchive(saves: Saves, name: str, held: CampaignFiles | None = None) -> bool:
    """List the campaign again; see :func:`set_archived`."""
    return set_archived(saves, name, False, held)


def delete(saves: Saves, name: str, wait: float = 0.0) -> Deleted:
    """Delete the campaign ``name`` (its name or folder), a backup kept first.

    Takes its lock (:class:`~core.files.disk.CampaignLocked` while it is open anywhere, this
    process included, so never the dashboard's own open campaign); a damaged save can
    be deleted too (it is found by its folder's name), and a campaign folder that is a
    link is only unlinked (nothing is followed, nor backed up). Copies it into
    ``.backups/<slug>/`` and checks the copy (when either fails, ``StoreError`` or
    ``OSError`` and nothing is deleted); then removes its folder. See the module's
    docstring for getting it back.
    """
    files = find(saves, name)
    if files.folder.is_symlink():  # not a campaign Tussle opens: only the link goes
        with _names_locked(saves):
            link = os.readlink(files.folder)
            change_point(files.folder)
            os.unlink(files.folder)
        fsync_path(saves.folder)
        return Deleted(files.slug, files.slug, None, link=link)
    with _locked(files, None, DELETER, wait) as target:
        title = target.info().name  # a damaged save goes by its folder's name
        target.clean_temporary_files()
        kept = _keep_copy(target)
        gone = saves.folder / f"{TMP_PREFIX}deleted-{target.slug}-{kept.stamp}"
        change_point(target.folder)
        os.rename(target.folder, gone)  # one step: listed, then not at all
    fsync_path(saves.folder)
    # This one's folder, and any a killed delete left (its backup was made before).
    for leftover in saves.folder.glob(f"{TMP_PREFIX}deleted-*"):
        if leftover == gone or (leftover.is_dir() and not leftover.is_symlink()):
            change_point(leftover)
            shutil.rmtree(leftover, ignore_errors=True)
    return Deleted(title, files.slug, kept)


def _keep_copy(files: CampaignFiles) -> Backup:
    """A durable backup of every file of the campaign but its lock, checked byte for byte
    against the files (the caller holds the lock, so they cannot change meanwhile)."""
    root = backups_folder(files.folder.parent, files.slug)
    make_folder(root)  # the GM's alone, as the copy in it
    stamp = datetime.now(UTC).strftime(STAMP)
    while (root / stamp).exists():  # two in one microsecond: wait for the next
        time.sleep(0.000_01)
        stamp = datetime.now(UTC).strftime(STAMP)
    work = root / f"{TMP_PREFIX}{stamp}"
    try:
        copy_campaign(files.folder, work, durable=True, whole=True)
        wanted = _contents(files.folder)
        if _contents(work) != wanted:
            raise StoreError(f"{work}: the backup is not the same as {files.folder}; not deleted")
        change_point(root / stamp)
        os.rename(work, root / stamp)
        fsync_path(root)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return Backup(root / stamp)


def _contents(folder: Path) -> dict[str, bytes]:
    """Every file a backup keeps, by its path in ``folder``, with its bytes."""
    out: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_symlink() or not path.is_file() or rel.name == LOCK:
            continue
        if any(part.startswith(TMP_PREFIX) for part in rel.parts):
            continue
        if any((folder / up).is_symlink() for up in rel.parents if up.parts):
            continue  # inside a folder that is a link: not the campaign's
        data = read_bytes(path)
        if data is not None:
            out[rel.as_posix()] = data
    return out


__all__ = [
    "ARCHIVED",
    "BadName",
    "Deleted",
    "Listed",
    "ManageError",
    "UnknownCampaign",
    "archive",
    "delete",
    "find",
    "is_archived",
    "listed",
    "rename",
    "set_archived",
    "unarchive",
]
