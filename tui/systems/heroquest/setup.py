"""HeroQuest on the contest setup screen: its options, a resistance from the table and a
group extended contest's followers (``SETUP``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.binding import Binding

from core.campaign.sheet import Pick
from core.dice import DiceKind
from core.errors import RuleError
from core.systems.heroquest.group_extended import FOLLOWER_ROLES
from core.systems.heroquest.ratings import format_rating, parse_rating
from core.systems.heroquest.resolution import VICTORIES
from core.systems.heroquest.sheet import (
    RESISTANCE_CLASSES,
    augment_base,
    base_resistance,
    injured,
    resistance,
    waives_bump,
    wherewithal,
)
from core.systems.heroquest.state import HQOptions
from tui.fields import Answers, Field, FieldError, blame, whole_field
from tui.systems.heroquest.keys import d20_face
from tui.systems.setup_part import YES_NO, SetupActions, SetupKey, SetupKeys, SetupPart

# -- the contest setup -----------------------------------------------------------------------


def _options_from(a: Answers) -> dict[str, Any]:
    return {
        "chained": a["kind"] == "chained",
        "extended": a["kind"] == "extended",
        "group_extended": a["kind"] == "group",
        "tie_break": a["tie_break"],
        # Blank: the augment resistance for the sessions played (§2.5), set at the start.
        **(
            {"augment_base": whole_field(a, "augment_base", of=HQOptions)}
            if a.get("augment_base", "").strip()
            else {}
        ),
        "consequences": a.get("consequences") or "rising",
        "wherewithal_waiver": a.get("wherewithal_waiver") == "yes",
    }


def _sessions(screen: SetupActions) -> int:
    """The sessions played, this one included (the campaign's count; at least 1)."""
    sessions = screen.tussle.campaign.settings.get("sessions", 1)
    return sessions if isinstance(sessions, int) and sessions >= 1 else 1


def _resistance(screen: SetupActions) -> None:
    """A resistance from the table (§2.5): its class and the sessions played."""
    classes = tuple((c.title(), c) for c in RESISTANCE_CLASSES)
    sessions = str(screen.tussle.campaign.settings.get("sessions", 1))
    taken = {p.character for p in screen.picks}

    def parse(a: Answers) -> Pick:
        if a["name"] in taken:
            raise FieldError("name", f'"{a["name"]}" is already in the contest')
        played = whole_field(a, "sessions", 1)
        with blame("sessions"):
            value = resistance(a["class"], played)
        return Pick(character=a["name"], side=a["side"] or a["name"], value=value)

    def then(pick: Pick) -> None:
        screen.picks.append(pick)
        screen.reload()

    screen.form(
        "A resistance from the table (rules §2.5)",
        [
            Field("name", "What resists (a door, a crowd, a storm)"),
            Field("side", "Side (blank: its own)", required=False),
            Field("class", "Class", "moderate", classes),
            Field("sessions", "Sessions played, this one included", sessions),
        ],
        parse,
        then,
    )


def _wherewithal_form(screen: SetupActions, pick: Pick, then: Callable[[bool], None]) -> None:
    """The contest of wherewithal an injured participant must win to take part (rules
    §2.6): one of their abilities against Moderate resistance, scored by the engine. A win
    lets them in (``then(True)``); a tie or a defeat takes them out of the setup
    (``then(False)``). Escape leaves everything as it was."""
    campaign = screen.tussle.campaign
    character = campaign.roster[pick.character]
    played = _sessions(screen)
    abilities = tuple((f"{n} {format_rating(v)}", n) for n, v in character.ratings.items())
    choices = (*abilities, ("No relevant ability: 6", ""))
    tie_break = str(screen.options.get("tie_break", "low"))

    def parse(a: Answers) -> tuple[bool, str, bool]:
        with blame("resistance"):
            value = parse_rating(a["resistance"].strip())
        rolls = []
        for key in ("roll", "resistance_roll"):
            text = a.get(key, "").strip()
            rolls.append(d20_face(text, key) if text else screen.tussle.dice.roll(DiceKind.D20)[0])
        ability = a["ability"] or None
        try:
            e = wherewithal(character, ability, value, rolls[0], rolls[1], tie_break)
        except RuleError as error:
            raise FieldError("ability", str(error)) from None
        who = e.parties[0]  # the character (renamed if called "Resistance")
        won = e.winner == who
        result = (
            "a tie"
            if e.winner is None
            else f"{VICTORIES[e.victory or 0]} " + ("victory" if won else "defeat")
        )
        words = (
            f"{character.name}'s wherewithal: {a['ability'] or 'no ability'} at "
            f"{format_rating(e.targets[who])} rolled {rolls[0]} against "
            f"{format_rating(value)} rolled {rolls[1]}: {result}"
        )
        waive = won and bool(screen.options.get("wherewithal_waiver")) and waives_bump(e.victory)
        if not won:
            return won, words + ": out of this contest", waive
        return (
            won,
            words + (" (may take part, no bump down)" if waive else " (may take part)"),
            waive,
        )

    def done(result: tuple[bool, str, bool]) -> None:
        won, words, waive = result
        screen.notes.append(words)
        if won:
            screen.cleared.add(character.name)
        else:
            screen.picks[:] = [p for p in screen.picks if p.character != character.name]
        if waive:  # HQ2's optional rule: this contest without the injury's bump down
            waived = tuple(screen.options.get("waived", ()))
            screen.options["waived"] = (*waived, character.name)
        screen.notify(words)
        screen.reload()
        then(won)

    screen.form(
        f"{character.name} is injured: a contest of wherewithal to take part (rules §2.6)",
        [
            Field(
                "ability",
                "Rolling (endurance, will, poise...)",
                abilities[0][1] if abilities else "",
                choices,
                required=False,
            ),
            Field("resistance", "Against (Moderate resistance)", str(base_resistance(played))),
            Field("roll", f"{character.name}'s d20 (blank: Tussle rolls)", required=False),
            Field("resistance_roll", "The resistance's d20 (blank: Tussle rolls)", required=False),
        ],
        parse,
        done,
    )


def _wherewithal(screen: SetupActions) -> None:
    """w: the highlighted participant's contest of wherewithal."""
    pick = screen.highlighted
    roster = screen.tussle.campaign.roster
    if pick is None or pick.character not in roster:
        screen.notify("Highlight a roster character first (a adds one).")
        return
    if not injured(roster[pick.character]):
        screen.notify(f"{pick.character} is not injured: no contest of wherewithal (rules §2.6).")
        return
    _wherewithal_form(screen, pick, lambda won: None)


# How the setup names each follower role (HQ2, Followers); the roles are the core's.
ROLE_WORDS = {
    "contestant": "a contestant (rolls; out at 3 points)",
    "secondary": "a secondary contestant (never rolls; takes points shifted to it)",
    "supporter": "a supporter (assists only)",
}


def _follower(screen: SetupActions) -> None:
    """f: mark the highlighted participant a follower of a teammate, in a group extended
    contest (HQ2, Followers): as a contestant, a secondary contestant or a supporter; or
    a character again."""
    if not screen.options.get("group_extended"):
        screen.notify("Followers are for a group extended contest (o: Kind, group extended).")
        return
    pick = screen.highlighted
    if pick is None:
        screen.notify("Add participants first (a).")
        return
    mates = [p.character for p in screen.picks if p.side == pick.side and p != pick]
    if not mates:
        screen.notify(f"{pick.character} has nobody on side {pick.side} to follow.")
        return
    marked = {name: (role, leader) for name, role, leader in screen.options.get("followers", ())}
    role, leader = marked.get(pick.character, ("character", mates[0]))
    roles = (
        ("not a follower: a character", "character"),
        *((ROLE_WORDS.get(r, r), r) for r in FOLLOWER_ROLES),
    )

    def parse(a: Answers) -> tuple[str, str]:
        return a["role"], a["leader"]

    def then(chosen: tuple[str, str]) -> None:
        role, leader = chosen
        rest = tuple(f for f in screen.options.get("followers", ()) if f[0] != pick.character)
        # Whoever followed this one follows nobody once it is a follower itself.
        if role != "character":
            rest = tuple(f for f in rest if f[2] != pick.character)
        added = ((pick.character, role, leader),) if role != "character" else ()
        screen.options["followers"] = rest + added
        screen.reload()
        screen.notify(
            f"{pick.character}: {ROLE_WORDS.get(role, role)}, following {leader}."
            if role != "character"
            else f"{pick.character} is a character, following nobody."
        )

    screen.form(
        f"{pick.character} as a follower (HQ2, Followers)",
        [
            Field("role", "Role", role, roles),
            Field(
                "leader",
                "Follows",
                leader if leader in mates else mates[0],
                tuple((m, m) for m in mates),
            ),
        ],
        parse,
        then,
    )


def _group_extended(screen: SetupActions) -> bool:
    """Followers are a group extended contest's (HQ2, Followers): f applies there only."""
    return bool(screen.options.get("group_extended"))


def _anyone_injured(screen: SetupActions) -> bool:
    """w (a contest of wherewithal, §2.6) applies when a participant is injured."""
    roster = screen.tussle.campaign.roster
    return any(p.character in roster and injured(roster[p.character]) for p in screen.picks)


def _tidy_followers(options: dict[str, Any], picks: Sequence[Pick]) -> dict[str, Any]:
    """The followers the setup can still play: each one and its leader in the setup,
    on one side (HQ2, Followers: a follower follows a teammate). One removed (or whose
    leader was, or who changed sides) is a character again, and the options line no
    longer names them."""
    marked = tuple(options.get("followers", ()))
    sides = {p.character: p.side for p in picks}
    kept = tuple(
        f for f in marked if f[0] in sides and f[2] in sides and sides[f[0]] == sides[f[2]]
    )
    return options if kept == marked else {**options, "followers": kept}


def _before_start(screen: SetupActions, go: Callable[[], None]) -> None:
    """Each injured participant not yet let in rolls wherewithal first; then the contest
    starts with those who won (if two sides are left). An augment base the GM left
    blank is the table's for the sessions played (rules §2.5)."""
    screen.options.setdefault("augment_base", augment_base(_sessions(screen)))
    roster = screen.tussle.campaign.roster
    waiting = [
        p
        for p in screen.picks
        if p.character in roster
        and p.character not in screen.cleared
        and injured(roster[p.character])
    ]
    if not waiting:
        go()
        return
    _wherewithal_form(screen, waiting[0], lambda won: _before_start(screen, go))


KEYS = (
    SetupKey(
        "setup.options",
        Binding("r", "resistance", "Resistance", id="setup.resistance"),
        _resistance,
    ),
    # f before w: on an 80-column footer the last keys give way first, and with
    # both there (a group extended contest with someone injured) g asks for the
    # wherewithal anyway.
    SetupKey(
        "setup.options",
        Binding("f", "follower", "Follower", id="setup.follower"),
        _follower,
        applies=_group_extended,
    ),
    SetupKey(
        "setup.options",
        Binding("w", "wherewithal", "Wherewithal", id="setup.wherewithal"),
        _wherewithal,
        applies=_anyone_injured,
    ),
)


class HeroQuestSetupKeys(SetupKeys, keys=KEYS):
    """HeroQuest's keys on the setup screen: a resistance, a follower, wherewithal."""


SETUP = SetupPart(
    no_skill="No relevant ability: 6 (rules §2.2)",
    typed_example="17 or 4M",
    option_fields=(
        Field(
            "kind",
            "Kind",
            "simple",
            (
                ("one simple contest", "simple"),
                ("chained: until a party leaves", "chained"),
                ("extended: first to 5 resolution points", "extended"),
                ("group extended: pairings, round by round (HQ2)", "group"),
            ),
        ),
        Field(
            "tie_break",
            "Equal results go to",
            "low",
            (("the low roll", "low"), ("the high roll", "high")),
        ),
        Field(
            "augment_base",
            "Augment base (blank: by sessions played, rules §2.5)",
            required=False,
        ),
        Field(
            "consequences",
            "Extended contest's consequences (rules §2.8.6-7)",
            "rising",
            (
                ("rising action: by the final difference", "rising"),
                ("climactic: by the points against each", "climactic"),
            ),
        ),
        Field(
            "wherewithal_waiver",
            "A major or complete wherewithal victory waives the bump down (HQ2 option)",
            "no",
            YES_NO,
        ),
    ),
    options_from=_options_from,
    keys=HeroQuestSetupKeys,
    kept_options=("followers",),
    tidy_options=_tidy_followers,
    before_start=_before_start,
)
