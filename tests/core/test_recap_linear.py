"""The recap's cost grows with the campaign's actions, not with contests times actions
(issue 30, item 13): a 5,000-contest campaign took 390 s when each contest looked
through every action of the campaign for one of its own."""

from __future__ import annotations

from collections.abc import Iterator, ValuesView
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from core.campaign.log import ActionRecorded
from core.campaign.recap import recap_markdown
from core.cli.bench import fate_campaign


class CountedActions(dict[int, ActionRecorded]):
    """A campaign's actions that count how many times an action is read."""

    reads = 0

    def __getitem__(self, key: int) -> ActionRecorded:
        CountedActions.reads += 1
        return super().__getitem__(key)

    def values(self) -> ValuesView[ActionRecorded]:
        counted = self

        class Counted(ValuesView[ActionRecorded]):
            def __iter__(self) -> Iterator[ActionRecorded]:
                for value in dict.values(counted):
                    CountedActions.reads += 1
                    yield value

        return Counted(self)


def test_a_recap_reads_each_action_a_bounded_number_of_times(tmp_path: Path) -> None:
    # 60 contests of 2 exchanges: 2 characters + 60 starts + 120 exchanges = 182 actions.
    _, campaign = fate_campaign(tmp_path, 120, "Many", per_contest=2)
    assert len(campaign.contests) == 60
    actions: Any = CountedActions(campaign.actions)
    assert len(actions) == 182
    campaign.actions = actions
    # Since an hour ago: every action is in the period, every contest in the recap.
    CountedActions.reads = 0
    hour_ago = datetime.now(UTC) - timedelta(hours=1)
    assert recap_markdown(campaign, hour_ago).count("\n## Race ") == 60
    # Each action read once (and the rolls' own, none here), not once per contest:
    # 60 x 182 = 10,920 reads when each contest looked through them all.
    assert CountedActions.reads <= 182
    # Since tomorrow: the newest action is already a day before; nothing older is read.
    CountedActions.reads = 0
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    assert "No contest was played." in recap_markdown(campaign, tomorrow)
    assert CountedActions.reads == 1


def test_the_recap_since_a_time_still_finds_every_contest_played_since(tmp_path: Path) -> None:
    _, campaign = fate_campaign(tmp_path, 6, "Few", per_contest=2)  # 3 contests
    yesterday = datetime.now(UTC) - timedelta(days=1)
    text = recap_markdown(campaign, yesterday)
    assert [line for line in text.splitlines() if line.startswith("## ")] == [
        "## Race 1",
        "## Race 2",
        "## Race 3",
    ]


class ReleasedActions(CountedActions):
    """Actions that, like a campaign's read back from the log (core.saves.lazy), can be let
    go of: how many are held since the last release, at most."""

    held = 0
    most = 0

    def __getitem__(self, key: int) -> ActionRecorded:
        ReleasedActions.held += 1
        ReleasedActions.most = max(ReleasedActions.most, ReleasedActions.held)
        return super().__getitem__(key)

    def release(self) -> None:
        ReleasedActions.held = 0


def test_the_last_sessions_recap_reads_each_action_once_and_holds_few(tmp_path: Path) -> None:
    # 300 contests of 2 exchanges: 2 characters + 300 starts + 600 exchanges, all now:
    # one session of 902 actions, and its start found in the pass that finds its contests.
    _, campaign = fate_campaign(tmp_path, 600, "Session", per_contest=2)
    actions: Any = ReleasedActions(campaign.actions)
    campaign.actions = actions
    CountedActions.reads = 0
    text = recap_markdown(campaign)
    assert text.count("\n## Race ") == 300
    assert CountedActions.reads == 902  # once each (twice when the start was looked for first)
    assert ReleasedActions.most <= 256  # let go of as it went, not all 902 held
