"""FORGE's round by beats, as saved (rules.md §3.4 "Beats" [I16], "Actions" [I17]): the
beats, who takes part in which (the pattern, A-I5), and the round tracker's state.

What needs the contest (who may act now, sending and landing attacks, the GM's overrides)
is :mod:`core.systems.forge.beats`; the contest holds the round (``ForgeContest.round``),
so this module imports nothing of the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from core.errors import RuleError
from core.limits import Count, Int, Positive, bounded
from core.model import Saved

Reaction = Literal["dodge", "absorb"]
REACTIONS: tuple[Reaction, ...] = ("dodge", "absorb")

CODEC_TAG = "forge"  # the saved tags ("forge.BeatRound"), as the other forge modules

BeatKind = Literal["action", "reaction"]
BEAT_KINDS: Mapping[int, BeatKind] = {
    1: "action",  # preactive
    2: "action",  # initial action
    3: "reaction",  # initial reaction
    4: "action",  # secondary action
    5: "reaction",  # secondary reaction
}
BEATS: tuple[int, ...] = tuple(BEAT_KINDS)  # beat 6 was not retrieved (rules §3.4): not played
FIRST_BEAT, LAST_BEAT = BEATS[0], BEATS[-1]
DEFAULT_BEAT = 4  # an icon whose Physical Agility is unknown [I16]
Beat = Annotated[int, bounded(ge=FIRST_BEAT, le=LAST_BEAT)]
Agility = Annotated[int, bounded(ge=1)]  # "a PA of 0 being impossible" [I16]

BeatPattern = Literal["every_later_beat", "own_beat_then_react"]
BEAT_PATTERNS: tuple[BeatPattern, ...] = ("every_later_beat", "own_beat_then_react")
BEAT_PATTERN_WORDS: Mapping[BeatPattern, str] = {
    "every_later_beat": "each icon in its own beat and every later one (A-I5)",
    "own_beat_then_react": "each icon in its own beat, reacting in the next reaction beat",
}
"""Which beats an icon takes part in (A-I5; the first is the default).

``every_later_beat``: its own beat and every beat after it, acting in the action beats and
reacting in the reaction beats: Josef (beat 1) acts in 1, 2 and 4 and reacts in 3 and 5;
Bobby (beat 4) acts in 4 and reacts in 5 [I17]. ``own_beat_then_react``: the other
reading, where Josef's extra beats come from his "superior capabilities", not his beat: an
icon takes part in its own beat and reacts in the first reaction beat after it (beat 1 or
2: 3; beat 3, 4 or 5: 5)."""


def beat_of(agility: int | None) -> int:
    """An icon's beat from its Physical Agility (rules §3.4's table, [I16]): 40 and more
    beat 1, 30-39 beat 2, 20-29 beat 3, 11-19 beat 4, 1-10 beat 5; unknown (None) beat 4.
    PA 20 is in two bands on the page (20-29 and 11-20): beat 3 (A-I5). ``RuleError`` for
    a PA below 1 (impossible, the page says)."""
    if agility is None:
        return DEFAULT_BEAT
    if agility < 1:
        raise RuleError(f"a Physical Agility of {agility} is impossible (at least 1)")
    for floor, beat in ((40, 1), (30, 2), (20, 3), (11, 4)):
        if agility >= floor:
            return beat
    return 5


def beat_kind(beat: int) -> BeatKind:
    """Whether ``beat`` is an action or a reaction beat."""
    return BEAT_KINDS[beat]


def beats_taken(own: int, pattern: BeatPattern = "every_later_beat") -> tuple[int, ...]:
    """The beats an icon whose own beat is ``own`` takes part in, under ``pattern``."""
    if pattern == "every_later_beat":
        return tuple(b for b in BEATS if b >= own)
    react = next((b for b in BEATS if b > own and beat_kind(b) == "reaction"), None)
    return (own,) if react is None else (own, react)


def landing_beat(sent_in: int, target_beat: int, pattern: BeatPattern = "every_later_beat") -> int:
    """The beat in which an attack sent in ``sent_in`` lands on a target whose own beat is
    ``target_beat``: the target's first reaction beat after ``sent_in`` [I17]; when it has
    none left in the round (possible under ``own_beat_then_react`` only), the round's last
    beat, so nothing sent is lost."""
    for b in beats_taken(target_beat, pattern):
        if b > sent_in and beat_kind(b) == "reaction":
            return b
    return LAST_BEAT


# -- the tracker's state ------------------------------------------------------------------


class BeatOptions(Saved):
    """The round's rule option: the participation pattern (A-I5)."""

    pattern: BeatPattern = "every_later_beat"


class BeatAttack(Saved):
    """An attack sent in an action beat: the attacker's ``roll`` (None when her target was 0
    or less), whether it ``hit`` and the ``damage`` it throws (None on a miss), and the beat
    it lands in (None on a miss: nothing lands)."""

    attacker: str
    target: str
    sent_in: Beat
    roll: Int | None
    hit: bool
    damage: Count | None = None
    lands_in: Beat | None = None


class BeatHit(Saved):
    """An attack's damage landing in the target's reaction beat: dodged (her one reaction
    of that beat, with ``dodge_roll``) or absorbed: armor first, the rest trauma."""

    attack: BeatAttack
    beat: Beat
    reaction: Reaction
    dodge_roll: Int | None
    dodged: bool
    absorbed: Count = 0
    trauma: Count = 0
    armor_left: Int | None = None


class BeatRound(Saved):
    """A combat round between two steps: the ``beat`` it is in (``over`` once past the
    last), each icon's own beat, who has already acted or reacted in this beat (``used``),
    the attacks sent this round and the hits that landed. ``pending`` are the attacks sent
    that have not landed yet."""

    icon_beats: Mapping[str, Beat]
    options: BeatOptions = BeatOptions()
    number: Positive = 1
    beat: Beat = FIRST_BEAT
    over: bool = False
    used: tuple[str, ...] = ()
    sent: tuple[BeatAttack, ...] = ()
    landed: tuple[BeatHit, ...] = ()

    @property
    def pending(self) -> tuple[BeatAttack, ...]:
        # an attacker acts once a beat, so no two attacks sent in a round are equal
        done = {h.attack for h in self.landed}
        return tuple(a for a in self.sent if a.hit and a not in done)
