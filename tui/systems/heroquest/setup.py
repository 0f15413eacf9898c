"""HeroQuest on the contest setup screen: its options and a resistance from the table
(``SETUP``)."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from core.setup import Pick
from core.systems.heroquest.sheet import RESISTANCE_CLASSES, resistance
from tui.fields import Answers, Field, FieldError, blame, whole_field
from tui.systems.setup_part import SetupActions, SetupKey, SetupPart

# -- the contest setup -----------------------------------------------------------------------


def _options_from(a: Answers) -> dict[str, Any]:
    return {
        "chained": a["kind"] == "chained",
        "extended": a["kind"] == "extended",
        "tie_break": a["tie_break"],
        "augment_base": whole_field(a, "augment_base"),
    }


def _resistance(screen: SetupActions) -> None:
    """A resistance from the table (§2.5): its class and the sessions played."""
    classes = tuple((c.title(), c) for c in RESISTANCE_CLASSES)
    sessions = str(screen.tussle.campaign.settings.get("sessions", 1))
    taken = {p.character for p in screen.picks}

    def parse(a: Answers) -> Pick:
        if a["name"] in taken:
            raise FieldError("name", f'"{a["name"]}" is already in the contest')
        played = whole_field(a, "sessions", 1)
        with blame("sessions"):
            value = resistance(a["class"], played)
        return Pick(character=a["name"], side=a["side"] or a["name"], value=value)

    def then(pick: Pick) -> None:
        screen.picks.append(pick)
        screen.reload()

    screen.form(
        "A resistance from the table (rules §2.5)",
        [
            Field("name", "What resists (a door, a crowd, a storm)"),
            Field("side", "Side (blank: its own)", required=False),
            Field("class", "Class", "moderate", classes),
            Field("sessions", "Sessions played, this one included", sessions),
        ],
        parse,
        then,
    )


SETUP = SetupPart(
    no_skill="No relevant ability: 6 (rules §2.2)",
    typed_example="17 or 4M",
    option_fields=(
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
    ),
    options_from=_options_from,
    keys=(
        SetupKey(
            "setup.options",
            Binding("r", "resistance", "Resistance", id="setup.resistance"),
            _resistance,
        ),
    ),
)
