"""The contest screen at the table (issue 24, items 7, 8, 9, 12, 20, 21, 22): what a GM
hit on the keypad and its forms during the second game night."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import keys, new_app, settle, text


# -- item 12: a d100's first 0 ---------------------------------------------------------------
async def test_a_d100_takes_0_5_as_5_and_0_0_as_100(saves: Path) -> None:
    """Percentile dice read tens then units: the keypad's own hint says "05 is 5, 00 is
    100", so typing them is taken. Josef (Brawling 50%) acting with a 5 succeeds; Bobby
    (Brawling 40%) reacting with a 100 fails: a 100 is over any rating."""
    app = new_app(saves, campaign="FORGE demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "0", "5", "0", "0")
        keypad = text(app, "#keypad")
        assert "05" in keypad and "00" in keypad
        assert "no face 0" not in keypad
        await keys(pilot, "enter")
        record = next(iter(app.campaign.contests.values()))
        assert len(record.exchanges) == 1
        log = text(app, "#log")
        assert "vs 50: 5 ✓" in log
        assert "vs 40: 100 ✗" in log


# -- item 8: a Fate attack needs no dice -----------------------------------------------------
async def test_a_fate_attack_is_committed_without_dice(saves: Path) -> None:
    """Rules §1.3: an attack stops the contest; the GM commits it at once (k, Enter for
    the form, Enter on the keypad) and no dice are asked for or recorded."""
    from core.campaign import Play
    from core.model import RollDice

    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "k", "enter")
        assert "has not rolled" not in text(app, "#keypad")
        await keys(pilot, "enter")
        record = next(iter(app.campaign.contests.values()))
        assert record.state.finished and record.state.ended_by == "attack"
        played = [app.campaign.actions[i].command for i in app.campaign.done]
        play = next(c for c in reversed(played) if isinstance(c, Play))
        assert not any(isinstance(c, RollDice) for c in play.commands)
        log = text(app, "#log")
        assert "Cynere attacks: the contest becomes a conflict" in log
        assert "nobody rolls" in log
