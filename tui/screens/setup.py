"""Setting up a contest: sides, helpers, what each rolls, mode, aspects and rule options."""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label, Static

from core.campaign.log import StartContest
from core.campaign.setup import (
    build_contest,
    conditions,
    describe_options,
    no_skill,
    own_ratings,
    rating_label,
    typed_rating,
)
from core.campaign.sheet import Pick, find_sheet
from core.errors import RuleError
from core.limits import fields_of
from core.rules import find_system
from tui.fields import Answers, Field, blame
from tui.host import Host, Step, host
from tui.keys_in_order import TextIsNoKey
from tui.screens.forms import FormScreen
from tui.systems import view
from tui.systems.setup_part import SetupKey, SetupPart
from tui.widgets.choice import Choice
from tui.widgets.key_part import PART_KEY, placed
from tui.widgets.keybar import KeyBar
from tui.widgets.lines import data_cell, e

if TYPE_CHECKING:
    from core.bus import Notice
    from core.campaign.actions import Campaign
    from core.campaign.state import ContestRecord

T = TypeVar("T")
OTHER = "\x00other"  # the Rolls choice "Other: type a rating" (no rating name is this)

# The screen's own keys; a rule system's (``SetupPart.keys``) go in after the one their
# ``after`` names.
KEYS = [
    Binding("question_mark,f1", "help", "Key help", id="setup.help"),
    Binding("a", "add", "Add participant", id="setup.add"),
    Binding("d", "remove", "Remove", id="setup.remove"),
    Binding("o", "options", "Options", id="setup.options"),
    # Start, then H, before T: on an 80-column bar the last keys give way first (T is
    # named on the screen, beside who rolls).
    Binding("f5,g", "start", "Start", id="setup.start"),
    Binding("H", "hide", "Hide from players", id="setup.hide"),
    Binding("T", "tussle_rolls", "Who rolls", id="setup.tussle_rolls"),
    Binding("e", "edit", "Edit participant", id="setup.edit", show=False),
    Binding("u", "undo", "Undo", id="setup.undo", show=False),
    Binding("U,ctrl+y", "redo", "Redo", id="setup.redo", show=False),
    # w as on every screen; W where the system takes w (HeroQuest's wherewithal).
    Binding("w", "roster", "Roster", id="setup.roster", show=False),
    Binding("W", "roster(True)", "Roster", id="setup.roster_capital", show=False),
    Binding("c", "campaigns", "Campaigns", id="setup.campaigns", show=False),
    Binding("escape", "back", "Back", id="setup.back"),
    Binding("q", "quit", "Quit", id="setup.quit", show=False),
]
# What the screen holds that its undo takes back (u), each copied as it stood.
STATE = (
    "picks",
    "options",
    "option_answers",
    "situation",
    "cleared",
    "notes",
    "tussle_rolls",
    "hidden",
    "hidden_aspects",
    "secret",
)


CELL_PADDING = 2  # a DataTable cell's padding, both sides
SCROLLBAR = 2
NARROWEST = 16  # a Rolls column wrapped no narrower than this


def rolls_width(rows: list[tuple[str, str, str]], width: int) -> int | None:
    """The Rolls column's width in a table ``width`` wide: as wide as its widest cell
    (None) while the three columns fit; else what Character and Side leave, the Rolls
    wrapping within it (at 80 columns a HeroQuest character's states and benefits ran
    off the edge, cut)."""
    widest = [
        max([len(label), *(len(r[i]) for r in rows)])
        for i, label in enumerate(("Character", "Side", "Rolls"))
    ]
    room = width - SCROLLBAR - CELL_PADDING * len(widest)
    if sum(widest) <= room:
        return None
    return max(NARROWEST, room - widest[0] - widest[1])


