"""A d20 typed in a HeroQuest form, with a GM's mistakes (play5, items 2 and 3).

A d20 shows 1 to 20 (rules §2.3: the roll is compared with a target of 1 to 20). So 0,
-1, 21 and a number of 22 digits are all refused in the die's own words, "a d20 shows 1
to 20, not ...": the die's bound is tighter than the size every number keeps within
(core.limits.SIZE, 10^9), so its words win over "must be at most 1000000000 in size". In
a group simple contest (§2.7: each PC rolls against a paired opponent) the pairs are typed
on one line, so the words name the pair and whose roll it is."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Static

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.dice import DiceKind, written_face
from core.errors import BadDice
from core.systems.heroquest.events import SetPairs
from tests.tui.conftest import keys, new_app, seed_campaign, settle, write
from tui.app import TussleApp
from tui.screens.contest import ContestScreen
from tui.screens.forms import FormScreen

TWENTY_TWO = "9" * 22


def crypt(saves: Path) -> TussleApp:
    seed_campaign(
        saves,
        "Crypt",
        "heroquest",
        [Character(name=n, ratings={"Sword": 15}) for n in ("Hero", "Foe")],
        [Pick(character=n, side=n, rating="Sword") for n in ("Hero", "Foe")],
        {"chained": True},
    )
    return new_app(saves, "Crypt")


def form_of(app: TussleApp) -> FormScreen[object]:
    assert isinstance(app.screen, FormScreen), app.screen
    return app.screen


async def refused(pilot: Pilot[None], key: str, value: str) -> str:
    """``value`` typed into field ``key`` and Enter: the form stays, keeping what was
    typed; what it says under the field."""
    app = pilot.app
    assert isinstance(app, TussleApp)
    form = form_of(app)
    field = form.query_one(f"#f-{key}", Input)
    field.focus()
    field.value = ""
    await pilot.pause()
    await write(pilot, value)
    await keys(pilot, "enter")
    assert app.screen is form, "the form was thrown away"
    assert field.value == value
    line = form.query_one(f"#e-{key}", Static)
    return str(line.visual) if line.display else ""


async def test_a_pair_d20_no_die_shows_is_refused_naming_the_pair(saves: Path) -> None:
    app = crypt(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "G")
        says = await refused(pilot, "pairs", "Hero v Foe 0 5")
        assert "Hero v Foe, Hero's roll: a d20 shows 1 to 20, not 0" in says, says
        says = await refused(pilot, "pairs", "Hero v Foe 5 -1")
        assert "Hero v Foe, Foe's roll: a d20 shows 1 to 20, not -1" in says, says
        says = await refused(pilot, "pairs", f"Hero v Foe 5 {TWENTY_TWO}")
        assert "Foe's roll: a d20 shows 1 to 20, not 99999999... (22 digits)" in says, says
        assert "in size" not in says
        says = await refused(pilot, "pairs", "Hero v Foe x 5")
        assert 'Hero v Foe, Hero\'s roll: "x" is not a whole number' in says, says
        # Put right, it is taken: the pair's dice are in.
        field = form_of(app).query_one("#f-pairs", Input)
        field.value = ""
        await pilot.pause()
        await write(pilot, "Hero v Foe 5 9")
        await keys(pilot, "enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        staged = [c for c in screen.draft.extras if isinstance(c, SetPairs)]
        assert [(p.a, p.b, p.roll_a, p.roll_b) for c in staged for p in c.pairs] == [
            ("Hero", "Foe", 5, 9)
        ]


async def test_an_augment_d20_of_22_digits_says_the_die_not_the_size(saves: Path) -> None:
    app = crypt(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "g")
        says = await refused(pilot, "roll", TWENTY_TWO)
        assert says.endswith("a d20 shows 1 to 20, not 99999999... (22 digits)"), says
        says = await refused(pilot, "roll", "abc")
        assert '"abc" is not a whole number' in says, says


def test_written_face_keeps_the_die_bound_whatever_the_size() -> None:
    assert written_face(DiceKind.D20, " 20 ") == 20
    assert written_face(DiceKind.D20, "twelve") is None
    for text, shown in (("0", "0"), ("21", "21"), ("-1", "-1"), (TWENTY_TWO, "99999999...")):
        try:
            written_face(DiceKind.D20, text)
        except BadDice as error:
            assert str(error).startswith(f"a d20 shows 1 to 20, not {shown}"), error
        else:
            raise AssertionError(f"{text} taken as a d20")
    try:
        written_face(DiceKind.D100, "101")
    except BadDice as error:
        assert str(error) == "a d100 shows 1 to 100, not 101"
