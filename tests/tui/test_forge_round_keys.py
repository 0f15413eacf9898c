"""A FORGE combat round by beats played by keys on the contest screen (issue 29 item 2), at
80x24: the tracker in the Situation pane, the keypad following it, Enter playing a beat.
Figures from rules.md §3.4: both icons' Physical Agility unknown, so beat 4 [I16]; beats
4 (action) and 5 (reaction) only; attacks sent in beat 4 land in beat 5 [I17]; damage is
the tens digit × the multiplier [I7]: Josef's 35 with ×4 = 12, Bobby's 39 bare-handed
(×1) = 3; a dodge within target and above the damage avoids it; Bobby (Current Trauma 15,
no armor) absorbing 12 is left at 3."""

from __future__ import annotations

from pathlib import Path

from core.saves.store import Saves
from core.systems.forge.state import ForgeContest
from tests.tui.conftest import forge_alley, keys, settle, text
from tests.tui.screen_text import screen_text
from tui.screens.contest import ContestScreen
from tui.screens.forms import FormScreen
from tui.systems import view


async def test_a_round_by_beats_by_keys(saves: Path) -> None:
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "T")
        situation = text(app, "#aspects")
        assert "Round 1 · beat 4 (action)" in situation
        assert "Josef (b4): 4a 5r" in situation
        keypad = text(app, "#keypad")
        assert "attacks Bobby vs 50%" in keypad and "attacks Josef vs 40%" in keypad
        # Nothing typed yet: both let beat 4 go by, and the round goes on after it.
        assert "Enter: Josef lets it go, Bobby lets it go; then the beats after 4" in keypad
        await keys(pilot, "3", "5", "3", "9")
        assert "Josef hits Bobby, Bobby hits Josef" in text(app, "#keypad")
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "  Josef attacks vs 50: 35 ✓, damage 12, lands in beat 5" in log
        assert "  Bobby attacks vs 40: 39 ✓, damage 3, lands in beat 5" in log
        assert "Round 1 · beat 5 (reaction)" in text(app, "#aspects")
        keypad = text(app, "#keypad")
        assert "dodges 3 vs 50% (blank: absorbs)" in keypad  # Josef's row
        assert "dodges 12 vs 40% (blank: absorbs)" in keypad  # Bobby's row
        await keys(pilot, "3", "0")  # Josef dodges with 30; Bobby absorbs
        # Beat 5, the last of the five (rules §3.4 [I16]): the round ends with it.
        assert "then the round is over" in text(app, "#keypad")
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "  Josef dodges vs 50: 30 ✓, dodged" in log
        assert "  Bobby takes 12: 0 absorbed, 12 trauma" in log
        assert "current trauma 3" in text(app, "#participants")
        assert "Round 1 over" in text(app, "#aspects")
        assert "acts vs 50%" in text(app, "#keypad")  # stages again
        await keys(pilot, "u")  # the beat comes back on the keypad, Josef's 30 with it
        assert "Round 1 · beat 5 (reaction)" in text(app, "#aspects")
        assert "[ 30]" in text(app, "#keypad")
        await keys(pilot, "enter")
    files = Saves(saves).find("Alley")  # quit, and read it back
    assert files is not None
    (record,) = files.load().contests.values()
    state = record.state
    assert isinstance(state, ForgeContest) and state.round is not None
    assert state.round.over and state.trauma["Bobby"] == 12


async def test_the_gm_moves_an_icon_and_ends_the_round(saves: Path) -> None:
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "v")  # no round yet: said, nothing opens
        assert not isinstance(app.screen, FormScreen)
        await keys(pilot, "T", "v", "j", "enter")  # Josef (j) from beat 4 to 1 (the default)
        assert "Josef (b1): 4a 5r" in text(app, "#aspects")  # he moved on from beat 4
        await keys(pilot, "T")  # a round is under way: refused, nothing changes
        assert "Round 1 · beat 4" in text(app, "#aspects")
        await keys(pilot, "3", "5", "enter")  # Josef hits (12, to land in beat 5)
        await keys(pilot, "E")  # the GM ends the round: the hit is dropped
        assert "Round 1 over" in text(app, "#aspects")
        assert "trauma 0" in text(app, "#participants")
        await keys(pilot, "T")  # round 2: Josef now in beat 1
        assert "Round 2 · beat 1 (action)" in text(app, "#aspects")


