"""Fate on the contest setup screen: its options and the situation aspects (``SETUP``)."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from core.systems.fate.scoring import FateOptions
from core.systems.fate.sheet import difficulty
from tui.fields import Answers, Field, FieldError, blame, whole_field
from tui.systems.setup_part import (
    YES_NO,
    SetupActions,
    SetupKey,
    SetupPart,
)

# -- the contest setup -----------------------------------------------------------------------


def _options_from(a: Answers) -> dict[str, Any]:
    out: dict[str, Any] = {
        "mode": a["mode"],
        "victories_needed": whole_field(a, "victories_needed", of=FateOptions),
        "style_threshold": whole_field(a, "style_threshold", of=FateOptions),
        "style_clause": a["style_clause"],
        "teamwork_cap": a["teamwork_cap"],
        "failed_advantage": a["failed_advantage"],
        "environment_requires_success": a["environment_requires_success"] == "yes",
    }
    if a.get("difficulty"):
        with blame("difficulty"):
            out["difficulty"] = difficulty(a["difficulty"])
    elif a["mode"] == "environment":
        raise FieldError("difficulty", "an environment contest needs a difficulty")
    return out


def _situation(screen: SetupActions) -> None:
    """The situation aspects the contest starts with (``;`` between them)."""

    def then(aspects: list[str]) -> None:
        screen.situation = aspects
        screen.reload()

    screen.form(
        "Situation aspects",
        [Field("aspects", "Aspects (separated by ;)", "; ".join(screen.situation), required=False)],
        lambda a: [x.strip() for x in a["aspects"].split(";") if x.strip()],
        then,
    )


SETUP = SetupPart(
    no_skill="No relevant skill: Mediocre (+0)",
    typed_example="Great or +4",
    option_fields=(
        Field(
            "mode",
            "Mode",
            "direct",
            (
                ("direct: sides roll against each other", "direct"),
                ("environment: everyone against a difficulty", "environment"),
            ),
        ),
        Field(
            "difficulty",
            "Difficulty (environment mode): a ladder name or a number (Great, +4)",
            "",
            required=False,
        ),
        Field("victories_needed", "Victories needed", "3"),
        Field("style_threshold", "Shifts for style", "3"),
        Field(
            "style_clause",
            "Style",
            "core",
            (
                ("core: two victories only if nobody else has style", "core"),
                ("fae: two victories whenever", "fae"),
            ),
        ),
        Field(
            "teamwork_cap",
            "Teamwork",
            "none",
            (("Core: no cap", "none"), ("Condensed: capped at the lead's skill", "lead_skill")),
        ),
        Field(
            "failed_advantage",
            "A failed advantage",
            "forfeit",
            (("forfeits the roll (Core)", "forfeit"), ("succeeds at a cost (Condensed)", "cost")),
        ),
        Field(
            "environment_requires_success",
            "Environment: nobody scores below 0 shifts",
            "no",
            YES_NO,
        ),
    ),
    options_from=_options_from,
    rolls_by_side=True,
    situation_aspects=True,
    keys=(
        SetupKey(
            "setup.options", Binding("t", "aspects", "Aspects", id="setup.aspects"), _situation
        ),
    ),
)
