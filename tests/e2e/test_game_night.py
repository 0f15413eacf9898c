"""A game night: the real ``tussle`` console script in tmux, keys only, one evening on one
saves folder (issue 11).

The GM sets the table with ``tussle share`` and a player attaches read-only; the GM plays
a Fate contest (an NPC's invoke paid from the GM's pool, a tie and its twist, undo, redo
and Enter), sets up a HeroQuest chained contest from a fresh roster (an augment and a hero
point), fights a FORGE combat and corrects a stage of it, quits with dice typed (asked,
kept), and starts ``tussle`` again on the same saves. Then ``tussle check`` passes on every
campaign and each recap lists exactly the exchanges played.

Then the second evening's (issue 24): a FORGE campaign made by ``tussle open NAME --system
forge`` and filled by ``tussle roster import`` opens on a setup, which ``Esc`` leaves and
``w``, ``n``, ``c`` take to the roster, a setup and the campaigns; one made on the campaign
screen (``c n "friday fate" Enter``) the same. On the imported roster a goon with a Trauma
pool of 10 takes 12 and is dying: the pane says so, and his next roll is refused. Then a
HeroQuest extended contest on an imported pair is played to its end, and the recap ``M``
writes gives its real final consequences (the exchanges leave none). Last (issue 29), a
HeroQuest group extended contest by keys: two Heroes engage a new NPC (E), a round of
two pairings with its multiple-opponent penalty, and the second round's fall that ends it.
And a FORGE combat round by beats at 80x24 (issue 29): the GM gives Josef his Physical
Agility on the roster (0 refused), starts a round (T) and plays its beats by the keypad:
attacks sent in action beats, a dodge and an absorb where they land. Last, a Fate conflict
at 80x24 (issue 28): a contest an attack (k) ends, k again makes it a conflict, three
exchanges of attacks and absorptions by keys, and the NPC concedes; the roster shows the
concession's fate points and the consequences kept, and the recap the conflict's actions.

The tests below are the evening's parts, in order, on one module-scoped evening: each
needs the ones before it. Every die is typed from the keypad, so every result is known:
the expected totals, victories, points and damage are worked out in the comments from the
rules (shared/spec/rules.md), never copied from Tussle's output. Forms are filled by
reading the screen (tests/e2e/tmux.py: ``Pane.choose``, ``Pane.fill``), not by counting
keys, and every wait polls the screen for the text expected.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.e2e.tmux import TMUX, Pane, Terminal, find_dialog, unique_socket, wait_for_file
from tests.helpers import clean_env, tussle_script

# One evening, its parts in order on one tmux (the module's fixture): one worker.
pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed"),
    pytest.mark.xdist_group("game_night"),
]

FATE, HEROQUEST, FORGE = "Fate demo", "Children of the Grave", "FORGE demo"
CAMPAIGNS = ["Children of the Grave", "Fate demo", "FORGE demo", "HeroQuest demo"]


@dataclass
class Evening:
    saves: Path
    folder: Path
    socket: str = field(default_factory=unique_socket)
    terminals: list[Terminal] = field(default_factory=list)
    gm: Pane | None = None
    players: Pane | None = None
    played: list[str] = field(default_factory=list)  # the parts of the evening done
    second: Pane | None = None  # the second evening's dashboard (issue 24)
    second_status: Path | None = None  # where its exit code is written

    def after(self, part: str) -> None:
        """A part of the evening starts where ``part`` left it: it must have been played."""
        if part not in self.played:
            raise AssertionError(
                f"this part of the evening follows {part!r}, which did not finish: it ran "
                "alone, or it failed (see above). Run the whole module."
            )

    def env(self) -> dict[str, str]:
        return {"TUSSLE_SAVES": str(self.saves)}

    def terminal(self, size: tuple[int, int], socket: str | None = None) -> Terminal:
        terminal = Terminal(size, socket)
        self.terminals.append(terminal)
        return terminal

    def tussle(self, *args: str) -> subprocess.CompletedProcess[str]:
        """A ``tussle`` command outside the dashboard, on the evening's saves."""
        return subprocess.run(
            [str(tussle_script()), "--saves", str(self.saves), *args],
            capture_output=True,
            text=True,
            timeout=60,
            env=clean_env(),
            stdin=subprocess.DEVNULL,
        )

    def players_socket(self) -> Path:
        """The players' tmux server share starts (its own, beside the GM's)."""
        from tui.share import players_socket

        return players_socket(self.socket)

    def the_gm(self) -> Pane:
        assert self.gm is not None
        return self.gm

    def the_players(self) -> Pane:
        assert self.players is not None
        return self.players


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evening]:
    folder = tmp_path_factory.mktemp("game-night")
    night = Evening(saves=folder / "saves", folder=folder)
    try:
        yield night
    finally:
        for terminal in night.terminals:
            terminal.kill()
        Terminal(socket=night.socket).kill()  # the share's servers, whoever started them
        subprocess.run([TMUX or "tmux", "-S", str(night.players_socket()), "kill-server"])
        night.players_socket().unlink(missing_ok=True)


def keypad(screen: str) -> str:
    """The roll keypad's box, from its title line to its bottom border ("" if none shows)."""
    lines = screen.split("\n")
    tops = [
        i for i, line in enumerate(lines) if line.startswith(("╭─ Roll keypad", "╭─ Correcting"))
    ]
    if not tops:
        return ""
    bottom = next((i for i in range(tops[0] + 1, len(lines)) if lines[i].startswith("╰")), None)
    return "\n".join(lines[tops[0] : None if bottom is None else bottom + 1])


def on_the_keypad(gm: Pane, *texts: str) -> str:
    return gm.wait_until(
        lambda s: all(t in keypad(s) for t in texts), f"the keypad showing {texts!r}"
    )


def on_the_roster(gm: Pane, campaign: str, *rows: str) -> str:
    """The roster of ``campaign`` once its rows match each of the regexes ``rows``. The
    title and the table's header paint before the rows (their heights are worked out when
    the app is next idle): CI caught frames with the header alone, three times."""
    return gm.wait_until(
        lambda s: f"Roster · {campaign}" in s and all(re.search(r, s) for r in rows),
        f"the roster of {campaign} with rows {rows!r}",
    )


def open_campaign(gm: Pane, name: str, title: str) -> str:
    """``c``, the campaign ``name`` highlighted with the arrows, Enter: its contest."""
    gm.keys("c")
    gm.wait_for("Campaigns · Enter opens")
    gm.pick(CAMPAIGNS, name)
    gm.keys("Enter")
    return gm.wait_for(f"{title} · {name}")


# -- the table --------------------------------------------------------------------------------


