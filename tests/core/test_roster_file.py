"""``tussle roster import`` and ``export`` (issue 16): characters from Fari character
files (both layouts), Foundry VTT "Fate Core Official" actors and TOML rosters, run
through the real console script; what is left out said; broken files refused whole; one
undoable action; and a roster that round-trips through its export.

Every expected value is read off the sample files in tests/data/roster/ (written from the
formats' descriptions), never copied from Tussle's output.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.campaign.actions import Campaign
from core.campaign.log import Character, ImportCharacters, Undo, describe_action
from core.campaign.roster_file import (
    Refused,
    RosterFileError,
    export_text,
    read_bytes,
    read_files,
    toml_string,
    toml_text,
)
from core.errors import RuleError
from core.saves.store import CampaignFiles, Saves
from core.systems.fate.character import FateCharacter
from core.systems.forge.character import ForgeCharacter
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet
from tests.helpers import HOLD_DEMO, ROSTER_FILES, act, files_of, in_process
from tests.plugins.installed import installed
from tests.strategies import examples

D = ROSTER_FILES


def tussle(saves: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``tussle --saves SAVES ARGV``: the command's entry point in this process (an
    interpreter per call cost more than the call; issue 25)."""
    return in_process("--saves", str(saves), *argv)


def empty(saves: Path, name: str, system: str) -> CampaignFiles:
    return Saves(saves).create(name, system)


def exported(saves: Path, name: str) -> dict[str, dict[str, Any]]:
    """The roster as ``tussle export`` shows it, by name (the system's fields, which the
    export shows in each character's ``sheet``, beside the others)."""
    run = tussle(saves, "export", name, "--format", "json")
    assert run.returncode == 0, run.stderr
    return {c["name"]: {**c, **c.get("sheet", {})} for c in json.loads(run.stdout)["participants"]}


def one_line(run: subprocess.CompletedProcess[str]) -> str:
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    return lines[0]


# -- Fari ----------------------------------------------------------------------------------------


def test_a_fari_sheet_in_the_earlier_layout_comes_in_with_what_it_leaves_out(saves: Path) -> None:
    empty(saves, "Reach", "fate")
    run = tussle(saves, "roster", "import", "Reach", str(D / "fari-v3-cynere.json"))
    assert run.returncode == 0, run.stderr
    cynere = exported(saves, "Reach")["Cynere"]
    # Skills with a value ("+4", "3", "4", "+2"); Academics and Will are empty: no skill.
    assert cynere["ratings"] == {"Athletics": 4, "Burglary": 3, "Fight": 4, "Notice": 2}
    # The main point counter: value 2, max 3.
    assert (cynere["fate_points"], cynere["refresh"]) == (2, 3)
    # The Aspects section's non-empty Text blocks, HTML entities read (&#39; is ').
    assert cynere["aspects"] == [
        "Infamous Girl with Sword",
        "Tempted by Shiny Things",
        "I've Got Zird's Back",
    ]
    left_out = [line for line in run.stdout.splitlines() if "left out" in line]
    for what in ("Stunt #1", "Notes"):
        assert sum(what in line for line in left_out) == 1, (what, run.stdout)
    # Stress and consequences come in (issue 28; tests/core/test_fate_sheet_stress.py
    # reads them): the empty stunt holds nothing, so nothing more is left out.
    assert len(left_out) == 2


def test_a_fari_sheet_in_the_current_layout_comes_in(saves: Path) -> None:
    empty(saves, "Reach", "fate")
    run = tussle(saves, "roster", "import", "Reach", str(D / "fari-current-zird.json"))
    assert run.returncode == 0, run.stderr
    zird = exported(saves, "Reach")["Zird the Arcane"]
    assert zird["ratings"] == {"Lore": 4, "Will": 3, "Deceive": -1}  # Athletics is empty
    assert (zird["fate_points"], zird["refresh"]) == (3, 2)  # main counter 3, max 2
    assert zird["aspects"] == ["Wizard for Hire", "Rivals in the Collegia Arcana"]
    assert zird["kind"] == "pc"
    for what in ("Mana", "Mental", "Scholar"):  # counter (left out), stress (kept), stunt
        assert what in run.stdout
    assert "Separator" not in run.stdout


