"""A Fate conflict from the setup screen, by keys (issue 28: "`n` → conflict in setup";
"Turn order shown and editable"): ``k`` chooses a physical or mental conflict instead of
a contest; the setup shows the turn order the rules give (SRD, "Turn Order": Notice, then
Athletics, then Physique; Empathy, then Rapport, then Will), the GM types another, a
wrong one is refused with the form kept, u takes the choice back, and g starts the
conflict with the same participants."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from core.campaign.log import Character
from core.campaign.sheet import Pick
from core.systems.fate.character import FateCharacter
from core.systems.fate.conflict_play import FateConflict
from core.systems.fate.state import FateContest
from tests.helpers import wait_for_odds
from tests.tui.conftest import keys, new_app, rolls_column, seed_campaign, settle, text, write
from tui.app import TussleApp
from tui.screens.forms import FormScreen
from tui.screens.setup import SetupScreen

# Notice: both Good (+3), a tie; Athletics: Cynere Great (+4), Drisban Fair (+2): Cynere
# first in a physical conflict. Empathy: neither (Mediocre), a tie; Rapport: Cynere
# Average (+1), Drisban Good (+3): Drisban first in a mental one.
CYNERE = Character(
    name="Cynere",
    ratings={"Fight": 3, "Notice": 3, "Athletics": 4, "Rapport": 1},
    sheet=FateCharacter(fate_points=2),
)
DRISBAN = Character(
    name="Drisban", kind="npc", ratings={"Fight": 4, "Notice": 3, "Athletics": 2, "Rapport": 3}
)


def seed(saves: Path) -> str:
    seed_campaign(
        saves,
        "Warehouse",
        "fate",
        [CYNERE, DRISBAN],
        [
            Pick(character="Cynere", side="Cynere", rating="Fight"),
            Pick(character="Drisban", side="Drisban", rating="Fight"),
        ],
    )
    return "Warehouse"


async def both_in_setup(pilot: Pilot[None]) -> None:
    """n, then Cynere and Drisban added, each on their own side."""
    await wait_for_odds(pilot)
    await keys(pilot, "n")
    assert isinstance(pilot.app.screen, SetupScreen)
    await keys(pilot, "a", "enter")
    await keys(pilot, "a")
    assert isinstance(pilot.app.screen, FormScreen)
    await write(pilot, "D")  # Drisban, by initial
    await keys(pilot, "enter")
    assert [p.character for p in pilot.app.screen.picks] == ["Cynere", "Drisban"]  # type: ignore[attr-defined]


def latest(app: TussleApp) -> FateConflict:
    record = app.campaign.latest_contest
    assert record is not None and isinstance(record.state, FateConflict)
    return record.state


async def test_a_mental_conflict_from_the_setup_seated_by_the_rules(saves: Path) -> None:
    app = new_app(saves, seed(saves))
    async with app.run_test(size=(80, 24)) as pilot:
        await both_in_setup(pilot)
        await keys(pilot, "k", "right", "right", "enter")  # a mental conflict
        summary = text(app, "#setup-summary")
        assert (
            "Conflict: mental · turn order by Empathy, then Rapport, then Will: Drisban, "
            "Cynere (k)" in summary.replace("\n", " ")
        )
        await keys(pilot, "g", "enter")
        await settle(pilot)
        c = latest(app)
        assert c.conflict.kind == "mental" and c.turn == "Drisban"
        assert [x.name for x in c.conflict.combatants] == ["Drisban", "Cynere"]
        assert {p.name: p.fate_points for p in c.participants} == {"Cynere": 2, "Drisban": 0}
        await keys(pilot, "q")


async def test_the_gm_seats_them_a_wrong_order_is_refused_and_u_takes_it_back(
    saves: Path,
) -> None:
    app = new_app(saves, seed(saves))
    async with app.run_test(size=(80, 24)) as pilot:
        await both_in_setup(pilot)
        # Physical: by the rules Cynere first (Athletics breaks the Notice tie).
        await keys(pilot, "k", "right", "enter")
        assert "Cynere, Drisban (k)" in text(app, "#setup-summary").replace("\n", " ")
        # The GM seats Drisban first; a name that is not in it is refused, form kept.
        await keys(pilot, "k", "tab")
        await write(pilot, "Drisban, Bob")
        await keys(pilot, "enter")
        assert isinstance(app.screen, FormScreen)
        said = app.screen.query_one("#e-order", Static)
        assert said.display and "Name everyone once" in str(said.visual)
        await keys(pilot, "ctrl+u")
        await write(pilot, "Drisban, Cynere")
        await keys(pilot, "enter")
        assert not isinstance(app.screen, FormScreen)
        assert "turn order the GM's: Drisban, Cynere (k)" in text(app, "#setup-summary").replace(
            "\n", " "
        )
        # Esc in the form changes nothing; u takes the GM's order back, u again the
        # conflict: the setup is a contest again.
        await keys(pilot, "k", "left", "escape")
        assert "the GM's: Drisban, Cynere" in text(app, "#setup-summary").replace("\n", " ")
        await keys(pilot, "u")
        assert "by Notice, then Athletics, then Physique: Cynere, Drisban" in text(
            app, "#setup-summary"
        ).replace("\n", " ")
        await keys(pilot, "u")
        assert "Conflict: no, a contest" in text(app, "#setup-summary")
        await keys(pilot, "U", "U", "g", "enter")
        await settle(pilot)
        c = latest(app)
        assert c.conflict.kind == "physical"
        assert [x.name for x in c.conflict.combatants] == ["Drisban", "Cynere"]
        await keys(pilot, "q")


async def test_a_contest_is_still_a_contest(saves: Path) -> None:
    app = new_app(saves, seed(saves))
    async with app.run_test(size=(80, 24)) as pilot:
        await both_in_setup(pilot)
        assert "Conflict: no, a contest (k: a physical or mental conflict instead)" in text(
            app, "#setup-summary"
        )
        await keys(pilot, "k", "enter")  # "a contest", as it was
        assert "Conflict: no, a contest" in text(app, "#setup-summary")
        await keys(pilot, "g", "enter")
        await settle(pilot)
        record = app.campaign.latest_contest
        assert record is not None and isinstance(record.state, FateContest)
        await keys(pilot, "q")


async def test_n_after_a_finished_conflict_sets_up_the_same_conflict(saves: Path) -> None:
    """The warehouse (tests/conflict_campaigns.py), a physical conflict seated by the
    rules (SRD, Turn Order: Cynere's Notice Good first), ends as Drisban concedes. Its
    summary's n sets up the next one like it: the same people, a physical conflict, the
    order the rules give, not a contest."""
    from tests.conflict_campaigns import warehouse

    warehouse(saves, concede=True)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "enter", "n")  # the summary, then the next contest
        assert isinstance(app.screen, SetupScreen)
        assert (
            "Conflict: physical · turn order by Notice, then Athletics, then Physique: "
            "Cynere, Drisban (k)" in text(app, "#setup-summary").replace("\n", " ")
        )
        await keys(pilot, "q")


async def test_a_setup_like_a_conflict_says_each_action_rolls_its_skill(saves: Path) -> None:
    """n on the warehouse's summary (tests/conflict_campaigns.py; its start names no
    rating rolled: a conflict rolls none). The Rolls column said "Mediocre (+0), for this
    contest only" for both, a number the conflict never uses: each action rolls its own
    skill from the roster (SRD, Attack: Fight or Shoot; Defend: Athletics or Fight;
    conflict_setup.conflict_from). It now says which: Cynere Fight Good (+3) and
    Athletics Great (+4), Drisban Fight Great (+4). k back to a
    contest shows a contest's Rolls again; k to a mental conflict, theirs (Provoke, Will:
    neither has them)."""
    from tests.conflict_campaigns import warehouse

    warehouse(saves, concede=True)
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "enter", "n")
        assert isinstance(app.screen, SetupScreen)
        assert rolls_column(app) == {
            "Cynere": "by action: Fight +3, Athletics +4",
            "Drisban": "by action: Fight +4",
        }
        await keys(pilot, "k", "right", "enter")  # a mental conflict
        assert rolls_column(app) == {
            "Cynere": "by action: +0 in all (no Provoke, Will)",
            "Drisban": "by action: +0 in all (no Provoke, Will)",
        }
        await keys(pilot, "k", "left", "left", "enter")  # a contest
        assert "by action" not in " ".join(rolls_column(app).values())
        await keys(pilot, "q")


async def test_n_keeps_the_gms_turn_order_of_a_mental_conflict(saves: Path) -> None:
    """A mental conflict the GM seated Drisban first (by the rules, Empathy, Rapport and
    Will all Mediocre for both, it would be Cynere), ended by the GM: n sets up a mental
    conflict in the GM's order."""
    from core.campaign.log import Play
    from core.systems.fate.conflict_play import EndConflict
    from core.systems.fate.conflict_setup import conflict_from
    from core.systems.fate.state import FateParticipant
    from tests.conflict_campaigns import ROSTER, start
    from tests.helpers import act

    contest = FateContest(
        participants=(
            FateParticipant(name="Cynere", side="Cynere", skill=0, fate_points=2),
            FateParticipant(name="Drisban", side="Drisban", skill=0),
        )
    )
    gm_order = conflict_from(contest, ROSTER, "mental", order=("Drisban", "Cynere"))
    campaign, files, cid = start(saves, gm_order)
    act(campaign, files, Play(contest_id=cid, commands=(EndConflict(),)))
    app = new_app(saves, "Warehouse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "enter", "n")
        assert isinstance(app.screen, SetupScreen)
        assert "Conflict: mental · turn order the GM's: Drisban, Cynere (k)" in text(
            app, "#setup-summary"
        ).replace("\n", " ")
        await keys(pilot, "g", "enter")
        await settle(pilot)
        c = latest(app)
        assert c.conflict.kind == "mental"
        assert [x.name for x in c.conflict.combatants] == ["Drisban", "Cynere"]
        await keys(pilot, "q")
