"""Issue 13: FORGE saves of format 1 wrote armor with no capacity limit as capacity 0;
since format 2, 0 is armor used up (rules A-I4) and no limit is null. Opening, `tussle
check` and importing such a save upgrade it, so unlimited armor stays unlimited.

Damage worked by hand from rules §3.4: Josef's 35 is tens digit 3 × multiplier 4 = 12;
Bobby absorbs with armor DV 10: min(10, 12, capacity left) is taken, the rest is trauma.
Unlimited: 10 absorbed, 2 trauma. Used up (capacity 0): 0 absorbed, 12 trauma.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from core.campaign.actions import Campaign
from core.campaign.log import FORMAT_VERSION, AddCharacter, Character, Play, StartContest
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.model import EndContest, ResolveExchange, RollDice
from core.saves.store import CampaignFiles, Saves
from core.saves.transfer import export_campaign, import_campaign, read_export
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.forge.character import ForgeCharacter, forge_sheet
from core.systems.forge.events import ChooseReaction, SetStage
from core.systems.forge.state import ForgeContest
from core.systems.forge.upgrade import upgrade_entries
from tests.helpers import tussle

JOSEF = Character(name="Josef", ratings={"Combat": 50}, sheet=ForgeCharacter(multiplier=4, armor=5))
BOBBY = Character(
    name="Bobby", kind="npc", ratings={"Combat": 40}, sheet=ForgeCharacter(multiplier=5, armor=10)
)
PICKS = [
    Pick(character="Josef", side="Josef", rating="Combat"),
    Pick(character="Bobby", side="Bobby", rating="Combat"),
]
HIT = (
    SetStage(actor="Josef", reactor="Bobby"),
    ChooseReaction(reaction="absorb"),
    RollDice(who="Josef", faces=(35,)),
    ResolveExchange(),
)


def as_format_1(value: Any) -> Any:
    """What format 1 wrote: a capacity of no limit as 0 (and the format stamps 1), on a
    roster character holding its system's fields itself (no sheet before format 3)."""
    if isinstance(value, dict):
        out = {k: as_format_1(v) for k, v in value.items()}
        if out.get("@") == "campaign.Character" and "sheet" in out:
            out.update({k: v for k, v in out.pop("sheet").items() if k != "@"})
        if "armor_capacity" in out and out["armor_capacity"] is None:
            out["armor_capacity"] = 0
        if out.get("format") == FORMAT_VERSION and "app" in out:
            out["format"] = 1
        return out
    if isinstance(value, list):
        return [as_format_1(v) for v in value]
    return value


def old_campaign(saves: Path) -> CampaignFiles:
    """A FORGE campaign as format 1 saved it: Josef and Bobby on the roster, their armor
    without a limit, and one contest in which Josef's 35 hit Bobby (10 absorbed)."""
    campaign = Campaign(name="Old Forge", system="forge")
    files = Saves(saves).create("Old Forge", "forge")
    entries = [campaign.act(AddCharacter(character=c)) for c in (JOSEF, BOBBY)]
    contest = build_contest("forge", campaign.roster, PICKS, {"combat": True})
    entries.append(campaign.act(StartContest(title="Bar fight", contest=contest)))
    record = campaign.latest_contest
    assert record is not None
    entries.append(campaign.act(Play(contest_id=record.contest_id, commands=(*HIT, EndContest()))))
    files.append(entries)
    for path in [files.manifest_path, *sorted((files.folder / "log").glob("*.json"))]:
        path.write_text(json.dumps(as_format_1(json.loads(path.read_text()))))
    assert '"armor_capacity": 0' in files.segment_path(0).read_text()
    return files


def trauma_of_the_next_hit(campaign: Campaign) -> int:
    contest = build_contest("forge", campaign.roster, PICKS, {"combat": True})
    campaign.act(StartContest(title="Again", contest=contest))
    record = campaign.latest_contest
    assert record is not None
    campaign.act(Play(contest_id=record.contest_id, commands=HIT))
    state = campaign.contest(record.contest_id).state
    assert isinstance(state, ForgeContest)
    return state.trauma["Bobby"]


