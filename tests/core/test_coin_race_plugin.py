"""A fourth rule system, the coin race, written only under tests/ (issue 12, "What it must
show" 1): installed through the ``tussle.rule_systems`` entry point group as any package
would be, it plays through the real console script (``resolve``, ``odds``, ``check``,
``export``) with no file of core/ or tui/ naming it; uninstalled, its campaigns and
scenarios are refused in one line, never with a traceback.

The figures are worked from the rules (tests/plugins/coin_race/__init__.py): each side's
first member flips a coin; the only heads scores a point, anything else is a tie; first
to ``target`` (3) wins.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from core.redact import Secrets
from core.rules import SYSTEM_NAMES, find_system
from tests.helpers import clean_env, tussle_command
from tests.plugins.installed import installed, plugin_env, write_distribution

H, T = "heads", "tails"


def scenario(flips: list[tuple[str, str]], **extra: object) -> dict[str, object]:
    """Ann against Bob, first to 3, one exchange per (Ann's coin, Bob's coin)."""
    return {
        "system": "coin",
        "options": {"target": 3},
        "participants": [{"name": "Ann"}, {"name": "Bob"}],
        "exchanges": [{"flips": {"Ann": a, "Bob": b}} for a, b in flips],
        **extra,
    }


# Ann heads v tails: Ann 1-0. Both heads: a tie. Bob alone heads: 1-1. Ann alone: 2-1.
# Both tails: a tie. Ann alone: 3-1, and Ann has reached 3: she wins after exchange 6.
RACE = scenario([(H, T), (H, H), (T, H), (H, T), (T, T), (H, T)])
RACE_SCORES = [(1, 0), (1, 0), (1, 1), (2, 1), (2, 1), (3, 1)]
RACE_WINNERS = ["Ann", None, "Bob", "Ann", None, "Ann"]


@pytest.fixture
def coin(tmp_path: Path) -> Iterator[None]:
    """The coin race installed in this process (and uninstalled afterwards)."""
    with installed(tmp_path / "site"):
        yield


def run(
    args: list[str], cwd: Path, plugin: Path | None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """The real console script, with the plug-in's distribution on its path (or not)."""
    env = clean_env(plugin_env(write_distribution(plugin)) if plugin is not None else None)
    return subprocess.run(
        [*tussle_command(), *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def write(path: Path, data: object) -> str:
    path.write_text(json.dumps(data))
    return str(path)


# -- registration ----------------------------------------------------------------------------


def test_the_entry_point_adds_the_system_and_taking_it_away_removes_it(tmp_path: Path) -> None:
    assert "coin" not in SYSTEM_NAMES
    with installed(tmp_path / "site"):
        assert "coin" in SYSTEM_NAMES
        assert list(SYSTEM_NAMES)[-1] == "coin"  # after the three built in
        assert find_system("coin").title == "Coin race"
    assert "coin" not in SYSTEM_NAMES


# -- tussle resolve ----------------------------------------------------------------------------


def test_resolve_plays_the_race_through_the_console_script(tmp_path: Path) -> None:
    done = run(["resolve", write(tmp_path / "race.json", RACE)], tmp_path, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["system"] == "coin"
    assert out["finished"] is True and out["winner"] == "Ann"
    assert out["score"] == {"Ann": 3, "Bob": 1}
    flips = [(H, T), (H, H), (T, H), (H, T), (T, T), (H, T)]
    assert [e["n"] for e in out["exchanges"]] == [1, 2, 3, 4, 5, 6]
    assert [e["flips"] for e in out["exchanges"]] == [{"Ann": a, "Bob": b} for a, b in flips]
    assert [e["winner"] for e in out["exchanges"]] == RACE_WINNERS
    assert [(e["score"]["Ann"], e["score"]["Bob"]) for e in out["exchanges"]] == RACE_SCORES


def test_resolve_text_is_the_exchange_log(tmp_path: Path) -> None:
    done = run(
        ["resolve", write(tmp_path / "race.json", RACE), "--text"], tmp_path, tmp_path / "site"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Coin race contest: Ann vs Bob"
    assert lines[1:4] == ["Exchange 1: Ann scores (1–0)", "  Ann: heads", "  Bob: tails"]
    assert lines[4:7] == ["Exchange 2: a tie (1–0)", "  Ann: heads", "  Bob: heads"]
    assert "Exchange 3: Bob scores (1–1)" in lines
    assert "Exchange 5: a tie (2–1)" in lines
    assert lines[-1] == "Contest over after exchange 6: Ann wins."


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (
            scenario([(H, "edge")]),
            'exchanges[0].flips.Bob: "edge" is not one of tails, heads',
        ),
        (
            {**scenario([]), "exchanges": [{"flips": {"Ann": H}}]},
            "exchanges[0].flips.Bob: missing",
        ),
        (
            {**scenario([]), "exchanges": [{"flips": {"Ann": H, "Zed": T, "Bob": T}}]},
            'exchanges[0].flips.Zed: no participant "Zed"',
        ),
        (
            {**scenario([]), "options": {"target": 0}},
            "options.target: must be at least 1, got 0",
        ),
        (
            {**scenario([]), "options": {"victories": 3}},
            "options.victories: unknown key",
        ),
        (
            scenario([(H, T)] * 4),  # Ann wins at the third
            "exchanges[3]: the contest ended at exchange 3",
        ),
        (
            {**scenario([]), "participants": [{"name": "Ann"}, {"name": "Bob", "side": "Ann"}]},
            "participants: a contest needs at least two sides",
        ),
    ],
    ids=[
        "no such face",
        "a coin missing",
        "a stranger",
        "target 0",
        "unknown option",
        "over",
        "one side",
    ],
)
def test_a_bad_scenario_exits_2_naming_the_place(
    tmp_path: Path, data: dict[str, object], line: str
) -> None:
    done = run(["resolve", "-"], tmp_path, tmp_path / "site", stdin=json.dumps(data))
    assert (done.returncode, done.stderr.strip(), done.stdout) == (2, line, "")


def test_more_than_two_sides_and_a_team(coin: None) -> None:
    """Three sides, Red a team of Ann and Cat (Ann, its first member, flips for it). Ann
    and Bob heads, Cy tails: two heads, a tie. Bob alone heads: Bob scores. All tails: a
    tie. Cat's coin is refused: Ann flips for Red."""
    from core.rules.reading import ScenarioError
    from core.scenario import load

    people = [
        {"name": "Ann", "side": "Red"},
        {"name": "Cat", "side": "Red"},
        {"name": "Bob"},
        {"name": "Cy"},
    ]
    data = {
        "system": "coin",
        "participants": people,
        "exchanges": [
            {"flips": {"Ann": H, "Bob": H, "Cy": T}},
            {"flips": {"Ann": T, "Bob": H, "Cy": T}},
            {"flips": {"Ann": T, "Bob": T, "Cy": T}},
        ],
    }
    out = load(json.dumps(data).encode()).to_json()
    assert [e["winner"] for e in out["exchanges"]] == [None, "Bob", None]
    assert out["score"] == {"Red": 0, "Bob": 1, "Cy": 0}
    data["exchanges"] = [{"flips": {"Ann": T, "Cat": H, "Bob": T, "Cy": T}}]
    with pytest.raises(
        ScenarioError, match=r"exchanges\[0\]\.flips\.Cat: Cat does not flip: Ann flips for Red"
    ):
        load(json.dumps(data).encode())


def test_a_hidden_participants_coin_is_kept_from_the_players(coin: None) -> None:
    from core.scenario import load

    exchange = load(json.dumps(RACE).encode()).exchanges[2]  # Ann tails, Bob heads
    rules = find_system("coin")
    assert rules.describe(exchange, Secrets(participants=frozenset({"Bob"}))) == [
        "Exchange 3: Bob scores (1–1)",
        "  Ann: tails",
        "  Bob: ??",
    ]
    assert rules.describe(exchange, Secrets(contest=True))[1:] == ["  Ann: ??", "  Bob: ??"]


def test_a_point_of_luck_flips_a_coin_again(coin: None) -> None:
    """Ann has 1 luck, Bob none. Ann tails, Bob heads: Bob would score; Ann spends her
    luck and flips heads: two heads, a tie. Her luck is spent (0 left), so a second
    flip again is refused, and so is Bob's (he has none)."""
    from core.engine import apply
    from core.errors import NoPoints
    from core.model import Participant, ResolveExchange, RollDice
    from tests.plugins.coin_race.rules import CoinOptions, new_contest

    people = [Participant(name="Ann", side="Ann"), Participant(name="Bob", side="Bob")]
    state = new_contest(people, CoinOptions(target=3), luck={"Ann": 1})
    for command in (RollDice(who="Ann", faces=(1,)), RollDice(who="Bob", faces=(2,))):
        state, _ = apply(state, command)
    state, _ = apply(state, RollDice(who="Ann", faces=(2,)))  # again: a point of luck
    rules = find_system("coin")
    assert rules.points(state, "Ann") == (0, "luck")
    with pytest.raises(NoPoints, match="Ann has flipped; no luck left to flip again"):
        apply(state, RollDice(who="Ann", faces=(1,)))
    with pytest.raises(NoPoints, match="Bob has flipped; no luck left"):
        apply(state, RollDice(who="Bob", faces=(1,)))
    state, events = apply(state, ResolveExchange())
    (resolved,) = events
    assert rules.describe(resolved) == [
        "Exchange 1: a tie (0–0)",
        "  Ann: heads (flipped again: 1 luck)",
        "  Bob: heads",
    ]
    assert list(rules.spent(resolved)) == [("Ann", "luck", 1)]
    assert rules.points(state, "Ann") == (0, "luck")


# -- tussle odds -----------------------------------------------------------------------------


def test_odds_after_one_exchange(tmp_path: Path) -> None:
    """At 1–0, first to 3. The next exchange: Ann alone heads is one throw of four (1/4),
    Bob's likewise, the other two (both heads, both tails) tie (1/2). The race: ties
    change nothing and each scoring exchange is Ann's or Bob's alike, so Ann wins when
    she gets 2 of the next 4 scoring exchanges before Bob gets 3: 1 - (1 + 4)/16 = 11/16."""
    data = scenario([(H, T)])
    done = run(["odds", write(tmp_path / "race.json", data)], tmp_path, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    odds = json.loads(done.stdout)
    assert odds["system"] == "coin" and odds["after_exchange"] == 1
    assert odds["score"] == {"Ann": 1, "Bob": 0}
    sides = odds["exchange"]["sides"]
    assert (sides["Ann"]["win_exact"], sides["Bob"]["win_exact"]) == ("1/4", "1/4")
    assert odds["exchange"]["tie_exact"] == "1/2"
    contest = odds["contest"]["sides"]
    assert (contest["Ann"]["win_exact"], contest["Bob"]["win_exact"]) == ("11/16", "5/16")

    text = run(["odds", str(tmp_path / "race.json"), "--text"], tmp_path, tmp_path / "site")
    assert "Coin race odds after exchange 1" in text.stdout
    assert "Score: Ann 1, Bob 0 (first to 3)" in text.stdout
    assert "Ann  wins  68.8%" in text.stdout  # 11/16 = 68.75%


def test_odds_with_a_coin_already_flipped(tmp_path: Path) -> None:
    """Ann's coin is heads already: she scores if Bob's is tails (1/2), else a tie (1/2);
    Bob cannot score. The race: 1/2 of going to 1-0 (11/16 from there, above), 1/2 of
    staying at 0-0 (1/2 by symmetry): 11/32 + 8/32 = 19/32."""
    data = scenario([], next={"flips": {"Ann": H}})
    done = run(["odds", write(tmp_path / "next.json", data)], tmp_path, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    odds = json.loads(done.stdout)
    sides = odds["exchange"]["sides"]
    assert (sides["Ann"]["win_exact"], sides["Bob"]["win_exact"]) == ("1/2", "0")
    assert odds["exchange"]["tie_exact"] == "1/2"
    assert odds["contest"]["sides"]["Ann"]["win_exact"] == "19/32"


@cache
def race(score: tuple[int, ...], side: int, target: int) -> Fraction:
    """``side``'s chance to win from ``score`` when each scoring exchange goes to any side
    alike (the ties in between change nothing): written here from the rules alone."""
    if max(score) >= target:
        return Fraction(int(score[side] >= target))
    k = len(score)
    return (
        sum(
            (race((*score[:i], score[i] + 1, *score[i + 1 :]), side, target) for i in range(k)),
            Fraction(0),
        )
        / k
    )


def test_three_sides_odds(coin: None) -> None:
    """Three sides, nothing flipped: each alone heads is 1 throw of 8, a tie 5/8; the race
    is 1/3 each. With Ann's heads known: she scores when both others are tails (1/4), and
    the race is 1/4 of Ann's chance from 1-0-0 plus 3/4 of 1/3."""
    from core.odds.next import load_for_odds
    from core.odds.report import odds_for

    people = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
    plain = odds_for(load_for_odds(json.dumps({"system": "coin", "participants": people}).encode()))
    assert {o["win_exact"] for o in plain["exchange"]["sides"].values()} == {"1/8"}
    assert plain["exchange"]["tie_exact"] == "5/8"
    assert {o["win_exact"] for o in plain["contest"]["sides"].values()} == {"1/3"}

    known = {"system": "coin", "participants": people, "next": {"flips": {"Ann": H}}}
    odds = odds_for(load_for_odds(json.dumps(known).encode()))
    assert odds["exchange"]["sides"]["Ann"]["win_exact"] == "1/4"
    assert odds["exchange"]["tie_exact"] == "3/4"
    expected = Fraction(1, 4) * race((1, 0, 0), 0, 3) + Fraction(3, 4) * Fraction(1, 3)
    assert odds["contest"]["sides"]["Ann"]["win_exact"] == str(expected)


# -- a campaign: record, check, export -------------------------------------------------------


def test_a_recorded_race_checks_and_exports(tmp_path: Path) -> None:
    saves, site = tmp_path / "saves", tmp_path / "site"
    saves.mkdir()
    race_file = write(tmp_path / "race.json", RACE)
    done = run(["--saves", str(saves), "resolve", race_file, "--record", "Coins"], tmp_path, site)
    assert done.returncode == 0, done.stderr
    # 2 characters, the start, one action per exchange and the write-back: 10 entries.
    check = run(["--saves", str(saves), "check", "Coins"], tmp_path, site)
    assert check.returncode == 0, check.stderr
    assert check.stdout.strip() == (
        'OK "Coins" (coins): coin, 10 log entries, 2 characters, 1 contest, 6 exchanges'
    )
    exported = run(["--saves", str(saves), "export", "Coins", "--format", "json"], tmp_path, site)
    assert exported.returncode == 0, exported.stderr
    doc = json.loads(exported.stdout)
    assert doc["system"] == "coin"
    (contest,) = doc["contests"]
    assert contest["winner"] == "Ann" and contest["score"] == {"Ann": 3, "Bob": 1}
    assert contest["options"] == {"target": 3}
    assert [e["winner"] for e in contest["exchanges"]] == RACE_WINNERS
    recap = run(["--saves", str(saves), "export", "Coins", "--format", "markdown"], tmp_path, site)
    assert recap.returncode == 0, recap.stderr
    assert "### Exchange 3: Bob scores (1–1)" in recap.stdout
    assert "**Result:** Ann won, 3 points to 1" in recap.stdout


# -- without the plug-in -----------------------------------------------------------------------


def test_without_the_plug_in_a_coin_race_is_refused_in_one_line(tmp_path: Path) -> None:
    saves, site = tmp_path / "saves", tmp_path / "site"
    saves.mkdir()
    race_file = write(tmp_path / "race.json", RACE)
    made = run(["--saves", str(saves), "resolve", race_file, "--record", "Coins"], tmp_path, site)
    assert made.returncode == 0, made.stderr

    resolve = run(["resolve", race_file], tmp_path, None)
    assert (resolve.returncode, resolve.stderr.strip()) == (
        2,
        'system: "coin" is not one of fate, heroquest, forge',
    )
    opener = run(["--saves", str(saves), "open", "New", "--system", "coin"], tmp_path, None)
    assert (opener.returncode, opener.stderr.strip()) == (
        2,
        'tussle: no rule system "coin" (try fate, heroquest, forge)',
    )
    # The saved campaign: its files are named, the system too (README: exit 1 for what
    # cannot be read), and nothing is changed.
    check = run(["--saves", str(saves), "check", "Coins"], tmp_path, None)
    assert check.returncode == 1
    missing = (
        f'{saves / "coins" / "manifest.json"}: this campaign plays "coin", a rule system no '
        "installed plug-in provides (installed: fate, heroquest, forge); install its "
        "plug-in to open it"
    )
    assert missing in check.stderr
    assert "damaged" not in check.stderr.lower()  # nothing to restore: it is whole
    exported = run(["--saves", str(saves), "export", "Coins"], tmp_path, None)
    assert exported.returncode == 1
    assert missing in exported.stderr
    watched = run(["--saves", str(saves), "watch", "Coins"], tmp_path, None)
    assert watched.returncode == 1  # not "no campaign": it is there, its system is not
    assert missing in watched.stderr
    for done in (resolve, opener, check, exported, watched):
        assert "Traceback" not in done.stdout + done.stderr
    again = run(["--saves", str(saves), "check", "Coins"], tmp_path, site)
    assert again.returncode == 0, again.stdout + again.stderr  # installed again: whole
