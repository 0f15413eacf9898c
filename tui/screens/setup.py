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
    AIMING,
    DISTANCE,
    RESISTANCE_CLASSES,
    Pick,
    build_contest,
    cover_modifier,
    fate_difficulty,
    forge_target,
    heroquest_resistance,
)
from tui.screens.forms import Answers, Field, FormScreen
from tui.systems.common import e
from tui.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from core.bus import Notice
    from core.campaign import ContestRecord
    from tui.app import TussleApp

YES_NO = (("no", "no"), ("yes", "yes"))
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


def options_from(system: str, a: Answers) -> dict[str, Any]:
    def number(key: str) -> int:
        try:
            return int(a[key])
        except ValueError:
            raise RuleError(f"{key.replace('_', ' ')}: {a[key]!r} is not a whole number") from None

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
            out["difficulty"] = fate_difficulty(a["difficulty"])
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
    def tussle(self) -> TussleApp:
        from tui.app import TussleApp

        assert isinstance(self.app, TussleApp)
        return self.app

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
            rolls = pick.rating or "(none)"
            if pick.value is not None:
                rolls = f"{pick.value} (set)"
            table.add_row(pick.character, pick.side, rolls)
        system = self.tussle.campaign.system
        opts = (
            ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.options.items()) or "defaults"
        )
        lines = [
            f"[b]Options[/b]: {e(opts)}",
            "Sides: participants with the same side are a team (one roll, teamwork).",
            "a adds a participant · d removes · o options · F5 or g starts",
        ]
        sides = list(dict.fromkeys(p.side for p in self.picks))
        rolled = ", ".join(s for s in sides if s in self.tussle_rolls) or "nobody"
        lines.insert(1, f"[b]Tussle rolls for[/b]: {e(rolled)}; the table for the rest (T)")
        if system == "fate":
            lines.insert(
                1, f"[b]Situation aspects[/b]: {e('; '.join(self.situation) or 'none')} (t)"
            )
        self.query_one("#setup-summary", Static).update("\n".join(lines))

    def notice(self, notice: Notice) -> None:
        from core.bus import Rejected

        if isinstance(notice, Rejected):
            self.notify(str(notice.error), title=notice.error.title, severity="error")

    def action_add(self) -> None:
        roster = self.tussle.campaign.roster
        free = [n for n in roster if n not in {p.character for p in self.picks}]
        if not free:
            self.notify("Everyone on the roster is in the contest: add characters with w.")
            return
        names = tuple((n, n) for n in free)
        all_ratings = sorted({r for c in roster.values() for r in c.ratings})
        ratings = (("(none)", ""), *((r, r) for r in all_ratings))

        def done(a: Answers | None) -> None:
            if a is None:
                return
            chosen = roster[a["character"]]
            rating = a["rating"] or None
            if rating is not None and rating not in chosen.ratings:
                self.notify(f"{chosen.name} has no {rating}: the system's fallback applies")
            self.picks.append(
                Pick(character=a["character"], side=a["side"] or a["character"], rating=rating)
            )
            self.reload()

        self.app.push_screen(
            FormScreen(
                "Add a participant",
                [
                    Field("character", "Character", free[0], names),
                    Field("side", "Side (blank: their own; same side = a team)", required=False),
                    Field(
                        "rating",
                        "Rolls (skill, ability or target)",
                        all_ratings[0] if all_ratings else "",
                        ratings,
                        required=False,
                    ),
                ],
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

        def done(a: Answers | None) -> None:
            if a is None:
                return
            try:
                value = heroquest_resistance(a["class"], int(a["sessions"] or "1"))
            except (RuleError, ValueError) as error:
                self.notify(str(error), title="Cannot add", severity="error")
                return
            side = a["side"] or a["name"]
            self.picks.append(Pick(character=a["name"], side=side, value=value))
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

        def done(a: Answers | None) -> None:
            if a is None:
                return
            try:
                tiers = [int(t) for t in a["tiers"].replace(",", " ").split()]
                mods = [AIMING[a["aiming"]], DISTANCE[a["distance"]]]
                mods.append(cover_modifier(int(a["cover"] or "0")))
                value = forge_target(tiers, int(a["attribute"] or "0"), mods)
            except (RuleError, ValueError) as error:
                self.notify(str(error), title="Cannot build the target", severity="error")
                return
            side = a["side"] or a["character"]
            self.picks.append(Pick(character=a["character"], side=side, value=value))
            self.notify(f"{a['character']}: target {value}")
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

        def done(a: Answers | None) -> None:
            if a is None:
                return
            try:
                self.options = options_from(system, a)
            except RuleError as error:
                self.notify(str(error), title=error.title, severity="error")
                return
            self.option_answers = a
            self.reload()

        self.app.push_screen(FormScreen("Rule options", fields), done)

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

        def titled(a: Answers | None) -> None:
            if a is not None:
                title = a["title"] or default
                self.tussle.send(
                    StartContest(title=title, contest=contest, uses=uses, tussle_rolls=rolls)
                )

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
