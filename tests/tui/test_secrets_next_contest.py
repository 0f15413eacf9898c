"""Secrets carried into the next contest with the same sides (issue 17, item 14).

Before: after a contest with a participant hidden, ``n`` (the setup's copy of it) started
a contest where nobody was hidden, and the players' view showed at once the odds worked
from the hidden skill. Now what was hidden is hidden in the copy from its first moment,
the setup hides a participant before the first exchange (``H``), and the players' view
shows no odds while anything is hidden, whatever ``players_see_odds`` says.

Each system's test plays the same two contests twice, with and without the secret (the
second made by the setup's copy, as ``n`` does), and compares, frame by frame, what the
players' view shows (odds allowed) and the recap: every line that differs is written here
by hand, and on the secret side it holds no die, total, target, margin or odds of the
hidden participant. Who wins an exchange, and by how much in victories or resolution
points, is the table's to see, and shows the same in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Static

from core.campaign.actions import Campaign
from core.campaign.log import (
    AddCharacter,
    ChangeSettings,
    Character,
    Play,
    StartContest,
    ToggleSecret,
)
from core.campaign.recap import recap_markdown
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.model import Command, ResolveExchange, RollDice
from core.saves.store import Saves
from core.systems.forge.character import ForgeCharacter
from core.systems.forge.events import SetStage
from core.systems.heroquest.character import HeroQuestCharacter
from core.systems.heroquest.events import SetParties
from tests.helpers import (
    HIDE_ALL,
    HIDE_BLADE,
    HIDE_SLY,
    KNIFE_CYNERE,
    NAME,
    SLY,
    SLY_NPC,
    fate_dice,
    knife_fight,
    leaks,
    wait_for_odds,
)
from tests.tui.conftest import keys, new_app, settle, text
from tui.screens.setup import SetupScreen
from tui.watch import WatchApp

SIZE = (120, 40)  # the full layout: the odds under each side's score


@dataclass(frozen=True)
class Table:
    """Two contests of one system with the same sides: the first as the GM set it up,
    the second the setup's copy of it (``n``)."""

    system: str
    roster: tuple[Character, ...]
    picks: tuple[Pick, ...]
    hidden: str  # the participant whose numbers are hidden
    first: Sequence[tuple[Command, ...]]  # the first contest's GM actions (Play)
    second: Sequence[tuple[Command, ...]]
    options: dict[str, Any] = field(default_factory=dict)
    aspects: tuple[str, ...] = ()
    hidden_aspect: str = ""


def screen_text(app: WatchApp) -> list[str]:
    """The players' view, line by line (the status line, with its clock, aside)."""
    return [
        line
        for s in app.query(Static)
        if s.id != "status" and s.visual is not None
        for line in str(s.visual).splitlines()
    ]


def odds_shown(app: WatchApp) -> list[str]:
    return [str(s.visual) for s in app.query(".odds")]


async def played(table: Table, saves: Path, hide: bool) -> tuple[list[list[str]], list[str]]:
    """What the players' view showed at each moment (the first contest's start, after
    each of its actions, the copy's start, after each of its actions), each frame's
    odds cells appended; and the recap's lines."""
    name = f"The {table.system} table"  # the same in both: the recap's title has it
    folder = saves / ("hidden" if hide else "shown")
    folder.mkdir()
    files = Saves(folder).create(name, table.system)
    campaign = Campaign(name=name, system=table.system)
    entries = [campaign.act(AddCharacter(character=c)) for c in table.roster]
    entries.append(campaign.act(ChangeSettings(changes={"players_see_odds": True})))
    contest = build_contest(
        table.system, campaign.roster, list(table.picks), table.options, table.aspects
    )
    uses = {p.character: p.rating for p in table.picks if p.rating}
    entries.append(campaign.act(StartContest(title="First", contest=contest, uses=uses)))
    if hide:
        entries.append(
            campaign.act(ToggleSecret(contest_id="c1", kind="participant", name=table.hidden))
        )
        if table.hidden_aspect:
            entries.append(
                campaign.act(ToggleSecret(contest_id="c1", kind="aspect", name=table.hidden_aspect))
            )
    files.append(entries)
    frames: list[list[str]] = []
    app = WatchApp(files.folder)
    async with app.run_test(size=SIZE) as pilot:

        async def look() -> None:
            app.poll()
            await pilot.pause()
            await pilot.pause()
            frames.append([*screen_text(app), *odds_shown(app)])

        async def act(*commands: Command) -> None:
            files.append([campaign.act(c) for c in commands])
            await look()

        await look()
        for commands in table.first:
            await act(Play(contest_id="c1", commands=commands))
        copy = SetupScreen(campaign.contest("c1"))  # what n opens
        await act(copy.start_command(campaign, "Second"))
        for commands in table.second:
            await act(Play(contest_id="c2", commands=commands))
    # The recap's date line aside (a date holds numbers).
    recap = [line for line in recap_markdown(campaign).splitlines() if not line.startswith("*")]
    return frames, recap


