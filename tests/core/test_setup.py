"""Building a system's starting contest from roster picks (the contest setup screen)."""

from __future__ import annotations

import pytest

from core.campaign.actions import Campaign
from core.campaign.log import Character, StartContest
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.errors import RuleError
from core.systems.fate.character import FateCharacter
from core.systems.fate.scoring import FateOptions
from core.systems.fate.state import Aspect, FateContest, FateParticipant, scene
from core.systems.forge.character import ForgeCharacter
from core.systems.forge.state import ForgeContest, ForgeParticipant
from core.systems.heroquest.character import HeroQuestCharacter
from core.systems.heroquest.state import HQContest, HQParticipant

CYNERE = Character(
    name="Cynere",
    ratings={"Athletics": 4, "Fight": 4},
    sheet=FateCharacter(
        aspects=("I've Got Zird's Back", "Infamous Girl with Sword"), fate_points=3
    ),
)
TERAN = Character(
    name="Teran",
    kind="npc",
    ratings={"Lore": 3, "Athletics": 2},
    sheet=FateCharacter(fate_points=1),
)
ZIRD = Character(name="Zird", ratings={"Lore": 5}, sheet=FateCharacter(aspects=("Arcane Scholar",)))
FATE_ROSTER = {c.name: c for c in (CYNERE, TERAN, ZIRD)}

TRIPITAKA = Character(
    name="Tripitaka",
    ratings={"Sword and Shield": 24},
    sheet=HeroQuestCharacter(hero_points=3, vitality=1),
)
GHOUL = Character(name="Ghoul", kind="npc", ratings={"Claws": 17})
HQ_ROSTER = {c.name: c for c in (TRIPITAKA, GHOUL)}

JOSEF = Character(name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4))
BOBBY = Character(
    name="Bobby",
    kind="npc",
    ratings={"Brawling": 40},
    sheet=ForgeCharacter(multiplier=5, max_damage=30, armor=10, armor_capacity=100),
)
FORGE_ROSTER = {c.name: c for c in (JOSEF, BOBBY)}


# -- Fate -----------------------------------------------------------------------------------


def test_fate_participants_roll_the_named_skill_with_their_fate_points() -> None:
    contest = build_contest(
        "fate",
        FATE_ROSTER,
        [
            Pick(character="Cynere", side="Heroes", rating="Athletics"),
            Pick(character="Teran", side="Teran", rating="Lore"),
        ],
    )
    assert isinstance(contest, FateContest)
    assert contest.participants == (
        FateParticipant(name="Cynere", side="Heroes", skill=4, fate_points=3),
        FateParticipant(name="Teran", side="Teran", skill=3, fate_points=1),
    )
    assert contest.victories == {"Heroes": 0, "Teran": 0}
    assert contest.n == 0
    assert not contest.finished


@pytest.mark.parametrize("rating", ["Burglary", None])
def test_a_fate_skill_the_character_lacks_is_mediocre(rating: str | None) -> None:
    contest = build_contest(
        "fate",
        FATE_ROSTER,
        [
            Pick(character="Cynere", side="A", rating="Fight"),
            Pick(character="Teran", side="B", rating=rating),
        ],
    )
    assert isinstance(contest, FateContest)
    assert contest.fate_participant("Teran").skill == 0
    assert contest.fate_participant("Cynere").skill == 4


def test_character_aspects_are_owned_by_their_character_beside_situation_aspects() -> None:
    contest = build_contest(
        "fate",
        FATE_ROSTER,
        [
            Pick(character="Cynere", side="Cynere", rating="Athletics"),
            Pick(character="Zird", side="Cynere", rating="Lore"),
            Pick(character="Teran", side="Teran", rating="Lore"),
        ],
        situation_aspects=("Muddy Ground", "Crowded Market"),
    )
    assert isinstance(contest, FateContest)
    assert set(contest.aspects) == {
        Aspect(name="Muddy Ground"),
        Aspect(name="Crowded Market"),
        Aspect(name="I've Got Zird's Back", owner="Cynere"),
        Aspect(name="Infamous Girl with Sword", owner="Cynere"),
        Aspect(name="Arcane Scholar", owner="Zird"),
    }
    assert len(contest.aspects) == 5
    assert all(a.free_invokes == 0 and a.holder is None for a in contest.aspects)


def test_fate_options_are_passed_on() -> None:
    contest = build_contest(
        "fate",
        FATE_ROSTER,
        [Pick(character="Cynere", side="A"), Pick(character="Teran", side="B")],
        {"victories_needed": 2, "mode": "environment", "difficulty": 3},
    )
    assert isinstance(contest, FateContest)
    assert contest.options == FateOptions(victories_needed=2, mode="environment", difficulty=3)


def test_an_environment_contest_needs_a_difficulty() -> None:
    with pytest.raises(RuleError, match="difficulty"):
        build_contest(
            "fate",
            FATE_ROSTER,
            [Pick(character="Cynere", side="A"), Pick(character="Teran", side="B")],
            {"mode": "environment"},
        )


