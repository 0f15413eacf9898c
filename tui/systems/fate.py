"""Fate on the dashboard: the ladder, fate points, aspects with their free invokes; and
Fate's keys on the contest screen (invoke, advantage, attack, the GM's pool)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from textual.binding import Binding

from core.campaign import CampaignState, Character, ContestRecord
from core.dice import DiceKind, parse_fate_dice
from core.errors import RuleError
from core.model import Command, Contest
from core.redact import HIDDEN
from core.systems import fate
from core.systems.fate.sheet import difficulty
from tui.draft import Draft, Preview, dice_kind, faces_of, preview
from tui.fields import Answers, Field, FieldError, Follow, Options, blame, whole
from tui.systems.common import cell, e, hidden_mark, pct, pips, secret_heading
from tui.systems.roster_part import RosterPart, number
from tui.systems.screen_part import ContestActions, Key, ScreenPart
from tui.systems.setup_part import (
    YES_NO,
    SetupActions,
    SetupKey,
    SetupPart,
    number_answer,
)
from tui.widgets.keypad import KeypadRow
from tui.widgets.lines import to_content

ROUND = "Exchange"  # what the scoreboard calls the coming round: "Exchange 2"
ASPECTS_TITLE = "Aspects"


def _own(state: Contest) -> fate.FateContest:
    assert isinstance(state, fate.FateContest)
    return state


def score(record: ContestRecord) -> tuple[str, dict[str, str]]:
    state = _own(record.state)
    need = state.options.victories_needed
    mode: str = state.options.mode
    if mode == "environment":
        mode += f" vs {fate.ladder_with_value(state.options.difficulty or 0)}"
    cells = {
        side: f"[$accent]{pips(state.victories.get(side, 0), need)}[/] "
        f"{state.victories.get(side, 0)}"
        for side in state.sides
    }
    return f"Fate {mode} · first to {need}", cells


def participants(record: ContestRecord) -> list[str]:
    state = _own(record.state)
    lines: list[str] = secret_heading(record)
    for side in state.sides:
        members = [p for p in state.participants if p.side == side]
        team = len(members) > 1
        if team:
            lines.append(f"[b]{e(side)}[/b] rolls {fate.ladder_with_value(state.rating(side))}")
        lead = state.lead(side).name
        pad = "  " if team else ""
        for p in members:
            mark = " (lead)" if team and p.name == lead else ""
            skill = record.uses.get(p.name, "skill")
            hidden = hidden_mark(record, p.name)
            lines.append(f"{pad}[b]{e(p.name)}[/b]{mark}  FP {p.fate_points}{hidden}")
            lines.append(f"{pad}  {e(skill)} {fate.ladder_with_value(p.skill)}")
    return lines


def gm_notes(record: ContestRecord) -> list[str]:
    """The GM's fate points for this scene."""
    pool = record.gm_pool
    return [f"[dim]GM pool: {pool} fate point{'s' if pool != 1 else ''}[/]"]


def aspects(state: Contest, hidden: Collection[str] = (), players: bool = False) -> list[str]:
    lines: list[str] = []
    for a in _own(state).aspects:
        secret = a.name in hidden
        name = HIDDEN if secret and players else a.name
        tags = ["hidden"] if secret and not players else []
        if a.boost:
            tags.append("boost")
        if a.free_invokes:
            holder = f" {e(a.holder)}" if a.holder else ""
            tags.append(f"[$accent]{'◆' * a.free_invokes}[/]{holder}")
        if a.owner:
            tags.append(f"{e(a.owner)}'s")
        tail = " · ".join(tags)
        if not tail:
            lines.append(e(name))
        elif to_content(line := f"{e(name)} [dim]{tail}[/]").cell_length <= 26:  # as shown
            lines.append(line)
        else:
            lines += [e(name), f"  [dim]{tail}[/]"]
    return lines or ["[dim]No aspects in play[/]"]


def rows(preview: Preview, draft: Draft) -> list[KeypadRow]:
    state = _own(preview.state)
    out = []
    for i, side in enumerate(preview.slots):
        typed = draft.typed.get(side, "")
        total = state.total(side)
        if total is None:
            partial = state.rating(side) + sum(faces_of(DiceKind.FATE, typed.ljust(4, "0")) or ())
            text = f"[dim]so far {fate.ladder_with_value(partial)}[/]"
        else:
            text = f"[b]{fate.ladder_with_value(total)}[/b]"
            if state.options.mode == "environment":
                shifts = total - (state.options.difficulty or 0)
                text += f" · {fate.signed(shifts)} shifts"
        dice = "".join(f"[{ch}]" for ch in typed) + "[ ]" * (4 - len(typed))
        out.append(KeypadRow(side, dice, text, i == draft.cursor))
    return out


