"""Fate conflict scenarios for ``tussle resolve`` and ``tussle odds`` (issue 28, slice 4):
the keys README's "Scenario files" gives, the example worked by hand
(tests/scenarios/fate-conflict-cynere-drisban.json, checked with every example by
tests/core/test_scenarios.py), exact odds worked by hand, and every bad value refused
with its place."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers import in_process

A_TITAN = {"name": "Titan", "skills": {"Fight": 10, "Athletics": 10, "Notice": 1}}
A_MOOK = {"name": "Mook", "skills": {}}


def scenario(**changes: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "system": "fate",
        "conflict": {},
        "participants": [
            {"name": "Cynere", "skills": {"Fight": 3, "Notice": 3, "Athletics": 4}},
            {"name": "Drisban", "skills": {"Fight": 4}},
        ],
        "exchanges": [],
    }
    out.update(changes)
    return out


def resolve(data: dict[str, Any], *argv: str) -> Any:
    run = in_process("resolve", *argv, "-", stdin=json.dumps(data))
    return run


def test_odds_of_being_taken_out_worked_by_hand() -> None:
    """Titan (Fight and Athletics Legendary+2, +10; Notice, so first) against a Mook
    (all Mediocre: boxes 1 and 2; mild, moderate, severe: at most 2 + 2 + 4 + 6 = 14
    shifts absorbed). The Mook is taken out in this exchange when Titan's attack beats
    his defense by 15 or more: 10 + 4dF - 4dF >= 15, eight Fate dice summing to 5 or
    more, in 112 + 36 + 8 + 1 = 157 of the 3^8 = 6561 throws. The Mook never hits Titan
    (0 + 4 against 10 - 4 at best, a margin of -2): Titan is never taken out, and wins
    the conflict for sure."""
    data = scenario(participants=[A_TITAN, A_MOOK])
    run = in_process("odds", "-", stdin=json.dumps(data))
    assert run.returncode == 0, run.stderr
    odds = json.loads(run.stdout)
    taken = odds["exchange"]["taken_out"]
    assert taken["Mook"]["chance_exact"] == "157/6561"
    assert taken["Titan"]["chance_exact"] == "0"
    assert odds["contest"]["sides"]["Titan"]["win_exact"] == "1"
    assert odds["contest"]["sides"]["Mook"]["win_exact"] == "0"
    text = in_process("odds", "--text", "-", stdin=json.dumps(data)).stdout
    assert "Mook   taken out by its end   2.4%" in text


def test_a_full_conflict_with_full_defense_and_taken_out() -> None:
    """Exchange 1: Cynere (Notice, first) goes on full defense; Drisban attacks her,
    Fight +4 rolling 0 (+4) against her Athletics +4 rolling 0, +2: Superb (+6): he
    fails by 2, no boost. Exchange 2: Cynere attacks with Fight +3 rolling ++++ (Legendary
    +7) against Drisban's Fight +4 rolling ---- (Mediocre +0): 7 shifts, with style.
    Drisban (boxes 1, 2; mild, moderate, severe) could take it, but is taken out."""
    data = scenario(
        exchanges=[
            {"full_defense": "Cynere"},
            {
                "attack": {
                    "by": "Drisban",
                    "target": "Cynere",
                    "skill": "Fight",
                    "dice": "0000",
                    "defense": "Athletics",
                    "defense_dice": "0000",
                }
            },
            {
                "attack": {
                    "by": "Cynere",
                    "target": "Drisban",
                    "skill": "Fight",
                    "dice": "++++",
                    "defense": "Fight",
                    "defense_dice": "----",
                },
                "taken_out": True,
            },
        ]
    )
    run = resolve(data)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    defended = out["exchanges"][1]["attack"]
    assert (defended["full_defense"], defended["defense_total"], defended["outcome"]) == (
        True,
        6,
        "fail",
    )
    hit = out["exchanges"][2]
    assert (hit["exchange"], hit["attack"]["shifts"], hit["taken_out"]) == (2, 7, True)
    assert (out["winner"], out["ended_by"], out["taken_out"]) == (
        "Cynere",
        "taken out",
        ["Drisban"],
    )


ATTACK = {
    "by": "Cynere",
    "target": "Drisban",
    "skill": "Fight",
    "dice": "++00",
    "defense": "Fight",
    "defense_dice": "-000",
}


@pytest.mark.parametrize(
    ("exchanges", "place", "said"),
    [
        ([{"attack": {**ATTACK, "dice": "+++"}}], "exchanges[0].attack.dice", ""),
        ([{"attack": {**ATTACK, "target": "Zird"}}], "exchanges[0].attack.target", "Zird"),
        (
            [{"attack": {**ATTACK, "by": "Drisban", "target": "Cynere"}}],
            "exchanges[0].attack",
            "turn",
        ),
        ([{"attack": ATTACK, "absorb": {"boxes": [3]}}], "exchanges[0].absorb.boxes[0]", "3-box"),
        ([{"attack": ATTACK, "absorb": {"boxes": [0]}}], "exchanges[0].absorb.boxes[0]", ""),
        ([{"attack": ATTACK, "absorb": {"boxes": [1]}}], "exchanges[0].absorb", "does not absorb"),
        (
            [{"attack": ATTACK, "absorb": {"consequences": [{"severity": "grave", "name": "X"}]}}],
            "exchanges[0].absorb.consequences[0].severity",
            "",
        ),
        ([{"attack": ATTACK}, {"concede": "Drisban"}], "exchanges[1].concede", "roll"),
        ([{"attack": ATTACK, "rolls": {"Cynere": "0000"}}], "exchanges[0].rolls", "contest"),
        ([{"absorb": {"boxes": [1]}}], "exchanges[0].absorb", "no hit"),
    ],
)
def test_a_bad_conflict_scenario_names_the_place(
    exchanges: list[dict[str, Any]], place: str, said: str
) -> None:
    run = resolve(scenario(exchanges=exchanges))
    assert run.returncode != 0
    assert place in run.stderr, run.stderr
    assert said in run.stderr


@pytest.mark.parametrize(
    ("conflict", "place"),
    [
        ({"extra_boxes": 11}, "conflict.extra_boxes"),
        ({"extra_boxes": -1}, "conflict.extra_boxes"),
        ({"kind": "social"}, "conflict.kind"),
        ({"order": ["Cynere"]}, "conflict.order"),
        ({"order": ["Cynere", "Cynere"]}, "conflict.order"),
        ({"colour": "red"}, "conflict.colour"),
    ],
)
def test_bad_conflict_options_are_refused(conflict: dict[str, Any], place: str) -> None:
    run = resolve(scenario(conflict=conflict))
    assert run.returncode != 0
    assert place in run.stderr, run.stderr


def test_huge_and_negative_skills_and_points() -> None:
    huge = scenario(
        participants=[
            {"name": "Cynere", "skills": {"Fight": 10**12}},
            {"name": "Drisban", "skills": {"Fight": 4}},
        ]
    )
    run = resolve(huge)
    assert run.returncode != 0 and "participants[0].skills.Fight" in run.stderr, run.stderr
    minus = scenario(
        participants=[
            {"name": "Cynere", "fate_points": -1},
            {"name": "Drisban", "skills": {"Fight": 4}},
        ]
    )
    run = resolve(minus)
    assert run.returncode != 0 and "participants[0].fate_points" in run.stderr, run.stderr


def test_a_recorded_conflict_brings_its_people_skills_and_scars(tmp_path: Any) -> None:
    """``--record``: the example's two newcomers join the roster with the skills they
    fought with, and Drisban keeps his mild consequence (SRD: consequences stay) and the
    two fate points his concession paid (1 + one consequence)."""
    from core.saves.store import CampaignFiles
    from core.systems.fate.character import fate_sheet
    from tests.conftest import SCENARIOS

    saves = tmp_path / "saves"
    saves.mkdir()
    example = SCENARIOS / "fate-conflict-cynere-drisban.json"
    run = in_process("--saves", str(saves), "resolve", "--record", "Warehouse", str(example))
    assert run.returncode == 0, run.stderr
    roster = CampaignFiles(saves / "warehouse").load().roster
    assert roster["Drisban"].ratings == {"Fight": 4}
    assert roster["Cynere"].ratings == {"Fight": 3, "Notice": 3, "Athletics": 4, "Physique": 1}
    drisban = fate_sheet(roster["Drisban"])
    assert drisban.fate_points == 2
    assert drisban.consequences is not None
    assert [(s.severity, s.aspect) for s in drisban.consequences] == [
        ("mild", "Bleeding Cut"),
        ("moderate", None),
        ("severe", None),
    ]


# -- invokes on a conflict's attacks (spelt as a contest's, scenario.md) -----------------------


def attack(by: str, dice: str, defense_dice: str, *invokes: dict[str, Any]) -> dict[str, Any]:
    """``by`` attacks the other with Fight; the other defends with Fight (Cynere with
    Athletics), each roll's dice as given."""
    return {
        "by": by,
        "target": "Drisban" if by == "Cynere" else "Cynere",
        "skill": "Fight",
        "dice": dice,
        "defense": "Fight" if by == "Cynere" else "Athletics",
        "defense_dice": defense_dice,
        "invokes": list(invokes),
    }


