"""The order of things: the command goes out, the save happens, then the events return."""

from __future__ import annotations

from pathlib import Path

from textual.events import Key
from textual.message import Message

from core.bus import Applied, Saved
from core.campaign.log import ActionRecorded
from core.saves.store import CampaignFiles
from tests.tui.conftest import keys, new_app, settle
from tui.app import BusNotice


async def test_commit_goes_out_is_saved_then_comes_back(saves: Path) -> None:
    seen: list[Message] = []
    entries_on_disk_when: dict[str, int] = {}

    def hook(message: Message) -> None:
        if any(message is m for m in seen):
            return  # a bubbling message reaches the hook once per node it passes
        seen.append(message)
        if isinstance(message, BusNotice):
            files = CampaignFiles(saves / "fate-demo")
            entries_on_disk_when[type(message.notice).__name__] = len(list(files.raw_entries()))

    app = new_app(saves)
    async with app.run_test(size=(80, 24), message_hook=hook) as pilot:
        await settle(pilot)
        before = len(list(CampaignFiles(saves / "fate-demo").raw_entries()))
        seen.clear()
        await keys(pilot, "minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")
    kinds = [
        type(m.notice).__name__ if isinstance(m, BusNotice) else "Enter"
        for m in seen
        if isinstance(m, BusNotice) or (isinstance(m, Key) and m.key == "enter")
    ]
    assert kinds == ["Enter", "Saved", "Applied"]
    # When the panes hear of the exchange, it is already in the file.
    assert entries_on_disk_when == {"Saved": before + 1, "Applied": before + 1}
    applied = next(
        m.notice for m in seen if isinstance(m, BusNotice) and isinstance(m.notice, Applied)
    )
    saved = next(m.notice for m in seen if isinstance(m, BusNotice) and isinstance(m.notice, Saved))
    assert isinstance(applied.entry, ActionRecorded)
    assert saved.entries == (applied.entry,)
    assert [type(e.event).__name__ for e in applied.entry.events] == [  # type: ignore[attr-defined]
        "DiceRolled",
        "DiceRolled",
        "ExchangeResolved",
    ]
