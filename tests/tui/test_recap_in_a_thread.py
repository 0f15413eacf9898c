"""``M`` writes the recap in a thread of its own (issue 30, item 13): on a long campaign
the recap reads every action, and the dashboard froze for as long (12 s on the bench's
long campaign). While it is written, the keypad still takes keys; once written, the
file is there."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import core.campaign.recap
from core.campaign.actions import Campaign
from tests.tui.conftest import keys, new_app, recap_written, settle, text


async def test_the_dashboard_takes_keys_while_the_recap_is_written(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written_in: list[threading.Thread] = []
    go_on = threading.Event()
    real = core.campaign.recap.recap_markdown

    def slow_recap(campaign: Campaign) -> str:
        written_in.append(threading.current_thread())
        go_on.wait(30)  # a long campaign's recap, until the test has looked
        return real(campaign)

    monkeypatch.setattr(core.campaign.recap, "recap_markdown", slow_recap)
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "M")
        # The recap is under way, and the keypad takes a die meanwhile.
        await keys(pilot, "plus")
        assert written_in and written_in[0] is not threading.main_thread()
        assert "[+]" in text(app, "#keypad")
        assert not (saves / "recaps").exists()
        go_on.set()
        await recap_written(app)
        await settle(pilot)
        (recap,) = (saves / "recaps").glob("*.md")
        assert recap.read_text(encoding="utf-8").startswith("# Fate demo: recap\n")
