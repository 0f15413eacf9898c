"""Fate on the roster: skills on the ladder, aspects, fate points and refresh (``ROSTER``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.campaign.log import Character, CharacterAction
from core.campaign.state import CampaignState
from core.dice import fate_glyphs, parse_fate_dice
from core.model import Command
from core.systems.fate import sheet as fate_system_sheet
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.conflict import Recover, character_slots, recovery_difficulty
from core.systems.fate.ladder import ladder_with_value, signed
from core.systems.fate.stress import consequences_text, written
from tui.fields import Answers, Field, FieldError, blame, whole_field
from tui.systems.roster_part import CharacterForm, Roll, RosterPart

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
        if slot.aspect is not None:  # a star once recovering (SRD: "mark it with a star")
            star = "*" if slot.recovery != "none" else ""
            text += f" · {slot.severity}: {slot.aspect}{star}"
    return text


# -- a recovery action (SRD, "Recovering from a Consequence") --------------------------------


def _treatable(c: Character) -> tuple[tuple[str, str], ...]:
    """The consequences a recovery action may start on: written, not yet recovering,
    not extreme (it has none); each with its difficulty: ``Broken Leg (moderate, Great)``."""
    return tuple(
        (
            f"{s.aspect} ({s.severity}, {ladder_with_value(recovery_difficulty(s.severity))})",
            s.aspect,
        )
        for s in fate_sheet(c).consequences or ()
        if s.aspect is not None and s.recovery == "none" and s.severity != "extreme"
    )


def _recovery_fields(c: Character) -> list[Field]:
    treatable = _treatable(c)
    if not treatable:
        return []
    return [
        Field("consequence", "Consequence", treatable[0][1], treatable),
        Field(
            "by",
            "Who makes the recovery action",
            "other",
            (("someone else", "other"), ("themselves (difficulty +2)", "self")),
        ),
        Field("result", "The overcome's total (blank: skill + dice)", required=False),
        Field("skill", "The skill rolled (Good, +3), with the dice", required=False),
        Field(
            "dice",
            "The dice, like +0-0 (blank, with no total: Tussle rolls)",
            placeholder="Tussle rolls",
            required=False,
        ),
    ]


def _nothing(c: Character) -> str:
    if any(s.aspect is not None for s in fate_sheet(c).consequences or ()):
        return f"{c.name}'s consequences are all recovering already (or extreme: no recovery)."
    return f"{c.name} has no consequence to recover from."


def _recovery(a: Answers, c: Character, roll: Roll) -> tuple[Command, str]:
    """The recovery action the form describes: the total typed, or the skill and the
    dice (typed, or rolled by Tussle)."""
    if a["result"]:
        if a["dice"] or a["skill"]:
            raise FieldError("dice" if a["dice"] else "skill", "Either the total or skill and dice")
        with blame("result"):
            total = fate_system_sheet.typed_rating(a["result"])
        how = ""
    else:
        if not a["skill"]:
            raise FieldError("skill", "The skill rolled (or a total above)")
        with blame("skill"):
            skill = fate_system_sheet.typed_rating(a["skill"])
        with blame("dice"):
            faces = parse_fate_dice(a["dice"].replace("=", "+")) if a["dice"] else roll()
        total = skill + sum(faces)
        how = f"{fate_glyphs(faces)}: {signed(skill)} + {sum(faces)} = {ladder_with_value(total)}"
    action = Recover(consequence=a["consequence"], total=total, on_self=a["by"] == "self")
    return CharacterAction(who=c.name, action=action), how


def _fields(c: Character) -> list[Field]:
    sheet = fate_sheet(c)
    return [
        Field("aspects", "Aspects (separated by ;)", "; ".join(sheet.aspects), required=False),
        Field("fate_points", "Fate points", str(sheet.fate_points), required=False),
        Field("refresh", "Refresh", str(sheet.refresh), required=False),
        Field(
            "consequences",
            "Consequences (moderate: Broken Leg; a star: recovering)",
            consequences_text(sheet.consequences or ()),
            required=False,
        ),
    ]


def _changes(a: Answers, ratings: Mapping[str, int], old: Character | None) -> dict[str, Any]:
    """The sheet the form describes. Its consequences fill the character's slots (the
    sheet's own, or Fate Core's by Physique and Will); a sheet whose slots the rules
    derive and that has none written keeps deriving them."""
    kept = fate_sheet(old) if old is not None else FateCharacter()
    shapes = character_slots(ratings, kept)
    with blame("consequences"):
        slots = written(a.get("consequences", ""), shapes)
    derived = kept.consequences is None and all(s.free for s in slots)
    return {
        "sheet": FateCharacter(
            aspects=tuple(x.strip() for x in a.get("aspects", "").split(";") if x.strip()),
            fate_points=whole_field(a, "fate_points", 0, of=FateCharacter),
            refresh=whole_field(a, "refresh", 0, of=FateCharacter),
            consequences=None if derived else slots,
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
    scenarios=True,
    recovery=CharacterForm(
        title=lambda c: f"A recovery action for {c.name}",
        fields=_recovery_fields,
        nothing=_nothing,
        command=_recovery,
    ),
)
