"""Issue 24, item 13: in a HeroQuest extended contest the exchanges leave no state of
adversity or benefit (rules §2.8.6: the rising-action method scores the consequences from
the final difference of resolution points), so the log and the participants pane show
none; the recap prints the final consequences, as the write-back takes them.

Worked by hand (rules §2.3, §2.8): Hero and Foe at 15. Exchange 1: Hero rolls 1 (a
critical), Foe 10 (a success): one level, minor, 2 RP; a simple contest would leave the
Foe impaired and the Hero a +3 benefit. Exchange 2: Hero 1 (critical), Foe 20 (fumble):
three levels, complete, 5 RP: 7, the contest is over. Difference 7 - 0 = 7: a complete
victory, the Foe dying (§2.8.6's table: 7 is dying)."""

from __future__ import annotations

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, Play, StartContest
from core.campaign.recap import recap_markdown
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.model import ResolveExchange, RollDice
from core.rules import find_system
from tui.systems.heroquest.panes import participants


def extended_contest() -> tuple[Campaign, str]:
    campaign = Campaign(name="Road", system="heroquest")
    for c in (
        Character(name="Hero", ratings={"Sword": 15}),
        Character(name="Foe", kind="npc", ratings={"Claws": 15}),
    ):
        campaign.act(AddCharacter(character=c))
    picks = [
        Pick(character="Hero", side="Heroes", rating="Sword"),
        Pick(character="Foe", side="Foes", rating="Claws"),
    ]
    contest = build_contest("heroquest", campaign.roster, picks, {"extended": True})
    campaign.act(StartContest(title="On the road", contest=contest))
    record = campaign.latest_contest
    assert record is not None
    return campaign, record.contest_id


def exchange(campaign: Campaign, cid: str, hero: int, foe: int) -> None:
    commands = (
        RollDice(who="Hero", faces=(hero,)),
        RollDice(who="Foe", faces=(foe,)),
        ResolveExchange(),
    )
    campaign.act(Play(contest_id=cid, commands=commands))


def test_an_extended_exchange_shows_no_simple_contest_consequence() -> None:
    campaign, cid = extended_contest()
    exchange(campaign, cid, 1, 10)
    record = campaign.contest(cid)
    lines = find_system("heroquest").describe(record.exchanges[0])
    assert lines[0] == "Exchange 1: Hero wins, minor (2 RP)"
    assert not any("impaired" in line or "benefit" in line for line in lines)
    assert not any("impaired" in line for line in participants(record))


def test_the_recap_and_the_pane_give_the_final_consequences() -> None:
    campaign, cid = extended_contest()
    exchange(campaign, cid, 1, 10)
    exchange(campaign, cid, 1, 20)
    record = campaign.contest(cid)
    assert record.state.finished
    recap = recap_markdown(campaign)
    assert "**Consequences:** Foe dying" in recap
    assert "impaired" not in recap and "benefit" not in recap
    pane = participants(record)
    assert "  [$warning]dying[/]" in pane
    assert not any("impaired" in line for line in pane)
