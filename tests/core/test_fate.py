"""Fate Core contests: rules.md §1.7's vectors and cases worked from §1.3-§1.4.

Every expected value below is worked out by hand from the rules, in the comment beside it.
"""

from __future__ import annotations

import json

import pytest

from core.dice import parse_fate_dice
from core.engine import apply, fold
from core.errors import OutOfTurn, RuleError, UnknownName
from core.files.codec import decode, encode
from core.model import Event, ResolveExchange, RollDice
from core.systems.fate.events import CreateAdvantage, DeclareAttack, ExchangeResolved, InvokeAspect
from core.systems.fate.ladder import ladder_label
from core.systems.fate.rules import NoFatePoints
from core.systems.fate.scoring import FateOptions, advantage_outcome, score_exchange, teamwork
from core.systems.fate.state import Aspect, FateContest, FateParticipant, new_contest


def dice(total: int) -> tuple[int, ...]:
    """Four Fate dice summing to ``total`` (-4..4)."""
    faces = [1 if total > 0 else -1] * abs(total) + [0] * (4 - abs(total))
    return tuple(faces)


def cynere_teran(**options: object) -> FateContest:
    return new_contest(
        [
            FateParticipant(name="Cynere", side="Cynere", skill=4, fate_points=2),
            FateParticipant(name="Teran", side="Teran", skill=3),
        ],
        [Aspect(name="I've Got Zird's Back", owner="Cynere")],
        FateOptions(**options),  # type: ignore[arg-type]
    )


def play(contest: FateContest, *commands: object) -> tuple[FateContest, list[Event]]:
    log: list[Event] = []
    state = contest
    for command in commands:
        new, events = apply(state, command)  # type: ignore[arg-type]
        assert isinstance(new, FateContest)
        state = new
        log.extend(events)
    return state, log


def exchange(c: FateContest, rolls: dict[str, int], *extra: object, twist: str | None = None):
    return play(
        c,
        *[RollDice(who=s, faces=dice(t)) for s, t in rolls.items()],
        *extra,
        ResolveExchange(twist=twist),
    )


def resolved(log: list[Event]) -> ExchangeResolved:
    found = [e for e in log if isinstance(e, ExchangeResolved)]
    assert len(found) == 1
    return found[0]


# -- the seed contest, F1-F5 --------------------------------------------------------------


def test_seed_contest_f1_to_f5_cynere_wins_four_to_one() -> None:
    c = cynere_teran()
    # F1: Cynere 4-3 = +1 Average, Teran 3+0 = +3 Good: Teran by 2, one victory.
    c, log = exchange(c, {"Cynere": -3, "Teran": 0})
    e = resolved(log)
    assert (e.totals["Cynere"], e.totals["Teran"]) == (1, 3)
    assert (e.winner, e.victories, e.style) == ("Teran", 1, False)
    assert dict(c.victories) == {"Cynere": 0, "Teran": 1}
    # F2: 4+1 = +5 vs 3-1 = +2: margin 3, style, two victories.
    c, log = exchange(c, {"Cynere": 1, "Teran": -1})
    e = resolved(log)
    assert (e.winner, e.victories, e.style) == ("Cynere", 2, True)
    assert dict(c.victories) == {"Cynere": 2, "Teran": 1}
    # F3: 4-1 = +3 vs 3+0 = +3: a tie, nobody scores, the GM's twist enters play.
    c, log = exchange(c, {"Cynere": -1, "Teran": 0}, twist="Magical Distortions")
    e = resolved(log)
    assert (e.winner, e.victories, e.twist) == (None, 0, "Magical Distortions")
    assert c.aspect("Magical Distortions") == Aspect(name="Magical Distortions")
    # F4: +4 vs +4, then two paid invokes (+2 each): +8 Legendary vs +4, margin 4, style.
    c, log = exchange(
        c,
        {"Cynere": 0, "Teran": 1},
        InvokeAspect(by="Cynere", aspect="I've Got Zird's Back"),
        InvokeAspect(by="Cynere", aspect="Magical Distortions"),
    )
    e = resolved(log)
    assert e.totals["Cynere"] == 8 and ladder_label(8) == "Legendary"
    assert (e.winner, e.victories) == ("Cynere", 2)
    # F5: 4 victories >= 3: over, Cynere wins 4-1, her two fate points spent.
    assert c.finished and c.winner == "Cynere" and c.ended_by == "victories"
    assert dict(c.victories) == {"Cynere": 4, "Teran": 1}
    assert c.fate_participant("Cynere").fate_points == 0


