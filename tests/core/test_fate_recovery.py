"""Recovering from consequences on the roster (issue 28, "What to build" 4), worked out by
hand from the Fate Core SRD, "Recovering from a Consequence":

* "The difficulty for this obstacle is based on the shift value of the consequence. Mild
  is Fair (+2), moderate is Great (+4), and severe is Fantastic (+6). If you are trying to
  perform the recovery action on yourself, increase the difficulty by two steps";
* then "you only have to wait one whole scene after the recovery action" (mild), "one
  whole session" (moderate), "one whole scenario" (severe), and the slot is free again;
* "mark it with a star so that everyone remembers that recovery has started".

Tussle knows a session by ``S`` (``StartSession``: the last one ended), a scenario by its
end (``EndScenario``), and a scene's end by a contest's results written back. The period
the recovery action was made in is not whole after it: its end begins the wait, and the
end of the next one clears the consequence.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from msgspec.structs import replace

from core.campaign.actions import Campaign
from core.campaign.log import (
    AddCharacter,
    Character,
    CharacterAction,
    EndScenario,
    Play,
    StartContest,
    StartSession,
    Undo,
    WriteBack,
    describe_action,
)
from core.campaign.sheet import find_sheet
from core.errors import RuleError
from core.model import ResolveExchange, RollDice
from core.saves.store import CampaignFiles, Saves
from core.systems.fate.character import FateCharacter, fate_sheet
from core.systems.fate.conflict import Recover
from core.systems.fate.events import DeclareAttack
from core.systems.fate.state import FateParticipant, new_contest
from core.systems.fate.stress import Slot
from tests.helpers import act

FREE = (Slot(severity="mild"), Slot(severity="moderate"), Slot(severity="severe"))


def landon(*written: Slot) -> Character:
    """Landon with his consequences: the ones given, the rest of Fate Core's slots free."""
    slots = list(FREE)
    for slot in written:
        i = next(i for i, s in enumerate(slots) if s.severity == slot.severity and s.free)
        slots[i] = slot
    return Character(name="Landon", sheet=FateCharacter(refresh=3, consequences=tuple(slots)))


def campaign_with(*characters: Character) -> Campaign:
    campaign = Campaign(name="Test", system="fate")
    for c in characters:
        campaign.act(AddCharacter(character=c))
    return campaign


def slot(campaign: Campaign, severity: str) -> Slot:
    return next(
        s
        for s in fate_sheet(campaign.roster["Landon"]).consequences or ()
        if s.severity == severity
    )


def recover(name: str, total: int, on_self: bool = False) -> CharacterAction:
    return CharacterAction(
        who="Landon", action=Recover(consequence=name, total=total, on_self=on_self)
    )


LEG = Slot(severity="moderate", aspect="Broken Leg")
GUT = Slot(severity="severe", aspect="Nearly Gutted")
EYE = Slot(severity="mild", aspect="Black Eye")


def test_a_moderate_needs_great_or_fantastic_on_yourself() -> None:
    campaign = campaign_with(landon(LEG))
    with pytest.raises(RuleError, match=r"Good \(\+3\) does not reach Great \(\+4\)"):
        campaign.act(recover("Broken Leg", 3))
    # On yourself: Great + two steps = Fantastic (+6); Great (+4) fails.
    with pytest.raises(RuleError, match=r"does not reach Fantastic \(\+6\)"):
        campaign.act(recover("Broken Leg", 4, on_self=True))
    assert slot(campaign, "moderate").recovery == "none"
    campaign.act(recover("Broken Leg", 4))  # someone else, Great: it starts
    assert slot(campaign, "moderate") == Slot(
        severity="moderate", aspect="Broken Leg", recovery="treated"
    )
    assert str(slot(campaign, "moderate")) == "moderate: Broken Leg*"  # the SRD's star
    with pytest.raises(RuleError, match="already recovering"):
        campaign.act(recover("Broken Leg", 6))
    with pytest.raises(RuleError, match='no consequence "Broken Arm"'):
        campaign.act(recover("Broken Arm", 6))


def test_a_moderate_clears_a_whole_session_after_its_recovery() -> None:
    campaign = campaign_with(landon(LEG))
    campaign.act(recover("Broken Leg", 6, on_self=True))  # Fantastic on himself: enough
    campaign.act(StartSession())  # the session of the recovery ends: the wait begins
    assert slot(campaign, "moderate").aspect == "Broken Leg"
    assert slot(campaign, "moderate").recovery == "healing"
    campaign.act(StartSession())  # a whole session after it: cleared, the slot free
    assert slot(campaign, "moderate") == Slot(severity="moderate")
    campaign.act(Undo())  # undone: back as it was
    assert slot(campaign, "moderate").aspect == "Broken Leg"


def test_a_consequence_never_treated_stays_whatever_the_time() -> None:
    campaign = campaign_with(landon(LEG, GUT))
    for _ in range(3):
        campaign.act(StartSession())
        campaign.act(EndScenario())
    assert slot(campaign, "moderate") == LEG and slot(campaign, "severe") == GUT
    assert campaign.settings["scenarios"] == 3


