"""Quick rolls outside a contest (issue 16): ``tussle roll EXPR [--dice] [--system]``, the
campaign action that logs one, and the recap's "Rolls outside the contests".

Every expected value is worked by hand from rules.md below, never read off the code.
Four Fate dice (§1.2): of the 81 throws, sums -4..+4 come 1, 4, 10, 16, 19, 16, 10, 4, 1
ways. HeroQuest (§2.3): 1 critical, 2..TN success, TN+1..19 failure, 20 fumble; extra
masteries bump up, then the other down; equal levels go to the lower roll. FORGE (§3.2):
success when the d100 is at most the target, automatic at 100 or more.
"""

from __future__ import annotations

import json
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import get_type_hints

import pytest

from core.campaign.actions import Campaign
from core.campaign.log import QuickRoll, Redo, Undo
from core.campaign.recap import recap_markdown
from core.campaign.state import CampaignState
from core.errors import RuleError
from core.files.codec import decode, encode
from core.saves.store import Saves
from core.systems.fate.odds import fate_roll_odds, four_df_at_least
from core.systems.forge.odds import forge_success
from core.systems.heroquest.odds import heroquest_counts, heroquest_roll_levels
from core.systems.heroquest.resolution import Party
from tests.helpers import act, clean_env, tussle_command
from tests.plugins.installed import installed
from tui.cli import main


def roll(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["roll", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# -- Fate -----------------------------------------------------------------------------------


def test_fate_roll_reads_on_the_ladder_with_the_chance_of_that_or_better(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # ++0- sums to +1; with a skill of +3 that is +4, Great on the ladder. A total of +4
    # or better needs the dice at +1 or more: 16 + 10 + 4 + 1 = 31 throws of 81, 38.27%.
    code, out, err = roll(capsys, "4dF+3", "--dice", "++0-")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "4dF+3: ++0- → +4 Great",
        "chance of +4 Great or better: 38.3%",
    ]


@pytest.mark.parametrize(
    ("dice", "said"),
    [
        # ++0- = +1: +4 against +2, 2 shifts: a success (style needs 3).
        ("++0-", "+4 Great vs +2 Fair: success, 2 shifts"),
        # -000 = -1: +2 against +2, a tie.
        ("-000", "+2 Fair vs +2 Fair: tie, 0 shifts"),
        # +--- = -2: +1 against +2, one short.
        ("+---", "+1 Average vs +2 Fair: fail by 1 shift"),
        # ++00 = +2: +5 against +2, 3 shifts: success with style.
        ("++00", "+5 Superb vs +2 Fair: success with style, 3 shifts"),
        # ==== (= is + on the keypad) = +4: +7 Epic, 5 shifts.
        ("====", "+7 Epic vs +2 Fair: success with style, 5 shifts"),
    ],
)
def test_fate_roll_against_an_opposition(
    capsys: pytest.CaptureFixture[str], dice: str, said: str
) -> None:
    # Success or better against +2 with +3 needs dice of 0 or more: 19+16+10+4+1 = 50 of
    # 81 = 61.73%; style (3 shifts, a total of +5) needs +2 or more: 10+4+1 = 15, 18.52%.
    code, out, err = roll(capsys, "4dF+3", "vs", "2", "--dice", dice)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"4dF+3 vs 2: {dice.replace('=', '+')} → {said}",  # shown as the keypad shows it
        "chance of success or better: 61.7% (with style: 18.5%)",
    ]


def test_fate_opposition_by_ladder_name_and_spaced_dice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Fair is +2; the dice may be typed spaced. 4dF-1 vs Fair: -1 + (+1) = 0 Mediocre,
    # 2 short. Success needs a total of +3: dice of +4, 1 throw of 81 (1.23%); style +5:
    # impossible.
    code, out, _ = roll(capsys, "4dF-1 vs Fair", "--dice", "+ + 0 -")
    assert code == 0
    assert out.splitlines() == [
        "4dF-1 vs Fair: ++0- → 0 Mediocre vs +2 Fair: fail by 2 shifts",
        "chance of success or better: 1.2% (with style: 0.0%)",
    ]


def test_fate_odds_count_the_81_throws() -> None:
    # 4dF at -1 or more: 16 + 19 + 16 + 10 + 4 + 1 = 66 of 81 (rules §1.2's cumulative
    # table: "≥−1 66/81").
    assert four_df_at_least(-1) == Fraction(66, 81)
    assert four_df_at_least(5) == 0
    # +3 against +2: fail at dice -2 or less (1+4+10 = 15), tie at -1 (16), success at
    # 0 or +1 (19+16 = 35), style at +2 or more (15).
    assert fate_roll_odds(3, 2) == {
        "fail": Fraction(15, 81),
        "tie": Fraction(16, 81),
        "success": Fraction(35, 81),
        "style": Fraction(15, 81),
    }


def test_fate_against_minus_two_shows_66_of_81(capsys: pytest.CaptureFixture[str]) -> None:
    # 4dF vs -2: success at a total of -1 or more: 66/81 = 81.48%; style at +1: 31/81.
    code, out, _ = roll(capsys, "4dF vs -2", "--dice", "0000")
    assert code == 0
    assert out.splitlines()[-1] == "chance of success or better: 81.5% (with style: 38.3%)"


# -- HeroQuest ------------------------------------------------------------------------------


def test_heroquest_4m_against_14_with_7_and_12(capsys: pytest.CaptureFixture[str]) -> None:
    # 4M is base 4 with one mastery; the resistance 14 has none, so the ability has one
    # bump. The ability's 7 is over 4: a failure, bumped up to a success. The resistance's
    # 12 is within 14: a success. Success against success: the lower roll, 7, wins a
    # marginal victory (§2.3 step 7).
    #
    # The chance, over the 400 pairs of d20s (a = ability's roll, r = resistance's):
    # * a = 1: critical, its bump lowers the resistance a level: it wins all 20.
    # * a = 2-4: success bumped to critical; only r = 1 (critical too) ties the level,
    #   and the lower roll (1) wins for the resistance: 19 wins each, 57.
    # * a = 5-19: failure bumped to success. It loses to r = 1; against r = 2-14
    #   (success) it wins when a < r (9+8+...+1 = 45 for a = 5..13) and ties when a = r
    #   (a = 5..14: 10 ties); it wins against r = 15-20 (6 each, 90). 135 wins.
    # * a = 20: fumble bumped to failure: it beats only r = 20's fumble. 1 win.
    # 20 + 57 + 135 + 1 = 213 wins of 400 (53.25%), 10 ties (2.5%).
    code, out, err = roll(capsys, "4M vs 14", "--dice", "7 12")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "4M vs 14: 7, 12 → marginal victory",
        "  the ability has 1 mastery more: a bump (up, then the other down once critical)",
        "  the ability 4M rolls 7: failure, bumped up to success",
        "  the resistance 14 rolls 12: success",
        "  both success: the lower roll wins",
        "chance of victory: 53.3% (tie 2.5%)",
    ]
    (tie,), wins, _ = heroquest_counts(Party(target=24), Party(target=14), "low")
    assert (Fraction(sum(wins), 400), Fraction(tie, 400)) == (Fraction(213, 400), Fraction(10, 400))


