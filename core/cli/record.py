"""``tussle resolve FILE --record NAME``: a scenario's contest appended to a campaign.

The same store, lock and log as the dashboard, so scripted and interactive play share one
history: the participants are matched to the roster by name (added when new), the contest
keeps the ratings it was played with, and each exchange is one GM action (undoable in the
dashboard like any other). A contest that ends has its results written back to the roster,
as the dashboard does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Entry, Play, StartContest, WriteBack
from core.campaign.sheet import find_sheet
from core.errors import RuleError
from core.model import Command
from core.saves.log_guard import covered_at_opening, refuse_damaged, remember
from core.saves.store import NameTaken, Saves
from core.scenario import Resolution

LOCK_WAIT = 10.0  # seconds to wait for a campaign another process has open
HOLDER = "tussle resolve --record"


@dataclass(frozen=True, slots=True)
class Recorded:
    campaign: str
    folder: Path
    contest_id: str
    entries: int
    # Said before anything else: log entries set aside as the campaign was opened.
    set_aside: str | None = None


def record(
    resolution: Resolution, saves: Saves, name: str, title: str, wait: float = LOCK_WAIT
) -> Recorded:
    """Append ``resolution``'s contest to campaign ``name`` (created when missing).

    Returns once every entry is on disk. ``RuleError`` when the campaign plays another
    system; :class:`~core.files.disk.CampaignLocked` when its lock stays taken for ``wait``
    seconds; other :class:`~core.files.disk.StoreError` for damaged files, the log the
    snapshot covers included (:mod:`core.saves.log_guard`).
    """
    system = resolution.start.system
    files = saves.find(name)
    if files is None:  # made whole with its contest, in one step (Saves.create)
        campaign = Campaign(name=name, system=system)
        entries, contest_id = _played(campaign, resolution, title)
        try:
            files = saves.create(name, system, entries)
        except NameTaken:  # made meanwhile by another process: recorded into below
            pass
        else:
            return Recorded(campaign.name, files.folder, contest_id, len(entries))
    files = saves.find_or_create(name, system)
    files.lock.acquire(name, wait=wait, what=HOLDER)
    try:
        files.clean_temporary_files()
        covered = covered_at_opening(files)
        campaign = files.load()
        sums = refuse_damaged(files, covered)  # nothing written after a history gone
        if campaign.system != system:
            raise RuleError(f'campaign "{name}" plays {campaign.system}, the scenario {system}')
        entries, contest_id = _played(campaign, resolution, title)
        files.append(entries)
        remember(files, sums)
        files.keep_snapshot(campaign)
        bad = files.bad_entry  # set aside by this opening: the contest goes after
        notice = None if bad is None else bad.message()
        return Recorded(campaign.name, files.folder, contest_id, len(entries), notice)
    finally:
        files.lock.release()


def _played(campaign: Campaign, resolution: Resolution, title: str) -> tuple[list[Entry], str]:
    """``resolution``'s contest played into ``campaign`` (newcomers added to its roster
    first; the results written back once it ends): the log entries, and the contest's id."""
    entries: list[Entry] = []

    def do(command: Command) -> None:
        entries.append(campaign.act(command))

    system = resolution.start.system
    sheet = find_sheet(system)
    for participant in resolution.start.participants:
        if participant.name not in campaign.roster:
            do(AddCharacter(character=sheet.newcomer(participant)))
    do(StartContest(title=title, contest=resolution.start))
    contest_id = campaign.latest_contest.contest_id  # type: ignore[union-attr]
    for commands in resolution.actions:
        do(Play(contest_id=contest_id, commands=commands))
    if campaign.contest(contest_id).state.finished:  # as the dashboard does at the end
        do(WriteBack(contest_id=contest_id))
    return entries, contest_id