def _totals(state: fate.FateContest) -> dict[str, int] | None:
    """Every rolling side's total, or None while a roll is missing."""
    totals = {s: state.total(s) for s in state.rolling_sides}
    if not totals or any(t is None for t in totals.values()):
        return None
    return {s: t for s, t in totals.items() if t is not None}


def verdict(preview: Preview, draft: Draft) -> str:
    state = _own(preview.state)
    totals = _totals(state)
    if totals is None:
        return ""
    if state.open.attack:
        return "[b]Commit: the attack ends the contest[/b]"
    scored = fate.score_exchange(state.options, totals)
    if scored.winner is not None:
        style = " with style" if scored.victories == 2 else ""
        plural = "ies" if scored.victories != 1 else "y"
        return f"⇒ [b]{e(scored.winner)}[/b] would win{style}: {scored.victories} victor{plural}"
    if scored.twist:
        return "⇒ [b]a tie[/b]: nobody scores, a twist enters play"
    return "⇒ nobody would score"


def twist_pending(state: Contest) -> bool:
    c = _own(state)
    totals = _totals(c)
    return totals is not None and not c.open.attack and fate.score_exchange(c.options, totals).twist


def odds_cells(
    exchange: dict[str, Any], contest_odds: dict[str, float | None], state: Contest
) -> tuple[dict[str, str], str]:
    """Each side's odds as scoreboard text (``contest_odds``: its chance at the contest), and
    the footer under them."""
    cells: dict[str, str] = {}
    for side, o in exchange["sides"].items():
        cells[side] = (
            cell(o["win"], contest_odds.get(side), "contest")
            if o.get("rolls", True)
            else "forfeits"
        )
    footer = f"tie {pct(exchange['tie'])}"
    if exchange.get("none"):
        footer += f" · nobody {pct(exchange['none'])}"
    # Only an invoke that would change what the GM reads is worth a line: none for a
    # side already sure of the exchange (100%), or whose +2 moves nothing.
    now = {side: o["win"] for side, o in exchange["sides"].items()}
    plus = {
        side: o
        for side, o in (exchange.get("plus_two") or {}).items()
        if pct(o["win"]) != pct(now.get(side))
    }
    if plus:
        side, best = max(plus.items(), key=lambda kv: kv[1]["win"] - now[kv[0]])
        footer += f" · one more +2 for {e(side)}: {pct(best['win'])}"
    return cells, footer


# -- the invoke form ----------------------------------------------------------------------


def invoke_effects(state: Contest) -> Options:
    """What an invoke can do here (rules §1.4.1); +2 to a passive opposition only where
    there is one (environment mode)."""
    effects: Options = (
        ("+2 to the roll", "+2"),
        ("reroll the dice", "reroll"),
        ("+2 to an ally's roll", "ally"),
    )
    if _own(state).options.mode == "environment":
        effects += (("+2 to the passive opposition", "oppose"),)
    return effects


def payments(state: Contest, by: str) -> Options:
    """How ``by`` can pay: a fate point or a free invoke, and for an NPC the GM's pool.
    A PC never draws on the pool: Fate Core has the GM spend it on behalf of NPCs."""
    c = _own(state)
    options: Options = (("a fate point", "fate point"), ("a free invoke", "free"))
    if by in c.npcs:
        options += ((f"the GM's pool ({c.gm_pool} left)", "pool"),)
    return options


def default_payment(state: Contest, by: str, aspect: str) -> str:
    """A free invoke when ``aspect`` has one ``by``'s side may use (a boost is only ever
    free); else, for an NPC with no points of his own, the GM's pool when it has any;
    else a fate point."""
    c = _own(state)
    found = c.aspect(aspect)
    who = next((p for p in c.participants if p.name == by), None)
    if found is not None and who is not None:
        if found.boost or (found.free_invokes > 0 and found.holder in (None, who.side)):
            return "free"
        if by in c.npcs and who.fate_points < 1 and c.gm_pool > 0:
            return "pool"
    return "fate point"