@pytest.mark.parametrize(
    ("expression", "dice", "outcome", "lines"),
    [
        # Both roll 1: the ability's critical cannot go higher, so its bump lowers the
        # resistance's critical to a success: critical against success, a minor victory.
        (
            "4M vs 14",
            "1 1",
            "minor victory",
            [
                "the ability 4M rolls 1: critical",
                "the resistance 14 rolls 1: critical, bumped down",
            ],
        ),
        # Both fumble, the ability's bumped up to a failure: failure beats fumble, minor.
        ("4M vs 14", "20,20", "minor victory", ["the ability 4M rolls 20: fumble, bumped up"]),
        # The resistance's mastery: its 5 (within 10) goes from success to critical; the
        # ability's 5 is a success. Critical beats success by one level: a minor defeat.
        ("17 vs 10M", "5 5", "minor defeat", ["the resistance 10M rolls 5: success, bumped up"]),
        # Rules vector H1: masteries cancel (2M vs 13M plays as 2 vs 13); 5 > 2 and
        # 14 > 13 are both failures; the lower roll, 5, wins a marginal victory.
        ("2M vs 13M", "5 14", "marginal victory", ["masteries cancel (1 each)"]),
        # Equal rolls at equal levels: a tie (§2.3 step 7). 4M-6 is 18.
        ("4M-6 vs 14", "3 3", "a tie", ["both success, equal rolls: a tie"]),
    ],
)
def test_heroquest_contests_worked_by_hand(
    capsys: pytest.CaptureFixture[str], expression: str, dice: str, outcome: str, lines: list[str]
) -> None:
    code, out, _ = roll(capsys, expression, "--dice", dice)
    assert code == 0
    assert out.splitlines()[0].endswith(f"→ {outcome}")
    for line in lines:
        assert any(shown.strip().startswith(line) for shown in out.splitlines()), line


