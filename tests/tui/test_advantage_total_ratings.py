"""Issue 24, item 11: an advantage's total and its opposition read a rating as every
other layer does: the Fate ladder's words (rules §1.1: Great is +4, Fair +2) or a number;
anything else is refused under its field."""

from __future__ import annotations

import pytest

from tui.fields import FieldError
from tui.systems.fate.keys import _rating


def test_an_advantage_total_takes_a_ladder_word() -> None:
    answers = {"result": "Great", "opposition": "fair"}
    assert (_rating(answers, "result"), _rating(answers, "opposition")) == (4, 2)
    assert _rating({"result": "+3"}, "result") == 3


def test_a_total_that_is_no_rating_is_refused_under_its_field() -> None:
    with pytest.raises(FieldError) as refused:
        _rating({"result": "Greatish"}, "result")
    assert refused.value.key == "result"
