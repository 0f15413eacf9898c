"""HeroQuest on the dashboard: ratings as 4M, hero points, states of adversity, RP; and
HeroQuest's keys on the contest screen (hero points, augments, stretches, group contests,
risky gambits, defensive responses and group boosts)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from textual.binding import Binding

from core.campaign import CampaignState, Character, ContestRecord
from core.dice import DiceKind
from core.errors import RuleError
from core.model import Command, Contest
from core.setup import Pick
from core.systems import heroquest as hq
from core.systems.heroquest.sheet import RESISTANCE_CLASSES, resistance
from tui.draft import Draft, Preview, dice_kind, faces_of
from tui.fields import Answers, Field, FieldError, blame, whole
from tui.systems.common import bar, cell, cells, e, hidden_mark, pct, pips, secret_heading
from tui.systems.roster_part import RosterPart, number
from tui.systems.screen_part import ContestActions, Key, ScreenPart
from tui.systems.setup_part import SetupActions, SetupKey, SetupPart, number_answer, whole_answer
from tui.widgets.keypad import KeypadRow

ROUND = "Exchange"  # what the scoreboard calls the coming round: "Exchange 2"
ASPECTS_TITLE = "Situation"


def _own(state: Contest) -> hq.HQContest:
    assert isinstance(state, hq.HQContest)
    return state


def score(record: ContestRecord) -> tuple[str, dict[str, str]]:
    state = _own(record.state)
    opts = state.options
    kind = "extended" if opts.extended else "chained" if opts.chained else "simple"
    if not opts.chain:
        return f"HeroQuest {kind} contest", {side: "" for side in state.sides}
    cells = {
        side: (f"[$accent]{pips(rp, 5)}[/] " if opts.extended else "") + f"{rp} RP"
        for side, rp in state.resolution_points.items()
    }
    return f"HeroQuest {kind} contest", cells


def adversity(record: ContestRecord) -> dict[str, str]:
    """Each participant's latest state of adversity in this contest."""
    found: dict[str, str] = {}
    for event in record.exchanges:
        if isinstance(event, hq.ExchangeResolved):
            found.update(event.consequence)
    return found


def participants(record: ContestRecord) -> list[str]:
    state = _own(record.state)
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
            lines.append(f"{pad}  {e(what)} {hq.format_rating(p.rating)}{vit}")
            lasting = lingering(p)
            if lasting:
                lines.append(f"{pad}  [$warning]{lasting}[/]")
            if p.name in states:
                lines.append(f"{pad}  [$warning]{e(states[p.name])}[/]")
    return lines


def lingering(p: hq.HQParticipant) -> str:
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


def gm_notes(record: ContestRecord) -> list[str]:
    return []


def aspects(state: Contest, hidden: Collection[str] = (), players: bool = False) -> list[str]:
    """The situation: HeroQuest has no aspects to hide."""
    opts = _own(state).options
    lines = [f"Tie-break: {opts.tie_break} roll wins", f"Augment base: {opts.augment_base}"]
    if opts.extended:
        lines.append("Extended: first to 5 RP")
    elif opts.chained:
        lines.append("Chained: until one leaves")
    return lines


def rows(preview: Preview, draft: Draft) -> list[KeypadRow]:
    state = _own(preview.state)
    out = []
    for i, who in enumerate(preview.slots):
        typed = draft.typed.get(who, "")
        target = state.target(who)
        text = f"vs {hq.format_rating(target)}"
        faces = faces_of(DiceKind.D20, typed)
        if target <= 0:
            text += " · [b]defeated without rolling[/b]"
        elif faces is not None:
            base, _ = hq.normalise(target)
            text += f" · {hq.LEVELS[hq.classify(faces[0], base)]} before bumps"
        out.append(KeypadRow(who, cells(typed, 2), text, i == draft.cursor))
    return out


def verdict(preview: Preview, draft: Draft) -> str:
    state = _own(preview.state)
    parties = list(state.parties)
    if len(parties) != 2:
        return "" if state.open.pairs else "[dim]p: choose the two parties · G: a group contest[/]"
    rolls = [faces_of(DiceKind.D20, draft.typed.get(p, "")) for p in parties]
    a, b = (state.party(p, r[0] if r else None) for p, r in zip(parties, rolls, strict=True))
    if (a.roll is None and a.target > 0) or (b.roll is None and b.target > 0):
        return ""
    out = hq.simple_contest(a, b, state.options.tie_break)
    if out.winner is None:
        return "⇒ [b]a tie[/b]"
    winner, loser = parties if out.winner == "a" else parties[::-1]
    points = state.lodged(winner, loser, out.victory)  # gambits, defensive responses
    return f"⇒ [b]{e(winner)}[/b] would win: {hq.VICTORIES[out.victory]} ({points} RP)"


