"""A Fate conflict's keys on the contest screen (issue 28): each a form whose answers
are played at once, checked by the rules before the form closes (a refusal keeps the form
open with what was typed). ``k``: what someone does, the one whose turn it is by
default: an attack (on whom, with which skill, the dice typed or rolled by Tussle, the
defense the defender chooses and its dice), full defense, another action, a concession,
a turn order, or the end. ``a``: the hit waiting absorbed (one of the ways the rules
list, the consequences named on the spot) or taken out. (The contest's own letters, so
a GM's remapped keys keep theirs.)"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from msgspec.structs import replace

from core.campaign.log import Play, StartContest
from core.dice import DiceKind, fate_glyphs, parse_fate_dice
from core.engine import apply, play
from core.errors import RuleError
from core.model import Command, Contest
from core.systems.fate.conflict import Absorption, absorptions, is_taken_out_by
from core.systems.fate.conflict_play import (
    Absorb,
    Attack,
    AttackRecord,
    AttackResolved,
    AttackRolled,
    Concede,
    ConflictInvoke,
    EndConflict,
    FateConflict,
    FullDefense,
    Hit,
    SetTurnOrder,
    TakeOut,
    TakeTurn,
    shifts,
)
from core.systems.fate.conflict_report import ATTACK, DEFENSE
from core.systems.fate.conflict_setup import conflict_from
from core.systems.fate.ladder import ladder_with_value
from core.systems.fate.state import FateContest
from core.systems.fate.stress import Kind, track_label
from tui.fields import Answers, Field, FieldError, Follow, Options, blame
from tui.systems.screen_part import ContestActions

TAKEN_OUT = "out"
YES_NO: Options = (("no", "no"), ("yes", "yes"))


def own(state: Contest) -> FateConflict:
    assert isinstance(state, FateConflict)
    return state


def standing(c: FateConflict) -> Options:
    """Those still in the conflict, as a choice's options."""
    return tuple((x.name, x.name) for x in c.conflict.combatants if x.in_conflict)


def _dice(screen: ContestActions, a: Answers, key: str) -> tuple[int, ...]:
    with blame(key):
        if not a[key].strip():
            return screen.tussle.dice.roll(DiceKind.FATE)
        return parse_fate_dice(a[key].replace("=", "+"))


ACTIONS: Options = (
    ("attack", "attack"),
    ("full defense (+2 to defend this exchange)", "defend"),
    ("another action (an overcome, an advantage)", "other"),
    ("concede (before a roll against them)", "concede"),
    ("a new turn order", "order"),
    ("end the conflict here", "end"),
)