def test_the_gm_shares_the_table_and_a_player_attaches_read_only(evening: Evening) -> None:
    # The first tussle on an empty saves folder makes the three demo campaigns.
    first, status = evening.terminal((80, 24)), evening.folder / "first-status"
    first.start([str(tussle_script())], evening.env(), status)
    Pane(first).wait_for("Roll keypad", "The race across the mud · Fate demo")
    first.keys("q")
    assert wait_for_file(status) == "0"

    # The table: the GM's dashboard and the players' view on two tmux servers, on a socket
    # of the test's own (never a real table's "tussle").
    shared = evening.tussle("share", "--socket", evening.socket, FATE)
    assert shared.returncode == 0, shared.stderr
    assert f"tmux -S {evening.players_socket()} attach -r" in shared.stdout
    evening.gm = Pane(Terminal((160, 48), evening.socket), "gm")
    evening.gm.wait_for("Roll keypad", "The race across the mud · Fate demo")

    # A player's own terminal, attached read-only to the players' server (120x41: the
    # players' window takes its size).
    client = evening.terminal((120, 41))
    client.start(
        ["env", "-u", "TMUX", TMUX or "tmux", "-S", str(evening.players_socket()), "attach",
         "-r"],
        {},
    )  # fmt: skip
    evening.players = Pane(client)
    evening.players.wait_for("following", "Cynere", "Teran the Swift")
    # Read-only: a key the player presses never reaches the view (q would quit it; the
    # players' view goes on showing the GM's exchanges below).
    client.keys("q")
    evening.played.append("table")


# -- Fate: the race across the mud ----------------------------------------------------------
#
# The demo: Cynere, Athletics Great (+4), 3 fate points, aspect I've Got Zird's Back;
# Teran the Swift (an NPC), Lore Good (+3), no fate points; the situation aspect Muddy
# Ground; direct mode, first to 3 victories. The GM's pool starts the scene with one fate
# point per PC in it: 1 (Cynere).


def test_fate_an_npc_invoke_from_the_gms_pool_a_tie_undo_redo(evening: Evening) -> None:
    evening.after("table")
    gm, players = evening.the_gm(), evening.the_players()
    gm.wait_for("GM pool: 1 fate point")

    # Exchange 1. Cynere 0000: +4 + 0 = +4 Great. Teran +000: +3 + 1 = +4, a tie so far;
    # Teran invokes Muddy Ground for +2, paid from the GM's pool (he has no fate points):
    # +6 Fantastic. 6 − 4 = 2 shifts: Teran succeeds, 1 victory (not style: < 3). 0–1.
    # The pool goes 1 → 0. Muddy Ground belongs to nobody: nobody is paid.
    gm.keys("0", "0", "0", "0", "+", "0", "0", "0")
    on_the_keypad(gm, "[0][0][0][0]", "[+][0][0][0]")
    gm.keys("i")
    form = "Invoke an aspect"
    gm.choose(form, "Who invokes", "Teran the Swift")
    gm.choose(form, "Aspect", "Muddy Ground")
    gm.choose(form, "What it does", "+2 to the roll")
    gm.choose(form, "Paid with", "the GM's pool")
    gm.accept(form)
    gm.keys("Enter")
    shown = gm.wait_for("Exchange 1: Teran the Swift wins, 1 victory (0–1)")
    assert "Teran the Swift: +000 → Fantastic (+6)" in shown
    assert "Cynere: 0000 → Great (+4)" in shown
    assert "invokes Muddy Ground" in shown
    gm.wait_for("GM pool: 0")
    # The players' view, in another tmux client, shows what the GM committed.
    players.wait_for("Exchange 1: Teran the Swift wins")

    # Exchange 2, a tie. Cynere -000: +4 − 1 = +3; Teran 0000: +3. Equal: nobody scores,
    # and a twist enters play as a new situation aspect (no free invoke). Still 0–1.
    gm.keys("-", "0", "0", "0", "0", "0", "0", "0")
    on_the_keypad(gm, "[-][0][0][0]", "[0][0][0][0]")
    gm.keys("Enter")
    twist = "A tie: name the twist"
    gm.fill(twist, "The new situation aspect", "Magical Distortions")
    gm.accept(twist)
    gm.wait_for("Exchange 2: tie, twist: Magical Distortions (0–1)")
    players.wait_for("Magical Distortions")

    # Exchange 3. Cynere ++00: +4 + 2 = +6 Fantastic; Teran -000: +3 − 1 = +2 Fair.
    # 4 shifts ≥ 3: with style, 2 victories. 2–1.
    gm.keys("+", "+", "0", "0", "-", "0", "0", "0")
    on_the_keypad(gm, "[+][+][0][0]", "[-][0][0][0]")
    gm.keys("Enter")
    gm.wait_for("Exchange 3: Cynere wins with style, 2 victories (2–1)")
    players.wait_for("Exchange 3: Cynere wins with style")

    # u takes exchange 3 back: out of the log, its dice back on the keypad, 0–1 again.
    gm.keys("u")
    shown = gm.wait_gone("Exchange 3: Cynere wins")
    on_the_keypad(gm, "[+][+][0][0]", "[-][0][0][0]")
    assert "Exchange 2: tie" in shown
    players.wait_gone("Exchange 3: Cynere wins")
    # U puts it back exactly: in the log again, so no longer on the keypad.
    gm.keys("U")
    gm.wait_for("Exchange 3: Cynere wins with style, 2 victories (2–1)")
    players.wait_for("Exchange 3: Cynere wins with style")
    on_the_keypad(gm, "Cynere           [ ][ ][ ][ ]", "Teran the Swift  [ ][ ][ ][ ]")
    # Enter on the empty keypad records nothing: no second exchange 3 as exchange 4.
    gm.keys("Enter")

    # Exchange 4. Cynere +000: +5 Superb; Teran 0000: +3 Good. 2 shifts: 1 victory.
    # 3–1: Cynere reaches 3 victories and wins the contest.
    gm.keys("+", "0", "0", "0", "0", "0", "0", "0")
    on_the_keypad(gm, "[+][0][0][0]", "[0][0][0][0]")
    gm.keys("Enter")
    shown = gm.wait_for("Exchange 4: Cynere wins, 1 victory (3–1)")
    assert "Cynere: +000 → Superb (+5)" in shown
    assert "Exchange 5" not in shown
    on_the_keypad(gm, "The contest is over", "Cynere won")
    # The points: Cynere paid nothing (3 fate points still), Teran had none and has none
    # (his invoke came from the pool, which is empty now), and Muddy Ground, a situation
    # aspect, has no owner to be paid.
    gm.wait_for("Cynere  FP 3", "Teran the Swift  FP 0", "GM pool: 0")
    players.wait_for("Exchange 4: Cynere wins")
    evening.played.append("fate")


# -- HeroQuest: a chained contest from a fresh roster ---------------------------------------


