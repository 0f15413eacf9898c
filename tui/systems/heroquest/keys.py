"""HeroQuest's keys and forms on the contest screen (``SCREEN``)."""

from __future__ import annotations

from collections.abc import Collection
from contextlib import nullcontext

from msgspec.structs import replace
from textual.binding import Binding

from core.dice import DiceKind, written_face
from core.errors import BadDice, RuleError
from core.model import Command
from core.systems.heroquest.automatic import (
    AUTOMATIC_LEVELS,
    RULINGS,
    RuleAutomatic,
    level_named,
    ruling_named,
)
from core.systems.heroquest.events import (
    Augment,
    Boost,
    Gamble,
    Leave,
    RespondDefensively,
    SetPairs,
    SetParties,
    SpendHeroPoints,
    Stretch,
)
from core.systems.heroquest.group_play import (
    Assist,
    DeclareAim,
    Engage,
    HQGroupContest,
    PartingShot,
    RemoveFollower,
)
from core.systems.heroquest.modifiers import boost_cost
from core.systems.heroquest.ratings import parse_rating
from core.systems.heroquest.resolution import RESOLUTION_POINTS
from core.systems.heroquest.state import HQContest, Pair
from core.text import clipped
from tui.draft import preview
from tui.fields import Answers, Field, FieldError, blame, whole
from tui.systems.heroquest.panes import own_contest
from tui.systems.screen_part import ContestActions, ContestKeys, Key, ScreenPart, while_open

# -- the contest screen's HeroQuest keys ----------------------------------------------------

AUGMENT_OTHER = "\x00other"  # the augment form's "Other: type a rating" (no ability's name)


def _hero_point(screen: ContestActions) -> None:
    state = own_contest(screen.state)
    chosen = own_contest(preview(screen.state, screen.draft).state).parties  # p's, waiting
    parties = list(chosen) or [p.name for p in state.participants]
    with_points = [p for p in parties if state.hero_points_left.get(p, 0) > 0]
    current = screen.current()
    default = current if current in with_points else (with_points or parties)[0]
    screen.ask(
        "Spend a hero point: bump a result one level",
        [Field("who", "Who spends it", default, tuple((p, p) for p in parties))],
        lambda a: SpendHeroPoints(who=a["who"], count=1),
    )


def _stretch(screen: ContestActions) -> None:
    who = screen.current()
    if who is not None:
        screen.add_extra(Stretch(who=who))


def _d20(screen: ContestActions, answers: Answers, key: str) -> int:
    """Field ``key``'s d20 face, refused under the field when no d20 shows it (``0``,
    ``21``); blank: Tussle rolls it."""
    text = answers[key].strip()
    if not text:
        return screen.tussle.dice.roll(DiceKind.D20)[0]
    return d20_face(text, key)


def d20_face(text: str, key: str | None = None, whose: str = "") -> int:
    """A d20 face typed as ``text``: 0, -1, 21 or a number of 22 digits is refused in the
    die's words (``a d20 shows 1 to 20, not 0``: its bound, tighter than any size, wins),
    letters as no whole number. ``whose`` leads the words (``Sandy v Ghoul, Sandy's
    roll: ``). A ``FieldError`` under field ``key``, a ``RuleError`` without one."""
    with blame(key) if key else nullcontext():
        try:
            face = written_face(DiceKind.D20, text)
        except BadDice as error:
            raise BadDice(f"{whose}{error}") from None
        if face is None:
            raise RuleError(f'{whose}"{clipped(text)}" is not a whole number (a d20: 1 to 20)')
    return face


