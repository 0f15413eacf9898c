"""The exchange being entered on the keypad, before it is committed.

A :class:`Draft` holds typed dice per roller and the extra actions (advantages, invokes,
modifiers, hero points...). :func:`preview` plays them, in the order the rules want, on a
copy of the contest through the engine itself, so the running totals are the engine's
own scoring; :func:`commit_commands` is the one GM action that commits them. No Textual
here, and nothing of any one system: the rule system says who rolls and with what dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.dice import FATE_GLYPHS, DiceKind
from core.engine import apply
from core.errors import RuleError
from core.model import Command, Contest, EndContest, ResolveExchange, RollDice
from core.rules import find_system


def dice_kind(contest: Contest) -> DiceKind:
    return find_system(contest.system).dice


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

    def rolls(self, kind: DiceKind, rollers: list[str]) -> list[Command]:
        out: list[Command] = []
        for who in rollers:
            faces = faces_of(kind, self.typed.get(who, ""))
            if faces is not None:
                out.append(RollDice(who=who, faces=faces, source=self.sources.get(who, "table")))
        return out


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


def typed_text(kind: DiceKind, faces: tuple[int, ...]) -> str:
    """What typing ``faces`` on the keypad would have shown."""
    from core.dice import fate_glyphs

    return fate_glyphs(faces) if kind is DiceKind.FATE else str(faces[0])


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
    if int(candidate) > high or candidate == "0":
        return typed, False
    return candidate, int(candidate) * 10 > high


def implicit(contest: Contest, draft: Draft) -> list[Command]:
    """Commands the GM need not type: a FORGE contest's first stage, while nobody has
    named its actor, is the first participant acting against the first of another side
    (o changes the roles)."""
    if contest.system != "forge" or any(c.before_rolls for c in draft.extras):
        return []
    from core.rules import forge

    assert isinstance(contest, forge.ForgeContest)
    if forge.default_actor(contest) is not None or contest.actor is not None:
        return []
    actor = contest.participants[0]
    reactor = next(p for p in contest.participants if p.side != actor.side)
    return [forge.SetStage(actor=actor.name, reactor=reactor.name)]


@dataclass(frozen=True)
class Preview:
    """The contest as it would stand with the draft applied, before resolution."""

    state: Contest
    slots: list[str]
    commands: list[Command]
    error: str | None = None


def preview(contest: Contest, draft: Draft, strict: bool = False) -> Preview:
    """Play the draft's commands on a copy, through the engine.

    Those before the rolls go first (they were checked when added), then the complete
    rolls of whoever rolls now, then the rest. A command the engine refuses stops the
    preview with its reason, or raises when ``strict``.
    """
    rules = find_system(contest.system)
    before = [*implicit(contest, draft), *(c for c in draft.extras if c.before_rolls)]
    after = [c for c in draft.extras if not c.before_rolls]
    state = contest
    for command in before:
        state, _ = apply(state, command)
    rollers = rules.rollers(state)
    done = list(before)
    error = None
    for command in [*draft.rolls(rules.dice, rollers), *after]:
        try:
            state, _ = apply(state, command)
        except RuleError as exc:
            if strict:
                raise
            error = str(exc)
            break
        done.append(command)
    return Preview(state=state, slots=rollers, commands=done, error=error)


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
