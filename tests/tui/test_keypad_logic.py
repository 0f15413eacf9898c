"""The roll keypad's logic without a screen (issue 26 item 5: the keypad owns its logic).

``tui.keypad.Keypad`` is driven here as the contest screen drives it, on each demo's
contest held in memory: no app, no Pilot. The expected drafts come from README "Keys":
digits are a d20 face that moves on as soon as no other digit could follow, and right
after the keypad moved on by itself the first ``Tab`` is that move ("``1`` ``4`` ``Tab``
``9`` gives 14 and 9"); four Fate dice move on to the next roller; ``Backspace`` takes
back the last die typed; ``r`` / ``R`` let Tussle roll for the current roller / for
everyone still to roll.
"""

from __future__ import annotations

import pytest

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, StartContest
from core.campaign.setup import build_contest
from core.campaign.sheet import find_sheet
from core.dice import DiceKind
from core.errors import BadDice
from core.model import Contest
from tui.keypad import Keypad


def demo_contest(system: str) -> Contest:
    """The system's demo contest, as ``tussle`` creates it (core.cli.demo), in memory."""
    demo = find_sheet(system).demo()
    campaign = Campaign(name="Demo", system=system)
    for c in demo.characters:
        campaign.act(AddCharacter(character=c))
    contest = build_contest(system, campaign.roster, demo.picks, demo.options or {}, demo.aspects)
    campaign.act(StartContest(title=demo.title, contest=contest))
    return campaign.contest("c1").state


def keypad(system: str, rolls: tuple[int, ...] = ()) -> Keypad:
    state = demo_contest(system)
    return Keypad(lambda: state, lambda kind: rolls)


def test_a_d20_roll_moves_on_and_the_next_tab_is_that_move() -> None:
    pad = keypad("heroquest")
    first, second = pad.slots()
    for key in "14":
        assert pad.type(key)
    assert pad.current() == second  # 14: no third digit could follow
    pad.move(1)  # the move the keypad made already, not a second one
    assert pad.current() == second
    pad.type("9")
    assert pad.draft.typed == {first: "14", second: "9"}


def test_four_fate_dice_move_on_and_backspace_on_an_empty_roller_takes_back_the_one_before() -> (
    None
):
    pad = keypad("fate")
    first, second = pad.slots()
    for key in "+0-0":
        pad.type(key)
    assert pad.current() == second
    assert pad.erase()
    assert pad.current() == first
    assert len(pad.draft.typed[first]) == 3  # its last die taken back
    assert not pad.draft.typed.get(second)


def test_a_face_no_die_has_is_refused_and_nothing_is_typed() -> None:
    pad = keypad("heroquest")
    pad.type("2")
    with pytest.raises(BadDice):
        pad.type("5")  # 25: no d20 shows it
    assert pad.draft.typed == {pad.slots()[0]: "2"}


def test_tussle_rolls_for_one_then_for_everyone_still_to_roll() -> None:
    pad = keypad("heroquest", rolls=(7,))
    first, second = pad.slots()
    assert pad.roll(everyone=False)
    assert pad.draft.typed == {first: "7"}
    assert pad.draft.sources[first] == "tussle"
    pad.move(-1)  # back on the first, rolled already: R rolls for the second alone
    pad.roll(everyone=True)
    assert pad.draft.typed == {first: "7", second: "7"}


def test_the_keypad_plays_on_the_contest_it_is_given() -> None:
    shown = [demo_contest("fate")]
    pad = Keypad(lambda: shown[0], lambda kind: (0,) * (4 if kind is DiceKind.FATE else 1))
    assert pad.names() == tuple((p.name, p.name) for p in shown[0].participants)
    shown[0] = demo_contest("heroquest")  # the screen's contest changed (a correction)
    assert pad.names() == tuple((p.name, p.name) for p in shown[0].participants)