@pytest.mark.parametrize(
    ("dice", "level"), [("1", "critical"), ("14", "success"), ("15", "failure"), ("20", "fumble")]
)
def test_heroquest_d20_against_14(
    capsys: pytest.CaptureFixture[str], dice: str, level: str
) -> None:
    # One d20 against 14: 1 critical, 2-14 success, 15-19 failure, 20 fumble. Success or
    # better: rolls 1-14, 14 of 20 = 70%; critical 1 of 20 = 5%.
    code, out, _ = roll(capsys, "d20 vs 14", "--dice", dice)
    assert code == 0
    assert out.splitlines() == [
        f"d20 vs 14: {dice} → {level}",
        "chance of success or better: 70.0% (critical 5.0%)",
    ]


def test_heroquest_d20_against_a_mastery_bumps_the_level() -> None:
    # d20 vs 4M: each roll one level up. 1-4 (critical, or success bumped) are critical,
    # 5-19 success, 20 failure: no fumble, 4/20 critical, 15/20 success, 1/20 failure.
    assert heroquest_roll_levels(24) == (0, Fraction(1, 20), Fraction(15, 20), Fraction(4, 20))


# -- FORGE ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "dice", "said", "chance"),
    [
        ("d100 vs 45", "30", "success: throws 30", "45.0%"),
        ("d100 vs 45", "45", "success: throws 45", "45.0%"),  # equal is the best result
        ("d100 vs 45", "46", "failure", "45.0%"),
        ("d100 vs 45", "100", "failure", "45.0%"),
        # Aiming at a hand: -40 on the target (§3.4), so 30 misses a target of 5.
        ("d100 vs 45-40", "30", "failure", "5.0%"),
        # 100 or more succeeds whatever the roll, and still throws it (A-I2).
        ("d100 vs 120", "99", "automatic success: throws 99", "100.0%"),
    ],
)
def test_forge_d100_against_a_target(
    capsys: pytest.CaptureFixture[str], expression: str, dice: str, said: str, chance: str
) -> None:
    code, out, _ = roll(capsys, expression, "--dice", dice)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{expression}: {dice} → {said}"
    assert lines[-1] == f"chance of success: {chance}"


def test_forge_odds_count_the_hundred_rolls() -> None:
    assert [forge_success(t) for t in (45, 0, -5, 100, 130)] == [
        Fraction(45, 100),
        0,
        0,
        1,
        1,
    ]


def test_a_forge_target_of_0_or_less_rolls_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = roll(capsys, "d100 vs 20-30")
    assert code == 0
    assert out.splitlines() == [
        "d100 vs 20-30: failure: a target of -10 cannot succeed (no roll)",
        "chance of success: 0.0%",
    ]


# -- Tussle rolls, and what it refuses ------------------------------------------------------


