"""``tussle odds FILE``: the shared scenarios, hand-made ones with ``next``, and errors.

The figures are worked by hand in the comments (4dF differences are 8dF: the coefficients
of (1 + x + x²)^8, ..., 784, 1016, 1107, 1016, 784, ... out of 6561; d20 and d100 pairs
counted). Most error places are checked in-process through ``load_for_odds`` (what the
command calls); the exit codes, the one stderr line and ``--text`` through the command.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from core.odds.next import load_for_odds
from core.odds.report import odds_for
from core.rules.reading import ScenarioError
from tests.conftest import SCENARIOS
from tests.helpers import in_process, tussle_command

SHARED = sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(".expected.json"))

FATE: dict[str, Any] = {
    "system": "fate",
    "participants": [
        {"name": "Cynere", "skill": 4},
        {"name": "Teran", "skill": 3},
    ],
    # +5 against +2: Cynere, three shifts, two victories (style).
    "exchanges": [{"rolls": {"Cynere": "+000", "Teran": "-000"}}],
}

HQ_THREE: dict[str, Any] = {
    "system": "heroquest",
    "options": {"extended": True},
    "participants": [
        {"name": "Hero", "rating": 10, "hero_points": 1},
        {"name": "Foe", "rating": 10},
        {"name": "Ally", "rating": 8, "side": "Hero"},
    ],
    "exchanges": [
        {"rolls": {"Hero": 1, "Foe": 15}},  # critical against failure: major, 3 points
        {"rolls": {"Hero": 5, "Foe": 8}},  # successes, the lower roll: marginal, 1
        {"rolls": {"Hero": 15, "Foe": 1}},  # the same the other way: Foe 3
        {"rolls": {"Hero": 8, "Foe": 5}},  # and 1: 4-4
    ],
}

FORGE: dict[str, Any] = {
    "system": "forge",
    "participants": [
        {"name": "Josef", "target": 50, "multiplier": 4},
        {"name": "Bobby", "target": 50},
    ],
}


def with_next(base: dict[str, Any], upcoming: Any, **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(base)
    data.update(changes)
    data["next"] = upcoming
    return data


def odds_of(data: Any) -> dict[str, Any]:
    return odds_for(load_for_odds(json.dumps(data).encode()))


def problem(data: Any) -> str:
    with pytest.raises(ScenarioError) as info:
        load_for_odds(json.dumps(data).encode())
    return str(info.value)


def tussle_odds(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``tussle odds ARGS``, in this process: a fresh interpreter per call cost more than
    the call. What only a fresh one shows (what it imports) is tests/core/test_odds_split.py's;
    the console script itself still runs below (resolve refusing ``next``)."""
    return in_process("odds", *args, stdin=stdin)


# -- the command ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.stem)
def test_the_shared_scenarios(path: Path) -> None:
    run = tussle_odds(str(path))
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    out = json.loads(run.stdout)
    expected = json.loads(path.with_name(f"{path.stem}.expected.json").read_text())
    assert out["system"] == expected["system"]
    # the exchanges played as the GM counts them: a conflict's entries are actions, each
    # naming its exchange (SRD, Conflicts: everyone acts once in one); a contest's, one each
    last = expected["exchanges"][-1] if expected["exchanges"] else {}
    assert out["after_exchange"] == last.get("exchange", len(expected["exchanges"]))
    assert out["finished"] == expected["finished"]
    if out["finished"]:
        assert out["exchange"] is None and out["contest"] is None
        assert "over" in out["note"]
    else:
        sides = out["contest"]["sides"]
        assert sum(Fraction(s["win_exact"]) for s in sides.values()) == 1


def test_mud_in_the_eyes_after_its_exchange() -> None:
    # Cynere +4 against Teran +3 with nothing entered: Cynere wins when the 8dF difference
    # D >= 0, 3834 of 6561 = 142/243; style at D >= 2, 1711; a tie at D = -1, 1016; Teran
    # wins at D <= -2, 1711, with style at D <= -4, 423 = 47/729.
    run = tussle_odds(str(SCENARIOS / "fate-mud-in-the-eyes.json"))
    assert run.returncode == 0, run.stderr
    ex = json.loads(run.stdout)["exchange"]
    assert ex["sides"]["Cynere"]["win_exact"] == "142/243"
    assert ex["sides"]["Cynere"]["style_exact"] == "1711/6561"
    assert ex["sides"]["Teran"]["win_exact"] == "1711/6561"
    assert ex["sides"]["Teran"]["style_exact"] == "47/729"
    assert ex["tie_exact"] == "1016/6561" and ex["none_exact"] == "0"
    assert ex["sides"]["Teran"]["win"] == pytest.approx(1711 / 6561)


