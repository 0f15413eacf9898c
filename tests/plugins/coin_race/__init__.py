"""A coin race: the fourth rule system, written as any table would write a plug-in.

Nothing of it lives in ``core/`` or ``tui/``: the registry finds it through the
``tussle.rule_systems`` entry point group (the tests install one pointing at
``PLUGIN``), and every generic part of Tussle (``tussle resolve``, ``odds``, ``check``,
``export``, the dashboard, the players' view, the recap) asks it through the contract's
base classes, whose defaults it keeps wherever a coin race has nothing to say.

The rules (``rules``): each side flips one coin an exchange, tossed by its first member
(a team's other members flip nothing); a face of a ``d2``, 2 heads and 1 tails. A side
scores one point when its coin is the only heads; any other throw (every coin tails,
two or more heads) is a tie and nobody scores. With two sides that is "heads beats tails,
a tie is a tie". The first side to the option ``target`` points (3 by default) wins.

``odds`` (exact chances), ``scenario`` (scenario JSON), ``sheet`` (the roster and setup)
and ``dashboard`` (the GM's panes and keypad rows) follow.
"""

from core.rules import Plugin

PACKAGE = __name__

PLUGIN = Plugin(
    name="coin",
    title="Coin race",
    rules=f"{PACKAGE}.rules:COIN",
    odds=f"{PACKAGE}.odds:COIN_ODDS",
    scenario=f"{PACKAGE}.scenario:COIN_READER",
    sheet=f"{PACKAGE}.sheet:SHEET",
    dashboard=f"{PACKAGE}.dashboard:VIEW",
)
