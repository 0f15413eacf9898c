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


class NoFatePoints(RuleError):
    """A paid invoke by somebody with no fate points left."""

    title = "No fate points"


class NoHeroPoints(RuleError):
    """Hero points spent that the participant does not have."""

    title = "No hero points"


class ContestOver(RuleError):
    """An action on a contest that has already ended."""

    title = "Contest over"


class BadDice(RuleError):
    """Dice that cannot be what the table rolled."""

    title = "Bad dice"


class OutOfTurn(RuleError):
    """An action at the wrong moment of an exchange (an advantage after the rolls...)."""

    title = "Out of turn"