def test_text_for_people() -> None:
    run = tussle_odds("--text", str(SCENARIOS / "fate-mud-in-the-eyes.json"))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "Fate Core odds after exchange 1"
    assert "Score: Cynere 1, Teran 0 (first to 3)" in lines
    cynere = next(line for line in lines if line.strip().startswith("Cynere") and "win" in line)
    assert "58.4%" in cynere  # 142/243
    assert "Contest from here:" in lines and "Next exchange:" in lines
    assert lines[-1].startswith("Assumes fair dice")


def test_standard_input_and_next_bonus() -> None:
    # A +2 for Teran makes him +5 against +4: he wins 142/243 (Cynere's figure above).
    data = with_next(FATE, {"bonus": {"Teran": 2, "Cynere": None}})
    run = tussle_odds("-", stdin=json.dumps(data))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["score"] == {"Cynere": 2, "Teran": 0}
    assert out["exchange"]["sides"]["Teran"]["win_exact"] == "142/243"
    assert out["exchange"]["sides"]["Cynere"]["win_exact"] == "1711/6561"


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (with_next(FATE, {"bonus": {"Zird": 2}}), 'next.bonus.Zird: no side "Zird"'),
        (with_next(FATE, [1]), "next: expected an object, got a list"),
        ("{", "(json): line 1 column 2: Expecting property name enclosed in double quotes"),
    ],
)
def test_errors_exit_2_with_one_line(data: Any, line: str) -> None:
    run = tussle_odds("-", stdin=data if isinstance(data, str) else json.dumps(data))
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr == line + "\n"


def test_a_missing_file() -> None:
    run = tussle_odds("/nonexistent/odds.json")
    assert run.returncode == 2
    assert run.stderr == "(file): No such file or directory\n"


