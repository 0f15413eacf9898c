"""The one exception family for bad input: everything a GM (or a file) can get wrong."""

from __future__ import annotations


class RuleError(ValueError):
    """The rules (or the shape of the input) forbid what was asked.

    ``str(error)`` is a sentence a GM can read; ``title`` is a short heading the
    dashboard shows above it.
    """

    title = "Not allowed"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownName(RuleError):
    """A participant, side or aspect that is not in the contest."""

    title = "Unknown name"


class NoPoints(RuleError):
    """Points spent that the participant (or the GM's pool) does not have; each system
    names its own kind (Fate's ``NoFatePoints``, HeroQuest's ``NoHeroPoints``)."""

    title = "No points left"


class ContestOver(RuleError):
    """An action on a contest that has already ended."""

    title = "Contest over"


class BadDice(RuleError):
    """Dice that cannot be what the table rolled."""

    title = "Bad dice"


class OutOfTurn(RuleError):
    """An action at the wrong moment of an exchange (an advantage after the rolls...)."""

    title = "Out of turn"
