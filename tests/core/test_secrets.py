"""Secrets kept from the players (issue 6): the exchange lines with ``??`` for a hidden
participant's numbers and a hidden aspect's name, and the recap that leaves them out.

The secret NPC, Sly Vasquez, has values found nowhere else: Fight +7 (Epic) and 13 fate
points. Against Cynere (Athletics +4) his totals, worked from the dice typed (rules §1.3:
skill + dice + invokes), are:

* exchange 1: dice 0000, and a paid invoke of Hidden Blade (+2): 7 + 0 + 2 = +9,
  "Legendary+1 (+9)"; Cynere -000: 4 - 1 = +3, Good. Margin 6 >= 3: Sly wins with style,
  2 victories (0–2);
* exchange 2: dice +000: 7 + 1 = +8, "Legendary (+8)"; Cynere ++00: 4 + 2 = +6,
  Fantastic. Margin 2: one victory, 0–3, and Sly wins the contest (first to 3).

So neither "+7", "Epic", "13" (nor 12, his fate points after the invoke), "+8", "+9",
"Legendary" nor "Hidden Blade" may reach the players; nor his dice (issue 17), which with
a total a tie gives away would give his skill.
"""

from __future__ import annotations

from pathlib import Path

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, Entry, Play, StartContest, ToggleSecret
from core.campaign.recap import recap_markdown
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.campaign.state import secrets_of
from core.model import ResolveExchange, RollDice
from core.redact import HIDDEN, Secrets
from core.rules import find_system
from core.saves.store import CampaignFiles, Saves
from core.systems.fate.events import CreateAdvantage, InvokeAspect
from core.systems.forge.character import ForgeCharacter
from core.systems.forge.events import SetStage
from core.systems.heroquest.character import HeroQuestCharacter
from core.systems.heroquest.events import Augment, SetPairs, SetParties, SpendHeroPoints
from core.systems.heroquest.state import Pair
from tests.helpers import (
    CID,
    EXCHANGES,
    HIDE_ALL,
    HIDE_BLADE,
    HIDE_SLY,
    NAME,
    PICKS,
    SLY,
    SLY_NPC,
    TITLE,
    in_process,
    knife_fight,
    leaks,
)
from tests.helpers import KNIFE_CYNERE as CYNERE
from tests.helpers import fate_dice as dice


def play_all(campaign: Campaign) -> list[Entry]:
    return [campaign.act(Play(contest_id=CID, commands=c)) for c in EXCHANGES]


def body(recap: str) -> str:
    """The recap without its date line (a date may hold a "13")."""
    return "\n".join(line for line in recap.splitlines() if not line.startswith("*Fate Core"))


# -- the exchange lines, system by system -----------------------------------------------


def redacted(campaign: Campaign) -> list[list[str]]:
    record = campaign.contest(CID)
    rules = find_system(campaign.system)
    secrets = secrets_of(record)
    return [rules.describe(e, secrets) for e in record.exchanges]


def test_fate_lines_hide_the_npc_side_dice_and_total_and_the_aspect() -> None:
    campaign, _ = knife_fight(HIDE_SLY, HIDE_BLADE)
    play_all(campaign)
    assert redacted(campaign) == [
        [
            "Exchange 1: Sly Vasquez wins with style, 2 victories (0–2)",  # the table sees it
            "  Cynere: -000 → Good (+3)",
            "  Sly Vasquez: ?? → ??",
            "    invokes ?? (fate point): +2",
        ],
        [
            "Exchange 2: Sly Vasquez wins, 1 victory (0–3)",
            "  Cynere: ++00 → Fantastic (+6)",
            "  Sly Vasquez: ?? → ??",
        ],
    ]


def test_without_secrets_every_line_is_the_rule_system_own() -> None:
    campaign, _ = knife_fight()
    play_all(campaign)
    record = campaign.contest(CID)
    assert not secrets_of(record)
    lines = [find_system("fate").describe(e) for e in record.exchanges]
    assert redacted(campaign) == lines
    assert lines[0][2] == "  Sly Vasquez: 0000 → Legendary+1 (+9)"  # what is hidden above
    assert lines[1][2] == "  Sly Vasquez: +000 → Legendary (+8)"


