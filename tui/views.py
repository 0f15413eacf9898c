"""What the panes say about a contest, as Rich markup lines. No widgets here.

Each system's state is shown its own way (Fate's ladder, HeroQuest's ``4M``, FORGE's
targets); these functions read the core's values and never compute rules themselves,
except through the core's own scoring functions.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.markup import escape

from core.campaign import ContestRecord
from core.model import Contest
from core.rules import fate, forge, heroquest

PIP_ON, PIP_OFF = "●", "○"


def e(text: object) -> str:
    return escape(str(text))


def pips(have: int, need: int) -> str:
    return PIP_ON * have + PIP_OFF * max(0, need - have)


# -- scoreboard -------------------------------------------------------------------------


def scoreboard(record: ContestRecord, campaign_name: str) -> list[str]:
    """Two lines: what contest this is, and who is ahead."""
    state = record.state
    title = f"[b]{e(record.title)}[/b] · {e(campaign_name)}"
    match state:
        case fate.FateContest():
            need = state.options.victories_needed
            mode_text: str = state.options.mode
            if mode_text == "environment":
                mode_text += f" vs {fate.ladder_with_value(state.options.difficulty or 0)}"
            head = f"{title} · Fate {mode_text} · first to {need}"
            score = "   ".join(
                f"{e(side)} [$accent]{pips(state.victories.get(side, 0), need)}[/] "
                f"{state.victories.get(side, 0)}"
                for side in state.sides
            )
        case heroquest.HQContest():
            opts = state.options
            kind = "extended" if opts.extended else "chained" if opts.chained else "simple"
            head = f"{title} · HeroQuest {kind} contest"
            if opts.chain:
                goal = 5 if opts.extended else None
                score = "   ".join(
                    f"{e(side)} " + (f"[$accent]{pips(rp, goal)}[/] " if goal else "") + f"{rp} RP"
                    for side, rp in state.resolution_points.items()
                )
            else:
                score = " vs ".join(e(s) for s in state.sides)
        case forge.ForgeContest():
            head = f"{title} · FORGE {'combat' if state.options.combat else 'contest'}"
            score = "   ".join(
                f"{e(side)} {wins} stage{'s' if wins != 1 else ''}"
                for side, wins in state.stage_wins.items()
            )
        case _:
            head, score = title, ""
    word = "Stage" if state.system == "forge" else "Exchange"
    exchange = f"{word} {state.n + 1}" if not state.finished else f"After {state.n}"
    if state.finished:
        verdict = f"[b reverse] {e(state.winner)} wins [/]" if state.winner else "[b]No winner[/]"
        ended = getattr(state, "ended_by", None)
        if ended == "attack":
            verdict = "[b reverse] Ended by an attack: now a conflict [/]"
        score = f"{score}   {verdict}"
    return [head, f"[b]{exchange}[/b]   {score}"]


# -- participants ------------------------------------------------------------------------


def participants(record: ContestRecord) -> list[str]:
    state = record.state
    uses = record.uses
    lines: list[str] = []
    match state:
        case fate.FateContest():
            for side in state.sides:
                members = state.members(side)
                if len(members) > 1:
                    total = state.rating(side)
                    lines.append(f"[b]{e(side)}[/b] rolls {fate.ladder_with_value(total)}")
                lead = state.lead(side).name
                for fp in state.participants:
                    if fp.side != side:
                        continue
                    skill = f"{e(uses.get(fp.name, 'skill'))} {fate.ladder_with_value(fp.skill)}"
                    mark = " (lead)" if len(members) > 1 and fp.name == lead else ""
                    pad = "  " if len(members) > 1 else ""
                    lines.append(f"{pad}[b]{e(fp.name)}[/b]{mark}  FP {fp.fate_points}")
                    lines.append(f"{pad}  {skill}")
        case heroquest.HQContest():
            states = adversity(record)
            for side in state.sides:
                multi = len(state.members(side)) > 1
                if multi:
                    lines.append(f"[b]{e(side)}[/b]")
                for hp in state.participants:
                    if hp.side != side:
                        continue
                    pad = "  " if multi else ""
                    vit = f" vit {hp.vitality:+d}" if hp.vitality else ""
                    left = state.hero_points_left.get(hp.name, hp.hero_points)
                    what = e(uses.get(hp.name, "rating"))
                    lines.append(f"{pad}[b]{e(hp.name)}[/b]  HP {left}")
                    lines.append(f"{pad}  {what} {heroquest.format_rating(hp.rating)}{vit}")
                    if hp.name in states:
                        lines.append(f"{pad}  [$warning]{e(states[hp.name])}[/]")
        case forge.ForgeContest():
            for p in state.participants:
                what = e(uses.get(p.name, "target"))
                role = ""
                if not state.finished:
                    actor, reactor = _roles(state)
                    role = (
                        " · acts" if p.name == actor else " · reacts" if p.name == reactor else ""
                    )
                lines.append(f"[b]{e(p.name)}[/b]{role}")
                lines.append(f"  {what} {p.target}%")
                if state.options.combat:
                    weapon = f"×{p.multiplier}"
                    if p.max_damage is not None:
                        weapon += f" max {p.max_damage}"
                    armor = ""
                    if p.armor:
                        capacity = state.armor_left.get(p.name)
                        armor = f" · armor {p.armor}" + (
                            f" ({capacity} left)" if capacity is not None else ""
                        )
                    lines.append(f"  {weapon} damage · trauma {state.trauma.get(p.name, 0)}")
                    if armor:
                        lines.append(f"  {armor.removeprefix(' · ')}")
    return lines


def _roles(state: forge.ForgeContest) -> tuple[str | None, str | None]:
    try:
        return forge.stage_roles(state)
    except Exception:  # roles not settled yet: no marks
        return state.actor, state.reactor


def adversity(record: ContestRecord) -> dict[str, str]:
    """Each HeroQuest participant's latest state of adversity in this contest."""
    found: dict[str, str] = {}
    for event in record.exchanges:
        if isinstance(event, heroquest.ExchangeResolved):
            for name, what in event.consequence.items():
                found[name] = what
    return found