def twist_pending(state: Contest) -> bool:
    return False


def describe_extra(command: Command) -> str | None:
    match command:
        case hq.SpendHeroPoints():
            return f"Hero point: {e(command.who)} ×{command.count}"
        case hq.Stretch():
            return f"Stretch: {e(command.who)} (−6, victory at most minor)"
        case hq.Augment():
            return (
                f"Augment for {e(command.recipient)}: "
                f"{hq.format_rating(command.rating)} rolls {command.roll}"
            )
        case hq.Leave():
            return f"Leave: {e(command.who)} leaves after this exchange"
        case hq.SetParties():
            return f"Parties: {e(command.a)} vs {e(command.b)}"
        case hq.SetPairs():
            pairs = ", ".join(f"{p.a}–{p.b} {p.roll_a}/{p.roll_b}" for p in command.pairs)
            return f"Group: {e(pairs)}"
        case hq.Gamble():
            return f"Risky gambit: {e(command.who)} (+1 RP on a win, +2 to the other on a loss)"
        case hq.RespondDefensively():
            return f"Defensive: {e(command.who)} (−2 RP on a win, −1 to the other on a loss)"
        case hq.Boost():
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
    state = _own(state)
    extended = state.options.extended
    for party, o in exchange["sides"].items():
        side = state.participant(party).side
        if extended:
            cells[side] = cell(o["win"], contest_odds.get(side), f"to {hq.EXTENDED_GOAL} RP")
        elif state.options.chained:
            cells[side] = cell(o["win"], None, "")
        else:
            cells[side] = f"wins {pct(o['win'])} [$accent]{bar(o['win'])}[/]"
    return cells, f"tie {pct(exchange['tie'])}"


# -- the contest screen's HeroQuest keys ----------------------------------------------------

AUGMENT_OTHER = "\x00other"  # the augment form's "Other: type a rating" (no ability's name)


def _hero_point(screen: ContestActions) -> None:
    state = _own(screen.state)
    parties = list(state.parties) or [p.name for p in state.participants]
    with_points = [p for p in parties if state.hero_points_left.get(p, 0) > 0]
    current = screen.current()
    default = current if current in with_points else (with_points or parties)[0]
    screen.ask(
        "Spend a hero point: bump a result one level",
        [Field("who", "Who spends it", default, tuple((p, p) for p in parties))],
        lambda a: hq.SpendHeroPoints(who=a["who"], count=1),
    )


def _stretch(screen: ContestActions) -> None:
    who = screen.current()
    if who is not None:
        screen.add_extra(hq.Stretch(who=who))


