"""Fate Core contests: one rule system, in one package.

``rules`` (the contest: commands, events, decide and evolve, how an exchange is described),
``odds`` (exact chances), ``scenario`` (reading its scenario files), ``sheet`` (what a
character holds; setting a contest up, writing it back, a new session) and ``conflict``
(stress, consequences, attacks: its saved values load with the rules, so a saved
``fate.Conflict`` decodes wherever the codec loads Fate by its tag). The registry,
``core.rules``, finds each part through its ``Plugin``. Importing the package gives
the rules' names (``from core.systems.fate import ...``).
"""

from core.systems.fate import conflict as conflict
from core.systems.fate.rules import *  # noqa: F403
