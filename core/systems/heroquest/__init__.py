"""HeroQuest-style d20 contests (Children of the Grave): one rule system, in one package.

By concern: ``ratings`` (linear ratings and masteries), ``resolution`` (one simple contest
scored: levels, bumps, victory levels, a ruled result), ``modifiers`` (augments,
stretches, extra opponents, group boosts), ``consequences`` (adversity and benefits),
``extended`` (extended contests' resolution points and final consequences), ``state``
(the contest between commands), ``events`` (commands and events), ``automatic`` (results
ruled without dice), ``wording`` (the log's lines, the JSON), ``rules`` (decide and
evolve), ``character`` (the roster's sheet); ``group_extended`` and ``group_play`` (group
extended contests: the pure rules, and the contest played through the engine), ``odds``
(exact chances), ``scenario`` (reading its scenario files), ``quick_roll``,
``roster_file`` and ``sheet`` (setting a contest up, writing it back, a new session). The
registry, ``core.rules``, finds each part through its ``Plugin``; callers import a name
from the module that defines it.

Importing the package loads the modules of its saved classes, so that ``core.files.codec``,
which loads a system by the first word of a tag (``heroquest.Augmented``), finds them all.
"""

from core.systems.heroquest import (  # noqa: F401
    automatic,
    character,
    events,
    group_play,
    resolution,
    state,
)
