"""Every limit on reading is enforced before writing (issue 30, item 3): the readers
refuse a save file over 64 MB or nested deeper than 64, so no writer may make one.
Four ``--record`` s of a scenario with a 10 MB aspect name (each exit 0), one roster
import of a 7 MB roster, an import of an export whose settings nest 900 deep or whose
entries are huge: each left a campaign that ``check``, opening and every later record
refused. Now each is refused where it comes in, and the campaign is as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from core.campaign.actions import Campaign
from core.campaign.log import Character, ImportCharacters
from core.errors import RuleError
from core.files.disk import MAX_DEPTH, MAX_ENTRY_BYTES, MAX_FILE_BYTES, SEGMENT_SIZE, too_deep
from core.saves.store import CampaignFiles, Saves
from core.saves.transfer import export_campaign, to_text
from core.text import MAX_TEXT, control_problem
from tests.helpers import files_of, seed, tussle

MB = 1024 * 1024


def scenario(aspect: str) -> dict[str, Any]:
    return {
        "system": "fate",
        "participants": [{"name": "Cynere", "skill": 4}, {"name": "Teran", "skill": 3}],
        "aspects": [{"name": aspect}],
        "exchanges": [{"rolls": {"Cynere": "0000", "Teran": "0000"}}],
    }


def test_a_segment_of_the_largest_entries_is_within_what_is_read() -> None:
    # A full segment of entries each as large as one may be, with room for each slot's
    # keys ({"entry": ..., "base": n} under its doc id): under the 64 MB readers take.
    assert SEGMENT_SIZE * (MAX_ENTRY_BYTES + 4096) <= MAX_FILE_BYTES


def test_a_name_longer_than_the_bound_is_refused_at_entry() -> None:
    assert control_problem("x" * MAX_TEXT, "Aspect") is None
    problem = control_problem("x" * (MAX_TEXT + 1), "Aspect")
    assert problem is not None
    assert problem.startswith('Aspect "' + "x" * 40 + '..." is 501 characters long')


def test_recording_a_scenario_with_a_10_mb_aspect_is_refused_and_saves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    seed(saves)
    before = files_of(saves)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(scenario("A" * (10 * MB))))
    for _ in range(4):
        assert tussle(saves, "resolve", str(path), "--record", "Seed") == 2
    err = capsys.readouterr().err
    assert "aspects[0].name" in err and "10,485,760 characters long" in err
    assert files_of(saves) == before
    assert tussle(saves, "check", "Seed") == 0


def test_an_action_larger_than_an_entry_may_be_is_refused_by_decide(tmp_path: Path) -> None:
    # 2,000 characters with names of 400 characters: each name may be, the action may not.
    files, campaign = seed(tmp_path)
    many = tuple(Character(name=f"{n:04d}" + "x" * 396, ratings={"Lore": 1}) for n in range(2000))
    with pytest.raises(RuleError, match=r"not saved: it would take [\d,]+ bytes to save"):
        campaign.decide(ImportCharacters(characters=many))
    # 100 of them are an action like any other.
    entry = campaign.decide(ImportCharacters(characters=many[:100]))
    files.append([entry])
    assert len(CampaignFiles(files.folder).load().roster) == 102


def test_a_7_mb_roster_file_is_refused_and_the_campaign_stays_readable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    seed(saves)
    before = files_of(saves)
    roster = tmp_path / "huge.toml"
    line = '[[characters]]\nname = "{}"\nskills = {{ Lore = 1 }}\n'
    roster.write_text("".join(line.format(f"{n:06d}" + "y" * 300) for n in range(21_000)))
    assert roster.stat().st_size > 7 * MB
    assert tussle(saves, "roster", "import", "Seed", str(roster)) == 2
    assert "bytes, more than the 666,992 Tussle reads of it" in capsys.readouterr().err
    assert files_of(saves) == before
    assert tussle(saves, "check", "Seed") == 0


def exported(tmp_path: Path) -> dict[str, Any]:
    files, _ = seed(tmp_path / "from")
    doc: dict[str, Any] = json.loads(to_text(export_campaign(files)))
    return doc


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"x": value}
    return value


@pytest.mark.parametrize(
    ("change", "said"),
    [
        # The settings the campaign starts from: what its manifest will hold.
        (lambda doc: doc["settings_at_start"].update(deep=nested(900)), "nested too deep"),
        (lambda doc: doc["settings_at_start"].update(deep=nested(MAX_DEPTH)), "nested too deep"),
        (
            lambda doc: doc["settings_at_start"].update(big=["z" * 1000] * 70_000),
            "settings at start are too large",
        ),
        (
            lambda doc: doc["log"][0]["command"]["character"].update(notes="n" * MB),
            "log entry 0 cannot be saved (it would take",
        ),
        (lambda doc: doc.update(name="N" * (MAX_TEXT + 1)), "characters long"),
    ],
    ids=["settings 900 deep", "settings 64 deep", "70 MB of settings", "a 1 MB entry", "name"],
)
def test_an_import_the_saves_could_not_read_back_is_refused_and_makes_nothing(
    change: Any, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = exported(tmp_path)
    change(doc)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc))
    saves = tmp_path / "saves"
    saves.mkdir()
    assert tussle(saves, "import", str(path), "--as", "Copy") == 2
    assert said in capsys.readouterr().err
    assert Saves(saves).campaigns() == []
    assert [p.name for p in saves.iterdir()] == []  # nor a half-made folder


def test_the_export_itself_imports(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported(tmp_path)))
    saves = tmp_path / "saves"
    saves.mkdir()
    assert tussle(saves, "import", str(path), "--as", "Copy") == 0
    assert tussle(saves, "check", "Copy") == 0


@given(
    wrappers=st.lists(st.booleans(), max_size=80),
    innermost=st.sampled_from((1, "x", None, [], {})),
    beside=st.lists(st.sampled_from((0, "y", [], {}, [2], {"k": 3})), max_size=3),
    limit=st.integers(0, 70),
)
def test_too_deep_is_whether_something_sits_more_than_the_limit_below_the_top(
    wrappers: list[bool], innermost: Any, beside: list[Any], limit: int
) -> None:
    """Wrapped n times (in a list or an object, shallow values beside it at each level),
    the innermost value sits n levels below the top: too deep exactly when n > limit."""
    value = innermost
    for level, in_a_list in enumerate(wrappers):
        shallow = beside if level > 0 else []  # at most one level below the wrapper
        value = [*shallow, value] if in_a_list else {"v": value, **dict(enumerate(shallow))}
    n = len(wrappers)
    event(f"too deep: {n > limit}")
    assert too_deep(value, limit) == (n > limit)


def test_too_deep_at_the_bound_and_far_past_it() -> None:
    assert not too_deep(nested(MAX_DEPTH))  # 64 levels: what the saves read
    assert too_deep(nested(MAX_DEPTH + 1))
    assert too_deep(nested(100_000))  # and no RecursionError on the way


def test_a_campaign_decides_as_before_within_the_bounds(tmp_path: Path) -> None:
    campaign = Campaign(name="Plain", system="fate")
    entry = campaign.decide(ImportCharacters(characters=(Character(name="A" * MAX_TEXT),)))
    assert entry.command == ImportCharacters(characters=(Character(name="A" * MAX_TEXT),))
