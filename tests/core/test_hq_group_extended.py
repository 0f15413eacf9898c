"""HeroQuest group extended contests (core.systems.heroquest.group_extended), each rule
worked out by hand from HQ2's text ("HeroQuest: Core Rules", 2009; rules.md [H1]: Group
Extended Contests, Engaging Multiple Opponents, Followers, Assists, Disengaging,
Disengagement in Group Extended Contests, Parting Shot, Asymmetrical Exchanges, and the
consequence tables of rules.md §2.8.6-7) and its worked examples, and from rules.md
§2.3 (the simple contest each exchange is) and §2.7.4 (group boosts)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from core.errors import OutOfTurn, RuleError
from core.files.codec import decode, encode
from core.systems.heroquest.group_extended import (
    Engagement,
    GroupContest,
    GroupError,
    GroupMember,
    GroupRules,
    Move,
    assist,
    assist_change,
    assist_resistance,
    buy_boost,
    consequences,
    engage,
    exchange_targets,
    new_group_contest,
    next_round,
    parting_shot,
    pending,
    remove_follower,
    resolve_exchange,
)
from core.systems.heroquest.resolution import COMPLETE, MAJOR, MARGINAL, MINOR, TIE, Outcome
from core.systems.heroquest.rules import NoHeroPoints


def m(name: str, side: str, rating: int, **kw: Any) -> GroupMember:
    return GroupMember(name=name, side=side, rating=rating, **kw)


def roll(r: int | None, **kw: Any) -> Move:
    return Move(roll=r, **kw)


# -- engaging several opponents ------------------------------------------------------------


def harvard(rules: GroupRules | None = None) -> GroupContest:
    return new_group_contest(
        [m("Harvard", "pc", 26), *(m(n, "rivals", 15) for n in ("Heinrich", "Fritz", "Joachim"))],
        [("Harvard", "Heinrich"), ("Harvard", "Fritz"), ("Harvard", "Joachim")],
        rules,
    )


def test_each_further_exchange_of_the_round_costs_three_more() -> None:
    """HQ2, Engaging Multiple Opponents: Harvard Payne's Dodge 6W against three tacklers:
    "Harvard will face one of them at his full 6W, another at 3W and the last at 20".
    Each rolls 20 to the tackler's 20: at 6W and 3W his mastery bumps his fumble to a
    failure against a fumble, a minor victory, 2 points; at 20, without the mastery,
    fumble against fumble, a tie. Nobody leaves."""
    c = harvard()
    targets, results = [], []
    for i in range(3):
        c, ex = resolve_exchange(c, i, roll(20), roll(20))
        targets.append(ex.targets)
        results.append((ex.outcome.winner, ex.points))
    assert targets == [(26, 15), (23, 15), (20, 15)]  # 6W, 3W, 20; the tacklers in full
    assert results == [("a", 2), ("a", 2), (None, 0)]


def test_the_uniform_reading_takes_three_per_extra_opponent_from_every_exchange() -> None:
    """The other reading of "−3 per exchange, for each opponent after the first" (rules.md
    §2.4, as the group simple contest applies it): three opponents, −6 on each exchange."""
    c = harvard(GroupRules(penalty="uniform"))
    assert [exchange_targets(c, i)[0] for i in range(3)] == [20, 20, 20]


def skullhead_round_seven() -> GroupContest:
    """HQ2's gladiators at the start of round seven: Skullhead (Electro-Trident 9W) has
    Heavy Rapper (9W) at 1–3 against him and Bonespike (3W) at 3–0 for him; Big Ripper
    (19) holds off, unengaged. Scores are (against a, against b)."""
    members = [
        m("Heavy Rapper", "killzones", 29),
        m("Bonespike", "killzones", 23),
        m("Big Ripper", "killzones", 19),
        m("Skullhead", "rats", 29),
    ]
    return GroupContest(
        members=tuple(members),
        engagements=(
            Engagement(a="Heavy Rapper", b="Skullhead", against_a=1, against_b=3),
            Engagement(a="Bonespike", b="Skullhead", against_a=3, against_b=0),
        ),
        round=7,
    )


def test_round_seven_three_on_skullhead() -> None:
    """HQ2's Group Extended Contest Example, round seven. Heavy Rapper rolls 4 to 8: both
    9W, masteries cancel, success vs success to the low roll: 1 point, "1–4". Bonespike
    rolls 4 to 14 against Skullhead at -3 (6W): masteries cancel, failure vs failure
    (4 > 3, 14 > 6), the low roll: 1 point, "3–1 for Skullhead". Big Ripper then opens a
    third exchange: "Skullhead now facing a -6 ... Now at 3W", 16 vs 12: 19 succeeds, 12
    fails against 3 and his mastery bumps it to a success; the low roll 12 wins, a
    marginal victory for Skullhead, "1–0"."""
    c = skullhead_round_seven()
    c, first = resolve_exchange(c, 0, roll(4), roll(8))
    assert (first.targets, first.outcome.winner, first.points) == ((29, 29), "a", 1)
    c, second = resolve_exchange(c, 1, roll(4), roll(14))
    assert (second.targets, second.outcome.winner, second.points) == ((23, 26), "a", 1)
    c = engage(c, "Big Ripper", "Skullhead")
    assert pending(c) == (2,)  # a contest opened mid-round has its exchange this round
    c, third = resolve_exchange(c, 2, roll(16), roll(12))
    assert third.targets == (19, 23)
    assert (third.outcome.winner, third.outcome.victory, third.points) == ("b", MARGINAL, 1)
    scores = [(e.against_a, e.against_b) for e in c.engagements]
    assert scores == [(1, 4), (3, 1), (1, 0)]


def test_round_eight_skullhead_falls_and_the_contest_ends() -> None:
    """Round eight: Heavy Rapper 8 to Skullhead's 9, success vs success to the low roll,
    "the final point he needs ... a final result of 1–5": Skullhead is eliminated, his
    other engagements end incomplete and, his side having nobody left standing, the
    contest ends with the Killzones the winners ("The side with one or more characters
    left standing wins")."""
    c = skullhead_round_seven()
    c, _ = resolve_exchange(c, 0, roll(4), roll(8))
    c, _ = resolve_exchange(c, 1, roll(4), roll(14))
    c = engage(c, "Big Ripper", "Skullhead")
    c, _ = resolve_exchange(c, 2, roll(16), roll(12))
    c = next_round(c)
    c, ex = resolve_exchange(c, 0, roll(8), roll(9))
    assert ex.out == ("Skullhead",)
    assert c.member("Skullhead").status == "eliminated"
    assert [e.open for e in c.engagements] == [False, False, False]
    assert c.engagements[0].felled == "Skullhead"
    assert c.engagements[1].felled is None  # incomplete: nobody won it
    assert (c.finished, c.winner) == (True, "killzones")
    with pytest.raises(OutOfTurn):
        resolve_exchange(c, 1, roll(1), roll(1))


def test_a_first_opponent_knocked_out_lifts_the_penalty() -> None:
    """HQ2, round four: Skullhead takes Red Shaman out, then Heavy Rapper engages him:
    "it is not occurring while his first opponent is still engaging him. Therefore he
    faces no multiple opponent penalty". Red Shaman (17) starts at 4 against him and
    rolls 16 (a success) to Skullhead's 9 (a success, bumped to a critical): a minor
    victory, 2 points, 6 against Red Shaman: out."""
    c = new_group_contest(
        [m("Red Shaman", "pc", 17), m("Heavy Rapper", "pc", 29), m("Skullhead", "npc", 29)],
        [("Red Shaman", "Skullhead")],
    )
    c = c.with_engagement(0, replace(c.engagements[0], against_a=4, against_b=1))
    c, ex = resolve_exchange(c, 0, roll(16), roll(9))
    assert (ex.outcome.victory, ex.points, ex.out) == (MINOR, 2, ("Red Shaman",))
    c = engage(c, "Heavy Rapper", "Skullhead")
    assert exchange_targets(c, 1) == (29, 29)


def test_points_from_several_opponents_do_not_add_up_to_elimination() -> None:
    """HQ2: "Jorjar has scored 3 points against Griselda, and Tala Errio has scored 2.
    Although the total of these two scores is 5 Griselda is not out of the contest";
    then "Gimgim scores another 3 points against Griselda, knocking her out ... 5–2".
    Her Sharp Tongue 15, in her third exchange of the round at -6, rolls 17 (a failure)
    to Gimgim's 1 (a critical): major, 3 points."""
    c = new_group_contest(
        [m("Griselda", "pc", 15), *(m(n, "lunars", 14) for n in ("Jorjar", "Tala", "Gimgim"))],
        [("Griselda", "Jorjar"), ("Griselda", "Tala"), ("Griselda", "Gimgim")],
    )
    scores = ((3, 0), (2, 0), (2, 2))
    for i, (x, y) in enumerate(scores):
        c = c.with_engagement(i, replace(c.engagements[i], against_a=x, against_b=y))
    assert c.member("Griselda").active  # 7 against her in all, 5 from nobody
    c = replace(c, done=(0, 1), met=(("Griselda", "Jorjar"), ("Griselda", "Tala")))
    c, ex = resolve_exchange(c, 2, roll(17), roll(1))
    assert ex.targets == (9, 14)
    assert (ex.outcome.victory, ex.points, ex.out) == (MAJOR, 3, ("Griselda",))
    assert (c.finished, c.winner) == (True, "lunars")
    result = consequences(c)
    # Rising action: only the exchange that felled her, 5–2, a difference of 3: impaired,
    # a minor victory for Gimgim; "neither Jorjar nor Tala score victories or suffer".
    assert result.states == {"Griselda": ("impaired",)}
    assert result.victories == {"Gimgim": MINOR}


def test_climactic_consequences_of_the_tribunal() -> None:
    """HQ2's climactic version: "Griselda versus Jorjar: 3–3, ... Tala Errio: 0-4, ...
    Gimgim: 5–2". Griselda 3 + 0 + 5 = 8, +1 for losing: 9, dead ("her reputation is
    Dead"); Gimgim 2: hurt. Jorjar 3 and Tala 4 are hurt and impaired by the table
    (2–3 hurt, 4–5 impaired); the book's text says impaired and injured, one step worse
    than its own table: we follow the table, as rules.md §2.11 does for such slips. One
    loser: the victory level from her state, dead: complete."""
    c = GroupContest(
        members=(
            m("Griselda", "pc", 15, status="eliminated"),
            m("Jorjar", "lunars", 14),
            m("Tala", "lunars", 14),
            m("Gimgim", "lunars", 14),
        ),
        engagements=(
            Engagement(a="Griselda", b="Jorjar", against_a=3, against_b=3, open=False),
            Engagement(a="Griselda", b="Tala", against_a=0, against_b=4, open=False),
            Engagement(
                a="Griselda", b="Gimgim", against_a=5, against_b=2, open=False, felled="Griselda"
            ),
        ),
        rules=GroupRules(consequences="climactic"),
        finished=True,
        winner="lunars",
    )
    result = consequences(c)
    assert result.states == {
        "Griselda": ("dead",),
        "Jorjar": ("hurt",),
        "Tala": ("impaired",),
        "Gimgim": ("hurt",),
    }
    assert result.victories == {"Jorjar": COMPLETE, "Tala": COMPLETE, "Gimgim": COMPLETE}


def test_the_gladiators_aftermath() -> None:
    """HQ2's example, Aftermath (climactic): Zombie Elvis 5 + 1: injured; Horrible Pete
    7 + 1: dying; Treacherous Clara 5 + 1: injured; Skullhead 1 + 5 + 1 (the unfinished
    match with Bonespike) + 1: dying. Big Ripper 3 + 1: impaired; Red Shaman 5: impaired;
    Bonespike 4 + 3: injured; Heavy Rapper 1: dazed. The losers' totals 8, 8, 6, 6: the
    second worst is dying, a complete victory for the Killzones."""
    members = [m(n, "killzones", 20) for n in ("Big Ripper", "Bonespike", "Red Shaman")]
    members += [m("Heavy Rapper", "killzones", 29)]
    members += [
        m(n, "rats", 20, status="eliminated") for n in ("Clara", "Pete", "Skullhead", "Elvis")
    ]

    def bout(a: str, b: str, x: int, y: int, felled: str | None = None) -> Engagement:
        return Engagement(a=a, b=b, against_a=x, against_b=y, open=False, felled=felled)

    c = GroupContest(
        members=tuple(members),
        engagements=(
            bout("Big Ripper", "Clara", 3, 5, "Clara"),
            bout("Bonespike", "Pete", 4, 7, "Pete"),
            bout("Red Shaman", "Skullhead", 5, 1, "Red Shaman"),
            bout("Heavy Rapper", "Elvis", 0, 5, "Elvis"),
            bout("Heavy Rapper", "Skullhead", 1, 5, "Skullhead"),
            bout("Bonespike", "Skullhead", 3, 1),
            bout("Big Ripper", "Skullhead", 1, 0),
        ),
        rules=GroupRules(consequences="climactic"),
        finished=True,
        winner="killzones",
    )
    result = consequences(c)
    assert result.states == {
        "Big Ripper": ("impaired",),
        "Bonespike": ("injured",),
        "Red Shaman": ("impaired",),
        "Heavy Rapper": ("dazed",),
        "Clara": ("injured",),
        "Pete": ("dying",),
        "Skullhead": ("dying",),
        "Elvis": ("injured",),
    }
    assert set(result.victories.values()) == {COMPLETE}


def test_a_winner_of_several_takes_the_level_against_the_highest_rating() -> None:
    """HQ2, Consequences and Group Extended contests: Theo Arlino wins a minor victory
    against Florence (Ad Hominem Attacks 4W) and a major one against Hyman (18, 17, 3W):
    "The highest of those ratings is Florence's 4W, so Theo's victory level ... is minor".
    Rising action, minor is a difference of 3-4, major 5-6; a difference of 1 also hurts
    the winner, once per exchange so won."""
    c = GroupContest(
        members=(
            m("Theo", "pc", 30),
            m("Florence", "npc", 24, status="eliminated"),
            m("Hyman", "npc", 23, status="eliminated"),
        ),
        engagements=(
            Engagement(
                a="Theo",
                b="Florence",
                against_a=1,
                against_b=5,
                open=False,
                felled="Florence",
                top_a=30,
                top_b=24,
            ),
            Engagement(
                a="Theo",
                b="Hyman",
                against_a=0,
                against_b=5,
                open=False,
                felled="Hyman",
                top_a=30,
                top_b=23,
            ),
        ),
        finished=True,
        winner="pc",
    )
    result = consequences(c)
    assert result.victories == {"Theo": MINOR}
    assert result.states == {"Florence": ("impaired",), "Hyman": ("injured",)}
    close = c.with_engagement(0, replace(c.engagements[0], against_a=4))
    assert consequences(close).states["Theo"] == ("hurt",)


# -- followers -----------------------------------------------------------------------------


def allure(role: str = "contestant", **rules: Any) -> GroupContest:
    return new_group_contest(
        [
            m("Nightbringer", "heroes", 27),
            m("The Allure", "heroes", 17, role=role, leader="Nightbringer"),
            m("Rubicon", "villains", 15),
            m("Trooper One", "villains", 25),
            m("Trooper Two", "villains", 25),
        ],
        [("The Allure", "Rubicon")] if role == "contestant" else [],
        GroupRules(**rules),
    )


def test_a_follower_contestant_is_out_at_three() -> None:
    """HQ2, Followers, Contestant: "removed from the contest whenever 3 resolution points
    are scored against them"; The Allure (17) suffers "a failure versus the Rubicon's
    critical. With a score of 3-0 against her, The Allure is out": roll 18 against 1,
    two levels apart, major, 3 points."""
    c, ex = resolve_exchange(allure(), 0, roll(18), roll(1))
    assert (ex.outcome.victory, ex.points, ex.out) == (MAJOR, 3, ("The Allure",))
    assert c.member("The Allure").status == "eliminated"
    assert not c.finished  # Nightbringer still stands


def test_a_gritty_genre_lodges_two_more_on_a_follower_taken_out() -> None:
    """HQ2: "In a gritty genre ... an additional 2 resolution points are then scored
    against them": 3 in the exchange, 5 in all for the consequences."""
    c, _ = resolve_exchange(allure(gritty_followers=True), 0, roll(18), roll(1))
    assert c.member("The Allure").extra_against == 2
    assert consequences(replace(c, rules=GroupRules(consequences="climactic"))).states[
        "The Allure"
    ] == ("impaired",)  # 3 + 2 = 5: impaired (her side has not lost)


def test_a_secondary_contestant_spares_one_multiple_opponent_penalty() -> None:
    """HQ2, Secondary contestant: "the main character may ignore the multiple opponent
    penalty for one foe for each follower"; Nightbringer (7W) against two Shocktroopers
    with The Allure at his side "suffers no multiple opponent penalty"; without her the
    second exchange is at -3 (4W)."""
    for role, second in (("secondary", 27), ("supporter", 24)):
        c = allure(role)
        c = engage(engage(c, "Nightbringer", "Trooper One"), "Nightbringer", "Trooper Two")
        c, first = resolve_exchange(c, 0, roll(10), roll(10))  # 10 vs 10: a tie
        assert first.outcome.victory == TIE
        assert exchange_targets(c, 1)[0] == second


def test_nightbringer_shifts_points_to_the_allure() -> None:
    """HQ2: "Nightbringer is already down 3-2 ... a Critical vs. Fumble result ... would
    go down with a final score of 8–2. Instead, he shifts 4 of those points to The Allure
    and she is removed ... The Narrator adds another 2 points ... Injured". The trooper
    (5W) rolls 1, Nightbringer (7W) 20: masteries cancel, critical vs fumble, 5 points;
    4 shifted leave him at 4 (still in); her 4 + 2 = 6 is injured by the climactic table.
    She gone, the next exchange against the other trooper bears the penalty again."""
    c = allure("secondary")
    c = engage(engage(c, "Nightbringer", "Trooper One"), "Nightbringer", "Trooper Two")
    c = c.with_engagement(0, replace(c.engagements[0], against_a=3, against_b=2))
    c, ex = resolve_exchange(c, 0, roll(20, shift=4), roll(1))
    assert (ex.outcome.victory, ex.points) == (COMPLETE, 5)
    assert c.engagements[0].against_a == 4 and c.member("Nightbringer").active
    allure_now = c.member("The Allure")
    assert (allure_now.status, allure_now.extra_against) == ("removed", 6)
    assert exchange_targets(c, 1)[0] == 24
    states = consequences(replace(c, rules=GroupRules(consequences="climactic"))).states
    assert states["The Allure"] == ("injured",)


def test_an_unengaged_opponent_removes_a_follower_with_two_more_points() -> None:
    """HQ2: Mentat-4 (Backpedal Out Of Danger 13) against a Shocktrooper's Stun Stick 15:
    "The Narrator rolls a 2 to Darran's 11 ... He suffers the 1 resolution point a
    character would usually take from the losing end of a success vs. success result,
    plus an additional 2, for a total of 3." (The text calls it a minor victory; its own
    count, success vs success, is marginal: 1 point. We follow the count.)"""
    c = new_group_contest(
        [
            m("Fireblade", "heroes", 25),
            m("Mentat-4", "heroes", 10, role="supporter", leader="Fireblade"),
            m("Trooper", "villains", 15),
        ]
    )
    c, out = remove_follower(c, "Trooper", "Mentat-4", roll(2), roll(11, rating=13))
    assert (out.winner, out.victory) == ("a", MARGINAL)
    assert (c.member("Mentat-4").status, c.member("Mentat-4").extra_against) == ("removed", 3)
    busy = engage(c, "Fireblade", "Trooper")
    with pytest.raises(GroupError):  # only an otherwise unengaged opponent
        remove_follower(busy, "Trooper", "Mentat-4", roll(2), roll(11))


# -- assists -------------------------------------------------------------------------------


def dirk(against: int = 4) -> GroupContest:
    c = new_group_contest(
        [
            m("Dirk", "pilots", 15),
            m("Harsteni", "pilots", 22),
            m("Ace", "pilots", 15),
            m("Screamfighter", "aqak", 15),
        ],
        [("Dirk", "Screamfighter")],
    )
    return c.with_engagement(0, replace(c.engagements[0], against_a=against, against_b=2))


def test_harsteni_assists_dirk_against_a_very_high_resistance() -> None:
    """HQ2, Assists: "the score in Dirk's current exchange is 4–2 against him ... the
    Narrator assigns a Very High resistance, which Harsteni nonetheless beats, scoring a
    marginal victory. The score ... changes from 4–2 against him, to 3–2." Very High is
    the base 14 + 9 = 3W; Harsteni (2W) rolls 2, the resistance 3: masteries cancel, both
    succeed, the low roll wins: marginal, -1."""
    c, out = assist(dirk(), "Harsteni", "Dirk", 0, roll(2), 3, resistance=14 + 9)
    assert (out.winner, out.victory) == ("a", MARGINAL)
    assert (c.engagements[0].against_a, c.engagements[0].against_b) == (3, 2)


def test_each_assist_to_the_same_beneficiary_is_harder() -> None:
    """HQ2: "By default ... Moderate Resistance ... Each subsequent assist attempt to the
    same beneficiary steps up ... High, then Very High, then Nearly Impossible. The
    difficulty escalation occurs even when a new character steps in": 14, 20, 23, 14W2
    (+W2 = +40), and no further. Failed attempts count too: helpers 15 and 22 rolling 10
    against 10 tie the first three (equal rolls at equal levels), and the 14W2 turns the
    fourth and fifth into major defeats (+2 each, from 0)."""
    c = dirk(against=0)
    seen = []
    for helper in ("Harsteni", "Ace", "Harsteni", "Ace", "Harsteni"):
        seen.append(assist_resistance(c, "Dirk"))
        c, _ = assist(c, helper, "Dirk", 0, roll(10), 10)
    assert seen == [14, 20, 23, 54, 54]
    assert c.engagements[0].against_a == 4
    assert assist_resistance(dirk(), "Dirk", adjust=1) == 20  # the Narrator's one step


@pytest.mark.parametrize(
    ("winner", "victory", "change"),
    [
        ("a", COMPLETE, -4),
        ("a", MAJOR, -3),
        ("a", MINOR, -2),
        ("a", MARGINAL, -1),
        (None, TIE, 0),
        ("b", MARGINAL, 0),
        ("b", MINOR, 1),
        ("b", MAJOR, 2),
        ("b", COMPLETE, 3),
    ],
)
def test_the_assist_results_table(winner: Any, victory: int, change: int) -> None:
    """HQ2, Assist Results Table: complete victory -4, major -3, minor -2, marginal -1,
    marginal defeat 0, minor +1, major +2, complete +3 (a tie, not in the table: 0)."""
    assert assist_change(Outcome(levels=(0, 0), winner=winner, victory=victory)) == change


def test_a_failed_assist_can_eliminate_the_beneficiary() -> None:
    """HQ2: "if they fail, they can add to the score against the recipient, possibly even
    eliminating him": Ace (15) fumbles (20) against Moderate 14 rolling 1, a complete
    defeat, +3: 7 against Dirk, out; his side still has its assisters standing."""
    c, out = assist(dirk(), "Ace", "Dirk", 0, roll(20), 1)
    assert (out.winner, out.victory) == ("b", COMPLETE)
    assert c.engagements[0].against_a == 7
    assert c.member("Dirk").status == "eliminated"


def test_who_may_assist() -> None:
    """HQ2: "Characters can't make an assist on themselves"; an assist is "an unrelated
    action" of a character "not currently enmeshed in an exchange"."""
    with pytest.raises(GroupError):
        assist(dirk(), "Dirk", "Dirk", 0, roll(2), 3)
    busy = engage(dirk(), "Harsteni", "Screamfighter")
    with pytest.raises(GroupError):
        assist(busy, "Harsteni", "Dirk", 0, roll(2), 3)
    with pytest.raises(GroupError):  # not a teammate
        assist(dirk(), "Screamfighter", "Dirk", 0, roll(2), 3)


# -- disengaging, asymmetrical exchanges ---------------------------------------------------


def jenny(**rules: Any) -> GroupContest:
    c = new_group_contest(
        [m("Jenny", "camp", 17, hero_points=1), m("Slasher", "killer", 25)],
        [("Jenny", "Slasher")],
        GroupRules(**rules),
    )
    return c.with_engagement(0, replace(c.engagements[0], against_a=3))


def test_jenny_disengages() -> None:
    """HQ2, Disengaging: "The Narrator rolls a 20 for the slasher. Adrienne rolls an 18, a
    failure. The slasher's mastery advantage bumps his fumble to a failure. Adrienne
    spends a hero point ... success vs. failure: a minor victory for Jenny": she escapes
    "without further harm" (no points), out of the contest; rising action, "If you
    disengage ... you suffer no consequences"."""
    c, ex = resolve_exchange(jenny(), 0, roll(18, aim="disengage", hero_points=1), roll(20))
    assert (ex.outcome.winner, ex.outcome.victory, ex.points) == ("a", MINOR, 0)
    assert ex.disengaged == "Jenny" and c.member("Jenny").status == "disengaged"
    assert c.member("Jenny").hero_points == 0
    assert (c.finished, c.winner) == (True, "killer")
    assert consequences(c).states == {}


def test_jenny_fails_to_escape() -> None:
    """HQ2, Example Reversed: Adrienne rolls 20 and the Narrator 18: "Even with a hero
    point spent ... success vs. failure in the slasher's favor ... another 2 resolution
    points ... With the total against her at 5, she is defeated ... the difference of 5
    points means she is injured"."""
    c, ex = resolve_exchange(jenny(), 0, roll(20, aim="disengage", hero_points=1), roll(18))
    assert (ex.outcome.winner, ex.points, ex.out) == ("b", 2, ("Jenny",))
    assert consequences(c).states == {"Jenny": ("injured",)}


def test_an_asymmetrical_win_scores_nothing() -> None:
    """HQ2, Asymmetrical Exchanges: Tawny Port (19) at 3–3 against Portuguese Bill (2W)
    rolls 3 to Bill's 20, bumped to a failure: a minor victory, but "Tawny Port does not
    get the 2 points he would normally apply"; the loser of such an exchange "still loses
    points if he fails"."""
    c = new_group_contest(
        [m("Tawny Port", "pirates", 19), m("Bill", "portuguese", 22)], [("Tawny Port", "Bill")]
    )
    c = c.with_engagement(0, replace(c.engagements[0], against_a=3, against_b=3))
    done, ex = resolve_exchange(c, 0, roll(3, aim="other"), roll(20))
    assert (ex.outcome.victory, ex.points) == (MINOR, 0)
    assert (done.engagements[0].against_a, done.engagements[0].against_b) == (3, 3)
    lost, ex = resolve_exchange(c, 0, roll(20, aim="other"), roll(3))
    assert ex.points == 3 and lost.engagements[0].against_a == 6  # Bill's major: 3 more


def test_countering_a_disengagement_while_engaged_elsewhere_costs_five() -> None:
    """HQ2, Disengagement in Group Extended Contests: "If an opponent attempts to
    disengage from you while you are also engaged by at least one other contestant, you
    suffer a penalty of –5 when you roll to counter" (read as replacing the -3 for that
    roll)."""
    c = new_group_contest(
        [m("Ann", "pc", 15), m("Bo", "pc", 15), m("Orc", "npc", 18)],
        [("Bo", "Orc"), ("Ann", "Orc")],
    )
    c, _ = resolve_exchange(c, 0, roll(10), roll(10))
    assert exchange_targets(c, 1)[1] == 15  # an ordinary second exchange: -3
    assert exchange_targets(c, 1, Move(aim="disengage"))[1] == 13  # countering: -5


def test_a_disengaged_loser_counts_as_a_loser_in_a_climax() -> None:
    """HQ2: "In a climactic scene ... In the case of a group contest, consequences against
    you are determined as soon as you disengage": Malk "still has 3 resolution points
    lodged against him and is therefore Impaired" (3, and 1 more as his side lost: 4)."""
    c = GroupContest(
        members=(m("Malk", "crew", 15, status="disengaged"), m("Agent Gray", "authority", 25)),
        engagements=(Engagement(a="Malk", b="Agent Gray", against_a=3, open=False),),
        rules=GroupRules(consequences="climactic"),
        finished=True,
        winner="authority",
    )
    assert consequences(c).states == {"Malk": ("impaired",)}


def test_a_disengaged_character_resumes_the_old_score() -> None:
    """HQ2: "If your opponents are able to catch up with you and re-engage you ... the
    previous suspended contest resumes, with its original score intact" (Le Pompeux lures
    Corin back "resuming the contest with its original score of 4–1")."""
    c = new_group_contest(
        [m("Corin", "pc", 17), m("Ally", "pc", 12), m("Le Pompeux", "npc", 17)],
        [("Corin", "Le Pompeux")],
    )
    c = c.with_engagement(0, replace(c.engagements[0], against_a=4, against_b=1))
    c, ex = resolve_exchange(c, 0, roll(3, aim="disengage"), roll(15))
    assert ex.disengaged == "Corin" and not c.finished  # Ally still stands
    c = next_round(c)
    corin = c.member("Corin")
    c = engage(c.with_member(replace(corin, status="active")), "Le Pompeux", "Corin")
    assert (c.engagements[0].against_a, c.engagements[0].against_b) == (4, 1)
    assert c.engagements[0].open


# -- parting shots -------------------------------------------------------------------------


def thermopylae() -> GroupContest:
    """Leonidas (Charismatic Leadership 19) has just won 5-1 against Xerxes (18)."""
    c = new_group_contest(
        [m("Leonidas", "sparta", 19), m("Xerxes", "persia", 18)], [("Leonidas", "Xerxes")]
    )
    c = c.with_engagement(0, replace(c.engagements[0], against_a=1, against_b=3))
    c, ex = resolve_exchange(c, 0, roll(5), roll(19))  # success vs failure: minor, 2
    assert ex.out == ("Xerxes",) and c.finished
    return c


def test_a_successful_parting_shot_adds_its_points() -> None:
    """HQ2, Parting Shot: Leonidas's Spear Combat 10W against a resistance of 17: "If
    Leonidas scores a Critical and the Narrator gets a Failure, then score for the contest
    goes to 8-1". 5 (a success, bumped to a critical) against 18 (a failure): major, 3."""
    c, out = parting_shot(
        thermopylae(), "Leonidas", "Xerxes", roll(5, rating=30), roll(18, rating=17)
    )
    assert (out.winner, out.victory) == ("a", MAJOR)
    assert (c.engagements[0].against_a, c.engagements[0].against_b) == (1, 8)
    assert c.member("Xerxes").status == "eliminated"


def test_a_parting_shot_that_fails_can_bring_the_victim_back() -> None:
    """HQ2: "If Leonidas scores a Failure and Xerxes a Critical, the 3 resolution points
    ... are instead subtracted from the total lodged against Xerxes. The score goes from
    5–1 against Xerxes to 2–1"; "less than 5, he returns to the contest". Leonidas 20 (a
    fumble bumped to a failure) against 1: major, 3. The contest goes on."""
    c, out = parting_shot(
        thermopylae(), "Leonidas", "Xerxes", roll(20, rating=30), roll(1, rating=17)
    )
    assert (out.winner, out.victory) == ("b", MAJOR)
    assert c.engagements[0].against_b == 2
    assert c.member("Xerxes").active and not c.finished
    with pytest.raises(GroupError):  # one parting shot at him
        parting_shot(c, "Leonidas", "Xerxes", roll(1), roll(20))


def test_parting_shots_come_in_the_round_after_and_never_at_a_teammate() -> None:
    """HQ2: "In the round immediately after you take an opponent out"; "Characters may not
    revive their teammates by ... parting shots on them"."""
    c = new_group_contest(
        [m("Ann", "pc", 15), m("Bo", "pc", 15), m("Orc", "npc", 15), m("Imp", "npc", 15)],
        [("Ann", "Orc"), ("Bo", "Imp")],
    )
    c = c.with_engagement(0, replace(c.engagements[0], against_b=4))
    c, _ = resolve_exchange(c, 0, roll(5), roll(9))  # Ann's marginal: Orc out
    with pytest.raises(OutOfTurn):
        parting_shot(c, "Ann", "Orc", roll(5), roll(9))
    c, _ = resolve_exchange(c, 1, roll(10), roll(10))
    c = next_round(c)
    with pytest.raises(GroupError):
        parting_shot(c, "Imp", "Orc", roll(5), roll(9))
    shot, _ = parting_shot(c, "Bo", "Orc", roll(5), roll(9))  # an unengaged... third party
    assert shot.engagements[0].against_b == 6
    c, _ = resolve_exchange(c, 1, roll(10), roll(10))
    with pytest.raises(OutOfTurn):
        parting_shot(next_round(c), "Ann", "Orc", roll(5), roll(9))


# -- hero points, gambits, boosts, order ---------------------------------------------------


def duel(**kw: Any) -> GroupContest:
    return new_group_contest(
        [
            m("Hero", "pc", 15, hero_points=3),
            m("Sidekick", "pc", 12, hero_points=3),
            m("Foe", "npc", 15, hero_points=1),
            m("Minion", "npc", 12),
        ],
        [("Hero", "Foe"), ("Sidekick", "Minion")],
        GroupRules(**kw),
    )


def test_one_hero_point_per_exchange() -> None:
    """rules §2.3 step 6 / HQ2: "During extended contests, you may spend only one hero
    point per exchange"; more than one has is refused too; a point spent bumps (Hero's
    failure on 17 to a success against Foe's success on 9: the low roll 9 still wins)."""
    with pytest.raises(RuleError):
        resolve_exchange(duel(), 0, roll(17, hero_points=2), roll(9))
    with pytest.raises(NoHeroPoints):  # Minion has none
        resolve_exchange(duel(), 1, roll(17), roll(9, hero_points=1))
    c, ex = resolve_exchange(duel(), 0, roll(17, hero_points=1), roll(9))
    assert ex.outcome.levels == (2, 2) and ex.outcome.winner == "b"
    assert c.member("Hero").hero_points == 2


def test_a_roll_is_needed_unless_the_target_is_zero_or_less() -> None:
    """rules §2.2-2.3: each party rolls its d20; a target of 0 or less loses completely
    without rolling (Minion at -20: Sidekick's complete victory, 5 points)."""
    with pytest.raises(OutOfTurn):
        resolve_exchange(duel(), 0, roll(5), roll(None))
    with pytest.raises(OutOfTurn):
        assist(dirk(), "Harsteni", "Dirk", 0, roll(2), None)
    c, ex = resolve_exchange(duel(), 1, roll(7), roll(None, modifier=-32))
    assert (ex.outcome.winner, ex.outcome.victory, ex.points) == ("a", COMPLETE, 5)
    assert c.member("Minion").status == "eliminated"


def test_a_risky_gambit_in_an_engagement() -> None:
    """rules §2.8.4 (HQ2, Risky Gambits), in one engagement's exchange: Hero gambles and
    wins a marginal victory (5 against 9, both succeed): 1 + 1 = 2 points."""
    c, ex = resolve_exchange(duel(), 0, roll(5, gambit=True), roll(9))
    assert ex.points == 2 and c.engagements[0].against_b == 2


def test_a_group_boost_raises_each_of_the_sides_exchanges_this_round() -> None:
    """rules §2.7.4, as in group simple contests: a side of two pays 1 hero point (2 for
    a double); on a tie or a win the boosting side's result goes up a level: a tie (7
    against 7 at equal targets) becomes its marginal victory, 1 point; a loss stays."""
    c = buy_boost(duel(), "pc", {"Hero": 1})
    assert c.member("Hero").hero_points == 2 and c.boost is not None
    c, tie = resolve_exchange(c, 0, roll(7), roll(7))
    assert (tie.outcome.winner, tie.outcome.victory, tie.points) == ("a", MARGINAL, 1)
    c, lost = resolve_exchange(c, 1, roll(11), roll(3))  # 12 vs 12: the low roll, Minion
    assert (lost.outcome.winner, lost.points) == ("b", 1)
    with pytest.raises(RuleError):  # a double boost costs 2
        buy_boost(duel(), "pc", {"Hero": 1}, double=True)
    c = next_round(c)
    assert c.boost is None  # bought for one round
    with pytest.raises(OutOfTurn):  # a boost comes before the side's rolls
        buy_boost(resolve_exchange(c, 0, roll(7), roll(7))[0], "pc", {"Hero": 1})


def test_a_boost_paid_with_a_negative_count_is_refused_as_negative() -> None:
    """rules §2.7.4: a side of two pays 1 hero point for a boost. "Hero -1, Sidekick 2"
    adds up to 1, but a payment is hero points given up: -1 is none, and the refusal
    says so (it read "Hero has only 3 hero points"), before any total ("costs 1")."""
    with pytest.raises(RuleError, match="Hero pays -1: hero points paid cannot be negative"):
        buy_boost(duel(), "pc", {"Hero": -1, "Sidekick": 2})
    with pytest.raises(RuleError, match="cannot be negative"):
        buy_boost(duel(), "pc", {"Hero": -1})
    with pytest.raises(RuleError, match="costs 1, not 2"):
        buy_boost(duel(), "pc", {"Hero": 1, "Sidekick": 1})


def test_the_boost_commands_payments_are_counts() -> None:
    """The limit lives on the field (a payment is a count, at least 0), so the forms,
    the engine and the loader all read it there."""
    import msgspec

    from core.systems.heroquest.events import Boost

    fine = {"side": "pc", "paid": [["Hero", 0]]}
    assert msgspec.convert(fine, Boost).paid == (("Hero", 0),)
    with pytest.raises(msgspec.ValidationError, match=">= 0"):
        msgspec.convert({"side": "pc", "paid": [["Hero", -1]]}, Boost)


def test_rounds_follow_the_same_order() -> None:
    """HQ2: "Start with the first exchange in the order, then go onto the second ...
    until all pairings have resolved a single exchange. Once this happens, the round
    concludes ... Exchanges are always resolved in the same order from round to round"."""
    c = duel()
    assert pending(c) == (0, 1)
    with pytest.raises(OutOfTurn):
        next_round(c)
    c, _ = resolve_exchange(c, 1, roll(10), roll(10))
    with pytest.raises(OutOfTurn):  # one exchange per pair a round
        resolve_exchange(c, 1, roll(10), roll(10))
    c, _ = resolve_exchange(c, 0, roll(10), roll(10))
    c = next_round(c)
    assert (c.round, pending(c)) == (2, (0, 1))


def test_engagements_are_between_the_two_sides() -> None:
    """HQ2: pairings of a PC against an opponent; a follower who only supports does not
    engage; a character out of the contest engages nobody."""
    with pytest.raises(GroupError):
        engage(duel(), "Hero", "Sidekick")
    with pytest.raises(GroupError):
        engage(duel(), "Hero", "Foe")  # already engaged
    with pytest.raises(GroupError):
        engage(allure("supporter"), "The Allure", "Rubicon")


def test_a_group_contest_reloads_equal_under_heroquest_tags() -> None:
    """What the engine will save reads back equal, under "heroquest." tags no other
    HeroQuest class uses."""
    c = buy_boost(duel(), "pc", {"Hero": 1})
    c, _ = resolve_exchange(c, 0, roll(5), roll(9))
    data = encode(c)
    assert data["@"] == "heroquest.GroupContest"
    assert decode(data, GroupContest) == c


@given(
    ratings=st.lists(st.integers(1, 45), min_size=3, max_size=3),
    rolls=st.lists(st.tuples(st.integers(1, 20), st.integers(1, 20)), max_size=30),
)
def test_rounds_played_to_the_end_keep_the_rules_invariants(
    ratings: list[int], rolls: list[tuple[int, int]]
) -> None:
    """Two against one played round after round with any dice: nobody stays in once one
    opponent has scored the goal against them, everyone taken out was taken out by one
    engagement that scored at least the goal against them, and the contest is over
    exactly when a side has nobody standing (HQ2, Group Extended Contests)."""
    c = new_group_contest(
        [m("Ann", "pcs", ratings[0]), m("Bea", "pcs", ratings[1]), m("Ogre", "ogre", ratings[2])],
        [("Ann", "Ogre"), ("Bea", "Ogre")],
    )
    for ra, rb in rolls:
        if c.finished:
            break
        if not pending(c):
            c = next_round(c)
        c, _ = resolve_exchange(c, pending(c)[0], roll(ra), roll(rb))
        for e in c.engagements:
            for name in (e.a, e.b):
                assert e.against(name) < 5 or not e.open
        for member in c.members:
            if member.status == "eliminated":
                felled = [e for e in c.engagements if e.felled == member.name]
                assert len(felled) == 1 and felled[0].against(member.name) >= 5
                assert not c.open_engagements(member.name)
        assert c.finished == (not c.standing("pcs") or not c.standing("ogre"))