# -- Foundry VTT -------------------------------------------------------------------------------


def test_a_foundry_actor_comes_in_with_its_stunts_and_tracks_reported(saves: Path) -> None:
    empty(saves, "Reach", "fate")
    run = tussle(saves, "roster", "import", "Reach", str(D / "foundry-landon.json"))
    assert run.returncode == 0, run.stderr
    landon = exported(saves, "Reach")["Landon"]
    # Ranks 4, 3 and "2"; Lore and Stealth at 0 are the same as no skill.
    assert landon["ratings"] == {"Fight": 4, "Physique": 3, "Athletics": 2}
    assert (landon["fate_points"], landon["refresh"]) == (2, 3)
    assert landon["aspects"] == ["Disgraced Knight of the Duchy", "Drinks & Brawls Too Much"]
    for what in ("2 skills at Mediocre", "Heavy Hitter", "Physical", "Black Eye", "biography"):
        assert what in run.stdout, what


def test_an_older_foundry_export_with_data_for_system_comes_in(saves: Path) -> None:
    empty(saves, "Reach", "fate")
    run = tussle(saves, "roster", "import", "Reach", str(D / "foundry-old-data.json"))
    assert run.returncode == 0, run.stderr
    wen = exported(saves, "Reach")["Old Man Wen"]
    assert wen["ratings"] == {"Lore": 5, "Will": 3}
    assert (wen["fate_points"], wen["refresh"]) == (1, 2)  # written as "1" and "2"
    assert wen["aspects"] == ["Hermit of the Misty Peak"]


# -- TOML rosters --------------------------------------------------------------------------------


def test_a_fate_toml_roster_comes_in(saves: Path) -> None:
    empty(saves, "Reach", "fate")
    run = tussle(saves, "roster", "import", "Reach", str(D / "party-fate.toml"))
    assert run.returncode == 0, run.stderr
    roster = exported(saves, "Reach")
    assert list(roster) == ["Cynere", "Teran the Swift"]
    cynere, teran = roster["Cynere"], roster["Teran the Swift"]
    assert cynere["ratings"] == {"Athletics": 4, "Fight": 4, "Burglary": 3}  # Good is +3
    assert (cynere["fate_points"], cynere["refresh"], cynere["kind"]) == (3, 3, "pc")
    assert cynere["aspects"] == ["Infamous Girl with Sword", "I've Got Zird's Back"]
    assert teran["ratings"] == {"Lore": 3, "Athletics": 2}
    assert (teran["kind"], teran["fate_points"], teran["aspects"]) == ("npc", 0, [])
    assert "left out" not in run.stdout


def test_a_heroquest_toml_roster_comes_in(saves: Path) -> None:
    empty(saves, "Grave", "heroquest")
    run = tussle(saves, "roster", "import", "Grave", str(D / "party-heroquest.toml"))
    assert run.returncode == 0, run.stderr
    roster = exported(saves, "Grave")
    tripitaka, sandy = roster["Tripitaka"], roster["Sandy"]
    # 4M is 4 + 20 = 24; 17 stays 17; 10M2 is 10 + 2 x 20 = 50 (rules §2.1).
    assert tripitaka["ratings"] == {"Sword and Shield": 24, "Ghost Lore": 17}
    assert (tripitaka["hero_points"], tripitaka["vitality"]) == (3, 1)
    assert tripitaka["adversity"] == ["hurt"]
    assert tripitaka["benefits"] == {"Ghost Lore": 3}
    assert sandy["ratings"] == {"Staff Fighting": 15, "Swimming": 50}
    assert (sandy["hero_points"], sandy["kind"]) == (2, "pc")
    assert "Sword and Shield 4M" in run.stdout  # the report writes ratings as the GM does


def test_a_forge_toml_roster_comes_in(saves: Path) -> None:
    empty(saves, "Alley", "forge")
    run = tussle(saves, "roster", "import", "Alley", str(D / "party-forge.toml"))
    assert run.returncode == 0, run.stderr
    roster = exported(saves, "Alley")
    josef, bobby = roster["Josef"], roster["Bobby"]
    assert josef["ratings"] == {"Brawling": 50, "Pistol": 45}  # "45%" is 45
    assert (josef["multiplier"], josef["max_damage"], josef["armor_capacity"]) == (4, None, None)
    assert bobby["ratings"] == {"Brawling": 40}
    assert (bobby["multiplier"], bobby["max_damage"]) == (5, 40)
    assert (bobby["armor"], bobby["armor_capacity"], bobby["trauma"]) == (10, 100, 12)


