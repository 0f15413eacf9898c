"""The roster: the campaign's PCs and NPCs, added and edited from the keyboard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from core.campaign import AddCharacter, Character, UpdateCharacter
from core.errors import RuleError
from tui.screens.forms import Answers, Field, FormScreen
from tui.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from core.bus import Notice
    from tui.app import TussleApp


def rating_text(system: str, value: int) -> str:
    if system == "fate":
        from core.rules.fate import signed

        return signed(value)
    if system == "heroquest":
        from core.rules.heroquest import format_rating

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
            from core.rules.heroquest import parse_rating

            out[name.strip()] = parse_rating(value)
        else:
            try:
                out[name.strip()] = int(value.replace("+", ""))
            except ValueError:
                raise RuleError(f'"{chunk}": {value} is not a number') from None
    return out


def _int(text: str, what: str, default: int = 0) -> int:
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise RuleError(f"{what}: {text} is not a whole number") from None


class RosterScreen(Screen[None]):
    """Characters with their ratings and points."""

    BINDINGS = [
        Binding("question_mark,f1", "help", "Key help", id="roster.help"),
        Binding("a", "add", "Add", id="roster.add"),
        Binding("e,enter", "edit", "Edit", id="roster.edit"),
        Binding("n", "new_contest", "New contest", id="roster.new_contest"),
        Binding("escape", "back", "Back", id="roster.back"),
    ]

    @property
    def tussle(self) -> TussleApp:
        from tui.app import TussleApp

        assert isinstance(self.app, TussleApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield DataTable(id="roster-table", cursor_type="row")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Name", "Kind", "Ratings", "Points")
        self.reload()

    def reload(self) -> None:
        campaign = self.tussle.campaign
        self.query_one("#title", Static).update(
            f"[b]Roster[/b] · {campaign.name} · a adds, e edits, n sets up a contest"
        )
        table = self.query_one(DataTable)
        table.clear()
        for c in campaign.roster.values():
            ratings = ", ".join(
                f"{k} {rating_text(campaign.system, v)}" for k, v in c.ratings.items()
            )
            table.add_row(c.name, c.kind.upper(), ratings, self._points(c), key=c.name)
        table.focus()

    def _points(self, c: Character) -> str:
        system = self.tussle.campaign.system
        if system == "fate":
            return f"FP {c.fate_points}/{c.refresh}"
        if system == "heroquest":
            return f"HP {c.hero_points}" + (f" vit {c.vitality:+d}" if c.vitality else "")
        return f"×{c.multiplier} armor {c.armor}"

    def notice(self, notice: Notice) -> None:
        from core.bus import Rejected

        if isinstance(notice, Rejected):
            self.notify(str(notice.error), title=notice.error.title, severity="error")
        self.reload()

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
            ]
        return out

    def character(self, a: Answers) -> Character:
        system = self.tussle.campaign.system
        return Character(
            name=a["name"],
            kind="npc" if a["kind"] == "npc" else "pc",
            ratings=parse_ratings(system, a["ratings"]),
            aspects=tuple(x.strip() for x in a.get("aspects", "").split(";") if x.strip()),
            fate_points=_int(a.get("fate_points", ""), "Fate points"),
            refresh=_int(a.get("refresh", ""), "Refresh"),
            hero_points=_int(a.get("hero_points", ""), "Hero points"),
            vitality=_int(a.get("vitality", ""), "Vitality"),
            multiplier=_int(a.get("multiplier", ""), "Multiplier", 1),
            max_damage=_int(a["max_damage"], "Maximum damage") if a.get("max_damage") else None,
            armor=_int(a.get("armor", ""), "Armor"),
            armor_capacity=_int(a.get("armor_capacity", ""), "Armor capacity"),
        )

    def _ask(self, title: str, old: Character | None) -> None:
        def done(answers: Answers | None) -> None:
            if answers is None:
                return
            try:
                new = self.character(answers)
            except RuleError as error:
                self.notify(str(error), title=error.title, severity="error")
                return
            if old is None:
                self.tussle.send(AddCharacter(character=new))
            else:
                self.tussle.send(UpdateCharacter(name=old.name, character=new))

        self.app.push_screen(FormScreen(title, self.fields(old)), done)

    def action_add(self) -> None:
        self._ask("A new character", None)

    def action_edit(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        if key is not None:
            self._ask(f"Edit {key}", self.tussle.campaign.roster[str(key)])

    def action_new_contest(self) -> None:
        self.tussle.open_setup()

    def action_back(self) -> None:
        self.tussle.back_to_contest()

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))
