"""Names are data (issue 17, item 12): what counts as a control character, how one is
shown, and the message that refuses one at entry."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.text import (
    control_in,
    control_problem,
    is_control,
    json_safe,
    refuse_control,
    visible,
    visible_lines,
)
from tests.strategies import examples

C0 = [chr(c) for c in range(0x20)]
C1 = [chr(c) for c in range(0x80, 0xA0)]
CONTROLS = [*C0, "\x7f", *C1]


def test_every_c0_c1_and_del_is_a_control_character_and_nothing_printable_is() -> None:
    assert all(is_control(c) for c in CONTROLS)
    assert len(CONTROLS) == 32 + 1 + 32
    printable = [chr(c) for c in range(0x20, 0x7F)] + ["\xa0", "é", "—", "◆", "Ω", "🎲"]
    assert not any(is_control(c) for c in printable)


def test_the_issues_names_are_shown_written_out() -> None:
    # A campaign named $'x\e]0;pwned\a' retitled the players' terminal; "Evil\ec" reset it.
    assert visible("x\x1b]0;pwned\x07") == "x\\x1b]0;pwned\\x07"
    assert visible("Evil\x1bc") == "Evil\\x1bc"
    assert visible("CSI\x9b2J") == "CSI\\x9b2J"  # a C1 CSI: one character, two bytes
    assert visible("a\rb\nc\td\x00\x7f") == "a\\x0db\\x0ac\\x09d\\x00\\x7f"
    assert visible("\ud800") == "\\ud800"  # a lone surrogate cannot even be printed


def test_a_message_keeps_its_line_breaks_and_nothing_else() -> None:
    assert visible_lines("first\x1b[2J\nsecond\r") == "first\\x1b[2J\nsecond\\x0d"


def test_markup_characters_are_plain_text_here() -> None:
    # Brackets and backslashes are the dashboard's concern (markup), not the terminal's.
    assert visible("Pinned [2") == "Pinned [2"
    assert visible("trailing \\") == "trailing \\"


@given(st.text(st.characters(exclude_categories=())))
def test_visible_text_holds_no_control_character(text: str) -> None:
    shown = visible(text)
    assert not any(is_control(c) for c in shown)
    assert control_problem(shown, "Name") is None


@given(st.text().filter(lambda t: not any(is_control(c) for c in t)))
def test_text_without_control_characters_is_shown_as_it_is(text: str) -> None:
    assert visible(text) == text
    assert refuse_control(text, "Name", ValueError) is text


@examples(3)
@given(st.text(), st.sampled_from(CONTROLS), st.text())
def test_a_control_character_anywhere_is_refused_with_the_field_named(
    before: str, control: str, after: str
) -> None:
    text = before + control + after
    problem = control_problem(text, "Aspect")
    assert problem is not None
    assert problem.startswith('Aspect "')
    assert "control character" in problem
    assert not any(is_control(c) for c in problem)  # the message itself is safe to print
    with pytest.raises(KeyError, match="control character"):
        refuse_control(text, "Aspect", KeyError)


def test_the_first_control_character_in_a_json_document_is_found_with_its_place() -> None:
    doc = {"name": "Seed", "log": [{"at": "now"}, {"character": {"name": "Evil\x1bc"}}]}
    assert control_in(doc) == ("log[1].character.name", "Evil\x1bc")
    assert control_in({"rolls": {"Teran\x07": "0000"}}) == ("rolls", "Teran\x07")  # a key
    assert control_in({"name": "Seed", "log": [1, 2.5, None, True]}) is None
    deep: object = "x\x9b"
    for _ in range(5000):  # deeper than Python's recursion limit
        deep = [deep]
    assert control_in(deep) == ("[0]" * 5000, "x\x9b")


# Any character, lone surrogates (left out of st.text() by default) included.
ANY_TEXT = st.text(st.characters(exclude_categories=()))


@given(st.recursive(ANY_TEXT | st.integers(), lambda kids: st.lists(kids, max_size=3)))
def test_json_made_safe_is_the_same_json_with_nothing_raw(value: object) -> None:
    dumped = json.dumps({"v": value}, ensure_ascii=False)
    safe = json_safe(dumped)
    assert json.loads(safe) == {"v": value}
    assert not any(is_control(c) for c in safe)
