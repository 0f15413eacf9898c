"""Coin race scenarios, for ``tussle resolve`` and ``tussle odds``::

    {"system": "coin",
     "options": {"target": 3},
     "participants": [{"name": "Ann"}, {"name": "Bob", "side": "Bob"}],
     "exchanges": [{"flips": {"Ann": "heads", "Bob": "tails"}}],
     "next": {"flips": {"Ann": "heads"}}}

``options.target`` (a whole number from 1, default 3) is the points to reach. A
participant has a ``name`` and an optional ``side`` (their own by default). Each exchange
has ``flips``: every flipper's coin, ``"heads"`` or ``"tails"``, by name; a side's
flipper is its first member (a teammate's coin is refused). ``next`` (``tussle odds``
only) gives the coins of the coming exchange already known, any of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from core.model import Command, Contest, Participant, ResolveExchange, RollDice
from core.rules.reading import Node, SystemReader, read_participants
from tests.plugins.coin_race.rules import FACES, CoinOptions, flippers, new_contest


def _coins(node: Node, contest: Contest, every: bool) -> Iterator[tuple[str, Command]]:
    """``flips``' coins as commands; with ``every``, a flipper left out is missing."""
    names = {p.name for p in contest.participants}
    who_flips = flippers(contest)
    for name, coin in node.entries():
        if name not in names:
            coin.fail(f'no participant "{name}"')
        if name not in who_flips:
            side = contest.participant(name).side
            coin.fail(f"{name} does not flip: {contest.members(side)[0].name} flips for {side}")
        face = FACES[coin.as_str(tuple(FACES))]
        yield coin.place, RollDice(who=name, faces=(face,))
    if every:
        for name in who_flips:
            if not node.has(name):
                node.fail_key(name, "missing")


class CoinReader(SystemReader):
    exchange_keys = frozenset({"flips"})
    next_keys = frozenset({"flips"})

    def read_contest(self, root: Node) -> Contest:
        node = root.get("options")
        target = 3
        if node is not None:
            node.check_keys(("target",))
            target = node.int_("target", 3, of=CoinOptions)
        participants = read_participants(
            root, (), lambda _, name, side: Participant(name=name, side=side)
        )
        return new_contest(participants, CoinOptions(target=target))

    def exchange_steps(
        self, ex: Node, current: Callable[[], Contest]
    ) -> Iterator[tuple[str, Command]]:
        yield from _coins(ex.need("flips"), current(), every=True)
        yield ex.place, ResolveExchange()

    def next_steps(
        self, node: Node | None, current: Callable[[], Contest]
    ) -> Iterator[tuple[str, Command]]:
        flips = None if node is None else node.get("flips")
        if flips is not None:
            yield from _coins(flips, current(), every=False)


COIN_READER = CoinReader()