MUDDY = [{"name": "Muddy Ground"}]
WITH_POINTS = [
    {"name": "Cynere", "skills": {"Fight": 3, "Notice": 3, "Athletics": 4}, "fate_points": 2},
    {"name": "Drisban", "skills": {"Fight": 4}, "fate_points": 1},
]
INVOKED = scenario(
    aspects=MUDDY,
    participants=WITH_POINTS,
    exchanges=[
        {
            "attack": attack("Cynere", "0000", "-000", {"by": "Cynere", "aspect": "Muddy Ground"}),
            "absorb": {"boxes": [2]},
        },
        {
            "attack": attack(
                "Drisban",
                "++00",
                "--00",
                {"by": "Cynere", "aspect": "Muddy Ground", "effect": "reroll", "dice": "++00"},
            )
        },
        {
            "attack": attack(
                "Cynere",
                "0000",
                "-000",
                {"by": "Drisban", "aspect": "Drisban's boost", "free": True},
            )
        },
        {"end": True},
    ],
)


def test_invokes_on_a_conflicts_attacks_from_both_sides() -> None:
    """SRD, Invoking Aspects (+2 or a reroll, a fate point or a free invoke; "after
    you've rolled"), Conflicts (Resolving Attacks), Boosts. Exchange 1: Cynere, Fight +3,
    0000: Good (+3), ties Drisban's Fight +4, -000: Good (+3); she pays a fate point for
    Muddy Ground, +2: Superb (+5), a 2-shift hit (his 2-box). Drisban, Fight +4, ++00:
    Fantastic (+6), against her Athletics +4, --00: Fair (+2); she pays her last point for
    Muddy Ground again (another roll) to reroll: ++00, Fantastic (+6): a tie, no harm,
    a boost for Drisban. Exchange 2: her Good (+3) against his Good (+3), his boost
    invoked free on his defense: Superb (+5): she fails by 2 (no boost: not by 3); the
    boost is gone. Points: Cynere 2 - 2 = 0, Drisban 1."""
    run = resolve(INVOKED)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    first, second, third = (x["attack"] for x in out["exchanges"])
    assert (first["total"], first["defense_total"], first["shifts"]) == (5, 3, 2)
    assert first["invokes"] == [
        {"by": "Cynere", "aspect": "Muddy Ground", "effect": "+2", "paid": "fate point"}
    ]
    assert out["exchanges"][0]["boxes"] == [2]
    assert (second["total"], second["defense_total"], second["outcome"]) == (6, 6, "tie")
    assert second["boost"] == "Drisban's boost"
    assert second["defense_invokes"] == [
        {
            "by": "Cynere",
            "aspect": "Muddy Ground",
            "effect": "reroll",
            "paid": "fate point",
            "dice": "++00",
        }
    ]
    assert (third["defense_total"], third["outcome"]) == (5, "fail")
    assert third["defense_invokes"][0]["paid"] == "free"
    assert out["fate_points"] == {"Cynere": 0, "Drisban": 1}
    assert [a["name"] for a in out["aspects"]] == ["Muddy Ground"]  # the boost is gone


