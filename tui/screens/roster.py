"""The roster: the campaign's PCs and NPCs, added and edited from the keyboard, and the
session's housekeeping (a session's start, compels, undo) done from here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec.structs import replace
from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from core.campaign.log import (
    ActionRecorded,
    ActionRedone,
    ActionUndone,
    AddCharacter,
    Character,
    CharacterAction,
    CharacterUpdated,
    Compel,
    EndScenario,
    ImportCharacters,
    Played,
    SettingsChanged,
    Sheet,
    StartSession,
    UpdateCharacter,
    describe_action,
)
from core.campaign.sheet import find_sheet
from core.errors import RuleError
from core.limits import fields_of
from core.rules import find_system
from core.text import clipped
from tui.fields import Answers, Field, FieldError, blame, whole_field
from tui.host import Host, Step, host
from tui.key_hints import key_of
from tui.keys_in_order import TextIsNoKey
from tui.screens import quick_roll, roster_import
from tui.screens.forms import FormScreen
from tui.systems import view
from tui.systems.roster_part import RosterPart
from tui.widgets.keybar import KeyBar
from tui.widgets.lines import data_cell
from tui.widgets.lines import e as plain_in_markup

if TYPE_CHECKING:
    from core.bus import Notice


def parse_ratings(part: RosterPart, text: str) -> dict[str, int]:
    """``"Athletics 4, Lore 3"`` (HeroQuest ``"Sword 4M"``, FORGE ``"Brawling 50"``): each
    value read as the system reads a rating."""
    out: dict[str, int] = {}
    for chunk in text.split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        name, _, value = chunk.rpartition(" ")
        if not name:
            raise RuleError(f'"{chunk}": write a rating as a name then a value')
        try:
            out[name.strip()] = part.parse_rating(value)
        except RuleError as error:
            raise RuleError(f'"{clipped(chunk, 40)}": {error}') from None
    return out


def _points(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


# Each DataTable column's padding (a space either side), and the room a scrollbar takes.
CELL_PADDING = 2
SCROLLBAR = 2
NARROWEST = 12  # a State or Ratings column wrapped no narrower than this


def column_widths(rows: list[tuple[str, str, str, str]], width: int) -> list[int | None]:
    """The roster's columns' widths in a table ``width`` wide: each as wide as its
    widest cell (None) while the four fit; else State and Ratings share what Name and
    Kind leave, the State kept whole where it can be, and wrap (at 80 columns a Fate
    character's consequences cut off the State, and the Ratings were out of sight)."""
    widest = [
        max([len(label), *(len(r[i]) for r in rows)])
        for i, label in enumerate(("Name", "Kind", "State", "Ratings"))
    ]
    room = width - SCROLLBAR - CELL_PADDING * len(widest)
    if sum(widest) <= room:
        return [None, None, None, None]
    left = max(2 * NARROWEST, room - widest[0] - widest[1])
    ratings = min(widest[3], max(NARROWEST, left * 2 // 5))
    state = min(widest[2], left - ratings)
    return [None, None, state, left - state]


class RosterScreen(TextIsNoKey, Screen[None]):
    """Characters with their ratings, points and what earlier contests left on them."""

    BINDINGS = [
        Binding("question_mark,f1", "help", "Key help", id="roster.help"),
        Binding("a", "add", "Add", id="roster.add"),
        Binding("e,enter", "edit", "Edit", id="roster.edit"),
        Binding("S", "start_session", "Start session", id="roster.start_session"),
        Binding("k", "compel", "Compel", id="roster.compel"),
        Binding("r", "recover", "Recovery", id="roster.recover"),
        Binding("E", "end_scenario", "End scenario", id="roster.end_scenario", show=False),
        Binding("I", "import_roster", "Import", id="roster.import", show=False),
        Binding("u", "app.undo", "Undo", id="roster.undo", show=False),
        Binding("U,ctrl+y", "app.redo", "Redo", id="roster.redo", show=False),
        Binding("n", "new_contest", "New contest", id="roster.new_contest", show=False),
        Binding("c", "campaigns", "Campaigns", id="roster.campaigns", show=False),
        quick_roll.binding("roster."),  # ctrl+r: a roll outside the contests
        Binding("escape", "back", "Back", id="roster.back"),
        Binding("q", "quit", "Quit", id="roster.quit", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._before: dict[str, Character] = {}  # the roster when a session was started
        # An import sent and not yet saved: what it read, and the roster before it.
        self.importing: roster_import.Pending | None = None
        self.told = ""  # how the dice of the last recovery action went, for its message

    @property
    def tussle(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield DataTable(id="roster-table", cursor_type="row")
        yield KeyBar()

    def on_mount(self) -> None:
        self.reload()

    def on_resize(self) -> None:
        self.reload()  # the title's hints and the State and Ratings columns fit the width

    @property
    def part(self) -> RosterPart:
        """The campaign's system's part of this screen."""
        return view(self.tussle.campaign.system).roster()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if super().check_action(action, parameters) is False:
            return False  # a letter of text typed in one burst (TextIsNoKey)
        part = self.part
        return {
            "compel": part.awards,
            "recover": part.recovery is not None,
            "end_scenario": part.scenarios,
        }.get(action, True)

    # -- painting --------------------------------------------------------------------------
    def paint_title(self) -> None:
        """``Roster · HeroQuest demo · session 2``, then the keys' hints in as many words
        as the width leaves on one line (``n sets up a contest``, else ``n new contest``,
        else none: the key bar and ``?`` have them): the title never wraps onto the
        table's header (it did at 80 columns for "HeroQuest demo")."""
        campaign = self.tussle.campaign
        sessions = campaign.settings.get("sessions")
        session = f" · session {sessions}" if isinstance(sessions, int) and sessions else ""
        head = f"Roster · {campaign.name}{session}"
        keys = [
            key_of(self, binding, default)
            for binding, default in (
                ("roster.new_contest", "n"),
                ("roster.campaigns", "c"),
                ("roster.import", "I"),
                ("roster.undo", "u"),
            )
        ]
        room = self.app.size.width - 2  # the title's padding
        hints = ""
        for words in (
            ("sets up a contest", "campaigns", "imports", "undoes"),
            ("new contest", "campaigns", "import", "undo"),
        ):
            said = "".join(f" · {k} {w}" for k, w in zip(keys, words, strict=True))
            if cell_len(head + said) <= room:
                hints = said
                break
        self.query_one("#title", Static).update(
            f"[b]Roster[/b] · {plain_in_markup(campaign.name)}{session}{plain_in_markup(hints)}"
        )

    def reload(self) -> None:
        campaign = self.tussle.campaign
        self.paint_title()
        table = self.query_one(DataTable)
        highlighted = self.highlighted()
        rows = [
            (
                c.name,
                c.kind.upper(),
                self.state(c),
                ", ".join(f"{k} {self.part.rating_text(v)}" for k, v in c.ratings.items()),
            )
            for c in campaign.roster.values()
        ]
        table.clear(columns=True)
        widths = column_widths(rows, self.size.width or self.app.size.width)
        for label, width in zip(("Name", "Kind", "State", "Ratings"), widths, strict=True):
            table.add_column(label, width=width)
        for row in rows:  # a row as tall as its wrapped State and Ratings need
            table.add_row(*(data_cell(x) for x in row), key=row[0], height=None)
        if highlighted in campaign.roster:
            table.move_cursor(row=table.get_row_index(highlighted))
        table.focus()

    def state(self, c: Character) -> str:
        """The State column: what this system tracks between contests, compactly."""
        return self.part.state(c, self.tussle.campaign)

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
        if isinstance(command, ImportCharacters):
            if self.importing is not None:
                roster_import.told(self, self.importing)
                self.importing = None
        elif isinstance(command, StartSession):
            self.notify(self.session_message(entry, command), title="New session", timeout=8)
        elif isinstance(command, EndScenario):
            self.notify(self.scenario_message(entry), title="Scenario ended", timeout=8)
        elif isinstance(command, CharacterAction):
            news = self.news(entry)
            told = f"{self.told}: " if self.told else ""
            self.notify(told + ("; ".join(news) or "Done."), timeout=8)
        elif isinstance(command, Compel):
            where = next((e.contest_id for e in entry.events if isinstance(e, Played)), None)
            title = (
                campaign.contests[where].title
                if where is not None and where in campaign.contests
                else ""
            )
            in_play = f", in “{title}”" if where is not None else ""
            pool = find_system(campaign.system).pool
            to_pool = pool is not None and any(
                isinstance(e, Played) and pool.into_pool(e.event) for e in entry.events
            )
            if to_pool and where is not None and where in campaign.contests:  # to the GM's pool
                left = campaign.contests[where].pool_left
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
        if command.reset is not None:
            reset = self.part.session_reset.removesuffix("s")
            changes.append(f"every PC has {_points(command.reset, reset)}")
        changes += self.news(entry)
        head = f"Session {number} started" if number is not None else "A session started"
        return f"{head}: {'; '.join(changes)}" if changes else f"{head}."

    def scenario_message(self, entry: ActionRecorded) -> str:
        """``Scenario 2 ended: Landon's Nearly Gutted (severe) has cleared``."""
        number = next(
            (
                e.changes.get("scenarios")
                for e in entry.events
                if isinstance(e, SettingsChanged) and "scenarios" in e.changes
            ),
            None,
        )
        changes = self.news(entry)
        head = f"Scenario {number} ended" if number is not None else "A scenario ended"
        return f"{head}: {'; '.join(changes)}" if changes else f"{head}: nothing recovered."

    def news(self, entry: ActionRecorded) -> list[str]:
        """What ``entry`` changed on each character, in the system sheet's words (the
        roster as it was when the action was sent, in ``_before``)."""
        sheet = find_sheet(self.tussle.campaign.system)
        changes: list[str] = []
        for e in entry.events:
            old = self._before.get(e.name) if isinstance(e, CharacterUpdated) else None
            if isinstance(e, CharacterUpdated) and old is not None:
                changes += sheet.session_news(old, e.character)
        return changes

    # -- the edit form ---------------------------------------------------------------------
    def fields(self, c: Character | None) -> list[Field]:
        part = self.part
        c = c or Character(name="")
        ratings = ", ".join(
            f"{k} {part.rating_text(v).lstrip('+').rstrip('%')}" for k, v in c.ratings.items()
        )
        return [
            Field("name", "Name", c.name),
            Field("kind", "Kind", c.kind, (("PC", "pc"), ("NPC", "npc"))),
            Field("ratings", part.ratings_label, ratings, required=False),
            *part.fields(c),
        ]

    def character(self, a: Answers, old: Character | None = None) -> Character:
        """The character the form describes: ``old`` (when editing) with what the form
        asked changed, so fields another system's form does not show are kept."""
        with blame("ratings"):
            ratings = parse_ratings(self.part, a["ratings"])
        changes: dict[str, Any] = {
            "name": a["name"],
            "kind": "npc" if a["kind"] == "npc" else "pc",
            "ratings": ratings,
            **self.part.changes(a, ratings, old),
        }
        sheet = changes.get("sheet")
        kept: object = old.sheet if old is not None else None
        if old is not None and isinstance(kept, Sheet) and type(kept) is type(sheet):
            # The form's fields on the sheet it edits: what it does not ask (Fate's stress
            # tracks and consequences) stays as it was.
            asked = {f.key for f in self.part.fields(old)}
            unasked = (k for k in fields_of(type(sheet)) if k not in asked)
            changes["sheet"] = replace(sheet, **{k: getattr(kept, k) for k in unasked})
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

    def action_import_roster(self) -> None:
        roster_import.ask(self, self._importing)

    def _importing(self, pending: roster_import.Pending) -> None:
        self.importing = pending

    def action_edit(self) -> None:
        name = self.highlighted()
        if name is not None and name in self.tussle.campaign.roster:
            self._ask(f"Edit {name}", self.tussle.campaign.roster[name])

    @on(DataTable.RowSelected)
    def _selected(self) -> None:
        """Enter on a row (the table takes the key before the screen's binding)."""
        self.action_edit()

    def action_start_session(self) -> None:
        points = self.part.session_reset  # what a session start may reset ("hero points")
        if not points:
            self._start_session(None)
            return

        def parse(answers: Answers) -> tuple[int | None]:
            typed = answers["reset"]
            return (whole_field(answers, "reset", 0, of=StartSession) if typed else None,)

        def done(reset: tuple[int | None] | None) -> None:
            if reset is not None:
                self._start_session(reset[0])

        last = self.last_reset()
        field = Field(
            "reset",
            f"Reset every PC's {points} to (blank: keep them)",
            "" if last is None else str(last),
            placeholder="keep them",
            required=False,
        )
        self.app.push_screen(FormScreen("Start a session", [field], parse=parse), done)

    def last_reset(self) -> int | None:
        """What the last session start in force reset the PCs' points to, if any."""
        campaign = self.tussle.campaign
        for action_id in reversed(campaign.done):
            command = campaign.actions[action_id].command
            if isinstance(command, StartSession) and command.reset is not None:
                return command.reset
        return None

    def _start_session(self, reset: int | None) -> None:
        self._before = dict(self.tussle.campaign.roster)
        self.tussle.send(StartSession(reset=reset))

    def action_end_scenario(self) -> None:
        self._before = dict(self.tussle.campaign.roster)
        self.tussle.send(EndScenario())

    def action_recover(self) -> None:
        """A recovery action on the highlighted character: the system's form, checked
        by the campaign before it closes (a total short of the difficulty is said under
        it: the recovery fails, nothing changes)."""
        form = self.part.recovery
        name = self.highlighted()
        if form is None:
            return
        if name is None or name not in self.tussle.campaign.roster:
            self.notify("The roster is empty: nobody to recover.", severity="warning")
            return
        character = self.tussle.campaign.roster[name]
        fields = form.fields(character)
        if not fields:
            self.notify(form.nothing(character), severity="warning")
            return
        kind = find_system(self.tussle.campaign.system).dice

        def parse(answers: Answers) -> tuple[CharacterAction, str]:
            command, how = form.command(answers, character, lambda: self.tussle.dice.roll(kind))
            assert isinstance(command, CharacterAction)
            try:
                self.tussle.campaign.decide(command)
            except RuleError as error:
                rolled = f"{how}. " if how else ""
                raise FieldError("result", f"{rolled}{error}") from None
            return command, how

        def done(answer: tuple[CharacterAction, str] | None) -> None:
            if answer is not None:
                self._before = dict(self.tussle.campaign.roster)
                self.told = answer[1]
                self.tussle.send(answer[0])

        self.app.push_screen(FormScreen(form.title(character), fields, parse=parse), done)

    def action_compel(self) -> None:
        name = self.highlighted()
        if name is None:
            self.notify("The roster is empty: nobody to compel.", severity="warning")
            return
        self.tussle.send(Compel(who=name))

    def action_new_contest(self) -> None:
        self.tussle.open_setup()

    def action_quick_roll(self) -> None:
        quick_roll.ask_quick_roll(self)

    def action_campaigns(self) -> None:
        self.tussle.open_campaigns()

    def action_back(self) -> None:
        self.tussle.back()

    async def action_quit(self) -> None:
        await self.tussle.action_quit()

    def step(self) -> Step:
        """How Esc comes back here."""
        tussle = self.tussle
        return Step("roster", lambda: RosterScreen() if tussle.files is not None else None)

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))