def test_opening_a_format_1_save_keeps_unlimited_armor_unlimited(saves: Path) -> None:
    files = old_campaign(saves)
    campaign = CampaignFiles(files.folder).load()
    assert forge_sheet(campaign.roster["Bobby"]).armor_capacity is None
    assert forge_sheet(campaign.roster["Josef"]).armor_capacity is None
    old = campaign.contest("c1").state
    assert isinstance(old, ForgeContest)
    assert old.trauma["Bobby"] == 2  # the old contest replays as it was played
    assert trauma_of_the_next_hit(campaign) == 2  # not 12: the armor has no limit
    manifest = json.loads(files.manifest_path.read_text())
    assert manifest["manifest"]["1"]["format"] == FORMAT_VERSION == 4
    assert re.search(r'"armor_capacity":\s*null', files.segment_path(0).read_text())
    assert [p.name for p in saves.iterdir() if ".backup-v1-" in p.name]  # the original kept


def test_tussle_check_upgrades_an_old_save_and_passes_it(saves: Path) -> None:
    files = old_campaign(saves)
    assert tussle(saves, "check", "Old Forge") == 0
    assert json.loads(files.manifest_path.read_text())["manifest"]["1"]["format"] == FORMAT_VERSION
    assert forge_sheet(CampaignFiles(files.folder).load().roster["Bobby"]).armor_capacity is None


def test_importing_an_old_export_upgrades_it(saves: Path, tmp_path: Path) -> None:
    files = old_campaign(saves)
    exported = as_format_1(export_campaign(CampaignFiles(files.folder)))  # upgraded on read
    exported["campaign_format"] = 1
    data = json.dumps(exported).encode()
    assert (
        forge_sheet(read_export(data, "old.json").campaign.roster["Bobby"]).armor_capacity is None
    )
    other = Saves(tmp_path / "other")
    import_campaign(other, data, "old.json", "Imported")
    found = other.find("Imported")
    assert found is not None
    campaign = found.load()
    assert forge_sheet(campaign.roster["Bobby"]).armor_capacity is None
    assert trauma_of_the_next_hit(campaign) == 2


def test_a_format_1_log_that_already_wrote_no_limit_as_null_is_left_as_it_is() -> None:
    # Written by a build that had the new meaning before the format said so: its 0 is
    # used up, and stays 0.
    entries: list[dict[str, Any]] = [
        {"@": "campaign.Character", "name": "A", "armor_capacity": None},
        {"@": "campaign.Character", "name": "B", "armor_capacity": 0},
    ]
    upgrade_entries(1, entries)
    assert [e["armor_capacity"] for e in entries] == [None, 0]
    old: list[dict[str, Any]] = [
        {"x": [{"@": "forge.ForgeParticipant", "armor_capacity": 0}]},
        {"@": "campaign.Character", "armor_capacity": 30},
    ]
    upgrade_entries(1, old)
    assert old == [
        {"x": [{"@": "forge.ForgeParticipant", "armor_capacity": None}]},
        {"@": "campaign.Character", "armor_capacity": 30},
    ]


def test_a_format_1_campaign_of_another_system_is_upgraded_and_checks(saves: Path) -> None:
    # Nothing of a Fate campaign changes meaning in format 2; format 3 moves Ana's fate
    # points into her Fate sheet: its manifest says format 3, and `tussle check` passes it.
    files = Saves(saves).create("Old Fate", "fate")
    campaign = Campaign(name="Old Fate", system="fate")
    files.append(
        [
            campaign.act(
                AddCharacter(character=Character(name="Ana", sheet=FateCharacter(fate_points=2)))
            )
        ]
    )
    for path in (files.manifest_path, files.segment_path(0)):
        path.write_text(json.dumps(as_format_1(json.loads(path.read_text()))))
    assert tussle(saves, "check", "Old Fate") == 0
    assert json.loads(files.manifest_path.read_text())["manifest"]["1"]["format"] == FORMAT_VERSION
    entry = json.loads(files.segment_path(0).read_text())["entries"]["1"]["entry"]
    # Written again in today's format: no tracks or slots of her own (Fate Core's, issue 28).
    fate = {
        "@": "fate.FateCharacter",
        "aspects": [],
        "fate_points": 2,
        "refresh": 0,
        "stress": [],
        "consequences": None,
    }
    assert entry["command"]["character"] == {
        "@": "campaign.Character",
        "name": "Ana",
        "kind": "pc",
        "ratings": {},
        "sheet": fate,
    }
    assert fate_sheet(CampaignFiles(files.folder).load().roster["Ana"]).fate_points == 2