def test_heroquest_chained_contest_from_a_fresh_roster(evening: Evening) -> None:
    evening.after("fate")
    gm = evening.the_gm()
    gm.keys("c")
    gm.wait_for("Campaigns · Enter opens")
    gm.keys("n")
    form = "A new campaign"
    gm.fill(form, "Name", HEROQUEST)
    gm.choose(form, "Rule system", "HeroQuest")
    gm.accept(form)
    gm.wait_for(f"Roster · {HEROQUEST}")

    # The roster, by keys: a PC with two abilities and 3 hero points, an NPC with one.
    form = "A new character"
    gm.keys("a")
    gm.fill(form, "Name", "Tripitaka")
    gm.choose(form, "Kind", "PC")
    gm.fill(form, "Abilities", "Sword and Shield 15, Ghost Lore 13")
    gm.fill(form, "Hero points", "3")
    gm.accept(form)
    gm.wait_for("Tripitaka", "Sword and Shield 15, Ghost Lore 13")
    gm.keys("a")
    gm.fill(form, "Name", "Ghoul")
    gm.choose(form, "Kind", "NPC")
    gm.fill(form, "Abilities", "Claws 14")
    gm.accept(form)
    gm.wait_for("Ghoul", "Claws 14")

    # The contest: each participant rolls an ability of their own.
    gm.keys("n")
    gm.wait_for("A new contest")
    form = "Add a participant"
    gm.keys("a")
    gm.choose(form, "Character", "Tripitaka")
    offered = gm.options(form, "Rolls")
    assert {"Sword and Shield 15", "Ghost Lore 13"} <= set(offered), offered
    assert not [o for o in offered if "Claws" in o], offered  # the Ghoul's, not his
    gm.choose(form, "Rolls", "Sword and Shield 15")
    gm.accept(form)
    gm.keys("a")
    gm.choose(form, "Character", "Ghoul")
    gm.choose(form, "Rolls", "Claws 14")
    gm.accept(form)
    gm.wait_for("Sword and Shield", "Claws")
    gm.keys("o")
    gm.choose("Rule options", "Kind", "chained")
    gm.accept("Rule options")
    gm.keys("g")
    gm.fill("Start the contest", "Title", "Ghouls in the graveyard")
    gm.accept("Start the contest")
    gm.wait_for(f"Ghouls in the graveyard · {HEROQUEST}")
    on_the_keypad(gm, "Tripitaka        [  ]  vs 15", "Ghoul            [  ]  vs 14")

    # Exchange 1. The augment: Ghost Lore 13, from Tripitaka's roster, against the augment
    # base 14: 5 ≤ 13 success, 9 ≤ 14 success, equal levels and the lower roll (5) wins: a
    # marginal victory, +3 (rules §2.5). Sword and Shield 15 + 3 = 18.
    gm.keys("g")
    form = "An augment"
    gm.choose(form, "Whose roll it helps", "Tripitaka")
    gm.choose(form, "Whose ability augments it", "Tripitaka")
    offered = gm.options(form, "The augmenting ability")  # from the roster, with ratings
    assert {"Sword and Shield 15", "Ghost Lore 13"} <= set(offered), offered
    gm.choose(form, "The augmenting ability", "Ghost Lore 13")
    gm.fill(form, "Its d20", "5")
    gm.fill(form, "The base's d20", "9")
    gm.accept(form)
    on_the_keypad(gm, "vs 18", "13 rolls 5")
    # Tripitaka 17 ≤ 18: success (a failure without the augment); Ghoul 3 ≤ 14: success.
    # Equal levels: the low roll, the Ghoul's 3, would win a marginal victory.
    gm.keys("1", "7", "3")
    on_the_keypad(gm, "[17]", "[ 3]", "Ghoul would win: marginal")
    # A hero point bumps Tripitaka's success to a critical: critical vs success is a
    # minor victory for Tripitaka, 2 resolution points (§2.7). Hero points 3 → 2.
    gm.keys("h")
    gm.choose("Spend a hero point", "Who spends it", "Tripitaka")
    gm.accept("Spend a hero point")
    on_the_keypad(gm, "Tripitaka would win: minor (2 RP)")
    gm.keys("Enter")
    shown = gm.wait_for("Exchange 1: Tripitaka wins, minor (2 RP)")
    assert "Tripitaka  HP 2" in shown

    # Exchange 2. Tripitaka 2: success (≤ 15, whatever the augment); Ghoul 15 > 14: failure.
    # Success vs failure: Tripitaka, minor, 2 more RP (4–0). Then the Ghoul leaves the
    # chain: it ends, Tripitaka ahead 4 to 0.
    gm.keys("2")
    on_the_keypad(gm, "[ 2]")
    gm.keys("Tab")
    gm.keys("1", "5")
    on_the_keypad(gm, "[ 2]", "[15]", "Tripitaka would win: minor (2 RP)")
    gm.keys("l")
    gm.choose("Leave the chain", "Who leaves", "Ghoul")
    gm.accept("Leave the chain")
    gm.keys("Enter")
    gm.wait_for("Exchange 2: Tripitaka wins, minor (2 RP)")
    on_the_keypad(gm, "Tripitaka won, 4 resolution points to 0")

    # On the roster (written back at the end): 2 hero points; each minor victory left a +3
    # lingering benefit to Sword and Shield (they add: +6), each minor defeat impaired the
    # Ghoul, on the Claws it fought with (§2.6).
    gm.keys("w")
    on_the_roster(
        gm,
        HEROQUEST,
        r"Tripitaka +PC +HP 2 · Sword and Shield \+6",
        r"Ghoul +NPC +HP 0 · Claws impaired×2",
    )
    gm.keys("Escape")
    gm.wait_for("Exchange log")
    evening.played.append("heroquest")


# -- FORGE: a back-alley brawl, and a correction --------------------------------------------
#
# The demo: Josef, Brawling 50, damage ×4; Bobby (NPC), Brawling 40, ×5, armor DV 10 with a
# capacity of 100; combat (the actor throws damage: tens digit × multiplier, §3.4); the
# reactor dodges; ties go to the reactor; roles swap each stage.


def test_forge_combat_and_a_correction(evening: Evening) -> None:
    evening.after("heroquest")
    gm = evening.the_gm()
    open_campaign(gm, FORGE, "Back-alley brawl")

    # Stage 1: Josef acts, 35 ≤ 50 hits: 3 × 4 = 12 damage. Bobby dodges 30 ≤ 40, and
    # 30 > 12: Bobby wins the stage (0–1).
    gm.keys("3", "5", "3", "0")
    on_the_keypad(gm, "[ 35]", "[ 30]")
    gm.keys("Enter")
    gm.wait_for("Stage 1: Bobby wins the stage (0–1)")
    # Stage 2: Bobby acts, 39 ≤ 40 hits: 3 × 5 = 15. Josef's dodge 51 > 50 fails: Bobby
    # wins (0–2); Josef has no armor, 15 trauma.
    gm.keys("3", "9", "5", "1")
    on_the_keypad(gm, "[ 39]", "[ 51]")
    gm.keys("Enter")
    gm.wait_for("Stage 2: Bobby wins the stage (0–2)", "Josef takes 15: 0 absorbed, 15 trauma")

    # The correction: Bobby's dodge in stage 1 was 08, not 30. 8 ≤ 40 but 8 < 12: Josef
    # wins stage 1, and his 12 damage lands: the armor takes min(DV 10, 12, capacity 100)
    # = 10, 2 go to trauma, capacity 100 → 90. Stage 2 is played again with its dice:
    # Bobby still wins it, now 1–1.
    gm.keys("C")
    gm.fill("Correct an exchange", "Which exchange", "1")
    gm.accept("Correct an exchange")
    on_the_keypad(gm, "Correcting exchange 1", "[ 35]", "[ 30]")
    gm.keys("Tab")
    on_the_keypad(gm, "▶ Bobby")
    gm.keys("BSpace", "BSpace")
    on_the_keypad(gm, "Bobby            [   ]")
    gm.keys("8")
    on_the_keypad(gm, "[  8]", "Josef would win the stage, 12 damage")
    gm.keys("Enter")
    shown = gm.dialog("Correct exchange 1?").text()
    assert "now   Stage 1: Josef wins the stage (1–0)" in shown
    assert "now   Stage 2: Bobby wins the stage (1–1)" in shown
    gm.accept("Correct exchange 1?")
    shown = gm.wait_for("Stage 1: Josef wins the stage (1–0)", "Exchange 1 corrected")
    assert "Bobby takes 12: 10 absorbed, 2 trauma" in shown
    assert "Stage 2: Bobby wins the stage (1–1)" in shown

    # Stage 3: Josef acts, 22 ≤ 50: 2 × 4 = 8. Bobby's dodge 41 > 40 fails: Josef wins
    # (2–1); the armor takes all 8 (≤ DV 10, ≤ 90 left): 0 trauma, capacity 82.
    gm.keys("2", "2", "4", "1")
    on_the_keypad(gm, "[ 22]", "[ 41]")
    gm.keys("Enter")
    gm.wait_for("Stage 3: Josef wins the stage (2–1)", "Bobby takes 8: 8 absorbed, 0 trauma")
    evening.played.append("forge")


