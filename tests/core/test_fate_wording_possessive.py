"""Fate's refusals name a side's roll in good English (issue 24, item 22): "Heroes'
roll", not "Heroes's roll"."""

from __future__ import annotations

import pytest

from core.engine import play
from core.errors import RuleError
from core.model import RollDice
from core.systems.fate.events import InvokeAspect
from core.systems.fate.state import Aspect, FateParticipant, new_contest


@pytest.mark.parametrize(
    ("side", "whose"), [("Heroes", "Heroes' roll"), ("Cynere", "Cynere's roll")]
)
def test_an_aspect_paid_for_twice_on_one_roll_names_the_roll(side: str, whose: str) -> None:
    contest = new_contest(
        [
            FateParticipant(name="Cynere", side=side, skill=4, fate_points=3),
            FateParticipant(name="Teran", side="Foes", skill=3),
        ],
        aspects=[Aspect(name="Deep Mud")],
    )
    invoke = InvokeAspect(by="Cynere", aspect="Deep Mud")
    with pytest.raises(RuleError) as refused:
        play(contest, [RollDice(who=side, faces=(0, 0, 0, 0)), invoke, invoke])
    assert f'"Deep Mud" has already been paid for on {whose}' in str(refused.value)
