"""HeroQuest and FORGE contests by key presses, and setting a campaign up from scratch."""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.heroquest.character import HeroQuestCharacter
from tests.tui.conftest import keys, new_app, seed_campaign, settle, text, write


async def test_heroquest_chained_contest_with_a_hero_point_and_a_leave(saves: Path) -> None:
    # The demo: Tripitaka, Sword and Shield 4M with vitality +1 (5M: base 5, one mastery)
    # and 3 hero points, against a Ghoul's Claws 17; a chained contest.
    app = new_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Sword and Shield 5M" not in text(app, "#participants")  # rating as rated
        assert "Sword and Shield 4M vit +1" in text(app, "#participants")
        # 1: Tripitaka 7 > 5: failure, bumped by the mastery to success; Ghoul 15 <= 17:
        # success. Equal results, the low roll (7) wins: marginal, 1 RP; the Ghoul hurt.
        await keys(pilot, "7", "1", "5", "enter")
        log = text(app, "#log")
        assert "Exchange 1: Tripitaka wins, marginal (1 RP)" in log
        assert "→ Ghoul hurt" in log
        # 2: Tripitaka 12: failure bumped to success; Ghoul 3: success; the low roll is the
        # Ghoul's. A hero point bumps Tripitaka to critical: one level better, minor (2 RP).
        await keys(pilot, "1", "2", "3", "h")
        await keys(pilot, "t", "enter")
        assert "Hero point: Tripitaka" in text(app, "#keypad")
        # The Ghoul leaves after this exchange: the chain goes to the Heroes.
        await keys(pilot, "l", "g", "enter")
        await keys(pilot, "enter")
        log = text(app, "#log")
        assert "Exchange 2: Tripitaka wins, minor (2 RP)" in log
        assert "Ghoul leaves the contest" in log
        assert "Heroes wins" in text(app, "#scoreboard")
        assert "Heroes  3 RP" in text(app, "#scoreboard")
        assert "next" not in text(app, "#scoreboard")  # over: no odds left to give
        assert "Tripitaka  HP 2" in text(app, "#participants")


