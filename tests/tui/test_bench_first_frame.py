"""``tussle bench dashboard``'s first frame: 15 starts of each, taking turns (issue 15),
so a machine busy for a while slows both alike, and the median of each."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui import bench


def test_the_first_frame_is_the_median_of_15_alternating_warm_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, bool]] = []
    # The 15 timed starts of each, out of order: tussle's median is 8 s, the bare app's 80 s.
    ours = iter([15, 1, 14, 2, 13, 3, 12, 4, 11, 5, 10, 6, 9, 7, 8])
    theirs = iter([10 * t for t in [3, 15, 1, 14, 2, 13, 12, 4, 11, 5, 10, 6, 9, 7, 8]])

    def first_frame(
        command: list[str], text: str, env: dict[str, str], linger: float = 0.0
    ) -> float:
        who = "tussle" if text == "Roll keypad" else "bare"
        calls.append((who, linger > 0))
        if linger > 0:
            return 1000.0  # a warming start: never counted
        return float(next(ours) if who == "tussle" else next(theirs))

    monkeypatch.setattr(bench, "first_frame", first_frame)
    assert bench.bench_first_frame(tmp_path) == (8.0, 80.0)
    warming, timed = calls[:2], calls[2:]
    assert warming == [("tussle", True), ("bare", True)]
    assert timed == [("tussle", False), ("bare", False)] * 15
