"""One set of limits (issue 23): each declared once, on its field (core.limits), and every
layer asks that declaration: the forms, ``decide``, the loader, scenario files.

The property at the end is the promise a GM relies on: whatever the campaign accepted
reads back from disk as it was; whatever it refused left the files as they were.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from core.campaign.actions import Campaign
from core.campaign.log import (
    AddCharacter,
    ChangeSettings,
    Character,
    Compel,
    Correct,
    ImportCharacters,
    QuickRoll,
    SpendFromPool,
    StartContest,
    StartSession,
    ToggleSecret,
    UpdateCharacter,
    WriteBack,
)
from core.errors import RuleError
from core.files.codec import decode, encode
from core.limits import SIZE, Limit, field_limit, field_problem
from core.model import Command, Event
from core.saves.store import CampaignFiles, Saves
from core.systems.fate.character import FateCharacter
from core.systems.fate.scoring import FateOptions
from core.systems.fate.state import FateParticipant, new_contest
from core.systems.forge.character import ForgeCharacter
from core.systems.forge.state import ForgeParticipant
from core.systems.heroquest.character import HeroQuestCharacter
from core.systems.heroquest.state import HQParticipant
from tests.strategies import CAMPAIGN_SYSTEMS, campaign_commands, campaign_runs, examples

# -- the table of issue 23: what each form took and the loader refused ---------------------


@pytest.mark.parametrize(
    ("cls", "name", "value", "problem"),
    [
        # Fate: "first to N victories" needs N of at least 1; style needs a shift or more.
        (FateOptions, "victories_needed", 0, "must be at least 1, got 0"),
        (FateOptions, "style_threshold", -1, "must be at least 1, got -1"),
        # Points are counts: nobody holds fewer than none.
        (FateCharacter, "fate_points", -3, "must be at least 0, got -3"),
        (FateCharacter, "refresh", -2, "must be at least 0, got -2"),
        (HeroQuestCharacter, "hero_points", -1, "must be at least 0, got -1"),
        # FORGE: a weapon multiplies damage by 1 or more; armor absorbs 0 or more.
        (ForgeCharacter, "multiplier", 0, "must be at least 1, got 0"),
        (ForgeCharacter, "armor", -5, "must be at least 0, got -5"),
        (ForgeParticipant, "multiplier", 0, "must be at least 1, got 0"),
        (FateParticipant, "fate_points", -1, "must be at least 0, got -1"),
        (HQParticipant, "hero_points", -1, "must be at least 0, got -1"),
        # Any number at all: within 10^9 in size.
        (FateParticipant, "skill", 99999999999, "must be at most 1000000000 in size"),
    ],
)
def test_a_value_outside_its_declared_limit_is_refused_in_the_limits_words(
    cls: type, name: str, value: int, problem: str
) -> None:
    assert (field_problem(cls, name, value) or "").startswith(problem)


@pytest.mark.parametrize(
    ("cls", "name", "value"),
    [
        (FateOptions, "victories_needed", 1),
        (FateOptions, "style_threshold", 1),
        (FateCharacter, "fate_points", 0),
        (ForgeCharacter, "multiplier", 1),
        (ForgeCharacter, "armor_capacity", 0),  # FORGE: used up, absorbs nothing, but allowed
        (HeroQuestCharacter, "vitality", -3),  # no limit declared: vitality may be negative
        (FateParticipant, "skill", -SIZE),
    ],
)
def test_a_value_at_its_limit_is_taken(cls: type, name: str, value: int) -> None:
    assert field_problem(cls, name, value) is None


def test_a_limit_says_what_is_wrong_in_words() -> None:
    assert Limit(ge=1).problem(0) == "must be at least 1, got 0"
    assert Limit(le=5).problem(6) == "must be at most 5, got 6"
    assert Limit(ge=-10, le=20).problem(20) is None
    assert field_limit(ForgeCharacter, "armor_capacity") == Limit(ge=0)  # ``Count | None``
    assert field_limit(Character, "name") is None


def test_the_loader_refuses_what_the_declaration_refuses_naming_the_place() -> None:
    """The saved form of Fate options with victories_needed 0 (what the GM's form took
    before this issue): decoding names the field and says the limit."""
    saved = encode(FateOptions())
    saved["victories_needed"] = 0
    with pytest.raises(ValueError, match=r"^victories_needed: must be at least 1, got 0$"):
        decode(saved, FateOptions)


# -- decide: the campaign refuses what would not read back --------------------------------


def _fate_campaign() -> Campaign:
    campaign = Campaign(name="Limits", system="fate")
    campaign.act(AddCharacter(character=Character(name="Cynere", ratings={"Athletics": 4})))
    return campaign


def test_a_contest_to_zero_victories_is_refused_before_it_is_saved() -> None:
    campaign = _fate_campaign()
    contest = new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4),
            FateParticipant(name="Teran", side="Teran", skill=3),
        ],
        options=FateOptions(victories_needed=0),
    )
    with pytest.raises(RuleError, match=r"victories_needed: must be at least 1, got 0"):
        campaign.decide(StartContest(title="First to none", contest=contest))
    assert campaign.contests == {}


SHEETS = (FateCharacter, HeroQuestCharacter, ForgeCharacter)  # each system's own fields


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("fate_points", -3, "fate_points: must be at least 0, got -3"),
        ("refresh", -2, "refresh: must be at least 0, got -2"),
        ("hero_points", -1, "hero_points: must be at least 0, got -1"),
        ("multiplier", 0, "multiplier: must be at least 1, got 0"),
        ("armor", -5, "armor: must be at least 0, got -5"),
    ],
)
def test_a_character_outside_a_limit_is_refused_by_decide(
    field: str, value: int, problem: str
) -> None:
    campaign = _fate_campaign()
    kind = next(k for k in SHEETS if field in k.__struct_fields__)
    bad = Character(name="Teran", sheet=msgspec.structs.replace(kind(), **{field: value}))
    with pytest.raises(RuleError, match=problem):
        campaign.decide(AddCharacter(character=bad))
    with pytest.raises(RuleError, match=problem):
        campaign.decide(UpdateCharacter(name="Cynere", character=bad))


def test_a_rating_too_large_to_save_is_refused_by_decide() -> None:
    campaign = _fate_campaign()
    huge = Character(name="Teran", ratings={"Fight": 99999999999})
    with pytest.raises(RuleError, match=r"ratings\.Fight: must be at most 1000000000 in size"):
        campaign.decide(AddCharacter(character=huge))


# -- the property: accepted reloads, refused writes nothing --------------------------------

# The values tried in a field: at, inside and outside its declared limit, and the size
# every number keeps.
SIZES = (-SIZE - 1, -SIZE, SIZE, SIZE + 1)


def boundaries(limit: Limit | None) -> tuple[int, ...]:
    near: list[int] = [-1, 0, 1, 2, *SIZES]
    for bound in (limit.ge, limit.le) if limit is not None else ():
        if bound is not None:
            near += [bound - 1, bound, bound + 1]
    return tuple(sorted(set(near)))


def int_places(value: Any, cls: type | None = None, name: str = "") -> list[tuple[Any, ...]]:
    """Paths to every whole number in a command, each with the limit declared where it
    sits: (path, limit)."""
    found: list[tuple[Any, ...]] = []
    if isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            for path, limit in int_places(getattr(value, name), type(value), name):
                found.append(((name, *path), limit))
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            for path, limit in int_places(item, cls, name):
                found.append(((i, *path), limit))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            for path, limit in int_places(item, None, ""):
                found.append(((key, *path), limit))
    elif isinstance(value, int) and not isinstance(value, bool):
        found.append(((), field_limit(cls, name) if cls is not None and name else None))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: int) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, tuple):
        return (*value[:head], replaced(value[head], rest, new), *value[head + 1 :])
    if isinstance(value, Mapping):
        return {**value, head: replaced(value[head], rest, new)}
    return msgspec.structs.replace(value, **{head: replaced(getattr(value, head), rest, new)})


@st.composite
def gm_actions(draw: st.DrawFn, campaign: Campaign) -> Command:
    """Any GM action the campaign takes: the campaign runs' own (roster, contests, rule
    commands, undo, redo) and the rest (settings, sessions, the pool, quick rolls,
    corrections, secrets, compels, imports, write-backs)."""
    contests = sorted(campaign.contests)
    contest_id = draw(st.sampled_from(contests)) if contests else "c1"
    names = [*campaign.roster, "Cynere"]
    record = campaign.contests.get(contest_id)
    played = record.state.participants if record is not None else ()
    who = draw(st.sampled_from([p.name for p in played] or names))
    expression = {"fate": "4dF+2 vs 3", "heroquest": "4M vs 14", "forge": "d100 vs 45"}
    faces = {"fate": (1, 0, -1, 0), "heroquest": (7, 12), "forge": (40,)}
    others: list[Command] = [
        ChangeSettings(changes={"sessions": 2, "players_see_odds": True}),
        StartSession(reset=draw(st.sampled_from((None, 3)))),
        SpendFromPool(contest_id=contest_id, by=who, reason="refuses a compel"),
        QuickRoll(expression=expression[campaign.system], faces=(faces[campaign.system],)),
        Correct(contest_id=contest_id, n=1, commands=()),
        ToggleSecret(contest_id=contest_id, kind="participant", name=who),
        Compel(who=who),
        ImportCharacters(
            characters=(Character(name="Landon", sheet=FateCharacter(fate_points=2)),), replace=True
        ),
        WriteBack(contest_id=contest_id),
    ]
    if draw(st.booleans()):
        return draw(campaign_commands(campaign))
    return draw(st.sampled_from(others))


@st.composite
def bounded_actions(draw: st.DrawFn, campaign: Campaign) -> tuple[Command, str]:
    """A GM action with one of its numbers (if it has any) set to a value at, inside or
    outside the limit declared on it; and whether that value breaks the limit."""
    command = draw(gm_actions(campaign))
    places = int_places(command)
    if not places:
        return command, "no number in the action"
    path, limit = draw(st.sampled_from(places))
    value = draw(st.sampled_from(boundaries(limit)))
    # ``nonzero`` (a modifier's +0) is checked where a value comes in, the forms and the
    # scenario files (core.limits.bounded), not by the codec: a 0 saved before it was
    # declared still loads, and a 0 the engine takes changes nothing and reloads. So here
    # only the bounds are the campaign's to refuse; the forms' test has the 0.
    bounds = None if limit is None else Limit(ge=limit.ge, le=limit.le)
    outside = abs(value) > SIZE or (bounds is not None and bounds.problem(value) is not None)
    return replaced(command, path, value), "a value outside its limit" if outside else (
        "a value within its limit"
    )


def log_bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "log").iterdir())}


def state_of(campaign: Campaign) -> Any:
    """What a reopened campaign must hold as the one that saved it did."""
    return (
        encode(dict(campaign.roster)),
        [
            (cid, r.title, encode(r.state), dict(r.uses), tuple(r.actions))
            for cid, r in campaign.contests.items()
        ],
        list(campaign.done),
        list(campaign.undone),
        dict(campaign.settings),
        campaign.entries,
    )


@pytest.mark.parametrize("system", CAMPAIGN_SYSTEMS)
@examples(2)  # 200 a system in CI: 600 in all
@given(data=st.data())
def test_what_the_campaign_accepts_reloads_and_what_it_refuses_writes_nothing(
    tmp_path_factory: pytest.TempPathFactory, system: str, data: st.DataObject
) -> None:
    run = data.draw(campaign_runs(system, max_actions=6))
    folder = tmp_path_factory.mktemp("limits")
    files = Saves(folder).create("Limits", system)
    files.append(run.entries)
    campaign = CampaignFiles(files.folder).load()
    before = log_bytes(files.folder)

    command, where = data.draw(bounded_actions(campaign))
    event(f"{type(command).__name__}")
    try:
        entry = campaign.decide(command)
    except RuleError:
        event(f"{where}: refused")
        assert log_bytes(files.folder) == before  # nothing was written
        assert CampaignFiles(files.folder).load().entries == campaign.entries
        return
    event(f"{where}: accepted")
    # The command is saved in its entry: a value outside its limit never gets this far.
    assert where != "a value outside its limit", command
    # Accepted: saved, and the same campaign reads back from the disk.
    files.append([entry])
    campaign.apply(entry)
    reopened = CampaignFiles(files.folder).load()
    assert state_of(reopened) == state_of(campaign)
    assert decode(encode(entry), Event) == entry
