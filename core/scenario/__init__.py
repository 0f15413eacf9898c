"""Scenario JSON -> commands -> the engine -> the output of ``tussle resolve``.

The scenario is read in the order scenario.md fixes (``system``, the top level's unknown
keys, ``options``, ``participants``, ``aspects``, then each exchange), and each exchange's
commands run through the same ``decide``/``evolve`` path the dashboard uses, so the first
problem met is the one reported, with its place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.engine import apply
from core.errors import RuleError
from core.model import Command, Contest, ExchangeEvent
from core.rules import SYSTEM_NAMES, find_reader, find_system
from core.rules.base import JSON
from core.rules.reading import Node, ScenarioError, SystemReader, parse_json

COMMON_KEYS = frozenset({"system", "options", "participants", "exchanges"})

__all__ = ["Resolution", "load", "resolve"]


@dataclass(frozen=True, slots=True)
class Resolution:
    """A scenario played through: the final contest and one event per exchange."""

    start: Contest
    contest: Contest
    exchanges: tuple[ExchangeEvent, ...]
    actions: tuple[tuple[Command, ...], ...] = ()  # each exchange's commands, in order

    def to_json(self) -> JSON:
        rules = find_system(self.contest.system)
        return {
            "system": self.contest.system,
            "exchanges": [rules.exchange_json(e) for e in self.exchanges],
            "finished": self.contest.finished,
            "winner": self.contest.winner,
            **rules.final_json(self.contest),
        }

    def to_text(self) -> str:
        rules = find_system(self.contest.system)
        lines = [f"{rules.title} contest: {' vs '.join(self.contest.sides)}"]
        for event in self.exchanges:
            lines.extend(rules.describe(event))
        played = rules.exchanges_played(self.exchanges)  # a conflict's, not its actions
        if self.contest.finished:
            won = self.contest.winner or "nobody"
            lines.append(f"Contest over after exchange {played}: {won} wins.")
        else:
            lines.append(f"Contest still open after exchange {played}.")
        return "\n".join(lines)


def read_start(root: Node) -> tuple[SystemReader, Contest]:
    """The system's reader and the starting contest from a scenario's top level."""
    root.expect_object()
    system = root.need("system").as_str(choices=SYSTEM_NAMES)
    reader = find_reader(system)
    root.check_keys(COMMON_KEYS | reader.top_keys)
    return reader, reader.read_contest(root)


def resolve(data: Any) -> Resolution:
    """Play a parsed scenario; :class:`ScenarioError` names the first problem's place."""
    root = Node(data)
    reader, contest = read_start(root)
    start = contest
    exchanges: list[ExchangeEvent] = []
    actions: list[tuple[Command, ...]] = []
    state = [contest]  # the readers look at the contest as the commands change it
    node = root.get("exchanges")
    for ex in node.items() if node is not None else ():
        ex.check_keys(reader.exchange_keys)
        if state[0].finished:
            ex.fail(f"the contest ended at exchange {state[0].n}")
        commands: list[Command] = []
        for place, command in reader.exchange_steps(ex, lambda: state[0]):
            try:
                state[0], events = apply(state[0], command)
            except RuleError as error:
                raise ScenarioError(place, str(error)) from None
            commands.append(command)
            exchanges.extend(e for e in events if isinstance(e, ExchangeEvent))
        actions.append(tuple(commands))
    return Resolution(start, state[0], tuple(exchanges), tuple(actions))


def load(data: bytes) -> Resolution:
    """Parse and play scenario bytes (what ``tussle resolve`` reads)."""
    return resolve(parse_json(data))
