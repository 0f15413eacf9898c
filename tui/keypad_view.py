"""What the roll keypad shows for a draft: one row per roller, the extras, the verdict.

Totals, levels and verdicts come from the engine's preview and each system's own scoring
functions; nothing here knows a rule the core does not.
"""

from __future__ import annotations

from core.dice import DiceKind
from core.model import Command, SetModifier
from core.rules import fate, forge, heroquest
from tui.draft import Draft, Preview, faces_of
from tui.views import e
from tui.widgets.keypad import KeypadRow


def _fate_dice(typed: str) -> str:
    cells = [f"[{ch}]" for ch in typed] + ["[ ]"] * (4 - len(typed))
    return "".join(cells)


def _digits(typed: str, width: int) -> str:
    return f"[{typed:>{width}}]"


def rows(preview: Preview, draft: Draft) -> list[KeypadRow]:
    state = preview.state
    out: list[KeypadRow] = []
    for i, who in enumerate(preview.slots):
        typed = draft.typed.get(who, "")
        current = i == draft.cursor
        match state:
            case fate.FateContest():
                total = state.total(who)
                if total is None:
                    partial = state.rating(who) + sum(
                        faces_of(DiceKind.FATE, typed.ljust(4, "0")) or ()
                    )
                    text = f"[dim]so far {fate.ladder_with_value(partial)}[/]"
                else:
                    text = f"[b]{fate.ladder_with_value(total)}[/b]"
                    if state.options.mode == "environment":
                        shifts = total - (state.options.difficulty or 0)
                        text += f" · {fate.signed(shifts)} shifts"
                out.append(KeypadRow(e(who), _fate_dice(typed), text, current))
            case heroquest.HQContest():
                target = state.target(who)
                text = f"vs {heroquest.format_rating(target)}"
                faces = faces_of(DiceKind.D20, typed)
                if faces is not None and target > 0:
                    base, _ = heroquest.normalise(target)
                    level = heroquest.LEVELS[heroquest.classify(faces[0], base)]
                    text += f" · {level} before bumps"
                elif target <= 0:
                    text += " · [b]defeated without rolling[/b]"
                out.append(KeypadRow(e(who), _digits(typed, 2), text, current))
            case forge.ForgeContest():
                role = "acts" if i == 0 else "reacts"
                target = state.target(who)
                text = f"{role} vs {target}%"
                faces = faces_of(DiceKind.D100, typed)
                if faces is not None and i == 0:
                    ok = forge.actor_succeeds(target, faces[0])
                    text += " · [b]succeeds[/b]" if ok else " · [b]fails[/b]"
                out.append(KeypadRow(e(who), _digits(typed, 3), text, current))
    return out


def describe_extra(command: Command) -> str:
    match command:
        case fate.CreateAdvantage():
            on = f" on {command.on}" if command.on else ""
            return (
                f"Advantage: {e(command.by)} creates {e(command.aspect)}{e(on)} "
                f"({fate.signed(command.result)} vs {fate.signed(command.opposition)})"
            )
        case fate.InvokeAspect():
            how = "free" if command.free else "1 FP"
            what = {"+2": "+2", "reroll": "reroll", "oppose": "+2 opposition"}[command.effect]
            target = f" for {command.target}" if command.target else ""
            return f"Invoke: {e(command.by)} · {e(command.aspect)} ({how}) {what}{e(target)}"
        case fate.DeclareAttack():
            return f"[b]Attack by {e(command.by)}: the contest ends as a conflict[/b]"
        case SetModifier():
            return f"Modifier: {e(command.who)} {command.value:+d}"
        case heroquest.SpendHeroPoints():
            return f"Hero point: {e(command.who)} ×{command.count}"
        case heroquest.Stretch():
            return f"Stretch: {e(command.who)} (−6, victory at most minor)"
        case heroquest.Augment():
            return (
                f"Augment for {e(command.recipient)}: "
                f"{heroquest.format_rating(command.rating)} rolls {command.roll}"
            )
        case heroquest.Leave():
            return f"Leave: {e(command.who)} leaves after this exchange"
        case heroquest.SetParties():
            return f"Parties: {e(command.a)} vs {e(command.b)}"
        case heroquest.SetPairs():
            pairs = ", ".join(f"{p.a}–{p.b} {p.roll_a}/{p.roll_b}" for p in command.pairs)
            return f"Group: {e(pairs)}"
        case forge.SetStage():
            return f"Roles: {e(command.actor)} acts, {e(command.reactor)} reacts"
        case forge.ChooseReaction():
            return f"Reaction: {command.reaction}"
    return e(type(command).__name__)


