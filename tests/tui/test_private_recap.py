"""The recap ``M`` writes is the GM's alone (issue 23, item 5), its folder too, whatever
the umask: 0700 and 0600, as everything Tussle writes in the saves folder."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tests.tui.conftest import keys, new_app, recap_written, settle


async def test_the_recap_and_its_folder_are_the_gms_alone(saves: Path) -> None:
    before = os.umask(0o022)
    try:
        app = new_app(saves)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await keys(pilot, "M")
            await recap_written(app)
            await settle(pilot)
    finally:
        os.umask(before)
    (recap,) = (saves / "recaps").glob("*.md")
    assert stat.S_IMODE(os.stat(saves / "recaps").st_mode) == 0o700
    assert stat.S_IMODE(os.stat(recap).st_mode) == 0o600
