"""HeroQuest scenarios (scenario.md, "HeroQuest"): options, participants and exchanges.

An exchange is read in this order: its parties (``rolls``' names, or ``pairs``), the
rolls that are valid d20s, ``modifiers``, ``augments``, ``hero_points``, ``stretch``,
``gambits``, ``defensive``, ``boost``, the rolls still missing or invalid, ``leave``. A
roll is checked only once the party's target is known, since a party at 0 or less does
not roll and its roll is then ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator

from core.errors import RuleError
from core.model import Command, Contest, ResolveExchange, RollDice, SetModifier
from core.rules.base import own
from core.rules.reading import (
    Node,
    ScenarioError,
    SystemReader,
    is_int,
    missing_next,
    name_in,
    read_participants,
)
from core.systems.heroquest.automatic import (
    AUTOMATIC_LEVELS,
    RULINGS,
    RuleAutomatic,
    level_named,
    ruling_named,
)
from core.systems.heroquest.consequences import adversity_effects
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
from core.systems.heroquest.group_extended import Role
from core.systems.heroquest.group_play import (
    Assist,
    DeclareAim,
    Engage,
    HQGroupContest,
    PartingShot,
    RemoveFollower,
    new_group,
)
from core.systems.heroquest.modifiers import boost_cost
from core.systems.heroquest.ratings import parse_rating
from core.systems.heroquest.rules import check_pair
from core.systems.heroquest.state import HQContest, HQOptions, HQParticipant, Pair, new_contest

OPTION_KEYS = ("tie_break", "chained", "extended", "augment_base", "group")
PARTICIPANT_KEYS = ("rating", "vitality", "hero_points", "adversity", "role", "leader")
ROLES = ("character", "contestant", "secondary", "supporter")
SIDE_KEYS = {
    "assist": ("helper", "for", "against", "roll", "resistance_roll", "resistance", "modifier"),
    "parting_shot": ("shooter", "target", "rolls", "modifier"),
    "remove_follower": ("attacker", "follower", "rolls", "modifier"),
}
ADVERSITY = ("hurt", "impaired", "injured")  # "dying" is an error of its own
AUGMENT_KEYS = ("for", "rating", "roll", "resistance_roll")
PAIR_KEYS = ("a", "b", "rolls")
PARTY_KEYS = ("modifiers", "augments", "hero_points", "stretch", "gambits", "defensive")
BOOST_KEYS = ("side", "double", "paid")
AUTOMATIC_KEYS = ("who", "against", "result", "victory")

Step = tuple[str, Command]
# A roll left for later: the party, the value given (None: left out) and its place.
Deferred = tuple[str, Node | None, str]


def read_rating(node: Node) -> int:
    """A rating: a string (``"17"``, ``"4M"``, ``"10M2"``) or an int, the linear value."""
    if is_int(node.value):
        value: int = node.value
        return value
    if not isinstance(node.value, str):
        node.fail('expected a rating ("17", "4M", "10M2") or its linear value as an integer')
    try:
        return parse_rating(node.value)
    except RuleError as error:
        node.fail(str(error))


def read_d20(node: Node) -> int:
    value = node.as_int()
    if not 1 <= value <= 20:
        node.fail(f"a d20 shows 1 to 20, not {value}")
    return value


def _valid_d20(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 20:
        return value
    return None


def read_options(root: Node) -> HQOptions:
    node = root.get("options")
    if node is None:
        return HQOptions()
    node.check_keys(OPTION_KEYS)
    tie_break = node.str_("tie_break", "low", ("low", "high"))
    return HQOptions(
        tie_break="high" if tie_break == "high" else "low",
        chained=node.bool_("chained", False),
        extended=node.bool_("extended", False),
        augment_base=node.int_("augment_base", 14, of=HQOptions),
        group_extended=node.bool_("group", False),
    )


def _participant(item: Node, name: str, side: str) -> HQParticipant:
    rating = read_rating(item.need("rating"))
    vitality = item.int_("vitality", 0)
    hero_points = item.int_("hero_points", 0, of=HQParticipant)
    states: list[str] = []
    adversity = item.get("adversity")
    for entry in adversity.items() if adversity is not None else ():
        state = entry.as_str()
        if state == "dying":
            entry.fail("a dying character cannot take part in a contest")
        if state not in ADVERSITY:
            entry.fail(f'"{state}" is not one of {", ".join(ADVERSITY)}')
        states.append(state)
    condition, bumps_down = adversity_effects(states)
    return HQParticipant(
        name=name,
        side=side,
        rating=rating,
        vitality=vitality,
        hero_points=hero_points,
        condition=condition,
        bumps_down=bumps_down,
    )


def _followers(root: Node) -> dict[str, tuple[Role, str]]:
    """The followers among the participants: name -> (role, leader)."""
    found: dict[str, tuple[Role, str]] = {}
    for item in root.need("participants").items():
        role_node, leader = item.get("role"), item.get("leader")
        if role_node is None and leader is None:
            continue
        role = "character" if role_node is None else role_node.as_str(ROLES)
        if role == "character":
            if leader is not None:
                leader.fail("a character follows nobody: give a follower's role")
            continue
        if leader is None:
            item.fail_key("leader", "missing: whom the follower follows")
        found[item.need("name").as_str()] = (
            "contestant"
            if role == "contestant"
            else "secondary"
            if role == "secondary"
            else "supporter",
            leader.as_str(),
        )
    return found


class HeroQuestReader(SystemReader):
    exchange_keys = frozenset(
        {"rolls", "pairs", *PARTY_KEYS, "boost", "leave", "automatic", "engage", "aims"}
        | set(SIDE_KEYS)
    )

    def read_contest(self, root: Node) -> Contest:
        options = read_options(root)
        participants = read_participants(root, PARTICIPANT_KEYS, _participant)
        if not options.group_extended:
            for item in root.need("participants").items():
                for key in ("role", "leader"):
                    if item.get(key) is not None:
                        item.fail_key(key, "for a group extended contest (options.group) only")
        followers = _followers(root)
        if options.group_extended:
            try:
                return new_group(participants, options, followers=followers)
            except RuleError as error:
                root.fail_key("participants", str(error))
        return new_contest(participants, options)

    def exchange_steps(self, ex: Node, current: Callable[[], Contest]) -> Iterator[Step]:
        def state() -> HQContest:
            return own(current(), HQContest)

        if isinstance(current(), HQGroupContest):
            yield from self._group_steps(ex, state)
            return
        for key in ("engage", "aims", *SIDE_KEYS):
            if ex.get(key) is not None:
                ex.fail_key(key, "for a group extended contest (options.group) only")

        rolls = ex.get("rolls")
        pairs = ex.get("pairs")
        automatic = ex.get("automatic")
        if rolls is not None and pairs is not None:
            ex.fail("an exchange has rolls (two parties) or pairs (a group), not both")
        if automatic is not None:
            yield from self._automatic(ex, automatic, state())
            return
        if pairs is not None:
            deferred = yield from self._pairs(pairs, state())
        elif rolls is not None:
            deferred = yield from self._rolls(rolls, state())
        elif ex.get("leave") is None or any(ex.get(key) is not None for key in PARTY_KEYS):
            ex.fail_key("rolls", "missing")
        else:
            deferred = []  # a leave-only exchange
        yield from self._party_keys(ex, state)
        boost = ex.get("boost")
        if boost is not None:
            yield from self._boost(boost, state())
        for name, node, place in deferred:
            if state().target(name) > 0:
                if node is None:
                    raise ScenarioError(place, "missing")
                read_d20(node)
        leave = ex.get("leave")
        if leave is not None:
            yield leave.place, Leave(who=name_in(leave, [p.name for p in state().participants]))
        yield ex.place, ResolveExchange()

    def _group_steps(self, ex: Node, state: Callable[[], HQContest]) -> Iterator[Step]:
        """An exchange of a group extended contest: pairings engaged (``engage``), the
        round's ``boost``, then either one contest between exchanges (``assist``,
        ``parting_shot``, ``remove_follower``) or the current pairing's exchange
        (``rolls``, ``aims`` and the party keys)."""
        names = [p.name for p in state().participants]
        sides = [key for key in SIDE_KEYS if ex.get(key) is not None]
        if len(sides) > 1 or (sides and ex.get("rolls") is not None):
            ex.fail("an exchange is one contest: rolls, assist, parting_shot or remove_follower")
        for key in ("pairs", "leave", "automatic"):
            if ex.get(key) is not None:
                ex.fail_key(key, "not in a group extended contest (engage the pairings)")
        engage_node = ex.get("engage")
        for item in engage_node.items() if engage_node is not None else ():
            pair = item.expect_list()
            if len(pair) != 2:
                item.fail("expected two names, [a, b]")
            a = name_in(Node(pair[0], item.child_place(0)), names)
            b = name_in(Node(pair[1], item.child_place(1)), names)
            yield item.place, Engage(a=a, b=b)
        boost = ex.get("boost")
        if boost is not None:
            boost.check_keys(BOOST_KEYS)
            side = boost.need("side").as_str()
            paid = boost.need("paid")
            yield (
                boost.place,
                Boost(
                    side=side,
                    paid=tuple((n, e.as_int(minimum=0)) for n, e in paid.entries()),
                    double=boost.bool_("double", False),
                ),
            )
        if sides:
            yield from self._side_contest(sides[0], ex.need(sides[0]), names)
            return
        rolls = ex.get("rolls")
        if rolls is None:
            if engage_node is None and boost is None:
                ex.fail_key("rolls", "missing")
            return
        pairing = own(state(), HQGroupContest).pairing
        if pairing is None:
            rolls.fail("nobody is engaged: engage a pairing first (engage)")
        raw = rolls.expect_object()
        for key in raw:
            if key not in names:
                rolls.fail_key(key, f'no participant "{key}"')
            if key not in pairing:
                rolls.fail_key(key, f"the coming exchange is {pairing[0]} v {pairing[1]}")
        aims = ex.get("aims")
        for name, node in aims.entries() if aims is not None else ():
            if name not in pairing:
                node.fail(f"the coming exchange is {pairing[0]} v {pairing[1]}")
            aim = node.as_str(("win", "disengage", "other"))
            yield (
                node.place,
                DeclareAim(who=name, aim="disengage" if aim == "disengage" else "other")
                if aim != "win"
                else DeclareAim(who=name, aim="win"),
            )
        for name in pairing:
            value = raw.get(name)
            if value is not None:
                roll = read_d20(Node(value, rolls.child_place(name)))
                yield rolls.child_place(name), RollDice(who=name, faces=(roll,))
        yield from self._party_keys(ex, state)
        yield ex.place, ResolveExchange()

    @staticmethod
    def _side_contest(key: str, node: Node, names: list[str]) -> Iterator[Step]:
        node.check_keys(SIDE_KEYS[key])

        def who(field: str) -> str:
            return name_in(node.need(field), names)

        def two() -> tuple[int, int]:
            rolls = node.need("rolls")
            given = rolls.expect_list()
            if len(given) != 2:
                rolls.fail("expected two d20 rolls")
            return (
                read_d20(Node(given[0], rolls.child_place(0))),
                read_d20(Node(given[1], rolls.child_place(1))),
            )

        modifier = node.int_("modifier", 0)
        command: Command
        if key == "assist":
            against = node.get("against")
            resistance = node.get("resistance")
            command = Assist(
                helper=who("helper"),
                beneficiary=who("for"),
                against=None if against is None else name_in(against, names),
                roll=read_d20(node.need("roll")),
                resistance_roll=read_d20(node.need("resistance_roll")),
                resistance=None if resistance is None else read_rating(resistance),
                modifier=modifier,
            )
        elif key == "parting_shot":
            shooter, target = who("shooter"), who("target")
            roll, defence = two()
            command = PartingShot(
                shooter=shooter, target=target, roll=roll, defence_roll=defence, modifier=modifier
            )
        else:
            attacker, follower = who("attacker"), who("follower")
            roll, defence = two()
            command = RemoveFollower(
                attacker=attacker,
                follower=follower,
                roll=roll,
                defence_roll=defence,
                modifier=modifier,
            )
        yield node.place, command

    @staticmethod
    def _automatic(ex: Node, node: Node, c: HQContest) -> Iterator[Step]:
        """An exchange the GM rules automatic: ``who`` (and, with more than two
        participants and no earlier exchange of ``who``'s, the other party ``against``),
        ``result`` and ``victory``; nothing that dice would need beside it."""
        for key in ("rolls", "pairs", "boost", *PARTY_KEYS):
            if ex.get(key) is not None:
                ex.fail_key(key, "an automatic exchange takes no dice: no " + key)
        node.check_keys(AUTOMATIC_KEYS)
        names = [p.name for p in c.participants]
        who = name_in(node.need("who"), names)
        against = node.get("against")
        if against is not None:
            other = name_in(against, names)
            yield against.place, SetParties(a=who, b=other)
        elif len(names) > 2 and who not in c.last_parties:
            node.fail_key(
                "against", "missing: with more than two participants, name the other party"
            )
        result = ruling_named(node.str_("result", "success", RULINGS))
        victory = level_named(node.str_("victory", "marginal", AUTOMATIC_LEVELS))
        yield node.place, RuleAutomatic(who=who, result=result, victory=victory)
        leave = ex.get("leave")
        if leave is not None:
            yield leave.place, Leave(who=name_in(leave, names))
        yield ex.place, ResolveExchange()

    @staticmethod
    def _rolls(node: Node, c: HQContest) -> Generator[Step, None, list[Deferred]]:
        """The parties (the two participants, or the two names given) and their rolls."""
        raw = node.expect_object()
        names = [p.name for p in c.participants]
        for key in raw:
            if key not in names:
                node.fail_key(key, f'no participant "{key}"')
        if len(names) == 2:
            parties = names
        elif len(raw) == 2:
            parties = list(raw)
        else:
            node.fail(
                "with more than two participants, name the exchange's two parties here "
                "(null for a roll that is not needed)"
            )
        yield node.place, SetParties(a=parties[0], b=parties[1])
        deferred: list[Deferred] = []
        for name in parties:
            value, place = raw.get(name), node.child_place(name)
            roll = _valid_d20(value)
            if roll is None:
                deferred.append((name, None if value is None else Node(value, place), place))
            else:
                yield place, RollDice(who=name, faces=(roll,))
        return deferred

    @staticmethod
    def _pairs(node: Node, c: HQContest) -> Generator[Step, None, list[Deferred]]:
        names = [p.name for p in c.participants]
        pairs: list[Pair] = []
        deferred: list[Deferred] = []
        for item in node.items():
            item.check_keys(PAIR_KEYS)
            a = name_in(item.need("a"), names)
            b = name_in(item.need("b"), names)
            rolls = item.get("rolls")
            given: list[object] = [None, None]
            if rolls is not None:
                given = rolls.expect_list()
                if len(given) != 2:
                    rolls.fail(f"expected two rolls, [{a}'s, {b}'s]")
            valid: list[int | None] = []
            for i, (name, value) in enumerate(zip((a, b), given, strict=True)):
                place = item.child_place("rolls") if rolls is None else rolls.child_place(i)
                valid.append(_valid_d20(value))
                if valid[-1] is None:
                    deferred.append((name, None if value is None else Node(value, place), place))
            pair = Pair(a=a, b=b, roll_a=valid[0], roll_b=valid[1])
            try:
                check_pair(c, pairs, pair)
            except RuleError as error:
                item.fail(str(error))
            pairs.append(pair)
        if not pairs:
            node.fail("a group exchange needs at least one pair")
        yield node.place, SetPairs(pairs=tuple(pairs))
        return deferred

    next_keys = frozenset({"parties", *PARTY_KEYS})

    def next_steps(self, node: Node | None, current: Callable[[], Contest]) -> Iterator[Step]:
        def state() -> HQContest:
            return own(current(), HQContest)

        c = state()
        names = [p.name for p in c.participants]
        given = None if node is None else node.get("parties")
        if isinstance(c, HQGroupContest):  # the coming exchange is the current pairing's
            if given is not None:
                given.fail("a group extended contest's next exchange is its current pairing")
            if node is not None:
                yield from self._party_keys(node, state)
            return
        if given is not None:
            items = list(given.items())
            if len(items) != 2:
                given.fail(f"expected the two parties' names, got a list of {len(items)}")
            a, b = (name_in(item, names) for item in items)
            yield given.place, SetParties(a=a, b=b)
        elif not c.open.kind and len(c.participants) > 2:
            if len(c.last_parties) != 2:
                missing_next(
                    node, "parties", "with more than two participants, name the two parties"
                )
            yield (
                ("next" if node is None else node.place),
                SetParties(a=c.last_parties[0], b=c.last_parties[1]),
            )
        if node is not None:
            yield from self._party_keys(node, state)

    @staticmethod
    def _party_keys(ex: Node, state: Callable[[], HQContest]) -> Iterator[Step]:
        c = state()
        names = [p.name for p in c.participants]
        parties = c.parties or c.last_parties

        def party(name: str, fail: Callable[[str], object]) -> str:
            if name not in names:
                fail(f'no participant "{name}"')
            elif name not in parties:
                fail(f"{name} is not a party to this exchange")
            return name

        modifiers = ex.get("modifiers")
        for name, node in modifiers.entries() if modifiers is not None else ():
            party(name, node.fail)
            # A 0 changes nothing (SetModifier.value is NonZero): left out, as a null
            # entry is (scenario.md: a modifier may be any integer).
            if (amount := node.as_int()) != 0:
                yield node.place, SetModifier(who=name, value=amount)

        augments = ex.get("augments")
        for item in augments.items() if augments is not None else ():
            item.check_keys(AUGMENT_KEYS)
            for_node = item.need("for")
            recipient = party(for_node.as_str(), for_node.fail)
            rating = read_rating(item.need("rating"))
            # A side at 0 or less does not roll: its roll is ignored, so not checked.
            roll = read_d20(item.need("roll")) if rating > 0 else None
            base = c.options.augment_base
            resistance = read_d20(item.need("resistance_roll")) if base > 0 else None
            yield (
                item.place,
                Augment(recipient=recipient, rating=rating, roll=roll, resistance_roll=resistance),
            )

        hero_points = ex.get("hero_points")
        for name, node in hero_points.entries() if hero_points is not None else ():
            party(name, node.fail)
            yield (
                node.place,
                SpendHeroPoints(who=name, count=node.as_field(SpendHeroPoints, "count")),
            )

        stretch = ex.get("stretch")
        for item in stretch.items() if stretch is not None else ():
            yield item.place, Stretch(who=party(item.as_str(), item.fail))

        declared: dict[str, list[str]] = {}
        for key in ("gambits", "defensive"):
            names_node = ex.get(key)
            if names_node is None:
                continue
            names_node.expect_list()
            if not c.options.extended:
                names_node.fail("risky gambits and defensive responses are for an extended contest")
            if c.open.kind == "group":
                names_node.fail("risky gambits and defensive responses are for a simple exchange")
            for item in names_node.items():
                name = party(item.as_str(), item.fail)
                declared.setdefault(key, []).append(name)
        both = set(declared.get("gambits", ())) & set(declared.get("defensive", ()))
        if both:
            ex.fail(f"{sorted(both)[0]} is in both gambits and defensive: one or the other")
        for key, make in (("gambits", Gamble), ("defensive", RespondDefensively)):
            listed = ex.get(key)
            items = listed.items() if listed is not None else ()
            for item, name in zip(items, declared.get(key, ()), strict=True):
                yield item.place, make(who=name)

    @staticmethod
    def _boost(node: Node, c: HQContest) -> Iterator[Step]:
        """A group exchange's ``boost``: its side, ``double``, and who pays what."""
        node.check_keys(BOOST_KEYS)
        if c.open.kind != "group":
            node.fail("a boost is for a group exchange (pairs), not a simple one")
        side_node = node.need("side")
        side = side_node.as_str()
        if side not in c.sides:
            side_node.fail(f'no side "{side}"')
        double = node.bool_("double", False)
        members = [p for p in c.participants if p.side == side]
        cost = boost_cost(len(members), double)
        paid_node = node.need("paid")
        paid: list[tuple[str, int]] = []
        for name, entry in paid_node.entries():
            who = next((p for p in c.participants if p.name == name), None)
            if who is None:
                entry.fail(f'no participant "{name}"')
            if who.side != side:
                entry.fail(f"{name} is not on side {side}: only its members pay")
            count = entry.as_int(minimum=0)
            left = c.hero_points_left.get(name, 0)
            if count > left:
                entry.fail(f"{name} has {'no hero points' if left == 0 else f'only {left}'}")
            paid.append((name, count))
        total = sum(count for _, count in paid)
        if total != cost:
            kind = "a double boost" if double else "a boost"
            paid_node.fail(
                f"{kind} for {side} ({len(members)} taking part) costs {cost} hero "
                f"point{'s' if cost != 1 else ''}, not {total}"
            )
        yield node.place, Boost(side=side, paid=tuple(paid), double=double)


HEROQUEST_READER = HeroQuestReader()
