"""The roster: the campaign's PCs and NPCs, added and edited from the keyboard, and the
session's housekeeping (a session's start, compels, undo) done from here."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from core.campaign import (
    ActionRecorded,
    ActionRedone,
    ActionUndone,
    AddCharacter,
    Character,
    CharacterUpdated,
    Compel,
    Played,
    SettingsChanged,
    StartSession,
    UpdateCharacter,
    describe_action,
)
from core.errors import RuleError
from tui.host import Host, host
from tui.screens.forms import Answers, Field, FormScreen, blame
from tui.widgets.keybar import KeyBar
from tui.widgets.lines import data_cell
from tui.widgets.lines import e as plain_in_markup

if TYPE_CHECKING:
    from core.bus import Notice

ADVERSITY = ("hurt", "impaired", "injured", "dying", "dead")  # HeroQuest §2.6
MOST_OF_A_STATE = 9  # "hurt×99" is a typing slip, not a character
SYSTEM_ACTIONS = {"compel": "fate"}  # keys only some rule systems have


def rating_text(system: str, value: int) -> str:
    if system == "fate":
        from core.systems.fate import signed

        return signed(value)
    if system == "heroquest":
        from core.systems.heroquest import format_rating

        return format_rating(value)
    return f"{value}%"


def parse_ratings(system: str, text: str) -> dict[str, int]:
    """``"Athletics 4, Lore 3"`` (HeroQuest ``"Sword 4M"``, FORGE ``"Brawling 50"``)."""
    out: dict[str, int] = {}
    for chunk in text.split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        name, _, value = chunk.rpartition(" ")
        if not name:
            raise RuleError(f'"{chunk}": write a rating as a name then a value')
        if system == "heroquest":
            from core.systems.heroquest import parse_rating

            out[name.strip()] = parse_rating(value)
        else:
            try:
                out[name.strip()] = int(value.replace("+", ""))
            except ValueError:
                raise RuleError(f'"{chunk}": {value} is not a number') from None
    return out


def adversity_text(states: Iterable[str]) -> str:
    """``("hurt", "hurt", "impaired")`` as ``"hurt×2, impaired"``."""
    counts = Counter(states)
    return ", ".join(s if n == 1 else f"{s}×{n}" for s, n in counts.items())


def parse_adversity(text: str) -> tuple[str, ...]:
    """``"hurt×2, impaired"`` (or ``hurt x2``, ``hurt, hurt, impaired``) as states."""
    out: list[str] = []
    for chunk in text.replace(";", ",").split(","):
        chunk = chunk.strip().lower()
        if not chunk:
            continue
        found = re.fullmatch(r"([a-z]+)\s*(?:[×x*]\s*(\d+))?", chunk)
        if found is None or found.group(1) not in ADVERSITY:
            raise RuleError(
                f'"{chunk}" is not a state of adversity: write hurt, impaired, injured, '
                "dying or dead (hurt×2 or hurt x2 for two)"
            )
        count = int(found.group(2) or 1)
        if count > MOST_OF_A_STATE:
            raise RuleError(f'"{chunk}": at most {MOST_OF_A_STATE} of one state')
        out += [found.group(1)] * count
    return tuple(out)


def benefits_text(benefits: Mapping[str, int]) -> str:
    """``{"Fist": 3}`` as ``"Fist +3"``."""
    return ", ".join(f"{name} {value:+d}" for name, value in benefits.items())


def parse_benefits(text: str, ratings: Mapping[str, int]) -> dict[str, int]:
    """``"Fist +3, Sword +6"``: lingering benefits by ability (spelled as in ``ratings``
    when the name matches one, whatever its case)."""
    spelled = {name.lower(): name for name in ratings}
    out: dict[str, int] = {}
    for chunk in text.replace(";", ",").split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        name, _, value = chunk.rpartition(" ")
        try:
            bonus = int(value)
        except ValueError:
            bonus = 0
        if not name.strip() or bonus < 1:
            raise RuleError(
                f'"{chunk}": write a lingering benefit as an ability then a bonus '
                "(Fist +3, Sword +6)"
            )
        name = spelled.get(name.strip().lower(), name.strip())
        out[name] = out.get(name, 0) + bonus  # several add up
    return out


def _int(text: str, what: str, default: int = 0) -> int:
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise RuleError(f"{what}: {text} is not a whole number") from None


def _count(text: str, what: str) -> int:
    """A whole number, not below zero."""
    value = _int(text, what)
    if value < 0:
        raise RuleError(f"{what}: {value} is below zero")
    return value


def _points(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


class RosterScreen(Screen[None]):
    """Characters with their ratings, points and what earlier contests left on them."""

    BINDINGS = [
        Binding("question_mark,f1", "help", "Key help", id="roster.help"),
        Binding("a", "add", "Add", id="roster.add"),
        Binding("e,enter", "edit", "Edit", id="roster.edit"),
        Binding("S", "start_session", "Start session", id="roster.start_session"),
        Binding("k", "compel", "Compel", id="roster.compel"),
        Binding("u", "app.undo", "Undo", id="roster.undo", show=False),
        Binding("U,ctrl+y", "app.redo", "Redo", id="roster.redo", show=False),
        Binding("n", "new_contest", "New contest", id="roster.new_contest", show=False),
        Binding("escape", "back", "Back", id="roster.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._before: dict[str, Character] = {}  # the roster when a session was started

    @property
    def tussle(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield DataTable(id="roster-table", cursor_type="row")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Name", "Kind", "State", "Ratings")
        self.reload()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        wanted = SYSTEM_ACTIONS.get(action)
        return wanted is None or wanted == self.tussle.campaign.system

    # -- painting --------------------------------------------------------------------------
    def reload(self) -> None:
        campaign = self.tussle.campaign
        sessions = campaign.settings.get("sessions")
        session = f" · session {sessions}" if isinstance(sessions, int) and sessions else ""
        self.query_one("#title", Static).update(
            f"[b]Roster[/b] · {plain_in_markup(campaign.name)}{session}"
            " · n sets up a contest · u undoes"
        )
        table = self.query_one(DataTable)
        highlighted = self.highlighted()
        table.clear()
        for c in campaign.roster.values():
            ratings = ", ".join(
                f"{k} {rating_text(campaign.system, v)}" for k, v in c.ratings.items()
            )
            row = (c.name, c.kind.upper(), self.state(c), ratings)
            table.add_row(*(data_cell(x) for x in row), key=c.name)
        if highlighted in campaign.roster:
            table.move_cursor(row=table.get_row_index(highlighted))
        table.focus()

    def state(self, c: Character) -> str:
        """The State column: what this system tracks between contests, compactly."""
        system = self.tussle.campaign.system
        if system == "fate":
            text = f"FP {c.fate_points}/{c.refresh}"
            record = self.tussle.campaign.playing(c.name)
            if record is not None:
                p = next(p for p in record.state.participants if p.name == c.name)
                in_play = getattr(p, "fate_points", None)
                if in_play is not None and in_play != c.fate_points:
                    text += f" ({in_play} in play)"
            return text
        if system == "heroquest":
            parts = [f"HP {c.hero_points}"]
            if c.vitality:
                parts.append(f"vit {c.vitality:+d}")
            if c.adversity:
                parts.append(adversity_text(c.adversity))
            if c.benefits:
                parts.append(benefits_text(c.benefits))
            return " · ".join(parts)
        parts = [f"×{c.multiplier}" + (f" max {c.max_damage}" if c.max_damage is not None else "")]
        if c.armor or c.armor_capacity:
            left = f" ({c.armor_capacity} left)" if c.armor_capacity else ""
            parts.append(f"armor {c.armor}{left}")
        if c.trauma:
            parts.append(f"trauma {c.trauma}")
        return " · ".join(parts)

    def highlighted(self) -> str | None:
        """The name on the highlighted row, if any."""
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return None if key is None else str(key)

    # -- what the bus says -----------------------------------------------------------------
    def notice(self, notice: Notice) -> None:
        from core.bus import Applied, Rejected

        if isinstance(notice, Rejected):
            self.notify(str(notice.error), title=notice.error.title, severity="error")
        elif isinstance(notice, Applied):
            self.tell(notice.entry)
        self.reload()

    def tell(self, entry: ActionRecorded | ActionUndone | ActionRedone) -> None:
        """Say what a session start, a compel, an undo or a redo did."""
        campaign = self.tussle.campaign
        if isinstance(entry, ActionUndone | ActionRedone):
            verb = "Undone" if isinstance(entry, ActionUndone) else "Redone"
            action = campaign.actions[entry.action_id]
            self.notify(f"{verb}: {describe_action(action.command)}", timeout=3)
            return
        command = entry.command
        if isinstance(command, StartSession):
            self.notify(self.session_message(entry, command), title="New session", timeout=8)
        elif isinstance(command, Compel):
            where = next((e.contest_id for e in entry.events if isinstance(e, Played)), None)
            title = campaign.contests[where].title if where in campaign.contests else ""
            in_play = f", in “{title}”" if where is not None else ""
            to_pool = any(
                isinstance(e, Played) and getattr(e.event, "pool", False) for e in entry.events
            )
            if to_pool and where in campaign.contests:  # an NPC's compel fills the GM's pool
                left = campaign.contests[where].gm_pool
                self.notify(
                    f"{command.who} takes the compel: the GM's pool gains a fate point "
                    f"(now {left}{in_play})",
                    timeout=4,
                )
            else:
                self.notify(f"{command.who} gains a fate point (compel{in_play})", timeout=4)

    def session_message(self, entry: ActionRecorded, command: StartSession) -> str:
        """``Session 3 started: Cynere refreshed to 3 fate points; Tripitaka's hurt healed``."""
        number = next(
            (
                e.changes.get("sessions")
                for e in entry.events
                if isinstance(e, SettingsChanged) and "sessions" in e.changes
            ),
            None,
        )
        changes: list[str] = []
        if command.hero_points is not None:
            changes.append(f"every PC has {_points(command.hero_points, 'hero point')}")
        for e in entry.events:
            if not isinstance(e, CharacterUpdated):
                continue
            old, new = self._before.get(e.name), e.character
            if old is None:
                continue
            if new.fate_points != old.fate_points:
                changes.append(f"{new.name} refreshed to {_points(new.fate_points, 'fate point')}")
            healed = old.adversity.count("hurt") - new.adversity.count("hurt")
            if healed:
                hurts = "hurt" if healed == 1 else f"{healed} hurts"
                changes.append(f"{new.name}'s {hurts} healed")
        head = f"Session {number} started" if number is not None else "A session started"
        return f"{head}: {'; '.join(changes)}" if changes else f"{head}."

    # -- the edit form ---------------------------------------------------------------------
    def fields(self, c: Character | None) -> list[Field]:
        system = self.tussle.campaign.system
        c = c or Character(name="")
        ratings = ", ".join(
            f"{k} {rating_text(system, v).lstrip('+').rstrip('%')}" for k, v in c.ratings.items()
        )
        what = {
            "fate": "Skills (Athletics 4, Lore 3)",
            "heroquest": "Abilities (Sword 4M, Lore 17)",
            "forge": "Targets (Brawling 50)",
        }[system]
        out = [
            Field("name", "Name", c.name),
            Field("kind", "Kind", c.kind, (("PC", "pc"), ("NPC", "npc"))),
            Field("ratings", what, ratings, required=False),
        ]
        if system == "fate":
            out += [
                Field("aspects", "Aspects (separated by ;)", "; ".join(c.aspects), required=False),
                Field("fate_points", "Fate points", str(c.fate_points), required=False),
                Field("refresh", "Refresh", str(c.refresh), required=False),
            ]
        elif system == "heroquest":
            out += [
                Field("hero_points", "Hero points", str(c.hero_points), required=False),
                Field("vitality", "Vitality", str(c.vitality), required=False),
                Field(
                    "adversity",
                    "States of adversity (hurt, impaired, injured, dying, dead; hurt×2)",
                    adversity_text(c.adversity),
                    placeholder="none",
                    required=False,
                ),
                Field(
                    "benefits",
                    "Lingering benefits (Fist +3, Sword +6)",
                    benefits_text(c.benefits),
                    placeholder="none",
                    required=False,
                ),
            ]
        else:
            out += [
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
                    "Armor capacity (0: unlimited)",
                    str(c.armor_capacity),
                    required=False,
                ),
                Field("trauma", "Trauma taken", str(c.trauma), required=False),
            ]
        return out

    def character(self, a: Answers, old: Character | None = None) -> Character:
        """The character the form describes: ``old`` (when editing) with what the form
        asked changed, so fields another system's form does not show are kept."""
        system = self.tussle.campaign.system

        def number(key: str, what: str, default: int = 0) -> int:
            with blame(key):
                return _int(a.get(key, ""), what, default)

        with blame("ratings"):
            ratings = parse_ratings(system, a["ratings"])
        changes: dict[str, Any] = {
            "name": a["name"],
            "kind": "npc" if a["kind"] == "npc" else "pc",
            "ratings": ratings,
        }
        if system == "fate":
            changes |= {
                "aspects": tuple(x.strip() for x in a.get("aspects", "").split(";") if x.strip()),
                "fate_points": number("fate_points", "Fate points"),
                "refresh": number("refresh", "Refresh"),
            }
        elif system == "heroquest":
            changes["hero_points"] = number("hero_points", "Hero points")
            changes["vitality"] = number("vitality", "Vitality")
            with blame("adversity"):
                changes["adversity"] = parse_adversity(a.get("adversity", ""))
            with blame("benefits"):
                changes["benefits"] = parse_benefits(a.get("benefits", ""), ratings)
        else:
            max_damage = a.get("max_damage", "")
            changes |= {
                "multiplier": number("multiplier", "Multiplier", 1),
                "max_damage": number("max_damage", "Maximum damage") if max_damage else None,
                "armor": number("armor", "Armor"),
                "armor_capacity": number("armor_capacity", "Armor capacity"),
            }
            with blame("trauma"):
                changes["trauma"] = _count(a.get("trauma", ""), "Trauma")
        return replace(old or Character(name=""), **changes)

    def _ask(self, title: str, old: Character | None) -> None:
        def parse(answers: Answers) -> AddCharacter | UpdateCharacter:
            new = self.character(answers, old)
            command: AddCharacter | UpdateCharacter = (
                AddCharacter(character=new)
                if old is None
                else UpdateCharacter(name=old.name, character=new)
            )
            with blame("name"):  # a pure check: a name already taken, or none at all
                self.tussle.campaign.decide(command)
            return command

        def done(command: AddCharacter | UpdateCharacter | None) -> None:
            if command is not None:
                self.tussle.send(command)

        self.app.push_screen(FormScreen(title, self.fields(old), parse=parse), done)

    # -- actions ---------------------------------------------------------------------------
    def action_add(self) -> None:
        self._ask("A new character", None)

    def action_edit(self) -> None:
        name = self.highlighted()
        if name is not None and name in self.tussle.campaign.roster:
            self._ask(f"Edit {name}", self.tussle.campaign.roster[name])

    @on(DataTable.RowSelected)
    def _selected(self) -> None:
        """Enter on a row (the table takes the key before the screen's binding)."""
        self.action_edit()

    def action_start_session(self) -> None:
        campaign = self.tussle.campaign
        if campaign.system != "heroquest":
            self._start_session(None)
            return

        def parse(answers: Answers) -> tuple[int | None]:
            hero_points = answers["hero_points"]
            with blame("hero_points"):
                return (_count(hero_points, "Hero points") if hero_points else None,)

        def done(reset: tuple[int | None] | None) -> None:
            if reset is not None:
                self._start_session(reset[0])

        last = self.last_hero_points()
        field = Field(
            "hero_points",
            "Reset every PC's hero points to (blank: keep them)",
            "" if last is None else str(last),
            placeholder="keep them",
            required=False,
        )
        self.app.push_screen(FormScreen("Start a session", [field], parse=parse), done)

    def last_hero_points(self) -> int | None:
        """The hero points the last session start in force reset the PCs to, if any."""
        campaign = self.tussle.campaign
        for action_id in reversed(campaign.done):
            command = campaign.actions[action_id].command
            if isinstance(command, StartSession) and command.hero_points is not None:
                return command.hero_points
        return None

    def _start_session(self, hero_points: int | None) -> None:
        self._before = dict(self.tussle.campaign.roster)
        self.tussle.send(StartSession(hero_points=hero_points))

    def action_compel(self) -> None:
        name = self.highlighted()
        if name is None:
            self.notify("The roster is empty: nobody to compel.", severity="warning")
            return
        self.tussle.send(Compel(who=name))

    def action_new_contest(self) -> None:
        self.tussle.open_setup()

    def action_back(self) -> None:
        self.tussle.back_to_contest()

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))
