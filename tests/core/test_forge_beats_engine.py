"""FORGE combat rounds by beats through the engine (issue 29 item 2): the round is part of
the contest, each step a command decided and evolved by core.engine, saved under FORGE's
tags. Every figure is worked by hand from rules.md §3.4: "Beats" [I16] (PA 40+ beat 1,
11-20 beat 4; beats 1, 2, 4 action, 3, 5 reaction), "Actions" [I17] (attacks sent in an
action beat land in the target's reaction beat; one action or reaction a beat), damage
[I7] (tens × multiplier), armor [I8], trauma [I15], and A-I5 (the participation pattern,
a rule option). Josef: PA 45, target 50, ×4; Bobby: PA 15, target 40, ×5."""

from __future__ import annotations

from typing import Any

import pytest

from core.engine import apply, play
from core.errors import OutOfTurn, RuleError
from core.files.codec import decode, encode
from core.model import AnyContest, AnyEvent, Command, EndContest, ResolveExchange, RollDice
from core.rules.reading import ScenarioError
from core.scenario import resolve
from core.systems.forge.beats import (
    AttackSent,
    EndRound,
    HitLanded,
    LandHit,
    MoveIcon,
    NextBeat,
    SendAttack,
    SkipBeat,
    StartRound,
)
from core.systems.forge.events import SetStage
from core.systems.forge.rules import FORGE
from core.systems.forge.state import ForgeContest, ForgeOptions, ForgeParticipant, new_contest


def alley(pattern: str = "every_later_beat", bobby_trauma: int | None = None) -> ForgeContest:
    return new_contest(
        [
            ForgeParticipant(name="Josef", side="Josef", target=50, multiplier=4, agility=45),
            ForgeParticipant(
                name="Bobby",
                side="Bobby",
                target=40,
                multiplier=5,
                agility=15,
                armor=10,
                armor_capacity=100,
                current_trauma=bobby_trauma,
            ),
        ],
        ForgeOptions(combat=True, beat_pattern=pattern),  # type: ignore[arg-type]
    )


def run(contest: ForgeContest, *commands: Command) -> tuple[ForgeContest, list[Any]]:
    after, events = play(contest, list(commands))
    assert isinstance(after, ForgeContest)
    return after, list(events)


def test_a_round_starts_in_the_first_beat_anybody_acts_in() -> None:
    """Josef (PA 45) is in beat 1, Bobby (PA 15) in beat 4; beat 1 has Josef acting."""
    c, _ = run(alley(), StartRound())
    assert c.round is not None
    assert dict(c.round.icon_beats) == {"Josef": 1, "Bobby": 4}
    assert (c.round.number, c.round.beat, c.round.over) == (1, 1, False)


def test_an_unknown_agility_is_beat_4() -> None:
    """[I16]: beat 4 is the default when PA is unknown."""
    c = new_contest(
        [
            ForgeParticipant(name="A", side="A", target=50),
            ForgeParticipant(name="B", side="B", target=50, agility=35),
        ],
        ForgeOptions(combat=True),
    )
    c, _ = run(c, StartRound())
    assert c.round is not None and dict(c.round.icon_beats) == {"A": 4, "B": 2}
    assert c.round.beat == 2  # nobody acts in beat 1


