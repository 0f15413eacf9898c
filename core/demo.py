"""The three demo campaigns ``tussle`` creates on first run, one per system."""

from __future__ import annotations

from core.campaign import AddCharacter, Campaign, Character, StartContest
from core.setup import Pick, build_contest
from core.store import CampaignFiles, Saves

FATE_DEMO = "Fate demo"
HEROQUEST_DEMO = "HeroQuest demo"
FORGE_DEMO = "FORGE demo"

CYNERE = Character(
    name="Cynere",
    ratings={"Athletics": 4, "Fight": 4, "Burglary": 3},
    aspects=("I've Got Zird's Back",),
    fate_points=3,
    refresh=3,
)
TERAN = Character(name="Teran the Swift", kind="npc", ratings={"Lore": 3, "Athletics": 2})


def create_campaign(
    saves: Saves,
    name: str,
    system: str,
    characters: list[Character],
    title: str,
    picks: list[Pick],
    options: dict[str, object] | None = None,
    aspects: tuple[str, ...] = (),
) -> CampaignFiles:
    """A saved campaign with a roster and one contest ready to play, made through the
    campaign's own decide/apply and saved in one append."""
    files = saves.create(name, system)
    campaign = Campaign(name=name, system=system)
    entries = [campaign.act(AddCharacter(character=c)) for c in characters]
    contest = build_contest(system, campaign.roster, picks, options or {}, aspects)
    uses = {p.character: p.rating for p in picks if p.rating}
    entries.append(campaign.act(StartContest(title=title, contest=contest, uses=uses)))
    files.append(entries)
    return files


def create_demos(saves: Saves) -> None:
    """Create the demo campaigns that are missing."""
    if saves.find(FATE_DEMO) is None:
        create_campaign(
            saves,
            FATE_DEMO,
            "fate",
            [CYNERE, TERAN],
            "The race across the mud",
            [
                Pick(character="Cynere", side="Cynere", rating="Athletics"),
                Pick(character="Teran the Swift", side="Teran the Swift", rating="Lore"),
            ],
            {},
            ("Muddy Ground",),
        )
    if saves.find(HEROQUEST_DEMO) is None:
        create_campaign(
            saves,
            HEROQUEST_DEMO,
            "heroquest",
            [
                Character(
                    name="Tripitaka",
                    ratings={"Sword and Shield": 24, "Ghost Lore": 17},
                    hero_points=3,
                    vitality=1,
                ),
                Character(name="Ghoul", kind="npc", ratings={"Claws": 17}),
                Character(name="Sandy", ratings={"Staff Fighting": 15}, hero_points=3),
            ],
            "Ghouls in the graveyard",
            [
                Pick(character="Tripitaka", side="Heroes", rating="Sword and Shield"),
                Pick(character="Ghoul", side="Ghouls", rating="Claws"),
            ],
            {"chained": True},
        )
    if saves.find(FORGE_DEMO) is None:
        create_campaign(
            saves,
            FORGE_DEMO,
            "forge",
            [
                Character(name="Josef", ratings={"Brawling": 50}, multiplier=4),
                Character(
                    name="Bobby",
                    kind="npc",
                    ratings={"Brawling": 40},
                    multiplier=5,
                    armor=10,
                    armor_capacity=100,
                ),
            ],
            "Back-alley brawl",
            [
                Pick(character="Josef", side="Josef", rating="Brawling"),
                Pick(character="Bobby", side="Bobby", rating="Brawling"),
            ],
            {"combat": True},
        )
