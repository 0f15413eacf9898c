"""Issue 24, item 14: the group exchange's form gives its example in the contest's own
names (it named a "Ghoul" in contests that had none)."""

from __future__ import annotations

from core.systems.heroquest.state import HQParticipant, new_contest
from tui.systems.heroquest.keys import example_pairs


def test_the_pairs_example_names_who_takes_part() -> None:
    c = new_contest(
        [
            HQParticipant(name="Kai", side="Heroes", rating=15),
            HQParticipant(name="Mira", side="Heroes", rating=15),
            HQParticipant(name="Demon Lord", side="Demons", rating=24),
        ]
    )
    assert example_pairs(c) == "Kai v Demon Lord 14 13, Mira v Demon Lord 5 9"