def differences(secret: list[str], plain: list[str]) -> tuple[list[str], list[str]]:
    """The lines only the secret frame has, and those only the plain one has."""
    return [x for x in secret if x not in plain], [x for x in plain if x not in secret]


async def compare(table: Table, saves: Path) -> tuple[list[tuple[list[str], list[str]]], Any]:
    secret_frames, secret_recap = await played(table, saves, hide=True)
    plain_frames, plain_recap = await played(table, saves, hide=False)
    frames = [differences(s, p) for s, p in zip(secret_frames, plain_frames, strict=True)]
    return frames, differences(secret_recap, plain_recap)


def odds_per_frame(frames: list[tuple[list[str], list[str]]]) -> list[tuple[int, int]]:
    """Each frame's odds cells ("next 58% ..."): how many the secret view shows, how many
    the plain one does (two a side: under the score, and as the cell itself)."""
    return [
        (sum("%" in x for x in secret_only), sum("%" in x for x in plain_only))
        for secret_only, plain_only in frames
    ]


def words(frames: list[tuple[list[str], list[str]]]) -> list[list[str]]:
    """Each frame's differing lines but the odds: the secret view's, "|", the plain's
    (an empty odds cell is no line)."""
    return [
        [x for x in s if "%" not in x and x] + ["|"] + [x for x in p if "%" not in x and x]
        for s, p in frames
    ]


# -- Fate ----------------------------------------------------------------------------------

FATE = Table(
    system="fate",
    roster=(KNIFE_CYNERE, SLY_NPC),
    picks=(
        Pick(character="Cynere", side="Cynere", rating="Athletics"),
        Pick(character="Sly Vasquez", side="Sly Vasquez", rating="Fight"),
    ),
    aspects=("Muddy Ground", "Hidden Blade"),
    hidden="Sly Vasquez",
    hidden_aspect="Hidden Blade",
    first=[
        (
            RollDice(who="Cynere", faces=fate_dice("++00")),
            RollDice(who="Sly Vasquez", faces=fate_dice("+000")),
            ResolveExchange(),
        )
    ],
    second=[
        (
            RollDice(who="Cynere", faces=fate_dice("++00")),
            RollDice(who="Sly Vasquez", faces=fate_dice("--00")),
            ResolveExchange(),
        )
    ],
)


async def test_fate_the_copy_keeps_sly_and_his_blade_hidden_from_its_first_frame(
    saves: Path,
) -> None:
    frames, (recap_secret, recap_plain) = await compare(FATE, saves)
    # The odds are worked from Sly's Fight: the plain view shows them from each contest's
    # first frame (two sides, each under its score: 4 cells), the secret one never.
    assert odds_per_frame(frames) == [(0, 4)] * 4
    # Rules §1.3: total = skill + dice. First contest: Cynere 4 + 2 = +6 (Fantastic), Sly
    # 7 + 1 = +8 (Legendary): Sly wins by 2, one victory, on both screens. Second: Cynere
    # +6 again, Sly 7 - 2 = +5 (Superb): Cynere wins by 1.
    assert words(frames) == [
        ["??", "|", "Hidden Blade"],  # the first contest's start: the aspect on the table
        [
            "  Sly Vasquez: ?? → ??",
            "??",
            "|",
            "  Sly Vasquez: +000 → Legendary (+8)",
            "Hidden Blade",
        ],
        ["??", "|", "Hidden Blade"],  # the copy's first frame: hidden at once, no odds
        ["  Sly Vasquez: ?? → ??", "??", "|", "  Sly Vasquez: --00 → Superb (+5)", "Hidden Blade"],
    ]
    assert recap_secret == ["- Sly Vasquez: ?? → ??", "- Sly Vasquez: ?? → ??"]
    assert recap_plain == [
        "- Sly Vasquez: +000 → Legendary (+8)",
        "- Sly Vasquez: --00 → Superb (+5)",
    ]


# -- HeroQuest -------------------------------------------------------------------------------

