"""Fate Core contests and conflicts: one rule system, in one package.

By concern: ``ladder`` (the ladder's names), ``scoring`` (an exchange scored: options,
teamwork, advantages' outcomes, victories and twists), ``state`` (the contest between
commands), ``events`` (commands and events), ``pool`` (the GM's fate points), ``wording``
(the log's lines, the JSON), ``rules`` (a contest's decide and evolve), ``character``
(the roster's sheet), ``stress`` (stress tracks and consequence slots); ``conflict``,
``conflict_odds``, ``conflict_play``, ``conflict_scenario``, ``conflict_setup``,
``conflict_report`` and ``throws`` (conflicts: stress, consequences, attacks, played
through the engine); ``play`` (the system the registry loads: contests and conflicts as
one), ``odds`` (exact chances), ``scenario`` (reading its scenario files),
``quick_roll``, ``roster_file`` and ``sheet`` (setting a contest up, writing it back, a
new session). The registry, ``core.rules``, finds each part through its ``Plugin``;
callers import a name from the module that defines it.

Importing the package loads the modules of its saved classes, so that ``core.files.codec``,
which loads a system by the first word of a tag (``fate.AspectInvoked``), finds them all.
"""

from core.systems.fate import (  # noqa: F401
    character,
    conflict,
    conflict_play,
    events,
    scoring,
    state,
    stress,
)