def test_fate_advantages_on_a_hidden_npc_hide_both_numbers_but_not_the_free_invokes() -> None:
    campaign, _ = knife_fight(HIDE_SLY)
    advantage = CreateAdvantage(
        by="Cynere", aspect="Sly's Footing 2", on=SLY, result=10, opposition=9
    )
    campaign.act(Play(contest_id=CID, commands=(advantage,)))
    campaign.act(Play(contest_id=CID, commands=EXCHANGES[1]))
    lines = redacted(campaign)[0]
    # 10 vs 9: one shift, a success with one free invoke (rules §1.2). The aspect's name
    # has a digit and the hidden name's first word: it is kept whole.
    assert (
        lines[1]
        == "  Cynere creates Sly's Footing 2 on Sly Vasquez: ?? vs ??, success (1 free invoke)"
    )


def test_a_fate_team_with_a_hidden_member_hides_the_side_total() -> None:
    campaign = Campaign(name="T", system="fate")
    for c in (CYNERE, SLY_NPC, Character(name="Guard", kind="npc", ratings={"Fight": 2})):
        campaign.act(AddCharacter(character=c))
    picks = [
        PICKS[0],
        Pick(character=SLY, side="Thugs", rating="Fight"),
        Pick(character="Guard", side="Thugs", rating="Fight"),
    ]
    contest = build_contest("fate", campaign.roster, picks, {}, ())
    campaign.act(StartContest(title="T", contest=contest, uses={SLY: "Fight", "Guard": "Fight"}))
    campaign.act(ToggleSecret(contest_id=CID, kind="participant", name=SLY))
    campaign.act(
        Play(
            contest_id=CID,
            commands=(
                RollDice(who="Cynere", faces=dice("0000")),
                RollDice(who="Thugs", faces=dice("-000")),
                ResolveExchange(),
            ),
        )
    )
    # Thugs: lead 7 + teamwork 1 (Guard is Average or better) - 1 = +7 (Epic).
    assert find_system("fate").describe(campaign.contest(CID).exchanges[0])[2] == (
        "  Thugs: -000 → Epic (+7)"
    )
    assert redacted(campaign)[0][1:] == ["  Cynere: 0000 → Great (+4)", "  Thugs: ?? → ??"]


def test_heroquest_lines_hide_a_hidden_party_target_roll_augment_and_hero_points() -> None:
    campaign = Campaign(name="T", system="heroquest")
    roster = [
        Character(name="Tripitaka", ratings={"Sword": 24}, sheet=HeroQuestCharacter(hero_points=3)),
        Character(name="Sandy", ratings={"Staff": 15}, sheet=HeroQuestCharacter(hero_points=3)),
        Character(
            name="Ghoul King",
            kind="npc",
            ratings={"Claws": 33},
            sheet=HeroQuestCharacter(hero_points=2),
        ),
        Character(name="Ghoul", kind="npc", ratings={"Claws": 17}),
    ]
    for c in roster:
        campaign.act(AddCharacter(character=c))
    picks = [
        Pick(character="Tripitaka", side="Heroes", rating="Sword"),
        Pick(character="Sandy", side="Heroes", rating="Staff"),
        Pick(character="Ghoul King", side="Ghouls", rating="Claws"),
        Pick(character="Ghoul", side="Ghouls", rating="Claws"),
    ]
    contest = build_contest("heroquest", campaign.roster, picks, {"chained": True}, ())
    campaign.act(StartContest(title="G", contest=contest))
    campaign.act(ToggleSecret(contest_id=CID, kind="participant", name="Ghoul King"))
    simple = (
        SetParties(a="Tripitaka", b="Ghoul King"),
        Augment(recipient="Ghoul King", rating=26, roll=4, resistance_roll=15),
        RollDice(who="Tripitaka", faces=(12,)),
        RollDice(who="Ghoul King", faces=(3,)),
        SpendHeroPoints(who="Ghoul King", count=1),
        ResolveExchange(),
    )
    pairs = (
        Pair(a="Tripitaka", b="Ghoul King", roll_a=5, roll_b=9),
        Pair(a="Sandy", b="Ghoul", roll_a=2, roll_b=14),
    )
    campaign.act(Play(contest_id=CID, commands=simple))
    campaign.act(Play(contest_id=CID, commands=(SetPairs(pairs=pairs), ResolveExchange())))
    first, second = (find_system("heroquest").describe(e) for e in campaign.contest(CID).exchanges)
    # The Ghoul King's claws 33 = 13M, augmented +9 (6M rolling 4 beats the base 14
    # rolling 15: a major victory, §2.5) and +1 bump for the hero point: 2M2 (§2.3).
    assert "  Ghoul King: 3 vs 2M2, critical" in first
    assert "  Ghoul King augmented +9: 6M rolling 4 against 14 rolling 15" in first
    one, two = redacted(campaign)
    assert one == [
        "Exchange 1: Ghoul King wins, major (3 RP)",
        "  Tripitaka: 12 vs 4M, failure",
        "  Ghoul King: ?? vs ??, critical",
        "  → Tripitaka injured, Ghoul King ?? benefit",
        "  Ghoul King augmented ??: ?? rolling ?? against ?? rolling ??",
        "  Ghoul King spends ?? hero points",  # not "hero point": the plural gives nothing
        "  Resolution points: Heroes 0, Ghouls 3",
    ]
    assert two[0] == second[0]  # a group exchange's head, score and all
    assert "  Tripitaka v Ghoul King: Ghoul King, minor (2 RP)" in two  # the RP are public
    assert "    Tripitaka 5 vs 4M failure; Ghoul King ?? vs ?? success" in two
    assert "    Sandy 2 vs 15 success; Ghoul 14 vs 17 success" in two


