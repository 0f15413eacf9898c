"""FORGE scenarios (scenario.md, "FORGE"): options, participants and one stage per exchange.

Each exchange becomes, in order: the stage's roles, the actor's roll, the modifiers, the
reaction (combat only), the reactor's roll when the stage needs it, the resolution and,
with ``end``, the GM closing the contest. A roll the stage does not use (the reactor's,
when the actor failed or the reactor absorbs) is not checked; ``reaction`` outside combat
is not read at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from core.model import Command, Contest, EndContest, ResolveExchange, RollDice, SetModifier
from core.rules.base import own
from core.rules.reading import Node, SystemReader, missing_next, name_in, read_participants
from core.systems.forge.beat_round import BEAT_PATTERNS, FIRST_BEAT, LAST_BEAT, REACTIONS
from core.systems.forge.beats import (
    EndRound,
    LandHit,
    MoveIcon,
    NextBeat,
    SendAttack,
    SkipBeat,
    StartRound,
)
from core.systems.forge.events import ChooseReaction, SetStage
from core.systems.forge.stage import (
    actor_roll_needed,
    default_actor,
    default_reactor,
    reactor_roll_needed,
    stage_roles,
)
from core.systems.forge.state import ForgeContest, ForgeOptions, ForgeParticipant, new_contest

OPTION_KEYS = ("reactor_wins_ties", "combat", "beat_pattern")
PARTICIPANT_KEYS = ("target", "multiplier", "max_damage", "armor", "armor_capacity", "agility")
STAGE_KEYS = ("actor", "reactor", "rolls", "modifiers")  # a stage's, not a beat's
D100 = (1, 100)


def read_options(root: Node) -> ForgeOptions:
    node = root.get("options")
    if node is None:
        return ForgeOptions()
    node.check_keys(OPTION_KEYS)
    return ForgeOptions(
        reactor_wins_ties=node.bool_("reactor_wins_ties", True),
        combat=node.bool_("combat", False),
        beat_pattern=node.str_("beat_pattern", BEAT_PATTERNS[0], BEAT_PATTERNS),  # type: ignore[arg-type]
    )


def _participant(item: Node, name: str, side: str) -> ForgeParticipant:
    target = item.int_("target")
    multiplier = item.int_("multiplier", 1, of=ForgeParticipant)
    max_damage = item.get("max_damage")
    agility = item.get("agility")
    return ForgeParticipant(
        name=name,
        side=side,
        target=target,
        multiplier=multiplier,
        max_damage=None
        if max_damage is None
        else max_damage.as_field(ForgeParticipant, "max_damage"),
        armor=item.int_("armor", 0, of=ForgeParticipant),
        # scenario.md: 0 (the default) is unlimited armor, which the contest writes None.
        armor_capacity=item.int_("armor_capacity", 0, of=ForgeParticipant) or None,
        agility=None if agility is None else agility.as_field(ForgeParticipant, "agility"),
    )


def _party(entry: Node, name: str, names: list[str], stage: tuple[str, str]) -> None:
    """A ``rolls`` or ``modifiers`` entry must name the stage's actor or reactor."""
    if name not in names:
        entry.fail(f'no participant "{name}"')
    if name not in stage:
        entry.fail(f"{name} is neither the actor ({stage[0]}) nor the reactor ({stage[1]})")


