"""``tussle resolve FILE --record NAME`` into a long campaign costs what it costs into a
short one (issue 17, "what it must show" 5): opening from the snapshot builds the actions'
bookkeeping (in force, undone, where each is in the log, which only play) as runs, not one
item per log entry.

Measured as memory allocated (tracemalloc's peak), never as time: a campaign ten times as
long must not make the work grow with it."""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core import snapshot
from core.bench import fate_campaign, fate_scenario
from core.record import record
from core.scenario import resolve
from core.store import CampaignFiles, Saves

SHORT, LONG = 1_000, 10_000  # exchanges, in contests of PER_CONTEST
PER_CONTEST = 1_000


def peak_of(work: Callable[[], Any]) -> int:
    """The most memory (bytes) ``work`` held at once beyond what was there before."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def one_exchange(k: int) -> Any:
    return resolve(fate_scenario(1, random.Random(k)))


@pytest.fixture(scope="module")
def saves(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """A saves folder per length, each campaign's snapshot covering its whole log."""
    out = {}
    for exchanges in (SHORT, LONG):
        folder = tmp_path_factory.mktemp(f"saves{exchanges}")
        files, _ = fate_campaign(folder, exchanges, "Camp", per_contest=PER_CONTEST)
        opened = CampaignFiles(files.folder)
        opened.lock.acquire("Camp", what="a test")
        try:
            campaign = opened.load()  # the first opening writes the snapshot
            opened.keep_snapshot(campaign, now=True)
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