class SetupScreen(TextIsNoKey, Screen[None]):
    """Build a contest from the roster, then start it (F5 or g). The campaign's rule
    system adds its keys as a part composed around the rest (``part.keys``)."""

    BINDINGS: ClassVar[list[BindingType]] = list(KEYS)

    def __init__(self, like: ContestRecord | None = None) -> None:
        super().__init__()
        self.picks: list[Pick] = []
        self.options: dict[str, Any] = {}
        self.option_answers: Answers = {}
        self.situation: list[str] = []
        self.cleared: set[str] = set()  # let in by the system's check before the contest
        self.notes: list[str] = []  # what that check found
        self.tussle_rolls: set[str] = set()  # sides whose dice Tussle rolls
        # Hidden from the players from the contest's first moment (H; or the previous
        # contest's, copied): participants' numbers, aspects, the whole contest.
        self.hidden: set[str] = set()
        self.hidden_aspects: set[str] = set()
        self.secret = False
        if like is not None:
            self._copy(like)
        # The setup as each change left it (u goes back one, U forward again).
        self.undone: list[dict[str, Any]] = []
        self.redone: list[dict[str, Any]] = []
        self.shown: dict[str, Any] | None = None  # as last painted

    def state(self) -> dict[str, Any]:
        """What the GM has set up so far, copied (undo and Esc bring it back)."""
        return {name: deepcopy(getattr(self, name)) for name in STATE}

    def restore(self, state: dict[str, Any]) -> None:
        for name in STATE:
            setattr(self, name, deepcopy(state[name]))

    def step(self) -> Step:
        """How Esc comes back here: the same participants, options and undo."""
        kept, undone, redone = self.state(), list(self.undone), list(self.redone)
        tussle, kind = self.tussle, type(self)

        def again() -> SetupScreen | None:
            if tussle.files is None:
                return None
            screen = kind()
            screen.restore(kept)
            screen.undone, screen.redone = undone, redone
            return screen

        return Step("setup", again, tuple(self.unsaved_work()))

    def unsaved_work(self) -> list[str]:
        """What quitting would lose, a line each: a setup the GM has changed lives on this
        screen alone until its contest starts. (One copied from a contest, or brought
        back by an undo, and not changed since, loses nothing: it can be made again.)"""
        if not self.undone or not self.picks:
            return []
        names = ", ".join(p.character for p in self.picks)
        return [f"A contest set up in {self.tussle.campaign.name}, not started: {names}"]

    def _copy(self, like: ContestRecord) -> None:
        """The next contest with the same sides: each roster character rolls the same
        rating again, read afresh from the roster (hurts and benefits included); one that
        is not on the roster (a resistance) keeps its number."""
        start = like.start
        sheet = find_sheet(start.system)
        roster = self.tussle.campaign.roster
        for p in start.participants:
            rating = like.uses.get(p.name)
            value = sheet.rolled(p) if rating is None else None
            if rating is None and value is None:  # rolled no one rating (a conflict):
                character = roster.get(p.name)  # as a new contest's Add offers it first
                own = own_ratings(start.system, character) if character is not None else []
                rating = own[0][1] if own else None
                value = None if character is not None else sheet.NO_SKILL
            self.picks.append(Pick(character=p.name, side=p.side, rating=rating, value=value))
        options = getattr(start, "options", None)
        if options is not None:
            defaults = type(options)()
            self.options = {
                name: getattr(options, name)
                for name in fields_of(type(options))
                if getattr(options, name) != getattr(defaults, name)
            }
        self.options.update(self.part.options_like(start, self.tussle.campaign.roster))
        self.situation = list(find_system(start.system).situation(start))
        sides = {p.name: p.side for p in start.participants}
        self.tussle_rolls = {sides.get(who, who) for who in like.tussle_rolls}
        # What the players were not to see stays hidden: shown in the next contest, the
        # odds and totals of its first exchange would give it away.
        self.hidden = {p.name for p in start.participants if like.hidden("participant", p.name)}
        self.hidden_aspects = set(like.secret_aspects)
        self.secret = like.secret

    @property
    def tussle(self) -> Host:
        return host(self.app)

    @property
    def part(self) -> SetupPart:
        """The campaign's system's part of this screen."""
        return view(self.tussle.campaign.system).setup()

    def form(
        self,
        title: str,
        fields: list[Field],
        parse: Callable[[Answers], T],
        then: Callable[[T], None],
    ) -> None:
        def done(value: T | None) -> None:
            if value is not None:
                then(value)

        self.app.push_screen(FormScreen(title, fields, parse=parse), done)

    def compose(self) -> ComposeResult:
        # The system's keys around the table (Textual looks for a key's binding from the
        # focused widget up).
        with self.part.keys(id="system-keys"), Vertical(id="setup"):
            yield Label("[b]A new contest[/b]: who takes part, on which side, rolling what")
            yield DataTable(id="picks", cursor_type="row")
            yield Static(id="setup-summary")
        yield KeyBar()

    def on_mount(self) -> None:
        self.reload()
        self.query_one(DataTable).focus()

    def on_resize(self) -> None:
        if self.shown is not None:
            self.paint_picks()  # the Rolls column fits the width (wrapped when it must)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A system's key that means nothing in this setup now (HeroQuest's follower
        outside a group extended contest) is left out of the footer, the help and the
        palette, and does nothing."""
        if super().check_action(action, parameters) is False:
            return False
        if action == "roster":  # w, or W where the system's keys take w
            return bool(parameters) == takes_w(self.part)
        if action == PART_KEY:
            key = self._key(parameters)
            return key is not None and (key.applies is None or key.applies(self))
        return True

    def _key(self, parameters: tuple[object, ...]) -> SetupKey | None:
        """The system's key whose action ``part_key``'s parameter names."""
        return next((k for k in self.part.keys.KEYS if (k.binding.action,) == parameters), None)

    def action_part_key(self, action: str) -> None:
        """One of the system's keys (its part's binding): its handler gets the screen."""
        key = self._key((action,))
        if key is not None:
            key.run(self)

    def reload(self, row: int | None = None) -> None:
        """Paint the setup again, the highlight on ``row`` (default: where it was). A
        change since the last paint is one step for u to take back."""
        # What the options say of someone no longer in the setup goes with them (the
        # step u takes back brings both back).
        self.options = self.part.tidy_options(self.options, self.picks)
        now = self.state()
        before = self.shown
        if before is not None and now != before:
            self.undone.append(before)
            self.redone.clear()
            if row is None and now["picks"][:-1] == before["picks"] != now["picks"]:
                row = len(self.picks) - 1  # one added (a resistance, a built target too)
        self.shown = now
        self.paint_picks(row)
        system = self.tussle.campaign.system
        try:
            opts = " · ".join(describe_options(system, self.options))
        except RuleError as error:
            opts = str(error)
        lines = [
            f"[b]Options[/b]: {e(opts)} (o)",
            f"[b]Dice[/b]: {e(self.dice_line())} (T to change)",
            f"[b]Hidden from the players[/b]: {e(self.hidden_line())} (H: the highlighted one)",
            # Fate's sides roll once, with teamwork; HeroQuest's and FORGE's each roll.
            "Sides: participants with the same side are a team ("
            + ("one roll, teamwork" if self.part.rolls_by_side else "each rolls their own")
            + ").",
            "a adds · e edits · d removes · u undoes · o options · F5 or g starts",
        ]
        lines[3:3] = [e(note) for note in self.notes]
        if self.part.summary is not None:
            lines[1:1] = self.part.summary(self)
        if self.part.situation_aspects:
            lines.insert(
                1, f"[b]Situation aspects[/b]: {e('; '.join(self.situation) or 'none')} (t)"
            )
        self.query_one("#setup-summary", Static).update("\n".join(lines))
        self.query_one(KeyBar).refresh_keys()  # a key may apply now, or no longer

    def paint_picks(self, row: int | None = None) -> None:
        """The table of picks, the highlight on ``row`` (default: where it was); a row as
        tall as its Rolls needs once wrapped to the width left (``rolls_width``)."""
        table = self.query_one(DataTable)
        at = table.cursor_row if row is None else row
        rows = [
            (
                pick.character + (" · hidden" if pick.character in self.hidden else ""),
                pick.side,
                self.rolls(pick),
            )
            for pick in self.picks
        ]
        table.clear(columns=True)
        width = rolls_width(rows, self.size.width or self.app.size.width)
        for label, wide in zip(("Character", "Side", "Rolls"), (None, None, width), strict=True):
            table.add_column(label, width=wide)
        for cells in rows:
            table.add_row(*(data_cell(x) for x in cells), height=None)
        if self.picks:
            table.move_cursor(row=min(max(at, 0), len(self.picks) - 1))

    def rolls(self, pick: Pick) -> str:
        """The Rolls column: ``Sword 4M``, ``Great (+4), for this contest only``, or
        what the system says instead (``SetupPart.rolls_instead``)."""
        instead = self.part.rolls_instead(self, pick)
        if instead is not None:
            return instead
        system = self.tussle.campaign.system
        if pick.value is not None:
            return f"{rating_label(system, pick.value)}, for this contest only"
        character = self.tussle.campaign.roster.get(pick.character)
        if pick.rating and character is not None and pick.rating in character.ratings:
            rolls = f"{pick.rating} {rating_label(system, character.ratings[pick.rating])}"
        elif pick.rating:
            rolls = f"{pick.rating}: not on the sheet, {rating_label(system, no_skill(system))}"
        else:
            rolls = self.part.no_skill
        applying = conditions(system, character, pick.rating) if character else ""
        return f"{rolls} · {applying}" if applying else rolls

    def hidden_line(self) -> str:
        """What the players' view will not show: ``Teran's numbers; aspect: Dark Alley``."""
        if self.secret:
            return "the whole contest"
        in_it = [p.character for p in self.picks if p.character in self.hidden]
        parts = [f"{name}'s numbers" for name in in_it]
        parts += [f"aspect: {name}" for name in sorted(self.hidden_aspects)]
        return "; ".join(parts) or "nothing"

    def dice_line(self) -> str:
        """Who rolls: ``the table rolls for everyone``, ``Tussle rolls for Ghouls; the
        table for the rest``."""
        sides = list(dict.fromkeys(p.side for p in self.picks))
        tussle = [s for s in sides if s in self.tussle_rolls]
        if not tussle:
            return "the table rolls for everyone"
        if len(tussle) == len(sides):
            return "Tussle rolls for everyone"
        return f"Tussle rolls for {', '.join(tussle)}; the table for the rest"

    def notice(self, notice: Notice) -> None:
        from core.bus import Rejected

        if isinstance(notice, Rejected):
            self.notify(str(notice.error), title=notice.error.title, severity="error")

    def action_add(self) -> None:
        """A participant from the roster, rolling one of their own skills, abilities or
        targets (the first on their sheet by default), or a rating typed for this
        contest only ("Other"), or the system's rating for no relevant skill. The
        highlight goes to them (so d removes the one just added)."""
        taken = {p.character for p in self.picks}
        free = [n for n in self.tussle.campaign.roster if n not in taken]
        if not free:
            self.notify("Everyone on the roster is in the contest: add characters with w.")
            return

        def done(pick: Pick | None) -> None:
            if pick is not None:
                self.picks.append(pick)
                self.reload(row=len(self.picks) - 1)

        self._ask("Add a participant", free, None, done)

    def action_edit(self) -> None:
        """The highlighted participant's form, as added: another character, rating or
        side replaces them in their row."""
        if not self.picks:
            self.notify("Nobody to edit yet: a adds a participant.")
            return
        row = min(max(self.query_one(DataTable).cursor_row, 0), len(self.picks) - 1)
        old = self.picks[row]
        taken = {p.character for p in self.picks} - {old.character}
        names = [n for n in self.tussle.campaign.roster if n not in taken]
        if old.character not in names:  # a resistance, a built target: not on the roster
            names.insert(0, old.character)

        def done(pick: Pick | None) -> None:
            if pick is not None and pick != old and old in self.picks:
                at = self.picks.index(old)
                self.picks[at] = pick
                if pick.character != old.character and old.character in self.hidden:
                    self.hidden.discard(old.character)
                    self.hidden.add(pick.character)
                self.cleared.discard(old.character)
                self.reload(row=at)

        self._ask(f"Edit {old.character}", names, old, done)

    @on(DataTable.RowSelected)
    def _selected(self) -> None:
        """Enter on a row (the table takes the key before the screen's binding)."""
        self.action_edit()

    def _ask(
        self, title: str, names: list[str], old: Pick | None, done: Callable[[Pick | None], None]
    ) -> None:
        system = self.tussle.campaign.system
        roster = self.tussle.campaign.roster
        part = self.part
        extra = (  # Other last: ← from the first of their own reaches it
            (part.no_skill, ""),
            (f"Other: type a rating ({part.typed_example})", OTHER),
        )
        by_name = {
            n: (*(own_ratings(system, roster[n]) if n in roster else ()), *extra) for n in names
        }

        def parse(a: Answers) -> Pick:
            name = a["character"]
            side = a["side"] or name
            if a["rating"] != OTHER:
                return Pick(character=name, side=side, rating=a["rating"] or None)
            with blame("typed"):
                return Pick(character=name, side=side, value=typed_rating(system, a["typed"]))

        character = names[0] if old is None else old.character
        rating, typed = by_name[character][0][1], ""
        if old is not None and old.value is not None:
            rating, typed = OTHER, typed_back(system, old.value)
        elif old is not None:
            known = {value for _, value in by_name[character]}
            rating = old.rating if old.rating in known else ""
        side = "" if old is None or old.side == old.character else old.side
        self.app.push_screen(
            ParticipantForm(
                title,
                [
                    Field("character", "Character", character, tuple((n, n) for n in names)),
                    Field(
                        "rating",
                        "Rolls (their own; ←/→ for another, or Other to type one)",
                        rating,
                        follows="character",
                        choices_by=by_name,
                    ),
                    Field(
                        "typed",
                        f"Rating for this contest only ({part.typed_example})",
                        typed,
                        shown_when=("rating", OTHER),
                    ),
                    Field(
                        "side", "Side (blank: their own; same side = a team)", side, required=False
                    ),
                ],
                parse=parse,
            ),
            done,
        )

    @property
    def highlighted(self) -> Pick | None:
        if not self.picks:
            return None
        row = self.query_one(DataTable).cursor_row
        return self.picks[min(max(row, 0), len(self.picks) - 1)]

    def action_remove(self) -> None:
        table = self.query_one(DataTable)
        if not self.picks:
            self.notify("Nobody to remove: a adds a participant.")
            return
        gone = self.picks.pop(min(max(table.cursor_row, 0), len(self.picks) - 1))
        self.hidden.discard(gone.character)
        self.cleared.discard(gone.character)
        self.reload()
        self.notify(f"{gone.character} is out of the contest (u brings them back).", timeout=3)

    def action_hide(self) -> None:
        """Hide the highlighted participant's numbers from the players (or show them
        again): hidden from the contest's first moment, odds included."""
        if not self.picks:
            self.notify("Add participants first (a).")
            return
        table = self.query_one(DataTable)
        row = min(max(table.cursor_row, 0), len(self.picks) - 1)
        name = self.picks[row].character
        if name in self.hidden:
            self.hidden.discard(name)
            self.notify(f"The players will see {name}'s numbers.", timeout=3)
        else:
            self.hidden.add(name)
            self.notify(f"{name}'s numbers will be hidden from the players.", timeout=3)
        self.reload(row=row)

    def action_options(self) -> None:
        part = self.part
        fields = [
            Field(
                f.key,
                f.label,
                self.option_answers.get(f.key, f.default),
                f.choices,
                required=f.required,
            )
            for f in part.option_fields
        ]

        def parse(a: Answers) -> tuple[dict[str, Any], Answers]:
            return part.options_from(a), a

        def done(chosen: tuple[dict[str, Any], Answers] | None) -> None:
            if chosen is not None:
                kept = {k: self.options[k] for k in part.kept_options if k in self.options}
                self.options, self.option_answers = {**chosen[0], **kept}, chosen[1]
                self.reload()

        self.app.push_screen(FormScreen("Rule options", fields, parse=parse), done)

    def start_command(self, campaign: Campaign, title: str = "") -> StartContest:
        """The ``StartContest`` the screen's picks, options, dice and secrets make (what
        ``g`` sends, titled ``title`` or "Contest N"); ``RuleError`` or ``TypeError`` when
        they make no contest. What is hidden is hidden in it from its first moment."""
        contest = build_contest(
            campaign.system, campaign.roster, self.picks, self.options, self.situation
        )
        # The keypad's rollers: sides (Fate) or participants, as the system has them.
        by_side = view(campaign.system).setup().rolls_by_side
        rolls = tuple(
            dict.fromkeys(
                p.side if by_side else p.character
                for p in self.picks
                if p.side in self.tussle_rolls
            )
        )
        in_it = set(find_system(contest.system).aspects(contest))
        return StartContest(
            title=title or self.default_title(campaign),
            contest=contest,
            uses={p.character: p.rating for p in self.picks if p.rating},
            tussle_rolls=rolls,
            secret=self.secret,
            secret_participants=tuple(
                p.character for p in self.picks if p.character in self.hidden
            ),
            secret_aspects=tuple(sorted(self.hidden_aspects & in_it)),
        )

    @staticmethod
    def default_title(campaign: Campaign) -> str:
        return f"Contest {len(campaign.contests) + 1}"

    def action_start(self) -> None:
        campaign = self.tussle.campaign
        try:
            self.start_command(campaign)
        except (RuleError, TypeError) as error:
            self.notify(str(error), title="Cannot start", severity="error")
            return
        if self.part.before_start is not None:
            self.part.before_start(self, self._title_and_start)
        else:
            self._title_and_start()

    def _title_and_start(self) -> None:
        """Ask the contest's title, then start it."""
        try:
            self.start_command(self.tussle.campaign)
        except (RuleError, TypeError) as error:
            self.notify(str(error), title="Cannot start", severity="error")
            return
        default = self.default_title(self.tussle.campaign)

        def parse(a: Answers) -> StartContest:
            command = self.start_command(self.tussle.campaign, a["title"])
            self.tussle.campaign.decide(command)  # a pure check: refused, the form stays
            return command

        def titled(command: StartContest | None) -> None:
            if command is not None:
                self.tussle.send(command)

        self.app.push_screen(
            FormScreen(
                "Start the contest",
                [
                    Field(
                        "title",
                        "Title",
                        placeholder=f"{default} (Enter keeps this)",
                        required=False,
                    )
                ],
                parse=parse,
            ),
            titled,
        )

    def action_tussle_rolls(self) -> None:
        """Choose, side by side, who rolls: the table (typed dice) or Tussle."""
        sides = list(dict.fromkeys(p.side for p in self.picks))
        if not sides:
            self.notify("Add participants first (a).")
            return
        choices = (("The table (dice typed in)", "table"), ("Tussle", "tussle"))
        fields = [
            Field(
                f"side{i}",
                f"Who rolls for {side}",
                "tussle" if side in self.tussle_rolls else "table",
                choices,
            )
            for i, side in enumerate(sides)
        ]

        def done(a: Answers | None) -> None:
            if a is not None:
                self.tussle_rolls = {s for i, s in enumerate(sides) if a[f"side{i}"] == "tussle"}
                self.reload()

        self.app.push_screen(FormScreen("Who rolls", fields), done)

    def action_undo(self) -> None:
        """Take back the last change to this setup (a participant added, edited or
        removed, the options, the aspects, who rolls, what is hidden)."""
        self._travel(self.undone, self.redone, "Undone", "Nothing to undo in this setup.")

    def action_redo(self) -> None:
        """Put back the last change taken back; on a setup left as it came back when u
        took a contest's start back, start that contest again (the campaign's redo)."""
        if not self.redone and not self.undone and self._start_to_redo():
            from core.campaign.log import Redo

            self.tussle.send(Redo())
            return
        self._travel(self.redone, self.undone, "Redone", "Nothing to redo in this setup.")

    def _start_to_redo(self) -> bool:
        """Whether the campaign's next redo starts a contest."""
        from core.campaign.log import ContestStarted

        campaign = self.tussle.campaign
        if not campaign.undone:
            return False
        action = campaign.actions[campaign.undone[-1]]
        return any(isinstance(e, ContestStarted) for e in action.events)

    def _travel(
        self, source: list[dict[str, Any]], other: list[dict[str, Any]], verb: str, none: str
    ) -> None:
        if not source:
            self.notify(none, timeout=3)
            return
        now = self.state()
        other.append(now)
        back = source.pop()
        self.restore(back)
        self.shown = back  # not a change of its own
        self.reload()
        # The change taken back (undo: from the state restored to the one left) or put
        # back (redo: from the one left to the one restored), as it was made.
        change = what_changed(back, now) if source is self.undone else what_changed(now, back)
        self.notify(f"{verb}: {change}", timeout=3)

    def action_roster(self, capital: bool = False) -> None:
        self.tussle.open_roster()

    def action_campaigns(self) -> None:
        self.tussle.open_campaigns()

    def action_back(self) -> None:
        self.tussle.back()

    async def action_quit(self) -> None:
        await self.tussle.action_quit()

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))