def act(screen: ContestActions, invoking: bool = False) -> None:
    """``k`` in a conflict: what someone does, the current one by default. An attack
    asks on whom, the skill and its dice (typed, or blank: Tussle rolls), the defense
    the defender chooses and its dice, the harm's track, a boost for a shift, and
    whether anyone invokes an aspect on the rolls (``i``: yes by default); then, if so,
    the rolls with their invokes (:func:`invokes`) before the attack is played."""
    c = own(screen.state)
    if c.hit is not None:
        screen.message = f"{c.hit.target} has a hit to absorb first: a"
        screen.refresh_keypad()
        return
    names = standing(c)
    first_foe = next((n for n, _ in names if n != c.turn), c.turn)
    tracks = tuple((track_label(t.name), t.name) for t in c.conflict.combatants[0].tracks)
    now = ", ".join(x.name for x in c.conflict.combatants)
    skill, defense = (
        ("Fight", "Athletics") if c.conflict.kind == "physical" else ("Provoke", "Will")
    )
    attack = ("what", "attack")

    def command(a: Answers) -> Command:
        what, who = a["what"], a["who"]
        if what == "defend":
            return FullDefense(who=who)
        if what == "other":
            return TakeTurn(who=who, what=a["other"])
        if what == "concede":
            return Concede(who=who)
        if what == "end":
            return EndConflict()
        if what == "order":
            order = tuple(n.strip() for n in a["order"].split(",") if n.strip())
            if sorted(order) != sorted(x.name for x in c.conflict.combatants):
                raise FieldError("order", f"Name everyone once, separated by commas: {now}")
            return SetTurnOrder(order=order)
        return Attack(
            by=who,
            target=a["target"],
            skill=known(c, who, a["skill"].strip() or skill, "skill", ATTACK),
            faces=_dice(screen, a, "dice"),
            defense=known(c, a["target"], a["defense"].strip() or defense, "defense", DEFENSE),
            defense_faces=_dice(screen, a, "defense_dice"),
            track=a["track"],
            take_boost=a["boost"] == "yes",
        )

    parse = checked(c, command)

    def then(made: Command | None) -> None:
        if made is None:
            return
        if isinstance(made, Attack) and wants_invokes["yes"]:
            invokes(screen, made, first=True)
            return
        screen.tussle.send(Play(contest_id=screen.contest_id, commands=(made,)))

    wants_invokes = {"yes": False}

    def noted(a: Answers) -> Command:
        wants_invokes["yes"] = a["what"] == "attack" and a["invokes"] == "yes"
        return parse(a)

    screen.command_form(
        f"{c.turn}'s turn in the conflict",
        [
            Field("who", "Who", c.turn, names),
            Field("what", "Does", "attack", ACTIONS),
            Field("target", "On whom", first_foe, names, shown_when=attack),
            Field("skill", "With (Fight, Shoot, Provoke...)", skill, shown_when=attack),
            Field(
                "dice",
                "Their dice, like +0-0 (blank: Tussle rolls)",
                required=False,
                shown_when=attack,
            ),
            Field(
                "defense", "Defended with (Athletics, Fight, Will...)", defense, shown_when=attack
            ),
            Field(
                "defense_dice",
                "The defense's dice (blank: Tussle rolls)",
                required=False,
                shown_when=attack,
            ),
            Field("track", "The harm", c.conflict.kind, tracks, shown_when=attack),
            Field(
                "boost", "With style: a shift less for a boost?", "no", YES_NO, shown_when=attack
            ),
            Field(
                "invokes",
                "Invokes on these rolls (i)?",
                "yes" if invoking else "no",
                YES_NO,
                shown_when=attack,
            ),
            Field("other", "What", required=False, shown_when=("what", "other")),
            Field("order", "In order (names, by commas)", now, shown_when=("what", "order")),
        ],
        "",
        noted,
        then,
    )


def known(
    c: FateConflict, who: str, typed: str, key: str, usual: Mapping[str, tuple[str, ...]]
) -> str:
    """``typed``, a skill ``who`` rolls: one on their sheet, or one the SRD names for the
    action (Attack: Fight, Shoot, Provoke; Defend: Athletics, Fight, Will), Mediocre when
    they lack it; in any case (``fight``), spelt as the sheet spells it. Any other name
    is refused under the field ``key``: a typo (``Fihgt``, or ``fight``) rolled Mediocre,
    unseen, where the GM meant Fight."""
    skills = next((p.skills for p in c.participants if p.name == who), {})
    standard = list(dict.fromkeys(s for kind in usual.values() for s in kind))
    for name in (*skills, *standard):
        if name.casefold() == typed.casefold():
            return name
    have = ", ".join(skills) or "none"
    raise FieldError(
        key,
        f'"{typed}" is not on {who}\'s sheet ({have}) nor one of {", ".join(standard)} '
        "(a skill they lack rolls Mediocre)",
    )


def checked(c: Contest, command: Callable[[Answers], Command]) -> Callable[[Answers], Command]:
    """A form's answers made ``command``, checked by the rules on ``c`` (a pure check: a
    refusal keeps the form open with what was typed)."""

    def parse(a: Answers) -> Command:
        made = command(a)
        apply(c, made)
        return made

    return parse


