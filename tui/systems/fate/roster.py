"""Fate on the roster: skills on the ladder, aspects, fate points and refresh (``ROSTER``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.campaign.log import Character
from core.campaign.state import CampaignState
from core.systems.fate import sheet as fate_system_sheet
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.ladder import signed
from tui.fields import Answers, Field, whole_field
from tui.systems.roster_part import RosterPart

# -- the roster ------------------------------------------------------------------------------


def _state(c: Character, campaign: CampaignState) -> str:
    """``FP 2/3`` (fate points and refresh), and what they are in the contest being played;
    then the consequences the character carries (``mild: Bruised Shoulder``), which a
    conflict leaves on the sheet until they recover (SRD, "Stress and Consequences")."""
    sheet = fate_sheet(c)
    text = f"FP {sheet.fate_points}/{sheet.refresh}"
    record = campaign.playing(c.name)
    if record is not None:
        p = next(p for p in record.state.participants if p.name == c.name)
        in_play = getattr(p, "fate_points", None)
        if in_play is not None and in_play != sheet.fate_points:
            text += f" ({in_play} in play)"
    for slot in sheet.consequences or ():
        if slot.aspect is not None:
            text += f" · {slot.severity}: {slot.aspect}"
    return text


def _fields(c: Character) -> list[Field]:
    sheet = fate_sheet(c)
    return [
        Field("aspects", "Aspects (separated by ;)", "; ".join(sheet.aspects), required=False),
        Field("fate_points", "Fate points", str(sheet.fate_points), required=False),
        Field("refresh", "Refresh", str(sheet.refresh), required=False),
    ]


def _changes(a: Answers, ratings: Mapping[str, int]) -> dict[str, Any]:
    return {
        "sheet": FateCharacter(
            aspects=tuple(x.strip() for x in a.get("aspects", "").split(";") if x.strip()),
            fate_points=whole_field(a, "fate_points", 0, of=FateCharacter),
            refresh=whole_field(a, "refresh", 0, of=FateCharacter),
        )
    }


ROSTER = RosterPart(
    ratings_label="Skills (Athletics 4, Lore 3)",
    rating_text=signed,
    parse_rating=fate_system_sheet.typed_rating,  # 4, +4, -1, Great: as everywhere (issue 24)
    state=_state,
    fields=_fields,
    changes=_changes,
    awards=True,
)