def test_a_built_contest_starts_in_a_campaign() -> None:
    campaign = Campaign(name="Setup", system="fate")
    contest = build_contest(
        "fate", FATE_ROSTER, [Pick(character="Cynere", side="A"), Pick(character="Teran", side="B")]
    )
    campaign.apply(campaign.decide(StartContest(title="Race", contest=contest)))
    # As a scene of this campaign: its roster has no PC, so the GM's pool starts at 0 and
    # may pay for both (Fate Core, "The GM and fate points").
    assert isinstance(contest, FateContest)
    assert campaign.contest("c1").state == scene(contest, 0, frozenset({"Cynere", "Teran"}))


# -- HeroQuest ------------------------------------------------------------------------------


def test_heroquest_participants_copy_rating_vitality_and_hero_points() -> None:
    contest = build_contest(
        "heroquest",
        HQ_ROSTER,
        [
            Pick(character="Tripitaka", side="Heroes", rating="Sword and Shield"),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
        {"chained": True},
    )
    assert isinstance(contest, HQContest)
    assert contest.participants == (
        HQParticipant(name="Tripitaka", side="Heroes", rating=24, vitality=1, hero_points=3),
        HQParticipant(name="Ghoul", side="Ghouls", rating=17, vitality=0, hero_points=0),
    )
    assert contest.hero_points_left == {"Tripitaka": 3, "Ghoul": 0}
    assert contest.options.chained


@pytest.mark.parametrize("rating", ["Ghost Lore", None])
def test_no_relevant_heroquest_ability_rolls_against_6(rating: str | None) -> None:
    """rules.md §2.2: "No relevant ability: base TN 6"."""
    contest = build_contest(
        "heroquest",
        HQ_ROSTER,
        [
            Pick(character="Tripitaka", side="Heroes", rating=rating),
            Pick(character="Ghoul", side="Ghouls", rating="Claws"),
        ],
    )
    assert isinstance(contest, HQContest)
    assert contest.hq_participant("Tripitaka").rating == 6
    assert contest.target("Tripitaka") == 7  # 6, plus Tripitaka's vitality of 1


# -- FORGE ----------------------------------------------------------------------------------


def test_forge_participants_copy_target_weapon_and_armor() -> None:
    contest = build_contest(
        "forge",
        FORGE_ROSTER,
        [
            Pick(character="Josef", side="Josef", rating="Brawling"),
            Pick(character="Bobby", side="Bobby", rating="Brawling"),
        ],
        {"combat": True},
    )
    assert isinstance(contest, ForgeContest)
    assert contest.participants == (
        ForgeParticipant(name="Josef", side="Josef", target=50, multiplier=4),
        ForgeParticipant(
            name="Bobby",
            side="Bobby",
            target=40,
            multiplier=5,
            max_damage=30,
            armor=10,
            armor_capacity=100,
        ),
    )
    assert contest.options.combat
    assert contest.armor_left == {"Josef": None, "Bobby": 100}  # capacity 0 is unlimited


def test_a_forge_target_the_character_lacks_is_0() -> None:
    contest = build_contest(
        "forge",
        FORGE_ROSTER,
        [Pick(character="Josef", side="J", rating="Pistols"), Pick(character="Bobby", side="B")],
    )
    assert isinstance(contest, ForgeContest)
    assert [p.target for p in contest.participants] == [0, 0]


# -- what cannot be built -------------------------------------------------------------------


@pytest.mark.parametrize("system", ["fate", "heroquest", "forge"])
def test_the_same_character_cannot_take_part_twice(system: str) -> None:
    roster = {"fate": FATE_ROSTER, "heroquest": HQ_ROSTER, "forge": FORGE_ROSTER}[system]
    name = next(iter(roster))
    with pytest.raises(RuleError, match="only once"):
        build_contest(
            system, roster, [Pick(character=name, side="A"), Pick(character=name, side="B")]
        )


@pytest.mark.parametrize(
    "picks",
    [
        [],
        [Pick(character="Cynere", side="A")],
        [Pick(character="Cynere", side="A"), Pick(character="Teran", side="A")],
    ],
    ids=["nobody", "one character", "one side"],
)
def test_a_contest_needs_two_sides(picks: list[Pick]) -> None:
    with pytest.raises(RuleError, match="at least two sides"):
        build_contest("fate", FATE_ROSTER, picks)


def test_a_character_not_on_the_roster_is_refused_by_name() -> None:
    with pytest.raises(RuleError, match='no character "Landon" on the roster'):
        build_contest(
            "fate",
            FATE_ROSTER,
            [Pick(character="Cynere", side="A"), Pick(character="Landon", side="B")],
        )


def test_an_unknown_system_is_refused() -> None:
    with pytest.raises(RuleError, match="gurps"):
        build_contest(
            "gurps",
            FATE_ROSTER,
            [Pick(character="Cynere", side="A"), Pick(character="Teran", side="B")],
        )


@pytest.mark.parametrize(
    ("system", "roster"),
    [("fate", FATE_ROSTER), ("heroquest", HQ_ROSTER), ("forge", FORGE_ROSTER)],
)
def test_an_unknown_option_is_a_rule_error_not_a_crash(
    system: str, roster: dict[str, Character]
) -> None:
    a, b = list(roster)[:2]
    with pytest.raises(RuleError, match="house_rule"):
        build_contest(
            system,
            roster,
            [Pick(character=a, side="A"), Pick(character=b, side="B")],
            {"house_rule": 1},
        )