# -- refusals: one line, exit 2, nothing added ---------------------------------------------------


@pytest.mark.parametrize(
    ("system", "sample", "place", "reason"),
    [
        ("fate", "fari-bad-skill.json", "skill “Shoot”", '"4X" is not a whole number'),
        (
            "heroquest",
            "heroquest-bad-rating.toml",
            'character 2 ("Ghast") abilities.Claws',
            '"4X" is not a rating',
        ),
        (
            "fate",
            "fate-half-point.toml",
            'character 1 ("Halfling") fate_points',
            "2.5 is not a whole number",
        ),
        ("fate", "broken.toml", "line 2, column 15", "Illegal character"),
        ("fate", "party-heroquest.toml", "system", "a HeroQuest roster; this campaign plays"),
        ("heroquest", "fari-v3-cynere.json", "", "a Fari character file, for Fate Core"),
        ("forge", "foundry-landon.json", "", "Foundry VTT “Fate Core Official” actor, for Fate"),
    ],
)
def test_a_broken_or_foreign_file_is_refused_whole_in_one_line(
    saves: Path, system: str, sample: str, place: str, reason: str
) -> None:
    files = empty(saves, "Camp", system)
    before = files_of(files.folder)
    run = tussle(saves, "roster", "import", "Camp", str(D / sample))
    assert run.returncode == 2
    line = one_line(run)
    assert line.startswith(f"{D / sample}: ")
    assert place in line and reason in line, line
    assert "Traceback" not in run.stderr and run.stdout == ""
    assert files_of(files.folder) == before  # nothing of it added (the Ghoul neither)


def test_several_files_are_all_or_nothing(saves: Path) -> None:
    files = empty(saves, "Reach", "fate")
    before = files_of(files.folder)
    run = tussle(
        saves,
        "roster",
        "import",
        "Reach",
        str(D / "fari-v3-cynere.json"),
        str(D / "fari-bad-skill.json"),
    )
    assert run.returncode == 2
    assert str(D / "fari-bad-skill.json") in one_line(run)
    assert files_of(files.folder) == before  # Cynere, fine on her own, did not go in either
    assert exported(saves, "Reach") == {}


def test_a_character_already_on_the_roster_needs_replace(saves: Path) -> None:
    files = empty(saves, "Reach", "fate")
    campaign = files.load()
    act(
        campaign,
        files,
        ImportCharacters(
            characters=(Character(name="Cynere", sheet=FateCharacter(fate_points=9)),)
        ),
    )
    before = files_of(files.folder)
    run = tussle(saves, "roster", "import", "Reach", str(D / "party-fate.toml"))
    assert run.returncode == 2
    assert '"Cynere" is already on the roster (--replace replaces it)' in one_line(run)
    assert files_of(files.folder) == before  # Teran, new, did not go in either

    run = tussle(saves, "roster", "import", "Reach", str(D / "party-fate.toml"), "--replace")
    assert run.returncode == 0, run.stderr
    assert "Cynere (PC, replaced)" in run.stdout and "Teran the Swift (NPC, added)" in run.stdout
    roster = exported(saves, "Reach")
    assert roster["Cynere"]["fate_points"] == 3  # the file's, not the 9 it replaced


def test_the_same_character_in_two_files_is_refused(saves: Path) -> None:
    empty(saves, "Reach", "fate")
    run = tussle(
        saves,
        "roster",
        "import",
        "Reach",
        str(D / "fari-v3-cynere.json"),
        str(D / "party-fate.toml"),
    )
    assert run.returncode == 2
    assert '"Cynere" is in' in one_line(run)
    assert exported(saves, "Reach") == {}


def test_an_unknown_campaign_and_a_missing_file_are_one_line_each(saves: Path) -> None:
    run = tussle(saves, "roster", "import", "Nowhere", str(D / "party-fate.toml"))
    assert run.returncode == 2 and "no campaign called" in one_line(run)
    empty(saves, "Reach", "fate")
    run = tussle(saves, "roster", "import", "Reach", str(D / "missing.toml"))
    assert run.returncode == 2 and "missing.toml: cannot be read" in one_line(run)


