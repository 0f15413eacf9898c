"""A Fate conflict on the dashboard, by keys only (issue 28): the panes show whose turn
it is, the stress boxes and consequences; k attacks (dice typed), a absorbs the hit
waiting (a way the rules list, the consequence named on the spot; a missing name is
refused with the form kept open), k again concedes; i invokes on an attack's rolls (a
fate point spent, none: refused and nothing spent, Esc: nothing played). Worked from the
SRD ("Conflicts", "Stress", "Consequences", "Conceding", "Invoking Aspects")."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from core.systems.fate.conflict_play import FateConflict
from core.systems.fate.state import FateContest
from tests.conflict_campaigns import opening, start
from tests.tui.conftest import (
    keys,
    new_app,
    odds_done,
    settle,
    text,
    warehouse_contest,
    write,
)
from tui.app import TussleApp
from tui.screens.contest import ContestScreen
from tui.screens.forms import FormScreen


def seed(saves: Path) -> None:
    """The SRD's warehouse (tests/conflict_campaigns.py), saved before anyone acts."""
    start(saves)


def state(app: TussleApp) -> FateConflict:
    record = app.campaign.latest_contest
    assert record is not None and isinstance(record.state, FateConflict)
    return record.state


async def test_an_exchange_of_a_conflict_by_keys(saves: Path) -> None:
    seed(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_done(pilot)
        assert "Cynere's turn" in text(app, "#keypad")
        # k: Cynere attacks Drisban with Fight (+3), dice ++00: Superb (+5); Drisban
        # defends with Fight (+4), dice -000: Good (+3). A 2-shift hit (SRD, Attack).
        await keys(pilot, "k")  # who (Cynere), does (attack), on whom (Drisban), with
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "tab", "tab", "tab", "tab")
        await write(pilot, "++00")
        await keys(pilot, "tab", "ctrl+u")
        await write(pilot, "Fight")
        await keys(pilot, "tab")
        await write(pilot, "-000")
        await keys(pilot, "enter")
        assert state(app).hit is not None and state(app).hit.shifts == 2  # type: ignore[union-attr]
        assert "Drisban absorbs a 2-shift physical hit" in text(app, "#keypad")
        # a: the ways the rules list, the first being his 2-box (his 1-box cannot take
        # 2 shifts); a moderate alone is one too, and needs a name.
        await keys(pilot, "a")
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "right")  # the next way: a mild alone
        await keys(pilot, "enter")
        assert isinstance(app.screen, FormScreen)  # no name: refused, kept open
        said = app.screen.query_one("#e-names", Static)
        assert said.display and "Name 1 consequence" in str(said.visual)
        await keys(pilot, "shift+tab", "left", "enter")  # back to the 2-box: no name needed
        await settle(pilot)
        drisban = state(app).conflict.combatant("Drisban")
        assert [b.checked for b in drisban.track("physical").boxes] == [False, True]
        assert "Drisban's turn" in text(app, "#keypad")
        assert "[1][x2]" in text(app, "#participants")
        # Still the conflict's first exchange (SRD: each one acts once in it), though one
        # action is in the log: the scoreboard says so, as the title does.
        assert "Exchange 1 " in text(app, "#scoreboard"), text(app, "#scoreboard")
        # k, concede: Drisban concedes before any roll against him: 1 fate point (no consequence
        # taken), paid as the conflict ends, Cynere's side the only one left.
        await keys(pilot, "k", "tab", "right", "right", "right", "enter")
        await settle(pilot)
        assert state(app).finished and state(app).winner == "Cynere"
        assert "k: the conflict" not in text(app, "#keypad")  # the conflict goes on no more
        assert {p.name: p.fate_points for p in state(app).participants}["Drisban"] == 1
        await keys(pilot, "q")


