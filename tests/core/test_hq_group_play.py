"""A HeroQuest group extended contest played through the engine and ``tussle resolve``
(issue 29 item 1): the pure rules (``group_extended``, tested on HQ2's own examples in
test_hq_group_extended.py) as commands, events, saved state and scenario keys.

Each expected value is worked by hand, in the comment beside it, from rules.md §2.3 (a 1
is a critical, 2 to the target a success, above it a failure, 20 a fumble; one level apart
minor, two major, three complete; equal levels: the low roll, marginal), §2.7's table
(marginal 1, minor 2, major 3, complete 5 resolution points), §2.8.6 (rising action by the
difference) and HQ2's Group Extended Contests (out at 5 points from one opponent; -3 for
each further exchange of the round against an opponent still engaging you; assists,
disengaging, parting shots, boosts).
"""

from __future__ import annotations

from typing import Any

import pytest

from core.engine import apply
from core.errors import OutOfTurn, RuleError
from core.files.codec import decode, encode
from core.model import AnyContest, AnyEvent, ResolveExchange, RollDice
from core.rules.reading import ScenarioError
from core.scenario import resolve
from core.systems.heroquest.events import SetParties
from core.systems.heroquest.group_play import Engage, HQGroupContest, new_group
from core.systems.heroquest.state import HQOptions, HQParticipant


def three(**options: Any) -> dict[str, Any]:
    """Tripitaka and Sandy (15 each) against one Ghoul (15)."""
    return {
        "system": "heroquest",
        "options": {"group": True, **options},
        "participants": [
            {"name": "Tripitaka", "side": "Heroes", "rating": "15", "hero_points": 1},
            {"name": "Sandy", "side": "Heroes", "rating": "15"},
            {"name": "Ghoul", "side": "Ghouls", "rating": "15"},
        ],
        "exchanges": [],
    }


def played(scenario: dict[str, Any], *exchanges: dict[str, Any]) -> Any:
    return resolve({**scenario, "exchanges": list(exchanges)}).to_json()