# -- invokes on an attack's rolls ---------------------------------------------------------


def rolled(c: FateConflict, attack: Attack) -> AttackRecord:
    """The attack as the engine scores it, its invokes made (a pure check)."""
    _, events = apply(c, attack)
    for event in events:
        if isinstance(event, AttackRolled):
            return event.hit.attack
        if isinstance(event, AttackResolved):
            return event.attack
    raise AssertionError("an attack is rolled or resolved")


def outcome(c: FateConflict, record: AttackRecord) -> str:
    """``Cynere Superb (+5) vs Drisban Good (+3): a 2-shift physical hit``, and whether
    it takes the target out whatever they choose (SRD, Resolving Attacks; Getting Taken
    Out): what an invoke changes, said before the attack is played."""
    r = record.result
    head = (
        f"{record.by} {ladder_with_value(record.total)} vs "
        f"{record.target} {ladder_with_value(record.defense_total)}: "
    )
    if r.outcome == "fail":
        boost = f", a boost for {record.target}" if r.defender_boost else ""
        return head + f"a miss{boost}"
    if r.outcome == "tie":
        return head + f"a tie: no harm, a boost for {record.by}"
    style = " with style" if r.outcome == "style" else ""
    said = head + f"{shifts(r.shifts)} {record.track} hit{style}"
    target = c.conflict.combatant(record.target)
    if is_taken_out_by(target, record.track, r.shifts, c.conflict.options):
        said += f": {record.target} is taken out whatever they choose"
    return said


def payments(c: FateConflict, by: str) -> Options:
    """How ``by`` can pay an invoke: a fate point, a free invoke, and for an NPC the
    GM's pool (as in a contest: a PC never draws on it)."""
    options: Options = (("a fate point", "fate point"), ("a free invoke", "free"))
    if by in c.npcs:
        options += ((f"the GM's pool ({c.gm_pool} left)", "pool"),)
    return options


def default_payment(c: FateConflict, by: str, aspect: str) -> str:
    """A free invoke when ``aspect`` has one ``by``'s side may use (a boost is only
    ever free: a consequence's is its inflicter's side's); else, for an NPC out of
    points, the GM's pool when it has any; else a fate point."""
    found = next((a for a in c.aspects if a.name == aspect), None)
    who = next((p for p in c.participants if p.name == by), None)
    if found is not None and who is not None:
        if found.boost or (found.free_invokes > 0 and found.holder in (None, who.side)):
            return "free"
        if by in c.npcs and who.fate_points < 1 and c.gm_pool > 0:
            return "pool"
    return "fate point"


PLAY = "play"
INVOKE = "invoke"


