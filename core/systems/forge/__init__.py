"""Iconoclast FORGE actor/reactor d100 contests: one rule system, in one package.

``rules`` (the contest: commands, events, decide and evolve, how an exchange is described),
``odds`` (exact chances), ``scenario`` (reading its scenario files) and ``sheet`` (what a
character holds; setting a contest up, writing it back, a new session). The registry,
``core.rules``, finds each part through its ``Plugin``. Importing the package gives
the rules' names (``from core.systems.forge import ...``).
"""

from core.systems.forge import beats as beats  # its saved classes decode in a fresh process
from core.systems.forge.rules import *  # noqa: F403