def test_resolve_still_refuses_next() -> None:
    run = subprocess.run(
        [*tussle_command(), "resolve", "-"],
        input=json.dumps(with_next(FATE, {})),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (run.returncode, run.stderr) == (2, "next: unknown key\n")


# -- next, in-process -----------------------------------------------------------------------


def test_heroquest_three_participants_from_four_all() -> None:
    # 4-4 between equals: whoever wins the next exchange that is not a tie wins, 1/2.
    plain = odds_of(HQ_THREE)
    assert plain["resolution_points"] == {"Hero": 4, "Foe": 4}
    assert plain["exchange"]["parties"] == ["Hero", "Foe"]  # the previous exchange's
    assert plain["contest"]["sides"]["Hero"]["win_exact"] == "1/2"
    # With +5 on the coming exchange only: Hero wins it (P), or it ties (T) and the
    # plain ones after it are even: P + T/2.
    boosted = odds_of(with_next(HQ_THREE, {"modifiers": {"Hero": 5}}))
    ex = boosted["exchange"]
    assert ex["targets"] == {"Hero": "15", "Foe": "10"}
    p, t = Fraction(ex["sides"]["Hero"]["win_exact"]), Fraction(ex["tie_exact"])
    assert Fraction(boosted["contest"]["sides"]["Hero"]["win_exact"]) == p + t / 2


def test_heroquest_next_names_the_parties_and_stretches() -> None:
    # Ally (8, stretched: 2) against Foe (10); a stretched party's victory is at most
    # minor, so Ally's major and complete are 0.
    out = odds_of(with_next(HQ_THREE, {"parties": ["Ally", "Foe"], "stretch": ["Ally"]}))
    ally = out["exchange"]["sides"]["Ally"]
    assert out["exchange"]["targets"] == {"Ally": "2", "Foe": "10"}
    assert ally["major_exact"] == "0" and ally["complete_exact"] == "0"
    assert list(out["contest"]["sides"]) == ["Hero", "Foe"]  # Ally's side is Hero


def test_heroquest_without_earlier_parties_needs_next_parties() -> None:
    data = copy.deepcopy(HQ_THREE)
    data["exchanges"] = []
    assert problem(data) == (
        "next: missing (with more than two participants, name the two parties: give next.parties)"
    )
    assert problem(with_next(data, {"modifiers": {"Hero": 1}})) == (
        "next.parties: missing (with more than two participants, name the two parties)"
    )


def test_forge_next_stage() -> None:
    # Josef 60 (50 + 10) against Bobby 50, ties to Bobby: for a = 1..50 Bobby wins on
    # a..50 (51 - a rolls), leaving 49 + a: 3725; a = 51..60 always win: 1000. 4725/10000.
    out = odds_of(
        with_next(FORGE, {"actor": "Josef", "reactor": "Bobby", "modifiers": {"Josef": 10}})
    )
    assert out["exchange"]["actor"]["win_exact"] == "189/400"
    assert out["exchange"]["reactor"]["win_exact"] == "211/400"
    assert out["contest"] is None and "GM" in out["note"]
    # In combat, absorbing: Josef wins exactly when he succeeds, 50 of 100.
    combat = odds_of(
        with_next(FORGE, {"actor": "Josef", "reaction": "absorb"}, options={"combat": True})
    )
    assert combat["exchange"]["reaction"] == "absorb"
    assert combat["exchange"]["actor"]["win_exact"] == "1/2"
    assert combat["exchange"]["reactions"]["absorb"]["actor_win_exact"] == "1/2"


BAD = [
    (with_next(FATE, {"colour": "red"}), "next.colour: unknown key"),
    (
        with_next(FATE, {"bonus": {"Teran": "2"}}),
        "next.bonus.Teran: expected an integer, got a string",
    ),
    (with_next(FATE, {"bonus": 2}), "next.bonus: expected an object, got an integer"),
    (with_next(FATE, {"bonus": {}}, participants=None), "participants: missing"),
    (with_next(FATE, None, nxt={}), "nxt: unknown key"),
    (
        with_next(FATE, {}, options={"victories_needed": 2}),
        "next: the contest ended at exchange 1",
    ),
    (
        with_next(HQ_THREE, {"parties": ["Hero"]}),
        "next.parties: expected the two parties' names, got a list of 1",
    ),
    (with_next(HQ_THREE, {"parties": ["Hero", "Zird"]}), 'next.parties[1]: no participant "Zird"'),
    (
        with_next(HQ_THREE, {"parties": ["Hero", "Ally"]}),
        "next.parties: Hero and Ally are both on side Hero",
    ),
    (
        with_next(HQ_THREE, {"modifiers": {"Ally": 1}}),
        "next.modifiers.Ally: Ally is not a party to this exchange",
    ),
    (
        with_next(HQ_THREE, {"hero_points": {"Foe": 1}}),
        "next.hero_points.Foe: Foe has no hero points",
    ),
    (FORGE, "next: missing (the first stage needs an actor: give next.actor)"),
    (with_next(FORGE, {"actor": "Zird"}), 'next.actor: no participant "Zird"'),
    (
        with_next(FORGE, {"reactor": "Bobby"}),
        "next.actor: missing (the first stage needs an actor)",
    ),
    (
        with_next(
            FORGE,
            {"actor": "Josef", "modifiers": {"Carl": 5}},
            participants=[*FORGE["participants"], {"name": "Carl", "target": 30}],
        ),
        "next.reactor: missing (with more than two taking part, name the reactor)",
    ),
    (
        with_next(
            FORGE,
            {"actor": "Josef", "reactor": "Bobby", "modifiers": {"Carl": 5}},
            participants=[*FORGE["participants"], {"name": "Carl", "target": 30}],
        ),
        "next.modifiers.Carl: Carl is neither the actor (Josef) nor the reactor (Bobby)",
    ),
    (
        with_next(FORGE, {"actor": "Josef", "reaction": "parry"}, options={"combat": True}),
        'next.reaction: "parry" is not one of dodge, absorb',
    ),
]


@pytest.mark.parametrize(("data", "line"), BAD, ids=[line.split(":")[0] for _, line in BAD])
def test_problems_name_their_place(data: Any, line: str) -> None:
    assert problem(data) == line


def test_reaction_outside_combat_is_ignored_like_in_scenarios() -> None:
    out = odds_of(with_next(FORGE, {"actor": "Josef", "reaction": "parry"}))
    assert out["exchange"]["reaction"] is None
    assert out["exchange"]["actor"]["win_exact"] == "149/400"  # 50 against 50: 3725/10000


@pytest.mark.parametrize("argv", [["odds", "--text"], ["odds"], ["resolve"], ["resolve", "--text"]])
def test_a_reader_gone_before_the_output_ends_no_traceback_and_exit_1(argv: list[str]) -> None:
    """``tussle odds FILE | head``: the pipe's reader is gone before Tussle writes (closed
    here before the command starts writing, so every write meets a broken pipe). The
    output is cut short, so the exit is 1, not 0; and stderr holds no traceback (it held
    Python's BrokenPipeError, from the print, then again from the exit's flush)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [*tussle_command(), *argv[:1], str(SHARED[0]), *argv[1:]],
            stdout=writer,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(writer)
    assert done.stderr.decode() == ""
    assert done.returncode == 1
