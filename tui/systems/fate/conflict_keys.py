"""A Fate conflict's keys on the contest screen (issue 28): each a form whose answers
are played at once, checked by the rules before the form closes (a refusal keeps the form
open with what was typed). ``k``: what someone does, the one whose turn it is by
default: an attack (on whom, with which skill, the dice typed or rolled by Tussle, the
defense the defender chooses and its dice), full defense, another action, a concession,
a turn order, or the end. ``a``: the hit waiting absorbed (one of the ways the rules
list, the consequences named on the spot) or taken out. (The contest's own letters, so
a GM's remapped keys keep theirs.)"""

from __future__ import annotations

from core.campaign.log import StartContest
from core.dice import DiceKind, parse_fate_dice
from core.model import Command, Contest
from core.systems.fate.conflict import Absorption, absorptions
from core.systems.fate.conflict_play import (
    Absorb,
    Attack,
    Concede,
    EndConflict,
    FateConflict,
    FullDefense,
    SetTurnOrder,
    TakeOut,
    TakeTurn,
    shifts,
)
from core.systems.fate.conflict_setup import conflict_from
from core.systems.fate.state import FateContest
from core.systems.fate.stress import Kind, track_label
from tui.fields import Answers, Field, FieldError, Options, blame
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


def act(screen: ContestActions) -> None:
    """``k`` in a conflict: what someone does, the current one by default. An attack
    asks on whom, the skill and its dice (typed, or blank: Tussle rolls), the defense
    the defender chooses and its dice, the harm's track, a boost for a shift."""
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
            skill=a["skill"].strip() or skill,
            faces=_dice(screen, a, "dice"),
            defense=a["defense"].strip() or defense,
            defense_faces=_dice(screen, a, "defense_dice"),
            track=a["track"],
            take_boost=a["boost"] == "yes",
        )

    screen.play_now(
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
            Field("other", "What", required=False, shown_when=("what", "other")),
            Field("order", "In order (names, by commas)", now, shown_when=("what", "order")),
        ],
        command,
    )


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

    screen.play_now(
        f"{hit.target} absorbs {shifts(hit.shifts)} {hit.track} hit",
        [
            Field("how", "How", choices[0][1], choices),
            Field("names", "Consequences taken, named (separated by ;)", required=False),
        ],
        command,
    )


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
