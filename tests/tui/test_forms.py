"""A bad value in a form keeps the form open (issue 11, defect 4): for every kind of form,
a value the app cannot take is refused with a message under its field, that field has
the focus, and everything typed is still there; the value put right, Enter accepts.
Expected values are worked out from the rules, not read from the app."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Static

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.model import SetModifier
from core.saves.store import Saves
from core.systems.fate.character import FateCharacter
from core.systems.fate.events import CreateAdvantage
from core.systems.forge.character import ForgeCharacter
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet
from core.systems.heroquest.events import Augment, SetPairs, SpendHeroPoints
from core.systems.heroquest.state import Pair
from tests.helpers import wait_for_odds
from tests.tui.conftest import keys, new_app, seed_campaign, settle, write
from tui.app import TussleApp
from tui.fields import FieldError, whole
from tui.screens.contest import ContestScreen
from tui.screens.forms import FormScreen
from tui.screens.roster import RosterScreen
from tui.screens.setup import SetupScreen

ANA = Character(
    name="Ana", ratings={"Burglary": 3, "Fight": 2}, sheet=FateCharacter(fate_points=2, refresh=3)
)
GUARD = Character(name="Guard", kind="npc", ratings={"Fight": 1})
TRIPITAKA = Character(
    name="Tripitaka", ratings={"Fist": 17, "Sword": 24}, sheet=HeroQuestCharacter(hero_points=0)
)
GHOUL = Character(
    name="Ghoul King", kind="npc", ratings={"Claws": 6}, sheet=HeroQuestCharacter(hero_points=1)
)
KASIA = Character(name="Kasia", ratings={"Pistols": 45, "Dodge": 30})
BOBBY = Character(name="Bobby", kind="npc", ratings={"Brawling": 50})


def field_of(character: Character, name: str) -> Any:
    """A field of the roster's character, or of its system's sheet."""
    holder = character if name in character.__struct_fields__ else character.sheet
    return getattr(holder, name)


def seed(saves: Path, system: str) -> str:
    """A campaign of ``system`` with a contest ready to play; its name."""
    roster, picks = {
        "fate": ([ANA, GUARD], [("Ana", "Burglary"), ("Guard", "Fight")]),
        "heroquest": ([TRIPITAKA, GHOUL], [("Tripitaka", "Fist"), ("Ghoul King", "Claws")]),
        "forge": ([KASIA, BOBBY], [("Kasia", "Pistols"), ("Bobby", "Brawling")]),
    }[system]
    name = f"{system} night"
    seed_campaign(
        saves,
        name,
        system,
        roster,
        [Pick(character=c, side=c, rating=r) for c, r in picks],
    )
    return name


async def started(pilot: Pilot[None]) -> None:
    """The contest screen is up and its odds worked out (a worker finishing after the
    screen has gone would paint a screen that is not there)."""
    await settle(pilot)
    await wait_for_odds(pilot)


def form_of(app: TussleApp) -> FormScreen[object]:
    assert isinstance(app.screen, FormScreen), app.screen
    return app.screen


def error_under(form: FormScreen[object], key: str) -> str:
    line = form.query_one(f"#e-{key}", Static)
    return str(line.visual) if line.display else ""


async def fill(pilot: Pilot[None], key: str, value: str) -> None:
    """Type ``value`` into field ``key`` of the form on top, in place of what it held."""
    widget = form_of(pilot.app).query_one(f"#f-{key}", Input)  # type: ignore[arg-type]
    widget.focus()
    widget.value = ""
    await pilot.pause()
    await write(pilot, value)


async def paste(pilot: Pilot[None], key: str, value: str) -> None:
    """Paste ``value`` into field ``key`` of the form on top, in place of what it held:
    one ``Paste`` event, as a terminal delivers a paste to the app (which hands it to the
    focused field), not its characters typed one by one."""
    widget = form_of(pilot.app).query_one(f"#f-{key}", Input)  # type: ignore[arg-type]
    widget.focus()
    widget.value = ""
    await pilot.pause()
    pilot.app.post_message(events.Paste(value))
    await settle(pilot)
    assert widget.value == value, "the paste is in the field"


async def refused(pilot: Pilot[None], key: str | None, says: str) -> FormScreen[object]:
    """Enter on the form on top: it stays, says ``says`` under field ``key`` (at its foot
    when None) with that field focused, and every field holds what it held."""
    app = pilot.app
    assert isinstance(app, TussleApp)
    form = form_of(app)
    typed = form.answers()
    await keys(pilot, "enter")
    assert app.screen is form, "the form was thrown away"
    assert form.answers() == typed
    if key is None:
        assert says in str(form.query_one("#error", Static).visual)
    else:
        assert says in error_under(form, key)
        assert app.focused is form.query_one(f"#f-{key}")
    return form


async def accepted(pilot: Pilot[None]) -> None:
    await keys(pilot, "enter")
    assert not isinstance(pilot.app.screen, FormScreen)


# -- the roster, in each system ------------------------------------------------------------


async def new_character(pilot: Pilot[None], fields: Sequence[tuple[str, str]]) -> None:
    await keys(pilot, "w")
    assert isinstance(pilot.app.screen, RosterScreen)
    await keys(pilot, "a")
    for key, value in fields:
        await fill(pilot, key, value)


async def test_a_heroquest_ability_written_wrong_is_refused_and_kept(saves: Path) -> None:
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await new_character(pilot, [("name", "Sandy"), ("ratings", "Rake four"), ("vitality", "1")])
        form = await refused(pilot, "ratings", '"four" is not a rating')
        assert error_under(form, "name") == ""  # only the field at fault says anything
        await fill(pilot, "ratings", "Rake 4M")
        await accepted(pilot)
        await settle(pilot)
        sandy = app.campaign.roster["Sandy"]
        assert (dict(sandy.ratings), hq_sheet(sandy).vitality) == ({"Rake": 24}, 1)  # 4M: 4 + 20


async def test_a_huge_pasted_rating_is_named_not_printed_back(saves: Path) -> None:
    """A HeroQuest rating is 1 to 20, then M and a mastery count (rules §2.2): 60 nines
    pasted are no rating, and a mastery count of 300 digits is beyond any size a number
    may have (core.limits.SIZE). The message names the paste by its start and length,
    not all of it (it filled the form before)."""
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await new_character(pilot, [("name", "Sandy"), ("vitality", "1")])
        await paste(pilot, "ratings", "Rake " + "9" * 60)
        form = await refused(pilot, "ratings", "(60 digits)")
        assert "9" * 21 not in error_under(form, "ratings")
        assert "is not a rating" in error_under(form, "ratings")
        await paste(pilot, "ratings", "Rake 4M" + "9" * 300)
        form = await refused(pilot, "ratings", "is too large")
        assert "9" * 21 not in error_under(form, "ratings")


async def test_a_refused_field_is_put_right_not_typed_again(saves: Path) -> None:
    """Refused, the field has the focus with the cursor after the text and nothing
    selected: four Backspaces take back "four" alone, and "Rake 4M" is accepted (4M is
    4 + 20). Selected whole, the first Backspace wiped "Rake " too (found at the table)."""
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await new_character(pilot, [("name", "Sandy"), ("ratings", "Rake four"), ("vitality", "1")])
        await refused(pilot, "ratings", '"four" is not a rating')
        await keys(pilot, "backspace", "backspace", "backspace", "backspace")
        await write(pilot, "4M")
        await accepted(pilot)
        await settle(pilot)
        assert dict(app.campaign.roster["Sandy"].ratings) == {"Rake": 24}


async def test_hero_points_that_are_not_a_number_are_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await new_character(pilot, [("name", "Sandy"), ("ratings", "Rake 4M")])
        await fill(pilot, "hero_points", "lots")
        await refused(pilot, "hero_points", '"lots" is not a whole number')
        await fill(pilot, "hero_points", "3")
        await accepted(pilot)
        await settle(pilot)
        assert hq_sheet(app.campaign.roster["Sandy"]).hero_points == 3


@pytest.mark.parametrize(
    ("system", "key", "bad", "good", "attribute", "value"),
    [
        ("fate", "fate_points", "many", "2", "fate_points", 2),
        ("fate", "ratings", "Notice Goodish", "Notice 2", "ratings", {"Notice": 2}),
        ("forge", "multiplier", "x4", "4", "multiplier", 4),
        ("forge", "trauma", "-5", "5", "trauma", 5),
    ],
)
async def test_roster_forms_of_fate_and_forge_keep_a_bad_value(
    saves: Path, system: str, key: str, bad: str, good: str, attribute: str, value: object
) -> None:
    app = new_app(saves, seed(saves, system))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await new_character(pilot, [("name", "Zed"), (key, bad)])
        await refused(pilot, key, bad)
        await fill(pilot, key, good)
        await accepted(pilot)
        await settle(pilot)
        got = field_of(app.campaign.roster["Zed"], attribute)
        assert (dict(got) if isinstance(value, dict) else got) == value


async def test_a_name_already_on_the_roster_keeps_the_form_open(saves: Path) -> None:
    """Refused by the campaign itself (its decide), before anything is sent."""
    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await new_character(pilot, [("name", "Guard"), ("ratings", "Notice 2")])
        await refused(pilot, "name", '"Guard" is already on the roster')
        await fill(pilot, "name", "Second Guard")
        await accepted(pilot)
        await settle(pilot)
        assert dict(app.campaign.roster["Second Guard"].ratings) == {"Notice": 2}


async def test_a_session_start_with_hero_points_lots_is_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await keys(pilot, "w", "S")
        await fill(pilot, "reset", "lots")
        await refused(pilot, "reset", "not a whole number")
        await fill(pilot, "reset", "2")
        await accepted(pilot)
        await settle(pilot)
        assert hq_sheet(app.campaign.roster["Tripitaka"]).hero_points == 2  # every PC reset to 2
        assert hq_sheet(app.campaign.roster["Ghoul King"]).hero_points == 1  # an NPC keeps his


# -- the contest screen --------------------------------------------------------------------


async def test_a_fate_advantage_with_a_total_of_five_in_words_is_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await keys(pilot, "a")
        await fill(pilot, "aspect", "Off Balance")
        await fill(pilot, "result", "five")
        await fill(pilot, "opposition", "2")
        await refused(pilot, "result", '"five" is neither a ladder name')  # nor a number
        await fill(pilot, "result", "5")
        await accepted(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        assert screen.draft.extras == [
            CreateAdvantage(by="Ana", aspect="Off Balance", on=None, result=5, opposition=2)
        ]


async def test_a_modifier_in_words_is_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await keys(pilot, "m")
        await fill(pilot, "value", "minus twenty")
        await refused(pilot, "value", "not a whole number")
        await fill(pilot, "value", "-20")
        await accepted(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        assert [getattr(c, "value", None) for c in screen.draft.extras] == [-20]


async def test_the_modifier_form_takes_digits_typed_as_it_opens(saves: Path) -> None:
    """The modifier form opens on "For" (the roller whose turn it is); a number typed at
    once is the modifier, not keys lost on that choice: m - 3 Enter is -3 for Tripitaka,
    the first roller of the HeroQuest seed."""
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await keys(pilot, "m", "minus", "3", "enter")
        screen = app.screen
        assert isinstance(screen, ContestScreen), "the form took the number and closed"
        assert [(c.who, c.value) for c in screen.draft.extras if isinstance(c, SetModifier)] == [
            (screen.state.participants[0].name, -3)
        ]


async def test_a_modifier_of_0_is_refused_by_the_fields_limit(saves: Path) -> None:
    """A modifier of 0 changes nothing: SetModifier.value declares it (core.limits'
    NonZero), and the form reads that declaration: refused under the field, kept."""
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await keys(pilot, "m")
        await fill(pilot, "value", "0")
        await refused(pilot, "value", "must not be 0")
        await fill(pilot, "value", "-0")
        await refused(pilot, "value", "must not be 0")
        await fill(pilot, "value", "+6")
        await accepted(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        assert [getattr(c, "value", None) for c in screen.draft.extras] == [6]


async def test_an_augment_die_no_d20_shows_is_refused_under_it(saves: Path) -> None:
    """An augment's two rolls are d20s (rules §2.5: the augmenting ability rolls against
    the augment base): 0 and 21 are refused under the field typed, in plain words (it
    said "not (0,)" at the foot of the form)."""
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await keys(pilot, "g")
        form = form_of(app)
        if form.query("#f-ability"):  # the lender's abilities, then Other: pick Other
            form.query_one("#f-ability").focus()
            await keys(pilot, "left")
        await fill(pilot, "rating", "17")
        await fill(pilot, "roll", "0")
        await fill(pilot, "resistance", "5")
        await refused(pilot, "roll", "a d20 shows 1 to 20, not 0")
        await fill(pilot, "roll", "3")
        await fill(pilot, "resistance", "21")
        await refused(pilot, "resistance", "a d20 shows 1 to 20, not 21")
        await fill(pilot, "resistance", "12")
        await accepted(pilot)


async def test_an_augment_rating_written_wrong_is_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await keys(pilot, "g")
        form = form_of(app)
        if form.query("#f-ability"):  # the lender's abilities, then Other: pick Other
            form.query_one("#f-ability").focus()
            await keys(pilot, "left")  # from the first of their own to the last: Other
        await fill(pilot, "rating", "huge")
        await fill(pilot, "roll", "3")
        await fill(pilot, "resistance", "12")
        await refused(pilot, "rating", '"huge" is not a rating')
        await fill(pilot, "rating", "17")
        await accepted(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        augments = [c for c in screen.draft.extras if isinstance(c, Augment)]
        assert [(a.rating, a.roll, a.resistance_roll) for a in augments] == [(17, 3, 12)]


async def test_a_group_contest_written_wrong_is_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await keys(pilot, "G")
        await fill(pilot, "pairs", "Tripitaka against Ghoul King 4 9")
        await refused(pilot, "pairs", 'write a pair as "A v B 14 13"')
        await fill(pilot, "pairs", "Tripitaka v Ghoul King 4 9")
        await accepted(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        assert screen.draft.extras == [
            SetPairs(pairs=(Pair(a="Tripitaka", b="Ghoul King", roll_a=4, roll_b=9),))
        ]


async def test_what_the_rules_refuse_keeps_the_form_open_too(saves: Path) -> None:
    """Tripitaka has no hero point: the engine refuses the spend, and the form says so
    instead of closing (a pure check on the contest as it stands)."""
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await keys(pilot, "h")
        form = form_of(app)
        while form.answers()["who"] != "Tripitaka":
            await keys(pilot, "right")
        typed = form.answers()
        await keys(pilot, "enter")
        assert app.screen is form and form.answers() == typed
        shown = str(form.query_one("#error", Static).visual) + error_under(form, "who")
        assert "hero point" in shown.lower()
        await keys(pilot, "right")  # the Ghoul King has one
        await accepted(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        assert screen.draft.extras == [SpendHeroPoints(who="Ghoul King", count=1)]


async def test_correcting_an_exchange_that_is_not_there_is_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        # Exchange 1: Ana 3 + 4 against the Guard 1 - 4: two victories of three.
        await keys(pilot, *["plus"] * 4, *["minus"] * 4, "enter")
        await settle(pilot)
        await keys(pilot, "C")
        await fill(pilot, "n", "two")
        await refused(pilot, "n", "not a whole number")
        await fill(pilot, "n", "7")
        await refused(pilot, "n", "7")
        await fill(pilot, "n", "1")
        await accepted(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen) and screen.correcting is not None
        assert screen.correcting[0] == 1


# -- contest setup -------------------------------------------------------------------------


async def to_setup(pilot: Pilot[None]) -> SetupScreen:
    await started(pilot)
    await keys(pilot, "n")
    screen = pilot.app.screen
    assert isinstance(screen, SetupScreen)
    return screen


async def test_rule_options_with_three_in_words_are_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await to_setup(pilot)
        await keys(pilot, "o")
        await fill(pilot, "victories_needed", "three")
        await refused(pilot, "victories_needed", '"three" is not a whole number')
        await fill(pilot, "victories_needed", "2")
        await accepted(pilot)
        assert setup.options["victories_needed"] == 2


async def test_an_environment_contest_without_a_difficulty_is_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await to_setup(pilot)
        await keys(pilot, "o", "right")  # mode: environment
        await refused(pilot, "difficulty", "needs a difficulty")
        await fill(pilot, "difficulty", "Superb")
        await accepted(pilot)
        assert (setup.options["mode"], setup.options["difficulty"]) == ("environment", 5)


async def test_a_resistance_for_two_sessions_in_words_is_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "heroquest"))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await to_setup(pilot)
        await keys(pilot, "r")
        await fill(pilot, "name", "The Gate")
        await fill(pilot, "sessions", "two")
        await refused(pilot, "sessions", "not a whole number")
        await fill(pilot, "sessions", "0")
        await refused(pilot, "sessions", "at least 1")
        await fill(pilot, "sessions", "3")
        await accepted(pilot)
        # Moderate after 3 sessions: 13 + ceil(3 / 2) = 15 (rules §2.5).
        assert setup.picks[-1] == Pick(character="The Gate", side="The Gate", value=15)


async def test_a_forge_target_with_a_tier_in_words_is_refused(saves: Path) -> None:
    app = new_app(saves, seed(saves, "forge"))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await to_setup(pilot)
        await keys(pilot, "b")
        await fill(pilot, "tiers", "25 twenty")
        await fill(pilot, "cover", "120")
        await refused(pilot, "tiers", "whole numbers")
        await fill(pilot, "tiers", "25 20")
        await refused(pilot, "cover", "0 to 100")
        await fill(pilot, "cover", "10")
        await accepted(pilot)
        # Tiers 25 + 20, attribute 0, cover of 10% of the body: 45 - 10 = 35 (§3.2, §3.4).
        assert setup.picks[-1] == Pick(character="Kasia", side="Kasia", value=35)


async def test_a_forge_target_too_large_is_refused_under_the_tiers(saves: Path) -> None:
    """Every whole number a GM enters lies within core.limits.SIZE (10**9): a tier of
    eleven digits is refused, and so is a sum of tiers past it (two tiers of 10**9:
    2000000000); 25 + 20 = 45 is taken (rules §3.2)."""
    app = new_app(saves, seed(saves, "forge"))
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await to_setup(pilot)
        await keys(pilot, "b")
        await fill(pilot, "tiers", "99999999999 20")
        await refused(pilot, "tiers", "must be at most 1000000000 in size")
        await fill(pilot, "tiers", "1000000000 1000000000")
        await refused(pilot, "tiers", "the target would be 2000000000: must be at most")
        await fill(pilot, "tiers", "25 20")
        await accepted(pilot)
        assert setup.picks[-1] == Pick(character="Kasia", side="Kasia", value=45)


# -- the campaign screen -------------------------------------------------------------------


async def test_a_new_campaign_with_a_name_taken_is_refused(saves: Path) -> None:
    from tui.screens.campaigns import CampaignScreen

    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await keys(pilot, "c")
        assert isinstance(app.screen, CampaignScreen)
        await keys(pilot, "n")
        await fill(pilot, "name", "fate night")
        await refused(pilot, "name", 'a campaign called "fate night" already exists')
        await fill(pilot, "name", "Second night")
        await accepted(pilot)
        await settle(pilot)
        assert app.campaign.name == "Second night"


def test_a_whole_number_field_blank_required_or_below_its_minimum() -> None:
    from tui.fields import FieldError, whole_field

    assert whole_field({"n": " 3 "}, "n") == 3
    assert whole_field({"n": "−2"}, "n", 0) == -2  # a typographic minus, as typed on a Mac
    assert whole_field({"n": ""}, "n", 1) == 1  # blank: the default
    with pytest.raises(FieldError, match='"" is not a whole number') as blank:
        whole_field({"n": ""}, "n")  # no default: required
    assert blank.value.key == "n"
    # The limit declared on Character.trauma (a count: at least 0), in its own words.
    with pytest.raises(FieldError, match="must be at least 0, got -1") as low:
        whole_field({"trauma": "-1"}, "trauma", 0, of=ForgeCharacter)
    assert low.value.key == "trauma"
    with pytest.raises(FieldError, match="must be at least 1, got 0") as nought:
        whole_field({"n": "0"}, "n", 0, minimum=1)  # a number no type holds: a die
    assert nought.value.key == "n"
    with pytest.raises(FieldError, match="must be at most 1000000000 in size"):
        whole_field({"n": "99999999999"}, "n")
    with pytest.raises(FieldError, match="must be at most 1000000000 in size"):
        whole_field({"n": "9" * 5000}, "n")  # more digits than int() takes: no ValueError


@pytest.mark.parametrize(
    ("system", "typed", "ratings"),
    [
        ("fate", "Athletics +4, Lore 3, Fight -1", {"Athletics": 4, "Lore": 3, "Fight": -1}),
        ("forge", "Athletics 50, Brawling 35", {"Athletics": 50, "Brawling": 35}),
    ],
)
def test_roster_ratings_are_read_as_the_system_reads_them(
    system: str, typed: str, ratings: dict[str, int]
) -> None:
    from core.errors import RuleError
    from tui.screens.roster import parse_ratings
    from tui.systems import view

    part = view(system).roster()
    assert parse_ratings(part, typed) == ratings
    # Refused in the words of the system's one reading of a rating (issue 24, item 11).
    with pytest.raises(RuleError, match=r'"Athletics x": "x" is (neither a ladder|not a target)'):
        parse_ratings(part, "Athletics x")


# -- issue 23: each value a form took and the loader then refused ----------------------------
#
# Issue 23's table, by keys: each value a form took and the loader then refused is now
# refused by the form, under its field, in the words of the limit declared on the field
# (core.limits); the form stays open with everything typed; the value put right, the
# campaign saves, and reopens from disk with what was typed.
#
# The limits, from the rules: a contest is "first to N victories" with N of at least 1,
# and style needs at least one shift more than a plain success; fate points, refresh and
# hero points are counts (nobody holds fewer than none); a FORGE weapon multiplies damage
# (by 1 or more) and armor absorbs 0 or more; no number is over 10^9 in size.


@pytest.mark.parametrize(
    ("system", "key", "bad", "says", "good", "kept"),
    [
        ("fate", "fate_points", "-3", "must be at least 0, got -3", "3", 3),
        ("fate", "refresh", "-2", "must be at least 0, got -2", "2", 2),
        ("heroquest", "hero_points", "-1", "must be at least 0, got -1", "0", 0),
        ("forge", "multiplier", "0", "must be at least 1, got 0", "1", 1),
        ("forge", "armor", "-5", "must be at least 0, got -5", "0", 0),
        ("forge", "max_damage", "-1", "must be at least 0, got -1", "40", 40),
        ("forge", "armor_capacity", "-1", "must be at least 0, got -1", "0", 0),
        ("forge", "trauma", "-1", "must be at least 0, got -1", "12", 12),
        # Physical Agility: "a PA of 0 being impossible" (rules §3.4, [I16])
        ("forge", "agility", "0", "must be at least 1, got 0", "45", 45),
        ("forge", "agility", "-3", "must be at least 1, got -3", "15", 15),
        ("forge", "agility", "99999999999", "must be at most 1000000000 in size", "20", 20),
    ],
)
async def test_a_character_number_outside_its_limit_is_refused_and_kept(
    saves: Path, system: str, key: str, bad: str, says: str, good: str, kept: int
) -> None:
    name = seed(saves, system)
    app = new_app(saves, name)
    ratings = {"fate": "Fight 2", "heroquest": "Rake 4M", "forge": "Brawling 40"}[system]
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await new_character(pilot, [("name", "Zed"), ("ratings", ratings), (key, bad)])
        await refused(pilot, key, says)
        await fill(pilot, key, good)
        await accepted(pilot)
        await settle(pilot)
        assert field_of(app.campaign.roster["Zed"], key) == kept
    reopened = Saves(saves).find(name)
    assert reopened is not None
    assert field_of(reopened.load().roster["Zed"], key) == kept


async def test_a_rating_of_eleven_digits_is_refused_and_kept(saves: Path) -> None:
    name = seed(saves, "fate")
    app = new_app(saves, name)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await new_character(pilot, [("name", "Zed"), ("ratings", "Fight 99999999999")])
        await refused(pilot, "ratings", "must be at most 1000000000 in size")
        await fill(pilot, "ratings", "Fight 2")
        await accepted(pilot)
        await settle(pilot)
    reopened = Saves(saves).find(name)
    assert reopened is not None
    assert dict(reopened.load().roster["Zed"].ratings) == {"Fight": 2}


@pytest.mark.parametrize(
    ("key", "bad", "says", "good"),
    [
        ("victories_needed", "0", "must be at least 1, got 0", "1"),
        ("victories_needed", "-1", "must be at least 1, got -1", "2"),
        ("style_threshold", "-1", "must be at least 1, got -1", "1"),
        ("style_threshold", "0", "must be at least 1, got 0", "4"),
    ],
)
async def test_fate_options_outside_their_limits_are_refused_and_the_contest_reloads(
    saves: Path, key: str, bad: str, says: str, good: str
) -> None:
    """The B1 reproduction: the options form (``o``) took ``Victories needed 0``, the
    contest started, and the campaign never opened again."""
    name = seed(saves, "fate")
    app = new_app(saves, name)
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await to_setup(pilot)
        await keys(pilot, "a", "enter", "a", "enter")  # the first two free characters
        await keys(pilot, "o")
        await fill(pilot, key, bad)
        await refused(pilot, key, says)
        await fill(pilot, key, good)
        await accepted(pilot)
        assert setup.options[key] == int(good)
        await keys(pilot, "g")
        await write(pilot, "Second race")
        await keys(pilot, "enter")
        await settle(pilot)
        assert app.campaign.latest_contest is not None
        assert app.campaign.latest_contest.title == "Second race"
    reopened = Saves(saves).find(name)
    assert reopened is not None
    latest = reopened.load().latest_contest
    assert latest is not None and latest.title == "Second race"
    assert getattr(latest.state.options, key) == int(good)


def test_a_long_paste_in_a_number_field_is_named_not_printed_back() -> None:
    """A whole-number field refuses letters by naming what was typed; a paste of 300
    letters is named by its start and length, not repeated (it would fill the form)."""
    with pytest.raises(FieldError) as refused:
        whole("lots" * 75, "n")
    assert "(300 characters)" in str(refused.value) and "lots" * 3 not in str(refused.value)
    with pytest.raises(FieldError, match='"lots" is not a whole number'):
        whole("lots", "n")


async def test_text_longer_than_its_field_scrolls_to_show_where_the_gm_types(saves: Path) -> None:
    """A field's text runs past its width: the field scrolls with the cursor (the field
    is not laid out again for each key, tui/screens/forms.py, so its scrolling must
    still follow the text), and Backspace takes back from the end."""
    app = new_app(saves, seed(saves, "fate"))
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        words = "a very long name for one guard " * 3 + "END"
        await new_character(pilot, [("name", words)])
        await settle(pilot)
        field = form_of(app).query_one("#f-name", Input)
        assert field.value == words
        assert field.size.width < len(words)
        assert field.scroll_x > 0
        shown = field.render_line(0).text
        assert shown.rstrip().endswith("guard END"), shown
        await keys(pilot, "backspace", "backspace", "backspace")
        shown = field.render_line(0).text
        assert field.value == words[:-3]
        assert shown.rstrip().endswith("one guard"), shown
