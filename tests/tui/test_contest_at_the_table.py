"""The contest screen at the table (issue 24, items 7, 8, 9, 12, 20, 21, 22): what a GM
hit on the keypad and its forms during the second game night."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from tests.tui.conftest import keys, new_app, settle, text, write
from tui.app import TussleApp


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
    from core.campaign.log import Play
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


# -- item 7: u inside a correction -----------------------------------------------------------
async def test_u_in_a_correction_takes_back_its_last_change_never_a_committed_action(
    saves: Path,
) -> None:
    """Exchange 1: Cynere ++++ (Great +4, so Legendary +8), Teran ----. C reopens it;
    Backspace takes Cynere's last die (Epic +7 so far); u puts it back (the
    correction's only change), and the exchange stays in the log. u again, with nothing
    left to take back, asks before leaving the correction, and undoes nothing either
    way."""
    from tui.screens.confirm import ConfirmScreen

    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *"++++", *["minus"] * 4, "enter")
        record = next(iter(app.campaign.contests.values()))
        assert len(record.exchanges) == 1
        entries = app.campaign.entries
        await keys(pilot, "C", "enter")  # exchange 1 back on the keypad
        screen = app.screen
        assert "Legendary (+8)" in text(app, "#keypad")
        await keys(pilot, "backspace")
        assert "so far Epic (+7)" in text(app, "#keypad")
        await keys(pilot, "u")
        assert app.screen is screen
        assert "Legendary (+8)" in text(app, "#keypad")  # the die is back
        assert app.campaign.entries == entries  # nothing undone in the log
        assert len(record.exchanges) == 1
        assert "Correcting exchange 1" in str(screen.query_one("#keypad").border_title)
        await keys(pilot, "u")  # nothing left to take back: asked, as q asks
        assert isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "n")
        assert app.screen is screen
        assert "Correcting exchange 1" in str(screen.query_one("#keypad").border_title)
        await keys(pilot, "u", "y")
        assert app.screen is screen
        assert "Correcting" not in str(screen.query_one("#keypad").border_title)
        assert app.campaign.entries == entries
        assert len(record.exchanges) == 1


async def test_esc_leaving_a_changed_correction_asks_first(saves: Path) -> None:
    from tui.screens.confirm import ConfirmScreen

    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *"++++", *["minus"] * 4, "enter")
        await keys(pilot, "C", "enter", "backspace", "escape")
        assert isinstance(app.screen, ConfirmScreen)
        await keys(pilot, "escape")  # go on correcting: the change is still there
        assert "Correcting exchange 1" in str(app.screen.query_one("#keypad").border_title)
        assert "so far Epic (+7)" in text(app, "#keypad")
        await keys(pilot, "escape", "y")  # leave it: the keypad as it was before C
        assert "Correcting" not in str(app.screen.query_one("#keypad").border_title)
        assert "Epic" not in text(app, "#keypad")


# -- item 9: one staged action taken off alone -----------------------------------------------
async def _advantage(pilot: Pilot[None], aspect: str, total: str, opposition: str) -> None:
    """a: Cynere (the first) creates ``aspect`` on the scene, total against opposition."""
    await keys(pilot, "a", "tab")
    await write(pilot, aspect)
    await keys(pilot, "tab", "tab")
    await write(pilot, total)
    await keys(pilot, "tab")
    await write(pilot, opposition)
    await keys(pilot, "enter")


async def test_delete_takes_one_staged_action_off_the_keypad(saves: Path) -> None:
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "plus", "plus")  # two of Cynere's dice typed
        await keys(pilot, "m", "tab", "2", "enter")  # a +2 modifier for Cynere's side
        await _advantage(pilot, "Deep Mud", "3", "1")
        keypad = text(app, "#keypad")
        assert "Deep Mud" in keypad and "+2" in keypad
        extras = list(app.screen.draft.extras)  # type: ignore[attr-defined]
        assert len(extras) == 2
        await keys(pilot, "delete", "enter")  # the last one staged, the advantage, goes
        keypad = text(app, "#keypad")
        assert "Deep Mud" not in keypad
        assert app.screen.draft.extras == extras[:1]  # type: ignore[attr-defined]
        assert app.screen.draft.typed["Cynere"] == "++"  # type: ignore[attr-defined]


async def test_an_advantage_entered_again_in_a_correction_replaces_the_first(
    saves: Path,
) -> None:
    """Exchange 1: Cynere creates Deep Mud, +3 vs +1 (succeeds by 2: one free invoke,
    rules §1.4.5), then ++++ against ----. Corrected to +2 vs +1 (succeeds by 1: still
    one free invoke), the aspect holds one free invoke after the correction; a second
    advantage stacked on the first (an existing aspect: one more) would leave two."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _advantage(pilot, "Deep Mud", "3", "1")
        await keys(pilot, *"++++", *["minus"] * 4, "enter")
        await keys(pilot, "C", "enter")
        assert "Deep Mud" in text(app, "#keypad")
        await _advantage(pilot, "Deep Mud", "2", "1")
        extras = app.screen.draft.extras  # type: ignore[attr-defined]
        assert len(extras) == 1 and extras[0].result == 2
        await keys(pilot, "enter", "enter")  # what changes, then correct it
        record = next(iter(app.campaign.contests.values()))
        mud = next(a for a in record.state.aspects if a.name == "Deep Mud")
        assert mud.free_invokes == 1