def test_josef_and_bobby_s_round_from_the_actions_page() -> None:
    """[I17]: Josef hits in beat 1 (35: 3 × 4 = 12) and beat 2 (24: 8), misses in beat 4
    (57 > 50); Bobby hits in beat 4 (39: 3 × 5 = 15). All land in beat 5: Bobby's armor
    (DV 10, capacity 100) takes 10 of the 12 (2 trauma, capacity 90), then all 8 (0 trauma,
    capacity 82); Josef, no armor, takes the 15 as trauma."""
    c, events = run(
        alley(),
        StartRound(),
        SendAttack(attacker="Josef", target="Bobby", roll=35),
        NextBeat(),
        SendAttack(attacker="Josef", target="Bobby", roll=24),
        NextBeat(),  # beat 3: nothing lands in it, so beat 4
        SendAttack(attacker="Josef", target="Bobby", roll=57),
        SendAttack(attacker="Bobby", target="Josef", roll=39),
        NextBeat(),
        LandHit(target="Bobby"),
        LandHit(target="Bobby"),
        LandHit(target="Josef"),
        NextBeat(),
    )
    sent = [e.attack for e in events if isinstance(e, AttackSent)]
    assert [(a.sent_in, a.hit, a.damage, a.lands_in) for a in sent] == [
        (1, True, 12, 5),
        (2, True, 8, 5),
        (4, False, None, None),
        (4, True, 15, 5),
    ]
    hits = [e.hit for e in events if isinstance(e, HitLanded)]
    assert [(h.beat, h.absorbed, h.trauma, h.armor_left) for h in hits] == [
        (5, 10, 2, 90),
        (5, 8, 0, 82),
        (5, 0, 15, None),
    ]
    assert dict(c.trauma) == {"Josef": 15, "Bobby": 2}
    assert dict(c.armor_left) == {"Josef": None, "Bobby": 82}
    assert c.round is not None and c.round.over
    assert c.n == 7  # four attacks sent and three hits landed, each one in the log


def test_the_log_says_each_step() -> None:
    _, events = run(
        alley(),
        StartRound(),
        SendAttack(attacker="Josef", target="Bobby", roll=35),
        NextBeat(),
        SendAttack(attacker="Josef", target="Bobby", roll=57),
        NextBeat(),
        SendAttack(attacker="Bobby", target="Josef", roll=39),
        NextBeat(),
        LandHit(target="Bobby", reaction="dodge", roll=41),
    )
    log = [
        line for e in events if isinstance(e, AttackSent | HitLanded) for line in FORGE.describe(e)
    ]
    assert log == [
        "Beat 1: Josef attacks Bobby",
        "  Josef attacks vs 50: 35 ✓, damage 12, lands in beat 5",
        "Beat 2: Josef attacks Bobby",
        "  Josef attacks vs 50: 57 ✗, misses",
        "Beat 4: Bobby attacks Josef",
        "  Bobby attacks vs 40: 39 ✓, damage 15, lands in beat 5",
        "Beat 5: Josef's attack lands on Bobby",
        "  Bobby dodges vs 40: 41 ✗",  # 41 is over his target 40: the dodge fails
        "  Bobby takes 12: 10 absorbed, 2 trauma, armor 90 left",
    ]


def test_a_dodge_within_target_and_above_the_damage_avoids_it() -> None:
    """§3.4 Reactions: a dodge that succeeds and beats the damage (12) avoids it; it is
    Bobby's one reaction of beat 5, so Josef's second hit (8) is absorbed."""
    c, events = run(
        alley(),
        StartRound(),
        SendAttack(attacker="Josef", target="Bobby", roll=35),
        NextBeat(),
        SendAttack(attacker="Josef", target="Bobby", roll=24),
        NextBeat(),
        SkipBeat(who="Josef"),
        SkipBeat(who="Bobby"),
        NextBeat(),
        LandHit(target="Bobby", reaction="dodge", roll=30),
    )
    assert events[-1].hit.dodged and c.trauma["Bobby"] == 0
    with pytest.raises(OutOfTurn, match="already reacted"):
        apply(c, LandHit(target="Bobby", reaction="dodge", roll=30))
    c, events = run(c, LandHit(target="Bobby"))
    assert (events[-1].hit.absorbed, events[-1].hit.trauma) == (8, 0)  # DV 10 takes all 8