def test_a_campaign_open_in_the_dashboard_is_not_imported_into(saves: Path) -> None:
    """The dashboard holds its campaign: the command says so (exit 3), adds nothing, and
    points to the roster screen's import."""
    files = empty(saves, "Fate demo", "fate")
    before = files_of(files.folder)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_DEMO, str(files.folder)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        run = tussle(saves, "roster", "import", "Fate demo", str(D / "party-fate.toml"))
    finally:
        holder.kill()
        holder.wait()
    assert run.returncode == 3
    line = one_line(run)
    assert f"pid {holder.pid}" in line and "roster screen" in line
    assert files_of(files.folder) == before


# -- one undoable action -------------------------------------------------------------------------


def test_an_import_is_one_action_and_one_undo_takes_it_all_back(saves: Path) -> None:
    files = empty(saves, "Reach", "fate")
    run = tussle(
        saves,
        "roster",
        "import",
        "Reach",
        str(D / "fari-v3-cynere.json"),
        str(D / "foundry-landon.json"),
    )
    assert run.returncode == 0, run.stderr
    files = CampaignFiles(files.folder)  # read afresh: another process wrote it
    campaign = files.load()
    assert list(campaign.roster) == ["Cynere", "Landon"]
    assert len(campaign.done) == 1  # one action in the log
    command = campaign.actions[campaign.done[0]].command
    assert describe_action(command) == (
        "import of 2 characters from fari-v3-cynere.json, foundry-landon.json"
    )
    act(campaign, files, Undo())
    assert campaign.roster == {}
    assert CampaignFiles(files.folder).load().roster == {}  # and so it stays, saved


def test_a_replace_undone_gives_back_the_character_it_replaced() -> None:
    campaign = Campaign(name="Reach", system="fate")
    old = Character(name="Cynere", sheet=FateCharacter(fate_points=9))
    campaign.act(ImportCharacters(characters=(old,)))
    new = Character(name="Cynere", ratings={"Fight": 4})
    campaign.act(ImportCharacters(characters=(new,), replace=True))
    assert campaign.roster == {"Cynere": new}
    campaign.act(Undo())
    assert campaign.roster == {"Cynere": old}
    with pytest.raises(RuleError, match="already on the roster"):
        campaign.decide(ImportCharacters(characters=(new,)))


# -- export --------------------------------------------------------------------------------


