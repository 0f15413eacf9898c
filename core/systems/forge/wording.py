"""How a FORGE stage is told: the exchange log's lines (with the parts a hidden
participant keeps from the players marked secret) and the JSON ``tussle resolve`` prints."""

from __future__ import annotations

from core.model import ExchangeEvent
from core.redact import HIDDEN, Part, secret
from core.rules.base import JSON
from core.systems.forge.events import ExchangeResolved, RoundExchange
from core.systems.forge.scoring import AUTOMATIC
from core.systems.forge.state import ForgeContest

DAMAGE_VERB = "takes"  # the damage line's verb: "Josef takes 10: 0 absorbed, 10 trauma"


def exchange_json(event: ExchangeEvent) -> JSON:
    """The stage as ``tussle resolve`` prints it (a round's step says its own)."""
    if isinstance(event, RoundExchange):
        return event.json()
    e = exchange_of(event)
    rolls = {e.actor: e.actor_roll, e.reactor: e.reactor_roll}
    out: JSON = {
        "n": e.n,
        "actor": e.actor,
        "reactor": e.reactor,
        "targets": {e.actor: e.actor_target, e.reactor: e.reactor_target},
        "rolls": {name: roll for name, roll in rolls.items() if roll is not None},
        "actor_success": e.actor_success,
        "thrown": e.thrown,
        "reactor_success": e.reactor_success,
        "winner": e.winner,
    }
    if e.combat:
        out.update(
            {
                "reaction": e.reaction,
                "damage": e.damage,
                "absorbed": e.absorbed,
                "trauma": e.trauma,
                "armor_capacity": e.armor_left,
            }
        )
        if e.current_trauma is not None:
            out["current_trauma"] = e.current_trauma
            out["dying"] = e.current_trauma <= 0
    out["stage_wins"] = dict(e.stage_wins)
    return out


def final_json(c: ForgeContest) -> JSON:
    """The contest's end as ``tussle resolve`` prints it: stage wins, and in combat trauma,
    armor and who is dying; the last round by beats."""
    out: JSON = {"stage_wins": {side: c.stage_wins.get(side, 0) for side in c.sides}}
    if c.options.combat:
        out["trauma"] = {p.name: c.trauma.get(p.name, 0) for p in c.participants}
        out["armor_capacity"] = {p.name: c.armor_left.get(p.name) for p in c.participants}
        tracked = [p.name for p in c.participants if p.current_trauma is not None]
        if tracked:
            out["current_trauma"] = {name: c.current_trauma(name) for name in tracked}
            out["dying"] = [name for name in tracked if c.dying(name)]
    if c.round is not None:
        r = c.round
        out["round"] = {
            "number": r.number,
            "beat": None if r.over else r.beat,
            "over": r.over,
            "beats": dict(r.icon_beats),
            "pending": [{"attacker": a.attacker, "target": a.target} for a in r.pending],
        }
    return out


