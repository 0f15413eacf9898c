"""Names are data (issue 17, item 12): a control character is refused wherever a name
comes in (a scenario, ``tussle import``, a new or renamed campaign), with a message that
names the field and shows the character written out; and no message of ``tussle``, nor
what it prints, sends one to the terminal raw.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from core.files.disk import StoreError
from core.saves.manage import BadName, rename
from core.saves.store import CampaignFiles, Saves
from core.saves.transfer import export_campaign, to_text
from core.text import is_control, written_out
from tests.helpers import seed, tussle

C0 = [chr(c) for c in range(0x20)]
C1 = [chr(c) for c in range(0x80, 0xA0)]
CONTROLS = [*C0, "\x7f", *C1]


def nothing_raw(text: str) -> bool:
    """``text`` holds no control character but line breaks (what a terminal can take)."""
    return not any(is_control(c) and c != "\n" for c in text)


# -- scenarios (tussle resolve) ---------------------------------------------------------------

SCENARIO: dict[str, Any] = {
    "system": "fate",
    "participants": [{"name": "Cynere", "skill": 4}, {"name": "Teran", "skill": 4}],
    "aspects": [{"name": "Muddy Ground"}],
    "exchanges": [
        {
            "advantages": [
                {"by": "Cynere", "aspect": "Pinned", "result": 4, "opposition": 1},
            ],
            "rolls": {"Cynere": "0000", "Teran": "0000"},
            "twist": "Magical Distortions",
        }
    ],
}

# Where each kind of name sits in the scenario, and the place the message must give.
SCENARIO_NAMES = {
    "participant": (("participants", 0, "name"), "participants[0].name"),
    "situation aspect": (("aspects", 0, "name"), "aspects[0].name"),
    "advantage's aspect": (
        ("exchanges", 0, "advantages", 0, "aspect"),
        "exchanges[0].advantages[0].aspect",
    ),
    "twist": (("exchanges", 0, "twist"), "exchanges[0].twist"),
}


def with_name(doc: dict[str, Any], path: tuple[str | int, ...], value: str) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    node: Any = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def test_the_plain_scenario_resolves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "race.json"
    path.write_text(json.dumps(SCENARIO))
    assert tussle(tmp_path, "resolve", str(path), "--text") == 0
    assert "twist: Magical Distortions" in capsys.readouterr().out


@pytest.mark.parametrize("kind", SCENARIO_NAMES)
def test_a_control_character_in_a_scenario_name_is_refused_at_its_place(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path_in_doc, place = SCENARIO_NAMES[kind]
    for control in CONTROLS:
        path = tmp_path / "loaded.json"
        name = f"Evil{control}c [2"
        path.write_text(json.dumps(with_name(SCENARIO, path_in_doc, name)))
        assert tussle(tmp_path, "resolve", str(path), "--text") == 2, repr(control)
        out, err = capsys.readouterr()
        assert out == ""
        assert err == (
            f'{place}: the text "Evil{written_out(control)}c [2" holds a control character '
            f"({written_out(control)}): only plain text is allowed\n"
        )


def test_a_scenario_error_quoting_a_key_shows_it_written_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A key is a place, not a name read: the error names it, written out.
    doc = copy.deepcopy(SCENARIO)
    doc["exchanges"][0]["rolls"] = {"Cynere": "0000", "Teran\x1b]0;pwned\x07": "0000"}
    path = tmp_path / "key.json"
    path.write_text(json.dumps(doc))
    assert tussle(tmp_path, "resolve", str(path)) == 2
    err = capsys.readouterr().err
    assert "Teran\\x1b]0;pwned\\x07" in err
    assert nothing_raw(err)


# -- campaigns: new, recorded into, renamed ---------------------------------------------------


@pytest.mark.parametrize("control", CONTROLS, ids=[f"{ord(c):02x}" for c in CONTROLS])
def test_a_campaign_name_with_a_control_character_is_refused(tmp_path: Path, control: str) -> None:
    saves = Saves(tmp_path)
    with pytest.raises(StoreError, match=r"the campaign's name .* holds a control character"):
        saves.create(f"x{control}pwned", "fate")
    assert saves.campaigns() == []


def test_recording_into_a_campaign_named_with_escape_codes_is_exit_2_and_makes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "race.json"
    path.write_text(json.dumps(SCENARIO))
    saves = tmp_path / "saves"
    saves.mkdir()
    # The issue's names: one retitles the players' terminal, the other resets it.
    for name in ["x\x1b]0;pwned\x07", "Evil\x1bc"]:
        assert tussle(saves, "resolve", str(path), "--record", name) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert "--record" in err
        assert "holds a control character (\\x1b)" in err
        assert nothing_raw(err)
    assert list(saves.iterdir()) == []


def test_renaming_to_a_name_with_a_control_character_is_refused(tmp_path: Path) -> None:
    seed(tmp_path)
    with pytest.raises(BadName, match=r"the campaign's new name .*\\x07"):
        rename(Saves(tmp_path), "Seed", "Seed\x07")
    assert Saves(tmp_path).find("Seed") is not None


def test_rename_on_the_command_line_says_so_written_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(tmp_path)
    assert tussle(tmp_path, "rename", "Seed", "Seed\x1b[2J") == 2
    err = capsys.readouterr().err
    assert '"Seed\\x1b[2J" holds a control character (\\x1b)' in err
    assert nothing_raw(err)


def test_an_unknown_campaign_is_named_written_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for command, name, shown in [
        ("export", "x\x1b]0;pwned\x07", "x\\x1b]0;pwned\\x07"),
        ("check", "\x9b2J", "\\x9b2J"),
    ]:
        assert tussle(tmp_path, command, name) == 2
        out, err = capsys.readouterr()
        assert (out, err) == ("", f'no campaign called "{shown}" in {tmp_path}\n')


# -- tussle import ----------------------------------------------------------------------------


def exported(saves: Path) -> dict[str, Any]:
    files, _ = seed(saves)
    return export_campaign(CampaignFiles(files.folder))


def test_an_import_with_a_control_character_is_refused_naming_the_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = exported(tmp_path / "from")
    target = tmp_path / "to"
    target.mkdir()
    text = to_text(doc)
    # Every string in the export that is a name, loaded with each control character in
    # turn: the campaign's name, and every name in the log (characters, skills, aspects,
    # sides, the contest's title).
    names = ["Seed", "Cynere", "Teran", "Athletics", "The race"]
    assert all(json.dumps(n) in text for n in names)
    for name in names:
        for control in CONTROLS:
            loaded = text.replace(json.dumps(name), json.dumps(f"{name}{control}!"))
            path = tmp_path / "loaded.json"
            path.write_text(loaded)
            assert tussle(target, "import", str(path)) == 2, (name, repr(control))
            out, err = capsys.readouterr()
            assert out == ""
            assert err.startswith(f"{path}: ")
            assert f'"{name}{written_out(control)}!" holds a control character' in err
            assert nothing_raw(err)
    assert list(target.iterdir()) == []  # nothing was made