def invokes(screen: ContestActions, attack: Attack, first: bool = False) -> None:
    """The attack's rolls, before it is played: what it would do as it stands, and an
    invoke more on either roll (SRD, Invoking Aspects: "after you've rolled the dice"),
    by someone on the attacker's side or the defender's: the aspect, +2 or a reroll (its
    dice typed, or blank: Tussle rolls), paid with a free invoke, a fate point or the
    GM's pool. Each invoke, checked by the rules (no fate point: said under "Paid with",
    nothing spent), shows the rolls again; "play" plays the attack with its invokes, as
    one action. Esc plays nothing."""
    c = own(screen.state)
    record = rolled(c, attack)
    sides = {c.conflict.combatant(attack.by).side, c.conflict.combatant(attack.target).side}
    invokers: Options = tuple(
        (x.name, x.name) for x in c.conflict.combatants if x.in_conflict and x.side in sides
    )
    aspects: Options = tuple(
        (a.name + (f" ({a.free_invokes} free)" if a.free_invokes else ""), a.name)
        for a in _after(c, attack).aspects
    )
    made = [
        f"{i.by}: {i.aspect} ({'free' if i.free else 'pool' if i.pool else '1 FP'})"
        for i in attack.invokes
    ]
    if not aspects:
        screen.notify("No aspect in play to invoke: the attack is played as it stands.")
        screen.tussle.send(Play(contest_id=screen.contest_id, commands=(attack,)))
        return
    invoke = ("next", INVOKE)
    state = _after(c, attack)
    first_aspect = aspects[0][1]
    fields = [
        Field(
            "next",
            "Then",
            INVOKE if first else PLAY,
            (("play the attack as it stands", PLAY), ("someone invokes an aspect", INVOKE)),
        ),
        Field("by", "Who invokes", attack.by, invokers, shown_when=invoke),
        Field("aspect", "Aspect", first_aspect, aspects, shown_when=invoke),
        Field(
            "effect",
            "What it does",
            "+2",
            (("+2 to their side's roll", "+2"), ("reroll their side's dice", "reroll")),
            shown_when=invoke,
        ),
        Field(
            "how",
            "Paid with",
            default_payment(state, attack.by, first_aspect),
            payments(state, attack.by),
            shown_when=invoke,
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

    def parse(a: Answers) -> Command:
        if a["next"] == PLAY:
            apply(c, attack)
            return attack
        faces = None
        if a["effect"] == "reroll":
            faces = _dice(screen, a, "dice")
        invoke = ConflictInvoke(
            by=a["by"],
            aspect=a["aspect"],
            effect="reroll" if a["effect"] == "reroll" else "+2",
            faces=faces,
            free=a["how"] == "free",
            pool=a["how"] == "pool",
        )
        more = replace(attack, invokes=(*attack.invokes, invoke))
        with blame("how"):
            apply(c, more)
        return more

    def then(command: Command | None) -> None:
        if command is None:
            screen.notify(
                "Nothing played: the attack and its invokes are dropped (k enters it again).",
                title="Not played",
            )
            return
        assert isinstance(command, Attack)
        if command is attack:
            screen.tussle.send(Play(contest_id=screen.contest_id, commands=(attack,)))
            return
        invokes(screen, command)

    hint = (
        f"⇒ {outcome(c, record)}\n"
        + ("Invoked: " + "; ".join(made) + "\n" if made else "")
        + "Enter: invoke, or play the attack · Esc: play nothing"
    )
    screen.command_form(
        f"{attack.by} attacks {attack.target}: the rolls",
        fields,
        hint,
        parse,
        then,
        follow=Follow("how", ("by", "aspect"), payment),
    )


def _after(c: FateConflict, attack: Attack) -> FateConflict:
    """The conflict with the attack's invokes paid, the attack not yet made: what the
    next invoke may spend (free invokes left, fate points, the pool)."""
    if not attack.invokes:
        return c
    after, _ = apply(c, attack)
    assert isinstance(after, FateConflict)
    return replace(after, aspects=tuple(a for a in after.aspects if _kept(c, a.name)))


def _kept(c: FateConflict, name: str) -> bool:
    """An aspect that was in play before the attack (not the boost it would give)."""
    return any(a.name == name for a in c.aspects)


def _way(c: FateConflict, a: Absorption) -> str:
    target = c.conflict.combatant(c.hit.target) if c.hit is not None else None
    if target is None:
        return ""
    track = target.track(a.track)
    parts = [f"the {track.boxes[i].value}-box" for i in a.boxes]
    parts += [f"a {target.slots[i].severity}" for i in a.slots]
    return " + ".join(parts) or "nothing"


def absorb(screen: ContestActions) -> None:
    c = own(screen.state)
    hit = c.hit
    if hit is None:
        screen.message = "No hit is waiting to be absorbed."
        screen.refresh_keypad()
        return
    fields, command = absorb_form(c, hit)
    screen.play_now(f"{hit.target} absorbs {shifts(hit.shifts)} {hit.track} hit", fields, command)


def absorb_form(c: FateConflict, hit: Hit) -> tuple[list[Field], Callable[[Answers], Command]]:
    """The fields that ask how ``hit`` is absorbed (one of the ways the rules list, the
    consequences named, or taken out), and what turns the answers into the command."""
    target = c.conflict.combatant(hit.target)
    ways = absorptions(target, hit.track, hit.shifts, c.conflict.options)
    choices: Options = (
        *((_way(c, w), str(i)) for i, w in enumerate(ways)),
        ("taken out", TAKEN_OUT),
    )

    def command(a: Answers) -> Command:
        if a["how"] == TAKEN_OUT:
            return TakeOut(who=hit.target)
        way = ways[int(a["how"])]
        names = tuple(n.strip() for n in a["names"].split(";") if n.strip())
        if len(names) != len(way.slots):
            wanted = len(way.slots)
            raise FieldError(
                "names",
                f"Name {wanted} consequence{'s' if wanted != 1 else ''} (separated by ;)"
                if wanted
                else "No consequence in that way: leave the names blank",
            )
        return Absorb(who=hit.target, absorption=way, names=names)

    fields = [
        Field("how", "How", choices[0][1], choices),
        Field("names", "Consequences taken, named (separated by ;)", required=False),
    ]
    return fields, command


# -- C: an attack's dice corrected --------------------------------------------------------


def correct(screen: ContestActions) -> bool:
    """``C`` in a conflict (its actions are played by forms, not on the keypad): an
    attack's dice corrected, the last attack's by default. Its absorption is asked again
    when the hit's shifts changed (the old one is kept when they did not); then what the
    correction changes (this action and every later one, played again with its dice,
    through the engine) is shown and asked before anything is. False: not a conflict."""
    if not isinstance(screen.state, FateConflict):
        return False
    record = screen.tussle.campaign.contest(screen.contest_id)
    c = own(record.state)
    if record.written:  # said before any form, as for a contest's exchange
        screen.notify(
            "Its results are on the roster: u takes that back, then correct.",
            title="Cannot correct",
            severity="error",
        )
        return True
    if c.hit is not None:
        screen.notify(
            f"{c.hit.by}'s attack on {c.hit.target} waits for its absorption: u takes the "
            "attack back, and k plays it again with the right dice.",
            title="Cannot correct",
            severity="warning",
        )
        return True
    attacks = [x for x in record.exchanges if isinstance(x, AttackResolved)]
    if not attacks:
        screen.notify("No attack to correct yet.", severity="warning")
        return True
    if len(attacks) == 1:
        correct_attack(screen, attacks[0])
        return True
    by_n = {str(x.n): x for x in attacks}

    def chosen(answers: Answers | None) -> None:
        if answers is not None:
            correct_attack(screen, by_n[answers["n"]])

    screen.form(
        "Correct an attack's dice",
        [
            Field(
                "n",
                "Which attack",
                str(attacks[-1].n),
                tuple((_named(x), str(x.n)) for x in attacks),
            )
        ],
        "The last attack first (←/→: another). Enter: its dice · Esc: cancel",
        chosen,
    )
    return True


def _named(x: AttackResolved) -> str:
    a = x.attack
    return (
        f"exchange {x.exchange}: {a.by} on {a.target}, "
        f"{fate_glyphs(a.faces)} vs {fate_glyphs(a.defense_faces)}"
    )


def correct_attack(screen: ContestActions, resolved: AttackResolved) -> None:
    """The dice of the attack that ``resolved`` settled, typed again: both rolls, as
    they were by default (an invoke's reroll stays as it was)."""
    from core.campaign.corrections import reopen

    n = resolved.n
    try:
        before, commands = reopen(screen.tussle.campaign, screen.contest_id, n)
    except RuleError as error:
        screen.notify(str(error), title="Cannot correct", severity="error")
        return
    at_attack = next(i for i, x in enumerate(commands) if isinstance(x, Attack))
    old = commands[at_attack]
    assert isinstance(old, Attack)
    at, _ = play(before, commands[:at_attack])  # a turn order set just before it
    c = own(at)
    settled = commands[at_attack + 1 :]  # its absorption, or taken out (a hit)
    what = f"{old.by}'s attack on {old.target} (exchange {resolved.exchange})"
    was = outcome(c, rolled(c, old))

    def parse(a: Answers) -> Command:
        with blame("dice"):
            faces = parse_fate_dice(a["dice"].replace("=", "+"))
        with blame("defense_dice"):
            defense_faces = parse_fate_dice(a["defense_dice"].replace("=", "+"))
        new = replace(old, faces=faces, defense_faces=defense_faces)
        if new == old:
            raise FieldError("dice", "The dice are as they were: change one (Esc: nothing)")
        apply(c, new)  # a pure check: a refusal keeps the form open
        return new

    def then(new: Command | None) -> None:
        if new is None:
            return
        assert isinstance(new, Attack)
        after, _ = apply(c, new)
        hit = own(after).hit
        head = [*commands[:at_attack], new]
        if hit is None:  # no harm now: nothing to absorb
            screen.correct(n, head, what)
            return
        if settled and hit.shifts == rolled(c, old).result.shifts and _plays(after, settled):
            screen.correct(n, [*head, *settled], what)  # the same hit: absorbed as it was
            return
        fields, command = absorb_form(own(after), hit)
        parse_absorb = checked(after, command)

        def absorbed(made: Command | None) -> None:
            if made is None:
                screen.notify(f"Nothing corrected: {what} is as it was.", title="Not corrected")
                return
            screen.correct(n, [*head, made], what)

        screen.command_form(
            f"{hit.target} absorbs {shifts(hit.shifts)} {hit.track} hit",
            fields,
            f"Correcting {what}. Was: {was}. Now: {outcome(c, rolled(c, new))}.\n"
            "Esc: nothing corrected",
            parse_absorb,
            absorbed,
        )

    screen.command_form(
        f"Correct {what}",
        [
            Field("dice", f"{old.by}'s dice ({old.skill}), like +0-0", fate_glyphs(old.faces)),
            Field(
                "defense_dice",
                f"{old.target}'s dice ({old.defense})",
                fate_glyphs(old.defense_faces),
            ),
        ],
        f"Was: {was}.\nEnter: what it changes · Esc: nothing",
        parse,
        then,
    )


def _plays(c: Contest, commands: Sequence[Command]) -> bool:
    try:
        play(c, commands)
    except RuleError:
        return False
    return True


def start(screen: ContestActions, contest: FateContest) -> None:
    """``k`` on a contest an attack ended: the conflict it becomes, with the same people,
    sides, fate points, aspects and pool, each one's skills, tracks and slots from the
    roster; physical or mental harm asked (it sets the turn order), and the title."""
    record = screen.tussle.campaign.contest(screen.contest_id)
    roster = screen.tussle.campaign.roster

    def command(a: Answers) -> Command:
        kind: Kind = "mental" if a["kind"] == "mental" else "physical"
        conflict = conflict_from(contest, roster, kind)
        return StartContest(
            title=a["title"].strip() or f"{record.title}: the conflict",
            contest=conflict,
            # what each one rolled in the contest: a setup made like the conflict
            # (n on its summary) offers it again, as it would after the contest
            uses=dict(record.uses),
            secret=record.secret,
            secret_participants=tuple(record.secret_participants),
            secret_aspects=tuple(record.secret_aspects),
        )

    def done(answers: Answers | None) -> None:
        if answers is not None:
            screen.tussle.send(command(answers))

    screen.form(
        "The attack goes on as a conflict",
        [
            Field("kind", "Harm", "physical", (("physical", "physical"), ("mental", "mental"))),
            Field("title", "Title", required=False, placeholder=f"{record.title}: the conflict"),
        ],
        "Enter: start the conflict · Esc: not now",
        done,
    )


def applies(state: Contest) -> bool:
    return isinstance(state, FateConflict)
