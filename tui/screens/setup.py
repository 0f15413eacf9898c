"""Setting up a contest: sides, helpers, what each rolls, mode, aspects and rule options."""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Label, Static

from core.campaign import StartContest
from core.errors import RuleError
from core.setup import (
    Pick,
    build_contest,
    describe_options,
    no_skill,
    own_ratings,
    rating_label,
    typed_rating,
)
from core.systems.fate.sheet import difficulty as fate_difficulty
from core.systems.forge.sheet import AIMING, DISTANCE, cover_modifier
from core.systems.forge.sheet import target as forge_target
from core.systems.heroquest.sheet import RESISTANCE_CLASSES
from core.systems.heroquest.sheet import resistance as heroquest_resistance
from tui.host import Host, host
from tui.screens.forms import Answers, Field, FieldError, FormScreen, blame
from tui.systems.common import e
from tui.widgets.keybar import KeyBar
from tui.widgets.lines import data_cell

if TYPE_CHECKING:
    from core.bus import Notice
    from core.campaign import ContestRecord

YES_NO = (("no", "no"), ("yes", "yes"))
OTHER = "\x00other"  # the Rolls choice "Other: type a rating" (no rating name is this)
NO_SKILL = {  # the Rolls choice for "no relevant skill", by system
    "fate": "No relevant skill: Mediocre (+0)",
    "heroquest": "No relevant ability: 6 (rules §2.2)",
    "forge": "No skill: a target of 0",
}
TYPED_EXAMPLE = {"fate": "Great or +4", "heroquest": "17 or 4M", "forge": "50"}
OPTION_FIELDS: dict[str, list[Field]] = {
    "fate": [
        Field(
            "mode",
            "Mode",
            "direct",
            (
                ("direct: sides roll against each other", "direct"),
                ("environment: everyone against a difficulty", "environment"),
            ),
        ),
        Field(
            "difficulty",
            "Difficulty (environment mode): a ladder name or a number (Great, +4)",
            "",
            required=False,
        ),
        Field("victories_needed", "Victories needed", "3"),
        Field("style_threshold", "Shifts for style", "3"),
        Field(
            "style_clause",
            "Style",
            "core",
            (
                ("core: two victories only if nobody else has style", "core"),
                ("fae: two victories whenever", "fae"),
            ),
        ),
        Field(
            "teamwork_cap",
            "Teamwork",
            "none",
            (("Core: no cap", "none"), ("Condensed: capped at the lead's skill", "lead_skill")),
        ),
        Field(
            "failed_advantage",
            "A failed advantage",
            "forfeit",
            (("forfeits the roll (Core)", "forfeit"), ("succeeds at a cost (Condensed)", "cost")),
        ),
        Field(
            "environment_requires_success",
            "Environment: nobody scores below 0 shifts",
            "no",
            YES_NO,
        ),
    ],
    "heroquest": [
        Field(
            "kind",
            "Kind",
            "simple",
            (
                ("one simple contest", "simple"),
                ("chained: until a party leaves", "chained"),
                ("extended: first to 5 resolution points", "extended"),
            ),
        ),
        Field(
            "tie_break",
            "Equal results go to",
            "low",
            (("the low roll", "low"), ("the high roll", "high")),
        ),
        Field("augment_base", "Augment base", "14"),
    ],
    "forge": [
        Field("combat", "Combat (damage thrown, dodge or absorb)", "no", YES_NO),
        Field("reactor_wins_ties", "Ties go to the reactor", "yes", YES_NO),
    ],
}


def _whole(a: Answers, key: str, default: int) -> int:
    """Field ``key`` as a whole number (``default`` when blank); a ``FieldError`` if not."""
    text = a[key].strip()
    if not text:
        return default
    try:
        return int(text.replace("−", "-"))
    except ValueError:
        raise FieldError(key, f'"{text}" is not a whole number') from None


