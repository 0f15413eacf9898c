"""``tussle bench watch`` measures each kind of players' seat through the real servers.
Its browser seat still asked ``tussle serve`` for ``/`` and ``/ws`` after the table got
its secret link (``/KEY/``, issue 24 item 23): every request was refused, and the bench
died with a traceback after 30 s ("the browser seat never showed 'following'"). The
bench reads the link from the line serve starts with, as a GM gives it to the players;
and a part that cannot measure says so in one line and exits 1, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.cli.bench import fate_campaign
from tests.e2e.tmux import TMUX

pytest.importorskip("textual_serve")


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_the_browser_seat_is_measured_through_the_tables_secret_link(tmp_path: Path) -> None:
    from tui.bench import _browser_seat

    files, campaign = fate_campaign(tmp_path, 10, "Watched")
    delay = _browser_seat(files, campaign, "Watched", tmp_path)
    assert delay > 0  # a median of exchanges the page showed (it raised before)


def test_a_part_that_cannot_measure_says_so_in_one_line_and_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui import bench

    def never() -> list[str]:
        raise RuntimeError("the browser seat never showed 'following'")

    monkeypatch.setitem(bench.PARTS, "watch", never)
    assert bench.main("watch") == 1
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err == (
        "tussle bench watch: could not measure: the browser seat never showed 'following'\n"
    )