async def test_heroquest_group_contest(saves: Path) -> None:
    seed_campaign(
        saves,
        "Graveyard",
        "heroquest",
        [
            Character(
                name="Tripitaka",
                ratings={"Sword": 24},
                sheet=HeroQuestCharacter(vitality=1, hero_points=3),
            ),
            Character(name="Sandy", ratings={"Staff": 15}, sheet=HeroQuestCharacter(hero_points=3)),
            Character(name="Ghoul", kind="npc", ratings={"Claws": 17}),
        ],
        [
            Pick(character="Tripitaka", side="Heroes", rating="Sword"),
            Pick(character="Sandy", side="Heroes", rating="Staff"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
    )
    app = new_app(saves, "Graveyard")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Tripitaka (5M) rolls 14: failure bumped to success; the Ghoul's 13 <= 17:
        # success; the low roll 13 wins: Ghouls 1 RP. Sandy (15) rolls 1: critical
        # against the Ghoul's 9 (success): minor, Heroes 2 RP. Difference 1: a marginal
        # group victory for the Heroes, who are also hurt.
        await keys(pilot, "G")
        await write(pilot, "Tripitaka v Ghoul 14 13, Sandy v Ghoul 1 9")
        await keys(pilot, "enter", "enter")
        log = text(app, "#log")
        assert "Exchange 1, group: Heroes win, marginal (1 RP)" in log
        assert "Pairs' points: Heroes 2, Ghouls 1" in log
        assert "Tripitaka v Ghoul: Ghoul, marginal (1 RP)" in log
        assert "Sandy v Ghoul: Sandy, minor (2 RP)" in log
        assert "Heroes wins" in text(app, "#scoreboard")


async def test_forge_combat_with_a_role_swap(saves: Path) -> None:
    # The demo: Josef (Brawling 50, fists x4) against Bobby (40, x5, armor 10 of 100).
    app = new_app(saves, "FORGE demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Stage 1, Josef acts: 35 <= 50 throws 3 x 4 = 12; Bobby's dodge 55 > 40 fails:
        # 12 hits, armor absorbs 10 (capacity 100 -> 90), 2 trauma. Josef's stage.
        await keys(pilot, "3", "5", "5", "5", "enter")
        log = text(app, "#log")
        assert "Stage 1: Josef wins the stage (1–0)" in log
        assert "Bobby takes 12: 10 absorbed, 2 trauma, armor 90 left" in log
        # Stage 2, the roles swap: Bobby acts. 39 <= 40 throws 3 x 5 = 15; Josef's 20
        # is within 50 and above 15: dodged. Josef's stage again.
        assert "Bobby · acts" in text(app, "#participants")
        await keys(pilot, "3", "9", "2", "0", "enter")
        log = text(app, "#log")
        assert "Stage 2: Josef wins the stage (2–0)" in log
        assert "Bobby attacks vs 40: 39 ✓, damage 15" in log
        participants = text(app, "#participants")
        assert "armor 10 (90 left)" in participants
        assert "trauma 2" in participants
        # The GM ends the contest: Josef has the most stage wins.
        await keys(pilot, "e")
        assert "Josef wins" in text(app, "#scoreboard")


async def test_a_new_campaign_with_characters_and_a_contest_by_keys(saves: Path) -> None:
    app = new_app(saves, "Night Market", "fate")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Roster" in text(app, "#title")
        for name, kind, ratings, fate_points in (
            ("Ana", "", "Burglary 3, Athletics 2", "3"),
            ("Watchman", "n", "Notice 2", "1"),
        ):
            await keys(pilot, "a")
            await write(pilot, name)
            await keys(pilot, "tab", *([kind] if kind else []), "tab")
            await write(pilot, ratings)
            await keys(pilot, "tab", "tab")
            await write(pilot, fate_points)
            await keys(pilot, "enter")
        table = text(app, "#title")
        assert "Night Market" in table
        assert app.campaign.roster["Ana"].ratings == {"Burglary": 3, "Athletics": 2}
        assert app.campaign.roster["Watchman"].kind == "npc"
        # Set up: Ana rolls Burglary against the Watchman's Notice.
        await keys(pilot, "n")
        await keys(pilot, "a", "tab", "tab", "b", "enter")  # Ana, her own side, Burglary
        await keys(pilot, "a", "tab", "tab", "n", "enter")  # the Watchman, Notice
        await keys(pilot, "o", "tab", "tab", "ctrl+u")  # options: first to 2
        await write(pilot, "2")
        await keys(pilot, "enter", "g")
        await write(pilot, "Slipping past the watch")
        await keys(pilot, "enter")
        assert "Slipping past the watch" in text(app, "#scoreboard")
        assert "first to 2" in text(app, "#scoreboard")
        participants = text(app, "#participants")
        assert "Burglary Good (+3)" in participants
        assert "Notice Fair (+2)" in participants


async def test_a_heroquest_contest_against_a_resistance_from_the_table(saves: Path) -> None:
    app = new_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n", "a", "enter")  # Tripitaka (first on the roster), own side
        # A High resistance in session 5: base 16 + 6 = 22, written 2M.
        await keys(pilot, "r")
        await write(pilot, "Locked Door")
        await keys(pilot, "tab", "tab", "h", "tab", "ctrl+u")
        await write(pilot, "5")
        await keys(pilot, "enter", "g", "enter")
        assert "Locked Door  HP 0" in text(app, "#participants")
        assert "rating 2M" in text(app, "#participants")


async def test_a_forge_target_built_from_tiers_distance_and_cover(saves: Path) -> None:
    app = new_app(saves, "FORGE demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n", "b", "tab", "tab")  # Josef, his own side
        await write(pilot, "25 20 10")  # tiers: 55
        await keys(pilot, "tab", "ctrl+u")
        await write(pilot, "12")  # attribute: 67
        await keys(pilot, "tab", "tab", "right", "tab", "ctrl+u")  # 26-50 yd: -20
        await write(pilot, "25")  # a quarter covered: -25, so 67 - 20 - 25 = 22
        await keys(pilot, "enter")
        await keys(pilot, "a", "enter", "g", "enter")  # Bobby with his Brawling 40
        participants = text(app, "#participants")
        assert "target 22%" in participants
        assert "Brawling 40%" in participants