async def test_the_footer_follows_the_round(saves: Path) -> None:
    """Roles (o) and dodge/absorb (x) are a stage's, and T starts a round: out of the
    footer while a round is under way, back once it is over."""
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.check_action("part_key", ("roles",)) is True  # FORGE's o
        await keys(pilot, "T")
        assert app.screen.check_action("part_key", ("roles",)) is False
        await settle(pilot)
        footer = screen_text(app)[-1]
        assert "Roles" not in footer and "Dodge/absorb" not in footer, footer
        # T starts the next round once one is over (rules §3.4 [I16]: a round is five
        # beats); while one is under way it is out of the footer too.
        assert app.screen.check_action("part_key", ("round",)) is False
        assert " Round " not in f"{footer} ", footer
        await keys(pilot, "E")
        await settle(pilot)
        assert "Roles" in screen_text(app)[-1] and " Round " in screen_text(app)[-1]


async def test_target_is_in_the_footer_in_an_action_beat_only(saves: Path) -> None:
    """``k`` aims an attack: attacks are sent in an action beat and land in a reaction
    beat, where nobody attacks (rules §3.4 [I16], [I17]: beat 4 is an action beat, beat 5
    a reaction beat). Beat 4: ``k Target`` in the footer; beat 5 (Josef's 35 sent 12 to
    Bobby): not, and ``k`` does nothing."""
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "T")
        await settle(pilot)
        assert app.screen.check_action("part_key", ("target",)) is True  # FORGE's k
        assert "Target" in screen_text(app)[-1]
        await keys(pilot, "3", "5", "enter")
        assert "Round 1 · beat 5 (reaction)" in text(app, "#aspects")
        await settle(pilot)
        assert app.screen.check_action("part_key", ("target",)) is False
        footer = screen_text(app)[-1]
        assert "Target" not in footer, footer


async def test_a_beat_played_in_one_step_is_not_corrected_but_undone(saves: Path) -> None:
    """Beat 4 sends two attacks in one step (exchanges 1 and 2): C cannot take one of them
    back alone; it says so under the field, and u takes the whole beat back."""
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "T", "3", "5", "3", "9", "enter", "C", "enter")
        assert isinstance(app.screen, FormScreen)
        assert "played in one step with the exchanges beside it" in text(app, "#e-n")
        await keys(pilot, "escape", "u")
        assert "Round 1 · beat 4 (action)" in text(app, "#aspects")
        assert "[ 35]" in text(app, "#keypad") and "[ 39]" in text(app, "#keypad")


async def test_stages_after_a_round_count_stages_not_its_attacks(saves: Path) -> None:
    """A round's attacks and hits are no stages (rules §3.4 [I16], [I17]: a round is
    beats; a stage is one actor against one reactor, §3.3). Round 1: Josef's 57 > 50
    and Bobby's 99 > 40 both miss (two attacks sent, nothing lands). Then the first
    stage: Josef acts, 35 ≤ 50 throws 3 × 4 = 12; Bobby's dodge 55 > 40 fails: Josef's
    stage, the first (1–0), and the next is stage 2. Ended there: one stage, one round."""
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "T", "5", "7", "9", "9")
        assert "Josef misses Bobby, Bobby misses Josef" in text(app, "#keypad")
        await keys(pilot, "enter")
        assert "Round 1 over" in text(app, "#aspects")
        assert "Stage 1" in text(app, "#scoreboard")
        await keys(pilot, "3", "5", "5", "5", "enter")
        assert "Stage 1: Josef wins the stage (1–0)" in text(app, "#log")
        assert "Stage 2" in text(app, "#scoreboard")
        await keys(pilot, "e")
        await settle(pilot)
        assert "After 1 stage, 1 round" in text(app, "#scoreboard")