def _augment(screen: ContestActions) -> None:
    """A rolled augment (rules §2.5): whose roll it helps, then whose ability lends it,
    picked from that character's abilities on the roster with their ratings (or "Other"
    to type a rating), then the two d20s."""
    from core.campaign.setup import own_ratings

    names = screen.names()
    roster = screen.tussle.campaign.roster
    recipient = screen.current() or names[0][1]
    taking_part = [name for name, _ in names]
    lenders = taking_part + [n for n in roster if n not in taking_part]
    other = ("Other: type a rating (like 17 or 4M)", AUGMENT_OTHER)
    by_name = {
        n: (*(own_ratings(screen.state.system, roster[n]) if n in roster else ()), other)
        for n in lenders
    }

    def command(a: Answers) -> Command:
        def d20(key: str) -> int:
            return _d20(screen, a, key)

        if a["ability"] == AUGMENT_OTHER:
            with blame("rating"):
                rating = parse_rating(a["rating"])
        else:
            lender = screen.tussle.campaign.roster.get(a["by"])
            if lender is None or a["ability"] not in lender.ratings:
                raise FieldError("ability", f"{a['by']} has no ability {a['ability']!r} now")
            rating = lender.ratings[a["ability"]]
        return Augment(
            recipient=a["for"],
            rating=rating,
            roll=d20("roll"),
            resistance_roll=d20("resistance"),
        )

    screen.ask(
        "An augment (rolled against the augment base)",
        [
            Field("for", "Whose roll it helps", recipient, names),
            Field("by", "Whose ability augments it", recipient, tuple((n, n) for n in lenders)),
            Field(
                "ability",
                "The augmenting ability (←/→: another; Other to type a rating)",
                by_name[recipient][0][1],
                follows="by",
                choices_by=by_name,
            ),
            Field("rating", "Its rating (like 17 or 4M)", shown_when=("ability", AUGMENT_OTHER)),
            Field("roll", "Its d20 roll (blank: Tussle rolls)", required=False),
            Field("resistance", "The base's d20 roll (blank: Tussle rolls)", required=False),
        ],
        command,
    )


def _declared(screen: ContestActions, title: str, make: type[Gamble | RespondDefensively]) -> None:
    """A risky gambit or a defensive response (rules §2.8.4-5): which party declares it,
    before the rolls of an extended contest's exchange."""
    state = own_contest(screen.state)
    if not state.options.extended:
        screen.notify(
            "Risky gambits and defensive responses are for an extended contest",
            title="Not allowed",
            severity="error",
        )
        return
    # The parties chosen on the keypad (p), not yet played, are this exchange's too.
    chosen = own_contest(preview(screen.state, screen.draft).state).parties
    parties = list(chosen or state.last_parties) or [p.name for p in state.participants]
    current = screen.current()
    screen.ask(
        title,
        [
            Field(
                "who",
                "Who declares it",
                current if current in parties else parties[0],
                tuple((p, p) for p in parties),
            )
        ],
        lambda a: make(who=a["who"]),
        rule_field="who",
    )


def _gambit(screen: ContestActions) -> None:
    _declared(screen, "Risky gambit: a win lodges 1 RP more, a loss 2 more", Gamble)


def _defensive(screen: ContestActions) -> None:
    _declared(
        screen, "Defensive response: a win lodges 2 RP fewer, a loss 1 fewer", RespondDefensively
    )


def _boost(screen: ContestActions) -> None:
    """A group boost (rules §2.7.4), bought before the rolls: the side, single or double,
    and who pays (blank: the members with the most hero points left pay)."""
    state = own_contest(screen.state)
    grouped = isinstance(state, HQGroupContest)  # a group extended contest: for the round
    if (
        not grouped
        and not state.open.pairs
        and not any(isinstance(c, SetPairs) for c in screen.draft.extras)
    ):
        screen.notify(
            "A boost is for a group exchange: set its pairs first (G)",
            title="Not allowed",
            severity="error",
        )
        return
    sides = tuple((side, side) for side in state.sides)
    first = [p for p in state.participants if p.side == sides[0][1]]

    def command(a: Answers) -> Command:
        side, double = a["side"], a["double"] == "double"
        members = [p.name for p in state.participants if p.side == side]
        cost = boost_cost(len(members), double)
        with blame("paid"):
            paid = (
                parse_paid(a["paid"], members)
                if a["paid"].strip()
                else _payers(state, members, cost)
            )
        return Boost(side=side, paid=paid, double=double)

    screen.ask(
        "Group boost: a tie or the side's win rises a level",
        [
            Field("side", "For which side", sides[0][1], sides),
            Field(
                "double",
                "How much",
                "single",
                (
                    ("One level (1 hero point per 3 on the side)", "single"),
                    ("Two levels (twice the price)", "double"),
                ),
            ),
            Field(
                "paid",
                "Who pays (blank: those with the most hero points)",
                required=False,
                placeholder=", ".join(f"{p.name} 1" for p in first[:2]),
            ),
        ],
        command,
    )


