"""Secrets in the players' view and on the GM's panes (issue 6).

The campaign is tests/core/test_secrets.py's: the secret NPC Sly Vasquez (Fight +7, Epic;
13 fate points) against Cynere, with the secret aspect Hidden Blade; his totals, worked
there from the dice, are +9 and +8 (Legendary+1, Legendary).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from core.campaign.log import ChangeSettings, Character, Play
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.campaign.state import ContestRecord
from core.saves.store import CampaignFiles, Saves
from core.systems.heroquest.character import HeroQuestCharacter
from tests.helpers import (
    CID,
    EXCHANGES,
    HIDE_ALL,
    HIDE_BLADE,
    HIDE_SLY,
    NAME,
    SLY,
    TITLE,
    knife_fight,
    leaks,
)
from tests.tui.conftest import keys, new_app, settle, text
from tui.systems import view
from tui.watch import WatchApp


def saved(saves: Path, *secrets: Any, odds: bool = False) -> CampaignFiles:
    campaign, entries = knife_fight(*secrets)
    if odds:
        entries.append(campaign.act(ChangeSettings(changes={"players_see_odds": True})))
    files = Saves(saves).create(NAME, "fate")
    files.append(entries)
    return files


def screen_text(app: WatchApp) -> str:
    """Every pane's text as the players see it (the status line, with its clock, aside)."""
    return "\n".join(str(s.visual) for s in app.query(Static) if s.id != "status")


def odds_shown(app: WatchApp) -> list[str]:
    return [str(s.visual) for s in app.query(".odds")]


async def poll(pilot: Pilot[None], app: WatchApp) -> None:
    app.poll()
    await pilot.pause()
    await pilot.pause()
    await app.workers.wait_for_complete()  # the odds, worked out in a thread
    await pilot.pause()


async def gm_does(pilot: Pilot[None], app: WatchApp, files: CampaignFiles, *commands: Any) -> None:
    """The GM's actions, saved (by another process in real life), then a poll."""
    campaign = files.load()
    entries = []
    for command in commands:
        entries.append(campaign.act(command))
    files.append(entries)
    await poll(pilot, app)


async def test_the_players_never_see_the_secret_npc_numbers_nor_the_hidden_aspect(
    saves: Path,
) -> None:
    files = saved(saves, HIDE_SLY, HIDE_BLADE)
    app = WatchApp(files.folder)
    screens = []
    async with app.run_test(size=(80, 24)) as pilot:
        await poll(pilot, app)
        screens.append(screen_text(app))
        assert "Muddy Ground\n??" in str(app.query_one("#table", Static).visual)
        for commands in EXCHANGES:
            await gm_does(pilot, app, files, Play(contest_id=CID, commands=commands))
            screens.append(screen_text(app))
        last = str(app.query_one("#last", Static).visual)
        assert last.count("Sly Vasquez: ?? → ??") == 2  # his dice are his secret too
        assert "0000" not in last and "+000" not in last
        assert "invokes ?? (fate point): +2" in last
        assert "Cynere: ++00 → Fantastic (+6)" in last  # the PC's numbers are shown
        assert "Exchange 2: Sly Vasquez wins, 1 victory (0–3)" in last
        assert [leaks(s) for s in screens] == [[], [], []]

        # The GM shows them again: the same screen now has them (the check can fail).
        await gm_does(pilot, app, files, HIDE_SLY, HIDE_BLADE)
        shown = screen_text(app)
        assert "Sly Vasquez: 0000 → Legendary+1 (+9)" in shown
        assert "Sly Vasquez: +000 → Legendary (+8)" in shown
        assert "Hidden Blade" in shown
        assert set(leaks(shown)) >= {"+8", "+9", "Legendary", "Hidden Blade"}