def test_forge_lines_hide_a_hidden_fighter_target_roll_and_the_damage_thrown() -> None:
    campaign = Campaign(name="T", system="forge")
    josef = Character(name="Josef", ratings={"Brawling": 50}, sheet=ForgeCharacter(multiplier=4))
    sheet = ForgeCharacter(multiplier=5, armor=10, armor_capacity=100)
    bobby = Character(name="Bobby", kind="npc", ratings={"Brawling": 43}, sheet=sheet)
    for c in (josef, bobby):
        campaign.act(AddCharacter(character=c))
    picks = [Pick(character="Josef", side="Josef"), Pick(character="Bobby", side="Bobby")]
    picks = [Pick(character=p.character, side=p.side, rating="Brawling") for p in picks]
    contest = build_contest("forge", campaign.roster, picks, {"combat": True}, ())
    campaign.act(StartContest(title="F", contest=contest))
    campaign.act(ToggleSecret(contest_id=CID, kind="participant", name="Bobby"))
    stages = [
        (SetStage(actor="Josef", reactor="Bobby"), RollDice(who="Josef", faces=(35,))),
        (RollDice(who="Bobby", faces=(21,)), RollDice(who="Josef", faces=(60,))),
    ]
    campaign.act(Play(contest_id=CID, commands=(*stages[0], RollDice(who="Bobby", faces=(39,)))))
    campaign.act(Play(contest_id=CID, commands=(ResolveExchange(),)))
    campaign.act(Play(contest_id=CID, commands=(*stages[1], ResolveExchange())))
    plain = [find_system("forge").describe(e) for e in campaign.contest(CID).exchanges]
    # Bobby attacks at 43: 21 succeeds, and throws 2 (the tens) x 5 = 10 damage.
    assert plain[1][1:] == [
        "  Bobby attacks vs 43: 21 ✓, damage 10",
        "  Josef dodges vs 50: 60 ✗, over",
        "  Josef takes 10: 0 absorbed, 10 trauma",
    ]
    first, second = redacted(campaign)
    assert first[1:] == [
        "  Josef attacks vs 50: 35 ✓, damage 12",
        "  Bobby dodges vs ??: ?? ✓",  # not "higher": see the FORGE test in test_secret_wording
    ]
    assert second == [
        plain[1][0],
        "  Bobby attacks vs ??: ?? ✓, damage ??",
        "  Josef dodges vs 50: 60 ✗, over",
        "  Josef takes ??: ?? absorbed, ?? trauma",  # the damage is Bobby's weapon's
    ]