def test_export_writes_a_file_that_imports_into_an_empty_campaign_as_it_was(saves: Path) -> None:
    empty(saves, "Reach", "fate")
    tussle(saves, "roster", "import", "Reach", str(D / "fari-v3-cynere.json"))
    out = saves.parent / "reach.toml"
    run = tussle(saves, "roster", "export", "Reach", "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert 'exported 1 character of "Reach"' in run.stdout
    assert tomllib.loads(out.read_text())["characters"][0]["skills"]["Athletics"] == 4
    empty(saves, "Copy", "fate")
    assert tussle(saves, "roster", "import", "Copy", str(out)).returncode == 0
    assert exported(saves, "Copy") == exported(saves, "Reach")


def test_a_plug_in_without_roster_files_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plug-in that names no ``ROSTER_FILE`` and no sheet type of its own (the coin
    race, its ``CHARACTER`` taken away): its campaigns have no roster files, said in
    words; the other systems' files are still told apart."""
    with installed(tmp_path / "site"):
        from tests.plugins.coin_race.sheet import CoinSystemSheet

        monkeypatch.setattr(CoinSystemSheet, "CHARACTER", None)
        with pytest.raises(RuleError, match=r"^Coin race has no roster files"):
            export_text("coin", [])
        with pytest.raises(RuleError, match=r"^Coin race has no roster files"):
            read_bytes(b'[[characters]]\nname = "Ann"\n', "coin")
        fari = (D / "fari-v3-cynere.json").read_bytes()
        with pytest.raises(Refused, match="a Fari character file, for Fate Core campaigns"):
            read_bytes(fari, "heroquest")


def test_a_plug_ins_own_sheet_is_its_roster_table(tmp_path: Path) -> None:
    """The coin race names no roster file module: its table is its sheet type's fields
    (``luck``, ``refresh``), each a whole number within the limit declared on it (a
    ``Count``: 0 or more), written out and read back the same."""
    from tests.plugins.coin_race.rules import CoinSheet

    with installed(tmp_path / "site"):
        (ann, bob) = read_bytes(
            b'[[characters]]\nname = "Ann"\nluck = 1\nrefresh = 2\n'
            b'[[characters]]\nname = "Bob"\nkind = "npc"\n',
            "coin",
        )
        assert ann.character.sheet == CoinSheet(luck=1, refresh=2)
        assert bob.character.sheet == CoinSheet(luck=0, refresh=0)
        written = export_text("coin", [ann.character, bob.character])
        assert 'name = "Ann"\nkind = "pc"\nluck = 1\nrefresh = 2\n' in written
        assert [a.character for a in read_bytes(written.encode(), "coin")] == [
            ann.character,
            bob.character,
        ]
        with pytest.raises(Refused, match=r'character 1 \("Ann"\) luck: must be at least 0'):
            read_bytes(b'[[characters]]\nname = "Ann"\nluck = -1\n', "coin")
        with pytest.raises(Refused, match=r"not a key Tussle reads here \(try luck, refresh\)"):
            read_bytes(b'[[characters]]\nname = "Ann"\nluk = 1\n', "coin")


# -- the TOML emitter ----------------------------------------------------------------------

HOSTILE = [
    'Quote " and \\ backslash',
    "Tab\tNewline\nCR\rBell\x07Esc\x1b[31mDEL\x7fC1\x9b",
    "Ünïcödé ✦ 漢字 🎲",
    '\'single\' and """triple"""',
    "= [x] # not a comment",
    "",
    " ",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_toml_strings_round_trip_through_tomllib(name: str) -> None:
    written = toml_text("fate", [{"name": name, "skills": {name: 1, "plain": 2}}])
    read = tomllib.loads(written)
    assert read["characters"][0]["name"] == name
    assert read["characters"][0]["skills"] == {name: 1, "plain": 2}
    assert all(ord(c) >= 0x20 or c == "\n" for c in written)  # no raw control character
    assert not any(0x7F <= ord(c) <= 0x9F for c in written)


def test_a_lone_surrogate_is_written_out_not_written_raw() -> None:
    written = toml_string("a\ud800b")
    assert written == '"a\\\\ud800b"'
    assert tomllib.loads("x = " + written)["x"] == "a\\ud800b"


def test_a_name_with_a_control_character_is_refused_at_import() -> None:
    text = toml_text("fate", [{"name": "Esc\x1b[2J"}])
    with pytest.raises(Refused, match="control character"):
        read_bytes(text.encode(), "fate")


def test_an_unknown_key_is_refused_not_dropped() -> None:
    text = '[[characters]]\nname = "Cynere"\nfate_pionts = 3\n'
    with pytest.raises(Refused, match="fate_pionts: not a key Tussle reads here"):
        read_bytes(text.encode(), "fate")


def test_read_files_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[characters]]\nname = "X"\nrefresh = -1\n')
    with pytest.raises(
        RosterFileError,
        match=r"bad\.toml: character 1 \(\"X\"\) refresh: must be at least 0, got -1",
    ):
        read_files([bad], "fate", {}, replace=False)


@pytest.mark.parametrize(
    ("system", "line", "problem"),
    [
        # The limits declared on the roster's Character (core.limits), in their words.
        ("fate", "fate_points = -3", "fate_points: must be at least 0, got -3"),
        ("heroquest", "hero_points = -1", "hero_points: must be at least 0, got -1"),
        ("forge", "multiplier = 0", "multiplier: must be at least 1, got 0"),
        ("forge", "armor = -5", "armor: must be at least 0, got -5"),
    ],
)
def test_a_roster_file_is_held_to_the_limits_the_forms_hold(
    system: str, line: str, problem: str
) -> None:
    text = f'[[characters]]\nname = "X"\n{line}\n'
    with pytest.raises(Refused, match=problem):
        read_bytes(text.encode(), system)


def test_a_fari_sheet_with_negative_fate_points_is_refused_naming_the_character() -> None:
    """A foreign file goes through the same check as a TOML roster: Cynere's Fari sheet
    with her fate point counter at -2."""
    data = json.loads((D / "fari-v3-cynere.json").read_text())
    counters = [
        block
        for page in data["pages"]
        for section in page["sections"]
        for block in section["blocks"]
        if block.get("meta", {}).get("isMainPointCounter")
    ]
    assert len(counters) == 1, "the sheet has one main point counter: her fate points"
    counters[0]["value"] = "-2"
    with pytest.raises(Refused, match=r"must be at least 0, got -2"):
        read_bytes(json.dumps(data).encode(), "fate")


# -- the round trip: a Hypothesis property over all three systems -------------------------

names = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12).filter(
    lambda s: s.strip() != ""
)
counts = st.integers(0, 5)


