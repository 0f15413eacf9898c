"""HeroQuest contests for the rules tests (tests/core/test_heroquest.py, automatic
results, presets): a Hero against a Foe, and commands played on it through the engine.
Kept here because test modules do not import one another."""

from __future__ import annotations

from collections.abc import Sequence

from core.engine import apply
from core.model import Event, ResolveExchange, RollDice
from core.systems.heroquest.events import ExchangeResolved
from core.systems.heroquest.ratings import parse_rating
from core.systems.heroquest.state import HQContest, HQOptions, HQParticipant, new_contest


def hero_foe(
    hero: str = "12", foe: str = "15", hero_points: int = 0, **options: object
) -> HQContest:
    """Hero (12, ``hero_points``) against Foe (15), each a side of its own."""
    return new_contest(
        [
            HQParticipant(
                name="Hero", side="Hero", rating=parse_rating(hero), hero_points=hero_points
            ),
            HQParticipant(name="Foe", side="Foe", rating=parse_rating(foe)),
        ],
        HQOptions(**options),  # type: ignore[arg-type]
    )


def play(contest: HQContest, *commands: object) -> tuple[HQContest, list[Event]]:
    """``commands`` played in order through the engine: the contest and every event."""
    log: list[Event] = []
    state = contest
    for command in commands:
        new, events = apply(state, command)  # type: ignore[arg-type]
        assert isinstance(new, HQContest)
        state = new
        log.extend(events)
    return state, log


def exchange(
    c: HQContest, rolls: dict[str, int], *extra: object
) -> tuple[HQContest, ExchangeResolved]:
    """One exchange: the rolls, ``extra`` commands, resolved."""
    c, log = play(
        c, *[RollDice(who=n, faces=(r,)) for n, r in rolls.items()], *extra, ResolveExchange()
    )
    return c, resolved(log)


def resolved(log: Sequence[Event]) -> ExchangeResolved:
    """The one exchange resolved in ``log``."""
    found = [e for e in log if isinstance(e, ExchangeResolved)]
    assert len(found) == 1
    return found[0]