def takes_w(part: SetupPart) -> bool:
    """Whether the system's setup keys take ``w`` (HeroQuest's wherewithal): the roster
    is then ``W`` on this screen, one key, one meaning."""
    return any("w" in k.binding.key.split(",") for k in part.keys.KEYS)


def setup_keys(part: SetupPart) -> list[Binding]:
    """The setup screen's keys for a system's setup: the screen's own (the roster on
    ``w`` or ``W``) with the system's placed among them."""
    roster = "setup.roster_capital" if takes_w(part) else "setup.roster"
    own = [b for b in KEYS if b.id not in {"setup.roster", "setup.roster_capital"} - {roster}]
    return placed(own, part.keys.KEYS, "setup screen")


def typed_back(system: str, value: int) -> str:
    """``value`` as the GM would type it for this contest only (read back the same)."""
    for text in (rating_label(system, value), str(value), f"{value:+d}"):
        try:
            if typed_rating(system, text) == value:
                return text
        except (RuleError, ValueError):
            continue
    return str(value)


def what_changed(before: dict[str, Any], after: dict[str, Any]) -> str:
    """What going from ``before`` to ``after`` changes, in a few words."""
    was = {p.character: p for p in before["picks"]}
    now = {p.character: p for p in after["picks"]}
    said = [f"{n} added" for n in now if n not in was]
    said += [f"{n} removed" for n in was if n not in now]
    said += [f"{n} changed" for n in now if n in was and now[n] != was[n]]
    if not said and [p.character for p in before["picks"]] != [p.character for p in after["picks"]]:
        said.append("the order of the participants")
    names = {
        "options": "the rule options",
        "situation": "the situation aspects",
        "tussle_rolls": "who rolls",
        "hidden": "what is hidden",
        "hidden_aspects": "what is hidden",
        "secret": "what is hidden",
        "cleared": "the check before the contest",
    }
    for key, words in names.items():
        if before[key] != after[key] and words not in said:
            said.append(words)
    return ", ".join(said) or "the setup"


class ParticipantForm(FormScreen[Pick]):
    """The participant form, whose Character line says what they will roll: a letter
    picks a character by initial and with them their first rating, and the GM sees it
    where they typed it (``Landon · Fight Fair (+2)``), not only on the line below."""

    def on_mount(self) -> None:
        self.names = list(self.query_one("#f-character", Choice).options)
        self._say_rating()

    @on(Choice.Changed)
    @on(Input.Changed, "#f-typed")
    def _changed(self) -> None:
        self._say_rating()

    def _say_rating(self) -> None:
        character = self.query_one("#f-character", Choice)
        rating = self.query_one("#f-rating", Choice)
        if not rating.options:
            return
        label, value = rating.options[rating.index]
        if value == OTHER:
            typed = self.query_one("#f-typed", Input).value.strip()
            label = f"{typed}, for this contest only" if typed else "a rating typed below"
        chosen = character.value
        options = [(f"{n} · {label}" if v == chosen else n, v) for n, v in self.names]
        if options != character.options:
            character.set_options(options, chosen)