def test_the_seed_contests_saved_events_alone_replay_to_teran_one_victory_up() -> None:
    """Opening a save folds the events read back from JSON, without the commands. F1:
    4-3 = +1 against 3+0 = +3, Teran by 2, one victory; then 4-1 = +3 against 3+0 = +3,
    a tie, nobody scores, and the tie's twist enters play: 0-1 after two exchanges."""
    c0 = cynere_teran()
    c, log1 = exchange(c0, {"Cynere": -3, "Teran": 0})
    c, log2 = exchange(c, {"Cynere": -1, "Teran": 0}, twist="Magical Distortions")
    saved = json.loads(json.dumps(encode([*log1, *log2])))
    replayed = fold(c0, decode(saved, list[Event]))
    assert isinstance(replayed, FateContest)
    assert dict(replayed.victories) == {"Cynere": 0, "Teran": 1}
    assert replayed.n == 2 and not replayed.finished
    assert replayed.aspect("Magical Distortions") == Aspect(name="Magical Distortions")
    assert replayed == c


# -- create an advantage, F6-F8, F11 --------------------------------------------------------


def test_f6_successful_advantage_puts_aspect_on_teran_with_one_free_invoke_for_cynere() -> None:
    c, _ = play(
        cynere_teran(),
        CreateAdvantage(by="Cynere", aspect="Mud in the Eyes", on="Teran", result=4, opposition=3),
    )
    # Placed on Teran, it is Teran's (a point paid to invoke it goes to him: issue 24).
    assert c.aspect("Mud in the Eyes") == Aspect(
        name="Mud in the Eyes", free_invokes=1, holder="Cynere", owner="Teran"
    )
    assert c.rolling_sides == ("Cynere", "Teran")  # both still roll


def test_f7_failed_advantage_forfeits_the_roll_and_teran_wins_one_victory() -> None:
    c, _ = play(
        cynere_teran(),
        CreateAdvantage(by="Cynere", aspect="Mud in the Eyes", on="Teran", result=4, opposition=5),
    )
    assert c.aspect("Mud in the Eyes") is None
    assert c.rolling_sides == ("Teran",)
    with pytest.raises(RuleError):
        apply(c, RollDice(who="Cynere", faces=dice(0)))
    # A lone roller wins one victory whatever it rolls: here a -4.
    c, log = exchange(c, {"Teran": -4})
    e = resolved(log)
    assert (e.winner, e.victories, e.forfeited) == ("Teran", 1, ("Cynere",))


def test_f7_condensed_cost_keeps_the_roll_and_gives_teran_a_free_invoke() -> None:
    c, _ = play(
        cynere_teran(failed_advantage="cost"),
        CreateAdvantage(by="Cynere", aspect="Mud in the Eyes", on="Teran", result=4, opposition=5),
    )
    assert c.aspect("Mud in the Eyes") == Aspect(
        name="Mud in the Eyes", free_invokes=1, holder="Teran", owner="Teran"
    )
    assert c.rolling_sides == ("Cynere", "Teran")


