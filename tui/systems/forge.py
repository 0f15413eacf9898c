"""FORGE on the dashboard: targets, who acts and who reacts, damage, armor, trauma; and
FORGE's keys on the contest screen (roles, dodge or absorb, the end of the contest)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from textual.binding import Binding

from core.campaign.log import Character, Play
from core.campaign.sheet import Pick
from core.campaign.state import CampaignState, ContestRecord
from core.dice import DiceKind
from core.errors import RuleError
from core.limits import field_problem, written_whole
from core.model import Command, Contest, EndContest
from core.systems.forge import beats
from core.systems.forge import sheet as sheet_rules
from core.systems.forge.beat_round import (
    BEAT_PATTERN_WORDS,
    BEAT_PATTERNS,
    FIRST_BEAT,
    LAST_BEAT,
    beat_kind,
)
from core.systems.forge.character import ForgeCharacter, forge_sheet
from core.systems.forge.events import ChooseReaction, SetStage
from core.systems.forge.modifiers import AIMING, DISTANCE
from core.systems.forge.scoring import actor_succeeds, stage_outcome, thrown_number
from core.systems.forge.sheet import cover_modifier, target
from core.systems.forge.stage import reaction_of
from core.systems.forge.state import ForgeContest, ForgeParticipant
from tui.draft import Draft, Preview, faces_of
from tui.fields import Answers, Field, FieldError, blame, whole_field
from tui.systems import SystemView
from tui.systems.common import cell, cells, hidden_mark, secret_heading
from tui.systems.roster_part import RosterPart
from tui.systems.screen_part import ContestActions, ContestKeys, Key, ScreenPart, while_open
from tui.systems.setup_part import YES_NO, SetupActions, SetupKey, SetupKeys, SetupPart
from tui.widgets.keypad import KeypadRow
from tui.widgets.lines import e

ROUND = "Stage"  # what the scoreboard calls the coming round: "Stage 2"
ASPECTS_TITLE = "Situation"


def _own(state: Contest) -> ForgeContest:
    assert isinstance(state, ForgeContest)
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
    if not state.finished and not state.in_round:
        roles = beats.FORGE.rollers(state)
    lines: list[str] = secret_heading(record)
    for p in state.participants:
        role = ""
        if state.in_round and state.round is not None:
            role = f" · beat {state.round.icon_beats[p.name]}"
        elif roles and not state.dying(p.name):  # a dying one has no role: the line below
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
        now = state.current_trauma(p.name)
        if now is not None:
            lines.append(f"  current trauma {now}")
        if state.dying(p.name):
            lines.append("  [b]dying[/b]: out of the contest, no actions")
    return lines


def aspects(state: Contest, hidden: Collection[str] = (), players: bool = False) -> list[str]:
    """The situation: FORGE has no aspects to hide."""
    c = _own(state)
    lines = [
        "Combat: damage thrown" if c.options.combat else "Plain contest",
        "Ties go to the reactor" if c.options.reactor_wins_ties else "Ties go to the actor",
    ]
    if c.in_round:
        return _tracker(c, players)  # the tracker first: the pane is a few lines at 80x24
    if c.round is not None:
        lines.insert(0, _tracker(c, players)[0])
    if c.options.combat:
        reaction = reaction_of(c) or c.reaction  # a dying reactor cannot dodge
        dying = " (the reactor is dying: no dodge)" if reaction != c.reaction else ""
        lines.append(f"Reaction: {reaction}{dying}")
    return lines


KIND_LETTER = {"action": "a", "reaction": "r"}


def _tracker(c: ForgeContest, players: bool = False) -> list[str]:
    """The round tracker (rules §3.4 [I16], [I17]): the beat, then what each icon may
    still do (``4a 5r``: act in beat 4, react in 5; the current beat's first), then the
    hits on their way. The players' view has no GM's key (T) and no damage on its way:
    a hidden attacker's would give his numbers away (the log says it, masked)."""
    r = c.round
    assert r is not None
    if r.over:
        head = f"[b]Round {r.number} over[/b]" + ("" if players else f" · T: round {r.number + 1}")
    else:
        head = f"[b]Round {r.number} · beat {r.beat}[/b] ({beat_kind(r.beat)})"
    lines = [head]
    for name, own in r.icon_beats.items():
        todo = beats.still_to_do(c, r, name)
        doing = " ".join(f"{b}{KIND_LETTER[k]}" for b, k in todo) or (
            "dying" if c.dying(name) else "done"
        )
        lines.append(f"{e(name)} (b{own}): {doing}")
    for a in r.pending:
        hit = "a hit" if players else str(a.damage)
        lines.append(f"  {hit} on its way to {e(a.target)} (beat {a.lands_in})")
    return lines


def round_label(state: Contest) -> str:
    """The scoreboard's label: "Round 1 · beat 4" while a round by beats is under way
    (rules §3.4 [I16]), else the coming stage ("Stage 2")."""
    c = _own(state)
    if c.in_round and c.round is not None:
        return f"Round {c.round.number} · beat {c.round.beat}"
    return f"{ROUND} {c.stages + 1}"  # stages only: a round's attacks are no stages


def finished_label(record: ContestRecord) -> str:
    """A contest over: the stages it had ("After 2 stages"), and its rounds by beats
    ("After 2 stages, 1 round"), not the count of exchanges (a round's every attack and
    hit is one)."""
    c = _own(record.state)
    said = f"After {c.stages} stage{'s' if c.stages != 1 else ''}"
    rounds = 0 if c.round is None else c.round.number
    return said + (f", {rounds} round{'s' if rounds != 1 else ''}" if rounds else "")


def takes_dice(state: Contest, who: str) -> bool:
    """A dying participant takes no dice: out of the contest, no actions (rules §3.4);
    as the stage's reactor, their armor absorbs what it can (``reaction_of``)."""
    return not _own(state).dying(who)


def _dying_row(who: str, acting: bool) -> KeypadRow:
    """Where the GM looks for ``who``'s dice: why there are none (the participants pane
    gives the current trauma)."""
    why = "no actions (o: another actor)" if acting else "no actions, no roll (armor absorbs)"
    return KeypadRow(who, "     ", f"[b]dying[/b]: {why}", False)


def _round_rows(state: ForgeContest, preview: Preview, draft: Draft) -> list[KeypadRow]:
    """In a round by beats: a row for each icon, what it may do in this beat."""
    r = state.round
    assert r is not None
    current = preview.slots[draft.cursor % len(preview.slots)] if preview.slots else None
    out = []
    for name in r.icon_beats:
        typed = draft.typed.get(name, "")
        if name not in preview.slots:
            why = "dying: no actions" if state.dying(name) else f"nothing in beat {r.beat}"
            out.append(KeypadRow(name, "     ", why, False))
            continue
        if beat_kind(r.beat) == "action":
            target = beats.attack_target(state, name)  # the GM's choice (k), else the default
            text = f"attacks {e(target)} vs {state.target(name)}%"
        else:
            hits = [a for a in beats.landing_now(r, name)]
            text = f"dodges {hits[0].damage} vs {state.target(name)}% (blank: absorbs)"
        out.append(KeypadRow(name, cells(typed, 3), text, name == current))
    return out


def _round_verdict(state: ForgeContest, draft: Draft) -> str:
    r = state.round
    assert r is not None
    try:
        steps = beats.beat_steps(state)
    except RuleError as error:
        return e(error)
    said = []
    for step in steps:
        match step:
            case beats.SkipBeat():
                said.append(f"{e(step.who)} lets it go")
            case beats.SendAttack():
                typed = faces_of(DiceKind.D100, draft.typed.get(step.attacker, ""))
                roll = typed[0] if typed else step.roll
                hits = roll is not None and actor_succeeds(state.target(step.attacker), roll)
                # Whom: with more than two icons the GM may have aimed elsewhere (k).
                said.append(f"{e(step.attacker)} {'hits' if hits else 'misses'} {e(step.target)}")
            case beats.LandHit():
                said.append(f"{e(step.target)} {step.reaction}s")
    # Five beats a round (rules §3.4 [I16]): after the last, the round is over.
    then = "the round is over" if r.beat >= LAST_BEAT else f"the beats after {r.beat}"
    return "⇒ Enter: " + ", ".join(said) + f"; then {then}"


def rows(preview: Preview, draft: Draft) -> list[KeypadRow]:
    state = _own(preview.state)
    if state.in_round:
        return _round_rows(state, preview, draft)
    rollers = [who for who in preview.slots if takes_dice(state, who)]
    current = rollers[draft.cursor % len(rollers)] if rollers else None
    out = []
    for i, who in enumerate(preview.slots):
        if not takes_dice(state, who):
            out.append(_dying_row(who, acting=i == 0))
            continue
        typed = draft.typed.get(who, "")
        target = state.target(who)
        text = f"{'acts' if i == 0 else 'reacts'} vs {target}%"
        faces = faces_of(DiceKind.D100, typed)
        if faces is not None and i == 0:
            text += " · [b]succeeds[/b]" if actor_succeeds(target, faces[0]) else " · [b]fails[/b]"
        out.append(KeypadRow(who, cells(typed, 3), text, who == current))
    return out


def verdict(preview: Preview, draft: Draft) -> str:
    state = _own(preview.state)
    if state.in_round:
        return _round_verdict(state, draft)
    if len(preview.slots) != 2:
        return ""
    actor, reactor = preview.slots
    a = faces_of(DiceKind.D100, draft.typed.get(actor, ""))
    r = faces_of(DiceKind.D100, draft.typed.get(reactor, ""))
    if a is None and state.target(actor) > 0:
        return ""
    weapon = state.participant(actor)
    reaction = reaction_of(state) or state.reaction  # a dying reactor absorbs
    absorbing = reaction == "absorb"
    succeeds = actor_succeeds(state.target(actor), a[0] if a else None)
    if succeeds and a is not None and r is None and not absorbing:
        thrown = thrown_number(
            a[0],
            combat=state.options.combat,
            multiplier=weapon.multiplier,
            max_damage=weapon.max_damage,
        )
        return f"{e(actor)} throws {thrown}: {e(reactor)} to roll"
    outcome = stage_outcome(
        state.target(actor),
        a[0] if a else None,
        state.target(reactor),
        r[0] if r else None,
        combat=state.options.combat,
        multiplier=weapon.multiplier,
        max_damage=weapon.max_damage,
        reaction=reaction,
        reactor_wins_ties=state.options.reactor_wins_ties,
    )
    who = actor if outcome.actor_wins else reactor
    hit = f", {outcome.hit} damage" if outcome.hit else ""
    return f"⇒ [b]{e(who)}[/b] would win the stage{hit}"


def describe_extra(command: Command) -> str | None:
    match command:
        case SetStage():
            return f"Roles: {e(command.actor)} acts, {e(command.reactor)} reacts"
        case ChooseReaction():
            return f"Reaction: {command.reaction}"
        case beats.ChooseTarget():
            return f"Target: {e(command.attacker)} attacks {e(command.target)}"
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
        doing = "acts" if role == "actor" else "reacts"
        if _own(state).dying(o["name"]):
            doing = "dying"  # no actions: never offered as the reactor (rules §3.4)
        cells[side] = f"{cell(o['win'], None, '')}  {doing}"
    return cells, ""  # one stage at a time: nothing beyond it


# -- the contest screen's FORGE keys --------------------------------------------------------


def _roles(screen: ContestActions) -> None:
    """Who acts and who reacts: a dying participant is neither (no actions, rules §3.4),
    so not offered; the form's title names them."""
    state = _own(screen.state)
    dying = [p.name for p in state.participants if state.dying(p.name)]
    names = tuple((label, name) for label, name in screen.names() if name not in dying)
    roles = [s if s not in dying else None for s in beats.FORGE.rollers(state)] + [None] * 2
    out = f" ({', '.join(dying)} dying: out of the contest)" if dying else ""
    if not names:
        screen.notify(f"Nobody can act{out}.", title="Roles")
        return
    actor = roles[0] or names[0][1]
    against = [n for _, n in names if state.participant(n).side != state.participant(actor).side]
    reactor = roles[1] or (against[0] if against else names[-1][1])
    screen.ask(
        f"Who acts and who reacts{out}",
        [
            Field("actor", "Actor", actor, names),
            Field("reactor", "Reactor", reactor, names),
        ],
        lambda a: SetStage(actor=a["actor"], reactor=a["reactor"]),
    )


def _reaction(screen: ContestActions) -> None:
    """Dodge or absorb, the other of what the reactor does now (a choice on the keypad
    replaces the one before it)."""
    state = _own(screen.state)
    chosen = [c for c in screen.draft.extras if isinstance(c, ChooseReaction)]
    current = chosen[-1].reaction if chosen else state.reaction
    screen.draft.extras = [c for c in screen.draft.extras if not isinstance(c, ChooseReaction)]
    screen.add_extra(ChooseReaction(reaction="absorb" if current == "dodge" else "dodge"))


def _end(screen: ContestActions) -> None:
    """End the contest now (nothing on the keypad), or after the stage on the keypad."""
    if screen.draft.empty:
        screen.tussle.send(Play(contest_id=screen.contest_id, commands=(EndContest(),)))
    else:
        screen.draft.end_after = not screen.draft.end_after
        screen.refresh_keypad()


def _start_round(screen: ContestActions) -> None:
    """A combat round by beats: the first, or the next once one is over (rules §3.4)."""
    if not screen.draft.empty:
        screen.notify("Commit or clear (Esc) the keypad first.", title="Round")
        return
    screen.tussle.send(Play(contest_id=screen.contest_id, commands=(beats.StartRound(),)))


def _move_icon(screen: ContestActions) -> None:
    """The GM puts an icon in another beat (a surprise, a power)."""
    state = _own(screen.state)
    if not state.in_round:
        screen.notify("No round by beats is under way (T starts one).", title="Move")
        return
    first = screen.current() or screen.names()[0][1]

    def then(a: Answers | None) -> None:
        if a is not None:
            command = beats.MoveIcon(who=a["who"], beat=int(a["beat"]))
            screen.tussle.send(Play(contest_id=screen.contest_id, commands=(command,)))

    beats_offered = tuple((f"beat {b}", str(b)) for b in range(FIRST_BEAT, LAST_BEAT + 1))
    screen.form(
        "Move an icon to another beat",
        [
            Field("who", "Who", first, screen.names()),
            Field("beat", "From now on in", "1", beats_offered),
        ],
        "",
        then,
    )


def _choose_target(screen: ContestActions) -> None:
    """Whom the current row's icon attacks in this action beat: one of its living
    opponents (rules §3.4 [I17]; a dying icon is out of the contest). A choice made
    again for the same icon takes the place of the one waiting."""
    state = _own(screen.state)
    r = state.round
    if r is None or not state.in_round:
        screen.notify("No round by beats is under way (T starts one).", title="Target")
        return
    if beat_kind(r.beat) != "action":
        screen.notify(f"Beat {r.beat} is a reaction beat: nobody attacks in it.", title="Target")
        return
    attacker = screen.current()
    if attacker is None or attacker not in beats.whose_beat(state, r):
        screen.notify(f"Nobody left to attack in beat {r.beat}.", title="Target")
        return
    living = beats.living_opponents(state, attacker)
    if not living:
        screen.notify(f"{attacker} has nobody left to attack.", title="Target")
        return
    chosen = [
        c
        for c in screen.draft.extras
        if isinstance(c, beats.ChooseTarget) and c.attacker == attacker
    ]
    now = chosen[-1].target if chosen else beats.default_target(state, attacker)
    screen.ask(
        f"Whom {attacker} attacks in beat {r.beat}",
        [Field("target", "Target", now, tuple((n, n) for n in living))],
        lambda a: beats.ChooseTarget(attacker=attacker, target=a["target"]),
        rule_field="target",
    )


def _same_aim(waiting: Command, new: Command) -> bool:
    """A target chosen again for the same attacker takes the place of the one waiting."""
    return (
        isinstance(waiting, beats.ChooseTarget)
        and isinstance(new, beats.ChooseTarget)
        and waiting.attacker == new.attacker
    )


def _end_round(screen: ContestActions) -> None:
    """The GM ends the round now (hits on their way are dropped)."""
    if not _own(screen.state).in_round:
        screen.notify("No round by beats is under way.", title="End round")
        return
    screen.tussle.send(Play(contest_id=screen.contest_id, commands=(beats.EndRound(),)))


def _action_beat(state: Contest) -> bool:
    """Whether a round is under way in an action beat, where ``k`` aims an attack (in a
    reaction beat nobody attacks, rules §3.4 [I17]: the key is out of the footer)."""
    r = _own(state).round
    return _own(state).in_round and r is not None and beat_kind(r.beat) == "action"


def _combat(state: Contest) -> bool:
    return _own(state).options.combat


KEYS = while_open(
    (
        Key(
            "modifier",
            Binding("T", "round", "Round", id="round"),
            _start_round,
            # the next round, once one is over: none starts while one is under way
            applies=lambda state: _combat(state) and not _own(state).in_round,
        ),
        Key(
            "modifier",
            Binding("v", "move_icon", "Move beat", id="move_icon", show=False),
            _move_icon,
            _combat,
        ),
        Key(
            "modifier",
            Binding("E", "end_round", "End round", id="end_round", show=False),
            _end_round,
            _combat,
        ),
        Key(
            "modifier",
            Binding("k", "target", "Target", id="target"),
            _choose_target,
            applies=_action_beat,  # an action beat's attacks; nobody attacks in a reaction beat
        ),
        Key(
            "modifier",
            Binding("o", "roles", "Roles", id="roles"),
            _roles,
            applies=lambda state: not _own(state).in_round,  # a round has no stage roles
        ),
        Key(
            "modifier",
            Binding("x", "reaction", "Dodge/absorb", id="reaction"),
            _reaction,
            # reactions are combat's; in a round a roll typed is a dodge, blank absorbs
            applies=lambda state: _own(state).options.combat and not _own(state).in_round,
        ),
        Key("modifier", Binding("e", "end", "End", id="end"), _end),
    )
)


class ForgeKeys(ContestKeys, keys=KEYS):
    """FORGE's keys on the contest screen."""


SCREEN = ScreenPart(
    keys=ForgeKeys,
    replaces=_same_aim,
)


# -- the roster ------------------------------------------------------------------------------


def _state(character: Character, campaign: CampaignState) -> str:
    """``×4 max 40 · armor 10 (100 left) · current trauma 28 of 40`` (``trauma 12``
    with no pool kept; ``dying`` at 0 current or below)."""
    c = forge_sheet(character)
    parts = [f"×{c.multiplier}" + (f" max {c.max_damage}" if c.max_damage is not None else "")]
    if c.armor or c.armor_capacity:
        left = {None: "", 0: " (used up)"}.get(c.armor_capacity, f" ({c.armor_capacity} left)")
        parts.append(f"armor {c.armor}{left}")
    if c.trauma_pool is not None:
        now = sheet_rules.current_trauma(character)
        parts.append(f"current trauma {now} of {c.trauma_pool}")
        if sheet_rules.dying(character):
            parts.append("dying")
    elif c.trauma:
        parts.append(f"trauma {c.trauma}")
    return " · ".join(parts)


def _fields(character: Character) -> list[Field]:
    c = forge_sheet(character)
    return [
        Field("multiplier", "Weapon multiplier", str(c.multiplier), required=False),
        Field(
            "max_damage",
            "Maximum damage (blank: none)",
            "" if c.max_damage is None else str(c.max_damage),
            required=False,
        ),
        Field("armor", "Armor (durability)", str(c.armor), required=False),
        Field(
            "armor_capacity",
            "Armor capacity: trauma it can still absorb (blank: no limit; 0: used up)",
            "" if c.armor_capacity is None else str(c.armor_capacity),
            required=False,
        ),
        Field("trauma", "Trauma taken", str(c.trauma), required=False),
        Field(
            "trauma_pool",
            "Trauma pool: Maximum Trauma (blank: not tracked; dying at 0 current)",
            "" if c.trauma_pool is None else str(c.trauma_pool),
            required=False,
        ),
        Field(
            "agility",
            "Physical Agility: the beat in a round (blank: unknown, beat 4)",
            "" if c.agility is None else str(c.agility),
            required=False,
        ),
    ]


def _changes(a: Answers, ratings: Mapping[str, int], old: Character | None) -> dict[str, Any]:
    return {"sheet": ForgeCharacter(**_numbers(a))}


def _numbers(a: Answers) -> dict[str, Any]:
    max_damage = a.get("max_damage", "")
    return {
        "multiplier": whole_field(a, "multiplier", 1, of=ForgeCharacter),
        "max_damage": whole_field(a, "max_damage", 0, of=ForgeCharacter) if max_damage else None,
        "armor": whole_field(a, "armor", 0, of=ForgeCharacter),
        "armor_capacity": whole_field(a, "armor_capacity", 0, of=ForgeCharacter)
        if a.get("armor_capacity", "").strip()
        else None,
        "trauma_pool": whole_field(a, "trauma_pool", 0, of=ForgeCharacter)
        if a.get("trauma_pool", "").strip()
        else None,
        "trauma": whole_field(a, "trauma", 0, of=ForgeCharacter),
        "agility": whole_field(a, "agility", of=ForgeCharacter)
        if a.get("agility", "").strip()
        else None,
    }


ROSTER = RosterPart(
    ratings_label="Targets (Brawling 50)",
    rating_text=lambda value: f"{value}%",
    parse_rating=sheet_rules.typed_rating,  # 50, 50%: as everywhere (issue 24)
    state=_state,
    fields=_fields,
    changes=_changes,
)


# -- the contest setup -----------------------------------------------------------------------


def _build_target(screen: SetupActions) -> None:
    """A participant's target from skill tiers, attribute and presets (§3.2, §3.4)."""
    roster = screen.tussle.campaign.roster
    names = tuple((n, n) for n in roster)
    if not names:
        screen.notify("Add characters to the roster first (w).")
        return

    def parse(a: Answers) -> Pick:
        if a["character"] in {p.character for p in screen.picks}:
            raise FieldError("character", f"{a['character']} is already in the contest")
        try:  # each tier a whole number within every limit (core.limits.SIZE)
            read = [written_whole(t) for t in a["tiers"].replace(",", " ").split()]
        except ValueError as too_large:
            raise FieldError("tiers", str(too_large)) from None
        tiers = [t for t in read if t is not None]
        if len(tiers) != len(read):
            raise FieldError("tiers", f'"{a["tiers"]}": write whole numbers, like 25 20 10')
        cover = whole_field(a, "cover", 0)
        with blame("cover"):
            mods = [AIMING[a["aiming"]], DISTANCE[a["distance"]], cover_modifier(cover)]
        value = target(tiers, whole_field(a, "attribute", 0), mods)
        problem = field_problem(ForgeParticipant, "target", value)  # the sum's too
        if problem is not None:
            raise FieldError("tiers", f"the target would be {value}: {problem}")
        return Pick(character=a["character"], side=a["side"] or a["character"], value=value)

    def then(pick: Pick) -> None:
        screen.picks.append(pick)
        screen.notify(f"{pick.character}: target {pick.value}")
        screen.reload()

    screen.form(
        "Build a target (rules §3.2, §3.4)",
        [
            Field("character", "Character", names[0][1], names),
            Field("side", "Side (blank: their own)", required=False),
            Field("tiers", "Skill tiers, broad to specific (25 20 10)"),
            Field("attribute", "Attribute", "0"),
            Field("aiming", "Aiming", "none", tuple((k, k) for k in AIMING)),
            Field("distance", "Distance", "within 25 yd", tuple((k, k) for k in DISTANCE)),
            Field("cover", "Cover: percent of the body covered", "0"),
        ],
        parse,
        then,
    )


SETUP_KEYS = (
    SetupKey(
        "setup.options",
        Binding("b", "build_target", "Build target", id="setup.build_target"),
        _build_target,
    ),
)


class ForgeSetupKeys(SetupKeys, keys=SETUP_KEYS):
    """FORGE's keys on the setup screen: a target built from tiers."""


SETUP = SetupPart(
    no_skill="No skill: a target of 0",
    typed_example="50",
    option_fields=(
        Field("combat", "Combat (damage thrown, dodge or absorb)", "no", YES_NO),
        Field("reactor_wins_ties", "Ties go to the reactor", "yes", YES_NO),
        Field(
            "beat_pattern",
            "Rounds by beats: who takes part when (A-I5)",
            BEAT_PATTERNS[0],
            tuple((BEAT_PATTERN_WORDS[p], p) for p in BEAT_PATTERNS),
        ),
    ),
    options_from=lambda a: {
        "combat": a["combat"] == "yes",
        "reactor_wins_ties": a["reactor_wins_ties"] == "yes",
        "beat_pattern": a["beat_pattern"],
    },
    keys=ForgeSetupKeys,
)


class ForgeView(SystemView):
    """FORGE's :class:`tui.systems.SystemView`: the functions and parts above."""

    ROUND = ROUND
    ASPECTS_TITLE = ASPECTS_TITLE
    SCREEN = SCREEN
    score = staticmethod(score)
    participants = staticmethod(participants)
    aspects = staticmethod(aspects)
    rows = staticmethod(rows)
    round_label = staticmethod(round_label)
    finished_label = staticmethod(finished_label)
    takes_dice = staticmethod(takes_dice)
    verdict = staticmethod(verdict)
    odds_cells = staticmethod(odds_cells)
    describe_extra = staticmethod(describe_extra)

    def roster(self) -> RosterPart:
        return ROSTER

    def setup(self) -> SetupPart:
        return SETUP


VIEW = ForgeView()