# -- item 21: an advantage's dice, as on the keypad -----------------------------------------
async def _advantage_by_dice(pilot: Pilot[None], aspect: str, dice: str) -> None:
    """a: Cynere creates ``aspect`` against Average (+1), her total left blank and her
    ``dice`` typed (blank: Tussle rolls)."""
    await keys(pilot, "a", "tab")
    await write(pilot, aspect)
    await keys(pilot, "tab", "tab", "tab")  # the total left blank
    await write(pilot, "1")
    await keys(pilot, "tab")
    await write(pilot, dice)
    await keys(pilot, "enter")


async def test_an_advantage_takes_the_dice_typed_as_on_the_keypad(saves: Path) -> None:
    """Cynere (Athletics Great, +4) rolls ++0- for the advantage: +4 + 1 = +5."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _advantage_by_dice(pilot, "Deep Mud", "++0-")
        (extra,) = app.screen.draft.extras  # type: ignore[attr-defined]
        assert (extra.by, extra.result, extra.opposition) == ("Cynere", 5, 1)
        assert "Deep Mud (+5 vs +1)" in text(app, "#keypad")


async def test_an_advantage_with_no_total_nor_dice_is_rolled_by_tussle(saves: Path) -> None:
    """Tussle rolls + + + 0 (the table's dice, handed in): +4 + 3 = +7."""
    from core.dice import TableDice

    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.dice = TableDice([(1, 1, 1, 0)])
        await _advantage_by_dice(pilot, "Deep Mud", "")
        (extra,) = app.screen.draft.extras  # type: ignore[attr-defined]
        assert extra.result == 7
        assert "+++0" in text(app, "#keypad")


# -- item 22: footers show only the keys that apply -----------------------------------------
async def test_the_footer_leaves_out_keys_that_do_not_apply(saves: Path) -> None:
    """A simple HeroQuest contest has no chain to leave (rules §2.8: leaving is a chained
    or extended contest's); a FORGE contest outside combat has no reactions (§3.4)."""
    from core.campaign.log import Character
    from core.campaign.sheet import Pick
    from tests.tui.conftest import seed_campaign
    from tests.tui.screen_text import screen_text

    seed_campaign(
        saves,
        "Duel",
        "heroquest",
        [Character(name="Hero", ratings={"Sword": 15}), Character(name="Foe", kind="npc")],
        [Pick(character="Hero", side="Hero", rating="Sword"), Pick(character="Foe", side="Foe")],
    )
    seed_campaign(
        saves,
        "Race",
        "forge",
        [Character(name="Josef", ratings={"Running": 50}), Character(name="Bobby", kind="npc")],
        [
            Pick(character="Josef", side="Josef", rating="Running"),
            Pick(character="Bobby", side="Bobby"),
        ],
        options={"combat": False},
    )
    seed_campaign(
        saves,
        "Brawl",
        "forge",
        [Character(name="Josef", ratings={"Brawling": 50}), Character(name="Bobby", kind="npc")],
        [
            Pick(character="Josef", side="Josef", rating="Brawling"),
            Pick(character="Bobby", side="Bobby"),
        ],
        options={"combat": True},
    )
    for campaign, absent, present in (
        ("Duel", "Leave", "Hero pt"),
        ("Race", "Dodge/absorb", "Roles"),
        ("Brawl", None, "Dodge/absorb"),
    ):
        app = new_app(saves, campaign=campaign)
        async with app.run_test(size=(160, 48)) as pilot:
            await settle(pilot)
            footer = screen_text(app)[-1]
            assert present in footer, footer
            if absent is not None:
                assert absent not in footer, footer
                key = "l" if absent == "Leave" else "x"
                entries = app.campaign.entries
                await keys(pilot, key)
                assert app.screen.__class__.__name__.endswith("ContestScreen")
                assert app.screen.draft.empty  # type: ignore[attr-defined]
                assert app.campaign.entries == entries


async def test_a_simple_heroquest_contest_speaks_of_no_resolution_points(saves: Path) -> None:
    """Resolution points count only in chained and extended contests (rules §2.8): a
    simple contest's verdict names the victory alone. Hero (Sword 15) rolls 5, a
    success; the Foe rolls 20, a fumble: Hero wins."""
    from core.campaign.log import Character
    from core.campaign.sheet import Pick
    from tests.tui.conftest import seed_campaign

    seed_campaign(
        saves,
        "Duel",
        "heroquest",
        [Character(name="Hero", ratings={"Sword": 15}), Character(name="Foe", kind="npc")],
        [Pick(character="Hero", side="Hero", rating="Sword"), Pick(character="Foe", side="Foe")],
    )
    app = new_app(saves, campaign="Duel")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "5", "2", "0")
        keypad = text(app, "#keypad")
        assert "Hero would win" in keypad
        assert "RP" not in keypad


