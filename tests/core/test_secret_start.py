"""A contest hidden from its first moment (issue 17, item 14): ``StartContest`` names what
the players must not see, the saved ``ContestStarted`` carries it, and a save made before
it existed loads with nothing hidden."""

from __future__ import annotations

import pytest

from core.campaign.actions import Campaign
from core.campaign.log import ActionRecorded, ContestStarted, StartContest, Undo
from core.campaign.setup import build_contest
from core.errors import UnknownName
from core.files.codec import decode, encode
from tests.helpers import ASPECTS, PICKS, SLY, knife_fight


def start(campaign: Campaign, **secrets: object) -> StartContest:
    contest = build_contest("fate", campaign.roster, PICKS, {}, ASPECTS)
    return StartContest(title="Again", contest=contest, **secrets)  # type: ignore[arg-type]


def test_a_contest_started_hidden_is_hidden_in_its_start_event_and_record() -> None:
    campaign, _ = knife_fight()
    entry = campaign.act(
        start(campaign, secret_participants=(SLY, SLY), secret_aspects=("Hidden Blade",))
    )
    assert isinstance(entry, ActionRecorded)
    (event,) = entry.events  # no later toggle: one event, the start
    assert isinstance(event, ContestStarted)
    assert event.contest_id == "c2"
    assert event.secret_participants == (SLY,)  # once
    assert event.secret_aspects == ("Hidden Blade",)
    assert not event.secret
    record = campaign.contest("c2")
    assert record.hidden("participant", SLY) and not record.hidden("participant", "Cynere")
    assert record.hidden("aspect", "Hidden Blade") and not record.hidden("aspect", "Muddy Ground")
    assert not campaign.contest("c1").hidden("participant", SLY)  # the first is untouched


def test_a_whole_contest_started_secret() -> None:
    campaign, _ = knife_fight()
    campaign.act(start(campaign, secret=True))
    assert campaign.contest("c2").secret
    assert campaign.contest("c2").hidden("participant", "Cynere")


def test_undoing_the_start_takes_its_secrets_with_it() -> None:
    campaign, _ = knife_fight()
    campaign.act(start(campaign, secret_participants=(SLY,)))
    campaign.act(Undo())
    assert "c2" not in campaign.contests


@pytest.mark.parametrize(
    ("secrets", "message"),
    [
        ({"secret_participants": ("Teran",)}, 'no participant "Teran"'),
        ({"secret_aspects": ("Dark Alley",)}, 'no aspect "Dark Alley" in "Again"'),
    ],
)
def test_a_secret_not_in_the_contest_is_refused(secrets: dict[str, object], message: str) -> None:
    campaign, _ = knife_fight()
    with pytest.raises(UnknownName, match=message):
        campaign.decide(start(campaign, **secrets))


def test_the_secrets_are_saved_and_an_old_save_without_them_loads_with_none() -> None:
    campaign, _ = knife_fight()
    entry = campaign.act(start(campaign, secret_participants=(SLY,)))
    saved = encode(entry)
    (event,) = saved["events"]
    assert event["@"] == "campaign.ContestStarted"
    assert event["secret_participants"] == [SLY]
    assert decode(saved, ActionRecorded) == entry
    for key in ("secret", "secret_participants", "secret_aspects"):  # as written before
        del event[key]
    old = decode(saved, ActionRecorded).events[0]
    assert (old.secret, old.secret_participants, old.secret_aspects) == (False, (), ())
    command = encode(start(campaign))
    for key in ("secret", "secret_participants", "secret_aspects"):
        del command[key]
    assert decode(command, StartContest).secret_participants == ()