async def test_no_odds_while_a_participant_is_hidden(saves: Path) -> None:
    files = saved(saves, HIDE_SLY, odds=True)
    app = WatchApp(files.folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await poll(pilot, app)
        assert odds_shown(app) == ["", ""]  # the odds would give Sly's skill away
        await gm_does(pilot, app, files, HIDE_SLY)
        shown = odds_shown(app)
        assert len(shown) == 2 and all("next" in s for s in shown)


async def test_a_hidden_pc_fate_points_are_question_marks(saves: Path) -> None:
    from core.campaign.log import ToggleSecret

    files = saved(saves)
    app = WatchApp(files.folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await poll(pilot, app)
        assert "Cynere: 3 fate points" in screen_text(app)
        hide = ToggleSecret(contest_id=CID, kind="participant", name="Cynere")
        await gm_does(pilot, app, files, hide)
        assert "Cynere: ?? fate points" in screen_text(app)


async def test_a_secret_contest_shows_its_title_and_nothing_else(saves: Path) -> None:
    files = saved(saves, HIDE_ALL)
    app = WatchApp(files.folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await poll(pilot, app)
        await gm_does(pilot, app, files, Play(contest_id=CID, commands=EXCHANGES[0]))
        shown = screen_text(app)
        assert f"{TITLE} · secret" in shown
        assert "The GM keeps this contest secret" in shown
        assert SLY not in shown and "Cynere" not in shown and "Muddy Ground" not in shown
        assert "Exchange" not in shown and not any(ch.isdigit() for ch in shown)
        assert leaks(shown) == []
        await gm_does(pilot, app, files, HIDE_ALL)
        shown = screen_text(app)
        assert "Exchange 1: Sly Vasquez wins with style" in shown
        assert "Cynere: 3 fate points" in shown and "Hidden Blade" in shown


async def test_a_players_view_without_secrets_is_unchanged(saves: Path) -> None:
    files = saved(saves)
    app = WatchApp(files.folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await poll(pilot, app)
        await gm_does(pilot, app, files, Play(contest_id=CID, commands=EXCHANGES[0]))
        shown = screen_text(app)
        assert "??" not in shown
        assert "Sly Vasquez: 0000 → Legendary+1 (+9)" in shown
        assert "Muddy Ground\nHidden Blade" in shown


# -- the GM's panes -------------------------------------------------------------------------


def record_of(*secrets: Any) -> ContestRecord:
    campaign, _ = knife_fight(*secrets)
    return campaign.contest(CID)


def test_the_gm_panes_mark_what_the_players_do_not_see() -> None:
    fate_view = view("fate")
    record = record_of(HIDE_SLY)
    assert fate_view.participants(record) == [
        "[b]Cynere[/b]  FP 3",
        "  Athletics Great (+4)",
        "[b]Sly Vasquez[/b]  FP 13 [dim]· hidden[/]",
        "  Fight Epic (+7)",
    ]
    assert fate_view.aspects(record.state, {"Hidden Blade"}) == [
        "Muddy Ground",
        "Hidden Blade [dim]hidden[/]",
    ]
    assert fate_view.aspects(record.state, {"Hidden Blade"}, players=True) == [
        "Muddy Ground",
        "??",
    ]
    whole = fate_view.participants(record_of(HIDE_ALL))
    assert whole[0] == "[b]Hidden from the players[/b]"
    assert "hidden" not in "".join(fate_view.participants(record_of()))


def test_heroquest_participants_show_condition_and_bumps_down_when_not_zero() -> None:
    from core.campaign.actions import Campaign
    from core.campaign.log import AddCharacter, StartContest, ToggleSecret
    from core.systems.heroquest.state import HQContest

    campaign = Campaign(name="T", system="heroquest")
    for c in (
        Character(name="Tripitaka", ratings={"Sword": 24}, sheet=HeroQuestCharacter(hero_points=3)),
        Character(name="Ghoul", kind="npc", ratings={"Claws": 17}),
    ):
        campaign.act(AddCharacter(character=c))
    picks = [
        Pick(character="Tripitaka", side="Heroes", rating="Sword"),
        Pick(character="Ghoul", side="Ghouls", rating="Claws"),
    ]
    contest = build_contest("heroquest", campaign.roster, picks, {}, ())
    assert isinstance(contest, HQContest)
    from msgspec.structs import replace

    tripitaka, ghoul = contest.participants
    contest = replace(contest, participants=(replace(tripitaka, condition=-3, bumps_down=1), ghoul))
    campaign.act(StartContest(title="G", contest=contest, uses={"Tripitaka": "Sword"}))
    campaign.act(ToggleSecret(contest_id=CID, kind="participant", name="Ghoul"))
    assert view("heroquest").participants(campaign.contest(CID)) == [
        "[b]Tripitaka[/b]  HP 3",
        "  Sword 4M",
        # A hurt (−3, rules §2.6) in the target and an injury (a bump down), in words.
        "  [$warning]−3 from earlier contests (hurt or impaired) · 1 bump down (injured)[/]",
        "[b]Ghoul[/b]  HP 0 [dim]· hidden[/]",
        "  rating 17",
    ]


async def test_the_gm_hides_with_h_and_the_players_see_question_marks(saves: Path) -> None:
    saved(saves)
    app = new_app(saves, NAME)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        # "The whole contest", Cynere's numbers, Sly's numbers, Muddy Ground, Hidden Blade.
        await keys(pilot, "H", "right", "right", "enter")
        await keys(pilot, "H", *["right"] * 4, "enter")
        record = app.campaign.contest(CID)
        assert record.secret_participants == {SLY}
        assert record.secret_aspects == {"Hidden Blade"}
        assert "Sly Vasquez  FP 13 · hidden" in text(app, "ParticipantsPane")
    players = WatchApp(saves / "knife-fight")
    async with players.run_test(size=(80, 24)) as pilot:
        await poll(pilot, players)
        assert "Muddy Ground\n??" in screen_text(players)
        assert leaks(screen_text(players)) == []


def test_snapshot_of_the_players_view_with_a_hidden_npc_and_aspect(
    snap_compare: Any, saves: Path
) -> None:
    files = saved(saves, HIDE_SLY, HIDE_BLADE)
    campaign = files.load()
    files.append([campaign.act(Play(contest_id=CID, commands=c)) for c in EXCHANGES])
    app = WatchApp(files.folder)

    async def steady(pilot: Pilot[None]) -> None:
        app.updated = "12:00:00"  # the clock would change the picture every run
        app.paint()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=steady)