async def test_a_reroll_shows_the_new_dice_beside_the_new_total(saves: Path) -> None:
    """Cynere (Great +4) types ----, then invokes Muddy Ground for a reroll typed as
    ++++: her total is +4 + 4 = Legendary (+8), shown beside ++++, not beside
    the ---- it replaced."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *["minus"] * 4, "shift+tab")  # back on Cynere: she invokes
        await keys(pilot, "i", "tab", "tab", "right")  # what it does: a reroll
        await keys(pilot, "tab", "tab")  # paid with (the default), then the new dice
        await write(pilot, "++++")
        await keys(pilot, "enter")
        row = next(line for line in text(app, "#keypad").splitlines() if "Cynere" in line)
        assert "[+][+][+][+]" in row and "Legendary (+8)" in row, row


# -- item 22: toasts that outlive their cause, or cover the keypad ---------------------------
def toasts(app: TussleApp) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app.told]


async def test_a_refusal_of_the_keypad_goes_when_the_keypad_changes(saves: Path) -> None:
    """A 5 on Fate dice is refused (a toast says so); the GM then types a + and the
    toast about the 5 goes with its cause."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "5")
        assert any("Fate dice show" in t for t in toasts(app)), toasts(app)
        await keys(pilot, "plus")
        assert not any("Fate dice show" in t for t in toasts(app)), toasts(app)


