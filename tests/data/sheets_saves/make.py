"""How tests/data/sheets_saves was made, by main at 75393f7 (before each built-in system's
character data moved into its own sheet, issue 26 item 1), from a clean worktree of it:
``PYTHONPATH=. python tests/data/sheets_saves/make.py tests/data/sheets_saves/saves``,
then ``tussle --saves saves export NAME -o export/NAME.json`` and ``tussle --saves saves
roster export NAME -o roster/NAME.toml`` of each campaign, the exports written compact
(``json.dumps(doc, separators=(",", ":"), ensure_ascii=False)``), and the lock files taken
out.

Today's three demos, and a long-ish campaign of each system whose roster holds the fields
a sheet keeps (Fate refresh and fate points, HeroQuest hero points, adversity by ability,
benefits and related abilities, FORGE multiplier, armor and its capacity, trauma and the
trauma pool): added, imported, updated by hand, written back after contests, refreshed at
sessions' starts; each long campaign past a snapshot (core.saves.snapshot.EVERY entries)."""

import random
import sys
from pathlib import Path

from core.campaign.actions import Campaign
from core.campaign.log import (
    AddCharacter,
    Character,
    ImportCharacters,
    StartSession,
    UpdateCharacter,
)
from core.cli.bench import fate_scenario, forge_scenario, heroquest_scenario
from core.cli.demo import create_demos
from core.cli.record import record
from core.saves.store import CampaignFiles, Saves
from core.scenario import resolve

saves = Path(sys.argv[1])
saves.mkdir(parents=True, exist_ok=True)
create_demos(Saves(saves))

ROSTERS = {
    "fate": (
        Character(
            name="Cynere",
            ratings={"Athletics": 4, "Fight": 3},
            aspects=("Infamous Girl With Sword", "Tempted by Shiny Things"),
            fate_points=3,
            refresh=3,
        ),
        Character(name="Teran", kind="npc", ratings={"Athletics": 3}, fate_points=2),
    ),
    "heroquest": (
        Character(
            name="Hero",
            ratings={"Sword": 24, "Riding": 17, "Shield": 15},
            hero_points=3,
            adversity=("Shaken",),
            benefits={"Sword": 3, "Riding": -2},
            adversity_of={"Riding": ("Lamed",)},
            related={"Sword": ("Shield",), "Shield": ("Sword",)},
        ),
        Character(name="Foe", kind="npc", ratings={"Claws": 17}, hero_points=0),
    ),
    "forge": (
        Character(
            name="Josef",
            ratings={"Brawling": 50, "Pistol": 45},
            multiplier=4,
            vitality=30,
            max_damage=60,
            armor=5,
            armor_capacity=200,
            trauma=2,
            trauma_pool=12,
        ),
        Character(
            name="Bobby",
            kind="npc",
            ratings={"Brawling": 40},
            multiplier=5,
            armor=10,
            armor_capacity=500,
            trauma_pool=8,
        ),
    ),
}
EXTRA = {
    "fate": Character(name="Landon", ratings={"Fight": 4}, fate_points=1, refresh=2),
    "heroquest": Character(
        name="Sandy", ratings={"Staff Fighting": 15}, hero_points=2, benefits={"Staff": 1}
    ),
    "forge": Character(name="Mara", ratings={"Pistol": 55}, multiplier=3, armor=3, trauma_pool=10),
}
SCENARIOS = {"fate": fate_scenario, "heroquest": heroquest_scenario, "forge": forge_scenario}
NAMES = {
    "fate": "Long Fate sheets",
    "heroquest": "Long HeroQuest sheets",
    "forge": "Long FORGE sheets",
}

for system, make in SCENARIOS.items():
    name = NAMES[system]
    campaign = Campaign(name=name, system=system)
    entries = [campaign.act(AddCharacter(character=c)) for c in ROSTERS[system]]
    entries.append(campaign.act(ImportCharacters(characters=(EXTRA[system],), source="extra.toml")))
    first = ROSTERS[system][0]
    entries.append(
        campaign.act(
            UpdateCharacter(
                name=first.name,
                character=first.__class__(
                    **{f: getattr(first, f) for f in first.__struct_fields__}
                    | {"ratings": {**first.ratings, "Notice": 2 if system == "fate" else 13}}
                ),
            )
        )
    )
    entries.append(campaign.act(StartSession(hero_points=3 if system == "heroquest" else None)))
    Saves(saves).create(name, system, entries)
    rng = random.Random(system)
    for n in range(4):
        scenario = make(60, rng)
        if system == "fate":
            scenario["participants"][0]["fate_points"] = 3
        record(resolve(scenario), Saves(saves), name, f"{system} {n + 1}")
        files = Saves(saves).find(name)
        assert files is not None
        files.lock.acquire(name, what="make")
        try:
            loaded = files.load()
            entry = loaded.act(StartSession(hero_points=3 if system == "heroquest" else None))
            files.append([entry])
        finally:
            files.lock.release()

for d in sorted(saves.iterdir()):
    if d.is_dir() and not d.name.startswith("."):
        files = CampaignFiles(d)
        files.lock.acquire(d.name, what="make")
        try:
            files.load()
        finally:
            files.lock.release()
print(sorted(p.name for p in saves.iterdir()))
