"""Fate's keys and forms on the contest screen (``SCREEN``): invoke, advantage, attack,
the GM's pool."""

from __future__ import annotations

from textual.binding import Binding

from core.dice import fate_glyphs, parse_fate_dice
from core.model import Command, Contest
from core.systems.fate.events import CreateAdvantage, DeclareAttack, InvokeAspect
from core.systems.fate.ladder import signed
from core.systems.fate.sheet import typed_rating
from core.systems.fate.state import FateContest
from tui.draft import dice_kind, preview
from tui.fields import Answers, Field, FieldError, Follow, Options, blame
from tui.systems.fate import conflict_keys
from tui.systems.fate.panes import own_contest
from tui.systems.screen_part import ContestActions, ContestKeys, Key, ScreenPart, while_open
from tui.widgets.lines import e

# -- the invoke form ----------------------------------------------------------------------


def invoke_effects(state: Contest) -> Options:
    """What an invoke can do here (rules §1.4.1); +2 to a passive opposition only where
    there is one (environment mode)."""
    effects: Options = (
        ("+2 to the roll", "+2"),
        ("reroll the dice", "reroll"),
        ("+2 to an ally's roll", "ally"),
    )
    if own_contest(state).options.mode == "environment":
        effects += (("+2 to the passive opposition", "oppose"),)
    return effects


def payments(state: Contest, by: str) -> Options:
    """How ``by`` can pay: a fate point or a free invoke, and for an NPC the GM's pool.
    A PC never draws on the pool: Fate Core has the GM spend it on behalf of NPCs."""
    c = own_contest(state)
    options: Options = (("a fate point", "fate point"), ("a free invoke", "free"))
    if by in c.npcs:
        options += ((f"the GM's pool ({c.gm_pool} left)", "pool"),)
    return options


def default_payment(state: Contest, by: str, aspect: str) -> str:
    """A free invoke when ``aspect`` has one ``by``'s side may use (a boost is only ever
    free); else, for an NPC with no points of his own, the GM's pool when it has any;
    else a fate point."""
    c = own_contest(state)
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
    c = own_contest(state)
    return {p.name: tuple((s, s) for s in c.sides if s != p.side) for p in c.participants}


def describe_extra(command: Command) -> str | None:
    match command:
        case CreateAdvantage():
            on = f" on {command.on}" if command.on else ""
            return (
                f"Advantage: {e(command.by)} creates {e(command.aspect)}{e(on)} "
                f"({signed(command.result)} vs {signed(command.opposition)})"
            )
        case InvokeAspect():
            how = "free" if command.free else "GM's pool" if command.pool else "1 FP"
            what = {"+2": "+2", "reroll": "reroll", "oppose": "+2 opposition"}[command.effect]
            target = f" for {command.target}" if command.target else ""
            return f"Invoke: {e(command.by)} · {e(command.aspect)} ({how}) {what}{e(target)}"
        case DeclareAttack():
            return f"[b]Attack by {e(command.by)}: the contest ends as a conflict[/b]"
    return None


# -- the contest screen's Fate keys ---------------------------------------------------------


