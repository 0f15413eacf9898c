"""The dashboard says what its backup at opening found (issues 23 and 30): a full log
segment whose bytes are not those the newest backup holds, which no save does, is told
to the GM as possible damage (and no backup is removed)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.cli.bench import fate_campaign
from core.saves.backup import list_backups, make_backup
from tests.tui.conftest import new_app, settle


async def test_a_segment_changed_since_the_last_backup_is_told_as_the_campaign_opens(
    saves: Path,
) -> None:
    files, _ = fate_campaign(saves, 240, "Shared", per_contest=80)  # segments 0, 1 full
    assert make_backup(files).created
    path = files.segment_path(0)
    data = bytearray(path.read_bytes())
    # A byte no replay reads (the rating in the command that added Cynere; the event it
    # caused holds its own): the campaign opens, its bytes are not the backup's.
    data[data.index(b'"Athletics":') + len(b'"Athletics":')] += 1
    path.write_bytes(bytes(data))

    app = new_app(saves, campaign="Shared")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        async with asyncio.timeout(30):
            while not any(n.title == "Damaged save?" for n in app.told):
                await pilot.pause(0.05)
        [told] = [str(n.message) for n in app.told if n.title == "Damaged save?"]
    assert told.startswith("log/000000.json of the campaign has changed since the backup of ")
    assert told.endswith("No backup was removed")
    assert len(list_backups(saves, "shared")) == 1  # nothing saved since: no new copy
