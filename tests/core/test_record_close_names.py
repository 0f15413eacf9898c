"""``tussle resolve FILE --record NAME`` with a typo in NAME (the closing note of issue 24:
``tussle open`` refused "Fridy Fate" beside "Friday Fate", ``--record`` made a second
campaign at once and spread the evening's contests over two). A name close to one there
is refused as ``open`` refuses it (exit 2, naming the one there, nothing written);
``--new`` makes it all the same; the exact name, or a name far from every other, records
as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.saves.store import Saves
from tests.helpers import SCENARIOS, files_of, tussle

SCENARIO = str(SCENARIOS / "fate-cynere-vs-teran.json")


def names(saves: Path) -> list[str]:
    return sorted(info.name for info in Saves(saves).campaigns())


def test_a_typo_beside_a_campaign_is_refused_naming_it_and_writes_nothing(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Saves(saves).create("Friday Fate", "fate")
    before = files_of(saves)
    assert tussle(saves, "resolve", SCENARIO, "--record", "Fridy Fate") == 2
    said = capsys.readouterr()
    assert said.out == ""  # not resolved-and-recorded: nothing on stdout
    assert 'no campaign called "Fridy Fate", but there is "Friday Fate"' in said.err
    assert "--record 'Friday Fate'" in said.err and "--new" in said.err
    assert files_of(saves) == before  # no second campaign, nothing touched


def test_new_makes_the_close_name_all_the_same(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Saves(saves).create("Friday Fate", "fate")
    assert tussle(saves, "resolve", SCENARIO, "--record", "Fridy Fate", "--new") == 0
    assert names(saves) == ["Friday Fate", "Fridy Fate"]
    assert "recorded: Fridy Fate contest c1" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["Friday Fate", "Saturday Spirits"])
def test_the_exact_name_or_a_far_one_records_at_once(saves: Path, name: str) -> None:
    Saves(saves).create("Friday Fate", "fate")
    assert tussle(saves, "resolve", SCENARIO, "--record", name) == 0
    assert names(saves) == sorted({"Friday Fate", name})
    files = Saves(saves).find(name)
    assert files is not None and len(files.load().contests) == 1