def test_f8_tied_advantage_gives_a_boost_that_leaves_play_once_used() -> None:
    c, _ = play(
        cynere_teran(),
        CreateAdvantage(by="Cynere", aspect="Off Balance", on="Teran", result=4, opposition=4),
        RollDice(who="Cynere", faces=dice(0)),
        RollDice(who="Teran", faces=dice(0)),
    )
    boost = c.aspect("Off Balance")
    assert boost == Aspect(
        name="Off Balance", free_invokes=1, holder="Cynere", boost=True, owner="Teran"
    )
    c, _ = play(c, InvokeAspect(by="Cynere", aspect="Off Balance", free=True))
    assert c.aspect("Off Balance") is None  # F20: gone after its free use
    assert c.total("Cynere") == 4 + 0 + 2
    with pytest.raises(UnknownName):
        apply(c, InvokeAspect(by="Cynere", aspect="Off Balance"))


def test_f20_a_boost_cannot_be_paid_for() -> None:
    c, _ = play(
        cynere_teran(),
        CreateAdvantage(by="Cynere", aspect="Off Balance", result=2, opposition=2),
        RollDice(who="Cynere", faces=dice(0)),
    )
    with pytest.raises(RuleError, match="boost"):
        apply(c, InvokeAspect(by="Cynere", aspect="Off Balance", free=False))


def guardians_and_pcs(**options: object) -> FateContest:
    pcs = [("Cynere", 4), ("Landon", 3), ("Zird", 1)]
    guards = [(f"Guard {i}", 1) for i in range(1, 6)]
    return new_contest(
        [FateParticipant(name=n, side="PCs", skill=s) for n, s in pcs]
        + [FateParticipant(name=n, side="Guardians", skill=s) for n, s in guards],
        options=FateOptions(**options),  # type: ignore[arg-type]
    )


def test_f9_teamwork_core_pcs_at_six_guardians_at_five() -> None:
    c = guardians_and_pcs()
    # Cynere +4 leads, Landon and Zird (both >= +1) add +1 each: +6 Fantastic.
    assert c.rating("PCs") == 6
    # One guardian +1 leads, four others add +1 each: +5 Superb.
    assert c.rating("Guardians") == 5


def test_f10_condensed_cap_limits_teamwork_to_the_leads_skill() -> None:
    c = guardians_and_pcs(teamwork_cap="lead_skill")
    assert c.rating("PCs") == 6  # bonus 2 <= 4
    assert c.rating("Guardians") == 2  # bonus 4 capped at the lead's +1


def test_f11_helper_failing_an_advantage_loses_only_their_plus_one() -> None:
    c, _ = play(
        guardians_and_pcs(),
        CreateAdvantage(by="Zird", aspect="Arcane Ward", result=0, opposition=2),
    )
    assert c.rolling_sides == ("PCs", "Guardians")
    assert c.rating("PCs") == 5


def test_lead_failing_an_advantage_forfeits_the_whole_sides_roll() -> None:
    c, _ = play(
        guardians_and_pcs(),
        CreateAdvantage(by="Cynere", aspect="Arcane Ward", result=0, opposition=2),
    )
    assert c.rolling_sides == ("Guardians",)


def test_teamwork_helpers_below_average_add_nothing_and_ties_take_the_first_listed() -> None:
    # Skills 3, 3, 0, -1: the first +3 leads, the second +3 adds 1, the others nothing.
    assert teamwork([3, 3, 0, -1]) == (3, 1)
    # A lead at 0 under the cap gets no bonus at all.
    assert teamwork([0, 1, 1], "lead_skill") == (1, 1)
    assert teamwork([0, 0, 0], "lead_skill") == (0, 0)


# -- invokes, F19 ----------------------------------------------------------------------


def quick_hands() -> FateContest:
    c = new_contest(
        [
            FateParticipant(name="Ana", side="Ana", skill=2, fate_points=3),
            FateParticipant(name="Bo", side="Bo", skill=2),
        ],
        [Aspect(name="Quick Hands", free_invokes=2)],
    )
    c, _ = play(c, RollDice(who="Ana", faces=dice(0)), RollDice(who="Bo", faces=dice(0)))
    return c


def test_f19_second_paid_invoke_of_one_aspect_on_one_roll_is_rejected() -> None:
    c, _ = play(quick_hands(), InvokeAspect(by="Ana", aspect="Quick Hands"))
    with pytest.raises(RuleError, match="already been paid"):
        apply(c, InvokeAspect(by="Ana", aspect="Quick Hands"))


