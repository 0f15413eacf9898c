"""``tussle check``: a campaign's files verified, the first problem named with its file.

What is checked, in order (the first problem found is the one reported):

1. the manifest: JSON, a Tussle campaign's, of a format this Tussle reads, its fields
   well formed (``CampaignFiles.meta()`` does this, and upgrades an older format, as any
   opening does);
2. every log segment the manifest's count needs: present, JSON, of a format this Tussle
   reads, holding each entry counted; and no entry past the count that a later save wrote
   (``CampaignFiles.counted_entries``, the reading every opening does: one validation);
3. the log replays: each entry decodes to a log entry and applies to the campaign so far
   (an undo of an action that is not the last in force does not);
4. each contest's state is its start with its recorded events folded in again, and its
   exchanges are the ones those events resolved.

Entries past the manifest's count left by a save that never finished are not problems:
they do not count, and the next save writes over them. Entries past it that later saves
wrote are: the manifest is older than the log.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from core.campaign.actions import Campaign
from core.campaign.log import ActionRecorded, ContestCorrected, Entry, Played
from core.campaign.state import ContestRecord
from core.engine import fold
from core.files.disk import BadSave
from core.model import Event, ExchangeEvent
from core.saves import set_aside, snapshot
from core.saves.lazy import ExchangeDigest, LazyActions
from core.saves.replay import REPLAY_ERRORS, replay_entry
from core.saves.set_aside import BadEntry
from core.saves.snapshot_check import problem_in
from core.saves.store import CampaignFiles


class Report(msgspec.Struct, frozen=True):
    """A sound campaign, summed up."""

    name: str
    slug: str
    system: str
    entries: int
    characters: int
    contests: int
    exchanges: int
    warnings: tuple[str, ...] = ()  # what is not damage: a snapshot not to be used
    # The first log entry that does not load: the rest is the campaign up to it.
    bad: BadEntry | None = None

    def line(self) -> str:
        head = "OK" if self.bad is None else f"DAMAGED from log entry {self.bad.n}:"
        return (
            f'{head} "{self.name}" ({self.slug}): {self.system}, {self.entries} log '
            f"{_plural(self.entries, 'entry', 'entries')}, {self.characters} "
            f"{_plural(self.characters, 'character', 'characters')}, {self.contests} "
            f"{_plural(self.contests, 'contest', 'contests')}, {self.exchanges} "
            f"{_plural(self.exchanges, 'exchange', 'exchanges')}"
        )


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def read_log(files: CampaignFiles) -> list[tuple[str, dict[str, Any]]]:
    """Every entry the manifest counts, as saved, with the file it is in; ``BadSave``
    naming the file for a segment missing, damaged, or short of an entry. The store's own
    reading (``CampaignFiles.counted_entries``): what passes here is what opens."""
    return [(str(path), entry) for path, _, entry in files.counted_entries()]


def replay(where: str, raw_entries: list[dict[str, Any]], campaign: Campaign) -> list[Entry]:
    """Decode and apply each entry to ``campaign``, in order; ``BadSave`` naming ``where``
    (a file) and the first entry that does not replay."""
    return [replay_one(where, n, raw, campaign) for n, raw in enumerate(raw_entries)]


def replay_one(where: str, n: int, raw: dict[str, Any], campaign: Campaign) -> Entry:
    """Decode entry ``n`` and apply it; ``BadSave`` naming ``where`` when it does not fit
    (``core.saves.replay.replay_entry``: the checks every opening makes)."""
    return replay_entry(where, n, raw, campaign)


def load_checked(
    files: CampaignFiles, after: Callable[[int, Entry, Campaign], None] | None = None
) -> tuple[Campaign, list[dict[str, Any]]]:
    """The campaign and its log entries as saved, every file checked on the way;
    ``after(n, entry, campaign)`` is called once each entry is applied."""
    raw_log: list[dict[str, Any]] = []
    campaign = replay_checked(files, after, raw_log.append)
    return campaign, raw_log


def replay_checked(
    files: CampaignFiles,
    after: Callable[[int, Entry, Campaign], None] | None = None,
    keep: Callable[[dict[str, Any]], None] | None = None,
    bounded: bool = False,
    upto: int | None = None,
) -> Campaign:
    """The campaign, every entry of its log read and replayed in turn (the log is never
    held whole: ``keep`` is given each entry as saved, for a caller that wants them). Its
    actions are not held either: each is read back from the log when something needs it
    again (an undo; :func:`check_contests`). ``bounded``: nor are the contests'
    exchanges, only their count and digest (:class:`~core.saves.lazy.ExchangeDigest`;
    :func:`exchanges_of` reads them again), so memory goes with the campaign's state, not
    with its history. ``upto``: only the entries before that one.

    :class:`LogStops` (a ``BadSave``) for the first entry that does not load: the caller
    may replay again ``upto`` it, for the campaign as it stood before."""
    files.refuse_unfinished_restore()
    campaign = files.empty()
    actions = campaign.actions = LazyActions(snapshot.log_reader(files))
    actions.reserved = files.reserved()
    count = int(files.meta()["entries"])
    try:
        # Never a read past entry ``upto - 1``: the segment after may be what is damaged.
        for path, n, raw in itertools.islice(files.counted_entries(), upto):
            entry = replay_one(str(path), n, raw, campaign)
            _applied(campaign, actions, entry, n, raw, after, keep, bounded)
    except BadSave as problem:
        if campaign.entries >= count or not files.plain_log(campaign.entries, count):
            raise  # not an entry's: the log past the count, a link
        raise LogStops(BadEntry(files.slug, campaign.entries, count, str(problem))) from None
    return campaign


class LogStops(BadSave):
    """A log entry that does not load: :attr:`bad` says which, why, what to do."""

    def __init__(self, bad: BadEntry) -> None:
        super().__init__(bad.reason)
        self.bad = bad


def _applied(
    campaign: Campaign,
    actions: LazyActions,
    entry: Entry,
    n: int,
    raw: dict[str, Any],
    after: Callable[[int, Entry, Campaign], None] | None,
    keep: Callable[[dict[str, Any]], None] | None,
    bounded: bool,
) -> None:
    """What replaying entry ``n`` leaves to do beside applying it."""
    if bounded:
        action = entry if isinstance(entry, ActionRecorded) else actions[entry.action_id]
        for contest_id in {getattr(e, "contest_id", None) for e in action.events}:
            record = campaign.contests.get(str(contest_id))
            if record is not None and not isinstance(record.exchanges, ExchangeDigest):
                record.exchanges = ExchangeDigest(record.exchanges)
    if isinstance(entry, ActionRecorded):
        actions.forget(entry.action_id, n)
    actions.release()  # what an undo, a redo or a correction read back
    if keep is not None:
        keep(raw)
    if after is not None:
        after(n, entry, campaign)


def exchanges_of(campaign: Campaign, record: ContestRecord) -> Iterator[ExchangeEvent]:
    """``record``'s exchanges, read again from its actions one at a time (what
    ``record.exchanges`` holds in a campaign that keeps them): those its last correction
    made, then those played since."""
    contest_id = record.contest_id
    last = (0, -1)  # (action, event) of the last correction
    for k, action_id in enumerate(record.actions):
        for i, event in enumerate(campaign.actions[action_id].events):
            if isinstance(event, ContestCorrected) and event.contest_id == contest_id:
                last = (k, i)
        _release(campaign)
    for k, action_id in enumerate(record.actions[last[0] :], last[0]):
        for i, event in enumerate(campaign.actions[action_id].events):
            if (k, i) < last or getattr(event, "contest_id", None) != contest_id:
                continue
            if isinstance(event, ContestCorrected):
                yield from (e for e in event.events if isinstance(e, ExchangeEvent))
            elif isinstance(event, Played) and isinstance(event.event, ExchangeEvent):
                yield event.event
        _release(campaign)


def _release(campaign: Campaign) -> None:
    if isinstance(campaign.actions, LazyActions):
        campaign.actions.release()


def snapshot_warning(
    files: CampaignFiles,
) -> tuple[Callable[[int, Entry, Campaign], None], Callable[[], str | None]]:
    """What compares the snapshot with the log as it replays (``after`` for
    :func:`load_checked`), and what says, after, what is wrong with it: a warning, not
    damage (the log is the campaign; a snapshot is only a shortcut, rebuilt from it). A
    snapshot an opening would use but that differs from the log is removed."""
    covers = snapshot.covered(files)
    positions: dict[int, int] = {}
    found: list[str | None] = []

    def after(n: int, entry: Entry, campaign: Campaign) -> None:
        if isinstance(entry, ActionRecorded) and not isinstance(campaign.actions, LazyActions):
            positions[entry.action_id] = n  # a LazyActions knows where each is itself
        if n + 1 == covers:
            problem, trusted = problem_in(files, lambda _: campaign, positions, exchanges_of)
            found.append(problem)
            if trusted:  # an opening would use it: it goes
                snapshot.remove(files)

    def problem() -> str | None:
        if not found:  # not reached: why it is not to be used, if there is one
            found.append(problem_in(files, lambda _: None, positions)[0])
        return found[0]

    return after, problem


def check_contests(files: CampaignFiles, campaign: Campaign) -> None:
    """Each contest's state must be its start with its recorded events folded in."""
    done = set(campaign.done)  # not the list: a long campaign's would take minutes
    for record in campaign.contests.values():
        state = record.start
        exchanges = ExchangeDigest()
        where = f'{files.folder}: contest {record.contest_id} ("{record.title}")'
        for action_id in record.actions:
            _release(campaign)  # read back one at a time
            if action_id not in done:
                raise BadSave(f"{where}: action {action_id} is counted but not in force")
            for event in campaign.actions[action_id].events:
                if isinstance(event, ContestCorrected) and event.contest_id == record.contest_id:
                    state, exchanges = record.start, ExchangeDigest()  # replayed from the start
                    folded: tuple[Event, ...] = event.events
                elif isinstance(event, Played) and event.contest_id == record.contest_id:
                    folded = (event.event,)
                else:
                    continue
                try:
                    state = fold(state, folded)
                except REPLAY_ERRORS as exc:
                    raise BadSave(
                        f"{where}: action {action_id} does not fold into its start: {exc}"
                    ) from None
                for one in folded:
                    if isinstance(one, ExchangeEvent):
                        exchanges.append(one)
        if state != record.state:
            raise BadSave(f"{where}: its state is not its start with its events folded in")
        if exchanges != record.exchanges:
            raise BadSave(f"{where}: its exchanges are not the ones its events resolved")


