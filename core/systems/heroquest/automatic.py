"""HeroQuest contests the GM rules automatic: a result recorded without dice.

The seed: "We might decide some contests are automatic successes." The GM names the
party the ruling is about, whether it succeeds or fails, and the victory level (the
consequence level of rules §2.6): an automatic success is that party's victory at that
level, an automatic failure the other party's. It then counts as any simple contest
with that result (rules §2.3 step 7 onwards): in a chain it lodges the level's
resolution points against the loser (§2.7's table, §2.8.1; an extended contest ends at
5, §2.8.2); outside an extended contest the loser takes the level's state of adversity
and the winner its lingering benefit (§2.6). With no dice, nothing bumps it: it takes no
rolls, modifiers, augments, stretches, hero points, gambits or defensive responses.

Only the saved values live here (``rules`` scores them), so this module imports nothing
of the rules.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from core.errors import RuleError
from core.model import Command, Event, Saved

CODEC_TAG = "heroquest"  # saved as "heroquest.AutomaticResult", beside the contest's

Ruling = Literal["success", "failure"]
Level = Literal["marginal", "minor", "major", "complete"]
AUTOMATIC_LEVELS: tuple[Level, ...] = ("marginal", "minor", "major", "complete")
RULINGS: tuple[Ruling, ...] = ("success", "failure")


def level_named(text: str) -> Level:
    """The level ``text`` names (``"major"``); RuleError naming the four otherwise."""
    for level in AUTOMATIC_LEVELS:
        if level == text:
            return level
    raise RuleError(f'"{text}" is not a victory level: {", ".join(AUTOMATIC_LEVELS)}')


def ruling_named(text: str) -> Ruling:
    """``"success"`` or ``"failure"``; RuleError otherwise."""
    for ruling in RULINGS:
        if ruling == text:
            return ruling
    raise RuleError(f'"{text}" is not a ruling: success or failure')


class AutomaticResult(Saved):
    """``who``'s automatic ``result`` in this exchange, at victory level ``victory``."""

    who: str
    result: Ruling = "success"
    victory: Level = "marginal"

    @property
    def level(self) -> int:
        """The victory level as ``rules.VICTORIES`` counts it (marginal 1 .. complete 4)."""
        return AUTOMATIC_LEVELS.index(self.victory) + 1

    def words(self) -> str:
        """``"automatic success for Tripitaka (major)"``."""
        return f"automatic {self.result} for {self.who} ({self.victory})"


class RuleAutomatic(Command):
    """The GM rules the open exchange automatic: ``who`` succeeds (or fails) at level
    ``victory`` without dice."""

    before_rolls: ClassVar[bool] = True

    who: str
    result: Ruling = "success"
    victory: Level = "marginal"


class AutomaticRuled(Event):
    automatic: AutomaticResult
