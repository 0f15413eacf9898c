"""A FORGE contest as it stands between commands: its participants (targets, weapons,
armor, Current Trauma), the table's options, the open stage (roles, rolls, modifiers, the
reaction), the stage wins, armor left and trauma taken, and a round by beats under way;
``new_contest`` starts one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import msgspec
from msgspec.structs import replace

from core.errors import RuleError, UnknownName
from core.limits import Count, Int, Positive
from core.model import Contest, Participant, Saved
from core.systems.forge.beat_round import Agility, BeatPattern, BeatRound, Reaction

CODEC_TAG = "forge"  # the saved tags ("forge.ForgeContest"), as before the split


class ForgeParticipant(Participant):
    """``target``: the d100 chance after skill tiers and attribute. The weapon is
    ``multiplier`` and ``max_damage`` (None: no cap); the armor is ``armor`` (its
    durability value) and ``armor_capacity``, the trauma capacity it has left: None is
    unlimited armor, 0 armor used up, which absorbs nothing (A-I4). (A scenario file
    writes unlimited as 0: its reader makes that None.)

    ``current_trauma`` is the character's Current Trauma as the contest starts (rules
    §3.4, [I15]), None when it is not tracked; the trauma taken in the contest comes off
    it, and at 0 or below the character is dying: no more actions, and no dodging."""

    target: Int
    multiplier: Positive = 1
    max_damage: Count | None = None
    armor: Count = 0
    armor_capacity: Count | None = None
    current_trauma: Int | None = None
    agility: Agility | None = None  # Physical Agility: the beat in a round (None: beat 4)


class ForgeOptions(Saved):
    """The table's rule options (scenario.md spells them; rules.md §4 gives defaults).
    ``beat_pattern``: which beats of a combat round each icon takes part in (A-I5,
    :data:`core.systems.forge.beat_round.BEAT_PATTERNS`)."""

    reactor_wins_ties: bool = True
    combat: bool = False
    beat_pattern: BeatPattern = "every_later_beat"


class ForgeContest(Contest):
    """A FORGE contest between stages or during one.

    The open stage is ``actor``/``reactor`` (None until the GM sets them: the defaults of
    :func:`stage_roles` apply), its ``rolls``, ``modifiers`` and ``reaction``. The
    previous stage's roles give the defaults. ``armor_left`` is each participant's armor
    capacity left (None: unlimited); ``trauma`` the damage each has taken past armor.
    The stages themselves live in the event log, not here.
    """

    system: ClassVar[str] = "forge"
    participants: tuple[ForgeParticipant, ...]
    options: ForgeOptions = ForgeOptions()
    actor: str | None = None
    reactor: str | None = None
    rolls: Mapping[str, Int] = msgspec.field(default_factory=dict)
    modifiers: Mapping[str, Int] = msgspec.field(default_factory=dict)
    reaction: Reaction = "dodge"
    last_actor: str | None = None
    last_reactor: str | None = None
    stage_wins: Mapping[str, Int] = msgspec.field(default_factory=dict)
    armor_left: Mapping[str, Int | None] = msgspec.field(default_factory=dict)
    trauma: Mapping[str, Int] = msgspec.field(default_factory=dict)
    modifier_labels: Mapping[str, str] = msgspec.field(default_factory=dict)  # presets' names
    round: BeatRound | None = None  # a combat round by beats, the last one started
    # this beat's attacks the GM aimed (attacker: target); the others go to the default
    beat_targets: Mapping[str, str] = msgspec.field(default_factory=dict)

    @property
    def stages(self) -> int:
        """The stages played so far: each has one winner, so the stage wins add up to
        them; a round by beats scores none (its attacks and hits are exchanges, not
        stages)."""
        return sum(self.stage_wins.values())

    @property
    def in_round(self) -> bool:
        """Whether a round by beats is under way (started, not over): no stages then."""
        return self.round is not None and not self.round.over

    def participant(self, name: str) -> ForgeParticipant:
        for p in self.participants:
            if p.name == name:
                return p
        raise UnknownName(f'no participant "{name}"')

    def target(self, name: str) -> int:
        """``name``'s target for the open stage, this stage's modifier included."""
        return self.participant(name).target + self.modifiers.get(name, 0)

    def current_trauma(self, name: str) -> int | None:
        """``name``'s Current Trauma now (None: not tracked): what it started with, less
        the trauma taken in this contest."""
        start = self.participant(name).current_trauma
        return None if start is None else start - self.trauma.get(name, 0)

    def dying(self, name: str) -> bool:
        """Current Trauma at 0 or below: dying (rules §3.4), not dead."""
        now = self.current_trauma(name)
        return now is not None and now <= 0


def new_contest(
    participants: Sequence[ForgeParticipant], options: ForgeOptions | None = None
) -> ForgeContest:
    """A contest before its first stage. A dying participant (Current Trauma at 0 or
    below) cannot take part: the GM heals them first."""
    contest = ForgeContest(participants=tuple(participants), options=options or ForgeOptions())
    for p in contest.participants:
        if p.current_trauma is not None and p.current_trauma <= 0:
            raise RuleError(
                f"{p.name} is dying (current trauma {p.current_trauma}): "
                "heal them before another contest"
            )
    return replace(
        contest,
        stage_wins={side: 0 for side in contest.sides},
        armor_left={p.name: p.armor_capacity for p in contest.participants},
        trauma={p.name: 0 for p in contest.participants},
    )