def exchange_lines(event: ExchangeEvent) -> list[list[str | Part]]:
    """The stage's winner first, then the actor's line and the reactor's (the log
    pane is narrow), then the damage.

    What a hidden participant keeps from the players: their target, their roll, and
    the words that bound the target ("automatic", "cannot succeed"); a hidden actor,
    what they throw and the damage line (the damage is their weapon's); a hidden
    reactor, what their armour absorbs and has left (and so the trauma, the rest of
    the damage). How a reaction compared with the throw, when either is hidden, shows
    only as ✓ or ✗, which the stage's winner tells anyway: "a tie" would give the
    hidden roll or throw exactly (it equals the other), so, not to tell a tie from the
    rest, "lower" and "higher" go too. Who won the stage, the score and the actor's ✓
    or ✗ stay: the table sees them (a failed action hands the stage over, §3.3).
    A round's step (an attack sent, a hit landing) says its own."""
    if isinstance(event, RoundExchange):
        return event.lines()
    e = exchange_of(event)
    wins = "–".join(str(w) for w in e.stage_wins.values())
    # The stage's number: one winner a stage, so the wins after it add up to it (a
    # round's attacks and hits, exchanges too, are no stages); a stage saved without
    # its wins says its exchange's number.
    stage = sum(e.stage_wins.values()) or e.n
    lines: list[list[str | Part]] = [[f"Stage {stage}: {e.winner} wins the stage ({wins})"]]
    verb = "attacks" if e.combat else "acts"
    actor: list[str | Part] = [
        f"  {e.actor} {verb} vs ",
        secret(e.actor_target, e.actor),
        *_preset(e, e.actor),
        ":",
    ]
    if not e.actor_success:
        if e.actor_roll is None:
            actor.append(secret(" cannot succeed", e.actor, mask=f" {HIDDEN} ✗"))
        else:
            actor += [" ", secret(e.actor_roll, e.actor), " ✗"]
            if e.actor_target <= 0:
                actor.append(secret(" (cannot succeed)", e.actor, mask=""))
            else:
                actor.append(", over")
        lines.append(actor)
        lines.append(_unneeded_reaction(e))
    else:
        auto = secret(" (automatic)", e.actor, mask="") if e.actor_target >= AUTOMATIC else ""
        what = "damage" if e.combat else "throws"
        actor += [" ", secret(e.actor_roll, e.actor), " ✓", auto]
        lines.append([*actor, f", {what} ", secret(e.thrown, e.actor)])
        if e.reaction == "absorb":
            lines.append([f"  {e.reactor} absorbs"])
        else:
            dodge = "dodges" if e.combat else "reacts"
            lines.append(
                [
                    f"  {e.reactor} {dodge} vs ",
                    secret(e.reactor_target, e.reactor),
                    *_preset(e, e.reactor),
                    ": ",
                    secret(e.reactor_roll, e.reactor),
                    _reactor_verdict(e),
                ]
            )
    if e.damage is not None:
        both = (e.actor, e.reactor)
        line: list[str | Part] = [
            f"  {e.reactor} {DAMAGE_VERB} ",
            secret(e.damage, e.actor),
            ": ",
            secret(e.absorbed, *both),
            " absorbed, ",
            secret(e.trauma, *both),
            " trauma",
        ]
        if e.armor_left is not None and e.armor != 0:  # no armor: nothing to use up
            line += [", armor ", secret(e.armor_left, *both), " left"]
        lines.append(line)
    if e.current_trauma is not None and e.current_trauma <= 0:
        # The table sees a character go down; how far below 0 is the GM's.
        lines.append(
            [
                f"  {e.reactor} is dying (current trauma ",
                secret(e.current_trauma, e.reactor),
                ")",
            ]
        )
    return lines


def _unneeded_reaction(e: ExchangeResolved) -> list[str | Part]:
    """The reactor's line when the actor failed: the stage is hers whatever she
    rolled (rules §3.3), but a die the table rolled is still shown."""
    if e.reaction == "absorb":
        return [f"  {e.reactor} absorbs: nothing to absorb"]
    dodge = "dodges" if e.combat else "reacts"
    line: list[str | Part] = [
        f"  {e.reactor} {dodge} vs ",
        secret(e.reactor_target, e.reactor),
        *_preset(e, e.reactor),
        ": ",
    ]
    if e.reactor_rolled is None:
        return [*line, "no roll needed"]
    return [*line, secret(e.reactor_rolled, e.reactor), " (not needed)"]


def _preset(e: ExchangeResolved, who: str) -> list[str | Part]:
    """The preset ``who``'s target took, by name (`` (distance 51-75 yd -40)``): as
    secret as the target it changed."""
    label = e.modifier_labels.get(who)
    return [] if label is None else [secret(f" ({label})", who, mask="")]


def _reactor_verdict(e: ExchangeResolved) -> Part:
    """How the reaction went; ✓ or ✗ alone when either side is hidden."""
    assert e.reactor_roll is not None and e.thrown is not None  # she rolled
    if e.reactor_roll > e.reactor_target:
        return secret(" ✗, over", e.reactor, mask=" ✗")
    held = " ✗" if e.winner == e.actor else " ✓"
    if e.reactor_roll < e.thrown:
        word = ", lower"
    elif e.reactor_roll > e.thrown:
        word = ", higher"
    else:
        word = ", a tie (to the reactor)" if e.reactor_wins_ties else ", a tie (to the actor)"
    return secret(word, e.actor, e.reactor, mask=held)


def exchange_of(event: ExchangeEvent) -> ExchangeResolved:
    if not isinstance(event, ExchangeResolved):
        raise TypeError(f"{type(event).__name__} is not a FORGE stage")
    return event
