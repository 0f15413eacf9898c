"""The exchange being entered on the keypad, before it is committed.

A :class:`Draft` holds typed dice per roller and the extra actions (advantages, invokes,
modifiers, hero points...). ``commands()`` turns it into the rule commands of one GM
action, in the order the rules want; :func:`preview` plays them on a scratch copy of the
contest through the engine itself, so the running totals are the engine's own scoring.
No Textual here: the contest screen owns a draft and the keypad only shows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.dice import FATE_GLYPHS, DiceKind
from core.engine import apply
from core.errors import RuleError
from core.model import Command, Contest, EndContest, ResolveExchange, RollDice, SetModifier
from core.rules import fate, forge, heroquest

BEFORE_ROLLS = (
    fate.CreateAdvantage,
    heroquest.SetParties,
    heroquest.SetPairs,
    forge.SetStage,
    heroquest.Stretch,
    heroquest.Augment,
    SetModifier,
)


def dice_kind(contest: Contest) -> DiceKind:
    return {
        "fate": DiceKind.FATE,
        "heroquest": DiceKind.D20,
        "forge": DiceKind.D100,
    }[contest.system]


@dataclass
class Draft:
    """Typed dice by roller, and the other actions of the coming exchange."""

    typed: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    extras: list[Command] = field(default_factory=list)
    cursor: int = 0
    end_after: bool = False

    def clear(self) -> None:
        self.typed.clear()
        self.sources.clear()
        self.extras.clear()
        self.cursor = 0
        self.end_after = False

    @property
    def empty(self) -> bool:
        return not self.typed and not self.extras and not self.end_after

    def before(self) -> list[Command]:
        return [c for c in self.extras if isinstance(c, BEFORE_ROLLS)]

    def after(self) -> list[Command]:
        return [c for c in self.extras if not isinstance(c, BEFORE_ROLLS)]

    def rolls(self, kind: DiceKind, slots: list[str]) -> list[Command]:
        out: list[Command] = []
        for slot in slots:
            faces = faces_of(kind, self.typed.get(slot, ""))
            if faces is not None:
                out.append(RollDice(who=slot, faces=faces, source=self.sources.get(slot, "table")))
        return out

    def commands(self, kind: DiceKind, slots: list[str]) -> list[Command]:
        """Everything but the resolution, in the rules' order."""
        return [*self.before(), *self.rolls(kind, slots), *self.after()]


def faces_of(kind: DiceKind, typed: str) -> tuple[int, ...] | None:
    """Complete dice from what was typed, or None while incomplete."""
    if kind is DiceKind.FATE:
        if len(typed) == 4:
            return tuple(FATE_GLYPHS[ch] for ch in typed)
        return None
    if not typed.isdigit():
        return None
    value = int(typed)
    high = 20 if kind is DiceKind.D20 else 100
    return (value,) if 1 <= value <= high else None


def type_face(kind: DiceKind, typed: str, key: str) -> tuple[str, bool]:
    """``typed`` after one key, and whether that roll is now complete (move on).

    Fate takes ``+``/``=``, ``-`` and ``0``; a d20 or d100 takes digits and completes when
    no further digit could make a valid face (``3`` on a d20, ``45`` on a d100).
    """
    if kind is DiceKind.FATE:
        glyph = {"=": "+", "+": "+", "-": "-", "0": "0"}.get(key)
        if glyph is None or len(typed) >= 4:
            return typed, len(typed) >= 4
        typed += glyph
        return typed, len(typed) == 4
    if not key.isdigit():
        return typed, False
    high = 20 if kind is DiceKind.D20 else 100
    candidate = typed + key
    if int(candidate) > high or (candidate == "0"):
        return typed, False
    complete = int(candidate) * 10 > high
    return candidate, complete


def slots(contest: Contest) -> list[str]:
    """Who rolls in the open exchange: Fate's rolling sides, HeroQuest's two parties (or
    the group's pairs' members), FORGE's actor then reactor."""
    match contest:
        case fate.FateContest():
            return list(contest.rolling_sides)
        case heroquest.HQContest():
            if contest.open.kind == "group":
                return []
            return list(contest.parties)
        case forge.ForgeContest():
            try:
                actor, reactor = forge.stage_roles(contest)
            except RuleError:
                return []
            return [actor, reactor]
    return []


def implicit(contest: Contest, draft: Draft) -> list[Command]:
    """Commands the GM need not type: a FORGE contest's first stage, when nobody has
    named its actor yet, is the first participant acting against the first of another
    side (o changes the roles)."""
    if (
        isinstance(contest, forge.ForgeContest)
        and forge.default_actor(contest) is None
        and contest.actor is None
        and not any(isinstance(c, forge.SetStage) for c in draft.extras)
    ):
        actor = contest.participants[0]
        reactor = next(p for p in contest.participants if p.side != actor.side)
        return [forge.SetStage(actor=actor.name, reactor=reactor.name)]
    return []


@dataclass(frozen=True)
class Preview:
    """The contest as it would stand with the draft applied, before resolution."""

    state: Contest
    slots: list[str]
    commands: list[Command]
    error: str | None = None


def preview(contest: Contest, draft: Draft, strict: bool = False) -> Preview:
    """Play the draft's commands on a copy, through the engine.

    The commands before the rolls must pass (they were checked when added); a later one
    the engine refuses stops the preview with its reason, or raises when ``strict``.
    """
    kind = dice_kind(contest)
    state = contest
    before = [*implicit(contest, draft), *draft.before()]
    for command in before:
        state, _ = apply(state, command)
    who = slots(state)
    done = list(before)
    error = None
    for command in [*draft.rolls(kind, who), *draft.after()]:
        try:
            state, _ = apply(state, command)
        except RuleError as exc:
            if strict:
                raise
            error = str(exc)
            break
        done.append(command)
    return Preview(state=state, slots=who, commands=done, error=error)


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