@pytest.mark.parametrize(
    ("invoke", "place", "said"),
    [
        ({"by": "Zird", "aspect": "Muddy Ground"}, "attack.invokes[0].by", "Zird"),
        ({"by": "Cynere", "aspect": "Fog"}, "attack.invokes[0].aspect", "Fog"),
        ({"by": "Cynere", "aspect": "Muddy Ground", "colour": 1}, "invokes[0].colour", ""),
        ({"by": "Cynere", "aspect": "Muddy Ground", "effect": "reroll"}, "invokes[0]", "dice"),
        ({"by": "Cynere", "aspect": "Muddy Ground", "free": True}, "exchanges[0]", "free"),
    ],
)
def test_a_bad_invoke_on_a_conflicts_attack_names_the_place(
    invoke: dict[str, Any], place: str, said: str
) -> None:
    data = scenario(aspects=MUDDY, exchanges=[{"attack": attack("Cynere", "0000", "-000", invoke)}])
    run = resolve(data)
    assert run.returncode == 2, run.stderr
    assert place in run.stderr and said in run.stderr, run.stderr


def test_a_recorded_conflict_keeps_its_invokes_and_their_points(tmp_path: Any) -> None:
    """``--record`` of the invokes above: the log keeps each invoke under the roll it
    changed, and Cynere's two fate points spent are gone from the roster."""
    from core.rules import find_system
    from core.saves.store import CampaignFiles
    from core.systems.fate.character import fate_sheet

    saves = tmp_path / "saves"
    saves.mkdir()
    run = in_process(
        "--saves", str(saves), "resolve", "--record", "Warehouse", "-", stdin=json.dumps(INVOKED)
    )
    assert run.returncode == 0, run.stderr
    campaign = CampaignFiles(saves / "warehouse").load()
    record = campaign.contest("c1")
    lines = [line for x in record.exchanges for line in find_system("fate").describe(x)]
    assert "    Cynere invokes Muddy Ground (1 FP): +2" in lines
    assert "    Cynere invokes Muddy Ground (1 FP): reroll ++00" in lines
    assert "    Drisban invokes Drisban's boost (free): +2" in lines
    assert fate_sheet(campaign.roster["Cynere"]).fate_points == 0


