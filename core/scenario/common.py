"""Reading what every system's scenario has: the participants and their sides."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NoReturn, Protocol, TypeVar

from core.model import Command, Contest, Participant
from core.scenario.reader import Node, ScenarioError

P = TypeVar("P", bound=Participant)
Steps = Iterable[tuple[str, Command]]


class SystemReader(Protocol):
    """How one system's scenarios read (see scenario.md). Registered in ``READERS``."""

    top_keys: frozenset[str]  # top-level keys beyond system/options/participants/exchanges
    exchange_keys: frozenset[str]

    def read_contest(self, root: Node) -> Contest:
        """Options, participants (and aspects), in that order, as the starting contest."""
        ...

    def exchange_steps(self, ex: Node, current: Callable[[], Contest]) -> Steps:
        """The exchange's commands in order, each with the place a rule error names.

        Lazy: ``current()`` is the contest after the commands yielded so far.
        """
        ...

    next_keys: frozenset[str]  # the keys of ``next``, what is known of the coming exchange

    def next_steps(self, node: Node | None, current: Callable[[], Contest]) -> Steps:
        """``next``'s commands for the coming exchange (``tussle odds``), each with the
        place a rule error names; also the commands a missing ``next`` (``None``) implies
        (the previous exchange's parties...). Lazy, like ``exchange_steps``."""
        ...


def read_participants(
    root: Node, keys: Iterable[str], build: Callable[[Node, str, str], P]
) -> tuple[P, ...]:
    """``participants``: a list of objects with ``name``, optional ``side`` and ``keys``.

    ``build(item, name, side)`` reads the system's own fields. Names are unique and
    there must be at least two sides.
    """
    allowed = {"name", "side", *keys}
    node = root.need("participants")
    seen: set[str] = set()
    out: list[P] = []
    for item in node.items():
        item.check_keys(allowed)
        name = item.need("name").as_name()
        side_node = item.get("side")
        side = name if side_node is None else side_node.as_name()
        if name in seen:
            item.fail_key("name", f'"{name}" is listed twice')
        seen.add(name)
        out.append(build(item, name, side))
    if len({p.side for p in out}) < 2:
        node.fail("a contest needs at least two sides")
    return tuple(out)


def name_in(node: Node, names: Iterable[str], what: str = "participant") -> str:
    """A string that must be one of ``names``: ``no participant "Zird"`` otherwise."""
    name = node.as_str()
    if name not in set(names):
        node.fail(f'no {what} "{name}"')
    return name


def missing_next(node: Node | None, key: str, why: str) -> NoReturn:
    """``next.KEY: missing (why)``, or ``next: missing (why: give next.KEY)`` without
    a ``next``."""
    if node is None:
        raise ScenarioError("next", f"missing ({why}: give next.{key})")
    node.fail_key(key, f"missing ({why})")