def _payers(state: HQContest, members: list[str], cost: int) -> tuple[tuple[str, int], ...]:
    """``cost`` hero points taken one at a time from whoever of ``members`` has the most
    left (the first listed on equal counts); the rules refuse it if they are not enough."""
    left = {name: state.hero_points_left.get(name, 0) for name in members}
    paid: dict[str, int] = {}
    for _ in range(cost):
        name = max(members, key=lambda n: (left[n], -members.index(n)))
        left[name] -= 1
        paid[name] = paid.get(name, 0) + 1
    return tuple(paid.items())


def parse_paid(text: str, members: Collection[str] = ()) -> tuple[tuple[str, int], ...]:
    """``"Tripitaka 1, Sandy 2"``: who pays a boost and how much (a name alone pays 1).
    A member of the side (``members``) followed by a word that is no number
    (``"Tripitaka lots"``) is refused for that word, not as someone not there."""
    paid = []
    for chunk in text.split(","):
        words = chunk.split()
        if not words:
            raise RuleError(f'"{text.strip()}": write who pays as "Tripitaka 1, Sandy 1"')
        name, last = " ".join(words[:-1]), words[-1]
        if len(words) > 1 and last.lstrip("+-−").isdigit():
            paid.append((name, whole(last)))
        elif len(words) > 1 and name in members and chunk.strip() not in members:
            raise RuleError(
                f'{name} pays "{clipped(last)}": hero points paid are a whole number '
                f'(write "{name} 1")'
            )
        else:
            paid.append((" ".join(words), 1))
    return tuple(paid)


def _automatic(screen: ContestActions) -> None:
    """An exchange the GM rules automatic (the seed: "we might decide some contests are
    automatic successes"): whose success or failure, and its level, without dice."""
    parties = list(own_contest(preview(screen.state, screen.draft).state).parties)
    if len(parties) != 2:
        screen.notify(
            "Choose the exchange's two parties first (p): an automatic result is one "
            "party's success or failure against the other",
            title="Not yet",
            severity="error",
        )
        return
    if any(screen.draft.typed.values()):
        screen.notify(
            "An automatic result takes no dice: Backspace takes back the dice typed "
            "(Esc clears the keypad)",
            title="Dice on the keypad",
            severity="error",
        )
        return
    current = screen.current()
    screen.ask(
        "An automatic result: no dice",
        [
            Field(
                "who",
                "Whose result",
                current if current in parties else parties[0],
                tuple((p, p) for p in parties),
            ),
            Field("result", "Ruled", "success", tuple((r, r) for r in RULINGS)),
            Field(
                "victory",
                "Its level (what the winner lodges and the loser takes, §2.6)",
                "marginal",
                tuple(
                    (f"{name} ({RESOLUTION_POINTS[i]} RP)", name)
                    for i, name in enumerate(AUTOMATIC_LEVELS, start=1)
                ),
            ),
        ],
        lambda a: RuleAutomatic(
            who=a["who"],
            result=ruling_named(a["result"]),
            victory=level_named(a["victory"]),
        ),
        rule_field="who",
    )