async def test_a_quick_roll_on_the_contest_screen_shows_on_the_keypad_not_over_it(
    saves: Path,
) -> None:
    """4dF+3 vs 2 with ++++ typed: 4 + 3 = 7 against 2, five shifts: with style. Said on
    the keypad's last line; no toast covers the keypad."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "ctrl+r")
        await write(pilot, "4dF+3 vs 2")
        await keys(pilot, "tab")
        await write(pilot, "++++")
        await keys(pilot, "enter")
        keypad = text(app, "#keypad")
        assert "Quick roll 4dF+3 vs 2: ++++" in keypad, keypad
        assert "5 shifts" in keypad, keypad
        assert not any("Quick roll" in t or "4dF+3" in t for t in toasts(app)), toasts(app)


# -- item 20: text for a prompt that did not appear -----------------------------------------
CHARACTERS = {"enter": "\r", "space": " ", "plus": "+", "minus": "-"}


async def at_once(pilot: Pilot[None], *names: str) -> None:
    """Every key in the app's queue before it handles the first (a burst: typed fast,
    over a slow link, or pasted), then wait for all."""
    from textual.events import Key

    for name in names:
        pilot.app.post_message(Key(name, CHARACTERS.get(name, name)))
    await settle(pilot)


TWIST_THEN_DICE = ("enter", "T", "w", "i", "s", "t", "space", "A", "enter", "plus", "plus")


async def test_a_twist_name_typed_when_no_tie_came_is_no_key(saves: Path) -> None:
    """Cynere 0000 (+4) against Teran 0000 (+3): no tie, so Enter commits and no twist
    prompt comes. The "Twist A" typed after it for that prompt opens nothing (w was the
    roster), renames nobody; the dice after it go on the keypad, and the GM is told."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await at_once(pilot, *"0" * 8, *TWIST_THEN_DICE, *"0" * 6)
        assert type(app.screen).__name__ == "ContestScreen", app.screen_stack
        assert list(app.campaign.roster) == ["Cynere", "Teran the Swift"]
        record = next(iter(app.campaign.contests.values()))
        assert len(record.exchanges) == 1
        assert app.screen.draft.typed == {  # type: ignore[attr-defined]
            "Cynere": "++00",
            "Teran the Swift": "0000",
        }
        assert any('"Twist A" was typed with no prompt' in t for t in toasts(app)), toasts(app)


async def test_a_twist_prompt_that_appears_takes_the_name_typed_after_it(saves: Path) -> None:
    """Cynere -000 (+3) against Teran 0000 (+3): a tie. Enter asks for the twist; the
    name typed in the same burst is the twist's, whole."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await at_once(pilot, "minus", *"0" * 7, *TWIST_THEN_DICE)
        record = next(iter(app.campaign.contests.values()))
        assert len(record.exchanges) == 1
        assert any(a.name == "Twist A" for a in record.state.aspects)
        assert app.screen.draft.typed == {"Cynere": "++"}  # type: ignore[attr-defined]


# -- item 22: counts in words ----------------------------------------------------------------
async def test_a_correction_and_the_campaigns_count_one_in_the_singular(saves: Path) -> None:
    """One exchange played (Cynere ++++ against ----: two victories of three, not over):
    the correction's question says "after 1 exchange"; the campaign made of one action
    (a new campaign with nothing but its start) says "1 action"."""
    from tests.tui.screen_text import screen_text
    from tui.screens.confirm import ConfirmScreen

    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, *"++++", *["minus"] * 4, "enter")
        await keys(pilot, "C", "enter", "backspace", "minus", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        shown = "\n".join(screen_text(app))
        assert "Result: not over after 1 exchange" in shown, shown
        assert "1 exchanges" not in shown
    from core.campaign.actions import Campaign
    from core.campaign.log import AddCharacter, Character
    from core.saves.store import Saves
    from tests.helpers import act

    files = Saves(saves).create("Lonely", "fate")
    act(
        Campaign(name="Lonely", system="fate"), files, AddCharacter(character=Character(name="Zed"))
    )
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "c")  # the campaigns
        lonely = next(line for line in screen_text(app) if "Lonely" in line)
        assert "· 1 action" in lonely and "1 actions" not in lonely, lonely


async def test_a_quick_roll_on_an_ended_contest_is_still_told(saves: Path) -> None:
    """The keypad of an ended contest shows no verdict line: the roll is a toast there."""
    app = new_app(saves, campaign="Fate demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "k", "enter", "enter")  # an attack ends the contest
        await keys(pilot, "ctrl+r")
        await write(pilot, "4dF+3 vs 2")
        await keys(pilot, "tab")
        await write(pilot, "++++")
        await keys(pilot, "enter")
        assert any("4dF+3 vs 2: ++++" in t for t in toasts(app)), toasts(app)
