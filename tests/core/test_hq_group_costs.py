"""The end-of-contest summary's "What it cost" for a HeroQuest group extended contest
(issue 29 item 1): a hero point spent in a pairing's exchange (rules.md §2.3, hero points;
HQ2's Group Extended Contests: at most one per exchange) is counted, as it is taken off
the roster."""

from __future__ import annotations

from core.campaign.state import ContestRecord
from core.engine import play
from core.model import ResolveExchange, RollDice
from core.systems.heroquest.events import SpendHeroPoints
from core.systems.heroquest.group_play import Engage, new_group
from core.systems.heroquest.sheet import costs
from core.systems.heroquest.state import HQOptions, HQParticipant


def test_a_hero_point_spent_in_a_pairing_is_a_cost() -> None:
    start = new_group(
        [
            HQParticipant(name="Tripitaka", side="Heroes", rating=15, hero_points=2),
            HQParticipant(name="Sandy", side="Heroes", rating=15),
            HQParticipant(name="Ghoul", side="Ghouls", rating=15),
        ],
        HQOptions(group_extended=True),
    )
    state, events = play(
        start,
        [
            Engage(a="Tripitaka", b="Ghoul"),
            SpendHeroPoints(who="Tripitaka"),
            RollDice(who="Tripitaka", faces=(5,)),
            RollDice(who="Ghoul", faces=(5,)),
            ResolveExchange(),
        ],
    )
    exchanges = [e for e in events if type(e).__name__ == "EngagementResolved"]
    assert len(exchanges) == 1
    record = ContestRecord(
        contest_id="c1", title="Graveyard", start=start, state=state, exchanges=exchanges
    )
    # Tripitaka had 2 and spent 1 in the exchange; nobody else spent any.
    assert list(costs(record, events)) == ["Tripitaka spent 1 hero point"]