GROUP_ACTIONS = (
    ("engage: a new pairing, last in the round", "engage"),
    ("assist: the first, engaged with nobody, helps", "assist"),
    ("parting shot: at the second, out last round", "shot"),
    ("remove a follower: the second", "remove"),
)


def _group_action(screen: ContestActions) -> None:
    """HQ2's group extended contest between exchanges (E): engage a pairing, assist, a
    parting shot, removing a follower; each played at once, an action of its own (the
    three contests logged as exchanges), the keypad left as it is."""
    state = own_contest(screen.state)
    if not isinstance(state, HQGroupContest):
        screen.notify(
            "Engaging, assists and parting shots are for a group extended contest "
            "(the setup's Kind)",
            title="Not in this contest",
            severity="error",
        )
        return
    names = screen.names()
    first = names[0][1]
    second = next(
        (n for n, _ in names if state.hq_participant(n).side != state.hq_participant(first).side),
        first,
    )

    def command(a: Answers) -> Command:
        def d20(key: str) -> int:
            return _d20(screen, a, key)

        x, y, what = a["first"], a["second"], a["action"]
        if what == "engage":
            return Engage(a=x, b=y)
        if what == "assist":
            return Assist(helper=x, beneficiary=y, roll=d20("roll"), resistance_roll=d20("other"))
        if what == "shot":
            return PartingShot(shooter=x, target=y, roll=d20("roll"), defence_roll=d20("other"))
        return RemoveFollower(attacker=x, follower=y, roll=d20("roll"), defence_roll=d20("other"))

    screen.play_now(
        "Group extended contest: between exchanges",
        [
            Field("action", "What", "engage", GROUP_ACTIONS),
            Field("first", "The first", first, names),
            Field("second", "The second", second, names),
            Field(
                "roll", "The first's d20 (blank: Tussle rolls; not for engaging)", required=False
            ),
            Field(
                "other",
                "The other d20: the resistance's, the target's (blank: Tussle rolls)",
                required=False,
            ),
        ],
        command,
    )


def _aim(screen: ContestActions) -> None:
    """A party of the current pairing tries to disengage (or something else than
    winning): its win then scores nothing (HQ2, Disengaging; Asymmetrical Exchanges)."""
    state = own_contest(screen.state)
    assert isinstance(state, HQGroupContest)
    pairing = state.pairing
    if pairing is None:
        screen.notify(
            "Nobody is engaged: E engages a pairing first", title="Not yet", severity="error"
        )
        return
    current = screen.current()
    screen.ask(
        "Disengage, or try something else than winning",
        [
            Field(
                "who",
                "Who",
                current if current in pairing else pairing[0],
                tuple((p, p) for p in pairing),
            ),
            Field(
                "aim",
                "Tries to",
                "disengage",
                (
                    ("disengage: a win takes them out of the contest, unharmed", "disengage"),
                    ("something else (an asymmetrical exchange): a win scores nothing", "other"),
                ),
            ),
        ],
        lambda a: DeclareAim(who=a["who"], aim="other" if a["aim"] == "other" else "disengage"),
        rule_field="who",
    )


def _leave(screen: ContestActions) -> None:
    if isinstance(screen.state, HQGroupContest):  # a group extended contest's leaving
        _aim(screen)
        return
    names = screen.names()
    screen.ask(
        "Leave the chain after this exchange",
        [Field("who", "Who leaves", names[-1][1], names)],
        lambda a: Leave(who=a["who"]),
    )


def _parties(screen: ContestActions) -> None:
    names = screen.names()
    screen.ask(
        "The two parties of this exchange",
        [
            Field("a", "First party", names[0][1], names),
            Field("b", "Second party", names[-1][1], names),
        ],
        lambda a: SetParties(a=a["a"], b=a["b"]),
    )


