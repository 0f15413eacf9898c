"""What a browser seat may ask for (issue 30, item 9): the terminal's size it asks for
(in the page's address, then in each resize) is brought within 1x1 and 500x200; what is
no whole number counts as the default 80x24. The e2e tests (tests/e2e/test_seats_*.py)
see what a watcher draws."""

from __future__ import annotations

import pytest

from tui.serve import terminal_size


@pytest.mark.parametrize(
    ("asked", "given"),
    [
        ((100, 30), (100, 30)),
        (("100", "30"), (100, 30)),  # as the page's address says it
        ((500, 200), (500, 200)),
        ((501, 201), (500, 200)),
        ((20000, 20000), (500, 200)),  # once a 3.4 GB watcher
        (("20000", 10**30), (500, 200)),
        ((0, 0), (1, 1)),
        ((-5, "-7"), (1, 1)),
        ((100.9, 30.2), (100, 30)),  # whole cells
        (("wide", None), (80, 24)),
        (("1e9", ""), (80, 24)),
        ((float("inf"), float("nan")), (80, 24)),
        (([500], {"rows": 3}), (80, 24)),
    ],
)
def test_a_browser_gets_a_terminal_within_bounds(
    asked: tuple[object, object], given: tuple[int, int]
) -> None:
    assert terminal_size(*asked) == given
