"""A rule system's part of the roster screen: how its ratings read and are typed, the
State column, the fields of its character form and what they change on the sheet.

Plain data and functions, like :class:`~tui.systems.screen_part.ScreenPart`: each system's
module in this package has one as ``ROSTER``, and the roster screen asks for it by the
campaign's system.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from core.campaign import CampaignState, Character
from core.errors import RuleError
from tui.fields import Answers, Field

# The fields a character form asks beyond name, kind and ratings, and what the answers
# change on the character (the ratings already read, for names spelled alike).
Changes = Callable[[Answers, Mapping[str, int]], dict[str, Any]]


def _whole(text: str) -> int:
    if not text.strip().lstrip("+-").isdigit() or len(text) > 13:
        raise RuleError(f'"{text}" is not a whole number')
    return int(text)


@dataclass(frozen=True, slots=True, kw_only=True)
class RosterPart:
    """Every part has a default: ratings as whole numbers, no State column, no fields
    beyond name, kind and ratings."""

    ratings_label: str = "Ratings (Name 3)"  # with an example: "Skills (Athletics 4)"
    rating_text: Callable[[int], str] = str  # a rating in the table: "+4", "4M", "50%"
    parse_rating: Callable[[str], int] = _whole  # as typed in the form: "4", "4M", "50"
    state: Callable[[Character, CampaignState], str] = lambda c, campaign: ""  # State column
    fields: Callable[[Character], list[Field]] = lambda c: []
    changes: Changes = lambda answers, ratings: {}
    awards: bool = False  # whether the roster's key awarding a point (k, a compel) applies
    session_reset: str = ""  # points a session start may reset every PC's to ("hero points")
