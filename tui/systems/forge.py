"""FORGE on the dashboard: targets, who acts and who reacts, damage, armor, trauma; and
FORGE's keys on the contest screen (roles, dodge or absorb, the end of the contest)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from textual.binding import Binding

from core.campaign import ContestRecord, Play
from core.dice import DiceKind
from core.model import Command, Contest, EndContest
from core.systems import forge
from tui.draft import Draft, Preview, faces_of
from tui.fields import Field
from tui.systems.common import cell, cells, e, hidden_mark, secret_heading
from tui.systems.screen_part import ContestActions, Key, ScreenPart
from tui.widgets.keypad import KeypadRow

ROUND = "Stage"  # what the scoreboard calls the coming round: "Stage 2"
ASPECTS_TITLE = "Situation"


def _own(state: Contest) -> forge.ForgeContest:
    assert isinstance(state, forge.ForgeContest)
    return state


def score(record: ContestRecord) -> tuple[str, dict[str, str]]:
    state = _own(record.state)
    cells = {
        side: f"{wins} stage{'s' if wins != 1 else ''}" for side, wins in state.stage_wins.items()
    }
    return f"FORGE {'combat' if state.options.combat else 'contest'}", cells


def participants(record: ContestRecord) -> list[str]:
    state = _own(record.state)
    roles: list[str] = []
    if not state.finished:
        roles = forge.FORGE.rollers(state)
    lines: list[str] = secret_heading(record)
    for p in state.participants:
        role = ""
        if roles:
            role = " · acts" if p.name == roles[0] else " · reacts" if p.name == roles[1] else ""
        lines.append(f"[b]{e(p.name)}[/b]{role}{hidden_mark(record, p.name)}")
        lines.append(f"  {e(record.uses.get(p.name, 'target'))} {p.target}%")
        if state.options.combat:
            weapon = f"×{p.multiplier}" + (
                f" max {p.max_damage}" if p.max_damage is not None else ""
            )
            lines.append(f"  {weapon} damage · trauma {state.trauma.get(p.name, 0)}")
            if p.armor:
                left = state.armor_left.get(p.name)
                lines.append(f"  armor {p.armor}" + (f" ({left} left)" if left is not None else ""))
    return lines


def gm_notes(record: ContestRecord) -> list[str]:
    return []


def aspects(state: Contest, hidden: Collection[str] = (), players: bool = False) -> list[str]:
    """The situation: FORGE has no aspects to hide."""
    c = _own(state)
    lines = [
        "Combat: damage thrown" if c.options.combat else "Plain contest",
        "Ties go to the reactor" if c.options.reactor_wins_ties else "Ties go to the actor",
    ]
    if c.options.combat:
        lines.append(f"Reaction: {c.reaction}")
    return lines


def rows(preview: Preview, draft: Draft) -> list[KeypadRow]:
    state = _own(preview.state)
    out = []
    for i, who in enumerate(preview.slots):
        typed = draft.typed.get(who, "")
        target = state.target(who)
        text = f"{'acts' if i == 0 else 'reacts'} vs {target}%"
        faces = faces_of(DiceKind.D100, typed)
        if faces is not None and i == 0:
            text += (
                " · [b]succeeds[/b]"
                if forge.actor_succeeds(target, faces[0])
                else " · [b]fails[/b]"
            )
        out.append(KeypadRow(who, cells(typed, 3), text, i == draft.cursor))
    return out


def verdict(preview: Preview, draft: Draft) -> str:
    state = _own(preview.state)
    if len(preview.slots) != 2:
        return ""
    actor, reactor = preview.slots
    a = faces_of(DiceKind.D100, draft.typed.get(actor, ""))
    r = faces_of(DiceKind.D100, draft.typed.get(reactor, ""))
    if a is None and state.target(actor) > 0:
        return ""
    weapon = state.participant(actor)
    absorbing = state.options.combat and state.reaction == "absorb"
    succeeds = forge.actor_succeeds(state.target(actor), a[0] if a else None)
    if succeeds and a is not None and r is None and not absorbing:
        thrown = forge.thrown_number(
            a[0],
            combat=state.options.combat,
            multiplier=weapon.multiplier,
            max_damage=weapon.max_damage,
        )
        return f"{e(actor)} throws {thrown}: {e(reactor)} to roll"
    outcome = forge.stage_outcome(
        state.target(actor),
        a[0] if a else None,
        state.target(reactor),
        r[0] if r else None,
        combat=state.options.combat,
        multiplier=weapon.multiplier,
        max_damage=weapon.max_damage,
        reaction=state.reaction,
        reactor_wins_ties=state.options.reactor_wins_ties,
    )
    who = actor if outcome.actor_wins else reactor
    hit = f", {outcome.hit} damage" if outcome.hit else ""
    return f"⇒ [b]{e(who)}[/b] would win the stage{hit}"


def twist_pending(state: Contest) -> bool:
    return False


def describe_extra(command: Command) -> str | None:
    match command:
        case forge.SetStage():
            return f"Roles: {e(command.actor)} acts, {e(command.reactor)} reacts"
        case forge.ChooseReaction():
            return f"Reaction: {command.reaction}"
    return None


def odds_cells(
    exchange: dict[str, Any], contest_odds: dict[str, float | None], state: Contest
) -> tuple[dict[str, str], str]:
    """Each side's odds as scoreboard text (``contest_odds``: its chance at the contest), and
    the footer under them."""
    cells: dict[str, str] = {}
    for role in ("actor", "reactor"):
        o = exchange[role]
        side = state.participant(o["name"]).side
        cells[side] = f"{cell(o['win'], None, '')}  {'acts' if role == 'actor' else 'reacts'}"
    return cells, ""  # one stage at a time: nothing beyond it


# -- the contest screen's FORGE keys --------------------------------------------------------


def _roles(screen: ContestActions) -> None:
    names = screen.names()
    slots = screen.slots()
    screen.ask(
        "Who acts and who reacts",
        [
            Field("actor", "Actor", slots[0] if slots else names[0][1], names),
            Field("reactor", "Reactor", slots[1] if len(slots) > 1 else names[-1][1], names),
        ],
        lambda a: forge.SetStage(actor=a["actor"], reactor=a["reactor"]),
    )


def _reaction(screen: ContestActions) -> None:
    """Dodge or absorb, the other of what the reactor does now (a choice on the keypad
    replaces the one before it)."""
    state = _own(screen.state)
    chosen = [c for c in screen.draft.extras if isinstance(c, forge.ChooseReaction)]
    current = chosen[-1].reaction if chosen else state.reaction
    screen.draft.extras = [
        c for c in screen.draft.extras if not isinstance(c, forge.ChooseReaction)
    ]
    screen.add_extra(forge.ChooseReaction(reaction="absorb" if current == "dodge" else "dodge"))


def _end(screen: ContestActions) -> None:
    """End the contest now (nothing on the keypad), or after the stage on the keypad."""
    if screen.draft.empty:
        screen.tussle.send(Play(contest_id=screen.contest_id, commands=(EndContest(),)))
    else:
        screen.draft.end_after = not screen.draft.end_after
        screen.refresh_keypad()


SCREEN = ScreenPart(
    keys=(
        Key("modifier", Binding("o", "roles", "Roles", id="roles"), _roles),
        Key("modifier", Binding("x", "reaction", "Dodge/absorb", id="reaction"), _reaction),
        Key("modifier", Binding("e", "end", "End", id="end"), _end),
    ),
)