def test_quit_with_dice_typed_asks_and_keeps_them(evening: Evening) -> None:
    evening.after("forge")
    gm = evening.the_gm()
    gm.keys("4", "5")  # Bobby's roll for stage 4, typed, not committed
    on_the_keypad(gm, "[ 45]")
    gm.keys("q")
    gm.wait_for("Bobby rolled 45")  # what quitting would lose, asked first
    gm.keys("n")
    shown = gm.wait_gone("Bobby rolled 45")
    assert "[ 45]" in keypad(shown)  # kept
    assert gm.alive()
    # Asked again, the GM quits after all.
    gm.keys("q")
    gm.wait_for("Bobby rolled 45")
    gm.keys("Enter")
    gm.wait_until(lambda _: not gm.alive(), "the GM's tussle to quit")
    evening.played.append("quit")


def test_a_restart_on_the_same_saves_shows_the_evening(evening: Evening) -> None:
    evening.after("quit")
    again, status = evening.terminal((80, 24)), evening.folder / "restart-status"
    again.start([str(tussle_script())], evening.env(), status)
    gm = Pane(again)
    # The last campaign played opens, as it was left: 2–1 after the corrected stage 1.
    gm.wait_for("Back-alley brawl · FORGE demo", "Stage 3: Josef wins the stage (2–1)")
    gm.wait_for("Josef  2 stages")
    # e ends it: Josef has the most stage wins.
    gm.keys("e")
    on_the_keypad(gm, "Josef won, 2 stages to 1")
    # Its results on the roster: the trauma each took, the armor's capacity left.
    gm.keys("w")
    on_the_roster(
        gm, "FORGE demo", r"Josef .*trauma 15", r"Bobby .*armor 10 \(82 left\) · trauma 2"
    )
    gm.keys("Escape")
    gm.wait_for("Exchange log")

    shown = open_campaign(gm, FATE, "The race across the mud")
    assert "Cynere won" in keypad(shown)
    shown = open_campaign(gm, HEROQUEST, "Ghouls in the graveyard")
    assert "Tripitaka won, 4 resolution points to 0" in keypad(shown)
    gm.keys("q")
    assert wait_for_file(status) == "0"
    evening.played.append("restart")


# -- after the evening ----------------------------------------------------------------------


def test_every_campaign_checks_out(evening: Evening) -> None:
    evening.after("restart")
    for name in CAMPAIGNS:
        checked = evening.tussle("check", name)
        assert checked.returncode == 0, (name, checked.stdout, checked.stderr)
        assert checked.stdout.startswith(f'OK "{name}"'), checked.stdout
    evening.played.append("check")


def headings(recap: str) -> list[str]:
    return [line.removeprefix("### ") for line in recap.splitlines() if line.startswith("### ")]


def test_the_recaps_list_exactly_the_exchanges_played(evening: Evening) -> None:
    evening.after("restart")

    def recap(name: str) -> str:
        done = evening.tussle("export", name, "--format", "markdown")
        assert done.returncode == 0, done.stderr
        return done.stdout

    fate = recap(FATE)
    assert headings(fate) == [
        "Exchange 1: Teran the Swift wins, 1 victory (0–1)",
        "Exchange 2: tie, twist: Magical Distortions (0–1)",
        "Exchange 3: Cynere wins with style, 2 victories (2–1)",
        "Exchange 4: Cynere wins, 1 victory (3–1)",
    ]
    assert "Teran the Swift: +000 → Fantastic (+6)" in fate  # with the pool's invoke
    assert re.search(r"Aspects created:\*\* Magical Distortions", fate), fate
    assert re.search(r"Teran the Swift \(fate points from the GM's pool\) 1", fate), fate
    assert "Cynere won, 3 victories to 1" in fate
    hq = recap(HEROQUEST)
    assert headings(hq) == [
        "Exchange 1: Tripitaka wins, minor (2 RP)",
        "Exchange 2: Tripitaka wins, minor (2 RP)",
    ]
    assert "Tripitaka augmented +3" in hq
    assert "Tripitaka (hero points) 1" in hq
    forge = recap(FORGE)
    assert headings(forge) == [
        "Stage 1: Josef wins the stage (1–0)",
        "Stage 2: Bobby wins the stage (1–1)",
        "Stage 3: Josef wins the stage (2–1)",
    ]
    assert "Bobby dodges vs 40: 8" in forge  # the corrected die, not the one typed first
    assert "Bobby dodges vs 40: 30" not in forge
    assert "Josef won, 2 stages to 1" in forge
    assert headings(recap("HeroQuest demo")) == []  # not played tonight
    evening.played.append("recap")


# -- the second evening (issue 24): no dead ends, a FORGE goon dies, an extended contest --------
#
# Each part below follows the one before it, after all of the first evening's: a failure of
# one of them never makes a part above fail.

ALLEY = "Night alley"
SETUP = "A new contest: who takes part"
CAMPAIGNS_SCREEN = "Campaigns · Enter opens"

ALLEY_ROSTER = """\
system = "forge"

[[characters]]
name = "Mara"
multiplier = 4
targets = { Knife = 60 }

[[characters]]
name = "Goon"
kind = "npc"
multiplier = 3
trauma_pool = 10
targets = { Brawling = 40 }
"""

BARROW_ROSTER = """\
system = "heroquest"

[[characters]]
name = "Kai"
abilities = { Spear = 15 }

[[characters]]
name = "Ghast"
kind = "npc"
abilities = { Claws = 15 }
"""


