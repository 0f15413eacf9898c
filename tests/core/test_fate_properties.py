"""Invariants of Fate contests under any sequence of GM actions, legal or not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.engine import apply, fold
from core.errors import RuleError
from core.model import Event
from core.rules.fate import ExchangeResolved, FateContest
from tests.strategies import fate_commands, fate_contests


@settings(max_examples=150, deadline=None)
@given(start=fate_contests(), data=st.data())
def test_fate_contest_invariants(start: FateContest, data: st.DataObject) -> None:
    state = start
    log: list[Event] = []
    for _ in range(data.draw(st.integers(5, 60))):
        command = data.draw(fate_commands(state))
        try:
            new, events = apply(state, command)
        except RuleError:
            continue  # refused: nothing may have changed
        assert isinstance(new, FateContest)
        # Victories only grow, and only one side scores per exchange.
        grown = [s for s in state.sides if new.victories[s] != state.victories[s]]
        assert all(new.victories[s] > state.victories[s] for s in grown)
        assert len(grown) <= 1
        # Fate points never go negative.
        assert all(p.fate_points >= 0 for p in new.participants)
        # The contest is over exactly when a side reached the target or someone attacked.
        reached = any(v >= new.options.victories_needed for v in new.victories.values())
        attacked = any(isinstance(e, ExchangeResolved) and e.attack for e in events)
        assert new.finished == (reached or attacked or state.finished)
        if new.finished and not state.finished:
            assert new.ended_by == ("attack" if attacked else "victories")
            assert (new.winner is None) == attacked
        state = new
        log.extend(events)
    # Folding the contest's events again gives the same state.
    assert fold(start, log) == state