def error(scenario: dict[str, Any], *exchanges: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as caught:
        resolve({**scenario, "exchanges": list(exchanges)})
    return str(caught.value)


BOTH_ON_GHOUL = {"engage": [["Tripitaka", "Ghoul"], ["Sandy", "Ghoul"]]}


def test_two_against_one_to_the_end() -> None:
    # Round 1: Tripitaka 1 (critical) v Ghoul 10 (success): minor, 2 against the Ghoul.
    # Sandy 10 (success) v Ghoul 1: the Ghoul's second exchange of the round against
    # Tripitaka still engaging it: 15 - 3 = 12; critical v success: minor, 2 on Sandy.
    # Round 2: Tripitaka 1 v Ghoul 20 (fumble; its first exchange this round: 15):
    # complete, 5: 7 against the Ghoul, out; nobody standing on its side: Heroes win.
    # Rising action on the engagement that felled it: 7 - 0 = 7: dying, complete.
    got = played(
        three(),
        {**BOTH_ON_GHOUL, "rolls": {"Tripitaka": 1, "Ghoul": 10}},
        {"rolls": {"Sandy": 10, "Ghoul": 1}},
        {"rolls": {"Tripitaka": 1, "Ghoul": 20}},
    )
    first, second, third_ = got["exchanges"]
    assert (first["round"], first["winner"], first["victory"], first["resolution_points"]) == (
        1,
        "Tripitaka",
        "minor",
        2,
    )
    assert second["targets"] == {"Sandy": "15", "Ghoul": "12"}
    assert (second["winner"], second["against"]) == ("Ghoul", {"Sandy": 2, "Ghoul": 0})
    assert (third_["round"], third_["targets"]["Ghoul"], third_["victory"]) == (2, "15", "complete")
    assert third_["against"] == {"Tripitaka": 0, "Ghoul": 7} and third_["out"] == ["Ghoul"]
    assert (got["finished"], got["winner"], got["ended_by"]) == (True, "Heroes", "group")
    assert got["status"] == {"Tripitaka": "active", "Sandy": "active", "Ghoul": "eliminated"}
    assert got["consequences"] == {"Ghoul": ["dying"]}
    assert got["victories"] == {"Tripitaka": "complete"}


def test_the_pairings_play_in_order_and_the_round_turns() -> None:
    # The coming exchange is Tripitaka v Ghoul: Sandy's rolls are refused by name.
    assert error(three(), {**BOTH_ON_GHOUL, "rolls": {"Sandy": 3, "Ghoul": 4}}).startswith(
        "exchanges[0].rolls.Sandy: the coming exchange is Tripitaka v Ghoul"
    )
    # Equal rolls, equal levels: ties (no points), and round 2 starts with Tripitaka again.
    got = played(
        three(),
        {**BOTH_ON_GHOUL, "rolls": {"Tripitaka": 5, "Ghoul": 5}},
        {"rolls": {"Sandy": 5, "Ghoul": 5}},
        {"rolls": {"Tripitaka": 5, "Ghoul": 5}},
    )
    assert [e["round"] for e in got["exchanges"]] == [1, 1, 2]
    assert [e["pairing"][0] for e in got["exchanges"]] == ["Tripitaka", "Sandy", "Tripitaka"]
    assert not got["finished"]


def test_an_assist_takes_points_off_the_beneficiary() -> None:
    # Ghoul beats Tripitaka: Tripitaka 10 (success) v Ghoul 1 (critical): minor, 2 on
    # Tripitaka. Sandy, engaged with nobody, assists against Moderate (the base, 14):
    # Sandy 1 (critical) v 10 (success): minor victory: -2 (HQ2's Assist Results Table):
    # Tripitaka back to 0. The next assist for him would face High (14 + 6).
    got = played(
        three(),
        {"engage": [["Tripitaka", "Ghoul"]], "rolls": {"Tripitaka": 10, "Ghoul": 1}},
        {"assist": {"helper": "Sandy", "for": "Tripitaka", "roll": 1, "resistance_roll": 10}},
    )
    hit, helped = got["exchanges"]
    assert hit["against"] == {"Tripitaka": 2, "Ghoul": 0}
    assert helped["kind"] == "assist" and helped["targets"] == {"Sandy": "15", "resistance": "14"}
    assert (helped["winner"], helped["victory"], helped["change"]) == ("Sandy", "minor", -2)
    assert got["against"]["Tripitaka"] == 0


def test_an_engaged_character_does_not_assist() -> None:
    # HQ2, Assists: only a character not enmeshed in a contest of its own.
    assert "Sandy is engaged" in error(
        three(),
        {**BOTH_ON_GHOUL, "rolls": {"Tripitaka": 10, "Ghoul": 1}},
        {"assist": {"helper": "Sandy", "for": "Tripitaka", "roll": 1, "resistance_roll": 10}},
    )


def test_a_won_disengagement_leaves_the_contest_without_points() -> None:
    # Sandy tries to disengage: 1 (critical) v the Ghoul's 10 (its second exchange, 12):
    # a minor victory that scores nothing, and Sandy is out (disengaged); Tripitaka still
    # stands for the Heroes.
    got = played(
        three(),
        {**BOTH_ON_GHOUL, "rolls": {"Tripitaka": 5, "Ghoul": 5}},
        {"aims": {"Sandy": "disengage"}, "rolls": {"Sandy": 1, "Ghoul": 10}},
    )
    escape = got["exchanges"][1]
    assert (escape["winner"], escape["victory"], escape["resolution_points"]) == (
        "Sandy",
        "minor",
        0,
    )
    assert escape["disengaged"] == "Sandy"
    assert got["status"]["Sandy"] == "disengaged" and not got["finished"]


def test_a_parting_shot_the_round_after_a_fall() -> None:
    # Two Ghouls so the contest goes on. Round 1: Tripitaka 1 v Ghoul 20: complete, 5:
    # the Ghoul is out. Sandy 5 v Wight 5: a tie. Round 2: Sandy's parting shot at the
    # Ghoul: 1 (critical) v 10 (success, 15): minor, 2 more against it: 7.
    scenario = three()
    scenario["participants"] = [
        *scenario["participants"],
        {"name": "Wight", "side": "Ghouls", "rating": "15"},
    ]
    got = played(
        scenario,
        {
            "engage": [["Tripitaka", "Ghoul"], ["Sandy", "Wight"]],
            "rolls": {"Tripitaka": 1, "Ghoul": 20},
        },
        {"rolls": {"Sandy": 5, "Wight": 5}},
        {"parting_shot": {"shooter": "Sandy", "target": "Ghoul", "rolls": [1, 10]}},
    )
    shot = got["exchanges"][2]
    assert (shot["kind"], shot["round"], shot["winner"], shot["victory"]) == (
        "parting shot",
        2,
        "Sandy",
        "minor",
    )
    assert got["against"]["Ghoul"] == 7


def test_a_round_boost_raises_a_tie_of_the_boosting_side() -> None:
    # Heroes (2 members: 1 hero point, §2.7.4) boost the round: Tripitaka 5 v Ghoul 5, a
    # tie, becomes Tripitaka's marginal victory: 1 point against the Ghoul.
    got = played(
        three(),
        {
            **BOTH_ON_GHOUL,
            "boost": {"side": "Heroes", "paid": {"Tripitaka": 1}},
            "rolls": {"Tripitaka": 5, "Ghoul": 5},
        },
    )
    ex = got["exchanges"][0]
    assert (ex["winner"], ex["victory"], ex["resolution_points"]) == ("Tripitaka", "marginal", 1)
    assert got["hero_points"]["Tripitaka"] == 0


def test_one_hero_point_per_exchange_and_only_the_pairing_rolls() -> None:
    # §2.3: at most one hero point per exchange in an extended contest (Tripitaka has 3).
    scenario = three()
    scenario["participants"][0] = {**scenario["participants"][0], "hero_points": 3}
    assert "at most 1 hero point per exchange" in error(
        scenario,
        {**BOTH_ON_GHOUL, "rolls": {"Tripitaka": 5, "Ghoul": 5}, "hero_points": {"Tripitaka": 2}},
    )


def test_a_group_contest_is_played_by_its_pairings_and_saved_as_it_is() -> None:
    c = new_group(
        [
            HQParticipant(name="Hero", side="pc", rating=15),
            HQParticipant(name="Foe", side="npc", rating=15),
        ],
        HQOptions(group_extended=True),
    )
    with pytest.raises(OutOfTurn, match="engage a pairing first"):
        apply(c, RollDice(who="Hero", faces=(3,)))
    with pytest.raises(RuleError, match="played by its pairings"):
        apply(c, SetParties(a="Hero", b="Foe"))
    c2, events = apply(c, Engage(a="Hero", b="Foe"))
    c3, more = apply(c2, RollDice(who="Hero", faces=(1,)))
    c4, last = apply(c3, RollDice(who="Foe", faces=(10,)))
    c5, done = apply(c4, ResolveExchange())
    assert isinstance(c5, HQGroupContest)
    assert c5.group_state.engagements[0].against_b == 2  # critical v success: minor, 2
    # Saved and read back, under heroquest tags: the contest and every event.
    assert decode(encode(c5), AnyContest) == c5
    for event in (*events, *more, *last, *done):
        assert decode(encode(event), AnyEvent) == event
    assert encode(c5)["@"] == "heroquest.HQGroupContest"


def test_group_keys_outside_a_group_contest_are_refused() -> None:
    plain = three()
    plain["options"] = {"extended": True}
    assert error(plain, {"engage": [["Tripitaka", "Ghoul"]]}).startswith("exchanges[0].engage")
    plain["participants"][1] = {**plain["participants"][1], "role": "contestant"}
    assert error(plain).startswith("participants[1].role: for a group extended contest")


def test_odds_for_the_coming_round() -> None:
    # Round 1, plain rolls: the Ghoul is out only by a complete defeat (5 points at once),
    # critical against fumble: 1 roll pair in 400, in each of its two exchanges (the
    # -3 on the second does not change which rolls are a critical or a fumble):
    # 1 - (399/400)^2 = 799/160000; the Heroes win this round exactly then.
    from core.odds.report import odds_for
    from core.scenario import resolve as play_scenario

    contest = play_scenario({**three(), "exchanges": [BOTH_ON_GHOUL]}).contest
    odds = odds_for(contest)
    assert odds["next_round"]["out"]["Ghoul"]["out_exact"] == "799/160000"
    assert odds["next_round"]["ends"]["Heroes"]["win_exact"] == "799/160000"
    # The coming exchange, Tripitaka v Ghoul at 15 each: only equal rolls tie (equal
    # levels otherwise go to the low roll, §2.3 step 7): 20 pairs of 400, 1/20.
    assert odds["exchange"]["parties"] == ["Tripitaka", "Ghoul"]
    assert odds["exchange"]["tie_exact"] == "1/20"


@pytest.mark.parametrize("bad", [0, -1, 21, 10**9])
def test_a_side_contests_d20s_show_1_to_20(bad: int) -> None:
    # A d20 shows 1 to 20 (§2.3): an assist's resistance roll, a parting shot's or a
    # removal's rolls outside that are refused, nothing played.
    from core.systems.heroquest.group_play import Assist

    c = new_group(
        [
            HQParticipant(name="Hero", side="pc", rating=15),
            HQParticipant(name="Aide", side="pc", rating=15),
            HQParticipant(name="Foe", side="npc", rating=15),
        ],
        HQOptions(group_extended=True),
    )
    c2, _ = apply(c, Engage(a="Hero", b="Foe"))
    for cmd in (
        Assist(helper="Aide", beneficiary="Hero", roll=5, resistance_roll=bad),
        Assist(helper="Aide", beneficiary="Hero", roll=bad, resistance_roll=5),
    ):
        with pytest.raises(RuleError):
            apply(c2, cmd)


def test_the_rounds_odds_wait_for_four_pairings_or_fewer() -> None:
    # Five pairings still to play: the round's odds (every way it can go, about tenfold
    # more with each pairing) are left out and the note says why; the coming exchange's
    # are there (15 against 15: only equal rolls tie, 1/20).
    from core.odds.report import odds_for

    people = [HQParticipant(name=f"H{i}", side="H", rating=15) for i in range(3)]
    people += [HQParticipant(name=f"G{i}", side="G", rating=15) for i in range(3)]
    c = new_group(people, HQOptions(group_extended=True))
    for a, b in (("H0", "G0"), ("H0", "G1"), ("H1", "G1"), ("H1", "G2"), ("H2", "G2")):
        c, _ = apply(c, Engage(a=a, b=b))  # type: ignore[assignment]
    odds = odds_for(c)
    assert odds["next_round"] is None
    assert odds["note"].startswith("5 pairings still to play this round")
    assert odds["exchange"]["tie_exact"] == "1/20"


def test_the_setup_says_a_group_extended_contest() -> None:
    # The setup's options line names the kind the GM chose (the next contest with the
    # same sides keeps it), not "extended".
    from core.campaign.setup import describe_options

    said = describe_options("heroquest", {"group_extended": True})
    assert said[0] == "group extended contest (pairings, round by round)"