def test_f19_free_invokes_stack_with_one_paid_invoke() -> None:
    c, _ = play(
        quick_hands(),
        InvokeAspect(by="Ana", aspect="Quick Hands"),
        InvokeAspect(by="Ana", aspect="Quick Hands", free=True),
        InvokeAspect(by="Ana", aspect="Quick Hands", free=True),
    )
    assert c.total("Ana") == 2 + 0 + 6  # three invokes, +2 each
    assert c.fate_participant("Ana").fate_points == 2
    assert c.aspect("Quick Hands") == Aspect(name="Quick Hands", free_invokes=0)


def test_paying_with_no_fate_points_is_refused_and_points_never_go_negative() -> None:
    with pytest.raises(NoFatePoints, match="Bo has no fate points left"):
        apply(quick_hands(), InvokeAspect(by="Bo", aspect="Quick Hands"))


def test_reroll_replaces_the_dice_and_keeps_bonuses_already_added() -> None:
    c, _ = play(
        quick_hands(),
        InvokeAspect(by="Ana", aspect="Quick Hands", free=True),
        InvokeAspect(by="Ana", aspect="Quick Hands", effect="reroll", faces=dice(3)),
    )
    assert c.total("Ana") == 2 + 3 + 2


def test_free_invokes_held_by_another_side_cannot_be_spent() -> None:
    c = new_contest(
        [
            FateParticipant(name="Ana", side="Ana", skill=2),
            FateParticipant(name="Bo", side="Bo", skill=2),
        ],
        [Aspect(name="Cornered", free_invokes=1, holder="Bo")],
    )
    c, _ = play(c, RollDice(who="Ana", faces=dice(0)))
    with pytest.raises(RuleError, match="belong to Bo"):
        apply(c, InvokeAspect(by="Ana", aspect="Cornered", free=True))


def test_invoking_for_an_ally_adds_two_to_the_allys_roll() -> None:
    c = new_contest(
        [
            FateParticipant(name="Ana", side="Ana", skill=2, fate_points=1),
            FateParticipant(name="Bo", side="Bo", skill=1),
            FateParticipant(name="Cy", side="Cy", skill=3),
        ],
        [Aspect(name="Old Friends")],
    )
    c, _ = play(c, *(RollDice(who=s, faces=dice(0)) for s in ("Ana", "Bo", "Cy")))
    c, _ = play(c, InvokeAspect(by="Ana", aspect="Old Friends", target="Bo"))
    # Bo: +1 skill, +0 dice, +2 from Ana's invoke = +3; Ana paid the point.
    assert (c.total("Ana"), c.total("Bo")) == (2, 3)
    assert c.fate_participant("Ana").fate_points == 0


def test_raising_the_passive_opposition_costs_the_target_two_shifts() -> None:
    c = new_contest(
        [
            FateParticipant(name="Ana", side="Ana", skill=2, fate_points=1),
            FateParticipant(name="Bo", side="Bo", skill=2),
        ],
        [Aspect(name="Rough Seas")],
        FateOptions(mode="environment", difficulty=1),
    )
    c, _ = play(c, *(RollDice(who=s, faces=dice(0)) for s in ("Ana", "Bo")))
    c, log = play(
        c,
        InvokeAspect(by="Ana", aspect="Rough Seas", effect="oppose", target="Bo"),
        ResolveExchange(),
    )
    # Ana: 2 - 1 = 1 shift; Bo: 2 - 2 (opposition +2 against Bo) - 1 = -1 shift. Ana wins.
    e = resolved(log)
    assert e.shifts == {"Ana": 1, "Bo": -1}
    assert (e.winner, e.victories) == ("Ana", 1)


def test_the_opposition_cannot_be_raised_in_a_direct_contest() -> None:
    c, _ = play(quick_hands())
    with pytest.raises(RuleError, match="environment"):
        apply(c, InvokeAspect(by="Ana", aspect="Quick Hands", effect="oppose", target="Bo"))


