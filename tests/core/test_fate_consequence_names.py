"""A consequence is a new aspect on the character (SRD, "Consequences"): one whose name
is an aspect already in play, said in another case or spacing ("bruised ribs" where
"Bruised Ribs" is), is that aspect again, not a second one, and is refused with a clear
message, as a second consequence by one name in one absorption is (issue 28's leftovers,
item 3). Another name is taken."""

from __future__ import annotations

import pytest

from core.engine import play
from core.errors import RuleError
from core.systems.fate.conflict import Absorption
from core.systems.fate.conflict_play import Absorb, FateConflict
from tests.conflict_campaigns import attack, opening


def hit_on_drisban(*aspects: str) -> FateConflict:
    """SRD, Attack: Cynere (Fight Good +3) rolls ++00, Superb (+5); Drisban (Fight Great
    +4) rolls -000, Good (+3): a 2-shift hit waits on him, which a mild (2) absorbs."""
    c, _ = play(opening(*aspects), (attack("Cynere", "++00", "-000"),))
    assert isinstance(c, FateConflict) and c.hit is not None and c.hit.shifts == 2
    return c


def mild(name: str) -> Absorb:
    return Absorb(who="Drisban", absorption=Absorption(track="physical", slots=(0,)), names=(name,))


@pytest.mark.parametrize("typed", ["bruised ribs", "BRUISED RIBS", " Bruised  ribs "])
def test_a_consequence_named_as_an_aspect_in_play_in_another_case_is_refused(
    typed: str,
) -> None:
    c = hit_on_drisban("Bruised Ribs")
    with pytest.raises(RuleError, match='"Bruised Ribs" is already in play'):
        play(c, (mild(typed),))


def test_another_name_is_taken() -> None:
    c = hit_on_drisban("Bruised Ribs")
    after, _ = play(c, (mild("Bruised Knee"),))
    assert isinstance(after, FateConflict)
    assert [a.name for a in after.aspects] == ["Bruised Ribs", "Bruised Knee"]