def test_campaigns_from_an_import_and_from_the_campaign_screen_are_no_dead_ends(
    evening: Evening,
) -> None:
    evening.after("recap")
    # A new FORGE campaign, made by the CLI (tussle open NAME --system forge, quit at once),
    # then filled by tussle roster import: no contest in it yet.
    made, status = evening.terminal((80, 24)), evening.folder / "made-status"
    made.start([str(tussle_script()), "open", ALLEY, "--system", "forge"], evening.env(), status)
    Pane(made).wait_for(ALLEY)
    made.keys("q")
    assert wait_for_file(status) == "0"
    roster = evening.folder / "alley.toml"
    roster.write_text(ALLEY_ROSTER, encoding="utf-8")
    imported = evening.tussle("roster", "import", ALLEY, str(roster))
    assert imported.returncode == 0, imported.stderr

    night, status = evening.terminal((160, 48)), evening.folder / "second-status"
    night.start([str(tussle_script()), "open", ALLEY], evening.env(), status)
    gm = evening.second = Pane(night)
    evening.second_status = status
    gm.wait_for(SETUP)  # no contest yet: the setup of one
    gm.keys("Escape")  # back one step: the campaigns
    gm.wait_for(CAMPAIGNS_SCREEN)
    gm.keys("Escape")  # and back to the campaign open
    gm.wait_for(SETUP)
    gm.keys("w")  # the roster, with what the import brought
    gm.wait_for(f"Roster · {ALLEY}", "Mara", "Goon")
    gm.keys("n")  # a setup
    gm.wait_for(SETUP)
    gm.keys("c")  # the campaigns
    shown = gm.wait_for(CAMPAIGNS_SCREEN)
    assert ALLEY in shown

    # One made on the campaign screen, as the GM did: c n "friday fate" Enter, an
    # empty roster. Esc goes back to the campaigns, Esc again to it; n a setup, w the
    # roster, c the campaigns.
    gm.keys("n")
    gm.wait_for("A new campaign")
    gm.type("friday fate")
    gm.keys("Enter")
    gm.wait_for("Roster · friday fate")
    gm.keys("Escape")
    gm.wait_for(CAMPAIGNS_SCREEN)
    gm.keys("Escape")
    gm.wait_for("Roster · friday fate")
    gm.keys("n")
    gm.wait_for(SETUP)
    gm.keys("w")
    gm.wait_for("Roster · friday fate")
    gm.keys("c")
    shown = gm.wait_for(CAMPAIGNS_SCREEN)
    assert "friday fate" in shown and ALLEY in shown
    evening.played.append("no dead ends")


def the_second(evening: Evening) -> Pane:
    assert evening.second is not None
    return evening.second


# The import's FORGE roster: Mara, Knife 60, damage ×4; the Goon (NPC), Brawling 40, ×3, no
# armor, a Trauma pool (Maximum Trauma) of 10 and none taken: Current Trauma 10.


def test_forge_a_goon_with_a_small_trauma_pool_dies(evening: Evening) -> None:
    evening.after("no dead ends")
    gm = the_second(evening)
    gm.pick([*CAMPAIGNS, ALLEY, "friday fate"], ALLEY)
    gm.keys("Enter")
    gm.wait_for(SETUP)
    form = "Add a participant"
    gm.keys("a")
    gm.choose(form, "Character", "Mara")
    gm.choose(form, "Rolls", "Knife")
    gm.accept(form)
    gm.keys("a")
    gm.choose(form, "Character", "Goon")
    gm.choose(form, "Rolls", "Brawling")
    gm.accept(form)
    gm.keys("o")
    gm.choose("Rule options", "Combat (damage thrown, dodge or absorb)", "yes")
    gm.accept("Rule options")
    gm.keys("g")
    gm.fill("Start the contest", "Title", "The goon in the alley")
    gm.accept("Start the contest")
    gm.wait_for(f"The goon in the alley · {ALLEY}", "current trauma 10")

    # Stage 1: Mara acts, 35 ≤ 60 hits: 3 × 4 = 12 damage (§3.4). The Goon's dodge 55 > 40
    # fails: Mara wins the stage (1–0). No armor: all 12 are trauma, Current Trauma
    # 10 − 12 = −2 ≤ 0: the Goon is dying, out of the contest, no actions ([I15]).
    gm.keys("3", "5", "5", "5")
    on_the_keypad(gm, "[ 35]", "[ 55]")
    gm.keys("Enter")
    shown = gm.wait_for(
        "Stage 1: Mara wins the stage (1–0)", "Goon takes 12: 0 absorbed, 12 trauma"
    )
    assert "Goon is dying (current trauma -2)" in shown
    gm.wait_for("current trauma -2", "dying: out of the contest, no actions")
    # The next stage: the Goon, dying, takes no actions: the keypad offers him no die
    # (his row says why), so a dodge typed after Mara's 20 is no die of his, and
    # nothing is recorded before Enter.
    gm.keys("2", "0", "5", "0")
    shown = on_the_keypad(gm, "Mara             [ 20]", "dying: no actions, no roll")
    assert "[ 50]" not in shown and "Stage 2:" not in gm.screen()
    # Esc takes the dice off; e ends the combat: Mara won the only stage played.
    gm.keys("Escape")
    on_the_keypad(gm, "Mara             [   ]", "dying: no actions, no roll")
    gm.keys("e")
    # (Only "1 stage" is asserted: the keypad says "1 stages", a plural left for its owner.)
    on_the_keypad(gm, "The contest is over", "Mara won, 1 stage")
    evening.played.append("forge dying")


# The imported HeroQuest pair, on Children of the Grave: Kai (PC), Spear 15; the Ghast
# (NPC), Claws 15; neither hurt nor helped. An extended contest (rules §2.8, HQ2): each
# exchange a simple contest whose winner lodges resolution points (the §2.7 table:
# marginal 1, minor 2, major 3, complete 5); first to 5 wins.


