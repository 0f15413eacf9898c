"""The session recap, in Markdown, from the seed contest recorded into a campaign."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from core.campaign.actions import Campaign
from core.campaign.log import ActionRecorded
from core.campaign.recap import last_session_start, recap_markdown
from core.saves.store import CampaignFiles
from tests.conftest import SCENARIOS
from tests.helpers import in_process


def recorded(saves: Path) -> Campaign:
    done = in_process(
        "--saves",
        str(saves),
        "resolve",
        str(SCENARIOS / "fate-cynere-vs-teran.json"),
        "--record",
        "Recap",
    )
    assert done.returncode == 0, done.stderr
    return CampaignFiles(saves / "recap").load()


def test_the_recap_tells_the_seed_contest(saves: Path) -> None:
    text = recap_markdown(recorded(saves))
    assert text.startswith("# Recap: recap\n")
    assert "## fate-cynere-vs-teran" in text
    assert "**Sides:** Cynere vs Teran" in text
    # The four exchanges of the seed, each with its dice and totals.
    assert "### Exchange 1: Teran wins, 1 victory (0–1)" in text
    assert "- Cynere: ---0 → Average (+1)" in text
    assert "### Exchange 3: tie, twist: Magical Distortions (2–1)" in text
    assert "### Exchange 4: Cynere wins with style, 2 victories (4–1)" in text
    assert "- invokes I've Got Zird's Back (fate point): +2" in text
    assert "**Aspects created:** Magical Distortions (twist)" in text
    assert "**Points spent:** Cynere (fate points) 2" in text  # two paid invokes
    assert "**Result:** Cynere won, 4 victories to 1" in text  # the winner's count first


def test_the_last_session_starts_after_the_last_long_gap(saves: Path) -> None:
    campaign = recorded(saves)
    now = datetime.now(UTC)
    assert last_session_start(campaign) is not None
    # Pretend the first three actions were a week ago: the session starts with the 4th.
    ids = sorted(campaign.actions)
    for i, action_id in enumerate(ids):
        old = campaign.actions[action_id]
        stamp = now - timedelta(days=7) if i < 3 else now + timedelta(minutes=i)
        campaign.actions[action_id] = ActionRecorded(
            action_id=old.action_id, command=old.command, events=old.events, at=stamp.isoformat()
        )
    assert last_session_start(campaign) == now + timedelta(minutes=3)
    # The contest had exchanges in the session: it is in the recap.
    assert "## fate-cynere-vs-teran" in recap_markdown(campaign)
    # Since tomorrow, nothing was played.
    assert "No contest was played." in recap_markdown(campaign, now + timedelta(days=1))


def test_a_session_the_gm_started_is_where_the_recap_begins(saves: Path) -> None:
    from core.campaign.log import StartSession

    campaign = recorded(saves)
    assert "## fate-cynere-vs-teran" in recap_markdown(campaign)  # played this session
    hour_ago = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    for action_id, old in list(campaign.actions.items()):  # the contest: an hour ago
        campaign.actions[action_id] = ActionRecorded(
            action_id=action_id, command=old.command, events=old.events, at=hour_ago
        )
    campaign.act(StartSession())  # a new session: nothing played in it yet
    assert last_session_start(campaign) == datetime.fromisoformat(campaign.sessions[-1])
    assert "No contest was played." in recap_markdown(campaign)


def test_the_command_writes_the_recap(saves: Path, tmp_path: Path) -> None:
    recorded(saves)
    out = tmp_path / "recap.md"
    done = in_process(
        "--saves", str(saves), "export", "Recap", "--format", "markdown", "-o", str(out)
    )
    assert done.returncode == 0, done.stderr
    assert "### Exchange 4" in out.read_text()
    bad = in_process(
        "--saves", str(saves), "export", "Recap", "--format", "markdown", "--since", "yesterday"
    )
    assert bad.returncode == 2
    assert "not a date" in bad.stderr


def test_a_contest_started_and_not_played_has_not_begun(saves: Path) -> None:
    """A contest set up and started, its first exchange still to come (the GM writes the
    recap before it): "not begun yet", not "still open after exchange 0"."""
    from core.campaign.log import StartContest
    from core.campaign.setup import build_contest
    from core.campaign.sheet import Pick

    campaign = recorded(saves)
    picks = [Pick(character=n, side=n, rating=None) for n in ("Cynere", "Teran")]
    contest = build_contest("fate", campaign.roster, picks)
    campaign.act(StartContest(title="The rematch", contest=contest))
    text = recap_markdown(campaign)
    rematch = text[text.index("## The rematch") :]
    assert "**Result:** not begun yet" in rematch
    assert "exchange 0" not in text
