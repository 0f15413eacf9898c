"""Issue 13, HeroQuest odds with an injured party: the odds score as the engine does.

The brute force below is written from rules §2.3 (levels, bumps, the low roll) and §2.8
(resolution points, first to 5), not from the engine's code, so the two can disagree.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from core.campaign.log import Character
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.engine import apply
from core.model import ResolveExchange, RollDice
from core.odds.report import odds_for
from core.systems.heroquest.character import HeroQuestCharacter
from core.systems.heroquest.odds import heroquest_contest_odds, heroquest_exchange_odds
from core.systems.heroquest.state import HQContest, HQOptions, HQParticipant, new_contest

CRIT, SUCCESS, FAILURE, FUMBLE = 3, 2, 1, 0
POINTS = {1: 1, 2: 2, 3: 3, 4: 5}  # marginal, minor, major, complete (§2.7 table)


def level(roll: int, target: int) -> int:
    """§2.3 step 3 for a target of 1-20."""
    if roll == 1:
        return CRIT
    if roll == 20:
        return FUMBLE
    return SUCCESS if roll <= target else FAILURE


def one_exchange(ta: int, tb: int, down_a: int, down_b: int) -> dict[tuple[str, int], int]:
    """Count (winner, victory) over the 400 roll pairs; ("", 0) a tie."""
    counts: dict[tuple[str, int], int] = {}
    for ra in range(1, 21):
        for rb in range(1, 21):
            la = max(FUMBLE, level(ra, ta) - down_a)  # an injury: one bump down each
            lb = max(FUMBLE, level(rb, tb) - down_b)
            if la != lb:
                key = ("a" if la > lb else "b", abs(la - lb) + 1)
            elif la == FUMBLE or ra == rb:
                key = ("", 0)
            else:
                key = ("a" if ra < rb else "b", 1)
            counts[key] = counts.get(key, 0) + 1
    return counts


def chance_a_wins_exchange(ta: int, tb: int, down_a: int, down_b: int) -> Fraction:
    counts = one_exchange(ta, tb, down_a, down_b)
    return Fraction(sum(n for (w, _), n in counts.items() if w == "a"), 400)


def chance_a_wins_extended(ta: int, tb: int, down_a: int, down_b: int) -> Fraction:
    """First to 5 resolution points; a tie lodges nothing (it is played again)."""
    counts = one_exchange(ta, tb, down_a, down_b)
    tie = Fraction(counts.get(("", 0), 0), 400)

    @cache
    def win(pa: int, pb: int) -> Fraction:
        if pa >= 5:
            return Fraction(1)
        if pb >= 5:
            return Fraction(0)
        total = Fraction(0)
        for (w, v), n in counts.items():
            if w == "a":
                total += Fraction(n, 400) * win(pa + POINTS[v], pb)
            elif w == "b":
                total += Fraction(n, 400) * win(pa, pb + POINTS[v])
        return total / (1 - tie)

    return win(0, 0)


def injured_contest(extended: bool) -> HQContest:
    return new_contest(
        [
            HQParticipant(name="Hurt", side="Hurt", rating=15, bumps_down=1),
            HQParticipant(name="Foe", side="Foe", rating=15),
        ],
        HQOptions(extended=extended),
    )


def test_the_brute_force_gives_the_issues_figures() -> None:
    # Issue 13: one injury, 15 against 15: 22.25 % for the exchange, 1.9 % extended.
    assert chance_a_wins_exchange(15, 15, 1, 0) == Fraction(2225, 10000)
    assert round(float(chance_a_wins_extended(15, 15, 1, 0)) * 100, 1) == 1.9


def test_exchange_odds_count_the_injured_partys_bump_down() -> None:
    odds = heroquest_exchange_odds(injured_contest(extended=False))
    assert odds is not None
    assert odds.win("Hurt") == chance_a_wins_exchange(15, 15, 1, 0) == Fraction(89, 400)
    assert odds.win("Foe") == 1 - Fraction(89, 400) - odds.tie


def test_extended_contest_odds_count_the_injury_in_every_exchange() -> None:
    odds = heroquest_contest_odds(injured_contest(extended=True))
    assert odds is not None
    assert odds.sides["Hurt"] == chance_a_wins_extended(15, 15, 1, 0)


def test_the_injury_counts_with_a_roll_already_in() -> None:
    # Hurt has rolled a 2: a success, bumped down to a failure. Foe's 1-15 (critical,
    # success) beat it; Foe's 16-19 are failures too, and Hurt's 2 is the lower roll:
    # Hurt wins those 4 marginally; Foe's 20 is a fumble: Hurt's minor victory.
    c, _ = apply(injured_contest(extended=False), RollDice(who="Hurt", faces=(2,)))
    assert isinstance(c, HQContest)
    odds = heroquest_exchange_odds(c)
    assert odds is not None
    assert odds.win("Hurt") == Fraction(5, 20)


def test_tussle_odds_json_shows_the_engines_figure() -> None:
    out = odds_for(injured_contest(extended=True))
    assert out["exchange"]["sides"]["Hurt"]["win_exact"] == "89/400"
    assert out["contest"]["sides"]["Hurt"]["win_exact"] == str(chance_a_wins_extended(15, 15, 1, 0))
    c, _ = apply(injured_contest(extended=True), RollDice(who="Hurt", faces=(3,)))
    c, _ = apply(c, RollDice(who="Foe", faces=(3,)))
    c, _ = apply(c, ResolveExchange())  # equal levels, equal rolls: a tie, nothing lodged
    assert isinstance(c, HQContest)
    out = odds_for(c)
    assert out["exchange"]["sides"]["Hurt"]["win_exact"] == "89/400"


@pytest.mark.parametrize(
    ("condition_a", "down_a", "condition_b", "down_b"),
    [
        (-3, 0, 0, 0),  # a hurt: 12 against 15
        (-9, 1, 3, 0),  # hurt and impaired, injured, against a +3 lingering benefit
        (5, 2, -6, 1),  # 20 (no mastery) and two injuries against an impaired, injured foe
        (0, 0, 0, 2),
    ],
)
def test_odds_in_every_state_match_the_brute_force(
    condition_a: int, down_a: int, condition_b: int, down_b: int
) -> None:
    for extended in (False, True):
        c = new_contest(
            [
                HQParticipant(
                    name="A", side="A", rating=15, condition=condition_a, bumps_down=down_a
                ),
                HQParticipant(
                    name="B", side="B", rating=15, condition=condition_b, bumps_down=down_b
                ),
            ],
            HQOptions(extended=extended),
        )
        ta, tb = 15 + condition_a, 15 + condition_b
        exchange = heroquest_exchange_odds(c)
        assert exchange is not None
        assert exchange.win("A") == chance_a_wins_exchange(ta, tb, down_a, down_b)
        contest = heroquest_contest_odds(c)
        assert contest is not None
        expected = (
            chance_a_wins_extended(ta, tb, down_a, down_b)
            if extended
            else chance_a_wins_exchange(ta, tb, down_a, down_b)
        )
        assert contest.sides["A"] == expected


@pytest.mark.parametrize(("ability", "target", "down"), [("Sword", 12, 1), ("Dance", 15, 0)])
def test_odds_from_the_roster_count_only_the_states_of_the_ability_used(
    ability: str, target: int, down: int
) -> None:
    # Kai is hurt (-3) and injured (a bump down) on Sword (rules §2.6): rolling Sword he is
    # 15 - 3 = 12 with a bump down; rolling Dance, not related, 15 with nothing. The
    # contest is set up from the roster as the dashboard does, and its odds (the
    # dashboard's and the players') must equal the brute force from the rules.
    kai = Character(
        name="Kai",
        ratings={"Sword": 15, "Dance": 15},
        sheet=HeroQuestCharacter(adversity_of={"Sword": ("hurt", "injured")}),
    )
    foe = Character(name="Foe", kind="npc", ratings={"Claws": 15})
    for extended in (False, True):
        c = build_contest(
            "heroquest",
            {"Kai": kai, "Foe": foe},
            [
                Pick(character="Kai", side="Kai", rating=ability),
                Pick(character="Foe", side="Foe", rating="Claws"),
            ],
            {"extended": extended},
        )
        assert isinstance(c, HQContest)
        exchange = heroquest_exchange_odds(c)
        assert exchange is not None
        assert exchange.win("Kai") == chance_a_wins_exchange(target, 15, down, 0)
        contest = heroquest_contest_odds(c)
        assert contest is not None
        expected = (
            chance_a_wins_extended(target, 15, down, 0)
            if extended
            else chance_a_wins_exchange(target, 15, down, 0)
        )
        assert contest.sides["Kai"] == expected