@pytest.mark.parametrize(
    ("commands", "says"),
    [
        ([SendAttack(attacker="Bobby", target="Josef", roll=10)], "takes no part in beat 1"),
        (
            [SendAttack(attacker="Josef", target="Bobby", roll=10)] * 2,
            "already acted in beat 1",
        ),
        ([LandHit()], "no hit lands in beat 1"),
        ([StartRound()], "round 1 is under way"),
        ([RollDice(who="Bobby", faces=(10,))], "takes no part in beat 1"),
        ([RollDice(who="Josef", faces=(101,))], "101"),
        ([SetStage(actor="Josef", reactor="Bobby")], "round 1 by beats is under way"),
        ([SendAttack(attacker="Josef", target="Josef", roll=10)], "both the actor and"),
        ([SendAttack(attacker="Josef", target="Bobby", roll=0)], "1 to 100, not 0"),
        ([SendAttack(attacker="Josef", target="Bobby", roll=101)], "1 to 100, not 101"),
        ([SendAttack(attacker="Josef", target="Bobby")], "needs a roll"),
        ([MoveIcon(who="Josef", beat=6)], "beats 1 to 5, not 6"),
        ([MoveIcon(who="Josef", beat=-1)], "beats 1 to 5, not -1"),
        ([MoveIcon(who="Josef", beat=1)], "in beat 1 already"),  # he is: nothing moves
        ([SkipBeat(who="Zed")], 'no icon "Zed"'),
    ],
)
def test_what_the_round_refuses(commands: list[Command], says: str) -> None:
    c, _ = run(alley(), StartRound())
    with pytest.raises(RuleError, match=says):
        run(c, *commands)


def test_no_round_outside_combat_and_no_step_without_a_round() -> None:
    plain = new_contest(
        [
            ForgeParticipant(name="A", side="A", target=50),
            ForgeParticipant(name="B", side="B", target=50),
        ]
    )
    with pytest.raises(RuleError, match="for combat contests"):
        apply(plain, StartRound())
    with pytest.raises(OutOfTurn, match="no round by beats is under way"):
        apply(alley(), NextBeat())


def test_a_hit_waiting_holds_the_beat_and_ending_the_round_drops_it() -> None:
    c, _ = run(
        alley(),
        StartRound(),
        MoveIcon(who="Bobby", beat=3),  # the GM: Bobby is in beat 3 from now on
        SendAttack(attacker="Josef", target="Bobby", roll=35),  # lands in his beat 3
        NextBeat(),
        NextBeat(),
    )
    assert c.round is not None and c.round.beat == 3  # the hit lands in his beat 3
    with pytest.raises(OutOfTurn, match="land in beat 3 first"):
        apply(c, NextBeat())
    c, _ = run(c, EndRound())
    assert c.round is not None and c.round.over and c.trauma["Bobby"] == 0
    c, _ = run(c, StartRound())  # round 2: the beats as they are now
    assert c.round is not None
    assert (c.round.number, dict(c.round.icon_beats)) == (2, {"Josef": 1, "Bobby": 3})


def test_after_the_round_stages_go_on() -> None:
    c, _ = run(alley(), StartRound(), EndRound())
    c, _ = run(c, SetStage(actor="Josef", reactor="Bobby"), RollDice(who="Josef", faces=(57,)))
    c, _ = run(c, ResolveExchange())
    assert c.stage_wins == {"Josef": 0, "Bobby": 1}


def test_the_other_pattern_is_an_option() -> None:
    """A-I5, ``own_beat_then_react``: Josef takes part in beat 1 and reacts in beat 3 only;
    Bobby in beat 4, reacting in 5. Josef's hit in beat 1 lands in Bobby's beat 5; beat 2
    has nobody."""
    c, _ = run(
        alley("own_beat_then_react"),
        StartRound(),
        SendAttack(attacker="Josef", target="Bobby", roll=35),
        NextBeat(),
    )
    assert c.round is not None and c.round.beat == 4
    with pytest.raises(OutOfTurn, match="takes no part in beat 4"):
        apply(c, SendAttack(attacker="Josef", target="Bobby", roll=10))


