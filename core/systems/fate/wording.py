"""How a Fate exchange is told: the exchange log's lines (with what a hidden participant
keeps from the players marked secret) and the JSON ``tussle resolve`` prints."""

from __future__ import annotations

from core.dice import fate_glyphs
from core.redact import Part, aspect_name, secret, side_secret
from core.rules.base import JSON
from core.systems.fate.events import ExchangeResolved
from core.systems.fate.ladder import ladder_label, ladder_with_value, signed


def exchange_json(e: ExchangeResolved) -> JSON:
    """The exchange as ``tussle resolve`` prints it."""
    out: JSON = {
        "n": e.n,
        "totals": dict(e.totals),
        "ladder": {s: ladder_label(t) for s, t in e.totals.items()},
    }
    if e.shifts is not None:
        out["shifts"] = dict(e.shifts)
    out.update(
        {
            "dice": {s: fate_glyphs(f) for s, f in e.dice.items()},
            "winner": e.winner,
            "victories": e.victories,
            "style": e.style,
            "twist": e.twist,
            "forfeited": list(e.forfeited),
            "advantages": [
                {
                    "by": a.by,
                    "aspect": a.aspect,
                    "outcome": a.outcome,
                    "free_invokes": a.free_invokes,
                }
                for a in e.advantages
            ],
            "invokes": [
                {
                    "by": i.by,
                    "aspect": i.aspect,
                    "free": i.free,
                    "effect": i.effect,
                    # Only a campaign's scene has a pool (scenario files have no key
                    # for it), so a resolved scenario never shows this key.
                    **({"pool": True} if i.pool else {}),
                }
                for i in e.invokes
            ],
            "score": dict(e.score),
        }
    )
    if e.attack is not None:
        out["attack"] = e.attack
    return out


def exchange_lines(e: ExchangeResolved) -> list[list[str | Part]]:
    """The result first, then each side's dice and total, invokes under the side.

    What a hidden participant keeps from the players (rules §1.3: a total is skill +
    dice + invokes): the dice and the total of a side with a hidden member (rolled
    behind the GM's screen), a reroll's dice, the side's shifts (against a difficulty
    the table knows, they give the total away); both numbers of an advantage the
    hidden one creates or is the target of.

    What stays, because the table sees it anyway: the first line, who won, how many
    victories ("with style" is the two victories the score shows) or a tie (the score
    stays put and the twist goes on the table); invokes and their +2 (declared aloud,
    paid with a fate point) and free invokes (on the table). So a tie with a visible
    side still tells the hidden total (it is the other side's), and a win bounds it
    (by 1 or 2, by 3 or more with style); without the dice, the skill under it stays
    hidden (anything within ±4 of it, less the invokes)."""
    score = "–".join(str(v) for v in e.score.values())
    head: list[str | Part]
    if e.attack is not None:
        head = [f"{e.attack} attacks: the contest becomes a conflict"]
    elif e.winner is not None:
        with_style = " with style" if e.style else ""
        plural = "ies" if e.victories != 1 else "y"
        head = [f"{e.winner} wins{with_style}, {e.victories} victor{plural} ({score})"]
    elif e.twist is not None:
        head = ["tie, twist: ", aspect_name(e.twist), f" ({score})"]
    else:
        head = [f"nobody scores ({score})"]
    lines: list[list[str | Part]] = [[f"Exchange {e.n}: ", *head]]
    for a in e.advantages:
        on = f" on {a.on}" if a.on else ""
        free = f"{a.free_invokes} free invoke{'s' if a.free_invokes != 1 else ''}"
        lines.append(
            [
                f"  {a.by} creates ",
                aspect_name(a.aspect),
                f"{on}: ",
                secret(signed(a.result), a.by, a.on),
                " vs ",
                secret(signed(a.opposition), a.by, a.on),
                f", {a.outcome} ({free})",
            ]
        )
    for side in e.forfeited:
        lines.append([f"  {side} forfeits the roll"])
    for side, faces in e.dice.items():
        total = e.totals[side]
        line: list[str | Part] = [
            f"  {side}: ",
            side_secret(fate_glyphs(faces), side),
            " → ",
            side_secret(ladder_with_value(total), side),
        ]
        if e.shifts is not None:
            line += [", ", side_secret(signed(e.shifts[side]), side), " shifts"]
        lines.append(line)
        for i in e.invokes:
            if i.side != side:
                continue
            how = "free" if i.free else "paid from the GM's pool" if i.pool else "fate point"
            what: list[str | Part] = ["+2"]
            if i.faces is not None:
                what = ["reroll ", side_secret(fate_glyphs(i.faces), side)]
            elif i.effect == "oppose":
                what = ["+2 opposition"]
            by = "" if i.by == side else f"{i.by} "
            lines.append([f"    {by}invokes ", aspect_name(i.aspect), f" ({how}): ", *what])
    if not e.dice:
        lines.append(["  nobody rolls"])
    return lines
