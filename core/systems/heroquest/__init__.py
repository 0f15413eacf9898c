"""HeroQuest-style d20 contests (Children of the Grave): one rule system, in one package.

``rules`` (the contest: commands, events, decide and evolve, how an exchange is described),
``odds`` (exact chances), ``scenario`` (reading its scenario files) and ``sheet`` (what a
character holds; setting a contest up, writing it back, a new session). The registry,
``core.rules``, finds each part through its ``Plugin``. Importing the package gives
the rules' names (``from core.systems.heroquest import ...``).
"""

from core.systems.heroquest.automatic import *  # noqa: F403
from core.systems.heroquest.group_play import *  # noqa: F403
from core.systems.heroquest.rules import *  # noqa: F403
