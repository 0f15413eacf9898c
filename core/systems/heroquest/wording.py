"""How a HeroQuest exchange is told: the exchange log's lines (with the parts a hidden
participant keeps from the players marked secret) and the JSON ``tussle resolve`` prints."""

from __future__ import annotations

from collections.abc import Mapping

from core.model import ExchangeEvent
from core.redact import HIDDEN, Part, secret
from core.rules.base import JSON
from core.systems.heroquest.events import ExchangeResolved, OwnExchange, PairResult
from core.systems.heroquest.ratings import format_rating
from core.systems.heroquest.resolution import LEVELS, VICTORIES


def points_words(count: int) -> str:
    """``count`` hero points in words: "1 hero point", "2 hero points"."""
    return f"{count} hero point{'s' if count != 1 else ''}"


HIDDEN_POINTS = f"{HIDDEN} hero points"  # a hidden count, whatever its plural


def exchange_json(event: ExchangeEvent) -> JSON:
    """The exchange as ``tussle resolve`` prints it."""
    if isinstance(event, OwnExchange):
        return event.as_json()
    e = exchange_of(event)
    out: JSON = {
        "n": e.n,
        "targets": {n: format_rating(t) for n, t in e.targets.items()},
    }
    if e.kind != "group":
        out["levels"] = {n: LEVELS[level] for n, level in e.levels.items()}
    out.update(
        {
            "winner": e.winner,
            "victory": None if e.victory is None else VICTORIES[e.victory],
            "resolution_points": e.resolution_points,
            "augments": [{"for": a.recipient, "bonus": a.bonus} for a in e.augments],
            "consequence": dict(e.consequence),
            "benefit": dict(e.benefit),
        }
    )
    if e.kind == "group":
        out["pairs"] = [
            {
                "a": p.a,
                "b": p.b,
                "targets": {p.a: format_rating(p.targets[0]), p.b: format_rating(p.targets[1])},
                "rolls": list(p.rolls),
                "levels": {p.a: LEVELS[p.levels[0]], p.b: LEVELS[p.levels[1]]},
                "winner": p.winner,
                "victory": VICTORIES[p.victory],
                "resolution_points": p.resolution_points,
            }
            for p in e.pairs
        ]
        out["side_points"] = dict(e.side_points)
    else:
        out["rolls"] = dict(e.rolls)
    if e.automatic is not None:
        out["automatic"] = {
            "who": e.automatic.who,
            "result": e.automatic.result,
            "victory": e.automatic.victory,
        }
    if e.modifier_labels:
        out["presets"] = dict(e.modifier_labels)
    out["hero_points"] = dict(e.hero_points)
    out["stretch"] = list(e.stretched)
    out["leave"] = e.leave
    if e.gambits:
        out["gambits"] = list(e.gambits)
    if e.defensive:
        out["defensive"] = list(e.defensive)
    if e.boost is not None:
        out["boost"] = {
            "side": e.boost.side,
            "double": e.boost.double,
            "paid": dict(e.boost.paid),
            "cost": e.boost.cost,
        }
    return out


