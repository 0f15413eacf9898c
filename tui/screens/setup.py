"""Setting up a contest: sides, helpers, what each rolls, mode, aspects and rule options."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Label, Static

from core.campaign import StartContest
from core.errors import RuleError
from core.setup import (
    Pick,
    build_contest,
    conditions,
    describe_options,
    no_skill,
    own_ratings,
    rating_label,
    typed_rating,
)
from core.sheet import find_sheet
from tui.host import Host, host
from tui.screens.forms import Answers, Field, FormScreen, blame
from tui.systems import view
from tui.systems.common import e
from tui.systems.setup_part import SetupActions, SetupPart
from tui.widgets.keybar import KeyBar
from tui.widgets.lines import data_cell

if TYPE_CHECKING:
    from core.bus import Notice
    from core.campaign import Campaign, ContestRecord

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
    Binding("escape", "back", "Back", id="setup.back"),
]


class SetupScreen(Screen[None]):
    """Build a contest from the roster, then start it (F5 or g). Each system's setup
    screen is a subclass (:meth:`of`) with the system's keys among the screen's own."""

    BINDINGS: ClassVar[list[BindingType]] = list(KEYS)  # each system's class: its own too

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

    def _copy(self, like: ContestRecord) -> None:
        """The next contest with the same sides: each roster character rolls the same
        rating again, read afresh from the roster (hurts and benefits included); one that
        is not on the roster (a resistance) keeps its number."""
        start = like.start
        sheet = find_sheet(start.system)
        for p in start.participants:
            rating = like.uses.get(p.name)
            value = sheet.rolled(p) if rating is None else None
            self.picks.append(Pick(character=p.name, side=p.side, rating=rating, value=value))
        options = getattr(start, "options", None)
        if options is not None:
            defaults = type(options)()
            self.options = {
                f.name: getattr(options, f.name)
                for f in fields(options)
                if getattr(options, f.name) != getattr(defaults, f.name)
            }
        self.situation = [a.name for a in getattr(start, "aspects", ()) if a.owner is None]
        sides = {p.name: p.side for p in start.participants}
        self.tussle_rolls = {sides.get(who, who) for who in like.tussle_rolls}
        # What the players were not to see stays hidden: shown in the next contest, the
        # odds and totals of its first exchange would give it away.
        self.hidden = {p.name for p in start.participants if like.hidden("participant", p.name)}
        self.hidden_aspects = set(like.secret_aspects)
        self.secret = like.secret

    @classmethod
    def of(cls, system: str) -> type[SetupScreen]:
        """The setup screen for ``system``'s contests: its keys and their actions."""
        return _screen_class(system)

    @property
    def tussle(self) -> Host:
        return host(self.app)

    @property
    def part(self) -> SetupPart:
        """The campaign's system's part of this screen."""
        return view(self.tussle.campaign.system).SETUP

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
        with Vertical(id="setup"):
            yield Label("[b]A new contest[/b]: who takes part, on which side, rolling what")
            yield DataTable(id="picks", cursor_type="row")
            yield Static(id="setup-summary")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Character", "Side", "Rolls")
        self.reload()
        self.query_one(DataTable).focus()

    def reload(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for pick in self.picks:
            name = pick.character + (" · hidden" if pick.character in self.hidden else "")
            table.add_row(*(data_cell(x) for x in (name, pick.side, self.rolls(pick))))
        system = self.tussle.campaign.system
        try:
            opts = " · ".join(describe_options(system, self.options))
        except RuleError as error:
            opts = str(error)
        lines = [
            f"[b]Options[/b]: {e(opts)} (o)",
            f"[b]Dice[/b]: {e(self.dice_line())} (T to change)",
            f"[b]Hidden from the players[/b]: {e(self.hidden_line())} (H: the highlighted one)",
            "Sides: participants with the same side are a team (one roll, teamwork).",
            "a adds a participant · d removes · o options · F5 or g starts",
        ]
        lines[3:3] = [e(note) for note in self.notes]
        if self.part.situation_aspects:
            lines.insert(
                1, f"[b]Situation aspects[/b]: {e('; '.join(self.situation) or 'none')} (t)"
            )
        self.query_one("#setup-summary", Static).update("\n".join(lines))

    def rolls(self, pick: Pick) -> str:
        """The Rolls column: ``Sword 4M``, ``Great (+4), for this contest only``."""
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
        contest only ("Other"), or the system's rating for no relevant skill."""
        system = self.tussle.campaign.system
        roster = self.tussle.campaign.roster
        free = [n for n in roster if n not in {p.character for p in self.picks}]
        if not free:
            self.notify("Everyone on the roster is in the contest: add characters with w.")
            return
        names = tuple((n, n) for n in free)
        part = self.part
        extra = (  # Other last: ← from the first of their own reaches it
            (part.no_skill, ""),
            (f"Other: type a rating ({part.typed_example})", OTHER),
        )
        by_name = {n: (*own_ratings(system, roster[n]), *extra) for n in free}

        def parse(a: Answers) -> Pick:
            name = a["character"]
            side = a["side"] or name
            if a["rating"] != OTHER:
                return Pick(character=name, side=side, rating=a["rating"] or None)
            with blame("typed"):
                return Pick(character=name, side=side, value=typed_rating(system, a["typed"]))

        def done(pick: Pick | None) -> None:
            if pick is not None:
                self.picks.append(pick)
                self.reload()

        first = by_name[free[0]][0][1]
        self.app.push_screen(
            FormScreen(
                "Add a participant",
                [
                    Field("character", "Character", free[0], names),
                    Field(
                        "rating",
                        "Rolls (their own; ←/→ for another, or Other to type one)",
                        first,
                        follows="character",
                        choices_by=by_name,
                    ),
                    Field(
                        "typed",
                        f"Rating for this contest only ({part.typed_example})",
                        shown_when=("rating", OTHER),
                    ),
                    Field("side", "Side (blank: their own; same side = a team)", required=False),
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
        if self.picks:
            gone = self.picks.pop(min(table.cursor_row, len(self.picks) - 1))
            self.hidden.discard(gone.character)
            self.reload()

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
        self.reload()
        table.move_cursor(row=row)

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
                self.options, self.option_answers = chosen
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
        by_side = view(campaign.system).SETUP.rolls_by_side
        rolls = tuple(
            dict.fromkeys(
                p.side if by_side else p.character
                for p in self.picks
                if p.side in self.tussle_rolls
            )
        )
        in_it = {a.name for a in getattr(contest, "aspects", ())}
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

    def action_back(self) -> None:
        self.tussle.back_to_contest()

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))


def _screen_class(system: str) -> type[SetupScreen]:
    """A subclass of :class:`SetupScreen` whose bindings are the screen's keys and
    ``system``'s, and whose ``action_…`` methods run the system's handlers (Textual reads
    a screen's keys from its class)."""
    part = view(system).SETUP
    known = {b.id for b in KEYS}
    lost = [k.binding.id for k in part.keys if k.after not in known]
    if lost:
        raise ValueError(f"keys placed after no key of the setup screen: {lost}")
    keys: list[Binding] = []
    for own in KEYS:
        keys.append(own)
        keys += [k.binding for k in part.keys if k.after == own.id]

    def action(run: Callable[[SetupActions], None]) -> Callable[[SetupScreen], None]:
        def run_on(screen: SetupScreen) -> None:
            run(screen)

        return run_on

    namespace: dict[str, object] = {
        "BINDINGS": keys,
        **{f"action_{k.binding.action}": action(k.run) for k in part.keys},
    }
    return type(f"{system.capitalize()}SetupScreen", (SetupScreen,), namespace)
