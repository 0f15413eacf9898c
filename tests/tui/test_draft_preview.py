"""The keypad's preview of a draft (tui.draft.preview) when the contest changed under the
draft: found by the Fate contest machine (a modifier typed for the next exchange, then a
correction of an earlier one that ends the contest, then ``m``: the preview replayed the
modifier on the ended contest and the app stopped on ContestOver)."""

from __future__ import annotations

import pytest

from core.engine import play
from core.errors import ContestOver
from core.model import ResolveExchange, RollDice, SetModifier
from core.systems.fate.state import FateContest
from tests.helpers import fate_dice, seed_race
from tui.draft import Draft, preview, try_extra


def teran_with_style() -> list[RollDice | ResolveExchange]:
    # Cynere Great (+4) rolls ----: +0; Teran Good (+3) rolls ++++: +7. Teran wins by 7,
    # three or more: with style, two victories.
    return [
        RollDice(who="Cynere", faces=fate_dice("----")),
        RollDice(who="Teran", faces=fate_dice("++++")),
        ResolveExchange(),
    ]


def test_a_modifier_typed_before_the_contest_ended_is_refused_in_the_preview_not_raised() -> None:
    running = seed_race()
    draft = Draft()
    try_extra(running, draft, SetModifier(who="Cynere", value=-3))  # fine while it runs
    # Two exchanges won with style: four victories, three needed. The contest is over.
    ended, _ = play(running, [*teran_with_style(), *teran_with_style()])
    assert isinstance(ended, FateContest) and ended.finished

    shown = preview(ended, draft)

    assert shown.error is not None and "ended" in shown.error
    assert shown.commands == []  # the modifier did not play
    assert shown.state == ended  # and the contest is as it was
    with pytest.raises(ContestOver):
        preview(ended, draft, strict=True)


def test_a_draft_still_good_previews_as_before() -> None:
    # The same modifier on the running contest plays, and the rolls typed after it.
    running = seed_race()
    draft = Draft(typed={"Cynere": "++00", "Teran": "0000"})
    try_extra(running, draft, SetModifier(who="Cynere", value=-3))

    shown = preview(running, draft)

    assert shown.error is None
    assert [type(c).__name__ for c in shown.commands] == ["SetModifier", "RollDice", "RollDice"]
    assert shown.slots == ["Cynere", "Teran"]