def options_from(system: str, a: Answers) -> dict[str, Any]:
    def number(key: str) -> int:
        try:
            return int(a[key])
        except ValueError:
            raise FieldError(key, f'"{a[key]}" is not a whole number') from None

    if system == "fate":
        out: dict[str, Any] = {
            "mode": a["mode"],
            "victories_needed": number("victories_needed"),
            "style_threshold": number("style_threshold"),
            "style_clause": a["style_clause"],
            "teamwork_cap": a["teamwork_cap"],
            "failed_advantage": a["failed_advantage"],
            "environment_requires_success": a["environment_requires_success"] == "yes",
        }
        if a.get("difficulty"):
            with blame("difficulty"):
                out["difficulty"] = fate_difficulty(a["difficulty"])
        elif a["mode"] == "environment":
            raise FieldError("difficulty", "an environment contest needs a difficulty")
        return out
    if system == "heroquest":
        return {
            "chained": a["kind"] == "chained",
            "extended": a["kind"] == "extended",
            "tie_break": a["tie_break"],
            "augment_base": number("augment_base"),
        }
    return {"combat": a["combat"] == "yes", "reactor_wins_ties": a["reactor_wins_ties"] == "yes"}


class SetupScreen(Screen[None]):
    """Build a contest from the roster, then start it (F5 or g)."""

    BINDINGS = [
        Binding("question_mark,f1", "help", "Key help", id="setup.help"),
        Binding("a", "add", "Add participant", id="setup.add"),
        Binding("d", "remove", "Remove", id="setup.remove"),
        Binding("o", "options", "Options", id="setup.options"),
        Binding("t", "aspects", "Aspects", id="setup.aspects"),
        Binding("r", "resistance", "Resistance", id="setup.resistance"),
        Binding("b", "build_target", "Build target", id="setup.build_target"),
        Binding("T", "tussle_rolls", "Who rolls", id="setup.tussle_rolls"),
        Binding("f5,g", "start", "Start", id="setup.start"),
        Binding("escape", "back", "Back", id="setup.back"),
    ]

    def __init__(self, like: ContestRecord | None = None) -> None:
        super().__init__()
        self.picks: list[Pick] = []
        self.options: dict[str, Any] = {}
        self.option_answers: Answers = {}
        self.situation: list[str] = []
        self.tussle_rolls: set[str] = set()  # sides whose dice Tussle rolls
        if like is not None:
            self._copy(like)

    def _copy(self, like: ContestRecord) -> None:
        """The next contest with the same sides: each roster character rolls the same
        rating again, read afresh from the roster (hurts and benefits included); one that
        is not on the roster (a resistance) keeps its number."""
        start = like.start
        for p in start.participants:
            rating = like.uses.get(p.name)
            value = None
            if rating is None:
                value = next(
                    (getattr(p, f) for f in ("skill", "rating", "target") if hasattr(p, f)), None
                )
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

    @property
    def tussle(self) -> Host:
        return host(self.app)

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
            table.add_row(*(data_cell(x) for x in (pick.character, pick.side, self.rolls(pick))))
        system = self.tussle.campaign.system
        try:
            opts = " · ".join(describe_options(system, self.options))
        except RuleError as error:
            opts = str(error)
        lines = [
            f"[b]Options[/b]: {e(opts)} (o)",
            f"[b]Dice[/b]: {e(self.dice_line())} (T to change)",
            "Sides: participants with the same side are a team (one roll, teamwork).",
            "a adds a participant · d removes · o options · F5 or g starts",
        ]
        if system == "fate":
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
            return f"{pick.rating} {rating_label(system, character.ratings[pick.rating])}"
        if pick.rating:
            return f"{pick.rating}: not on the sheet, {rating_label(system, no_skill(system))}"
        return NO_SKILL[system]

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
        extra = (  # Other last: ← from the first of their own reaches it
            (NO_SKILL[system], ""),
            (f"Other: type a rating ({TYPED_EXAMPLE[system]})", OTHER),
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
                        f"Rating for this contest only ({TYPED_EXAMPLE[system]})",
                        shown_when=("rating", OTHER),
                    ),
                    Field("side", "Side (blank: their own; same side = a team)", required=False),
                ],
                parse=parse,
            ),
            done,
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        wanted = {"resistance": "heroquest", "build_target": "forge", "aspects": "fate"}
        return wanted.get(action, self.tussle.campaign.system) == self.tussle.campaign.system

    def action_resistance(self) -> None:
        """A HeroQuest resistance from the table: its class and the sessions played."""
        classes = tuple((c.title(), c) for c in RESISTANCE_CLASSES)
        sessions = str(self.tussle.campaign.settings.get("sessions", 1))

        taken = {p.character for p in self.picks}

        def parse(a: Answers) -> Pick:
            if a["name"] in taken:
                raise FieldError("name", f'"{a["name"]}" is already in the contest')
            sessions = _whole(a, "sessions", 1)
            with blame("sessions"):
                value = heroquest_resistance(a["class"], sessions)
            return Pick(character=a["name"], side=a["side"] or a["name"], value=value)

        def done(pick: Pick | None) -> None:
            if pick is not None:
                self.picks.append(pick)
                self.reload()

        self.app.push_screen(
            FormScreen(
                "A resistance from the table (rules §2.5)",
                [
                    Field("name", "What resists (a door, a crowd, a storm)"),
                    Field("side", "Side (blank: its own)", required=False),
                    Field("class", "Class", "moderate", classes),
                    Field("sessions", "Sessions played, this one included", sessions),
                ],
                parse=parse,
            ),
            done,
        )

    def action_build_target(self) -> None:
        """A FORGE participant's target from skill tiers, attribute and presets."""
        roster = self.tussle.campaign.roster
        names = tuple((n, n) for n in roster)
        if not names:
            self.notify("Add characters to the roster first (w).")
            return

        def parse(a: Answers) -> Pick:
            if a["character"] in {p.character for p in self.picks}:
                raise FieldError("character", f"{a['character']} is already in the contest")
            try:
                tiers = [int(t) for t in a["tiers"].replace(",", " ").split()]
            except ValueError:
                raise FieldError(
                    "tiers", f'"{a["tiers"]}": write whole numbers, like 25 20 10'
                ) from None
            cover = _whole(a, "cover", 0)
            with blame("cover"):
                mods = [AIMING[a["aiming"]], DISTANCE[a["distance"]], cover_modifier(cover)]
            value = forge_target(tiers, _whole(a, "attribute", 0), mods)
            return Pick(character=a["character"], side=a["side"] or a["character"], value=value)

        def done(pick: Pick | None) -> None:
            if pick is not None:
                self.picks.append(pick)
                self.notify(f"{pick.character}: target {pick.value}")
                self.reload()

        self.app.push_screen(
            FormScreen(
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
                parse=parse,
            ),
            done,
        )

    def action_remove(self) -> None:
        table = self.query_one(DataTable)
        if self.picks:
            del self.picks[min(table.cursor_row, len(self.picks) - 1)]
            self.reload()

    def action_options(self) -> None:
        system = self.tussle.campaign.system
        fields = [
            Field(
                f.key,
                f.label,
                self.option_answers.get(f.key, f.default),
                f.choices,
                required=f.required,
            )
            for f in OPTION_FIELDS[system]
        ]

        def parse(a: Answers) -> tuple[dict[str, Any], Answers]:
            return options_from(system, a), a

        def done(chosen: tuple[dict[str, Any], Answers] | None) -> None:
            if chosen is not None:
                self.options, self.option_answers = chosen
                self.reload()

        self.app.push_screen(FormScreen("Rule options", fields, parse=parse), done)

    def action_aspects(self) -> None:
        def done(a: Answers | None) -> None:
            if a is not None:
                self.situation = [x.strip() for x in a["aspects"].split(";") if x.strip()]
                self.reload()

        self.app.push_screen(
            FormScreen(
                "Situation aspects",
                [
                    Field(
                        "aspects",
                        "Aspects (separated by ;)",
                        "; ".join(self.situation),
                        required=False,
                    )
                ],
            ),
            done,
        )

    def action_start(self) -> None:
        campaign = self.tussle.campaign
        try:
            contest = build_contest(
                campaign.system, campaign.roster, self.picks, self.options, self.situation
            )
        except (RuleError, TypeError) as error:
            self.notify(str(error), title="Cannot start", severity="error")
            return
        uses = {p.character: p.rating for p in self.picks if p.rating}
        # The keypad's rollers: sides in Fate, participants elsewhere.
        rolls = tuple(
            dict.fromkeys(
                p.side if campaign.system == "fate" else p.character
                for p in self.picks
                if p.side in self.tussle_rolls
            )
        )
        default = f"Contest {len(campaign.contests) + 1}"

        def parse(a: Answers) -> StartContest:
            command = StartContest(
                title=a["title"] or default, contest=contest, uses=uses, tussle_rolls=rolls
            )
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