def test_heroquest_an_extended_contest_and_its_recaps_consequences(evening: Evening) -> None:
    evening.after("forge dying")
    gm = the_second(evening)
    gm.keys("q")
    assert evening.second_status is not None
    assert wait_for_file(evening.second_status) == "0"
    roster = evening.folder / "barrow.toml"
    roster.write_text(BARROW_ROSTER, encoding="utf-8")
    imported = evening.tussle("roster", "import", HEROQUEST, str(roster))
    assert imported.returncode == 0, imported.stderr

    night, status = evening.terminal((160, 48)), evening.folder / "third-status"
    night.start([str(tussle_script()), "open", HEROQUEST], evening.env(), status)
    gm = Pane(night)
    gm.wait_for(f"Ghouls in the graveyard · {HEROQUEST}")
    gm.keys("n")
    gm.wait_for(SETUP)
    form = "Add a participant"
    gm.keys("a")
    gm.choose(form, "Character", "Kai")
    gm.choose(form, "Rolls", "Spear 15")
    gm.accept(form)
    gm.keys("a")
    gm.choose(form, "Character", "Ghast")
    gm.choose(form, "Rolls", "Claws 15")
    gm.accept(form)
    gm.keys("o")
    gm.choose("Rule options", "Kind", "extended")
    gm.accept("Rule options")
    gm.keys("g")
    gm.fill("Start the contest", "Title", "The barrow road")
    gm.accept("Start the contest")
    gm.wait_for(f"The barrow road · {HEROQUEST}")
    on_the_keypad(gm, "Kai              [  ]  vs 15", "Ghast            [  ]  vs 15")

    # Exchange 1: Kai 10 ≤ 15 and the Ghast 12 ≤ 15, both successes: equal levels, the
    # lower roll (Kai's 10) wins, marginal: 1 RP (1–0).
    gm.keys("1", "0", "1", "2")
    on_the_keypad(gm, "[10]", "[12]")
    gm.keys("Enter")
    gm.wait_for("Exchange 1: Kai wins, marginal (1 RP)")
    # Exchange 2: Kai 1, a critical; the Ghast 18 > 15, a failure: two levels apart, a
    # major victory, 3 RP (4–0).
    gm.keys("1", "Tab", "1", "8")
    on_the_keypad(gm, "[ 1]", "[18]")
    gm.keys("Enter")
    gm.wait_for("Exchange 2: Kai wins, major (3 RP)")
    # Exchange 3: Kai 11, a success; the Ghast 16, a failure: one level, minor, 2 RP: 6–0,
    # Kai has reached 5 and wins the contest.
    gm.keys("1", "1", "1", "6")
    on_the_keypad(gm, "[11]", "[16]")
    gm.keys("Enter")
    shown = gm.wait_for("Exchange 3: Kai wins, minor (2 RP)")
    on_the_keypad(gm, "Kai won, 6 resolution points to 0")
    # The final consequences, by the difference of the final scores (§2.8.6, rising-action
    # table): 6 − 0 = 6, the Ghast injured; the winner is hurt only at a difference of 1.
    # The exchanges themselves leave none (no simple contest's hurt, impaired or benefit).
    log = shown[shown.index("Exchange 1: Kai wins") :]
    assert not re.search(r"hurt|impaired|benefit", log), log

    # M writes the session's recap beside the saves.
    recaps = evening.saves / "recaps"
    gm.keys("M")

    def written() -> str:
        texts = [p.read_text(encoding="utf-8") for p in sorted(recaps.glob("*.md"))]
        return next((t for t in texts if "The barrow road" in t and "Consequences" in t), "")

    deadline = time.monotonic() + 30
    while not written() and time.monotonic() < deadline:
        time.sleep(0.2)
    recap = written()
    assert recap, sorted(recaps.glob("*"))
    barrow = recap[recap.index("The barrow road") :]
    assert headings(barrow) == [
        "Exchange 1: Kai wins, marginal (1 RP)",
        "Exchange 2: Kai wins, major (3 RP)",
        "Exchange 3: Kai wins, minor (2 RP)",
    ]
    assert "Kai won, 6 resolution points to 0" in barrow
    assert "**Consequences:** Ghast injured" in barrow, barrow
    assert not re.search(r"hurt|impaired|benefit", barrow), barrow
    gm.keys("q")
    assert wait_for_file(status) == "0"
    evening.played.append("extended")


# A group extended contest on Children of the Grave (issue 29 item 1): Kai (Spear 15, and
# the +6 lingering benefit of his major victory on the barrow road, §2.6: 21, written 1M:
# one mastery more than the Wight, so one bump, §2.3 step 4) and Tripitaka (Ghost Lore 13;
# his benefits are on Sword and Shield, not this) against a new NPC, the Wight (Claws 15).
# HQ2's Group Extended Contests: each engagement has one
# exchange a round, in the order engaged; a character is out at 5 points from one
# opponent; -3 for each further exchange of the round against an opponent still engaging
# you; the contest ends when a side has nobody standing.


def test_heroquest_a_group_extended_contest_by_keys(evening: Evening) -> None:
    evening.after("extended")
    night, status = evening.terminal((160, 48)), evening.folder / "fourth-status"
    night.start([str(tussle_script()), "open", HEROQUEST], evening.env(), status)
    gm = Pane(night)
    gm.wait_for(f"The barrow road · {HEROQUEST}")
    gm.keys("w")
    gm.wait_for(f"Roster · {HEROQUEST}")
    form = "A new character"
    gm.keys("a")
    gm.fill(form, "Name", "Wight")
    gm.choose(form, "Kind", "NPC")
    gm.fill(form, "Abilities", "Claws 15")
    gm.accept(form)
    gm.wait_for("Wight", "Claws 15")
    gm.keys("n")
    gm.wait_for(SETUP)
    form = "Add a participant"
    for who, rolls, side in (
        ("Kai", "Spear 15", "Heroes"),
        ("Tripitaka", "Ghost Lore 13", "Heroes"),
        ("Wight", "Claws 15", ""),
    ):
        gm.keys("a")
        gm.choose(form, "Character", who)
        gm.choose(form, "Rolls", rolls)
        if side:
            gm.fill(form, "Side", side)
        gm.accept(form)
    gm.keys("o")
    gm.choose("Rule options", "Kind", "group extended: pairings, round by round (HQ2)")
    gm.accept("Rule options")
    gm.keys("g")
    gm.fill("Start the contest", "Title", "The wight's tomb")
    gm.accept("Start the contest")
    gm.wait_for(f"The wight's tomb · {HEROQUEST}")
    on_the_keypad(gm, "Nobody engaged to play: E engages a pairing")

    # Kai engages the Wight, then Tripitaka does: the round's order.
    gm.keys("E")
    form = "Group extended contest: between exchanges"
    gm.choose(form, "What", "engage: a new pairing, last in the round")
    gm.choose(form, "The first", "Kai")
    gm.choose(form, "The second", "Wight")
    gm.accept(form)
    gm.keys("E")
    gm.choose(form, "The first", "Tripitaka")
    gm.choose(form, "The second", "Wight")
    gm.accept(form)
    on_the_keypad(gm, "Round 1: Kai v Wight · then: Tripitaka v Wight")

    # Round 1, Kai v Wight: Kai 1, a critical (his bump, with nothing left to raise, takes
    # the Wight down); the Wight 10 ≤ 15, a success, bumped to a failure: two levels,
    # major, 3 points against the Wight.
    on_the_keypad(gm, "Kai              [  ]  vs 1M", "Wight            [  ]  vs 15")
    gm.keys("1", "Tab", "1", "0")
    on_the_keypad(gm, "Kai would win: major (3 RP) · then: Tripitaka v Wight")
    gm.keys("Enter")
    gm.wait_for("Exchange 1, round 1: Kai v Wight: Kai wins, major (3 RP)")
    # Tripitaka v Wight: the Wight's second exchange of the round, Kai still engaging it:
    # 15 - 3 = 12. Tripitaka 5 ≤ 13, a success; the Wight 13 > 12, a failure: minor, 2
    # more against it, from another opponent: 3 and 2, nobody out.
    on_the_keypad(gm, "Tripitaka        [  ]  vs 13", "Wight            [  ]  vs 12")
    gm.keys("5", "Tab", "1", "3")
    on_the_keypad(gm, "Tripitaka would win: minor (2 RP)")
    gm.keys("Enter")
    gm.wait_for("Exchange 2, round 1: Tripitaka v Wight: Tripitaka wins, minor (2 RP)")
    # Round 2, Kai v Wight again (the Wight's first exchange of the round: 15): Kai 8
    # against his base 1, a failure, bumped to a success; the Wight 16 > 15, a failure:
    # minor, 2: 5 against it from Kai, out; nobody stands for the Wight: the Heroes win.
    on_the_keypad(gm, "Round 2: Kai v Wight · then: Tripitaka v Wight")
    gm.keys("8", "Tab", "1", "6")
    on_the_keypad(gm, "Kai would win: minor (2 RP)")
    gm.keys("Enter")
    shown = gm.wait_for("Exchange 3, round 2: Kai v Wight: Kai wins, minor (2 RP)")
    assert "Wight is out of the contest" in shown
    on_the_keypad(gm, "Heroes won")
    gm.keys("q")
    assert wait_for_file(status) == "0"
    checked = evening.tussle("check", HEROQUEST)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    evening.played.append("group extended")


