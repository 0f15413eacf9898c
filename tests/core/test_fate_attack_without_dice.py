"""Fate: an attack ends the contest where it stands, with no dice (issue 24, item 8).

Rules §1.3 [F1]: "If anyone tries to harm another participant directly, stop: the scene
becomes a conflict and is set up as one." The exchange is stopped, not rolled: nobody has
to roll for it to end.
"""

from __future__ import annotations

from core.engine import play
from core.model import ResolveExchange, RollDice
from core.rules import find_system
from core.systems.fate.events import DeclareAttack, ExchangeResolved
from tests.helpers import seed_race


def test_an_attack_ends_the_contest_with_no_dice_rolled() -> None:
    contest, events = play(seed_race(), [DeclareAttack(by="Teran"), ResolveExchange()])
    assert contest.finished
    assert contest.ended_by == "attack"
    assert contest.winner is None
    resolved = next(ev for ev in events if isinstance(ev, ExchangeResolved))
    assert resolved.attack == "Teran"
    assert resolved.dice == {}  # nobody rolled
    assert resolved.victories == 0 and resolved.winner is None
    # Nobody's fate points moved: the scene goes on as a conflict (Cynere still has 3).
    assert {p.name: p.fate_points for p in contest.participants} == {"Cynere": 3, "Teran": 0}


def test_once_an_attack_is_declared_nobody_is_asked_to_roll() -> None:
    rules = find_system("fate")
    contest, _ = play(seed_race(), [DeclareAttack(by="Cynere")])
    assert rules.rollers(contest) == []


def test_dice_rolled_before_the_attack_stay_in_the_exchange() -> None:
    """Cynere rolled 0 0 0 0 (Great +4) before Teran attacked: her roll is in the
    exchange as rolled, Teran's (never rolled) is not, and nobody scores."""
    contest, events = play(
        seed_race(),
        [
            RollDice(who="Cynere", faces=(0, 0, 0, 0)),
            DeclareAttack(by="Teran"),
            ResolveExchange(),
        ],
    )
    resolved = next(ev for ev in events if isinstance(ev, ExchangeResolved))
    assert resolved.dice == {"Cynere": (0, 0, 0, 0)}
    assert resolved.totals == {"Cynere": 4}
    assert contest.finished and contest.winner is None