def test_a_severe_clears_a_whole_scenario_after_its_recovery_not_with_sessions() -> None:
    campaign = campaign_with(landon(GUT))
    with pytest.raises(RuleError, match=r"Superb \(\+5\) does not reach Fantastic \(\+6\)"):
        campaign.act(recover("Nearly Gutted", 5))
    campaign.act(recover("Nearly Gutted", 6))
    campaign.act(StartSession())
    campaign.act(StartSession())
    assert slot(campaign, "severe").recovery == "treated"  # sessions are not a scenario
    campaign.act(EndScenario())
    assert slot(campaign, "severe").recovery == "healing"
    campaign.act(StartSession())
    assert slot(campaign, "severe").aspect == "Nearly Gutted"
    campaign.act(EndScenario())
    assert slot(campaign, "severe") == Slot(severity="severe")
    assert campaign.settings["scenarios"] == 2
    campaign.act(Undo())
    assert slot(campaign, "severe").recovery == "healing"


def test_a_mild_clears_a_whole_scene_after_its_recovery() -> None:
    # A contest's results written back end its scene.
    campaign = campaign_with(landon(EYE), Character(name="Zird"))
    campaign.act(recover("Black Eye", 2))  # Fair: enough for a mild

    def a_scene() -> None:
        race = new_contest(
            [
                FateParticipant(name="Zird", side="Zird", skill=1),
                FateParticipant(name="X", side="X", skill=0),
            ]
        )
        campaign.act(StartContest(title="A scene", contest=race))
        record = campaign.latest_contest
        assert record is not None
        campaign.act(
            Play(
                contest_id=record.contest_id,
                commands=(
                    RollDice(who="Zird", faces=(0, 0, 0, 0)),
                    RollDice(who="X", faces=(0, 0, 0, 0)),
                    DeclareAttack(by="Zird"),
                    ResolveExchange(),
                ),
            )
        )
        campaign.act(WriteBack(contest_id=record.contest_id))

    a_scene()  # the scene of the recovery ends (Landon was not in it: time passes alike)
    assert slot(campaign, "mild").recovery == "healing"
    a_scene()  # a whole scene after it
    assert slot(campaign, "mild") == Slot(severity="mild")


def test_a_session_start_tells_what_recovered() -> None:
    sheet = find_sheet("fate")
    hurt = landon(LEG)
    assert sheet.session_news(hurt, sheet.act(hurt, recover("Broken Leg", 4).action)) == [
        "Landon's Broken Leg (moderate) is recovering: it clears a whole session after this one"
    ]
    treated = replace(landon(replace_recovery(LEG, "treated")), kind="npc")  # no refresh
    healing = sheet.new_session(treated, None)
    assert sheet.session_news(treated, healing) == [
        "Landon's Broken Leg (moderate) clears at the next session's end (S)"
    ]
    cleared = sheet.new_session(healing, None)
    assert sheet.session_news(healing, cleared) == ["Landon's Broken Leg (moderate) has cleared"]
    assert describe_action(recover("Broken Leg", 4)) == "recover (Landon)"


def replace_recovery(s: Slot, recovery: Literal["none", "treated", "healing"]) -> Slot:
    return replace(s, recovery=recovery)


def test_an_extreme_consequence_has_no_recovery_action() -> None:
    arm = Slot(severity="extreme", aspect="Lost an Arm")
    campaign = campaign_with(
        Character(name="Landon", sheet=FateCharacter(consequences=(*FREE, arm)))
    )
    with pytest.raises(RuleError, match="major milestone"):
        campaign.act(recover("Lost an Arm", 8))


def test_recovery_is_saved_and_reloads(tmp_path: Path) -> None:
    files = Saves(tmp_path).create("Recovery", "fate")
    campaign = CampaignFiles(files.folder).load()
    act(campaign, files, AddCharacter(character=landon(LEG, GUT)))
    act(campaign, files, recover("Broken Leg", 4))
    act(campaign, files, recover("Nearly Gutted", 6))
    act(campaign, files, EndScenario())
    reopened = CampaignFiles(files.folder).load()
    assert slot(reopened, "moderate").recovery == "healing"  # a scenario's end ends a session
    assert slot(reopened, "severe").recovery == "healing"
    assert reopened.settings["scenarios"] == 1
    act(reopened, CampaignFiles(files.folder), Undo())
    again = CampaignFiles(files.folder).load()
    assert slot(again, "moderate").recovery == "treated"


def test_the_summary_says_how_far_a_recovery_went() -> None:
    # A contest's write-back ends a scene: Landon's treated mild begins its whole scene.
    # The summary's roster line must show a change, not the same words on both sides.
    treated = Slot(severity="mild", aspect="Black Eye", recovery="treated")
    healing = replace(treated, recovery="healing")
    assert str(treated) == "mild: Black Eye*"
    assert str(healing) == "mild: Black Eye* (clears at the next scene's end)"
    assert str(replace(LEG, recovery="healing")) == (
        "moderate: Broken Leg* (clears at the next session's end)"
    )
