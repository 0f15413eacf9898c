"""The scenario's ``next``: what is known of the coming exchange, for ``tussle odds``.

``next`` is read by the system's scenario reader (its ``next_keys`` and ``next_steps``),
and each command it gives is played through the engine, as the dashboard would enter it,
so ``odds_for`` sees the contest a GM would have on the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.engine import apply
from core.errors import RuleError
from core.model import Command, Contest

if TYPE_CHECKING:  # the scenario readers load on demand (the dashboard never needs them)
    from core.rules.reading import Node


def load_for_odds(data: bytes) -> Contest:
    """Scenario bytes with an optional top-level ``next`` (what is known of the coming
    exchange) as the contest ``odds_for`` reads. ``ScenarioError`` names the first
    problem's place: the scenario's own first, then ``next``'s."""
    return read_for_odds(data)[0]


def read_for_odds(data: bytes) -> tuple[Contest, int]:
    """``load_for_odds``'s contest and the exchanges its scenario played, as the GM counts
    them (``RuleSystem.exchanges_played``, the recap's count:
    a conflict's exchanges, each participant acting once in one, not its actions)."""
    from core.rules import find_system
    from core.rules.reading import Node, parse_json
    from core.scenario import resolve

    raw = parse_json(data)
    upcoming: Any = None
    if isinstance(raw, dict) and "next" in raw:
        raw = dict(raw)
        upcoming = raw.pop("next")
    played = resolve(raw)
    count = find_system(played.contest.system).exchanges_played(played.exchanges)
    return apply_next(played.contest, None if upcoming is None else Node(upcoming, "next")), count


def apply_next(contest: Contest, node: Node | None) -> Contest:
    """``contest`` with the scenario's ``next`` applied through the rules' ``decide``,
    as the dashboard would enter it; ``ScenarioError`` at the place of a problem."""
    from core.rules import find_reader

    reader = find_reader(contest.system)
    if node is not None:
        node.check_keys(reader.next_keys)
        if contest.finished:
            node.fail(f"the contest ended at exchange {contest.n}")
    if contest.finished:
        return contest
    state = [contest]
    for place, command in reader.next_steps(node, lambda: state[0]):
        _run(state, place, command)
    return state[0]


def _run(state: list[Contest], place: str, command: Command) -> None:
    from core.rules.reading import ScenarioError

    try:
        state[0], _ = apply(state[0], command)
    except RuleError as error:
        raise ScenarioError(place, str(error)) from None
