"""Fate on the contest setup screen: its options and the situation aspects (``SETUP``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.binding import Binding

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.errors import RuleError
from core.model import Contest
from core.systems.fate.conflict_play import FateConflict
from core.systems.fate.conflict_report import ATTACK, DEFENSE
from core.systems.fate.conflict_setup import (
    CONFLICT_OPTION,
    ORDER_OPTION,
    order_words,
    seats,
    split_options,
)
from core.systems.fate.ladder import signed
from core.systems.fate.scoring import FateOptions
from core.systems.fate.sheet import difficulty
from core.systems.fate.stress import KINDS
from tui.fields import Answers, Field, FieldError, blame, whole_field
from tui.systems.setup_part import (
    YES_NO,
    SetupActions,
    SetupKey,
    SetupKeys,
    SetupPart,
)
from tui.widgets.lines import e

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


PLAYS: tuple[tuple[str, str], ...] = (
    ("a contest (victories)", "contest"),
    ("a physical conflict (stress, consequences)", "physical"),
    ("a mental conflict (stress, consequences)", "mental"),
)


def _conflict(screen: SetupActions) -> None:
    """``k``: a conflict instead of a contest (issue 28: "n → conflict in setup"), its
    harm (physical or mental: the turn order by Notice or Empathy and their tie-breaks,
    SRD "Turn Order") and, if the GM wants another, the turn order (every participant
    once; blank: by the rules). The setup's summary shows the order it makes."""
    _, kind, order = split_options(screen.options)
    names = [p.character for p in screen.picks]
    roster = screen.tussle.campaign.roster
    by_rules = {k: ", ".join(seats(names, roster, k)) for k in KINDS}

    def parse(a: Answers) -> tuple[str, tuple[str, ...] | None]:
        typed = tuple(n.strip() for n in a["order"].split(",") if n.strip())
        if a["play"] == "contest" or not typed:
            return a["play"], None
        if sorted(typed) != sorted(names):
            raise FieldError(
                "order",
                f"Name everyone once, separated by commas: {', '.join(names)} "
                "(blank: by the rules)",
            )
        return a["play"], typed

    def then(chosen: tuple[str, tuple[str, ...] | None]) -> None:
        play, seated = chosen
        options = {
            k: v for k, v in screen.options.items() if k not in (CONFLICT_OPTION, ORDER_OPTION)
        }
        if play != "contest":
            options[CONFLICT_OPTION] = play
            if seated is not None:
                options[ORDER_OPTION] = list(seated)
        screen.options = options
        screen.reload()

    screen.form(
        "A contest or a conflict",
        [
            Field("play", "Play", kind or "contest", PLAYS),
            Field(
                "order",
                "Turn order (names, by commas; blank: by the rules)",
                ", ".join(order or ()),
                required=False,
                placeholder=f"physical: {by_rules['physical']} · mental: {by_rules['mental']}",
            ),
        ],
        parse,
        then,
    )


def _summary(screen: SetupActions) -> list[str]:
    """A conflict's turn order as it stands: ``Conflict: physical · turn order by Notice,
    then Athletics, then Physique: Cynere, Drisban (k)``; a contest says how to make it
    one (``k`` is not in the footer: there is no room at 80 columns)."""
    _, kind, order = split_options(screen.options)
    if kind is None:
        return ["[b]Conflict[/b]: no, a contest (k: a physical or mental conflict instead)"]
    names = [p.character for p in screen.picks]
    how = "the GM's" if order else order_words(kind)
    try:
        seated = ", ".join(seats(names, screen.tussle.campaign.roster, kind, order))
    except RuleError as error:
        seated = str(error)
    return [f"[b]Conflict[/b]: {kind} · turn order {e(how)}: {e(seated or 'nobody yet')} (k)"]


def _rolls_in_conflict(screen: SetupActions, pick: Pick) -> str | None:
    """A conflict's Rolls: each action rolls its own skill from the roster (SRD, Attack,
    Defend: Fight or Shoot, Athletics or Fight; mental: Provoke, Will), not the one rating
    a contest rolls, which the conflict does not use (``conflict_from``): ``by action:
    Fight +3, Athletics +4`` (numbers: ladder names run out of the column at 80 wide).
    One not on the roster has no skills there: Mediocre, whatever rating was typed for
    them. None for a contest."""
    try:
        _, kind, _ = split_options(screen.options)
    except RuleError:
        return None
    if kind is None:
        return None
    character = screen.tussle.campaign.roster.get(pick.character)
    if character is None:
        return "by action: +0 in all (not on the roster: no skills)"
    names = dict.fromkeys((*ATTACK[kind], *DEFENSE[kind]))
    have = [f"{s} {signed(character.ratings[s])}" for s in names if s in character.ratings]
    if not have:
        return f"by action: +0 in all (no {', '.join(names)})"
    return f"by action: {', '.join(have)}"


def _options_like(start: Contest, roster: Mapping[str, Character]) -> dict[str, Any]:
    """A setup like a conflict: the same harm, and the same turn order where the GM set
    it (one the rules give is worked out again from the roster, as the setup does)."""
    if not isinstance(start, FateConflict):
        return {}
    kind = start.conflict.kind
    seated = [x.name for x in start.conflict.combatants]
    by_rules = seats([p.name for p in start.participants], roster, kind)
    if tuple(seated) == by_rules:
        return {CONFLICT_OPTION: kind}
    return {CONFLICT_OPTION: kind, ORDER_OPTION: seated}


KEYS = (
    SetupKey("setup.options", Binding("t", "aspects", "Aspects", id="setup.aspects"), _situation),
    SetupKey(
        "setup.options",
        # Not in the footer: at 80 columns it pushed out H and Start (the help
        # screen and the palette list it; the summary's Conflict line names it).
        Binding("k", "conflict", "Conflict", id="setup.conflict", show=False),
        _conflict,
    ),
)


class FateSetupKeys(SetupKeys, keys=KEYS):
    """Fate's keys on the setup screen: situation aspects, a conflict."""


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
    keys=FateSetupKeys,
    kept_options=(CONFLICT_OPTION, ORDER_OPTION),
    summary=_summary,
    options_like=_options_like,
    rolls_instead=_rolls_in_conflict,
)