def test_invoke_before_rolling_is_out_of_turn() -> None:
    with pytest.raises(OutOfTurn):
        apply(cynere_teran(), InvokeAspect(by="Cynere", aspect="I've Got Zird's Back"))


def test_paid_invoke_on_a_character_aspect_pays_its_owner_when_the_contest_ends() -> None:
    c = new_contest(
        [
            FateParticipant(name="Ana", side="Ana", skill=2, fate_points=1),
            FateParticipant(name="Bo", side="Bo", skill=0, fate_points=0),
        ],
        [Aspect(name="Bo's Temper", owner="Bo")],
        FateOptions(victories_needed=1),
    )
    c, _ = play(c, RollDice(who="Ana", faces=dice(0)), RollDice(who="Bo", faces=dice(0)))
    c, _ = play(c, InvokeAspect(by="Ana", aspect="Bo's Temper"))
    assert c.fate_participant("Bo").fate_points == 0  # usable only after the scene
    c, _ = play(c, ResolveExchange())
    assert c.finished
    assert c.fate_participant("Ana").fate_points == 0
    assert c.fate_participant("Bo").fate_points == 1


# -- scoring: F18, environment mode, several sides --------------------------------------


def test_f18_margin_of_two_is_one_victory_not_style() -> None:
    s = score_exchange(FateOptions(), {"A": 5, "B": 3})
    assert (s.winner, s.victories) == ("A", 1)


def test_direct_mode_with_three_sides_measures_style_against_the_second_best() -> None:
    # 7 vs 4 and 2: margin over the next best (4) is 3: style.
    assert score_exchange(FateOptions(), {"A": 7, "B": 4, "C": 2}).victories == 2
    # 7 vs 5 and 2: margin 2: one victory.
    assert score_exchange(FateOptions(), {"A": 7, "B": 5, "C": 2}).victories == 1
    # A tie for the highest makes a twist even if a third side is lower.
    s = score_exchange(FateOptions(), {"A": 5, "B": 5, "C": 1})
    assert (s.winner, s.twist) == (None, True)


def test_environment_style_needs_nobody_else_with_style_under_core_only() -> None:
    core = FateOptions(mode="environment", difficulty=2)
    # Shifts 4 and 3: both have style; the winner (4) gets only one victory under Core.
    assert score_exchange(core, {"A": 6, "B": 5}).victories == 1
    # Fate Accelerated drops the clause: two victories.
    fae = FateOptions(mode="environment", difficulty=2, style_clause="fae")
    assert score_exchange(fae, {"A": 6, "B": 5}).victories == 2
    # Shifts 4 and 2: only the winner has style.
    assert score_exchange(core, {"A": 6, "B": 4}).victories == 2


def test_environment_least_bad_wins_unless_success_is_required() -> None:
    opts = FateOptions(mode="environment", difficulty=5)
    s = score_exchange(opts, {"A": 3, "B": 1})  # shifts -2 and -4
    assert (s.winner, s.victories) == ("A", 1)
    strict = FateOptions(mode="environment", difficulty=5, environment_requires_success=True)
    s = score_exchange(strict, {"A": 3, "B": 3})  # best shifts -2 < 0: no score, no twist
    assert (s.winner, s.victories, s.twist) == (None, 0, False)


def test_lone_roller_in_environment_mode_is_measured_like_any_other() -> None:
    opts = FateOptions(mode="environment", difficulty=1)
    assert score_exchange(opts, {"A": 4}).victories == 2  # shifts 3, nobody else: style


def test_attack_ends_the_contest_as_a_conflict_without_scoring() -> None:
    c, log = exchange(cynere_teran(), {"Cynere": 4, "Teran": -4}, DeclareAttack(by="Teran"))
    e = resolved(log)
    assert (e.winner, e.victories, e.twist) == (None, 0, None)
    assert c.finished and c.winner is None and c.ended_by == "attack"


