"""``tussle resolve FILE --record NAME`` into a long campaign costs what it costs into a
short one (issue 17, "what it must show" 5): opening from the snapshot builds the actions'
bookkeeping (in force, undone, where each is in the log, which only play) as runs, not one
item per log entry, and writing the snapshot again re-encodes only the contests changed
since it was read, not every contest of the campaign.

Measured as memory allocated (tracemalloc's peak), never as time: a campaign ten times as
long must not make the work grow with it."""

from __future__ import annotations

import gc
import random
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.cli.bench import fate_campaign, fate_scenario
from core.cli.record import record
from core.saves import snapshot
from core.saves.log_guard import remember
from core.saves.store import CampaignFiles, Saves
from core.scenario import resolve

SHORT, LONG = 1_000, 10_000  # exchanges, in contests of PER_CONTEST
PER_CONTEST = 1_000


def peak_of(work: Callable[[], Any]) -> int:
    """The most memory (bytes) ``work`` held at once beyond what was there before.

    Collected first: the collector's counts then start from nothing, so the garbage
    ``work`` holds before a collection frees it is the same whatever ran before it in this
    worker (a loaded run once measured 3.1 MB against 1.1 MB here, passing alone)."""
    gc.collect()
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def one_exchange(k: int) -> Any:
    return resolve(fate_scenario(1, random.Random(k)))


# Long campaigns built once for the module (its fixture): one worker.
pytestmark = pytest.mark.xdist_group("record_long")


@pytest.fixture(scope="module")
def saves() -> dict[int, Path]:
    """A saves folder per length, each campaign's snapshot covering its whole log."""
    out = {}
    for exchanges in (SHORT, LONG):
        # In memory (tests/conftest.py: tempfile's folder is in /dev/shm): what is measured
        # is what a record reads and holds, not the disk; building these fsyncs 10,000 times.
        folder = Path(tempfile.mkdtemp(prefix=f"saves{exchanges}-"))
        files, _ = fate_campaign(folder, exchanges, "Camp", per_contest=PER_CONTEST)
        opened = CampaignFiles(files.folder)
        opened.lock.acquire("Camp", what="a test")
        try:
            campaign = opened.load()  # the first opening writes the snapshot
            opened.keep_snapshot(campaign, now=True)
            # Its full log segments kept as sound, as a first record's whole check of the
            # log keeps them (that check: tests/core/test_writers_refuse_damage.py); here
            # it checked again the campaign just made: half of what this setup cost.
            remember(opened)
        finally:
            opened.lock.release()
        assert snapshot.covered(opened) == exchanges + exchanges // PER_CONTEST + 2
        record(one_exchange(0), Saves(folder), "Camp", "warm")  # the first record's imports
        out[exchanges] = folder
    return out


def test_recording_one_exchange_into_a_long_campaign_holds_no_more_than_into_a_short_one(
    saves: dict[int, Path],
) -> None:
    peaks = {
        n: peak_of(lambda n=n: record(one_exchange(1), Saves(saves[n]), "Camp", "one"))
        for n in (SHORT, LONG)
    }
    # The log is ten times as long; what one record holds is the same order (it used to
    # build a dict, a set and a list of every action: about 4x at this length).
    assert peaks[LONG] < 1.5 * peaks[SHORT], peaks


def test_writing_the_snapshot_again_does_not_read_back_the_contests_left_unchanged(
    saves: dict[int, Path],
) -> None:
    def write_again(folder: Path) -> tuple[CampaignFiles, list[Any]]:
        files = Saves(folder).find("Camp")
        assert files is not None
        files.lock.acquire("Camp", what="a test")
        try:
            campaign = files.load()  # from the snapshot, and the records since
            assert files.snapshot_due(campaign, now=True)  # the records since: one contest
            files.keep_snapshot(campaign, now=True)
        finally:
            files.lock.release()
        return files, [c for c in campaign.contests]

    for n in (SHORT, LONG):
        record(one_exchange(2), Saves(saves[n]), "Camp", "two")
    written: dict[int, tuple[CampaignFiles, list[Any]]] = {}
    peaks = {
        n: peak_of(lambda n=n: written.setdefault(n, write_again(saves[n]))) for n in (SHORT, LONG)
    }
    # Ten contests of 1,000 exchanges against one: each unchanged one keeps its file,
    # unread (it used to be read, decoded and encoded again, every one of them).
    assert peaks[LONG] < 1.5 * peaks[SHORT], peaks
    files, contests = written[LONG]
    assert snapshot.covered(files) == int(files.meta()["entries"])
    # ...and the snapshot written that way is sound: it opens, every contest as the log has it
    reopened = CampaignFiles(files.folder)
    campaign = reopened.load()
    assert reopened.snapshot_problem is None
    assert list(campaign.contests) == contests
    replayed = reopened.replay(campaign.entries)
    for contest_id in contests:
        assert campaign.contests[contest_id].state == replayed.contests[contest_id].state
    assert campaign.done == replayed.done and campaign.undone == replayed.undone