def verdict(preview: Preview, draft: Draft) -> str:
    """What committing now would do, when every roll is in."""
    state = preview.state
    if preview.error:
        return f"[b $error]{e(preview.error)}[/]"
    match state:
        case fate.FateContest():
            totals = {s: state.total(s) for s in state.rolling_sides}
            if any(t is None for t in totals.values()) or not totals:
                return ""
            known = {s: t for s, t in totals.items() if t is not None}
            if state.open.attack:
                return "[b]Commit: the attack ends the contest[/b]"
            scored = fate.score_exchange(state.options, known)
            if scored.winner is not None:
                style = " with style" if scored.victories == 2 else ""
                return (
                    f"⇒ [b]{e(scored.winner)}[/b] would win{style}: "
                    f"{scored.victories} victor{'ies' if scored.victories != 1 else 'y'}"
                )
            if scored.twist:
                return "⇒ [b]a tie[/b]: nobody scores, a twist enters play"
            return "⇒ nobody would score"
        case heroquest.HQContest():
            parties = list(state.parties)
            if len(parties) != 2:
                return "[dim]press p to choose the two parties[/]" if not state.open.pairs else ""
            rolls = [faces_of(DiceKind.D20, draft.typed.get(p, "")) for p in parties]
            parts = [
                state.party(p, r[0] if r else None) for p, r in zip(parties, rolls, strict=True)
            ]
            if any(pt.roll is None and pt.target > 0 for pt in parts):
                return ""
            out = heroquest.simple_contest(parts[0], parts[1], state.options.tie_break)
            if out.winner is None:
                return "⇒ [b]a tie[/b]"
            winner = parties[0] if out.winner == "a" else parties[1]
            victory = heroquest.VICTORIES[out.victory]
            return f"⇒ [b]{e(winner)}[/b] would win: {victory} ({out.resolution_points} RP)"
        case forge.ForgeContest():
            if len(preview.slots) != 2:
                return ""
            actor, reactor = preview.slots
            a = faces_of(DiceKind.D100, draft.typed.get(actor, ""))
            r = faces_of(DiceKind.D100, draft.typed.get(reactor, ""))
            if a is None and state.target(actor) > 0:
                return ""
            p = state.participant(actor)
            absorbing = state.options.combat and state.reaction == "absorb"
            succeeds = forge.actor_succeeds(state.target(actor), a[0] if a else None)
            if succeeds and r is None and not absorbing and a is not None:
                thrown = forge.thrown_number(
                    a[0],
                    combat=state.options.combat,
                    multiplier=p.multiplier,
                    max_damage=p.max_damage,
                )
                return f"{e(actor)} throws {thrown}: {e(reactor)} to roll"
            outcome = forge.stage_outcome(
                state.target(actor),
                a[0] if a else None,
                state.target(reactor),
                r[0] if r else None,
                combat=state.options.combat,
                multiplier=p.multiplier,
                max_damage=p.max_damage,
                reaction=state.reaction,
                reactor_wins_ties=state.options.reactor_wins_ties,
            )
            who = actor if outcome.actor_wins else reactor
            hit = f", {outcome.hit} damage" if outcome.hit else ""
            return f"⇒ [b]{e(who)}[/b] would win the stage{hit}"
    return ""