def test_nothing_can_happen_after_the_contest_ends() -> None:
    c, _ = exchange(cynere_teran(victories_needed=1), {"Cynere": 2, "Teran": 0})
    with pytest.raises(RuleError, match="ended at exchange 1"):
        apply(c, RollDice(who="Cynere", faces=dice(0)))


# -- advantages on aspects already in play ------------------------------------------


def test_advantage_on_existing_aspect_adds_invokes_and_takes_the_holding() -> None:
    c = new_contest(
        [
            FateParticipant(name="Ana", side="Ana", skill=2),
            FateParticipant(name="Bo", side="Bo", skill=2),
        ],
        [Aspect(name="Smoke", free_invokes=0)],
    )
    c, _ = play(c, CreateAdvantage(by="Ana", aspect="Smoke", result=5, opposition=1))
    assert c.aspect("Smoke") == Aspect(name="Smoke", free_invokes=2, holder="Ana")  # style: 2
    # Bo cannot add to it while Ana holds free invokes on it.
    with pytest.raises(RuleError, match="held by Ana"):
        apply(c, CreateAdvantage(by="Bo", aspect="Smoke", result=3, opposition=0))
    # Ana fails on it: the one would go to Bo and move Ana's two with it: refused
    # (scenario.md: free invokes never change hands).
    with pytest.raises(RuleError, match="held by Ana"):
        apply(c, CreateAdvantage(by="Ana", aspect="Smoke", result=0, opposition=1))
    # Bo fails on it: the one goes to Ana, who holds them: 2 + 1 = 3.
    c, _ = play(c, CreateAdvantage(by="Bo", aspect="Smoke", result=0, opposition=1))
    assert c.aspect("Smoke") == Aspect(name="Smoke", free_invokes=3, holder="Ana")
    assert c.rolling_sides == ("Ana",)  # and Bo's roll is forfeit (Core)


def test_advantage_after_the_rolls_is_out_of_turn() -> None:
    c, _ = play(cynere_teran(), RollDice(who="Cynere", faces=dice(0)))
    with pytest.raises(OutOfTurn):
        apply(c, CreateAdvantage(by="Teran", aspect="Smoke", result=3, opposition=0))


# -- F21, F22 and the outcome table ------------------------------------------------------


@pytest.mark.parametrize(("faces", "total"), [("-+0+", 1), ("+++-", 2), ("-000", -1), ("+-00", 0)])
def test_f21_dice_reading(faces: str, total: int) -> None:
    assert sum(parse_fate_dice(faces)) == total


@pytest.mark.parametrize(
    ("value", "label"),
    [(9, "Legendary+1"), (8, "Legendary"), (-2, "Terrible"), (-3, "-3"), (-4, "-4"), (-5, "-5")],
)
def test_f22_ladder_labels(value: int, label: str) -> None:
    assert ladder_label(value) == label


@pytest.mark.parametrize(
    ("value", "said"),
    [(4, "Great (+4)"), (0, "Mediocre (0)"), (-2, "Terrible (-2)"), (-3, "-3"), (-5, "-5")],
)
def test_a_rating_below_the_ladder_is_its_number_once(value: int, said: str) -> None:
    """F22: the ladder's names stop at Terrible (-2); below it a rating has only its
    number, written once (a recovery's total typed -5 said '-5 (-5) does not reach...')."""
    from core.systems.fate.ladder import ladder_with_value

    assert ladder_with_value(value) == said


@pytest.mark.parametrize(
    ("result", "opposition", "outcome"),
    [(2, 3, "fail"), (3, 3, "tie"), (4, 3, "success"), (5, 3, "success"), (6, 3, "style")],
)
def test_four_outcomes(result: int, opposition: int, outcome: str) -> None:
    assert advantage_outcome(result, opposition) == outcome


@pytest.mark.parametrize("bad", ["", "++", "+++++", "+-0x", "0 00"])
def test_bad_fate_dice_are_refused(bad: str) -> None:
    with pytest.raises(RuleError):
        parse_fate_dice(bad)
