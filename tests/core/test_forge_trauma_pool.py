"""Issue 24, item 2: the roster's Trauma pool (Maximum Trauma) and dying at 0 Current
Trauma (rules §3.4, [I15]: "Current Trauma ≤ 0 → dying"). A dying participant is out of
the contest: no actions (their rolls refused), and the next stage is not theirs to act in.

Damage is worked by hand from rules §3.4: tens digit × multiplier, no armor."""

from __future__ import annotations

import pytest

from core.campaign.log import Character
from core.campaign.roster_file import read_bytes
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.engine import apply
from core.errors import RuleError
from core.files.codec import decode, encode
from core.model import ResolveExchange, RollDice
from core.systems.forge.character import ForgeCharacter, forge_sheet
from core.systems.forge.events import SetStage
from core.systems.forge.stage import stage_roles
from core.systems.forge.state import ForgeContest

JOSEF = Character(name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4))
PICKS = [
    Pick(character="Josef", side="Josef", rating="Brawling"),
    Pick(character="Bobby", side="Bobby", rating="Brawling"),
]


def bobby(pool: int | None, taken: int) -> Character:
    return Character(
        name="Bobby",
        kind="npc",
        ratings={"Brawling": 40},
        sheet=ForgeCharacter(trauma_pool=pool, trauma=taken),
    )


def contest(pool: int | None, taken: int) -> ForgeContest:
    roster = {"Josef": JOSEF, "Bobby": bobby(pool, taken)}
    c = build_contest("forge", roster, PICKS, {"combat": True})
    assert isinstance(c, ForgeContest)
    return c


def test_a_contest_starts_from_the_pool_less_the_trauma_taken() -> None:
    assert contest(40, 12).participant("Bobby").current_trauma == 28  # 40 - 12
    assert contest(None, 12).participant("Bobby").current_trauma is None  # not tracked


def test_a_character_at_zero_current_trauma_cannot_join_a_contest() -> None:
    with pytest.raises(RuleError, match="Bobby is dying"):
        contest(20, 20)  # 20 - 20 = 0: dying


def test_a_dying_participant_is_out_of_the_contest() -> None:
    c = contest(20, 5)  # Current Trauma 15
    # Josef 45 <= 50: 4 x 4 = 16 damage; Bobby's dodge 55 > 40 fails: 15 - 16 = -1.
    for command in (
        SetStage(actor="Josef", reactor="Bobby"),
        RollDice(who="Josef", faces=(45,)),
        RollDice(who="Bobby", faces=(55,)),
        ResolveExchange(),
    ):
        c, _ = apply(c, command)  # type: ignore[assignment]
    assert c.dying("Bobby")
    # Roles usually swap (§3.3), but a dying Bobby takes no actions: Josef acts again.
    assert stage_roles(c) == ("Josef", "Bobby")
    with pytest.raises(RuleError, match=r"Bobby is dying .*out of the contest, no actions"):
        apply(c, RollDice(who="Bobby", faces=(10,)))


def test_the_pool_survives_a_save_and_old_saves_have_none() -> None:
    b = bobby(40, 12)
    assert decode(encode(b), Character) == b
    old = encode(bobby(None, 12))
    del old["sheet"]["trauma_pool"]  # a save written before the field
    assert forge_sheet(decode(old, Character)).trauma_pool is None


def test_a_roster_file_carries_the_pool() -> None:
    raw = (
        b'[[characters]]\nname = "Bobby"\ntrauma_pool = 40\ntrauma = 12\n'
        b"[characters.targets]\nBrawling = 40\n"
    )
    (arrival,) = read_bytes(raw, "forge", "bobby.toml")
    sheet = forge_sheet(arrival.character)
    assert (sheet.trauma_pool, sheet.trauma) == (40, 12)