def example_pairs(state: HQContest) -> str:
    """The pairs' example, in this contest's names: each of the first side against the
    first of the second (``Tripitaka v Ghoul 14 13, Sandy v Ghoul 5 9``)."""
    sides = state.sides
    first = [p.name for p in state.participants if p.side == sides[0]]
    other = next(p.name for p in state.participants if p.side != sides[0])
    rolls = ("14 13", "5 9")
    return ", ".join(f"{a} v {other} {rolls[i % 2]}" for i, a in enumerate(first[:2]))


def _group(screen: ContestActions) -> None:
    # Names in any case, kept as the contest spells them (the keypad said "tripitaka").
    spelled = {p.name.lower(): p.name for p in own_contest(screen.state).participants}

    def command(a: Answers) -> Command:
        with blame("pairs"):
            pairs = parse_pairs(a["pairs"])
        return SetPairs(
            pairs=tuple(
                replace(p, a=spelled.get(p.a.lower(), p.a), b=spelled.get(p.b.lower(), p.b))
                for p in pairs
            )
        )

    screen.ask(
        "A group simple contest",
        [
            Field(
                "pairs",
                "Pairs with their d20s (names in any case): A v B 14 13, C v B 5 9",
                placeholder=example_pairs(own_contest(screen.state)),
            )
        ],
        command,
    )


def parse_pairs(text: str) -> tuple[Pair, ...]:
    """``"A v B 14 13, C v B 5 9"``: a group contest's pairs with their two d20s."""
    pairs = []
    for chunk in text.split(","):
        words = chunk.split()
        if " v " not in f" {chunk} " or len(words) < 5:
            raise RuleError(f'"{chunk.strip()}": write a pair as "A v B 14 13"')
        at = words.index("v")
        a, b = " ".join(words[:at]), " ".join(words[at + 1 : -2])
        roll_a, roll_b = (
            d20_face(words[n], whose=f"{a} v {b}, {who}'s roll: ") for n, who in ((-2, a), (-1, b))
        )
        pairs.append(Pair(a=a, b=b, roll_a=roll_a, roll_b=roll_b))
    return tuple(pairs)


KEYS = while_open(
    (
        Key("modifier", Binding("h", "hero_point", "Hero pt", id="hero_point"), _hero_point),
        Key("modifier", Binding("g", "augment", "Augment", id="augment", show=False), _augment),
        Key("modifier", Binding("s", "stretch", "Stretch", id="stretch", show=False), _stretch),
        Key(
            "modifier",
            Binding("l", "leave", "Leave", id="leave"),
            _leave,
            applies=lambda state: own_contest(state).options.chain,  # §2.8: a chain's
        ),
        Key(
            "modifier",
            Binding("p", "parties", "Parties", id="parties", show=False),
            _parties,
            applies=lambda state: not isinstance(state, HQGroupContest),  # pairings there
        ),
        Key(
            "modifier",
            Binding("G", "group", "Group", id="group", show=False),
            _group,
            applies=lambda state: not isinstance(state, HQGroupContest),
        ),
        Key("modifier", Binding("x", "gambit", "Risky gambit", id="gambit", show=False), _gambit),
        Key(
            "modifier",
            Binding("f", "defensive", "Defensive response", id="defensive", show=False),
            _defensive,
        ),
        Key("modifier", Binding("B", "boost", "Group boost", id="boost", show=False), _boost),
        Key(
            "modifier",
            Binding("A", "automatic", "Automatic result", id="automatic", show=False),
            _automatic,
            applies=lambda state: not isinstance(state, HQGroupContest),
        ),
        Key(
            "modifier",
            Binding("E", "group_action", "Engage", id="group_action"),
            _group_action,
            applies=lambda state: isinstance(state, HQGroupContest),
        ),
    )
)


class HeroQuestKeys(ContestKeys, keys=KEYS):
    """HeroQuest's keys on the contest screen."""


SCREEN = ScreenPart(
    keys=HeroQuestKeys,
)