# -- a FORGE combat round by beats (issue 29 item 2), at 80x24 ------------------------------
#
# The FORGE demo's pair: Josef (Brawling 50, ×4) and Bobby (Brawling 40, ×5, armor 10).
# The GM gives Josef his Physical Agility, 45: beat 1 (rules §3.4 [I16]); Bobby's is
# unknown: beat 4. Josef takes part in beats 1 to 5, Bobby in 4 and 5 (A-I5). Damage is
# the tens digit × the multiplier [I7]; a hit sent lands in the target's next reaction
# beat [I17], where a dodge within target and above the damage avoids it.


def test_forge_a_combat_round_by_beats(evening: Evening) -> None:
    evening.after("extended")  # (not the group extended contest: a campaign of its own)
    night, status = evening.terminal((80, 24)), evening.folder / "beats-status"
    night.start([str(tussle_script()), "open", FORGE], evening.env(), status)
    gm = Pane(night)
    gm.wait_for(f"Back-alley brawl · {FORGE}")
    gm.keys("w")
    gm.wait_for(f"Roster · {FORGE}")
    gm.pick(["Josef", "Bobby"], "Josef")
    gm.keys("e")
    form, agility = "Edit Josef", "Physical Agility: the beat in a round (blank: unknown, beat 4)"
    gm.fill(form, agility, "0")  # "a PA of 0 being impossible" [I16]
    gm.keys("Enter")
    gm.wait_for("must be at least 1, got 0")
    gm.fill(form, agility, "45")
    gm.accept(form)
    gm.keys("n")
    gm.wait_for(SETUP)
    form = "Add a participant"
    for who in ("Josef", "Bobby"):
        gm.keys("a")
        gm.choose(form, "Character", who)
        gm.choose(form, "Rolls", "Brawling")
        gm.accept(form)
    gm.keys("o")
    gm.choose("Rule options", "Combat (damage thrown, dodge or absorb)", "yes")
    gm.accept("Rule options")
    gm.keys("g")
    gm.fill("Start the contest", "Title", "Beats in the alley")
    gm.accept("Start the contest")
    gm.wait_for(f"Beats in the alley · {FORGE}")

    gm.keys("T")  # a round by beats: Josef alone acts in beat 1
    gm.wait_for("Round 1 · beat 1 (action)", "Josef (b1): 1a 2a 3r 4a 5r", "Bobby (b4): 4a 5r")
    on_the_keypad(gm, "attacks Bobby vs 50%", "nothing in beat 1")
    gm.keys("3", "5")  # 35 ≤ 50: 3 × 4 = 12, on its way to Bobby's beat 5
    on_the_keypad(gm, "Josef hits")
    gm.keys("Enter")
    gm.wait_for("Josef attacks vs 50: 35 ✓, damage 12,", "Round 1 · beat 2 (action)")
    gm.keys("Enter")  # beat 2: Josef types nothing, he lets it go; nothing lands in 3
    gm.wait_for("Round 1 · beat 4 (action)")
    # Beat 4: Josef 57 > 50 misses; Bobby 39 ≤ 40: 3 × 5 = 15 for Josef's beat 5.
    gm.keys("5", "7", "3", "9")
    on_the_keypad(gm, "Josef misses Bobby, Bobby hits Josef")  # whom each aims at (bdf9ae4)
    gm.keys("Enter")
    gm.wait_for("Round 1 · beat 5 (reaction)")
    # Beat 5: Bobby dodges the 12 with 30 (≤ 40, above 12): avoided; Josef, typing
    # nothing, absorbs the 15: no armor, 15 trauma.
    on_the_keypad(gm, "dodges 15 vs 50% (blank: absorbs)", "dodges 12 vs 40%")
    gm.keys("Tab", "3", "0")
    on_the_keypad(gm, "Bobby            [ 30]")
    gm.keys("Enter")
    gm.wait_for("Round 1 over")
    gm.wait_for("Bobby dodges vs 40: 30 ✓, dodged", "Josef takes 15: 0 absorbed, 15")
    gm.keys("e")  # the GM ends the contest: no stage was played, nobody won
    on_the_keypad(gm, "The contest is over")
    gm.keys("q")
    assert wait_for_file(status) == "0"
    checked = evening.tussle("check", FORGE)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    evening.played.append("beats")


# -- a Fate conflict by keys at 80x24 (issue 28, what it must show 2) ------------------------
#
# The Fate demo's pair as its roster has them: Cynere, Athletics Great (+4), Fight Great
# (+4), 3 fate points; Teran the Swift (NPC), Athletics Fair (+2), no Fight (Mediocre, +0),
# no fate points. Neither has Notice or Physique (SRD, "Conflicts" and "Stress and
# Consequences", Fate Core):
# * turn order, physical: Notice (0 and 0), ties by Athletics: Cynere (+4) before Teran (+2);
# * Physique Mediocre: a physical track of two boxes, 1 and 2, and the three slots, mild 2,
#   moderate 4, severe 6; a hit checks one box that covers what it absorbs, plus slots;
# * an attack's shifts are its total minus the defense's; 3 or more, with style;
# * a concession, before the roll: 1 fate point, plus 1 per consequence taken in the
#   conflict; the conflict ends when a side has nobody left in it; stress clears then,
#   consequences stay (each a new aspect, a free invoke for the side that inflicted it).

CONFLICT = "Knives in the mud"