@pytest.mark.parametrize("expression", ["4dF+3 vs 2", "4M vs 14", "d20 vs 14", "d100 vs 45"])
def test_without_dice_tussle_rolls(capsys: pytest.CaptureFixture[str], expression: str) -> None:
    code, out, err = roll(capsys, expression)
    assert (code, err) == (0, "")
    assert out.startswith(f"{expression}: ")
    assert "chance of" in out.splitlines()[-1]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["4dX"], 'not a roll Tussle reads: write Fate Core "4dF+3"'),
        (["2d6 vs 3"], "not a roll Tussle reads"),
        (["4dF+"], "write 4dF and the skill after it"),
        (["4dF+3 vs Awesome"], '"Awesome" is not an opposition'),
        (["4dF+3 vs 2 vs 3"], 'one "vs" at most'),
        (["4M"], "write the resistance after vs"),
        (["d20 vs 25"], '"25" is not a rating'),
        (["d100"], "write the target after vs"),
        (["d100 vs lots"], "write the target after vs"),
        ([" "], "write a roll, like"),
        (["4dF", "--dice", "++0"], 'takes 4dF (four Fate dice), not "++0"'),
        (["4dF", "--dice", "++0x"], "Fate dice are typed as +, - and 0"),
        (["d20 vs 14", "--dice", "21"], "a d20 has no face 21"),
        (["d20 vs 14", "--dice", "0"], "a d20 has no face 0"),
        (["d100 vs 45", "--dice", "05"], "(05 is 5, 00 is 100)"),
        (["4M vs 14", "--dice", "7"], "takes d20 (the ability), d20 (the resistance)"),
        (["d100 vs 20-30", "--dice", "5"], "needs no dice"),
        (["4dF", "--system", "heroquest"], 'write HeroQuest "4M vs 14"'),
        (["4dF", "--system", "nope"], 'no rule system "nope"'),
    ],
)
def test_a_bad_roll_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, out, err = roll(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("tussle roll: ")
    assert says in err


def test_the_console_script_rolls_and_refuses(tmp_path: Path) -> None:
    run = [*tussle_command(), "roll"]
    env = clean_env()
    done = subprocess.run(
        [*run, "4dF+3 vs 2", "--dice", "++0-"], capture_output=True, text=True, env=env
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "+4 Great vs +2 Fair: success, 2 shifts" in done.stdout
    assert "chance of success or better: 61.7%" in done.stdout
    for bad in (["4dF+3 vs"], ["d100 vs 45", "--dice", "101"], ["4M vs 14", "--dice", "a b"]):
        done = subprocess.run([*run, *bad], capture_output=True, text=True, env=env)
        assert done.returncode == 2, bad
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr


def test_a_system_without_quick_rolls_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The coin race plug-in has no quick_rolls: asked for by name, it says so; the other
    # systems still read their rolls with it installed.
    with installed(tmp_path):
        code, _, err = roll(capsys, "heads", "--system", "coin")
        assert (code, err) == (2, "tussle roll: Coin race has no quick rolls: roll in a contest\n")
        code, out, _ = roll(capsys, "d100 vs 45", "--dice", "30")
        assert code == 0 and "success: throws 30" in out


# -- in a campaign: logged, undone, in the recap --------------------------------------------


def test_a_roll_is_one_undoable_action_saved_with_its_dice(tmp_path: Path) -> None:
    files = Saves(tmp_path).create("Rolls", "heroquest")
    campaign = Campaign(name="Rolls", system="heroquest")
    act(campaign, files, QuickRoll(expression="4M vs 14", faces=((7,), (12,))))
    ((action_id, rolled),) = campaign.rolls
    assert rolled.outcome == "marginal victory"
    assert rolled.chance == "chance of victory: 53.3% (tie 2.5%)"
    assert files.load().rolls == campaign.rolls  # saved, read back the same
    act(campaign, files, Undo())
    assert campaign.rolls == []
    act(campaign, files, Redo())  # the same dice again, never rolled anew
    assert campaign.rolls == [(action_id, rolled)]
    assert files.load().rolls == campaign.rolls


def test_a_campaign_takes_only_its_own_systems_rolls() -> None:
    campaign = Campaign(name="Fate", system="fate")
    with pytest.raises(RuleError, match="not a roll Tussle reads"):
        campaign.decide(QuickRoll(expression="d100 vs 45", faces=((30,),)))
    with pytest.raises(RuleError, match="Fate dice are four faces"):
        campaign.decide(QuickRoll(expression="4dF+3", faces=((1, 1),)))


def test_the_recap_lists_the_rolls_outside_the_contests() -> None:
    campaign = Campaign(name="Rolls", system="fate")
    campaign.act(QuickRoll(expression="4dF+3 vs 2", faces=((1, 1, 0, -1),)))
    campaign.act(QuickRoll(expression="4dF", faces=((0, 0, 0, 0),)))
    campaign.act(Undo())  # the second is taken back: not in the recap
    recap = recap_markdown(campaign)
    assert "## Rolls outside the contests" in recap
    assert (
        "- 4dF+3 vs 2: ++0- → +4 Great vs +2 Fair: success, 2 shifts · chance of success "
        "or better: 61.7% (with style: 18.5%)"
    ) in recap.splitlines()
    assert "0000" not in recap


def test_the_rolls_in_force_save_and_read_back_as_they_are() -> None:
    # A campaign's state is saved field by field (a snapshot's head holds every field):
    # the rolls must come back the same from their JSON, action ids and all.
    campaign = Campaign(name="Rolls", system="forge")
    campaign.act(QuickRoll(expression="d100 vs 45", faces=((30,),)))
    hint = get_type_hints(CampaignState)["rolls"]
    assert decode(json.loads(json.dumps(encode(campaign.rolls))), hint) == campaign.rolls