class ForgeReader(SystemReader):
    exchange_keys = frozenset(
        {"actor", "reactor", "rolls", "modifiers", "reaction", "end"}
        | {"beat", "attacker", "target", "roll", "who", "to"}
    )

    def read_contest(self, root: Node) -> Contest:
        options = read_options(root)
        return new_contest(read_participants(root, PARTICIPANT_KEYS, _participant), options)

    def exchange_steps(
        self, ex: Node, current: Callable[[], Contest]
    ) -> Iterator[tuple[str, Command]]:
        def state() -> ForgeContest:
            return own(current(), ForgeContest)

        c = state()
        names = [p.name for p in c.participants]
        beat = ex.get("beat")
        if beat is not None:
            yield from _beat_steps(ex, beat, names)
            return
        for key in BEAT_KEYS:
            if ex.has(key):
                ex.fail_key(key, 'a round\'s step: give "beat" too')
        actor_node = ex.get("actor")
        actor = None if actor_node is None else name_in(actor_node, names)
        acting = actor or default_actor(c)
        if acting is None:
            ex.fail_key("actor", "missing")
        reactor_node = ex.get("reactor")
        reactor = None if reactor_node is None else name_in(reactor_node, names)
        if reactor is None and default_reactor(c, acting) is None:
            ex.fail_key("reactor", "missing")
        yield ex.place, SetStage(actor=actor, reactor=reactor)
        stage = stage_roles(state())

        rolls = ex.get("rolls")
        reactor_die: Node | None = None
        for name, die in rolls.entries() if rolls is not None else ():
            _party(die, name, names, stage)
            if name == stage[0]:
                yield die.place, RollDice(who=name, faces=(die.as_int(*D100),))
            else:
                reactor_die = die  # read once the stage is known to need it

        modifiers = ex.get("modifiers")
        for name, value in modifiers.entries() if modifiers is not None else ():
            _party(value, name, names, stage)
            # A 0 changes nothing (SetModifier.value is NonZero): left out, as a null
            # entry is (scenario.md: a modifier may be any integer).
            if (amount := value.as_int()) != 0:
                yield value.place, SetModifier(who=name, value=amount)

        reaction = ex.get("reaction")
        if reaction is not None and state().options.combat:
            yield reaction.place, ChooseReaction(reaction=reaction.as_str(REACTIONS))

        rolls_place = Node(None, ex.child_place("rolls"))
        if stage[0] not in state().rolls and actor_roll_needed(state()):
            rolls_place.fail_key(stage[0], "missing")
        if reactor_roll_needed(state()):
            if reactor_die is None:
                rolls_place.fail_key(stage[1], "missing")
            yield reactor_die.place, RollDice(who=stage[1], faces=(reactor_die.as_int(*D100),))
        yield ex.place, ResolveExchange()

        end = ex.get("end")
        if end is not None and end.as_bool():
            yield end.place, EndContest()

    next_keys = frozenset({"actor", "reactor", "modifiers", "reaction"})

    def next_steps(
        self, node: Node | None, current: Callable[[], Contest]
    ) -> Iterator[tuple[str, Command]]:
        def state() -> ForgeContest:
            return own(current(), ForgeContest)

        c = state()
        names = [p.name for p in c.participants]
        actor_node = None if node is None else node.get("actor")
        reactor_node = None if node is None else node.get("reactor")
        actor = None if actor_node is None else name_in(actor_node, names)
        reactor = None if reactor_node is None else name_in(reactor_node, names)
        acting = actor or default_actor(c)
        if acting is None:
            missing_next(node, "actor", "the first stage needs an actor")
        elif reactor is None and default_reactor(c, acting) is None:
            missing_next(node, "reactor", "with more than two taking part, name the reactor")
        yield ("next" if node is None else node.place), SetStage(actor=actor, reactor=reactor)
        if node is None:
            return
        stage = stage_roles(state())
        modifiers = node.get("modifiers")
        for name, value in modifiers.entries() if modifiers is not None else ():
            if name not in names:
                value.fail(f'no participant "{name}"')
            if name not in stage:
                value.fail(f"{name} is neither the actor ({stage[0]}) nor the reactor ({stage[1]})")
            # A 0 changes nothing (SetModifier.value is NonZero): left out, as a null
            # entry is (scenario.md: a modifier may be any integer).
            if (amount := value.as_int()) != 0:
                yield value.place, SetModifier(who=name, value=amount)
        reaction = node.get("reaction")
        if reaction is not None and state().options.combat:
            yield reaction.place, ChooseReaction(reaction=reaction.as_str(REACTIONS))


BEAT_STEPS = ("round", "send", "land", "next", "move", "skip", "end_round")
BEAT_KEYS = ("attacker", "target", "roll", "who", "to")
BEAT_STEP_KEYS = {
    "round": (),
    "send": ("attacker", "target", "roll"),
    "land": ("target", "reaction", "roll"),
    "next": (),
    "move": ("who", "to"),
    "skip": ("who",),
    "end_round": (),
}


def _beat_steps(ex: Node, beat: Node, names: list[str]) -> Iterator[tuple[str, Command]]:
    """One step of a combat round by beats (README, "FORGE rounds by beats")."""
    step = beat.as_str(BEAT_STEPS)
    ex.check_keys({"beat", "end", *BEAT_STEP_KEYS[step]})

    def roll(required: bool) -> int | None:
        node = ex.need("roll") if required else ex.get("roll")
        return None if node is None else node.as_int(*D100)

    match step:
        case "round":
            yield beat.place, StartRound()
        case "send":
            attacker = name_in(ex.need("attacker"), names)
            target = name_in(ex.need("target"), names)
            yield ex.place, SendAttack(attacker=attacker, target=target, roll=roll(False))
        case "land":
            target_node = ex.get("target")
            reaction = ex.str_("reaction", "absorb", REACTIONS)
            yield (
                ex.place,
                LandHit(
                    reaction=reaction,  # type: ignore[arg-type]
                    roll=roll(reaction == "dodge"),
                    target=None if target_node is None else name_in(target_node, names),
                ),
            )
        case "next":
            yield beat.place, NextBeat()
        case "move":
            who = name_in(ex.need("who"), names)
            yield ex.place, MoveIcon(who=who, beat=ex.need("to").as_int(FIRST_BEAT, LAST_BEAT))
        case "skip":
            yield ex.place, SkipBeat(who=name_in(ex.need("who"), names))
        case "end_round":
            yield beat.place, EndRound()
    end = ex.get("end")
    if end is not None and end.as_bool():
        yield end.place, EndContest()


FORGE_READER = ForgeReader()
