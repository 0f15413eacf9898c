"""Issue 13, FORGE: armor used up stays used up (A-I4), and Current Trauma at 0 or below
is dying (rules §3.4, [I15]).

Damage is worked by hand from rules §3.4: the tens digit of the attack roll times the
weapon multiplier; armor absorbs min(DV, damage, capacity left); the rest is trauma.
"""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from core.engine import apply
from core.errors import RuleError
from core.model import ResolveExchange, RollDice
from core.rules import find_system
from core.scenario import resolve
from core.systems.forge.events import ChooseReaction, SetStage
from core.systems.forge.state import ForgeContest, ForgeOptions, ForgeParticipant, new_contest

COMBAT = ForgeOptions(combat=True)


def knight(capacity: int | None, current_trauma: int | None = None) -> ForgeParticipant:
    return ForgeParticipant(
        name="Knight",
        side="Knight",
        target=30,
        armor=10,
        armor_capacity=capacity,
        current_trauma=current_trauma,
    )


ORC = ForgeParticipant(name="Orc", side="Orc", target=60, multiplier=5)


def hit(c: ForgeContest, roll: int) -> tuple[ForgeContest, Any]:
    """The Orc attacks the Knight with ``roll``; the Knight's dodge (99) fails."""
    commands = [SetStage(actor="Orc", reactor="Knight"), RollDice(who="Orc", faces=(roll,))]
    if c.participant("Knight").current_trauma is None or not c.dying("Knight"):
        commands.append(RollDice(who="Knight", faces=(99,)))
    events: list[Any] = []
    for command in [*commands, ResolveExchange()]:
        new, made = apply(c, command)
        assert isinstance(new, ForgeContest)
        c = new
        events.extend(made)
    return c, find_system("forge").exchange_json(events[-1])


def test_capacity_zero_absorbs_nothing() -> None:
    # 45 -> 4 x 5 = 20 damage; armor used up (0 left): 0 absorbed, 20 trauma.
    c, out = hit(new_contest([knight(0), ORC], COMBAT), 45)
    assert (out["damage"], out["absorbed"], out["trauma"], out["armor_capacity"]) == (20, 0, 20, 0)
    assert c.trauma["Knight"] == 20


def test_no_capacity_is_unlimited_armor() -> None:
    # 45 -> 20 damage, DV 10: 10 absorbed, 10 trauma, and again: unlimited stays unlimited.
    c, out = hit(new_contest([knight(None), ORC], COMBAT), 45)
    assert (out["absorbed"], out["trauma"], out["armor_capacity"]) == (10, 10, None)
    c, out = hit(c, 45)
    assert (out["absorbed"], out["trauma"], out["armor_capacity"]) == (10, 10, None)


def test_armor_used_up_stays_used_up_across_three_contests() -> None:
    # Contest 1: capacity 15; 45 -> 20 damage: 10 absorbed (5 left), then 35 -> 15
    # damage: min(10, 15, 5) = 5 absorbed, 10 trauma, 0 left.
    c, out = hit(new_contest([knight(15), ORC], COMBAT), 45)
    assert (out["absorbed"], out["armor_capacity"]) == (10, 5)
    c, out = hit(c, 35)
    assert (out["absorbed"], out["trauma"], out["armor_capacity"]) == (5, 10, 0)
    for _ in range(2):  # contests 2 and 3 start from what the last one left: 0
        left = c.armor_left["Knight"]
        assert left == 0
        c, out = hit(new_contest([knight(left), ORC], COMBAT), 45)
        assert (out["absorbed"], out["trauma"], out["armor_capacity"]) == (0, 20, 0)


SCENARIO: dict[str, Any] = {
    "system": "forge",
    "options": {"combat": True},
    "participants": [
        {"name": "Knight", "target": 30, "armor": 10, "armor_capacity": 0},
        {"name": "Orc", "target": 60, "multiplier": 5},
    ],
    "exchanges": [{"actor": "Orc", "rolls": {"Orc": 45, "Knight": 99}}],
}