def test_fate_a_contest_becomes_a_conflict_three_exchanges_and_a_concession(
    evening: Evening,
) -> None:
    evening.after("recap")  # (after the recaps of the first evening's Fate contest)
    night, status = evening.terminal((80, 24)), evening.folder / "conflict-status"
    night.start([str(tussle_script()), "open", FATE], evening.env(), status)
    gm = Pane(night)
    gm.wait_for(f"The race across the mud · {FATE}")

    # A new contest, the same pair: the race again.
    gm.keys("n")
    gm.wait_for(SETUP)
    form = "Add a participant"
    for who in ("Cynere", "Teran the Swift"):
        gm.keys("a")
        gm.choose(form, "Character", who)
        gm.choose(form, "Rolls", "Athletics")
        gm.accept(form)
    gm.keys("g")
    gm.fill("Start the contest", "Title", "The mud again")
    gm.accept("Start the contest")
    gm.wait_for(f"The mud again · {FATE}")

    # k: Teran attacks; the contest ends at once, with no dice (rules §1.3).
    gm.keys("k")
    form = "Someone attacks: the contest becomes a conflict"
    gm.choose(form, "Who attacks", "Teran the Swift")
    gm.accept(form)
    on_the_keypad(gm, "Attack by Teran the Swift")
    gm.keys("Enter")
    on_the_keypad(gm, "The contest is over")
    # k again: the conflict it becomes, physical.
    gm.keys("k")
    form = "The attack goes on as a conflict"
    gm.choose(form, "Harm", "physical")
    gm.fill(form, "Title", CONFLICT)
    gm.accept(form)

    def turn(exchange: int, who: str) -> str:
        """The title says whose turn in which exchange (wrapped where 80 columns end)."""
        said = rf"exchange {exchange} · {who}'s turn".replace(" ", r"\s+")
        return gm.wait_until(
            lambda s: re.search(said, s) is not None, f"exchange {exchange}, {who}'s turn"
        )

    gm.wait_for("Fate physical conflict")
    turn(1, "Cynere")

    def attack(who: str, dice: str, defense: str) -> None:
        """k: ``who`` attacks the other with Fight, the defense Athletics (the form's
        defaults for physical harm), each one's dice typed. The form is taller than 24
        rows and scrolls: its dice fields are reached by Tab from "Who" (does, on whom,
        with, their dice; defended with, its dice), and the recap shows what was typed."""
        form = f"{who}'s turn in the conflict"  # (who, attack: the form's defaults)
        gm.keys("k")
        shown = gm.dialog(form).text()
        assert f"◀ {who} ▶" in shown and "◀ attack ▶" in shown, shown
        gm.keys("Tab", "Tab", "Tab", "Tab")
        gm.type(dice)
        gm.keys("Tab", "Tab")
        gm.type(defense)

        def typed(screen: str) -> bool:
            dialog = find_dialog(screen, form)
            shown = [r.strip() for r in dialog.rows.values()] if dialog else []
            return shown.count(dice) + shown.count(defense) >= 2

        gm.wait_until(typed, f"{dice} and {defense} typed")
        gm.accept(form)

    def absorb(who: str, shifts: int, how: str, names: str = "") -> None:
        form = f"{who} absorbs a {shifts}-shift physical hit"
        gm.keys("a")
        gm.choose(form, "How", how)
        if names:
            gm.fill(form, "Consequences taken, named (separated by ;)", names)
        gm.accept(form)

    # Exchange 1. Cynere: Fight +4, 0000: +4; Teran: Athletics +2, 0000: +2. 2 shifts: a
    # hit; Teran checks his 2-box (it covers 2).
    attack("Cynere", "0000", "0000")
    absorb("Teran the Swift", 2, "the 2-box")
    turn(1, "Teran the Swift")
    # Teran: Fight +0, ++++: +4; Cynere: Athletics +4, ---0: +1. 3 shifts, with style (no
    # boost taken). Cynere: the 1-box and a mild (1 + 2 = 3), Bruised Shoulder.
    attack("Teran the Swift", "++++", "---0")
    absorb("Cynere", 3, "the 1-box + a mild", "Bruised Shoulder")
    shown = turn(2, "Cynere")
    assert "Physical [x1][2]" in shown and "mild: Bruised Shoulder" in shown, shown

    # Exchange 2. Cynere +000: +5; Teran 0000: +2. 3 shifts; his 2-box is checked, so the
    # 1-box and a mild: Mud in the Eyes. Teran +00-: 0; Cynere --00: +2: he fails by 2, no
    # harm (and no boost for her: not by 3).
    attack("Cynere", "+000", "0000")
    absorb("Teran the Swift", 3, "the 1-box + a mild", "Mud in the Eyes")
    turn(2, "Teran the Swift")
    attack("Teran the Swift", "+00-", "--00")
    turn(3, "Cynere")

    # Exchange 3: before Cynere rolls, Teran concedes: 1 + 1 consequence taken = 2 fate
    # points (0 → 2). Nobody is left on his side: the conflict ends, Cynere wins; stress
    # clears (her 1-box unchecked), her consequence stays.
    gm.keys("k")
    form = "Cynere's turn in the conflict"
    gm.dialog(form)
    gm.keys("Right")  # Who, the first field (its label scrolled out of sight at 80x24)

    def teran_first(screen: str) -> bool:
        dialog = find_dialog(screen, form)
        return dialog is not None and "◀ Teran the Swift ▶" in dialog.rows[min(dialog.rows)]

    gm.wait_until(teran_first, "Teran the Swift as the one who acts")
    gm.choose(form, "Does", "concede")
    gm.accept(form)
    on_the_keypad(gm, "The conflict is over", "Cynere won")
    shown = gm.wait_for("Teran the Swift  FP 2", "conceded")
    assert "Physical [1][2]" in shown and "[x" not in shown, shown
    assert "mild: Bruised Shoulder" in shown, shown

    # The roster afterwards: the fate points, and each one's consequence kept (an aspect
    # on the character, the other side holding its free invoke); no stress written.
    gm.keys("w")
    on_the_roster(
        gm,
        FATE,
        r"Cynere +PC +FP 3/3 · mild: Bruised Shoulder",
        r"Teran the Swift +NPC +FP 2/0 · mild: Mud in the Eyes",
    )
    gm.keys("Escape")
    gm.wait_for("Exchange log")
    gm.keys("q")
    assert wait_for_file(status) == "0"
    exported = evening.tussle("roster", "export", FATE)
    assert exported.returncode == 0, exported.stderr
    roster = exported.stdout
    assert (
        '{ severity = "mild", aspect = "Bruised Shoulder", holder = "Teran the Swift", '
        "free_invokes = 1 }" in roster
    ), roster
    assert (
        '{ severity = "mild", aspect = "Mud in the Eyes", holder = "Cynere", free_invokes = 1 }'
        in roster
    ), roster
    assert "stress" not in roster, roster

    # The recap: the conflict's five actions, their dice, the consequences, the result.
    done = evening.tussle("export", FATE, "--format", "markdown")
    assert done.returncode == 0, done.stderr
    recap = done.stdout[done.stdout.index(f"## {CONFLICT}") :]
    assert headings(recap) == [
        "Exchange 1: Cynere attacks Teran the Swift, a 2-shift physical hit: the 2-box",
        "Exchange 1: Teran the Swift attacks Cynere, a 3-shift physical hit with style: "
        "the 1-box and a mild",
        "Exchange 2: Cynere attacks Teran the Swift, a 3-shift physical hit with style: "
        "the 1-box and a mild",
        "Exchange 2: Teran the Swift attacks Cynere, misses",
        "Exchange 3: Teran the Swift concedes (2 fate points at the end)",
    ]
    assert "Cynere (Fight): +000 → Superb (+5)" in recap
    assert "Cynere takes a mild consequence: Bruised Shoulder" in recap
    assert "Teran the Swift takes a mild consequence: Mud in the Eyes" in recap
    assert "**Result:** Cynere won, 1 still in to 0" in recap
    checked = evening.tussle("check", FATE)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    evening.played.append("conflict")
