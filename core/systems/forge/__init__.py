"""Iconoclast FORGE actor/reactor d100 contests: one rule system, in one package.

By concern: ``scoring`` (one stage scored: success, the number thrown, damage, the
reaction, armor), ``state`` (the contest between commands), ``stage`` (the open stage's
roles and the rolls it still needs), ``events`` (commands and events), ``wording`` (the
log's lines, the JSON), ``rules`` (a contest's decide and evolve), ``character`` (the
roster's sheet), ``modifiers`` (aiming, cover, distance); ``beat_round`` and ``beats``
(combat rounds by beats: the tracker, and the system the registry loads: stages and rounds
as one), ``odds`` (exact chances), ``scenario`` (reading its scenario files),
``quick_roll``, ``roster_file``, ``upgrade`` and ``sheet`` (setting a contest up, writing it
back, a new session). The registry, ``core.rules``, finds each part through its
``Plugin``; callers import a name from the module that defines it.

Importing the package loads the modules of its saved classes, so that ``core.files.codec``,
which loads a system by the first word of a tag (``forge.StageSet``), finds them all.
"""

from core.systems.forge import (  # noqa: F401
    beat_round,
    beats,
    character,
    events,
    scoring,
    state,
)