def exchange_lines(event: ExchangeEvent) -> list[list[str | Part]]:
    """The result first, then one line per party (the log pane is narrow).

    What a hidden participant keeps from the players: their target (the rating and
    its modifiers), their roll ("no roll", which says the target is 0 or less,
    reads as any fumble), a benefit they gain, an augment they receive (the bonus,
    both ratings and rolls) and how many hero points they spend. Who won, the
    victory and its resolution points, each side's levels of success, states of
    adversity and the resolution points' totals stay: the table sees them anyway (a
    tie on equal levels says the rolls were equal, §2.3: a die, not the rating)."""
    if isinstance(event, OwnExchange):
        return event.lines()
    e = exchange_of(event)
    lines: list[list[str | Part]]
    if e.kind == "leave":
        lines = [[f"Exchange {e.n}: {e.leave} leaves the contest"]]
        if e.chain:
            lines.append(["  Resolution points: " + _totals(e.totals)])
        return lines
    if e.kind == "simple" and e.automatic is not None:
        lines = [[f"Exchange {e.n}: {_result(e)}"], [f"  {e.automatic.words()}, no dice"]]
    elif e.kind == "simple":
        lines = [[f"Exchange {e.n}: {_result(e)}"]]
        lines.extend(["  ", *_roll_text(e, name)] for name in e.parties)
    else:
        # The pairs' points decide the group's level (§2.7); the level's own
        # resolution points are what a chain lodges: two counts, said apart.
        score = ", ".join(f"{s} {p}" for s, p in e.side_points.items())
        lines = [[f"Exchange {e.n}, group: {_result(e)}"], [f"  Pairs' points: {score}"]]
    lines.extend(_effects(e))
    for p in e.pairs:
        outcome = (
            "tie"
            if p.winner is None
            else f"{p.winner}, {VICTORIES[p.victory]} ({p.resolution_points} RP)"
        )
        lines.append([f"  {p.a} v {p.b}: {outcome}"])
        lines.append(["    ", *_pair_side(p, 0), "; ", *_pair_side(p, 1)])
    for name, label in e.modifier_labels.items():
        lines.append([f"  {name}: ", secret(label, name)])
    for aug in e.augments:
        who = aug.recipient
        lines.append(
            [
                f"  {who} augmented ",
                secret(_signed(aug.bonus), who),
                ": ",
                *_augment_side(aug.rating, aug.roll, who),
                " against ",
                *_augment_side(aug.base, aug.resistance_roll, who),
            ]
        )
    for name, count in e.hero_points.items():
        # Hidden, the count goes with its plural: "a hero point" would give it away.
        lines.append([f"  {name} spends ", secret(points_words(count), name, mask=HIDDEN_POINTS)])
    for name in e.stretched:
        lines.append([f"  {name} stretches: −6, victory at most minor"])
    for name in e.gambits:
        lines.append([f"  {name} makes a risky gambit: +1 RP if winning, +2 to the other if not"])
    for name in e.defensive:
        lines.append([f"  {name} responds defensively: −2 RP if winning, −1 to the other if not"])
    if e.boost is not None:
        b = e.boost
        paid = ", ".join(f"{n} {k}" for n, k in b.paid)
        levels = "2 levels" if b.double else "1 level"
        double = " (double)" if b.double else ""
        cost = f"{points_words(b.cost)}: {paid}"
        lines.append([f"  {b.side} boost{double}: +{levels} on a tie or a win ({cost})"])
    if e.leave is not None:
        lines.append([f"  {e.leave} leaves the contest"])
    if e.chain:
        lines.append(["  Resolution points: " + _totals(e.totals)])
    return lines


def exchange_of(event: ExchangeEvent) -> ExchangeResolved:
    """``event`` as HeroQuest's exchange (TypeError: it is another system's)."""
    if not isinstance(event, ExchangeResolved):
        raise TypeError(f"{type(event).__name__} is not a HeroQuest exchange")
    return event


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _totals(totals: Mapping[str, int]) -> str:
    return ", ".join(f"{side} {points}" for side, points in totals.items())


def _roll_text(e: ExchangeResolved, name: str) -> list[str | Part]:
    target = secret(format_rating(e.targets[name]), name)
    level = LEVELS[e.levels[name]]
    if e.targets[name] <= 0:
        # "No roll" tells a hidden target is 0 or less: hidden, it reads as any fumble.
        no_roll = f"vs {format_rating(e.targets[name])}, no roll (complete defeat)"
        return [f"{name}: ", secret(no_roll, name, mask=f"{HIDDEN} vs {HIDDEN}, {level}")]
    return [f"{name}: ", secret(e.rolls.get(name), name), " vs ", target, f", {level}"]


def _augment_side(target: int, roll: int | None, recipient: str) -> list[str | Part]:
    rating = secret(format_rating(target), recipient)
    if roll is None:
        return [rating, " (no roll)"]
    return [rating, " rolling ", secret(roll, recipient)]


def _pair_side(p: PairResult, i: int) -> list[str | Part]:
    name = (p.a, p.b)[i]
    target = secret(format_rating(p.targets[i]), name)
    level = LEVELS[p.levels[i]]
    if p.targets[i] <= 0:  # hidden, as any fumble (see _roll_text)
        no_roll = f" vs {format_rating(p.targets[i])}, no roll"
        return [name, secret(no_roll, name, mask=f" {HIDDEN} vs {HIDDEN} {level}")]
    return [f"{name} ", secret(p.rolls[i], name), " vs ", target, f" {level}"]


def _result(e: ExchangeResolved) -> str:
    if e.winner is None or e.victory is None:
        return "tie"
    verb = "win" if e.kind == "group" else "wins"
    if e.kind == "simple" and not e.chain:  # resolution points count only in a chain (§2.8)
        return f"{e.winner} {verb}, {VICTORIES[e.victory]}"
    return f"{e.winner} {verb}, {VICTORIES[e.victory]} ({e.resolution_points} RP)"


def _effects(e: ExchangeResolved) -> list[list[str | Part]]:
    """States of adversity and lingering benefits the exchange left, one line; none in
    an extended contest, where only the final difference leaves any (rules §2.8.6-7)."""
    if e.extended:
        return []
    parts: list[list[str | Part]] = [[f"{name} {state}"] for name, state in e.consequence.items()]
    parts += [[f"{name} ", secret(f"+{b}", name), " benefit"] for name, b in e.benefit.items() if b]
    if not parts:
        return []
    line: list[str | Part] = ["  → "]
    for i, part in enumerate(parts):
        line += [", "] * (i > 0) + part
    return [line]