GHOUL_KING = "Ghoul King"
HEROQUEST = Table(
    system="heroquest",
    roster=(
        Character(name="Tripitaka", ratings={"Sword": 17}, sheet=HeroQuestCharacter(hero_points=3)),
        Character(
            name=GHOUL_KING,
            kind="npc",
            ratings={"Claws": 14},
            sheet=HeroQuestCharacter(hero_points=2),
        ),
    ),
    picks=(
        Pick(character="Tripitaka", side="Tripitaka", rating="Sword"),
        Pick(character=GHOUL_KING, side=GHOUL_KING, rating="Claws"),
    ),
    options={"chained": True},
    hidden=GHOUL_KING,
    first=[
        (
            SetParties(a="Tripitaka", b=GHOUL_KING),
            RollDice(who="Tripitaka", faces=(10,)),
            RollDice(who=GHOUL_KING, faces=(16,)),
            ResolveExchange(),
        )
    ],
    second=[
        (
            SetParties(a="Tripitaka", b=GHOUL_KING),
            RollDice(who="Tripitaka", faces=(15,)),
            RollDice(who=GHOUL_KING, faces=(5,)),
            ResolveExchange(),
        )
    ],
)


# -- FORGE -----------------------------------------------------------------------------------

JOSEF = Character(name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4))
BOBBY = Character(
    name="Bobby",
    kind="npc",
    ratings={"Brawling": 43},
    sheet=ForgeCharacter(multiplier=5, armor=10, armor_capacity=100),
)
FORGE_ROUND = [
    (
        SetStage(actor="Josef", reactor="Bobby"),
        RollDice(who="Josef", faces=(35,)),
        RollDice(who="Bobby", faces=(39,)),
    ),
    (ResolveExchange(),),
    (RollDice(who="Bobby", faces=(21,)), RollDice(who="Josef", faces=(60,)), ResolveExchange()),
]
FORGE = Table(
    system="forge",
    roster=(JOSEF, BOBBY),
    picks=(
        Pick(character="Josef", side="Josef", rating="Brawling"),
        Pick(character="Bobby", side="Bobby", rating="Brawling"),
    ),
    options={"combat": True},
    hidden="Bobby",
    first=FORGE_ROUND,
    second=FORGE_ROUND,
)


async def test_heroquest_the_copy_keeps_the_ghoul_king_hidden_from_its_first_frame(
    saves: Path,
) -> None:
    frames, (recap_secret, recap_plain) = await compare(HEROQUEST, saves)
    assert odds_per_frame(frames) == [(0, 4)] * 4
    # Rules §2.3, no masteries on either side. First contest: Tripitaka 10 vs 17, a
    # success; the Ghoul King 16 vs 14, a failure: Tripitaka's minor victory (public).
    # Second: 15 vs 17 and 5 vs 14, both successes: the low roll wins, a marginal victory
    # for the Ghoul King. His level shows; his roll and his target do not.
    assert words(frames) == [
        ["|"],
        ["  Ghoul King: ?? vs ??, failure", "|", "  Ghoul King: 16 vs 14, failure"],
        ["|"],  # the copy's first frame: the odds alone differ, and the secret view has none
        ["  Ghoul King: ?? vs ??, success", "|", "  Ghoul King: 5 vs 14, success"],
    ]
    assert recap_secret == ["- Ghoul King: ?? vs ??, failure", "- Ghoul King: ?? vs ??, success"]
    assert recap_plain == ["- Ghoul King: 16 vs 14, failure", "- Ghoul King: 5 vs 14, success"]


async def test_forge_the_copy_keeps_bobby_hidden_from_its_first_frame(saves: Path) -> None:
    frames, (recap_secret, recap_plain) = await compare(FORGE, saves)
    # No odds before the stage is set (who acts, who reacts), in either view; after it,
    # the plain view's odds are worked from Bobby's 43, the secret view shows none.
    assert odds_per_frame(frames) == [(0, 0), (0, 4), (0, 4), (0, 4)] * 2
    # Rules §3.3-3.4, each contest: Josef attacks at 50 and rolls 35, Bobby dodges at 43
    # with 39 (the higher success). Then Bobby attacks with 21 under 43: the tens, 2, times
    # his multiplier 5 is 10 damage; Josef's dodge, 60 over 50, fails; no armor: 10 trauma.
    dodge = ("  Bobby dodges vs ??: ?? ✓", "  Bobby dodges vs 43: 39, higher")
    attack = ("  Bobby attacks vs ??: ?? ✓, damage ??", "  Bobby attacks vs 43: 21 ✓, damage 10")
    takes = ("  Josef takes ??: ?? absorbed, ?? trauma", "  Josef takes 10: 0 absorbed, 10 trauma")
    contest = [
        ["|"],
        ["|"],  # the dice typed: only the odds (100% for Bobby's dodge) would tell
        [dodge[0], "|", dodge[1]],
        [dodge[0], attack[0], takes[0], "|", dodge[1], attack[1], takes[1]],
    ]
    assert words(frames) == contest * 2  # the copy hides Bobby as the first did
    assert recap_secret == [f"- {x[0].strip()}" for x in (dodge, attack, takes)] * 2
    assert recap_plain == [f"- {x[1].strip()}" for x in (dodge, attack, takes)] * 2


# -- on the GM's keys --------------------------------------------------------------------------