# -- aspects / situation --------------------------------------------------------------------


def aspects(state: Contest) -> list[str]:
    lines: list[str] = []
    match state:
        case fate.FateContest():
            for a in state.aspects:
                tags = []
                if a.boost:
                    tags.append("boost")
                if a.free_invokes:
                    holder = f" {e(a.holder)}" if a.holder else ""
                    tags.append(f"[$accent]{'◆' * a.free_invokes}[/]{holder}")
                if a.owner:
                    tags.append(f"{e(a.owner)}'s")
                tail = " · ".join(tags)
                if not tail:
                    lines.append(e(a.name))
                elif len(a.name) + len(tail) < 26:
                    lines.append(f"{e(a.name)} [dim]{tail}[/]")
                else:
                    lines += [e(a.name), f"  [dim]{tail}[/]"]
            if not lines:
                lines.append("[dim]No aspects in play[/]")
        case heroquest.HQContest():
            hq = state.options
            lines.append(f"Tie-break: {hq.tie_break} roll wins")
            lines.append(f"Augment base: {hq.augment_base}")
            if hq.extended:
                lines.append("Extended: first to 5 RP")
            elif hq.chained:
                lines.append("Chained: until a party leaves")
        case forge.ForgeContest():
            fg = state.options
            lines.append("Combat: damage thrown" if fg.combat else "Plain contest")
            lines.append("Ties go to the reactor" if fg.reactor_wins_ties else "Ties: actor")
            if fg.combat:
                lines.append(f"Reaction: {state.reaction}")
    return lines


def exchange_lines(state: Contest, events: Iterable[object]) -> list[str]:
    """The exchange log's lines for ``events`` (the rule system's own account)."""
    from core.rules import find_system

    rules = find_system(state.system)
    out: list[str] = []
    for event in events:
        out.extend(rules.describe(event))  # type: ignore[arg-type]
    return out
