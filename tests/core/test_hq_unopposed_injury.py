"""Issue 24, item 3: HeroQuest, the level shown for a party whose opponent's target is 0
or less takes an injury's bump down (rules §2.3 step 5, after masteries: A-H2).

Worked by hand: Kai at 14, injured, rolls 7. Step 3: 7 <= 14 is a Success (2). No
masteries. Step 5: one automatic bump down: Failure (1). The opponent at 0 suffers a
complete defeat without rolling (step 1), so Kai still wins, completely."""

from __future__ import annotations

from core.systems.heroquest.resolution import (
    COMPLETE,
    FAILURE,
    FUMBLE,
    SUCCESS,
    Party,
    simple_contest,
)


def test_an_injured_winner_against_a_target_of_zero_shows_the_bump_down() -> None:
    out = simple_contest(Party(target=14, roll=7, bumps_down=1), Party(target=0))
    assert out.levels == (FAILURE, FUMBLE)
    assert (out.winner, out.victory) == ("a", COMPLETE)


def test_masteries_then_the_bump_down_then_hero_points() -> None:
    # 4M (24: base 4, one mastery) rolls 7: Failure (1), the mastery bumps it to Success
    # (2), the injury back to Failure (1), a hero point up to Success (2).
    out = simple_contest(Party(target=0), Party(target=24, roll=7, bumps_down=1, hero_points=1))
    assert out.levels == (FUMBLE, SUCCESS)
    assert (out.winner, out.victory) == ("b", COMPLETE)