def knife_fight_saved(saves: Path, *secrets: ToggleSecret) -> None:
    """The knife fight (Cynere against Sly Vasquez, Fight +7) saved, the players allowed
    the odds, ``secrets`` toggled in its first contest."""
    campaign, entries = knife_fight(*secrets)
    entries.append(campaign.act(ChangeSettings(changes={"players_see_odds": True})))
    Saves(saves).create(NAME, "fate").append(entries)


def started(saves: Path, contest_id: str) -> list[Any]:
    """The saved events of the action that started ``contest_id``, in order."""
    campaign = Saves(saves).find(NAME)
    assert campaign is not None
    loaded = campaign.load()
    for action in loaded.actions.values():
        if any(getattr(e, "contest_id", "") == contest_id for e in action.events):
            return list(action.events)
    raise AssertionError(f"no action started {contest_id}")


async def players_first_frame(saves: Path) -> tuple[str, list[str]]:
    files = Saves(saves).find(NAME)
    assert files is not None
    app = WatchApp(files.folder)
    async with app.run_test(size=(80, 24)) as pilot:
        app.poll()
        await pilot.pause()
        await pilot.pause()
        return "\n".join(screen_text(app)), odds_shown(app)


async def test_n_then_g_starts_the_next_contest_with_sly_hidden_from_its_first_frame(
    saves: Path,
) -> None:
    knife_fight_saved(saves, HIDE_SLY, HIDE_BLADE)
    app = new_app(saves, NAME)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "S")  # the contest's summary, where n copies it
        await keys(pilot, "n")
        setup = text(app, "#setup-summary")
        assert "Hidden from the players: Sly Vasquez's numbers; aspect: Hidden Blade" in setup
        await keys(pilot, "g", "enter")  # the title form: Enter keeps "Contest 2"
        record = app.campaign.latest_contest
        assert record is not None and record.contest_id == "c2"
        assert record.secret_participants == {SLY} and record.secret_aspects == {"Hidden Blade"}
    # Hidden in the start itself: no moment when the players' view could show him.
    (start,) = started(saves, "c2")
    assert start.secret_participants == (SLY,) and start.secret_aspects == ("Hidden Blade",)
    shown, odds = await players_first_frame(saves)
    assert "Contest 2" in shown
    assert odds == ["", ""]  # odds allowed, but they would be worked from his Fight
    assert leaks(shown) == []


async def test_n_copies_a_whole_secret_contest_as_secret(saves: Path) -> None:
    knife_fight_saved(saves, HIDE_ALL)
    app = new_app(saves, NAME)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "S", "n")
        assert "Hidden from the players: the whole contest" in text(app, "#setup-summary")
        await keys(pilot, "g", "enter")
    (start,) = started(saves, "c2")
    assert start.secret
    shown, odds = await players_first_frame(saves)
    assert "Contest 2 · secret" in shown and "The GM keeps this contest secret" in shown
    assert odds == [] and leaks(shown) == []


async def test_h_on_the_setup_hides_the_highlighted_participant_before_the_first_exchange(
    saves: Path,
) -> None:
    knife_fight_saved(saves)  # nobody hidden in the first contest
    app = new_app(saves, NAME)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "S", "n")
        assert "H Hide" in text(app, "KeyBar") and "F5 Start" in text(app, "KeyBar")
        assert "Hidden from the players: nothing" in text(app, "#setup-summary")
        await keys(pilot, "down", "H")  # Sly's row
        table = app.screen.query_one(DataTable)
        assert table.get_row_at(1)[0].plain == "Sly Vasquez · hidden"
        assert table.cursor_row == 1  # still on his row
        assert "Hidden from the players: Sly Vasquez's numbers" in text(app, "#setup-summary")
        await keys(pilot, "up", "H", "H")  # Cynere's, hidden then shown again
        assert table.get_row_at(0)[0].plain == "Cynere"
        await keys(pilot, "g", "enter")
        record = app.campaign.latest_contest
        assert record is not None and record.contest_id == "c2"
        assert record.secret_participants == {SLY}
        # The GM's own scoreboard still has the odds. Cynere (+4) beats Sly (+7) when her
        # dice beat his by 4 or more: 8dF >= 4 in 423 of 6561 throws (8dF's counts from
        # +4 up: 266, 112, 36, 8, 1), 6%; Sly wins when 8dF <= 2: 5634 of 6561, 86%.
        await wait_for_odds(pilot)
        board = text(app, "#scoreboard").splitlines()
        assert "next   6%" in next(line for line in board if "Cynere" in line)
        assert "next  86%" in next(line for line in board if SLY in line)
    (start,) = started(saves, "c2")
    assert start.secret_participants == (SLY,)
    _, odds = await players_first_frame(saves)
    assert odds == ["", ""]  # while the players' view shows none
