"""The recap of a Fate conflict (issue 28, item 7): who was hit, by how much, what
absorbed it, who was taken out, who conceded and what it pays; a hidden participant's
numbers are ``??`` as in the recap's other lines. Worked from the Fate Core SRD:

* "Attack": Cynere (Fight Good +3) rolls ++00, Superb (+5), against Drisban's Fight
  Great (+4) and -000, Good (+3): a 2-shift hit. "Stress": he checks his 2-box.
* Drisban attacks back, Fight Great (+4) and ++00, Fantastic (+6), against Cynere's
  Athletics Great (+4) and --00, Fair (+2): 4 shifts. "Consequences": a moderate takes
  4; she names it Cracked Ribs.
* Exchange 2, on Cynere's turn, Drisban concedes ("Conceding"): a fate point, and none
  for consequences (he took none).
"""

from __future__ import annotations

from pathlib import Path

from core.campaign.log import ToggleSecret
from core.campaign.recap import recap_markdown
from core.saves.store import CampaignFiles
from tests.conflict_campaigns import warehouse


def harm(saves: Path, hide: bool = False) -> list[str]:
    campaign = CampaignFiles(warehouse(saves, concede=True)).load()
    if hide:
        cid = next(iter(campaign.contests))
        campaign.apply(
            campaign.decide(ToggleSecret(contest_id=cid, kind="participant", name="Drisban"))
        )
    text = recap_markdown(campaign)
    start = text.index("**Harm:**\n")
    return text[start:].split("\n\n")[0].splitlines()[1:]


def test_the_recap_tells_each_ones_hits_and_the_concession(saves: Path) -> None:
    assert harm(saves) == [
        "- Cynere: hit by Drisban for 4 physical shifts: a moderate (Cracked Ribs)",
        "- Drisban: hit by Cynere for 2 physical shifts: the 2-box; conceded: 1 fate point",
    ]


def test_a_hidden_participants_numbers_stay_out_of_the_recap(saves: Path) -> None:
    # Drisban hidden: the shifts of either hit would give his totals away; his box and
    # what his concession pays are his numbers.
    assert harm(saves, hide=True) == [
        "- Cynere: hit by Drisban for ?? physical shifts: a moderate (Cracked Ribs)",
        "- Drisban: hit by Cynere for ?? physical shifts: the ??-box; conceded: ?? fate points",
    ]


def actions(saves: Path, hide: bool) -> list[str]:
    """The recap's headings of the conflict's actions."""
    campaign = CampaignFiles(warehouse(saves, concede=True)).load()
    if hide:
        cid = next(iter(campaign.contests))
        campaign.apply(
            campaign.decide(ToggleSecret(contest_id=cid, kind="participant", name="Drisban"))
        )
    return [line for line in recap_markdown(campaign).splitlines() if "### Exchange" in line]


def test_each_action_tells_its_hit_and_what_took_it(saves: Path) -> None:
    assert actions(saves, hide=False) == [
        "### Exchange 1: Cynere attacks Drisban, a 2-shift physical hit: the 2-box",
        "### Exchange 1: Drisban attacks Cynere, a 4-shift physical hit with style: a moderate",
        "### Exchange 2: Drisban concedes (1 fate point at the end)",
    ]


def test_a_hidden_participants_numbers_stay_out_of_each_action_too(saves: Path) -> None:
    # Each hit's shifts are the difference of the two totals, Drisban's one of them (the
    # article too: "an 8-shift" would tell 8, 11 or 18); his box and his concession's
    # points are his. So is "with style": it tells 3 shifts or more (SRD, Attack).
    assert actions(saves, hide=True) == [
        "### Exchange 1: Cynere attacks Drisban, a ??-shift physical hit: the ??-box",
        "### Exchange 1: Drisban attacks Cynere, a ??-shift physical hit: a moderate",
        "### Exchange 2: Drisban concedes (?? fate points at the end)",
    ]


def test_a_hidden_participants_consequences_stay_out_too(saves: Path) -> None:
    """Cynere hidden (H): her moderate is her harm, as her boxes would be: its name and
    its severity (a moderate tells the 4 shifts) are ``??``. Drisban's own harm shows."""
    campaign = CampaignFiles(warehouse(saves, concede=True, hide_cynere=True)).load()
    text = recap_markdown(campaign)
    start = text.index("**Harm:**\n")
    assert text[start:].split("\n\n")[0].splitlines()[1:] == [
        "- Cynere: hit by Drisban for ?? physical shifts: a ?? (??)",
        "- Drisban: hit by Cynere for ?? physical shifts: the 2-box; conceded: 1 fate point",
    ]
    headings = [line for line in text.splitlines() if "### Exchange" in line]
    assert headings[1] == "### Exchange 1: Drisban attacks Cynere, a ??-shift physical hit: a ??"
    assert "Cracked Ribs" not in text and "moderate" not in text


def test_a_conflict_left_open_counts_its_exchanges_not_its_actions(saves: Path) -> None:
    """SRD, Conflicts (The Exchange: every participant acts once in it): Cynere's
    attack and Drisban's are both exchange 1, two actions in the log; the conflict is
    left open there. The recap, the scenario text and a correction's result say
    "after exchange 1", not 2."""
    from core.campaign.corrections import correct
    from core.campaign.log import Correct
    from tests.conflict_campaigns import attack

    campaign = CampaignFiles(warehouse(saves)).load()
    assert "**Result:** still open after exchange 1" in recap_markdown(campaign)
    miss = attack("Drisban", "0000", "++00", defense="Athletics")  # Great (+4) vs Superb (+5)
    worked = correct(campaign, Correct(contest_id="c1", n=2, commands=(miss,)))
    assert worked.changes()[-1] == "Result: not over after 1 exchange"