def test_a_scenarios_zero_is_still_unlimited() -> None:
    # scenario.md: armor_capacity [0], "0 means unlimited": 20 damage, 10 absorbed.
    out = resolve(SCENARIO).to_json()
    assert (out["exchanges"][0]["absorbed"], out["armor_capacity"]["Knight"]) == (10, None)
    assert "dying" not in out  # Current Trauma is not tracked in scenarios


def test_current_trauma_at_zero_or_below_is_dying() -> None:
    # Current Trauma 25, unlimited armor. 45 -> 20 damage, 10 absorbed, 10 trauma: 15 left.
    c, out = hit(new_contest([knight(None, current_trauma=25), ORC], COMBAT), 45)
    assert (out["current_trauma"], out["dying"]) == (15, False)
    # 55 -> 5 x 5 = 25 damage, 10 absorbed, 15 trauma: 15 - 15 = 0, dying (0 or below).
    c, out = hit(c, 55)
    assert (out["current_trauma"], out["dying"]) == (0, True)
    assert c.dying("Knight")
    final = find_system("forge").final_json(c)
    assert (final["current_trauma"], final["dying"]) == ({"Knight": 0}, ["Knight"])


def test_a_dying_character_cannot_act_nor_dodge() -> None:
    c, _ = hit(new_contest([knight(None, current_trauma=5), ORC], COMBAT), 45)  # 10 trauma
    assert c.current_trauma("Knight") == -5
    with pytest.raises(RuleError, match="Knight is dying"):
        apply(c, SetStage(actor="Knight", reactor="Orc"))
    # Attacked again, the Knight cannot dodge: no roll is asked for, the armor absorbs.
    c, _ = apply(c, SetStage(actor="Orc", reactor="Knight"))
    c, _ = apply(c, ChooseReaction(reaction="dodge"))
    c, _ = apply(c, RollDice(who="Orc", faces=(25,)))  # 2 x 5 = 10: 10 absorbed, 0 trauma
    c, events = apply(c, ResolveExchange())
    out = find_system("forge").exchange_json(events[-1])
    assert (out["reaction"], out["absorbed"], out["trauma"], out["dying"]) == (
        "absorb",
        10,
        0,
        True,
    )


def test_a_character_dying_before_the_contest_cannot_take_part() -> None:
    with pytest.raises(RuleError, match="Knight is dying"):
        new_contest([knight(None, current_trauma=0), ORC], COMBAT)


def test_the_log_says_who_is_dying() -> None:
    c = new_contest([knight(None, current_trauma=5), ORC], COMBAT)
    c, _ = apply(c, SetStage(actor="Orc", reactor="Knight"))
    c, _ = apply(c, RollDice(who="Orc", faces=(45,)))
    c, _ = apply(c, RollDice(who="Knight", faces=(99,)))
    c, events = apply(c, ResolveExchange())
    lines = find_system("forge").describe(events[-1])  # type: ignore[arg-type]
    assert lines[-1] == "  Knight is dying (current trauma -5)"


def stage(c: ForgeContest, actor: str, reactor: str, rolls: tuple[int, int]) -> list[str]:
    """One stage, played; the log's lines for it."""
    for command in (
        SetStage(actor=actor, reactor=reactor),
        RollDice(who=actor, faces=(rolls[0],)),
        RollDice(who=reactor, faces=(rolls[1],)),
    ):
        c, _ = apply(c, command)  # type: ignore[assignment]
    _, made = apply(c, ResolveExchange())
    return find_system("forge").describe(made[-1])  # type: ignore[arg-type]


def test_the_log_shows_armor_left_only_for_armor() -> None:
    # The Knight's used-up armor (DV 10, 0 left) shows; the Orc has no armor to use up,
    # whatever capacity it was given. Orc 45 -> 4 x 5 = 20 damage, nothing absorbed.
    c = new_contest([knight(0), replace(ORC, armor_capacity=0)], COMBAT)
    lines = stage(c, "Orc", "Knight", (45, 99))
    assert lines[-1] == "  Knight takes 20: 0 absorbed, 20 trauma, armor 0 left"
    # Knight 25 (target 30) -> 2 x 1 = 2 damage; the Orc's dodge 99 fails.
    lines = stage(c, "Knight", "Orc", (25, 99))
    assert lines[-1] == "  Orc takes 2: 0 absorbed, 2 trauma"
