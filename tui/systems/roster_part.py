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

from core.campaign.log import Character, Sheet
from core.campaign.state import CampaignState
from core.errors import RuleError
from core.limits import fields_of
from core.model import Command
from tui.fields import Answers, Field, whole_field

# Tussle's dice (the campaign system's) for a form the GM left without them.
Roll = Callable[[], tuple[int, ...]]


@dataclass(frozen=True, slots=True, kw_only=True)
class CharacterForm:
    """A system's own action on the roster's highlighted character (Fate: a recovery
    action on a consequence): the form's ``title``, its ``fields`` (none: nothing to do,
    ``nothing`` says why), and the command (``core.campaign.log.CharacterAction``) its
    answers make, with Tussle's dice (``Roll``) for what the GM left to roll, and how
    the dice went (``+0-0: +3 + 0 = Good (+3)``; blank for a total typed)."""

    title: Callable[[Character], str]
    fields: Callable[[Character], list[Field]]
    nothing: Callable[[Character], str]
    command: Callable[[Answers, Character, Roll], tuple[Command, str]]


# The fields a character form asks beyond name, kind and ratings, and what the answers
# change on the character (the ratings already read, for names spelled alike; the
# character as it was, None for a new one: what the form edits in place).
Changes = Callable[[Answers, Mapping[str, int], Character | None], dict[str, Any]]


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
    changes: Changes = lambda answers, ratings, old: {}
    awards: bool = False  # whether the roster's key awarding a point (k, a compel) applies
    session_reset: str = ""  # points a session start may reset every PC's to ("hero points")
    scenarios: bool = False  # whether the roster's key ending a scenario (E) applies
    recovery: CharacterForm | None = None  # the roster's r: a recovery action, where one is


def sheet_roster(kind: type[Sheet], **part: Any) -> RosterPart:
    """A :class:`RosterPart` whose State column, form fields and changes are the fields
    of the system's own part of a character (``kind``, ``Character.sheet``): each a whole
    number, read within the limit declared on it, named by its ``LABELS``."""
    names = fields_of(kind)

    def sheet(c: Character) -> Sheet:
        return c.sheet if isinstance(c.sheet, kind) else kind()

    def state(c: Character, campaign: CampaignState) -> str:
        return ", ".join(f"{kind.LABELS.get(k, k)} {getattr(sheet(c), k)}" for k in names)

    def form(c: Character) -> list[Field]:
        return [
            Field(k, kind.LABELS.get(k, k).capitalize(), str(getattr(sheet(c), k))) for k in names
        ]

    def changes(a: Answers, ratings: Mapping[str, int], old: Character | None) -> dict[str, Any]:
        return {"sheet": kind(**{k: whole_field(a, k, 0, of=kind) for k in names})}

    return RosterPart(**{"state": state, "fields": form, "changes": changes, **part})
