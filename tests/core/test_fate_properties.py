"""Invariants of Fate contests under any sequence of GM actions, mostly legal ones.

The commands come from ``fate_moves``: what a GM at the table does next (an advantage,
the rolls, invokes, the resolution), with one command in eight drawn from anything at all.
``--hypothesis-show-statistics`` shows how many runs resolved an exchange and how many
reached the contest's end.
"""

from __future__ import annotations

import json

from hypothesis import event, given
from hypothesis import strategies as st

from core.engine import apply, fold
from core.errors import RuleError
from core.files.codec import decode, encode
from core.model import Event
from core.systems.fate.events import ExchangeResolved
from core.systems.fate.state import FateContest
from tests.strategies import examples, fate_contests, fate_moves


@examples(times=2)
@given(start=fate_contests(), data=st.data())
def test_fate_contest_invariants(start: FateContest, data: st.DataObject) -> None:
    state = start
    log: list[Event] = []
    for _ in range(data.draw(st.integers(10, 60))):
        command = data.draw(fate_moves(state))
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
    exchanges = [e for e in log if isinstance(e, ExchangeResolved)]
    event(f"exchanges resolved: {min(len(exchanges), 3)}{'+' if len(exchanges) >= 3 else ''}")
    event(f"contest finished: {state.ended_by if state.finished else 'no'}")
    # Each side's victories are what the exchanges awarded it, one by one (rules §1.2).
    awarded = {side: 0 for side in start.sides}
    for e in exchanges:
        if e.winner is not None:
            awarded[e.winner] += e.victories
    assert dict(state.victories) == {s: start.victories[s] + awarded[s] for s in start.sides}
    assert state.n == start.n + len(exchanges)
    # The log as it is saved (JSON text) replays to the same contest: the events alone
    # carry everything, nothing is lost on the way to the disk and back.
    saved = json.loads(json.dumps(encode(log)))
    assert fold(start, decode(saved, list[Event])) == state
