"""The demo campaigns made on first run: one per system, each ready to play."""

from __future__ import annotations

from pathlib import Path

from core.cli.demo import create_demos
from core.saves.store import Saves
from core.systems.fate.state import FateContest
from core.systems.forge.state import ForgeContest
from core.systems.heroquest.state import HQContest

FATE_DEMO, HEROQUEST_DEMO, FORGE_DEMO = "Fate demo", "HeroQuest demo", "FORGE demo"


def test_the_three_demos_are_made_once(saves: Path) -> None:
    store = Saves(saves)
    create_demos(store)
    create_demos(store)  # a second run finds them and makes no copies

    infos = {i.name: (i.system, i.entries, i.problem) for i in store.campaigns()}
    assert infos == {
        FATE_DEMO: ("fate", 3, None),  # two characters, one contest
        HEROQUEST_DEMO: ("heroquest", 4, None),  # three characters, one contest
        FORGE_DEMO: ("forge", 3, None),
    }


def test_the_fate_demo_is_cynere_against_teran_in_the_mud(saves: Path) -> None:
    store = Saves(saves)
    create_demos(store)
    files = store.find(FATE_DEMO)
    assert files is not None
    campaign = files.load()

    assert list(campaign.roster) == ["Cynere", "Teran the Swift"]
    record = campaign.contest("c1")
    contest = record.state
    assert isinstance(contest, FateContest)
    assert [(p.name, p.skill, p.fate_points) for p in contest.participants] == [
        ("Cynere", 4, 3),  # Athletics
        ("Teran the Swift", 3, 0),  # Lore
    ]
    assert {(a.name, a.owner) for a in contest.aspects} == {
        ("Muddy Ground", None),
        ("I've Got Zird's Back", "Cynere"),
    }
    assert dict(record.uses) == {"Cynere": "Athletics", "Teran the Swift": "Lore"}


def test_the_heroquest_and_forge_demos_start_their_contests(saves: Path) -> None:
    store = Saves(saves)
    create_demos(store)
    hq_files, forge_files = store.find(HEROQUEST_DEMO), store.find(FORGE_DEMO)
    assert hq_files is not None and forge_files is not None

    hq = hq_files.load().contest("c1").state
    assert isinstance(hq, HQContest)
    assert [(p.name, p.rating, p.vitality, p.hero_points) for p in hq.participants] == [
        ("Tripitaka", 24, 1, 3),
        ("Ghoul", 17, 0, 0),
    ]
    assert hq.options.chained

    brawl = forge_files.load().contest("c1").state
    assert isinstance(brawl, ForgeContest)
    assert [(p.name, p.target, p.multiplier, p.armor) for p in brawl.participants] == [
        ("Josef", 50, 4, 0),
        ("Bobby", 40, 5, 10),
    ]
    assert brawl.options.combat
