"""What a GM sees is pinned (issue 25, item 3): every key on the roll keypad, every verdict
the scoreboard can show, every field the players' view hides.

Four planted bugs once survived the whole suite: the keypad's ``=`` (an unshifted ``+``)
typing a minus, the scoreboard dropping "Ended by an attack", the players' view showing
a hidden HeroQuest PC's hero points, and Backspace on an empty roller no longer stepping
back to the previous one. Each has its own test here, then a sweep over its kind.

Expected values are worked by hand from rules.md: a Fate total is the skill plus the
dice (+1 per ``+``, -1 per ``-``), named on the ladder (§1.1: +3 Good, +4 Great, +5
Superb); a d20 is complete when no second digit could follow (3 to 9, then 10 to 20), a
d100 when no third could (11 to 99; 10 could still be 100).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Static

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, Entry, Play, StartContest, ToggleSecret
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.model import Command, EndContest, ResolveExchange, RollDice, SetModifier
from core.rules import find_system
from core.saves.store import Saves
from core.systems.fate.character import FateCharacter
from core.systems.fate.events import DeclareAttack
from core.systems.heroquest.character import HeroQuestCharacter
from core.systems.heroquest.events import SetParties
from tests.tui.conftest import demo_app, keys, new_app, seed_campaign, settle, text
from tui import views
from tui.app import TussleApp
from tui.screens.contest import ContestScreen
from tui.watch import WatchApp


def screen_of(app: TussleApp) -> ContestScreen:
    screen = app.screen
    assert isinstance(screen, ContestScreen)
    return screen


def typed(app: TussleApp) -> dict[str, str]:
    """The dice on the keypad by roller (rollers with nothing typed left out)."""
    return {who: dice for who, dice in screen_of(app).draft.typed.items() if dice}


def cursor(app: TussleApp) -> int:
    return screen_of(app).draft.cursor


def refusals(app: TussleApp) -> list[str]:
    return [str(n.message) for n in app.told if n.severity == "error"]


# -- the keypad: every key ------------------------------------------------------------------
#
# The Fate demo's keypad: Cynere (Athletics +4) then Teran the Swift (Lore +3), four Fate
# dice each; the keypad moves on to Teran once Cynere's four are typed.


async def test_equals_types_a_plus_as_the_plus_key_does(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "=")
        assert typed(app) == {"Cynere": "+"}
        await keys(pilot, "=", "=", "=")
        # ++++: 4 + 4 = +8, Legendary; the keypad shows the four plus dice.
        assert typed(app) == {"Cynere": "++++"}
        assert "[+][+][+][+]" in text(app, "#keypad")
        assert "Legendary (+8)" in text(app, "#keypad")
        assert refusals(app) == []


async def test_every_fate_sign_key_types_its_own_die(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # By the characters a GM types, then by the keys' names: = is plus, - minus.
        await keys(pilot, "=", "-", "0", "+")
        assert typed(app) == {"Cynere": "+-0+"}
        assert cursor(app) == 1  # four dice: on to Teran
        await keys(pilot, "equals_sign", "minus", "plus", "0")
        assert typed(app) == {"Cynere": "+-0+", "Teran the Swift": "+-+0"}
        keypad = text(app, "#keypad")
        # Cynere +4 and +1-1+0+1 = +5, Superb; Teran +3 and +1-1+1+0 = +4, Great.
        assert "[+][-][0][+]  Superb (+5)" in keypad
        assert "[+][-][+][0]  Great (+4)" in keypad
        assert refusals(app) == []


async def test_every_other_digit_is_refused_on_fate_dice(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for digit in "123456789":
            await keys(pilot, digit)
            assert typed(app) == {}, digit
            assert f'not "{digit}"' in text(app, "#keypad")
        assert len(refusals(app)) == 9


@pytest.mark.parametrize(
    ("digit", "moves_on"),
    [(d, False) for d in "12"] + [(d, True) for d in "3456789"],
)
async def test_each_first_digit_of_a_d20(saves: Path, digit: str, moves_on: bool) -> None:
    # The HeroQuest demo: Tripitaka then the Ghoul, a d20 each. 1 and 2 may go on (10 to
    # 20): the keypad waits; 3 to 9 are whole faces: it moves on to the Ghoul.
    app = demo_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, digit)
        assert typed(app) == {"Tripitaka": digit}
        assert cursor(app) == (1 if moves_on else 0)
        assert f"[ {digit}]" in text(app, "#keypad")


async def test_d20_digits_zero_and_two_digit_faces(saves: Path) -> None:
    app = demo_app(saves, "HeroQuest demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "0")
        assert typed(app) == {} and "no face 0" in text(app, "#keypad")
        await keys(pilot, "1", "0")  # 10: a whole face, on to the Ghoul
        assert typed(app) == {"Tripitaka": "10"} and cursor(app) == 1
        await keys(pilot, "2", "0")
        assert typed(app) == {"Tripitaka": "10", "Ghoul": "20"}


async def test_d100_digits(saves: Path) -> None:
    # The FORGE demo: two rollers, a d100 each. 45 is whole (no 450); 10 could be 100.
    app = demo_app(saves, "FORGE demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first, second = screen_of(app).keypad.slots()
        await keys(pilot, "4", "5")
        assert typed(app) == {first: "45"} and cursor(app) == 1
        await keys(pilot, "1", "0")
        assert typed(app) == {first: "45", second: "10"} and cursor(app) == 1
        await keys(pilot, "0")
        assert typed(app) == {first: "45", second: "100"}


async def test_backspace_on_an_empty_roller_steps_back_to_the_previous_one(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "+", "+", "0", "0")
        assert cursor(app) == 1  # on to Teran, who has typed nothing
        await keys(pilot, "backspace")
        # Back on Cynere, her last die taken back: the next die is hers again.
        assert cursor(app) == 0
        assert typed(app) == {"Cynere": "++0"}
        assert "▶ Cynere" in text(app, "#keypad")
        await keys(pilot, "-")
        assert typed(app) == {"Cynere": "++0-"}
        assert cursor(app) == 1


async def test_backspace_takes_back_one_die_and_nothing_before_the_first_roller(
    saves: Path,
) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "+", "-")
        await keys(pilot, "backspace")
        assert typed(app) == {"Cynere": "+"} and cursor(app) == 0
        await keys(pilot, "backspace", "backspace")  # the second: nothing left to take
        assert typed(app) == {} and cursor(app) == 0


async def test_escape_clears_the_keypad(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "+", "+", "0", "0", "-")
        await keys(pilot, "escape")
        assert typed(app) == {} and cursor(app) == 0
        assert "[+]" not in text(app, "#keypad") and "[-]" not in text(app, "#keypad")


def three_racers(saves: Path) -> TussleApp:
    """A Fate race of three sides: Ann, Bea and Cal (Athletics +1, +2, +3), in that order."""
    seed_campaign(
        saves,
        "Three",
        "fate",
        [
            Character(name=n, ratings={"Athletics": i + 1})
            for i, n in enumerate(("Ann", "Bea", "Cal"))
        ],
        [Pick(character=n, side=n, rating="Athletics") for n in ("Ann", "Bea", "Cal")],
    )
    return new_app(saves, "Three")


async def test_every_move_key_goes_its_own_way(saves: Path) -> None:
    # Three rollers, so a step forward and a step back land on different ones.
    app = three_racers(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert screen_of(app).keypad.slots() == ["Ann", "Bea", "Cal"]
        walk = [
            ("right", 1, "Bea"),
            ("down", 2, "Cal"),
            ("tab", 0, "Ann"),
            ("left", 2, "Cal"),
            ("up", 1, "Bea"),
            ("shift+tab", 0, "Ann"),
        ]
        for key, where, who in walk:
            await keys(pilot, key)
            assert cursor(app) == where, key
            assert f"▶ {who}" in text(app, "#keypad"), key


async def test_r_rolls_for_the_current_roller_and_shift_r_for_everyone_left(
    saves: Path,
) -> None:
    app = three_racers(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "tab", "r")  # Bea's dice, by Tussle; on to Cal
        rolled = typed(app)
        assert list(rolled) == ["Bea"] and re.fullmatch(r"[-+0]{4}", rolled["Bea"])
        assert screen_of(app).draft.sources["Bea"] == "tussle"
        assert cursor(app) == 2
        await keys(pilot, "R")  # Ann and Cal, still to roll; Bea's stay
        after = typed(app)
        assert set(after) == {"Ann", "Bea", "Cal"} and after["Bea"] == rolled["Bea"]
        assert all(re.fullmatch(r"[-+0]{4}", dice) for dice in after.values())


async def test_enter_commits_what_the_keypad_holds(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # Cynere +4 +2 = +6 against Teran +3 - 1 = +2: a margin of 4, with style (§1.3:
        # 3 or more), two victories.
        await keys(pilot, "+", "+", "0", "0", "-", "0", "0", "0", "enter")
        assert "Exchange 1: Cynere wins with style, 2 victories (2–0)" in text(app, "#log")
        assert typed(app) == {}


# -- the scoreboard: every verdict ------------------------------------------------------------


async def test_the_scoreboard_says_the_contest_ended_by_an_attack(saves: Path) -> None:
    app = demo_app(saves, "Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "k")
        await keys(pilot, "enter")  # Cynere attacks
        await keys(pilot, *"00000000", "enter")
        board = text(app, "#scoreboard")
        assert "Ended by an attack: now a conflict" in board
        assert "No winner" not in board and "wins" not in board


def played(system: str, roster: list[Character], *exchanges: tuple[Command, ...]) -> Campaign:
    """A campaign of ``system`` whose roster all take part, each on a side of their own,
    rolling their first rating, with ``exchanges`` played (what the rules ask first, such
    as FORGE's roles, is added before each)."""
    campaign = Campaign(name="Verdicts", system=system)
    for character in roster:
        campaign.act(AddCharacter(character=character))
    picks = [Pick(character=c.name, side=c.name, rating=next(iter(c.ratings))) for c in roster]
    contest = build_contest(system, campaign.roster, picks, {}, ())
    campaign.act(StartContest(title="T", contest=contest))
    rules = find_system(system)
    for commands in exchanges:
        before = tuple(rules.implicit(campaign.contest("c1").state))
        campaign.act(Play(contest_id="c1", commands=(*before, *commands)))
    return campaign


def verdict_line(campaign: Campaign) -> str:
    return views.scoreboard(campaign.contest("c1"), campaign.name)[1]


CYNERE = Character(name="Cynere", ratings={"Athletics": 4}, sheet=FateCharacter(fate_points=3))
TERAN = Character(name="Teran", kind="npc", ratings={"Athletics": 3})
TRIPITAKA = Character(
    name="Tripitaka", ratings={"Sword": 24}, sheet=HeroQuestCharacter(hero_points=3)
)  # 4M
SANDY = Character(name="Sandy", ratings={"Staff": 15}, sheet=HeroQuestCharacter(hero_points=2))
ANA = Character(name="Ana", ratings={"Knife": 67})
BO = Character(name="Bo", ratings={"Knife": 40})


def fate_exchange(cynere: tuple[int, ...], teran: tuple[int, ...]) -> tuple[Command, ...]:
    return (RollDice(who="Cynere", faces=cynere), RollDice(who="Teran", faces=teran))


def test_every_verdict_the_scoreboard_can_show() -> None:
    # Fate, first to 3 victories: +4+2 = +6 against +3 with style (2), then +4 against
    # +3, one more (3): Cynere wins the contest.
    won = played(
        "fate",
        [CYNERE, TERAN],
        (*fate_exchange((1, 1, 0, 0), (0, 0, 0, 0)), ResolveExchange()),
        (*fate_exchange((0, 0, 0, 0), (0, 0, 0, 0)), ResolveExchange()),
    )
    assert "[b reverse] Cynere wins [/]" in verdict_line(won)
    # Fate: an attack ends it as a conflict, whoever rolled higher.
    attacked = played(
        "fate",
        [CYNERE, TERAN],
        (DeclareAttack(by="Teran"), *fate_exchange((1, 1, 0, 0), (0, 0, 0, 0))),
    )
    attacked.act(Play(contest_id="c1", commands=(ResolveExchange(),)))
    line = verdict_line(attacked)
    assert "Ended by an attack: now a conflict" in line
    assert "wins" not in line and "No winner" not in line
    # HeroQuest, a simple contest: Sandy's 3 on 15 and Tripitaka's 12 on 4M both succeed
    # (the mastery bumps 12, a failure on 4, up), and the low roll takes the tie: Sandy.
    hq_won = played(
        "heroquest",
        [TRIPITAKA, SANDY],
        (
            SetParties(a="Tripitaka", b="Sandy"),
            RollDice(who="Tripitaka", faces=(12,)),
            RollDice(who="Sandy", faces=(3,)),
            ResolveExchange(),
        ),
    )
    assert "[b reverse] Sandy wins [/]" in verdict_line(hq_won)
    # HeroQuest: both targets brought to 0 or less: a tie, nobody wins (§2.3).
    hq_tie = played(
        "heroquest",
        [TRIPITAKA, SANDY],
        (
            SetParties(a="Tripitaka", b="Sandy"),
            SetModifier(who="Tripitaka", value=-40),
            SetModifier(who="Sandy", value=-40),
            ResolveExchange(),
        ),
    )
    assert "[b]No winner[/]" in verdict_line(hq_tie)
    # FORGE: Ana acts (58 under 67, a success) and Bo reacts (22 under 40, lower): Ana
    # takes the stage; the GM ends it there, 1-0.
    forge_won = played(
        "forge",
        [ANA, BO],
        (
            RollDice(who="Ana", faces=(58,)),
            RollDice(who="Bo", faces=(22,)),
            ResolveExchange(),
            EndContest(),
        ),
    )
    assert "[b reverse] Ana wins [/]" in verdict_line(forge_won)
    forge_even = played("forge", [ANA, BO], (EndContest(),))
    assert "[b]No winner[/]" in verdict_line(forge_even)
    # Not over: no verdict at all.
    going = played("fate", [CYNERE, TERAN])
    assert "wins" not in verdict_line(going) and "No winner" not in verdict_line(going)


# -- the players' view: every field it hides --------------------------------------------------


async def players_see(saves: Path, campaign: Campaign, entries: list[Entry]) -> str:
    """What ``tussle watch`` shows of ``campaign`` (every pane but the status line)."""
    files = Saves(saves).create(campaign.name, campaign.system)
    files.append(entries)
    app = WatchApp(files.folder)
    async with app.run_test(size=(160, 48)) as pilot:
        app.poll()
        await pilot.pause()
        return "\n".join(str(s.visual) for s in app.query(Static) if s.id != "status")


def with_entries(
    system: str, roster: list[Character], secrets: list[ToggleSecret], *commands: Command
) -> tuple[Campaign, list[Entry]]:
    campaign = Campaign(name="Hidden", system=system)
    entries = [campaign.act(AddCharacter(character=c)) for c in roster]
    picks = [Pick(character=c.name, side=c.name, rating=next(iter(c.ratings))) for c in roster]
    contest = build_contest(system, campaign.roster, picks, {}, ())
    entries.append(campaign.act(StartContest(title="T", contest=contest)))
    entries += [campaign.act(s) for s in secrets]
    if commands:
        before = tuple(find_system(system).implicit(campaign.contest("c1").state))
        entries.append(campaign.act(Play(contest_id="c1", commands=(*before, *commands))))
    return campaign, entries


def hide(name: str) -> ToggleSecret:
    return ToggleSecret(contest_id="c1", kind="participant", name=name)


def numbers_in(shown: str, *values: str) -> list[str]:
    """``values`` found in ``shown`` as whole numbers (not inside a longer one)."""
    return [v for v in values if re.search(rf"(?<![\d+]){re.escape(v)}(?!\d)", shown)]


HQ_EXCHANGE = (
    SetParties(a="Tripitaka", b="Sandy"),
    RollDice(who="Tripitaka", faces=(12,)),
    RollDice(who="Sandy", faces=(3,)),
    ResolveExchange(),
)


async def test_a_hidden_heroquest_pc_hero_points_are_question_marks(saves: Path) -> None:
    # Two PCs, so both have their points on the table; the GM hides Tripitaka.
    campaign, entries = with_entries("heroquest", [TRIPITAKA, SANDY], [hide("Tripitaka")])
    shown = await players_see(saves, campaign, entries)
    assert "Tripitaka: ?? hero points" in shown
    assert "Tripitaka: 3 hero points" not in shown
    assert "Sandy: 2 hero points" in shown  # the other PC's are shown


async def test_the_players_view_hides_every_number_of_a_hidden_heroquest_pc(
    saves: Path,
) -> None:
    campaign, entries = with_entries(
        "heroquest", [TRIPITAKA, SANDY], [hide("Tripitaka")], *HQ_EXCHANGE
    )
    shown = await players_see(saves, campaign, entries)
    # Tripitaka: Sword 4M, a 12 rolled, 3 hero points; none of them.
    assert "4M" not in shown and numbers_in(shown, "12") == []
    assert "Tripitaka: ?? vs ??" in shown and "Tripitaka: ?? hero points" in shown
    assert "Sandy: 3 vs 15" in shown and "Sandy: 2 hero points" in shown


async def test_the_players_view_hides_every_number_of_a_hidden_fate_pc(saves: Path) -> None:
    # Cynere (Athletics +4, 3 fate points) rolls --+0: +3, Good; Teran -000: +2, Fair.
    campaign, entries = with_entries(
        "fate",
        [CYNERE, TERAN],
        [hide("Cynere")],
        *fate_exchange((-1, -1, 1, 0), (-1, 0, 0, 0)),
        ResolveExchange(),
    )
    shown = await players_see(saves, campaign, entries)
    assert "Cynere: ?? → ??" in shown and "Cynere: ?? fate points" in shown
    assert "--+0" not in shown and "Good" not in shown
    assert numbers_in(shown, "+3", "+4") == []
    assert "Cynere: 3 fate points" not in shown
    assert "Teran: -000 → Fair (+2)" in shown


async def test_the_players_view_hides_every_number_of_a_hidden_forge_pc(saves: Path) -> None:
    campaign, entries = with_entries(
        "forge",
        [ANA, BO],
        [hide("Ana")],
        RollDice(who="Ana", faces=(58,)),
        RollDice(who="Bo", faces=(22,)),
        ResolveExchange(),
    )
    shown = await players_see(saves, campaign, entries)
    # Ana: Knife 67, a 58 rolled (and thrown): none of them; Bo's 40 and 22 are shown.
    assert numbers_in(shown, "67", "58") == []
    assert "Ana acts vs ??: ??" in shown
    assert "vs 40: 22" in shown


@pytest.mark.parametrize(
    ("system", "roster"),
    [("fate", [CYNERE, TERAN]), ("heroquest", [TRIPITAKA, SANDY]), ("forge", [ANA, BO])],
)
async def test_a_secret_contest_of_any_system_shows_its_title_alone(
    saves: Path, system: str, roster: list[Character]
) -> None:
    campaign, entries = with_entries(
        system, roster, [ToggleSecret(contest_id="c1", kind="contest")]
    )
    shown = await players_see(saves, campaign, entries)
    assert "T · secret" in shown
    assert not any(c.name in shown for c in roster)
    assert not any(ch.isdigit() for ch in shown)


@pytest.mark.parametrize(
    ("system", "roster", "winner"),
    [
        # FORGE: Ana takes stage 1 (58 under 67, Bo's 22 lower), the GM ends it: Ana wins.
        ("forge", [ANA, BO], "Ana"),
        # FORGE: ended before any stage, 0-0: the most stage wins are shared, nobody wins.
        ("forge", [ANA, BO], None),
    ],
)
async def test_the_players_title_says_how_the_contest_ended(
    saves: Path, system: str, roster: list[Character], winner: str | None
) -> None:
    stage = (RollDice(who="Ana", faces=(58,)), RollDice(who="Bo", faces=(22,)), ResolveExchange())
    commands = (*stage, EndContest()) if winner else (EndContest(),)
    campaign, entries = with_entries(system, roster, [], *commands)
    title = (await players_see(saves, campaign, entries)).splitlines()[0]
    assert title.rstrip().endswith("Ana wins" if winner else "· no winner"), title


def test_a_secret_contest_hides_every_participant_side_and_aspect() -> None:
    # The redaction's own rule (core/redact.py): the whole contest kept secret hides all
    # of it, whoever and whatever is named, as a defence behind the players' view and the
    # recap, which never show such a contest's lines at all.
    from core.redact import Secrets

    everything = Secrets(contest=True)
    assert everything.participant("Anyone") and everything.side("Any side")
    assert everything.aspect("Any aspect")
    nothing = Secrets()
    assert not (nothing.participant("Anyone") or nothing.side("S") or nothing.aspect("A"))