def other_sides(state: Contest) -> dict[str, Options]:
    """For each participant, the sides other than their own: whose roll an ally's +2
    goes to, or which side faces a raised opposition."""
    c = _own(state)
    return {p.name: tuple((s, s) for s in c.sides if s != p.side) for p in c.participants}


def describe_extra(command: Command) -> str | None:
    match command:
        case fate.CreateAdvantage():
            on = f" on {command.on}" if command.on else ""
            return (
                f"Advantage: {e(command.by)} creates {e(command.aspect)}{e(on)} "
                f"({fate.signed(command.result)} vs {fate.signed(command.opposition)})"
            )
        case fate.InvokeAspect():
            how = "free" if command.free else "GM's pool" if command.pool else "1 FP"
            what = {"+2": "+2", "reroll": "reroll", "oppose": "+2 opposition"}[command.effect]
            target = f" for {command.target}" if command.target else ""
            return f"Invoke: {e(command.by)} · {e(command.aspect)} ({how}) {what}{e(target)}"
        case fate.DeclareAttack():
            return f"[b]Attack by {e(command.by)}: the contest ends as a conflict[/b]"
    return None


# -- the contest screen's Fate keys ---------------------------------------------------------


def _invoke(screen: ContestActions) -> None:
    """Who, which aspect, what it does, how it is paid; then only what that kind of
    invoke needs. The payment defaults to a free invoke the invoker's side may use, else
    (an NPC out of points) the GM's pool, and follows the invoker and the aspect."""
    state = _own(preview(screen.state, screen.draft).state)
    aspects = tuple(
        (f"{a.name}" + (f" ({a.free_invokes} free)" if a.free_invokes else ""), a.name)
        for a in state.aspects
    )
    if not aspects:
        screen.message = "No aspects in play to invoke."
        screen.refresh_keypad()
        return
    current = screen.current() or ""
    by = next((p.name for p in state.participants if p.side == current), "")
    by = by or state.participants[0].name
    others = other_sides(state)
    fields = [
        Field("by", "Who invokes", by, screen.names()),
        Field("aspect", "Aspect", aspects[0][1], aspects),
        Field("effect", "What it does", "+2", invoke_effects(state)),
        Field(
            "how",
            "Paid with",
            default_payment(state, by, aspects[0][1]),
            payments(state, by),
        ),
        Field(
            "ally",
            "Whose roll gets the +2",
            follows="by",
            choices_by=others,
            shown_when=("effect", "ally"),
        ),
        Field(
            "opposed",
            "The side facing the raised opposition",
            follows="by",
            choices_by=others,
            shown_when=("effect", "oppose"),
        ),
        Field(
            "dice",
            "New dice (like +0-0; blank: Tussle rolls)",
            required=False,
            shown_when=("effect", "reroll"),
        ),
    ]

    def payment(a: Answers) -> tuple[Options, str]:
        by, aspect = a.get("by", ""), a.get("aspect", "")
        return payments(state, by), default_payment(state, by, aspect)

    def command(a: Answers) -> Command:
        effect = a["effect"]
        faces = None
        if effect == "reroll":
            with blame("dice"):
                faces = (
                    parse_fate_dice(a["dice"])
                    if a["dice"]
                    else screen.tussle.dice.roll(dice_kind(screen.state))
                )
        target = {"ally": a.get("ally"), "oppose": a.get("opposed")}.get(effect) or None
        return fate.InvokeAspect(
            by=a["by"],
            aspect=a["aspect"],
            free=a["how"] == "free",
            pool=a["how"] == "pool",
            effect="reroll" if effect == "reroll" else "oppose" if effect == "oppose" else "+2",
            faces=faces,
            target=target,
        )

    screen.ask(
        "Invoke an aspect",
        fields,
        command,
        rule_field="how",  # no fate points, an empty pool...
        follow=Follow("how", ("by", "aspect"), payment),
    )


def _advantage(screen: ContestActions) -> None:
    names = screen.names()
    screen.ask(
        "Create an advantage (before the rolls)",
        [
            Field("by", "Who creates it", names[0][1], names),
            Field("aspect", "Aspect"),
            Field("on", "Placed on", "", (("(the scene)", ""), *names), required=False),
            Field("result", "Their total (skill + dice + bonuses)"),
            Field("opposition", "Opposition (defence or difficulty)"),
        ],
        lambda a: fate.CreateAdvantage(
            by=a["by"],
            aspect=a["aspect"],
            on=a["on"] or None,
            result=whole(a["result"], "result"),
            opposition=whole(a["opposition"], "opposition"),
        ),
    )


