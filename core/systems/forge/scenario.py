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
from core.systems.forge.rules import (
    REACTIONS,
    ChooseReaction,
    ForgeContest,
    ForgeOptions,
    ForgeParticipant,
    SetStage,
    actor_roll_needed,
    default_actor,
    default_reactor,
    new_contest,
    reactor_roll_needed,
    stage_roles,
)

OPTION_KEYS = ("reactor_wins_ties", "combat")
PARTICIPANT_KEYS = ("target", "multiplier", "max_damage", "armor", "armor_capacity")
D100 = (1, 100)


def read_options(root: Node) -> ForgeOptions:
    node = root.get("options")
    if node is None:
        return ForgeOptions()
    node.check_keys(OPTION_KEYS)
    return ForgeOptions(
        reactor_wins_ties=node.bool_("reactor_wins_ties", True),
        combat=node.bool_("combat", False),
    )


def _participant(item: Node, name: str, side: str) -> ForgeParticipant:
    target = item.int_("target")
    multiplier = item.int_("multiplier", 1, of=ForgeParticipant)
    max_damage = item.get("max_damage")
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
    )


def _party(entry: Node, name: str, names: list[str], stage: tuple[str, str]) -> None:
    """A ``rolls`` or ``modifiers`` entry must name the stage's actor or reactor."""
    if name not in names:
        entry.fail(f'no participant "{name}"')
    if name not in stage:
        entry.fail(f"{name} is neither the actor ({stage[0]}) nor the reactor ({stage[1]})")


class ForgeReader(SystemReader):
    exchange_keys = frozenset({"actor", "reactor", "rolls", "modifiers", "reaction", "end"})

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
            yield value.place, SetModifier(who=name, value=value.as_int())

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
            yield value.place, SetModifier(who=name, value=value.as_int())
        reaction = node.get("reaction")
        if reaction is not None and state().options.combat:
            yield reaction.place, ChooseReaction(reaction=reaction.as_str(REACTIONS))


FORGE_READER = ForgeReader()