def _augment(screen: ContestActions) -> None:
    """A rolled augment (rules §2.5): whose roll it helps, then whose ability lends it,
    picked from that character's abilities on the roster with their ratings (or "Other"
    to type a rating), then the two d20s."""
    from core.setup import own_ratings

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
            text = a[key]
            return whole(text, key) if text else screen.tussle.dice.roll(dice_kind(screen.state))[0]

        if a["ability"] == AUGMENT_OTHER:
            with blame("rating"):
                rating = hq.parse_rating(a["rating"])
        else:
            lender = screen.tussle.campaign.roster.get(a["by"])
            if lender is None or a["ability"] not in lender.ratings:
                raise FieldError("ability", f"{a['by']} has no ability {a['ability']!r} now")
            rating = lender.ratings[a["ability"]]
        return hq.Augment(
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


def _declared(
    screen: ContestActions, title: str, make: type[hq.Gamble | hq.RespondDefensively]
) -> None:
    """A risky gambit or a defensive response (rules §2.8.4-5): which party declares it,
    before the rolls of an extended contest's exchange."""
    state = _own(screen.state)
    if not state.options.extended:
        screen.notify(
            "Risky gambits and defensive responses are for an extended contest",
            title="Not allowed",
            severity="error",
        )
        return
    parties = list(state.parties or state.last_parties) or [p.name for p in state.participants]
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
    _declared(screen, "Risky gambit: a win lodges 1 RP more, a loss 2 more", hq.Gamble)


def _defensive(screen: ContestActions) -> None:
    _declared(
        screen, "Defensive response: a win lodges 2 RP fewer, a loss 1 fewer", hq.RespondDefensively
    )


def _boost(screen: ContestActions) -> None:
    """A group boost (rules §2.7.4), bought before the rolls: the side, single or double,
    and who pays (blank: the members with the most hero points left pay)."""
    state = _own(screen.state)
    if not state.open.pairs and not any(isinstance(c, hq.SetPairs) for c in screen.draft.extras):
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
        cost = hq.boost_cost(len(members), double)
        with blame("paid"):
            paid = parse_paid(a["paid"]) if a["paid"].strip() else _payers(state, members, cost)
        return hq.Boost(side=side, paid=paid, double=double)

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


def _payers(state: hq.HQContest, members: list[str], cost: int) -> tuple[tuple[str, int], ...]:
    """``cost`` hero points taken one at a time from whoever of ``members`` has the most
    left (the first listed on equal counts); the rules refuse it if they are not enough."""
    left = {name: state.hero_points_left.get(name, 0) for name in members}
    paid: dict[str, int] = {}
    for _ in range(cost):
        name = max(members, key=lambda n: (left[n], -members.index(n)))
        left[name] -= 1
        paid[name] = paid.get(name, 0) + 1
    return tuple(paid.items())


def parse_paid(text: str) -> tuple[tuple[str, int], ...]:
    """``"Tripitaka 1, Sandy 2"``: who pays a boost and how much (a name alone pays 1)."""
    paid = []
    for chunk in text.split(","):
        words = chunk.split()
        if not words:
            raise RuleError(f'"{text.strip()}": write who pays as "Tripitaka 1, Sandy 1"')
        if len(words) > 1 and words[-1].lstrip("-−").isdigit():
            paid.append((" ".join(words[:-1]), whole(words[-1])))
        else:
            paid.append((" ".join(words), 1))
    return tuple(paid)


def _leave(screen: ContestActions) -> None:
    names = screen.names()
    screen.ask(
        "Leave the chain after this exchange",
        [Field("who", "Who leaves", names[-1][1], names)],
        lambda a: hq.Leave(who=a["who"]),
    )


def _parties(screen: ContestActions) -> None:
    names = screen.names()
    screen.ask(
        "The two parties of this exchange",
        [
            Field("a", "First party", names[0][1], names),
            Field("b", "Second party", names[-1][1], names),
        ],
        lambda a: hq.SetParties(a=a["a"], b=a["b"]),
    )


def _group(screen: ContestActions) -> None:
    def command(a: Answers) -> Command:
        with blame("pairs"):
            return hq.SetPairs(pairs=parse_pairs(a["pairs"]))

    screen.ask(
        "A group simple contest",
        [
            Field(
                "pairs",
                "Pairs with their d20s: A v B 14 13, C v B 5 9",
                placeholder="Tripitaka v Ghoul 14 13, Sandy v Ghoul 5 9",
            )
        ],
        command,
    )


def parse_pairs(text: str) -> tuple[hq.Pair, ...]:
    """``"A v B 14 13, C v B 5 9"``: a group contest's pairs with their two d20s."""
    pairs = []
    for chunk in text.split(","):
        words = chunk.split()
        if " v " not in f" {chunk} " or len(words) < 5:
            raise RuleError(f'"{chunk.strip()}": write a pair as "A v B 14 13"')
        at = words.index("v")
        a, b = " ".join(words[:at]), " ".join(words[at + 1 : -2])
        pairs.append(hq.Pair(a=a, b=b, roll_a=whole(words[-2]), roll_b=whole(words[-1])))
    return tuple(pairs)


SCREEN = ScreenPart(
    keys=(
        Key("modifier", Binding("h", "hero_point", "Hero pt", id="hero_point"), _hero_point),
        Key("modifier", Binding("g", "augment", "Augment", id="augment", show=False), _augment),
        Key("modifier", Binding("s", "stretch", "Stretch", id="stretch", show=False), _stretch),
        Key("modifier", Binding("l", "leave", "Leave", id="leave"), _leave),
        Key("modifier", Binding("p", "parties", "Parties", id="parties", show=False), _parties),
        Key("modifier", Binding("G", "group", "Group", id="group", show=False), _group),
        Key("modifier", Binding("x", "gambit", "Risky gambit", id="gambit", show=False), _gambit),
        Key(
            "modifier",
            Binding("f", "defensive", "Defensive response", id="defensive", show=False),
            _defensive,
        ),
        Key("modifier", Binding("B", "boost", "Group boost", id="boost", show=False), _boost),
    ),
)


# -- the roster ------------------------------------------------------------------------------

ADVERSITY = ("hurt", "impaired", "injured", "dying", "dead")  # §2.6
MOST_OF_A_STATE = 9  # "hurt×99" is a typing slip, not a character


def adversity_text(states: Iterable[str]) -> str:
    """``("hurt", "hurt", "impaired")`` as ``"hurt×2, impaired"``."""
    counts = Counter(states)
    return ", ".join(s if n == 1 else f"{s}×{n}" for s, n in counts.items())


def parse_adversity(text: str) -> tuple[str, ...]:
    """``"hurt×2, impaired"`` (or ``hurt x2``, ``hurt, hurt, impaired``) as states."""
    out: list[str] = []
    for chunk in text.replace(";", ",").split(","):
        chunk = chunk.strip().lower()
        if not chunk:
            continue
        found = re.fullmatch(r"([a-z]+)\s*(?:[×x*]\s*(\d+))?", chunk)
        if found is None or found.group(1) not in ADVERSITY:
            raise RuleError(
                f'"{chunk}" is not a state of adversity: write hurt, impaired, injured, '
                "dying or dead (hurt×2 or hurt x2 for two)"
            )
        n = int(found.group(2) or 1)
        if n > MOST_OF_A_STATE:
            raise RuleError(f'"{chunk}": at most {MOST_OF_A_STATE} of one state')
        out += [found.group(1)] * n
    return tuple(out)


def benefits_text(benefits: Mapping[str, int]) -> str:
    """``{"Fist": 3}`` as ``"Fist +3"``."""
    return ", ".join(f"{name} {value:+d}" for name, value in benefits.items())


def parse_benefits(text: str, ratings: Mapping[str, int]) -> dict[str, int]:
    """``"Fist +3, Sword +6"``: lingering benefits by ability (spelled as in ``ratings``
    when the name matches one, whatever its case)."""
    spelled = {name.lower(): name for name in ratings}
    out: dict[str, int] = {}
    for chunk in text.replace(";", ",").split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        name, _, value = chunk.rpartition(" ")
        try:
            bonus = int(value)
        except ValueError:
            bonus = 0
        if not name.strip() or bonus < 1:
            raise RuleError(
                f'"{chunk}": write a lingering benefit as an ability then a bonus '
                "(Fist +3, Sword +6)"
            )
        name = spelled.get(name.strip().lower(), name.strip())
        out[name] = out.get(name, 0) + bonus  # several add up
    return out


def _state(c: Character, campaign: CampaignState) -> str:
    """``HP 3 · vit +1 · hurt×2 · Fist +3``."""
    parts = [f"HP {c.hero_points}"]
    if c.vitality:
        parts.append(f"vit {c.vitality:+d}")
    if c.adversity:
        parts.append(adversity_text(c.adversity))
    if c.benefits:
        parts.append(benefits_text(c.benefits))
    return " · ".join(parts)


def _fields(c: Character) -> list[Field]:
    return [
        Field("hero_points", "Hero points", str(c.hero_points), required=False),
        Field("vitality", "Vitality", str(c.vitality), required=False),
        Field(
            "adversity",
            "States of adversity (hurt, impaired, injured, dying, dead; hurt×2)",
            adversity_text(c.adversity),
            placeholder="none",
            required=False,
        ),
        Field(
            "benefits",
            "Lingering benefits (Fist +3, Sword +6)",
            benefits_text(c.benefits),
            placeholder="none",
            required=False,
        ),
    ]


def _changes(a: Answers, ratings: Mapping[str, int]) -> dict[str, Any]:
    changes: dict[str, Any] = {
        "hero_points": number(a, "hero_points", "Hero points"),
        "vitality": number(a, "vitality", "Vitality"),
    }
    with blame("adversity"):
        changes["adversity"] = parse_adversity(a.get("adversity", ""))
    with blame("benefits"):
        changes["benefits"] = parse_benefits(a.get("benefits", ""), ratings)
    return changes


ROSTER = RosterPart(
    ratings_label="Abilities (Sword 4M, Lore 17)",
    rating_text=hq.format_rating,
    parse_rating=hq.parse_rating,
    state=_state,
    fields=_fields,
    changes=_changes,
    session_reset="hero points",
)


# -- the contest setup -----------------------------------------------------------------------


def _options_from(a: Answers) -> dict[str, Any]:
    return {
        "chained": a["kind"] == "chained",
        "extended": a["kind"] == "extended",
        "tie_break": a["tie_break"],
        "augment_base": number_answer(a, "augment_base"),
    }


def _resistance(screen: SetupActions) -> None:
    """A resistance from the table (§2.5): its class and the sessions played."""
    classes = tuple((c.title(), c) for c in RESISTANCE_CLASSES)
    sessions = str(screen.tussle.campaign.settings.get("sessions", 1))
    taken = {p.character for p in screen.picks}

    def parse(a: Answers) -> Pick:
        if a["name"] in taken:
            raise FieldError("name", f'"{a["name"]}" is already in the contest')
        played = whole_answer(a, "sessions", 1)
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
            ),
        ),
        Field(
            "tie_break",
            "Equal results go to",
            "low",
            (("the low roll", "low"), ("the high roll", "high")),
        ),
        Field("augment_base", "Augment base", "14"),
    ),
    options_from=_options_from,
    keys=(
        SetupKey(
            "setup.options",
            Binding("r", "resistance", "Resistance", id="setup.resistance"),
            _resistance,
        ),
    ),
)