async def test_a_skill_mistyped_is_refused_under_its_field(saves: Path) -> None:
    """SRD, Attack and Defend: Fight, Shoot (Provoke) attack; Athletics, Fight (Will)
    defend; a skill a character lacks is Mediocre. "Fihgt" is none of those nor on
    Cynere's sheet (Fight, Notice, Athletics, Physique): it rolled Mediocre (+0) unseen
    where the GM meant Fight (+3). It is refused under its field, the form kept, nothing
    played; "fight" and "athletics" are Fight and Athletics, as the sheet spells them:
    Fight Good (+3) rolling 0000 against Drisban's Athletics, which he lacks (Mediocre),
    rolling 0000: a 3-shift hit."""
    seed(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_done(pilot)
        await keys(pilot, "k", "tab", "tab", "tab", "ctrl+u")
        await write(pilot, "Fihgt")
        await keys(pilot, "tab")
        await write(pilot, "0000")
        await keys(pilot, "tab", "ctrl+u")
        await write(pilot, "athletics")
        await keys(pilot, "tab")
        await write(pilot, "0000")
        await keys(pilot, "enter")
        assert isinstance(app.screen, FormScreen)
        said = app.screen.query_one("#e-skill", Static)
        assert said.display and '"Fihgt" is not on Cynere\'s sheet' in str(said.visual)
        assert state(app).hit is None and not app.campaign.latest_contest.exchanges  # type: ignore[union-attr]
        await keys(pilot, "ctrl+u")  # the field refused has the focus
        await write(pilot, "fight")
        await keys(pilot, "enter")
        await settle(pilot)
        hit = state(app).hit
        assert hit is not None and hit.shifts == 3
        assert (hit.attack.skill, hit.attack.defense) == ("Fight", "Athletics")
        await keys(pilot, "q")


async def test_k_turns_the_contest_an_attack_ended_into_its_conflict(saves: Path) -> None:
    """Rules §1.3 and the SRD: an attack ends the contest and the scene goes on as a
    conflict, with the same people (their fate points as the contest left them) and
    the turn order by Notice (Cynere, Good, first); u takes the start back."""
    app = new_app(saves, warehouse_contest(saves))
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_done(pilot)
        await keys(pilot, "k", "enter", "enter")  # Cynere attacks; the exchange commits
        await settle(pilot)
        contest = app.campaign.latest_contest
        assert contest is not None and isinstance(contest.state, FateContest)
        assert contest.state.finished and contest.state.ended_by == "attack"
        # the keypad says which key goes on (README: k on a contest an attack ended); it
        # listed Enter, n, C and u only
        assert "k: the conflict · Enter: summary" in text(app, "#keypad")
        await keys(pilot, "k")
        assert isinstance(app.screen, FormScreen)
        await keys(pilot, "enter")
        await odds_done(pilot)
        conflict = state(app)
        assert [x.name for x in conflict.conflict.combatants] == ["Cynere", "Drisban"]
        assert {p.name: p.fate_points for p in conflict.participants} == {
            "Cynere": 2,
            "Drisban": 0,
        }
        assert "Cynere's turn" in text(app, "#keypad")
        # what each rolled in the contest stays with the conflict: a setup made like it
        # (n on its summary) offers it again (before, none: "Mediocre (+0)")
        record = app.campaign.latest_contest
        assert record is not None and dict(record.uses) == {
            "Cynere": "Athletics",
            "Drisban": "Fight",
        }
        await keys(pilot, "u")
        await settle(pilot)
        latest = app.campaign.latest_contest
        assert latest is not None and isinstance(latest.state, FateContest)
        await keys(pilot, "q")


async def test_a_conflict_undone_at_once_does_not_crash_the_dashboard(saves: Path) -> None:
    """u straight after k opened the conflict: the conflict's screen goes with it, and
    its odds, due a moment after it opened, are not worked out for a contest that is no
    longer there (they crashed the dashboard: 'no contest "c2"', seen in CI)."""
    app = new_app(saves, warehouse_contest(saves))
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_done(pilot)
        await keys(pilot, "k", "enter", "enter")  # Cynere attacks; the contest ends
        await keys(pilot, "k", "enter")  # the conflict opens
        screen = app.screen
        assert isinstance(screen, ContestScreen) and isinstance(state(app), FateConflict)
        await keys(pilot, "u")  # and is taken back before its odds were due
        screen.start_odds()  # they fall due now: nothing to work out, nothing raised
        await settle(pilot)
        latest = app.campaign.latest_contest
        assert latest is not None and isinstance(latest.state, FateContest)
        assert app.is_running
        await keys(pilot, "q")


async def test_an_attack_undone_leaves_nothing_on_the_keypad(saves: Path) -> None:
    """u takes back an attack played from k's form: the conflict is as before it, and
    the keypad (which has no dice in a conflict) holds nothing of it: it says whose turn
    it is, not the undone hit, and Enter plays nothing."""
    seed(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_done(pilot)
        # Cynere Fight +3, ++00: +5 against Drisban's Fight +4, -000: +3: a 2-shift hit.
        await keys(pilot, "k", "tab", "tab", "tab", "tab")
        await write(pilot, "++00")
        await keys(pilot, "tab", "ctrl+u")
        await write(pilot, "Fight")
        await keys(pilot, "tab")
        await write(pilot, "-000")
        await keys(pilot, "enter")
        assert state(app).hit is not None
        await keys(pilot, "u")
        await odds_done(pilot)
        assert state(app).hit is None
        assert "Cynere's turn" in text(app, "#keypad")
        assert "absorbs" not in text(app, "#keypad")
        await keys(pilot, "enter")
        await odds_done(pilot)
        assert state(app).hit is None and state(app).turn == "Cynere"
        await keys(pilot, "q")


def seed_with_mud(saves: Path) -> None:
    """The warehouse (:func:`seed`) over Muddy Ground, a situation aspect."""
    start(saves, opening("Muddy Ground"))


async def tie_then_rolls(pilot: Pilot[None]) -> None:
    """i: the attack form, invokes asked for. Cynere, Fight Good (+3), dice 0000: Good
    (+3); Drisban defends with Fight Great (+4), dice -000: Good (+3). Enter: the rolls."""
    await keys(pilot, "i")
    assert isinstance(pilot.app.screen, FormScreen)
    await keys(pilot, "tab", "tab", "tab", "tab")
    await write(pilot, "0000")
    await keys(pilot, "tab", "ctrl+u")
    await write(pilot, "Fight")
    await keys(pilot, "tab")
    await write(pilot, "-000")
    await keys(pilot, "enter")


def form_text(app: TussleApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).visual)


async def test_i_invokes_on_the_attack_and_spends_the_fate_point(saves: Path) -> None:
    """SRD, Invoking Aspects; Conflicts (Resolving Attacks). The rolls tie (Good +3 vs
    Good +3: no harm, a boost). Cynere pays a fate point for Muddy Ground: +2, Superb
    (+5) vs Good (+3): a 2-shift hit. Drisban, with no fate point, tries to pay one:
    refused under "Paid with", the form kept, nothing spent. The attack is played with
    Cynere's invoke: her points 2 → 1, the hit of 2 waits on Drisban; u gives the point
    back."""
    seed_with_mud(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_done(pilot)
        await tie_then_rolls(pilot)
        assert isinstance(app.screen, FormScreen)
        assert "a tie: no harm, a boost for Cynere" in form_text(app, "#hint")
        # Then: someone invokes (the default, the first time): Cynere, Muddy Ground,
        # +2, a fate point (her default: the aspect has no free invoke).
        await keys(pilot, "enter")
        assert isinstance(app.screen, FormScreen)
        assert "Superb (+5) vs Drisban Good (+3): a 2-shift physical hit" in form_text(app, "#hint")
        assert "Invoked: Cynere: Muddy Ground (1 FP)" in form_text(app, "#hint")
        # Drisban invokes Muddy Ground too, paying a fate point he does not have.
        await keys(pilot, "right", "tab", "right", "tab", "tab", "tab")
        await keys(pilot, "left", "left")  # from the GM's pool (his default) to a fate point
        await keys(pilot, "enter")
        assert isinstance(app.screen, FormScreen)
        said = app.screen.query_one("#e-how", Static)
        assert said.display and "Drisban has no fate points left" in str(said.visual)
        assert {p.name: p.fate_points for p in state(app).participants}["Cynere"] == 2
        # Play the attack as it stands (Cynere's invoke only).
        await keys(pilot, "shift+tab", "shift+tab", "shift+tab", "shift+tab", "left", "enter")
        await settle(pilot)
        assert not isinstance(app.screen, FormScreen)
        c = state(app)
        assert c.hit is not None and c.hit.shifts == 2
        assert {p.name: p.fate_points for p in c.participants} == {"Cynere": 1, "Drisban": 0}
        assert "Cynere  FP 1" in text(app, "#participants")
        await keys(pilot, "u")
        await settle(pilot)
        assert state(app).hit is None
        assert {p.name: p.fate_points for p in state(app).participants}["Cynere"] == 2
        await keys(pilot, "q")


async def test_esc_on_the_rolls_plays_nothing(saves: Path) -> None:
    seed_with_mud(saves)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_done(pilot)
        await tie_then_rolls(pilot)
        await keys(pilot, "enter")  # Cynere's fate point for Muddy Ground
        await keys(pilot, "escape")
        await settle(pilot)
        assert not isinstance(app.screen, FormScreen)
        c = state(app)
        assert c.hit is None and c.n == 0 and c.turn == "Cynere"
        assert {p.name: p.fate_points for p in c.participants}["Cynere"] == 2
        await keys(pilot, "q")
