"""Issue 24, item 5: a HeroQuest extended contest with three sides (scenario.md, clarified
2026-12-05): every side but the winner loses, each by its own difference from the winner's
resolution points (rising action, rules §2.8.6: 1-2 hurt, 3-4 impaired, 5-6 injured, 7
dying, 8+ dead); the victory level follows the closest loser; at 1 the winners are hurt.

Each exchange worked by hand (rules §2.3): three ratings of 15; a 1 is a critical, a 10 a
success, a 20 a fumble. Critical against success: one level, minor, 2 RP; critical against
fumble: three levels, complete, 5 RP. The contest ends when a side has 5."""

from __future__ import annotations

import json
from typing import Any

from core.scenario import resolve
from tests.conftest import SCENARIOS


def three_sides(*exchanges: dict[str, Any]) -> dict[str, Any]:
    return {
        "system": "heroquest",
        "options": {"extended": True},
        "participants": [
            {"name": "Hero", "side": "Heroes", "rating": "15"},
            {"name": "Foe", "side": "Foes", "rating": "15"},
            {"name": "Rival", "side": "Rivals", "rating": "15"},
        ],
        "exchanges": list(exchanges),
    }


def test_each_loser_by_its_own_difference_and_the_victory_by_the_closest() -> None:
    # Foe 2 (over Rival), Hero 2 (over Foe), Hero 5 (over Rival): Heroes 7, Foes 2,
    # Rivals 0. Foes lose by 5: injured; Rivals by 7: dying; victory by 5: major.
    scenario = json.loads((SCENARIOS / "heroquest-extended-three-sides.json").read_text())
    out = resolve(scenario).to_json()
    assert out["resolution_points"] == {"Heroes": 7, "Foes": 2, "Rivals": 0}
    assert (out["winner"], out["victory"]) == ("Heroes", "major")
    assert out["consequences"] == {"Foe": "injured", "Rival": "dying"}


def test_a_loser_one_point_behind_makes_it_marginal_and_hurts_the_winners() -> None:
    # Foe 2 (over Rival), Foe 2 (over Hero), Hero 5 (over Rival): Heroes 5, Foes 4,
    # Rivals 0. Foes lose by 1: hurt, and the Heroes are hurt too; Rivals by 5:
    # injured; victory by 1: marginal.
    out = resolve(
        three_sides(
            {"rolls": {"Foe": 1, "Rival": 10}},
            {"rolls": {"Foe": 1, "Hero": 10}},
            {"rolls": {"Hero": 1, "Rival": 20}},
        )
    ).to_json()
    assert out["resolution_points"] == {"Heroes": 5, "Foes": 4, "Rivals": 0}
    assert (out["winner"], out["victory"]) == ("Heroes", "marginal")
    assert out["consequences"] == {"Hero": "hurt", "Foe": "hurt", "Rival": "injured"}
