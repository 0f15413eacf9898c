"""What a headless writer (``tussle resolve --record``, ``tussle roster import``) checks
before it appends to a campaign it opened from the snapshot: the log the snapshot covers,
which that opening did not read (issue 30, item 5). A campaign ``tussle check`` finds
damaged there is refused, not written into: the GM would play on over a history that is
gone.

An opening from the snapshot (:mod:`core.saves.snapshot`) reads the segment holding the
snapshot's last entry and those after it; the full segments before are trusted. Here each
of those is compared with what was kept of it when it was last found sound, in
``<saves>/.backups/<slug>/sound.json`` (the campaign's own corner of the saves, with its
backups): its sha256, and the file's identity then (inode, size, modification and change
times).

* the same identity: not written since (any write, a copy over it, a rename into place
  change the change time, which no tool sets back), so not read;
* another identity: the file is hashed. The same sha256: sound. Another: its bytes
  changed, which no save does: the whole log is checked, as ``tussle check`` does, and
  the write refused when it fails;
* nothing kept for that segment: it is read and each of its entries decoded; and when
  nothing is kept at all (the first write since this Tussle, or since ``sound.json``
  went), the whole log is checked once instead.

Once the write is on disk, what is known of every full segment is kept. Costs: a
``stat`` a segment (a millisecond or two for 50,000 exchanges), and a whole check only the
first time or after a change (seconds to a minute on a long campaign). A byte a failing
disk changes with no write is not seen here; the backups hash every segment (each opening
and session start of the dashboard) and say so.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass

from core.campaign.log import ActionRecorded, ActionRedone, ActionUndone
from core.files.codec import decode
from core.files.disk import (
    SEGMENT_SIZE,
    BadSave,
    StoreError,
    make_folder,
    parse_json,
    read_bytes,
    write_atomically,
)
from core.model import Event
from core.saves import snapshot
from core.saves.backup import backups_folder
from core.saves.replay import REPLAY_ERRORS
from core.saves.store import CampaignFiles

SOUND = "sound.json"

log = logging.getLogger(__name__)


def covered_at_opening(files: CampaignFiles) -> int:
    """How many entries the snapshot on disk covers: call it just before ``load()`` (which
    may write the snapshot again)."""
    return snapshot.covered(files)


@dataclass(frozen=True, slots=True)
class Sound:
    """What is kept of a segment found sound: its sha256, and the file's identity then
    (inode, size, modification and change times, in ns). A file with the same identity
    has not been written since (an editor, a sync tool, a copy over it all change its
    change time, which nothing can set back), so it is not read again."""

    digest: str
    identity: tuple[int, ...] = ()


Sums = dict[str, Sound]


def _identity(info: os.stat_result) -> tuple[int, ...]:
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def refuse_damaged(files: CampaignFiles, covered: int) -> Sums:
    """``BadSave`` saying where, and that nothing was written, when the full segments the
    snapshot covered at this opening (``covered``, from :func:`covered_at_opening`) are
    not sound; else what is known of them (for :func:`remember`). Call it after
    ``files.load()`` and before writing anything."""
    if files.snapshot_problem is not None:  # not opened from it: every entry was read
        return {}
    sums: Sums = {}
    unknown: list[int] = []
    known = _known(files)
    changed = False
    for index in range(max(0, covered - 1) // SEGMENT_SIZE):
        path = files.segment_path(index)
        kept = (known or {}).get(path.name)
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            raise BadSave(_refusal(files, f"{path}: missing")) from None
        except OSError as error:
            raise StoreError(f"{path}: cannot be read ({error.strerror})") from None
        if kept is not None and kept.identity == _identity(info):
            sums[path.name] = kept  # not written since it was found sound
            continue
        try:
            data = read_bytes(path)  # BadSave for a link, a folder, a pipe...
        except BadSave as error:
            raise BadSave(_refusal(files, str(error))) from None
        if data is None:
            raise BadSave(_refusal(files, f"{path}: missing"))
        digest = hashlib.sha256(data).hexdigest()
        sums[path.name] = Sound(digest, _identity(info))
        if kept is None or kept.digest != digest:
            changed = changed or kept is not None
            unknown.append(index)
    if known is None or changed:
        if sums:
            _check_whole(files)
    else:
        for index in unknown:
            _decode_segment(files, index)
    return sums


def remember(files: CampaignFiles, sums: Sums | None = None) -> None:
    """Keep what is known of every full log segment as sound (``sums``: those already
    looked at); call it once a write is on disk, or after a restore. Never raises:
    without it, the next write only checks more."""
    if getattr(files, "bad_entry", None) is not None:
        return  # this opening set an entry aside: nothing is taken as sound from it
    try:
        full = int(files.meta()["entries"]) // SEGMENT_SIZE
        before = _known(files) or {}
        known = dict(sums or {})
        for index in range(full):
            path = files.segment_path(index)
            if path.name not in known:
                info = os.lstat(path)
                data = read_bytes(path)
                if data is None:
                    return
                known[path.name] = Sound(hashlib.sha256(data).hexdigest(), _identity(info))
        wanted = {files.segment_path(i).name for i in range(full)}
        known = {k: v for k, v in sorted(known.items()) if k in wanted}
        if known == before:
            return  # nothing new: not written again
        root = backups_folder(files.folder.parent, files.slug)
        make_folder(root)
        text = json.dumps(
            {
                "app": "tussle",
                "kind": "sound log segments",
                "segments": {k: [v.digest, *v.identity] for k, v in known.items()},
            },
            indent=1,
        )
        write_atomically(root / SOUND, text)
    except (OSError, StoreError) as error:
        log.warning("%s: the sums of its sound log segments not kept (%s)", files.folder, error)


def _known(files: CampaignFiles) -> Sums | None:
    """What is kept as sound, None when nothing is (or it cannot be read)."""
    path = backups_folder(files.folder.parent, files.slug) / SOUND
    try:
        data = parse_json(read_bytes(path) or b"", path)
    except StoreError:
        return None
    segments = data.get("segments") if isinstance(data, dict) else None
    if not isinstance(segments, dict):
        return None
    known: Sums = {}
    for name, kept in segments.items():
        if (
            isinstance(kept, list)
            and kept
            and isinstance(kept[0], str)
            and all(type(n) is int for n in kept[1:])
        ):
            known[name] = Sound(kept[0], tuple(kept[1:]))
    return known


def _check_whole(files: CampaignFiles) -> None:
    """The whole log checked as ``tussle check`` checks it; ``BadSave`` when it fails."""
    from core.saves.check import check_campaign

    try:
        report = check_campaign(CampaignFiles(files.folder))
    except BadSave as error:
        raise BadSave(_refusal(files, str(error))) from None
    bad = getattr(report, "bad", None)  # an entry set aside, where check does that
    if bad is not None:
        raise BadSave(_refusal(files, str(bad.message())))


def _decode_segment(files: CampaignFiles, index: int) -> None:
    """``BadSave`` unless segment ``index`` holds its SEGMENT_SIZE entries, each one a log
    entry that decodes."""
    path = files.segment_path(index)
    try:
        docs = files.segment_docs(index)
    except BadSave as error:
        raise BadSave(_refusal(files, str(error))) from None
    for slot in range(1, SEGMENT_SIZE + 1):
        n = index * SEGMENT_SIZE + slot - 1
        doc = (docs or {}).get(slot)
        raw = doc.get("entry") if isinstance(doc, dict) else None
        if not isinstance(raw, dict):
            raise BadSave(_refusal(files, f"{path}: log entry {n} is missing"))
        try:
            entry = decode(raw, Event)
        except REPLAY_ERRORS as error:
            raise BadSave(
                _refusal(files, f"{path}: log entry {n} does not load: {error}")
            ) from None
        if not isinstance(entry, ActionRecorded | ActionUndone | ActionRedone):
            raise BadSave(_refusal(files, f"{path}: log entry {n} is not a log entry"))


def _refusal(files: CampaignFiles, problem: str) -> str:
    slug = files.slug
    return (
        f"{problem}. Nothing was written: the campaign's log is damaged where its snapshot "
        f"covers it (tussle check {slug} says more; tussle restore {slug} lists its backups)"
    )


__all__ = ["SOUND", "covered_at_opening", "refuse_damaged", "remember"]