def test_a_dying_target_cannot_dodge_and_a_dying_icon_cannot_act() -> None:
    """[I15]: Current Trauma 0 or below is dying: no actions, no dodging. Bobby at 2:
    Josef's 35 deals 12, 10 absorbed, 2 trauma: Bobby at 0, dying."""
    c, _ = run(
        alley(bobby_trauma=2),
        StartRound(),
        SendAttack(attacker="Josef", target="Bobby", roll=35),
        NextBeat(),
        SendAttack(attacker="Josef", target="Bobby", roll=35),
        NextBeat(),
        SkipBeat(who="Bobby"),
        SkipBeat(who="Josef"),
        NextBeat(),
        LandHit(target="Bobby"),
    )
    assert c.dying("Bobby")
    with pytest.raises(OutOfTurn, match="dying"):
        apply(c, LandHit(target="Bobby", reaction="dodge", roll=5))
    c, events = run(c, LandHit(target="Bobby"))
    assert "  Bobby is dying (current trauma -2)" in FORGE.describe(events[-1])


def test_a_round_reloads() -> None:
    """What the engine accepted comes back from the saves the same."""
    c, events = run(
        alley(),
        StartRound(),
        SendAttack(attacker="Josef", target="Bobby", roll=35),
        MoveIcon(who="Bobby", beat=2),
        NextBeat(),
        EndContest(),
    )
    for event in events:
        assert decode(encode(event), AnyEvent) == event
    assert decode(encode(c), AnyContest) == c


def test_scenario_steps_that_are_wrong_name_their_place() -> None:
    base: dict[str, Any] = {
        "system": "forge",
        "options": {"combat": True},
        "participants": [
            {"name": "Josef", "target": 50, "agility": 45},
            {"name": "Bobby", "target": 40, "agility": 15},
        ],
    }
    cases = [
        ([{"beat": "dance"}], "exchanges[0].beat"),
        (
            [
                {"beat": "round"},
                {"beat": "send", "attacker": "Josef", "target": "Bobby", "roll": 0},
            ],
            "exchanges[1].roll",
        ),
        (
            [
                {"beat": "round"},
                {"beat": "send", "attacker": "Bobby", "target": "Josef", "roll": 9},
            ],
            "exchanges[1]",
        ),
        ([{"beat": "round"}, {"beat": "move", "who": "Josef", "to": 9}], "exchanges[1].to"),
        ([{"attacker": "Josef"}], "exchanges[0].attacker"),
        ([{"beat": "next", "actor": "Josef"}], "exchanges[0]"),
    ]
    for exchanges, place in cases:
        with pytest.raises(ScenarioError) as caught:
            resolve({**base, "exchanges": exchanges})
        assert str(caught.value).startswith(place), (exchanges, str(caught.value))
    with pytest.raises(ScenarioError, match="agility"):
        resolve({**base, "participants": [{"name": "Josef", "target": 50, "agility": 0}]})


def test_enter_plays_the_beat_from_the_rolls_typed() -> None:
    """The keypad's way: in a round, the dice are the beat's rolls and ResolveExchange plays
    the beat. Beat 1: Josef rolled 35 (12, lands in beat 5). Beat 2: he rolled nothing, so
    he lets it go. Beat 4: Bobby's 39 (3 × 5 = 15, lands in Josef's beat 5), Josef's 57
    misses. Beat 5: Bobby rolled 30 (within 40, above 12): dodged; Josef rolled nothing:
    he absorbs the 15 (no armor: 15 trauma)."""
    c, events = run(
        alley(),
        StartRound(),
        RollDice(who="Josef", faces=(35,)),
        ResolveExchange(),
        ResolveExchange(),
        RollDice(who="Josef", faces=(57,)),
        RollDice(who="Bobby", faces=(39,)),
        ResolveExchange(),
        RollDice(who="Bobby", faces=(30,)),
        ResolveExchange(),
    )
    sent = [
        (e.attack.attacker, e.attack.sent_in, e.attack.damage)
        for e in events
        if isinstance(e, AttackSent)
    ]
    assert sent == [("Josef", 1, 12), ("Josef", 4, None), ("Bobby", 4, 15)]
    hits = [
        (e.hit.attack.target, e.hit.dodged, e.hit.trauma)
        for e in events
        if isinstance(e, HitLanded)
    ]
    assert hits == [("Bobby", True, 0), ("Josef", False, 15)]
    assert c.round is not None and c.round.over and c.rolls == {}
