"""The GM's pool from the roster's compel (``k``) and from ``P``, by key presses on the
Fate demo (issue 11, defect 5): Cynere (PC) against Teran the Swift (NPC, no fate points);
one PC in the scene, so the GM's pool starts at 1 (Fate Core, "The GM and fate points").
"""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import keys, new_app, settle, text
from tui.screens.contest import ContestScreen


async def test_a_compel_on_teran_from_the_roster_fills_the_gm_pool(saves: Path) -> None:
    # Fate Core: the NPCs "can get more in that scene if they take a compel".
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w", "down", "k")  # the roster: Cynere, then Teran the Swift
        await keys(pilot, "escape")
        assert "GM pool: 2 fate points" in text(app, "#participants")
        assert "Teran the Swift  FP 0" in text(app, "#participants")


async def test_p_pays_from_the_pool_for_an_npc_refusing_a_compel(saves: Path) -> None:
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "P", "enter")  # for Teran the Swift (the only NPC), a refusal
        assert "GM pool: 0 fate points" in text(app, "#participants")
        await keys(pilot, "P")  # nothing left: refused before any form
        assert isinstance(app.screen, ContestScreen)
        assert "GM pool: 0 fate points" in text(app, "#participants")
        await keys(pilot, "S")
        assert "The GM's pool paid 1 fate point: Teran the Swift refuses a compel" in text(
            app, "#summary"
        )