def _attack(screen: ContestActions) -> None:
    names = screen.names()
    screen.ask(
        "Someone attacks: the contest becomes a conflict",
        [Field("by", "Who attacks", names[0][1], names)],
        lambda a: fate.DeclareAttack(by=a["by"]),
    )


def _pool(screen: ContestActions) -> None:
    """The GM's pool pays for an NPC outside an invoke (refusing a compel, a stunt):
    invokes pay from it in their own form (``i``), compels on NPCs fill it (``k``)."""
    from core.campaign import SpendFromPool

    record = screen.tussle.campaign.contest(screen.contest_id)
    npcs = tuple((n, n) for n in sorted(_own(record.state).npcs) if n)
    # What invokes waiting on the keypad leave: they pay when the exchange commits.
    pool = _own(preview(screen.state, screen.draft).state).gm_pool
    if not npcs:
        screen.notify("No NPC in this contest: the GM's pool pays only for NPCs.")
        return
    if pool < 1:
        waiting = record.gm_pool - pool
        why = f" ({waiting} for invokes waiting on the keypad)" if waiting > 0 else ""
        screen.notify(f"The GM's pool is empty{why}.", severity="warning")
        return

    def chosen(answers: Answers | None) -> None:
        if answers is not None:
            screen.tussle.send(
                SpendFromPool(
                    contest_id=screen.contest_id, by=answers["by"], reason=answers["reason"]
                )
            )

    screen.form(
        f"The GM's pool pays 1 ({pool} left)",
        [
            Field("by", "For", npcs[0][1], npcs),
            Field(
                "reason",
                "What for",
                "refuses a compel",
                (("refuses a compel", "refuses a compel"), ("a stunt", "uses a stunt")),
            ),
        ],
        "An invoke pays from the pool in its own form (i). Enter: pay · Esc: cancel",
        chosen,
    )


SCREEN = ScreenPart(
    keys=(
        Key("redo", Binding("i", "invoke", "Invoke", id="invoke"), _invoke),
        Key("redo", Binding("a", "advantage", "Advantage", id="advantage"), _advantage),
        Key("redo", Binding("k", "attack", "Attack", id="attack", show=False), _attack),
        Key(
            "summary",
            Binding("P", "pool", "GM's pool pays for an NPC", id="pool", show=False),
            _pool,
        ),
    ),
    modifier_choices=lambda state: tuple((s, s) for s in state.sides),  # a side's roll
)


# -- the roster ------------------------------------------------------------------------------


def _state(c: Character, campaign: CampaignState) -> str:
    """``FP 2/3`` (fate points and refresh), and what they are in the contest being played."""
    text = f"FP {c.fate_points}/{c.refresh}"
    record = campaign.playing(c.name)
    if record is not None:
        p = next(p for p in record.state.participants if p.name == c.name)
        in_play = getattr(p, "fate_points", None)
        if in_play is not None and in_play != c.fate_points:
            text += f" ({in_play} in play)"
    return text


def _fields(c: Character) -> list[Field]:
    return [
        Field("aspects", "Aspects (separated by ;)", "; ".join(c.aspects), required=False),
        Field("fate_points", "Fate points", str(c.fate_points), required=False),
        Field("refresh", "Refresh", str(c.refresh), required=False),
    ]


def _changes(a: Answers, ratings: Mapping[str, int]) -> dict[str, Any]:
    return {
        "aspects": tuple(x.strip() for x in a.get("aspects", "").split(";") if x.strip()),
        "fate_points": number(a, "fate_points", "Fate points"),
        "refresh": number(a, "refresh", "Refresh"),
    }


def _rating(text: str) -> int:
    try:
        return int(text.replace("+", ""))
    except ValueError:
        raise RuleError(f"{text} is not a number") from None


ROSTER = RosterPart(
    ratings_label="Skills (Athletics 4, Lore 3)",
    rating_text=fate.signed,
    parse_rating=_rating,
    state=_state,
    fields=_fields,
    changes=_changes,
    compel=True,
)


# -- the contest setup -----------------------------------------------------------------------


def _options_from(a: Answers) -> dict[str, Any]:
    out: dict[str, Any] = {
        "mode": a["mode"],
        "victories_needed": number_answer(a, "victories_needed"),
        "style_threshold": number_answer(a, "style_threshold"),
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