def check_campaign(files: CampaignFiles) -> Report:
    """Verify ``files``'s campaign; ``BadSave`` (or ``StoreError`` for a file the system
    will not let us read) naming the file and the first problem."""
    after, snapshot_problem = snapshot_warning(files)
    bad: BadEntry | None = None
    try:
        campaign = replay_checked(files, after, bounded=True)
    except LogStops as stop:
        bad = stop.bad  # the campaign up to it is checked and reported, and it
        after, snapshot_problem = snapshot_warning(files)
        campaign = replay_checked(files, after, bounded=True, upto=bad.n)
    check_contests(files, campaign)
    problem = snapshot_problem()
    warnings = [] if problem is None else [f"{problem}; not used: the next opening rebuilds it"]
    aside = set_aside.summary(files.meta(), files.slug)
    if aside is not None:
        warnings.append(aside)
    return Report(
        name=campaign.name,
        slug=files.slug,
        system=campaign.system,
        entries=campaign.entries,
        characters=len(campaign.roster),
        contests=len(campaign.contests),
        exchanges=sum(len(r.exchanges) for r in campaign.contests.values()),
        warnings=tuple(warnings),
        bad=bad,
    )


__all__ = ["LogStops", "Report", "check_campaign", "load_checked", "read_log", "replay"]
