"""Whom an attack in an action beat goes to, with three icons (issue 29 item 2): the GM's
ChooseTarget, through the engine. Figures from rules.md §3.4: every Physical Agility
unknown, so beat 4 (an action beat) then beat 5 (a reaction beat) [I16]; an attack sent
in beat 4 lands in the target's reaction beat, 5 [I17]; damage is the tens digit × the
multiplier [I7]: Josef's 35 with ×4 = 12; absorbed with no armor, all 12 are trauma [I8];
a dying icon (Current Trauma 0 or less) is out of the contest [I15]."""

from __future__ import annotations

import pytest

from core.engine import play
from core.errors import OutOfTurn, RuleError
from core.files.codec import decode, encode
from core.model import AnyContest, AnyEvent, Command, ResolveExchange, RollDice
from core.systems.forge.beats import ChooseTarget, HitLanded, StartRound, living_opponents
from core.systems.forge.state import ForgeContest, ForgeOptions, ForgeParticipant, new_contest


def three(ann_trauma: int | None = None) -> ForgeContest:
    """Josef (50, ×4) against Bobby (40) and Ann (30), the gang."""
    return new_contest(
        [
            ForgeParticipant(name="Josef", side="Josef", target=50, multiplier=4),
            ForgeParticipant(name="Bobby", side="Gang", target=40),
            ForgeParticipant(name="Ann", side="Gang", target=30, current_trauma=ann_trauma),
        ],
        ForgeOptions(combat=True),
    )


def run(contest: ForgeContest, *commands: Command) -> tuple[ForgeContest, list[object]]:
    after, events = play(contest, list(commands))
    assert isinstance(after, ForgeContest)
    return after, list(events)


def test_the_attack_goes_to_the_target_chosen() -> None:
    c, events = run(
        three(),
        StartRound(),
        ChooseTarget(attacker="Josef", target="Ann"),
        RollDice(who="Josef", faces=(35,)),
        ResolveExchange(),  # beat 4: Josef's 12 on its way to Ann; the gang lets it go
        ResolveExchange(),  # beat 5: Ann absorbs
    )
    hits = [(e.hit.attack.target, e.hit.trauma) for e in events if isinstance(e, HitLanded)]
    assert hits == [("Ann", 12)]
    assert c.trauma.get("Ann") == 12 and c.trauma.get("Bobby", 0) == 0
    assert c.beat_targets == {}  # the choice was beat 4's
    for event in events:
        assert decode(encode(event), AnyEvent) == event  # a value accepted reloads
    assert decode(encode(c), AnyContest) == c


@pytest.mark.parametrize(
    ("chosen", "error", "says"),
    [
        (ChooseTarget(attacker="Josef", target="Josef"), RuleError, "both the actor"),
        (ChooseTarget(attacker="Bobby", target="Ann"), RuleError, "both on side Gang"),
        (ChooseTarget(attacker="Josef", target="Zed"), RuleError, "Zed"),
    ],
)
def test_a_target_is_an_opponent(chosen: ChooseTarget, error: type, says: str) -> None:
    with pytest.raises(error, match=says):
        run(three(), StartRound(), chosen)


def test_a_dying_icon_is_no_target() -> None:
    """Ann (Current Trauma 12) absorbs Josef's 12 in round 1: 0, dying [I15]; in round 2
    Josef cannot aim at her, and Bobby is his one opponent left."""
    c, _ = run(
        three(ann_trauma=12),
        StartRound(),
        ChooseTarget(attacker="Josef", target="Ann"),
        RollDice(who="Josef", faces=(35,)),
        ResolveExchange(),
        ResolveExchange(),
        StartRound(),
    )
    assert c.dying("Ann")
    with pytest.raises(RuleError, match="Ann is dying"):
        run(c, ChooseTarget(attacker="Josef", target="Ann"))
    assert living_opponents(c, "Josef") == ("Bobby",)


def test_no_target_outside_an_action_beat_or_a_round() -> None:
    with pytest.raises(OutOfTurn, match="no round by beats"):
        run(three(), ChooseTarget(attacker="Josef", target="Ann"))
    with pytest.raises(OutOfTurn, match="reaction beat"):
        run(
            three(),
            StartRound(),
            RollDice(who="Josef", faces=(35,)),
            ResolveExchange(),
            ChooseTarget(attacker="Josef", target="Ann"),
        )