@st.composite
def fate_characters(draw: st.DrawFn, name: str) -> Character:
    return Character(
        name=name,
        kind=draw(st.sampled_from(("pc", "npc"))),
        ratings=draw(st.dictionaries(names, st.integers(-2, 8), max_size=4)),
        sheet=FateCharacter(
            aspects=tuple(draw(st.lists(names, max_size=3, unique=True))),
            fate_points=draw(counts),
            refresh=draw(counts),
        ),
    )


@st.composite
def heroquest_characters(draw: st.DrawFn, name: str) -> Character:
    abilities = draw(st.dictionaries(names, st.integers(1, 80), max_size=4))
    states = st.sampled_from(("hurt", "impaired", "injured", "dying", "dead"))
    return Character(
        name=name,
        kind=draw(st.sampled_from(("pc", "npc"))),
        ratings=abilities,
        sheet=HeroQuestCharacter(
            hero_points=draw(counts),
            vitality=draw(st.integers(-2, 3)),
            adversity=tuple(draw(st.lists(states, max_size=3))),
            benefits=draw(st.dictionaries(names, st.integers(1, 9), max_size=2)),
        ),
    )


@st.composite
def forge_characters(draw: st.DrawFn, name: str) -> Character:
    return Character(
        name=name,
        kind=draw(st.sampled_from(("pc", "npc"))),
        ratings=draw(st.dictionaries(names, st.integers(-60, 180), max_size=4)),
        sheet=ForgeCharacter(
            multiplier=draw(st.integers(1, 12)),
            max_damage=draw(st.none() | st.integers(0, 120)),
            armor=draw(st.integers(0, 30)),
            armor_capacity=draw(st.none() | st.integers(0, 60)),
            trauma=draw(st.integers(0, 40)),
        ),
    )


SHEETS = {"fate": fate_characters, "heroquest": heroquest_characters, "forge": forge_characters}


@st.composite
def rosters(draw: st.DrawFn) -> tuple[str, list[Character]]:
    system = draw(st.sampled_from(sorted(SHEETS)))
    who = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    return system, [draw(SHEETS[system](name)) for name in who]


@examples(1)
@given(rosters())
def test_an_exported_roster_imports_into_an_empty_campaign_the_same(
    drawn: tuple[str, list[Character]],
) -> None:
    system, characters = drawn
    campaign = Campaign(name="From", system=system)
    campaign.act(ImportCharacters(characters=tuple(characters)))
    text = export_text(system, campaign.roster.values(), "From")
    arrivals = read_bytes(text.encode("utf-8"), system)
    copy = Campaign(name="To", system=system)
    copy.act(ImportCharacters(characters=tuple(a.character for a in arrivals)))
    assert copy.roster == campaign.roster
    assert list(copy.roster) == list(campaign.roster)  # in the same order


def test_the_readmes_example_roster_reads_as_it_says() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("## Importing a party") :]
    start = section.index("```toml\n") + len("```toml\n")
    example = section[start : section.index("```", start)]
    (arrival,) = read_bytes(example.encode(), "heroquest")
    tripitaka = arrival.character
    assert (tripitaka.name, tripitaka.kind, hq_sheet(tripitaka).hero_points) == (
        "Tripitaka",
        "pc",
        3,
    )
    assert tripitaka.ratings == {"Sword and Shield": 24, "Ghost Lore": 17}  # 4M is 4 + 20
    assert hq_sheet(tripitaka).adversity == ("hurt",)