async def test_the_players_tracker_has_no_gm_key_and_no_damage(saves: Path) -> None:
    """The players' view of the round tracker: no GM's key ("T: round 2" is the GM's)
    and no damage on its way (a hidden attacker's would tell his roll: damage is the
    tens digit × the multiplier, rules §3.4 [I7]; the log masks it). Josef's 35 with ×4
    sends 12 to Bobby's beat 5 [I17]."""
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "T", "3", "5", "enter")
        assert "12 on its way to Bobby (beat 5)" in text(app, "#aspects")  # the GM's
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        table = view("forge").aspects(screen.state, players=True)
        assert "  a hit on its way to Bobby (beat 5)" in table
        assert not any("12" in line for line in table), table
        await keys(pilot, "enter")  # Bobby absorbs: the round is over
        assert "T: round 2" in text(app, "#aspects")
        table = view("forge").aspects(screen.state, players=True)
        assert table[0] == "[b]Round 1 over[/b]", table


async def test_c_names_the_logs_entries_as_the_log_does(saves: Path) -> None:
    """With a round, the log's entries are beats and stages (rules §3.4 [I16], [I17]:
    a round's attacks are no stages), while C counts every entry: the form says which
    number is which, takes the log's own words, and the keypad says what it corrects.
    Round 1: Josef's 57 > 50 and Bobby's 99 > 40 miss (beat 4: entries 1 and 2, one
    step); then the first stage, Josef 35 ≤ 50 against Bobby's dodge 55 > 40: entry 3,
    "Stage 1"."""
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "T", "5", "7", "9", "9", "enter")
        await keys(pilot, "3", "5", "5", "5", "enter")
        assert "Stage 1: Josef wins the stage (1–0)" in text(app, "#log")
        await keys(pilot, "C")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.answers()["n"] == "3"
        hint = text(app, "#hint")
        assert "1 Beat 4 · 2 Beat 4 · 3 Stage 1" in hint, hint
        await keys(pilot, "ctrl+u", *"beat 4", "enter")  # twice in the log: its number
        assert app.screen is form
        assert "type its number" in text(app, "#e-n")
        await keys(pilot, "ctrl+u", *"stage 1", "enter")
        assert not isinstance(app.screen, FormScreen)
        keypad = app.screen.query_one("#keypad")
        assert str(keypad.border_title).startswith("Correcting Stage 1 (exchange 3)")
        assert "[ 35]" in text(app, "#keypad") and "[ 55]" in text(app, "#keypad")


async def test_a_finished_contests_footer_has_no_stage_keys(saves: Path) -> None:
    """Once the GM ends the contest (e), nothing is left to act, react, dodge or start a
    round in: T, o, x and e leave the footer and do nothing (T said "the contest ended
    at exchange 0"). u takes the end back and they return; so does C's correction of an
    exchange of it (Josef 35 ≤ 50 acts, Bobby's dodge 55 > 40 fails: stage 1, rules
    §3.3), whose keypad plays on the contest still open, once the results written to the
    roster are taken back (u)."""
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "3", "5", "5", "5", "enter", "e")
        await settle(pilot)
        assert app.screen.state.finished
        footer = screen_text(app)[-1]
        for word in ("Round", "Roles", "End"):
            assert f" {word} " not in f"{footer} ", footer
        assert app.screen.check_action("part_key", ("round",)) is False
        await keys(pilot, "u")  # the results written to the roster, taken back first
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen) and screen.record.state.finished
        await keys(pilot, "C", "enter")  # stage 1 back on the keypad
        assert screen.correcting is not None
        assert screen.check_action("part_key", ("roles",)) is True
        await keys(pilot, "escape", "u")  # the correction left; then the end taken back
        await settle(pilot)
        assert not screen.record.state.finished
        assert app.screen.check_action("part_key", ("round",)) is True
        assert "Round" in screen_text(app)[-1]


async def test_c_on_stages_alone_says_exchange_as_before(saves: Path) -> None:
    """Without a round, stage n is the log's n-th entry (rules §3.3: one actor against
    one reactor a stage): C's number is the stage's, so the form lists nothing and the
    keypad says "Correcting exchange 1", as before. Josef 35 ≤ 50 acts; Bobby's dodge
    55 > 40 fails: stage 1, Josef's."""
    app = forge_alley(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "3", "5", "5", "5", "enter")
        assert "Stage 1: Josef wins the stage (1–0)" in text(app, "#log")
        await keys(pilot, "C")
        assert "entries by number" not in text(app, "#hint")
        await keys(pilot, "enter")
        keypad = app.screen.query_one("#keypad")
        assert str(keypad.border_title).startswith("Correcting exchange 1 ·")