def test_hidden_aspect_names_go_everywhere_and_other_names_stay_whole() -> None:
    campaign, _ = knife_fight()
    # Cynere 4 + ++00 (+2) + Hidden Blade (+2) = +8; Sly 7 + +000 (+1) = +8: a tie, whose
    # twist the GM names "Blade" (rules §1.3 step 4).
    tie = (
        RollDice(who="Cynere", faces=dice("++00")),
        RollDice(who=SLY, faces=dice("+000")),
        InvokeAspect(by="Cynere", aspect="Hidden Blade"),
        ResolveExchange(twist="Blade"),
    )
    campaign.act(Play(contest_id=CID, commands=tie))
    event = campaign.contest(CID).exchanges[0]
    secrets = Secrets(aspects=frozenset({"Blade"}))
    assert find_system("fate").describe(event, secrets) == [
        f"Exchange 1: tie, twist: {HIDDEN} (0–0)",
        "  Cynere: ++00 → Legendary (+8)",
        "    invokes Hidden Blade (fate point): +2",
        "  Sly Vasquez: +000 → Legendary (+8)",
    ]


# -- the recap --------------------------------------------------------------------------


def test_the_recap_leaves_the_secret_npc_and_aspect_out_unless_asked() -> None:
    campaign, _ = knife_fight(HIDE_SLY, HIDE_BLADE)
    play_all(campaign)
    recap = recap_markdown(campaign)
    assert "## Knife fight in the alley" in recap
    assert "### Exchange 1: Sly Vasquez wins with style, 2 victories (0–2)" in recap
    assert "- Sly Vasquez: ?? → ??" in recap
    assert "- Cynere: ++00 → Fantastic (+6)" in recap
    assert "**Points spent:** Sly Vasquez (fate points) ??" in recap
    assert "**Result:** Sly Vasquez won, 3 victories to 0" in recap
    assert leaks(body(recap)) == []
    everything = recap_markdown(campaign, secrets=True)
    assert "- Sly Vasquez: 0000 → Legendary+1 (+9)" in everything
    assert "- Sly Vasquez: +000 → Legendary (+8)" in everything
    assert "- invokes Hidden Blade (fate point): +2" in everything
    assert "**Points spent:** Sly Vasquez (fate points) 1" in everything
    assert set(leaks(body(everything))) >= {"+8", "+9", "Legendary", "Hidden Blade"}
    # Shown again, the GM's secrets are in the players' recap too: the check can fail.
    campaign.act(HIDE_SLY)
    campaign.act(HIDE_BLADE)
    assert recap_markdown(campaign) == everything


def test_a_secret_contest_is_left_out_of_the_recap_and_counted() -> None:
    campaign, _ = knife_fight(HIDE_ALL)
    play_all(campaign)
    recap = recap_markdown(campaign)
    assert TITLE not in recap and SLY not in recap and "Exchange" not in recap
    assert "No contest was played." not in recap
    assert recap.rstrip().endswith("*1 secret contest left out.*")
    assert leaks(body(recap)) == []
    assert "### Exchange 2: Sly Vasquez wins, 1 victory (0–3)" in recap_markdown(
        campaign, secrets=True
    )


def test_a_recap_of_a_campaign_without_secrets_is_the_same_with_or_without_them() -> None:
    campaign, _ = knife_fight()
    play_all(campaign)
    assert recap_markdown(campaign) == recap_markdown(campaign, secrets=True)
    assert "secret" not in recap_markdown(campaign)


def test_tussle_export_leaves_secrets_out_unless_given_secrets(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    campaign, entries = knife_fight(HIDE_SLY, HIDE_BLADE)
    files = Saves(saves).create(NAME, "fate")
    files.append([*entries, *play_all(campaign)])
    assert CampaignFiles(files.folder).load().contest(CID).secret_participants == {SLY}

    def export(*extra: str) -> str:
        done = in_process("--saves", str(saves), "export", NAME, "--format", "markdown", *extra)
        assert done.returncode == 0, done.stderr
        return done.stdout

    players = export()
    assert "- Sly Vasquez: ?? → ??" in players
    assert leaks(body(players)) == []
    gm = export("--secrets")
    assert "- Sly Vasquez: 0000 → Legendary+1 (+9)" in gm
    assert "Hidden Blade" in gm
