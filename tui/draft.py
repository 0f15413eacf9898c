"""The exchange being entered on the keypad, before it is committed.

A :class:`Draft` holds typed dice per roller and the extra actions (advantages, invokes,
modifiers, hero points...). :func:`preview` plays them, in the order the rules want, on a
copy of the contest through the engine itself, so the running totals are the engine's
own scoring; :func:`commit_commands` is the one GM action that commits them. No Textual
here, and nothing of any one system: the rule system says who rolls and with what dice.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

import msgspec

from core.dice import FATE_GLYPHS, DiceKind
from core.engine import play_until_refused
from core.errors import BadDice
from core.model import Command, Contest, EndContest, ResolveExchange, RollDice
from core.rules import find_system


def dice_kind(contest: Contest) -> DiceKind:
    return find_system(contest.system).dice


@dataclass
class Draft:
    """Typed dice by roller, and the other actions of the coming exchange.

    A draft an undo brought back onto the keypad remembers the action it came from
    (``came_back_from``) and what the keypad held before (``before``): once that action
    is in force again (a redo), the draft is in the log and must go (see :func:`settled`).
    """

    typed: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    extras: list[Command] = field(default_factory=list)
    cursor: int = 0
    end_after: bool = False
    came_back_from: int | None = None
    before: Draft | None = None

    def clear(self) -> None:
        self.typed.clear()
        self.sources.clear()
        self.extras.clear()
        self.cursor = 0
        self.end_after = False
        self.came_back_from = None
        self.before = None

    @property
    def empty(self) -> bool:
        """Whether the keypad holds nothing: no die typed (a roller whose dice were all
        taken back holds none), no action waiting, no end asked for. Every key that
        cares asks this (Esc, FORGE's e...)."""
        return not any(self.typed.values()) and not self.extras and not self.end_after

    def by_hand(self, automatic: Collection[str] = ()) -> dict[str, str]:
        """The dice typed (or rolled on request) by roller: all but those Tussle rolled
        by itself for ``automatic`` rollers (set up as "Tussle rolls"), which nobody
        typed and nobody would miss."""
        return {
            who: text
            for who, text in self.typed.items()
            if text and not (who in automatic and self.sources.get(who) == "tussle")
        }

    def rolls(self, kind: DiceKind, rollers: list[str]) -> list[Command]:
        out: list[Command] = []
        for who in rollers:
            faces = faces_of(kind, self.typed.get(who, ""))
            if faces is not None:
                out.append(RollDice(who=who, faces=faces, source=self.sources.get(who, "table")))
        return out


class Kept(msgspec.Struct, frozen=True):
    """A contest's keypad while the GM is on another screen: the draft, a correction in
    progress (its number and the contest before it), the campaign's entry count then (a
    correction does not outlive a change), and what quitting would lose, in words."""

    draft: Draft
    correcting: tuple[int, Contest] | None
    entries: int
    lost: list[str]


def settled(draft: Draft, in_force: Collection[int]) -> Draft:
    """``draft`` without what is in the log again: a draft an undo brought back gives way
    to what the keypad held before, as soon as the undone action is in force (redone)."""
    while draft.came_back_from is not None and draft.came_back_from in in_force:
        draft = draft.before or Draft()
    return draft


def faces_of(kind: DiceKind, typed: str) -> tuple[int, ...] | None:
    """Complete dice from what was typed, or None while incomplete."""
    if kind.fudge:
        if len(typed) == 4:
            return tuple(FATE_GLYPHS[ch] for ch in typed)
        return None
    if not typed.isdigit():
        return None
    value = int(typed)
    if typed == "00" and kind.high == 100:
        value = 100  # percentile dice: tens and units both showing 0 are 100
    return (value,) if 1 <= value <= kind.high else None


def unfinished(kind: DiceKind, typed: str) -> str | None:
    """Why ``typed`` is not a roll yet, in the GM's words: None when it is one, or when
    nothing is typed (that roller has not rolled: the rules say so)."""
    if not typed or faces_of(kind, typed) is not None:
        return None
    if kind.fudge:
        return f"{len(typed)} of its 4 Fate dice typed, {4 - len(typed)} to go"
    # Only percentile dice wait on a digit that is no face alone: the tens' 0 (type_face).
    return f"a {kind.value} is typed tens then units: one more digit (05 is 5, 00 is 100)"


def typed_text(kind: DiceKind, faces: tuple[int, ...]) -> str:
    """What typing ``faces`` on the keypad would have shown."""
    from core.dice import fate_glyphs

    return fate_glyphs(faces) if kind.fudge else str(faces[0])


def type_face(kind: DiceKind, typed: str, key: str) -> tuple[str, bool]:
    """``typed`` after one key, and whether that roll is now complete (move on).

    Fate takes ``+``/``=``, ``-`` and ``0``; a d20 or d100 takes digits and completes when
    no further digit could make a valid face (``3`` on a d20, ``45`` on a d100). A key
    that cannot make a face (``2`` then ``5`` on a d20, a fifth Fate die, a digit on Fate
    dice) raises :class:`BadDice` saying why: nothing is silently dropped.
    """
    if kind.fudge:
        glyph = {"=": "+", "+": "+", "-": "-", "0": "0"}.get(key)
        if glyph is None:
            raise BadDice(f'Fate dice show +, - or 0 (type + or =, - and 0), not "{key}"')
        if len(typed) >= 4:
            raise BadDice(
                f"All four Fate dice are typed ({typed}): Backspace takes the last one back"
            )
        typed += glyph
        return typed, len(typed) == 4
    name, high = kind.value, kind.high
    if not key.isdigit():
        raise BadDice(f'A {name} is typed as digits (1 to {high}), not "{key}"')
    if typed and (int(typed) * 10 > high or (high == 100 and len(typed) == 2 and typed[0] == "0")):
        raise BadDice(
            f"This {name} is typed already ({typed}): Backspace takes it back, "
            f"Tab moves to the next roller"
        )
    candidate = typed + key
    if high == 100 and candidate.startswith("0"):
        # Percentile dice read tens then units: "0" then "5" is 05, a 5; "00" is 100.
        return candidate, len(candidate) == 2
    if candidate.startswith("0"):
        raise BadDice(f"A {name} has no face 0: its faces are 1 to {high}")
    if int(candidate) > high:
        raise BadDice(f"A {name} has no face {candidate}: its faces are 1 to {high}")
    return candidate, int(candidate) * 10 > high


def implicit(contest: Contest, draft: Draft) -> list[Command]:
    """Commands the GM need not type (a FORGE contest's first stage: the rules say which),
    unless the draft's own commands settle the same (one of the same kind: the GM's own
    roles). Another action waiting (a modifier) does not: it needs the stage too."""
    if contest.finished:
        return []
    typed = {type(c) for c in draft.extras}
    return [c for c in find_system(contest.system).implicit(contest) if type(c) not in typed]


class Preview(msgspec.Struct, frozen=True):
    """The contest as it would stand with the draft applied, before resolution."""

    state: Contest
    slots: list[str]
    commands: list[Command]
    error: str | None = None


def preview(contest: Contest, draft: Draft, strict: bool = False) -> Preview:
    """Play the draft's commands on a copy, through the engine.

    Those before the rolls go first, then the complete rolls of whoever rolls now, then
    the rest. A command the engine refuses stops the preview with its reason, or raises
    when ``strict``. Those before the rolls were accepted when added, but the contest may
    have changed under them since (a correction that ends it): they are played as the
    rest are, never assumed to play.
    """
    rules = find_system(contest.system)
    before = [*implicit(contest, draft), *(c for c in draft.extras if c.before_rolls)]
    after = [c for c in draft.extras if not c.before_rolls]
    first = play_until_refused(contest, before)
    rollers = rules.rollers(first.contest)
    run = (
        first
        if first.refusal is not None
        else play_until_refused(first.contest, [*draft.rolls(rules.dice, rollers), *after])
    )
    if run.refusal is not None and strict:
        raise run.refusal.error
    return Preview(
        state=run.contest,
        slots=rollers,
        commands=[*first.commands, *(run.commands if run is not first else ())],
        error=None if run.refusal is None else str(run.refusal.error),
    )


def try_extra(contest: Contest, draft: Draft, command: Command) -> None:
    """Add ``command`` to the draft if the engine accepts it now; RuleError if not."""
    trial = Draft(
        typed=dict(draft.typed), sources=dict(draft.sources), extras=[*draft.extras, command]
    )
    preview(contest, trial, strict=True)
    draft.extras.append(command)


def commit_commands(contest: Contest, draft: Draft, twist: str | None = None) -> list[Command]:
    """The whole GM action: the draft, the resolution, and a FORGE end if asked."""
    commands = [*preview(contest, draft, strict=True).commands, ResolveExchange(twist=twist)]
    if draft.end_after:
        commands.append(EndContest())
    return commands