def _invoke(screen: ContestActions) -> None:
    """Who, which aspect, what it does, how it is paid; then only what that kind of
    invoke needs. The payment defaults to a free invoke the invoker's side may use, else
    (an NPC out of points) the GM's pool, and follows the invoker and the aspect. In a
    conflict, invokes go with an attack: its form, then its rolls and their invokes."""
    if conflict_keys.applies(screen.state):
        conflict_keys.act(screen, invoking=True)
        return
    state = own_contest(preview(screen.state, screen.draft).state)
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
        return InvokeAspect(
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


def _rating(a: Answers, key: str) -> int:
    """A total or an opposition, read as a rating is everywhere (issue 24, item 11): a
    ladder word (``Great``) or a number (``+4``)."""
    with blame(key):
        return typed_rating(a[key])


def _advantage(screen: ContestActions) -> None:
    """Who creates what, on whom, against what; the total typed, or worked out from the
    creator's skill and the dice, typed as on the keypad or rolled by Tussle."""
    if conflict_keys.applies(screen.state):
        conflict_keys.absorb(screen)
        return
    names = screen.names()
    state = own_contest(screen.state)
    skills = {p.name: p.skill for p in state.participants}

    def command(a: Answers) -> Command:
        opposition = _rating(a, "opposition")
        if a["result"]:
            if a["dice"]:
                raise FieldError("dice", "Either the total or the dice: the total has them")
            result = _rating(a, "result")
        else:
            with blame("dice"):
                faces = (
                    parse_fate_dice(a["dice"].replace("=", "+"))
                    if a["dice"]
                    else screen.tussle.dice.roll(dice_kind(screen.state))
                )
            result = skills.get(a["by"], 0) + sum(faces)
            how = "rolled" if a["dice"] else "rolls (Tussle)"
            screen.message = (
                f"{e(a['by'])} {how} {fate_glyphs(faces)}: "
                f"{signed(skills.get(a['by'], 0))} + {sum(faces)} = {signed(result)}"
            )
        return CreateAdvantage(
            by=a["by"],
            aspect=a["aspect"],
            on=a["on"] or None,
            result=result,
            opposition=opposition,
        )

    screen.ask(
        "Create an advantage (before the rolls)",
        [
            Field("by", "Who creates it", names[0][1], names),
            Field("aspect", "Aspect"),
            Field("on", "Placed on", "", (("(the scene)", ""), *names), required=False),
            Field(
                "result",
                "Their total (blank: skill + the dice below)",
                placeholder="skill + dice",
                required=False,
            ),
            Field("opposition", "Opposition (defence or difficulty)"),
            Field(
                "dice",
                "Their dice, like +0-0 (blank, with no total: Tussle rolls)",
                placeholder="Tussle rolls",
                required=False,
            ),
        ],
        command,
    )


def _attack(screen: ContestActions) -> None:
    if conflict_keys.applies(screen.state):
        conflict_keys.act(screen)
        return
    state = screen.state
    if isinstance(state, FateContest) and state.finished and state.ended_by == "attack":
        conflict_keys.start(screen, state)
        return
    names = screen.names()
    screen.ask(
        "Someone attacks: the contest becomes a conflict",
        [Field("by", "Who attacks", names[0][1], names)],
        lambda a: DeclareAttack(by=a["by"]),
    )


def _pool(screen: ContestActions) -> None:
    """The GM's pool pays for an NPC outside an invoke (refusing a compel, a stunt):
    invokes pay from it in their own form (``i``), compels on NPCs fill it (``k``)."""
    from core.campaign.log import SpendFromPool

    record = screen.tussle.campaign.contest(screen.contest_id)
    npcs = tuple((n, n) for n in sorted(own_contest(record.state).npcs) if n)
    # What invokes waiting on the keypad leave: they pay when the exchange commits.
    pool = own_contest(preview(screen.state, screen.draft).state).gm_pool
    if not npcs:
        screen.notify("No NPC in this contest: the GM's pool pays only for NPCs.")
        return
    if pool < 1:
        waiting = record.pool_left - pool
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


def _contest(state: Contest) -> bool:
    """The contest's keys are a contest's: a conflict (issue 28) has its own."""
    return isinstance(state, FateContest)


def _hit_waits(state: Contest) -> bool:
    """In a conflict, whether a hit waits for its absorption (``a`` absorbs it; an
    attack, ``i``, waits for it)."""
    return conflict_keys.applies(state) and conflict_keys.own(state).hit is not None


def _attack_goes_on(state: Contest) -> bool:
    """``k`` while the contest or conflict is open, and on a contest an attack ended:
    its conflict."""
    return not state.finished or (isinstance(state, FateContest) and state.ended_by == "attack")


def _attack_says(state: Contest) -> str:
    if conflict_keys.applies(state):
        return "Act (attack, defend, concede...)"
    return "The conflict" if state.finished else "Attack"


KEYS = (
    *while_open(
        (
            Key(
                "redo",
                Binding("i", "invoke", "Invoke", id="invoke"),
                _invoke,
                lambda state: not _hit_waits(state),
                lambda state: "Invoke on an attack" if conflict_keys.applies(state) else "Invoke",
            ),
            Key(
                "redo",
                Binding("a", "advantage", "Advantage", id="advantage"),
                _advantage,
                lambda state: not conflict_keys.applies(state) or _hit_waits(state),
                lambda state: "Absorb the hit" if conflict_keys.applies(state) else "Advantage",
            ),
        )
    ),
    Key(
        "redo",
        Binding("k", "attack", "Attack", id="attack", show=False),
        _attack,
        _attack_goes_on,
        _attack_says,
    ),
    Key(
        "summary",
        Binding("P", "pool", "GM's pool pays for an NPC", id="pool", show=False),
        _pool,
        _contest,
    ),
)


class FateKeys(ContestKeys, keys=KEYS):
    """Fate's keys on the contest screen: invoke, advantage, attack, the GM's pool."""


SCREEN = ScreenPart(
    keys=FateKeys,
    modifier_choices=lambda state: tuple((s, s) for s in state.sides),  # a side's roll
    replaces=lambda waiting, new: (
        isinstance(waiting, CreateAdvantage)
        and isinstance(new, CreateAdvantage)
        and (waiting.by, waiting.aspect) == (new.by, new.aspect)
    ),
    corrects=conflict_keys.correct,  # a conflict's attacks: their dice, in a form
    goes_on=lambda state: (
        ("attack", "k", "the conflict")
        if isinstance(state, FateContest) and state.ended_by == "attack"
        else None
    ),
)
