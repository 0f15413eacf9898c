"""An aspect and its tags (free invokes and who holds them, boost, owner) share one line
of the Aspects pane when they fit in it as shown: the width that counts is what the GM
sees, not the markup around the free-invoke diamonds.

Found at 80 columns: "Pinned [2" with two free invokes held by Ann, "Pinned [2 ◆◆ Ann"
(17 cells), went onto two lines because the markup ``[$accent]…[/]`` was counted.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace
from rich.cells import cell_len
from textual.content import Content

from core.campaign.log import Character
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.systems.fate.state import Aspect, FateContest
from tui.systems import view

# The most an aspect and its tags may take on one line: the Aspects pane at 80x24 (32
# columns, less its border and padding) with a cell to spare.
LINE = 26


def contest_with(*aspects: Aspect) -> FateContest:
    roster = {
        "Ann": Character(name="Ann", ratings={"Fight": 2}),
        "Bo": Character(name="Bo", kind="npc", ratings={"Fight": 1}),
    }
    picks = [Pick(character=n, side=n, rating="Fight") for n in roster]
    built = build_contest("fate", roster, picks, {}, ())
    assert isinstance(built, FateContest)
    return replace(built, aspects=aspects)


def shown(lines: list[str]) -> list[str]:
    return [Content.from_markup(line).plain for line in lines]


def test_an_aspect_with_its_free_invokes_that_fits_is_one_line() -> None:
    state = contest_with(Aspect(name="Pinned [2", free_invokes=2, holder="Ann"))
    assert shown(view("fate").aspects(state)) == ["Pinned [2 ◆◆ Ann"]


@pytest.mark.parametrize(
    ("aspect", "lines"),
    [
        # 26 cells as shown: fits. 27: the tags go under the name, indented.
        (Aspect(name="Twenty-One Cells Wide", free_invokes=1, holder="Bo"), 1),  # + " ◆ Bo"
        (Aspect(name="Twenty-Two Cells Wide!", free_invokes=1, holder="Bo"), 2),
        (Aspect(name="Cornered", boost=True, owner="Ann"), 1),  # "Cornered boost · Ann's"
        # Wide characters take two cells each: 9 characters, 18 cells, + " ◆◆◆ Ann" = 26.
        (Aspect(name="泥だらけの地面と雨", free_invokes=3, holder="Ann"), 1),
        (Aspect(name="泥だらけの地面と雨", free_invokes=3, holder="Bo"), 1),
        (Aspect(name="泥だらけの地面と雨だ", free_invokes=3, holder="Bo"), 2),
    ],
)
def test_the_tags_go_on_the_next_line_only_when_the_line_is_too_wide(
    aspect: Aspect, lines: int
) -> None:
    got = shown(view("fate").aspects(contest_with(aspect)))
    assert len(got) == lines, got
    assert all(cell_len(line) <= LINE for line in got), got
    if lines == 2:
        assert got[0] == aspect.name
        assert got[1].startswith("  ")
