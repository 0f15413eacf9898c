"""``tussle check`` of a campaign's snapshot (core.saves.snapshot): read as an opening reads it,
then compared with the log replayed to the entry it covers, one contest at a time."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec.structs

from core.campaign.actions import Campaign
from core.campaign.log import ActionRecorded
from core.campaign.runs import runs
from core.campaign.state import ContestRecord
from core.files.codec import encode
from core.files.disk import StoreError, read_bytes
from core.model import ExchangeEvent
from core.saves.lazy import LazyActions, LazyContests, canonical, plays_only, sha, starts_in
from core.saves.snapshot import (
    FOLDER,
    HEAD,
    SnapshotProblem,
    read,
    read_contest_file,
    state_fields,
    state_json,
)

if TYPE_CHECKING:
    from core.saves.store import CampaignFiles


def _matches(path: Path, record: ContestRecord, exchanges: Iterable[ExchangeEvent]) -> bool:
    """Whether the contest file ``path`` holds ``record`` whose exchanges are
    ``exchanges`` (given one at a time: neither they nor the file are held decoded), and
    its bytes have the digest its name says."""
    try:
        raw = read_bytes(path)
    except StoreError:
        return False
    if raw is None or not path.name.startswith(f"contest-{sha(raw)[:32]}"):
        return False
    marker = f"exchanges-{uuid.uuid4().hex}"
    rest = encode(msgspec.structs.replace(record, exchanges=[]))
    text = canonical({"contest": record.contest_id, "record": {**rest, "exchanges": [marker]}})
    before, _, after = text.decode().partition(json.dumps(marker))
    digest = hashlib.sha256(before.encode())
    for n, event in enumerate(exchanges):
        digest.update(b"," if n else b"")
        digest.update(canonical(encode(event)))
    digest.update(after.encode())
    return path.name == f"contest-{digest.hexdigest()[:32]}.json"


def problem_in(
    files: CampaignFiles,
    campaign_at: Callable[[int], Campaign | None],
    positions: Mapping[int, int],
    exchanges: Callable[[Campaign, ContestRecord], Iterable[ExchangeEvent]] | None = None,
) -> tuple[str | None, bool]:
    """What is wrong with the snapshot, for ``tussle check`` (None when it is sound or
    there is none), and whether an opening would have used it all the same: read as an
    opening reads it, then compared with ``campaign_at(n)``, the log replayed to the entry
    it covers, whose actions are at ``positions``."""
    folder = files.folder / FOLDER

    def no_action(action_id: int, entry: int) -> ActionRecorded:
        raise SnapshotProblem(f"action {action_id}")

    def contest(contest_id: str, name: str) -> ContestRecord:
        return read_contest_file(files.folder, contest_id, name)

    listed: list[Any] = []
    try:
        snap = read(files, no_action, contest, runs_only=listed)
    except SnapshotProblem as problem:
        return str(problem), False
    replayed = None if snap is None else campaign_at(snap.entries)
    if snap is None or replayed is None:
        return None, False
    try:
        for name in state_fields():
            if state_json(snap, name) != state_json(replayed, name):
                raise SnapshotProblem(f"{folder / HEAD}: its {name} is not the log's")
        if list(snap.contests) != list(replayed.contests):
            raise SnapshotProblem(f"{folder / HEAD}: its contests are not the log's")
        lazy_contests = snap.contests
        assert isinstance(lazy_contests, LazyContests)
        for contest_id in snap.contests:  # one at a time, as saved: nothing decoded kept
            name = lazy_contests.file_of(contest_id) or ""
            record = replayed.contests[contest_id]
            given = record.exchanges if exchanges is None else exchanges(replayed, record)
            if not _matches(folder / name, record, given):
                raise SnapshotProblem(f"{folder / name}: contest {contest_id} is not the log's")
        lazy = snap.actions
        assert isinstance(lazy, LazyActions)
        if isinstance(replayed.actions, LazyActions):  # check's: knows without reading
            known: Mapping[int, int] = replayed.actions.where
            quiet = replayed.actions.plays_only.runs()
            started = replayed.actions.started
        else:
            known = positions
            quiet = runs((i, i) for i, a in sorted(replayed.actions.items()) if plays_only(a))
            started = sum(starts_in(a) for a in replayed.actions.values())
        if listed[0] != runs((i, known[i]) for i in replayed.actions):
            raise SnapshotProblem(f"{folder / HEAD}: its actions are not where the log has them")
        if listed[1] != quiet or lazy.started != started:
            raise SnapshotProblem(f"{folder / HEAD}: what it says of the actions is not so")
    except SnapshotProblem as problem:
        return str(problem), True
    return None, False
