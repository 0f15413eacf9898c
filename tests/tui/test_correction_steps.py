"""A correction's steps without a screen (issue 26 item 5: the contest screen composed).

README "Keys": while correcting an exchange, ``u`` takes back the correction's last change
instead (a die, an action), and with none left asks whether to leave the correction;
``Esc`` leaves the exchange as it was, asked first once the correction changed something.
``tui.correction.Correction`` keeps those steps; the screen asks it.
"""

from __future__ import annotations

from core.model import Contest, SetModifier
from tui.correction import Correction
from tui.draft import Draft


def test_u_takes_back_the_last_change_then_there_is_none_left() -> None:
    correction = Correction(2, Contest(participants=()))
    draft = Draft(typed={"Cynere": "+0-0", "Teran": "000"})
    correction.note(draft)  # the keypad as C left it: no change yet
    assert not correction.changed
    draft.typed["Teran"] = "000+"
    correction.note(draft)
    draft.extras.append(SetModifier(who="Cynere", value=2))
    correction.note(draft)
    assert correction.changed

    assert correction.step_back(draft)  # the modifier goes, the die stays
    assert draft.extras == [] and draft.typed["Teran"] == "000+"
    assert correction.step_back(draft)  # then the die
    assert draft.typed == {"Cynere": "+0-0", "Teran": "000"}
    assert not correction.changed
    assert not correction.step_back(draft)  # none left: the screen asks to leave
    assert draft.typed == {"Cynere": "+0-0", "Teran": "000"}


def test_a_repaint_that_changed_nothing_is_no_step() -> None:
    correction = Correction(1, Contest(participants=()))
    draft = Draft(typed={"Hero": "12"})
    for _ in range(3):
        correction.note(draft)
    assert not correction.changed
