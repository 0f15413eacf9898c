"""Fate scenarios (scenario.md, "Fate"): options, participants, aspects and exchanges."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from msgspec.structs import replace

from core.dice import parse_fate_dice
from core.errors import RuleError
from core.model import Command, Contest, ResolveExchange, RollDice, SetModifier
from core.rules.base import own
from core.rules.reading import Node, SystemReader, name_in, read_participants
from core.systems.fate import conflict_scenario
from core.systems.fate.conflict_play import FateConflict
from core.systems.fate.events import CreateAdvantage, DeclareAttack, InvokeAspect
from core.systems.fate.scoring import FateOptions, score_exchange
from core.systems.fate.state import Aspect, FateContest, FateParticipant, new_contest

OPTION_KEYS = (
    "mode",
    "difficulty",
    "victories_needed",
    "style_threshold",
    "style_clause",
    "teamwork_cap",
    "failed_advantage",
    "environment_requires_success",
)


def read_options(root: Node) -> FateOptions:
    node = root.get("options")
    if node is None:
        return FateOptions()
    node.check_keys(OPTION_KEYS)
    mode = node.str_("mode", "direct", ("direct", "environment"))
    difficulty = node.get("difficulty")
    if mode == "environment" and difficulty is None:
        node.fail_key("difficulty", "missing (environment mode needs a difficulty)")
    return FateOptions(
        mode="environment" if mode == "environment" else "direct",
        difficulty=None if difficulty is None else difficulty.as_int(),
        victories_needed=node.int_("victories_needed", 3, of=FateOptions),
        style_threshold=node.int_("style_threshold", 3, of=FateOptions),
        style_clause="fae"
        if node.str_("style_clause", "core", ("core", "fae")) == "fae"
        else "core",
        teamwork_cap="lead_skill"
        if node.str_("teamwork_cap", "none", ("none", "lead_skill")) == "lead_skill"
        else "none",
        failed_advantage="cost"
        if node.str_("failed_advantage", "forfeit", ("forfeit", "cost")) == "cost"
        else "forfeit",
        environment_requires_success=node.bool_("environment_requires_success", False),
    )


def read_dice(node: Node) -> tuple[int, ...]:
    """Four Fate dice written as a string of ``+``, ``-`` and ``0``."""
    try:
        return parse_fate_dice(node.as_str())
    except RuleError as error:
        node.fail(str(error))


def _participant(item: Node, name: str, side: str) -> FateParticipant:
    return FateParticipant(
        name=name,
        side=side,
        skill=item.int_("skill"),
        fate_points=item.int_("fate_points", 0, of=FateParticipant),
    )


def read_aspects(root: Node, sides: tuple[str, ...]) -> list[Aspect]:
    node = root.get("aspects")
    aspects: list[Aspect] = []
    for item in node.items() if node is not None else ():
        item.check_keys(("name", "free_invokes", "holder"))
        name = item.need("name").as_nonempty_str()
        if any(a.name == name for a in aspects):
            item.fail_key("name", f'"{name}" is listed twice')
        holder = item.get("holder")
        aspects.append(
            Aspect(
                name=name,
                free_invokes=item.int_("free_invokes", 0, of=Aspect),
                holder=None if holder is None else name_in(holder, sides, "side"),
            )
        )
    return aspects


class FateReader(SystemReader):
    """A contest's scenario, or a conflict's (a top-level ``conflict``: its own module
    reads it, ``conflict_scenario``)."""

    top_keys = frozenset({"aspects", "conflict"})
    exchange_keys = frozenset({"advantages", "rolls", "invokes", "twist", "attack"}) | (
        conflict_scenario.ACTION_KEYS
    )
    contest_keys = frozenset({"advantages", "rolls", "invokes", "twist", "attack"})

    def read_contest(self, root: Node) -> Contest:
        if root.has("conflict"):
            if root.has("options"):
                root.fail_key("options", "a contest's: a conflict has its own keys")
            conflict = conflict_scenario.read_conflict(root)
            return replace(conflict, aspects=tuple(read_aspects(root, conflict.sides)))
        options = read_options(root)
        participants = read_participants(root, ("skill", "fate_points"), _participant)
        contest = new_contest(participants, options=options)
        return new_contest(participants, read_aspects(root, contest.sides), options)

    def exchange_steps(
        self, ex: Node, current: Callable[[], Contest]
    ) -> Iterator[tuple[str, Command]]:
        def state() -> FateContest:
            return own(current(), FateContest)

        if isinstance(current(), FateConflict):
            for key in self.contest_keys - conflict_scenario.ACTION_KEYS:
                if ex.has(key):
                    ex.fail_key(key, "a contest's: a conflict's exchange is one action")
            yield from conflict_scenario.action_steps(ex, current, read_dice)
            return
        for key in conflict_scenario.ACTION_KEYS - self.contest_keys:
            if ex.has(key):
                ex.fail_key(key, "a conflict's: this scenario is a contest (no conflict key)")
        names = [p.name for p in state().participants]
        advantages = ex.get("advantages")
        for item in advantages.items() if advantages is not None else ():
            item.check_keys(("by", "aspect", "on", "result", "opposition"))
            by = name_in(item.need("by"), names)
            aspect = item.need("aspect").as_nonempty_str()
            on_node = item.get("on")
            yield (
                item.place,
                CreateAdvantage(
                    by=by,
                    aspect=aspect,
                    on=None if on_node is None else name_in(on_node, names),
                    result=item.int_("result"),
                    opposition=item.int_("opposition"),
                ),
            )

        rolls = ex.get("rolls")
        sides = state().sides
        rolled: set[str] = set()
        for side, die in rolls.entries() if rolls is not None else ():
            if side not in sides:
                die.fail(f'no side "{side}"')
            rolled.add(side)
            yield die.place, RollDice(who=side, faces=read_dice(die))
        for side in state().rolling_sides:
            if side not in rolled:
                if rolls is None:
                    ex.fail_key("rolls", "missing")
                Node(None, ex.child_place("rolls")).fail_key(side, "missing")

        invokes = ex.get("invokes")
        for item in invokes.items() if invokes is not None else ():
            item.check_keys(("by", "aspect", "free", "effect", "dice"))
            by = name_in(item.need("by"), names)
            aspect_node = item.need("aspect")
            aspect = name_in(aspect_node, [a.name for a in state().aspects], "aspect in play")
            effect = item.str_("effect", "+2", ("+2", "reroll"))
            faces = read_dice(item.need("dice")) if effect == "reroll" else None
            yield (
                item.place,
                InvokeAspect(
                    by=by,
                    aspect=aspect,
                    free=item.bool_("free", False),
                    effect="reroll" if effect == "reroll" else "+2",
                    faces=faces,
                ),
            )

        attack = ex.get("attack")
        if attack is not None:
            yield attack.place, DeclareAttack(by=name_in(attack, names))

        twist: str | None = None
        twist_node = ex.get("twist")
        if twist_node is not None and attack is None and self._ties(state()):
            twist = twist_node.as_nonempty_str()
        yield ex.place, ResolveExchange(twist=twist)

    next_keys = frozenset({"bonus"})

    def next_steps(
        self, node: Node | None, current: Callable[[], Contest]
    ) -> Iterator[tuple[str, Command]]:
        bonus = None if node is None else node.get("bonus")
        if bonus is not None and isinstance(current(), FateConflict):
            bonus.fail("a contest's: a conflict's bonuses come with each attack")
        sides = current().sides
        for side, value in bonus.entries() if bonus is not None else ():
            if side not in sides:
                value.fail(f'no side "{side}"')
            # A 0 changes nothing (SetModifier.value is NonZero): left out, as a null
            # entry is (scenario.md: a modifier may be any integer).
            if (amount := value.as_int()) != 0:
                yield value.place, SetModifier(who=side, value=amount)

    @staticmethod
    def _ties(c: FateContest) -> bool:
        totals = {s: c.total(s) for s in c.rolling_sides}
        return score_exchange(c.options, {s: t for s, t in totals.items() if t is not None}).twist


FATE_READER = FateReader()
