"""Secrets survive a change of wording (issue 12), and nothing a hidden value follows from
reaches the players either (issue 17, item 13).

Issue 12: each system's lines are reworded here (a house ladder, a count spelled out,
another verb) and a hidden participant's values still reach neither the players' view
(``tussle watch``) nor the recap. Each test first checks that the new wording is what the
GM sees (the change took), then that the players see ``??`` where the hidden values were.

Issue 17: what the players can work a hidden value out from goes too: a hidden side's
dice (a tie gives its total: with the dice, its skill), its shifts, FORGE's "a tie" that
equals a hidden throw with a visible roll, and the words that bound a hidden target.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Static

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, Entry, Play, StartContest, ToggleSecret
from core.campaign.recap import recap_markdown
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.model import ResolveExchange, RollDice, SetModifier
from core.rules import find_system
from core.saves.store import Saves
from core.systems.fate import wording as fate_wording
from core.systems.fate.character import FateCharacter
from core.systems.fate.events import InvokeAspect
from core.systems.forge import wording as forge_wording
from core.systems.forge.character import ForgeCharacter
from core.systems.forge.events import SetStage
from core.systems.heroquest import wording
from core.systems.heroquest.character import HeroQuestCharacter
from core.systems.heroquest.events import SetParties, SpendHeroPoints
from tests.helpers import CID, EXCHANGES, HIDE_SLY, KNIFE_CYNERE, SLY, knife_fight
from tests.helpers import fate_dice as dice
from tui.watch import WatchApp


async def players_see(saves: Path, campaign: Campaign, entries: list[Entry]) -> str:
    """What ``tussle watch`` shows of ``campaign`` (every pane but the status line's
    clock), then its recap as the players get it."""
    files = Saves(saves).create(campaign.name, campaign.system)
    files.append(entries)
    app = WatchApp(files.folder)
    async with app.run_test(size=(160, 48)) as pilot:
        app.poll()
        await pilot.pause()
        shown = "\n".join(str(s.visual) for s in app.query(Static) if s.id != "status")
    recap = "\n".join(
        line
        for line in recap_markdown(campaign).splitlines()
        if not (line.startswith("*") and not line.startswith("**"))
    )  # the date line aside
    return f"{shown}\n{recap}"


def gm_lines(campaign: Campaign) -> list[str]:
    rules = find_system(campaign.system)
    return [line for e in campaign.contest(CID).exchanges for line in rules.describe(e)]


def numbers_in(text: str, *values: str) -> list[str]:
    """``values`` found in ``text`` as whole numbers."""
    return [v for v in values if re.search(rf"(?<![\d+]){re.escape(v)}(?!\d)", text)]


# -- Fate: a house ladder -------------------------------------------------------------------

HOUSE_LADDER = {3: "Bon", 6: "Fantastique", 8: "Légendaire", 9: "Mythique"}


def house_ladder(value: int) -> str:
    return f"{HOUSE_LADDER.get(value, '?')} ({value:+d})"


async def test_fate_with_another_ladder_still_hides_the_secret_npc_totals(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fate_wording, "ladder_with_value", house_ladder)
    campaign, entries = knife_fight(HIDE_SLY)
    entries += [campaign.act(Play(contest_id=CID, commands=c)) for c in EXCHANGES]
    # Sly (Fight +7): 7 + 0 + 2 (Hidden Blade) = +9, then 7 + 1 = +8; Cynere (Athletics
    # +4): 4 - 1 = +3, then 4 + 2 = +6 (tests/core/test_secrets.py works them out).
    assert "  Sly Vasquez: 0000 → Mythique (+9)" in gm_lines(campaign)
    assert "  Sly Vasquez: +000 → Légendaire (+8)" in gm_lines(campaign)
    shown = await players_see(saves, campaign, entries)
    assert "Cynere: ++00 → Fantastique (+6)" in shown  # the house ladder is on screen
    assert "Mythique" not in shown and "Légendaire" not in shown
    assert numbers_in(shown, "+9", "+8", "+7") == []
    assert "Sly Vasquez: ?? → ??" in shown


# -- HeroQuest: a count in words ------------------------------------------------------------

COUNTS = {1: "a hero point", 2: "two hero points"}


def ghouls_with_a_hidden_king() -> tuple[Campaign, list[Entry]]:
    """Tripitaka (Sword 4M, 3 hero points) against the Ghoul King (Claws 13M, 2 hero
    points), whose numbers the GM hides from the players."""
    campaign = Campaign(name="Ghouls", system="heroquest")
    roster = [
        Character(name="Tripitaka", ratings={"Sword": 24}, sheet=HeroQuestCharacter(hero_points=3)),
        Character(
            name="Ghoul King",
            kind="npc",
            ratings={"Claws": 33},
            sheet=HeroQuestCharacter(hero_points=2),
        ),
    ]
    entries = [campaign.act(AddCharacter(character=c)) for c in roster]
    picks = [
        Pick(character="Tripitaka", side="Tripitaka", rating="Sword"),
        Pick(character="Ghoul King", side="Ghoul King", rating="Claws"),
    ]
    contest = build_contest("heroquest", campaign.roster, picks, {}, ())
    entries.append(campaign.act(StartContest(title="G", contest=contest)))
    entries.append(
        campaign.act(ToggleSecret(contest_id=CID, kind="participant", name="Ghoul King"))
    )
    return campaign, entries


async def test_heroquest_with_hero_points_in_words_still_hides_how_many_were_spent(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wording, "points_words", COUNTS.__getitem__)
    campaign, entries = ghouls_with_a_hidden_king()
    exchange = (
        SetParties(a="Tripitaka", b="Ghoul King"),
        RollDice(who="Tripitaka", faces=(12,)),
        RollDice(who="Ghoul King", faces=(3,)),
        SpendHeroPoints(who="Ghoul King", count=1),
        ResolveExchange(),
    )
    entries.append(campaign.act(Play(contest_id=CID, commands=exchange)))
    assert "  Ghoul King spends a hero point" in gm_lines(campaign)
    shown = await players_see(saves, campaign, entries)
    assert "a hero point" not in shown
    assert "Ghoul King spends ?? hero points" in shown


async def test_heroquest_hides_that_a_hidden_party_target_fell_to_zero(saves: Path) -> None:
    campaign, entries = ghouls_with_a_hidden_king()
    exchange = (
        SetParties(a="Tripitaka", b="Ghoul King"),
        SetModifier(who="Ghoul King", value=-40),
        RollDice(who="Tripitaka", faces=(12,)),
        ResolveExchange(),
    )
    entries.append(campaign.act(Play(contest_id=CID, commands=exchange)))
    # 33 - 40 = -7: the Ghoul King loses with a complete defeat without rolling, shown
    # as a fumble (rules §2.3).
    assert "  Ghoul King: vs -7, no roll (complete defeat)" in gm_lines(campaign)
    shown = await players_see(saves, campaign, entries)
    assert "no roll" not in shown and numbers_in(shown, "-7", "33") == []
    assert "Ghoul King: ?? vs ??, fumble" in shown  # as any other fumble would read


# -- FORGE: another verb for the damage -----------------------------------------------------


async def test_forge_with_another_damage_verb_still_hides_the_hidden_attacker_damage(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(forge_wording, "DAMAGE_VERB", "suffers")
    campaign = Campaign(name="Brawl", system="forge")
    josef = Character(name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4))
    bobby = Character(
        name="Bobby", kind="npc", ratings={"Brawling": 43}, sheet=ForgeCharacter(multiplier=5)
    )
    entries = [campaign.act(AddCharacter(character=c)) for c in (josef, bobby)]
    picks = [Pick(character=n, side=n, rating="Brawling") for n in ("Bobby", "Josef")]
    contest = build_contest("forge", campaign.roster, picks, {"combat": True}, ())
    entries.append(campaign.act(StartContest(title="F", contest=contest)))
    entries.append(campaign.act(ToggleSecret(contest_id=CID, kind="participant", name="Bobby")))
    stage = (
        SetStage(actor="Bobby", reactor="Josef"),
        RollDice(who="Bobby", faces=(21,)),
        RollDice(who="Josef", faces=(60,)),
        ResolveExchange(),
    )
    entries.append(campaign.act(Play(contest_id=CID, commands=stage)))
    # Bobby attacks at 43: 21 succeeds and throws 2 (the tens) x 5 = 10 damage; Josef's
    # 60 is over his 50, so he takes all 10, no armour: 10 trauma (rules §3.3).
    assert "  Josef suffers 10: 0 absorbed, 10 trauma" in gm_lines(campaign)
    shown = await players_see(saves, campaign, entries)
    assert "Josef dodges vs 50: 60 ✗, over" in shown  # Josef's own numbers are shown
    assert numbers_in(shown, "43", "21", "10") == []
    assert "Josef suffers ??: ?? absorbed, ?? trauma" in shown


# -- issue 17: what follows from a result ---------------------------------------------------


def fate_contest(
    npc: Character, options: dict[str, object], aspects: tuple[str, ...] = ()
) -> tuple[Campaign, list[Entry]]:
    """Cynere (Athletics +4) against ``npc``, whose numbers the GM hides."""
    campaign = Campaign(name="Duel", system="fate")
    entries = [campaign.act(AddCharacter(character=c)) for c in (KNIFE_CYNERE, npc)]
    picks = [
        Pick(character="Cynere", side="Cynere", rating="Athletics"),
        Pick(character=npc.name, side=npc.name, rating="Fight"),
    ]
    contest = build_contest("fate", campaign.roster, picks, options, aspects)
    entries.append(campaign.act(StartContest(title="Duel", contest=contest)))
    entries.append(campaign.act(ToggleSecret(contest_id=CID, kind="participant", name=npc.name)))
    return campaign, entries


async def test_a_fate_tie_with_a_hidden_npc_shows_neither_his_dice_nor_his_reroll(
    saves: Path,
) -> None:
    teran = Character(
        name="Teran", kind="npc", ratings={"Fight": 3}, sheet=FateCharacter(fate_points=2)
    )
    campaign, entries = fate_contest(teran, {}, ("Muddy Ground",))
    exchange = (
        RollDice(who="Cynere", faces=dice("0000")),
        RollDice(who="Teran", faces=dice("----")),
        InvokeAspect(by="Teran", aspect="Muddy Ground", effect="reroll", faces=dice("+000")),
        ResolveExchange(),
    )
    entries.append(campaign.act(Play(contest_id=CID, commands=exchange)))
    # Cynere 4 + 0 = +4; Teran rerolls ---- to +000: 3 + 1 = +4. A tie (rules §1.3).
    assert gm_lines(campaign)[1:] == [
        "  Cynere: 0000 → Great (+4)",
        "  Teran: +000 → Great (+4)",
        "    invokes Muddy Ground (fate point): reroll +000",
    ]
    shown = await players_see(saves, campaign, entries)
    # The tie is the table's (the score stays, the twist goes on the table), and with
    # Cynere's +4 it tells Teran's total; his dice would tell his skill, 3 (Good).
    assert "Exchange 1: tie, twist: Twist 1 (0–0)" in shown
    assert "+000" not in shown and "----" not in shown
    assert "Good" not in shown and numbers_in(shown, "+3") == []
    assert "Teran: ?? → ??" in shown
    assert "invokes Muddy Ground (fate point): reroll ??" in shown


async def test_fate_shifts_against_a_difficulty_are_hidden_with_the_total(saves: Path) -> None:
    sly = Character(name=SLY, kind="npc", ratings={"Fight": 7})
    campaign, entries = fate_contest(sly, {"mode": "environment", "difficulty": 2})
    exchange = (
        RollDice(who="Cynere", faces=dice("-000")),
        RollDice(who=SLY, faces=dice("0000")),
        ResolveExchange(),
    )
    entries.append(campaign.act(Play(contest_id=CID, commands=exchange)))
    # Against Fair (+2): Cynere 4 - 1 = +3, 1 shift; Sly 7 + 0 = +7, 5 shifts, with style.
    assert "  Sly Vasquez: 0000 → Epic (+7), +5 shifts" in gm_lines(campaign)
    shown = await players_see(saves, campaign, entries)
    assert numbers_in(shown, "+5", "+7") == [] and "Epic" not in shown
    assert "Cynere: -000 → Good (+3), +1 shifts" in shown
    assert "Sly Vasquez: ?? → ??, ?? shifts" in shown


async def test_forge_hides_a_reaction_tie_and_the_words_that_bound_a_hidden_target(
    saves: Path,
) -> None:
    campaign = Campaign(name="Brawl", system="forge")
    josef = Character(name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4))
    bobby = Character(
        name="Bobby", kind="npc", ratings={"Brawling": 43}, sheet=ForgeCharacter(multiplier=5)
    )
    entries = [campaign.act(AddCharacter(character=c)) for c in (josef, bobby)]
    picks = [Pick(character=n, side=n, rating="Brawling") for n in ("Bobby", "Josef")]
    contest = build_contest("forge", campaign.roster, picks, {"combat": True}, ())
    entries.append(campaign.act(StartContest(title="F", contest=contest)))
    entries.append(campaign.act(ToggleSecret(contest_id=CID, kind="participant", name="Bobby")))
    for modifier, bobby_roll, josef_roll in ((+60, 21, 10), (-50, 30, 20)):
        stage = (
            SetStage(actor="Bobby", reactor="Josef"),
            SetModifier(who="Bobby", value=modifier),
            RollDice(who="Bobby", faces=(bobby_roll,)),
            RollDice(who="Josef", faces=(josef_roll,)),
            ResolveExchange(),
        )
        entries.append(campaign.act(Play(contest_id=CID, commands=stage)))
    # Stage 1: Bobby's 43 + 60 = 103 succeeds whatever he rolls (§3.2); 21 throws 2 x 5 =
    # 10, and Josef's 10 ties it: the tie goes to the reactor (§3.3). Stage 2: 43 - 50 =
    # -7 cannot succeed; Josef wins (his 20 is shown, not needed).
    gm = gm_lines(campaign)
    assert "  Bobby attacks vs 103: 21 ✓ (automatic), damage 10" in gm
    assert "  Josef dodges vs 50: 10, a tie (to the reactor)" in gm
    assert "  Bobby attacks vs -7: 30 ✗ (cannot succeed)" in gm
    shown = await players_see(saves, campaign, entries)
    # A tie would say Bobby threw 10; "automatic" and "cannot succeed" bound his target.
    assert "tie" not in shown
    assert "automatic" not in shown and "cannot succeed" not in shown
    assert numbers_in(shown, "103", "21", "-7", "30", "43") == []
    assert "Josef dodges vs 50: 10 ✓" in shown  # Josef won: the table sees that
    assert "Bobby attacks vs ??: ?? ✗" in shown
