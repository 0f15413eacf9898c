"""HeroQuest's panes on the contest screen: the scoreboard, participants, the situation,
the keypad's rows and verdict, the odds' cells."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from msgspec.structs import replace

from core.campaign.state import ContestRecord
from core.dice import DiceKind
from core.errors import RuleError
from core.model import Command, Contest
from core.systems.heroquest.automatic import RuleAutomatic
from core.systems.heroquest.events import (
    Augment,
    Boost,
    ExchangeResolved,
    Gamble,
    Leave,
    RespondDefensively,
    SetPairs,
    SetParties,
    SpendHeroPoints,
    Stretch,
)
from core.systems.heroquest.extended import EXTENDED_GOAL
from core.systems.heroquest.group_extended import pending, score_exchange
from core.systems.heroquest.group_play import DeclareAim, Engage, HQGroupContest
from core.systems.heroquest.ratings import format_rating, normalise
from core.systems.heroquest.resolution import (
    LEVELS,
    VICTORIES,
    classify,
    ruled_outcome,
    simple_contest,
)
from core.systems.heroquest.state import HQContest, HQParticipant
from tui.draft import Draft, Preview, faces_of
from tui.systems.common import bar, cell, cells, hidden_mark, pct, pips, secret_heading
from tui.widgets.keypad import KeypadRow
from tui.widgets.lines import e

ROUND = "Exchange"  # what the scoreboard calls the coming round: "Exchange 2"
ASPECTS_TITLE = "Situation"


def own_contest(state: Contest) -> HQContest:
    assert isinstance(state, HQContest)
    return state


def score(record: ContestRecord) -> tuple[str, dict[str, str]]:
    state = own_contest(record.state)
    opts = state.options
    if isinstance(state, HQGroupContest):  # who still stands, and what each side lodged
        group = state.group_state
        lodged = state.resolution_points
        cells = {
            side: f"{len(group.standing(side))} standing · {lodged.get(side, 0)} RP"
            for side in state.sides
        }
        return f"HeroQuest group extended contest · round {group.round}", cells
    kind = "extended" if opts.extended else "chained" if opts.chained else "simple"
    if not opts.chain:
        return f"HeroQuest {kind} contest", {side: "" for side in state.sides}
    cells = {
        side: (f"[$accent]{pips(rp, 5)}[/] " if opts.extended else "") + f"{rp} RP"
        for side, rp in state.resolution_points.items()
    }
    return f"HeroQuest {kind} contest", cells


def adversity(record: ContestRecord) -> dict[str, str]:
    """Each participant's latest state of adversity in this contest: in an extended
    contest, none until it ends, then the final consequences (rules §2.8.6-7: the
    exchanges themselves leave none)."""
    state = own_contest(record.state)
    if state.options.extended:
        final = state.extended_result()
        return {} if final is None else dict(final[1])
    found: dict[str, str] = {}
    for event in record.exchanges:
        if isinstance(event, ExchangeResolved):
            found.update(event.consequence)
    return found


def participants(record: ContestRecord) -> list[str]:
    state = own_contest(record.state)
    states = adversity(record)
    lines: list[str] = secret_heading(record)
    for side in state.sides:
        members = [p for p in state.participants if p.side == side]
        pad = "  " if len(members) > 1 else ""
        if pad:
            lines.append(f"[b]{e(side)}[/b]")
        for p in members:
            left = state.hero_points_left.get(p.name, p.hero_points)
            vit = f" vit {p.vitality:+d}" if p.vitality else ""
            what = record.uses.get(p.name, "rating")
            lines.append(f"{pad}[b]{e(p.name)}[/b]  HP {left}{hidden_mark(record, p.name)}")
            lines.append(f"{pad}  {e(what)} {format_rating(p.rating)}{vit}")
            if isinstance(state, HQGroupContest):  # HQ2, Followers
                m = state.group_state.member(p.name)
                if m.role != "character":
                    lines.append(f"{pad}  {e(m.role)} follower of {e(m.leader or '?')}")
            lasting = lingering(p)
            if lasting:
                lines.append(f"{pad}  [$warning]{lasting}[/]")
            if _dying(state, p.name):  # left dying by this chain: no actions (§2.6)
                lines.append(f"{pad}  [$warning][b]dying[/b]: no actions[/]")
            elif p.name in states and state.states_stand:  # a chain's: for later contests
                lines.append(f"{pad}  [$warning]{e(states[p.name])}[/] [dim]after the chain[/]")
            elif p.name in states:
                lines.append(f"{pad}  [$warning]{e(states[p.name])}[/]")
    return lines


def _dying(state: HQContest, name: str) -> bool:
    """Whether a complete defeat earlier in this chain left ``name`` dying: a dying
    character takes no actions (rules §2.6, the table's last row), so rolls no dice."""
    return bool(state.dying) and name in (state.dying or ())


def takes_dice(state: Contest, who: str) -> bool:
    """A participant this chain left dying takes no dice: no actions (rules §2.6); its
    keypad row says so instead."""
    return not _dying(own_contest(state), who)


def _dying_verdict(state: HQContest, parties: list[str]) -> str | None:
    """The keypad's last line when a party of the coming exchange is dying: why nobody
    rolls, and what the GM may do instead (name two others when two who may act are on
    different sides, else leave the chain)."""
    dying = [p for p in parties if _dying(state, p)]
    if not dying:
        return None
    verb = "is" if len(dying) == 1 else "are"
    then = (
        "p names two others, or l leaves the chain"
        if state.others_may_act
        else "l leaves the chain"
    )
    return f"{e(' and '.join(dying))} {verb} dying: no actions (rules §2.6); {then}"


def lingering(p: HQParticipant) -> str:
    """What earlier contests left on ``p`` (rules §2.6), in words: ``−3 from earlier
    contests (hurt or impaired) · 1 bump down (injured)``. The condition is the lingering
    benefit of the ability used less 3 per hurt and 6 per impairment, already in its
    target; each injury bumps its result down a level."""
    parts = []
    if p.condition > 0:
        parts.append(f"+{p.condition} from earlier contests (lingering benefit)")
    elif p.condition < 0:
        parts.append(f"−{-p.condition} from earlier contests (hurt or impaired)")
    if p.bumps_down:
        parts.append(f"{p.bumps_down} bump{'s' if p.bumps_down != 1 else ''} down (injured)")
    return " · ".join(parts)


def aspects(state: Contest, hidden: Collection[str] = (), players: bool = False) -> list[str]:
    """The situation: HeroQuest has no aspects to hide."""
    c = own_contest(state)
    opts = c.options
    lines = [f"Tie-break: {opts.tie_break} roll wins", f"Augment base: {opts.augment_base}"]
    if isinstance(c, HQGroupContest):
        return [*lines, *group_lines(c)]
    if opts.extended:
        lines.append("Extended: first to 5 RP")
    elif opts.chained:
        lines.append("Chained: until one leaves")
    return lines


def group_lines(c: HQGroupContest) -> list[str]:
    """A group extended contest's engagements in their order of play, with each one's
    score (points against each) and where the round stands; who is out, and how."""
    group = c.group_state
    todo = pending(group)
    lines = [f"Round {group.round}, in order:"]
    for i, eng in enumerate(group.engagements):
        if not eng.open:
            continue
        mark = "▶ " if todo and i == todo[0] else "  " if i in todo else "✓ "
        lines.append(f"{mark}{e(eng.a)} v {e(eng.b)}  {eng.against_a}–{eng.against_b}")
    if not todo and not c.finished:
        lines.append("[dim]nobody engaged: E engages a pairing[/]")
    lines += [f"[$warning]{e(m.name)} {m.status}[/]" for m in group.members if m.status != "active"]
    return lines


def rows(preview: Preview, draft: Draft) -> list[KeypadRow]:
    state = own_contest(preview.state)
    out = []
    rollers = [who for who in preview.slots if not _dying(state, who)]
    current = rollers[draft.cursor % len(rollers)] if rollers else None
    for who in preview.slots:
        if _dying(state, who):  # no actions (§2.6): no dice asked for
            out.append(KeypadRow(who, "    ", "[b]dying[/b]: no actions, no roll", False))
            continue
        typed = draft.typed.get(who, "")
        target = state.target(who)
        text = f"vs {format_rating(target)}"
        faces = faces_of(DiceKind.D20, typed)
        if target <= 0:
            text += " · [b]defeated without rolling[/b]"
        elif faces is not None:
            base, _ = normalise(target)
            text += f" · {LEVELS[classify(faces[0], base)]} before bumps"
        out.append(KeypadRow(who, cells(typed, 2), text, who == current))
    return out


def verdict(preview: Preview, draft: Draft) -> str:
    state = own_contest(preview.state)
    parties = list(state.parties)
    if isinstance(state, HQGroupContest):
        found = _group_verdict(state, parties, draft)
        if found is not None:
            return found
    dying = _dying_verdict(state, parties)
    if dying is not None:
        return dying
    if len(parties) != 2:
        return "" if state.open.pairs else "[dim]p: choose the two parties · G: a group contest[/]"
    ruled = state.open.automatic
    if ruled is not None:  # no dice: the ruling is the result
        out = ruled_outcome(ruled, parties[0])
    else:
        rolls = [faces_of(DiceKind.D20, draft.typed.get(p, "")) for p in parties]
        a, b = (state.party(p, r[0] if r else None) for p, r in zip(parties, rolls, strict=True))
        if (a.roll is None and a.target > 0) or (b.roll is None and b.target > 0):
            return ""
        out = simple_contest(a, b, state.options.tie_break)
    if out.winner is None:
        return "⇒ [b]a tie[/b]"
    winner, loser = parties if out.winner == "a" else parties[::-1]
    victory = VICTORIES[out.victory]
    if not state.options.chain:  # resolution points count only in a chain (§2.8)
        return f"⇒ [b]{e(winner)}[/b] would win: {victory}"
    points = state.lodged(winner, loser, out.victory)  # gambits, defensive responses
    return f"⇒ [b]{e(winner)}[/b] would win: {victory} ({points} RP)"


def _group_verdict(state: HQGroupContest, parties: list[str], draft: Draft) -> str | None:
    """A group extended contest's keypad line: the round, the pairing playing and those
    still to play; what committing would do once the dice are in (the pure rules')."""
    group = state.group_state
    if len(parties) != 2 or state.current is None:
        return "[dim]Nobody engaged to play: E engages a pairing (or assists, shoots)[/]"
    later = [group.engagements[i] for i in pending(group)[1:]]
    left = ", ".join(f"{x.a} v {x.b}" for x in later) or "none"
    head = f"Round {group.round}: {e(parties[0])} v {e(parties[1])} · then: {e(left)}"
    rolls = [faces_of(DiceKind.D20, draft.typed.get(p, "")) for p in parties]
    index = state.current
    moves = {p: state.move(p) for p in parties}
    for p, r in zip(parties, rolls, strict=True):
        if r is not None:
            moves[p] = replace(moves[p], roll=r[0])
    eng = group.engagements[index]
    a, b = moves[eng.a], moves[eng.b]
    try:
        out, points = score_exchange(group, index, a, b)
    except (ValueError, RuleError):
        return head
    if any(state.target(p) > 0 and moves[p].roll is None for p in parties):
        return head
    then = f" · then: {e(left)}"
    if out.winner is None:
        return f"⇒ [b]a tie[/b]{then}"
    winner = eng.a if out.winner == "a" else eng.b
    return f"⇒ [b]{e(winner)}[/b] would win: {VICTORIES[out.victory]} ({points} RP){then}"


def describe_extra(command: Command) -> str | None:
    match command:
        case SpendHeroPoints():
            return f"Hero point: {e(command.who)} ×{command.count}"
        case Stretch():
            return f"Stretch: {e(command.who)} (−6, victory at most minor)"
        case Augment():
            return (
                f"Augment for {e(command.recipient)}: "
                f"{format_rating(command.rating)} rolls {command.roll}"
            )
        case Leave():
            return f"Leave: {e(command.who)} leaves after this exchange"
        case SetParties():
            return f"Parties: {e(command.a)} vs {e(command.b)}"
        case SetPairs():
            pairs = ", ".join(f"{p.a}–{p.b} {p.roll_a}/{p.roll_b}" for p in command.pairs)
            return f"Group: {e(pairs)}"
        case Gamble():
            return f"Risky gambit: {e(command.who)} (+1 RP on a win, +2 to the other on a loss)"
        case RespondDefensively():
            return f"Defensive: {e(command.who)} (−2 RP on a win, −1 to the other on a loss)"
        case Engage():
            return f"Engage: {e(command.a)} v {e(command.b)}"
        case DeclareAim():
            return f"{e(command.who)} tries to {command.aim}: a win scores nothing"
        case RuleAutomatic():
            return f"Automatic {command.result} for {e(command.who)}: {command.victory}, no dice"
        case Boost():
            paid = ", ".join(f"{name} {count}" for name, count in command.paid)
            double = "double boost" if command.double else "boost"
            return f"Group {double} for {e(command.side)}: paid by {e(paid)}"
    return None


def odds_cells(
    exchange: dict[str, Any], contest_odds: dict[str, float | None], state: Contest
) -> tuple[dict[str, str], str]:
    """Each side's odds as scoreboard text (``contest_odds``: its chance at the contest), and
    the footer under them."""
    cells: dict[str, str] = {}
    # Resolution points exist only in a chain (rules §2.8, §2.9): an extended contest
    # is won at 5 of them; a simple contest is this one exchange, nothing beyond it.
    state = own_contest(state)
    if isinstance(state, HQGroupContest):
        for party, o in exchange["sides"].items():
            cells[state.participant(party).side] = cell(o["win"], None, "")
        outs = sorted((exchange.get("out") or {}).items(), key=lambda item: -(item[1] or 0))
        out = ", ".join(f"{e(n)} {pct(p)}" for n, p in outs[:2] if p and p >= 0.01)
        return cells, f"tie {pct(exchange['tie'])}" + (f" · out this round: {out}" if out else "")
    extended = state.options.extended
    for party, o in exchange["sides"].items():
        side = state.participant(party).side
        if extended:
            cells[side] = cell(o["win"], contest_odds.get(side), f"to {EXTENDED_GOAL} RP")
        elif state.options.chained:
            cells[side] = cell(o["win"], None, "")
        else:
            cells[side] = f"wins {pct(o['win'])} [$accent]{bar(o['win'])}[/]"
    return cells, f"tie {pct(exchange['tie'])}"