def test_the_odds_count_a_hit_waiting_with_the_invokes_paid_on_it() -> None:
    """A hit rolled and waiting for its absorption counts, at the total its invokes made
    (SRD, Invoking Aspects: +2 after the roll; Getting Taken Out). Titan (Fight +10;
    Notice, first) attacks the Mook (all Mediocre: boxes 1 and 2, mild 2, moderate 4,
    severe 6: 2 + 2 + 4 + 6 = 14 shifts at most): +++0, Legendary+2 (+13), against his
    0000, Mediocre (+0): 13 shifts, which the 1-box and all three slots absorb. What is
    left of the exchange is the Mook's attack, which never hits Titan (0 + 4 against
    10 - 4, a margin of -2): nobody is taken out by its end. With Titan's fate point
    paid for Muddy Ground, +2: 15 shifts, more than 14: the Mook is taken out, for sure.
    Before, the odds left the hit waiting out and counted Titan's attack again
    (157/6561)."""

    def odds(*invokes: dict[str, Any]) -> Any:
        titan = {**A_TITAN, "fate_points": 1}
        hit = {
            "by": "Titan",
            "target": "Mook",
            "skill": "Fight",
            "dice": "+++0",
            "defense": "Athletics",
            "defense_dice": "0000",
            "invokes": list(invokes),
        }
        data = scenario(participants=[titan, A_MOOK], aspects=MUDDY, exchanges=[{"attack": hit}])
        run = in_process("odds", "-", stdin=json.dumps(data))
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)

    plain = odds()
    assert plain["exchange"]["taken_out"]["Mook"]["chance_exact"] == "0"
    assert "the hit waiting on Mook (13 shifts" in plain["note"]
    invoked = odds({"by": "Titan", "aspect": "Muddy Ground"})
    assert invoked["exchange"]["taken_out"]["Mook"]["chance_exact"] == "1"
    assert invoked["contest"]["sides"]["Titan"]["win_exact"] == "1"
    assert "(15 shifts, invokes included)" in invoked["note"]


def test_the_text_counts_the_conflicts_exchanges_not_its_actions() -> None:
    """The example's four actions are two exchanges (SRD, Conflicts: each acts once in an
    exchange): Cynere's and Drisban's attacks, then her attack and his concession."""
    from tests.conftest import SCENARIOS

    example = SCENARIOS / "fate-conflict-cynere-drisban.json"
    run = in_process("resolve", "--text", str(example))
    assert run.returncode == 0, run.stderr
    assert run.stdout.rstrip().endswith("Contest over after exchange 2: Cynere wins."), run.stdout


def test_the_odds_count_the_conflicts_exchanges_not_its_actions() -> None:
    """``tussle odds`` after the example's first three actions (SRD, Conflicts: an
    exchange is each participant acting once): Cynere's and Drisban's attacks are
    exchange 1, Cynere's second attack opens exchange 2, Drisban still to act in it. So
    the odds are after exchange 2, as the recap counts (``still open after exchange 2``),
    not after 3 (the actions), in the JSON and the text; the taken-out odds run to the end
    of exchange 2, which is under way, not a "next" one."""
    from tests.conftest import SCENARIOS

    data = json.loads((SCENARIOS / "fate-conflict-cynere-drisban.json").read_text())
    data["exchanges"] = data["exchanges"][:3]
    run = in_process("odds", "-", stdin=json.dumps(data))
    assert run.returncode == 0, run.stderr
    odds = json.loads(run.stdout)
    assert (odds["after_exchange"], odds["exchange"]["exchange"]) == (2, 2)
    text = in_process("odds", "--text", "-", stdin=json.dumps(data)).stdout.splitlines()
    assert text[0] == "Fate Core odds after exchange 2"
    assert "Exchange 2, to its end:" in text and "Next exchange:" not in text
    recap = in_process("resolve", "--text", "-", stdin=json.dumps(data)).stdout
    assert recap.rstrip().endswith("Contest still open after exchange 2.")
