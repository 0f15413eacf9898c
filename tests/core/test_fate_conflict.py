"""The rules of a Fate conflict (core.systems.fate.conflict), each worked out by hand from
the Fate Core SRD ("Conflicts": Turn Order, Full Defense, Resolving Attacks, Stress,
Consequences, Recovering from a Consequence, Extreme Consequences, Conceding the
Conflict, Ending a Conflict; the "Attack" and "Defend" actions; the Physique skill) and
Fate Condensed ("Stress and Consequences", "Taking Harm"), and from issue 28's own
examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from core.files.codec import decode, encode
from core.systems.fate.conflict import (
    CORE,
    Absorption,
    Box,
    Combatant,
    Conflict,
    ConflictError,
    ConflictOptions,
    Slot,
    Track,
    absorb,
    absorbed,
    absorptions,
    attack_result,
    capacity,
    concede,
    concession_points,
    end_conflict,
    gm_order,
    has_extra_mild,
    is_over,
    is_taken_out_by,
    legal,
    new_combatant,
    next_turn,
    npcs_together,
    ordered,
    payouts,
    recovery_difficulty,
    stress_boxes,
    take_out,
    time_passes,
    treat,
    turn_order,
    winner,
)

CONDENSED = ConflictOptions(stress="condensed")


def with_boxes(c: Combatant, values: tuple[int, ...], checked: tuple[int, ...] = ()) -> Combatant:
    """``c`` with a physical track of boxes ``values``, those at ``checked`` checked."""
    track = Track(
        name="physical",
        boxes=tuple(Box(value=v, checked=i in checked) for i, v in enumerate(values)),
    )
    return replace(c, tracks=(track, *c.tracks[1:]))


def ways(c: Combatant, shifts: int, options: ConflictOptions = CORE) -> set[str]:
    """The ways to absorb, written as the table says them: "2-box + moderate"."""
    out = set()
    for a in absorptions(c, "physical", shifts, options):
        parts = [f"{c.tracks[0].boxes[i].value}-box" for i in a.boxes]
        parts += [c.slots[i].severity for i in a.slots]
        out.add(" + ".join(parts))
    return out


# -- track sizes by skill (SRD, Stress and Physique; Condensed's table) ----------------------


@pytest.mark.parametrize(
    ("rating", "boxes"),
    [
        (0, (1, 2)),
        (-1, (1, 2)),
        (1, (1, 2, 3)),
        (2, (1, 2, 3)),
        (3, (1, 2, 3, 4)),
        (4, (1, 2, 3, 4)),
        (5, (1, 2, 3, 4)),
        (6, (1, 2, 3, 4)),
    ],
)
def test_core_boxes_by_physique_or_will(rating: int, boxes: tuple[int, ...]) -> None:
    """ "all characters get a 1-point and a 2-point box"; "Average (+1) or Fair (+2) gives
    you a 3-point stress box. Good (+3) or Great (+4) gives you a 3-point and a 4-point
    stress box. Superb (+5) and above give you an additional mild consequence slot along
    with the additional stress boxes"."""
    assert stress_boxes(rating) == boxes


@pytest.mark.parametrize(("rating", "count"), [(0, 3), (1, 4), (2, 4), (3, 6), (4, 6), (5, 6)])
def test_condensed_boxes_by_physique_or_will(rating: int, count: int) -> None:
    """Condensed's table: Mediocre [1][1][1]; Average or Fair [1][1][1] [1]; Good or
    Great [1][1][1] [1][1][1]; Superb and higher the same and a second mild slot."""
    assert stress_boxes(rating, CONDENSED) == (1,) * count


def test_extra_boxes_option_adds_to_each_track() -> None:
    """Condensed: "you may want to add one or two boxes to the default quantity"."""
    assert stress_boxes(0, ConflictOptions(stress="condensed", extra_boxes=2)) == (1,) * 5
    assert stress_boxes(0, ConflictOptions(extra_boxes=1)) == (1, 2, 3)


def test_superb_physique_gives_a_mild_slot_for_physical_harm_only() -> None:
    """SRD, Physique: "Superb (+5) and above give you an additional mild consequence slot
    ... This slot can only be used for physical harm"; Will's for mental harm."""
    assert not has_extra_mild(4) and has_extra_mild(5)
    c = new_combatant("Og", "npcs", physique=5, will=5)
    assert [(s.severity, s.only) for s in c.slots] == [
        ("mild", None),
        ("moderate", None),
        ("severe", None),
        ("mild", "physical"),
        ("mild", "mental"),
    ]
    # A 2-shift mental hit may fill the general mild or the mental one, never the
    # physical one (the tracks: boxes 1, 2, 3, 4 each; consequences alone listed here).
    mental = {a.slots for a in absorptions(c, "mental", 2) if not a.boxes and len(a.slots) == 1}
    assert (0,) in mental and (4,) in mental and (3,) not in mental


def test_extreme_slot_by_option() -> None:
    """SRD, Extreme Consequences: a last-ditch slot absorbing 8 shifts (an option)."""
    assert [s.severity for s in new_combatant("A", "a").slots] == ["mild", "moderate", "severe"]
    extreme = new_combatant("A", "a", options=ConflictOptions(extreme=True))
    assert extreme.slots[-1].severity == "extreme" and extreme.slots[-1].shifts == 8


def test_extra_tracks_named_by_a_sheet() -> None:
    c = new_combatant("Zird", "pcs", extra_tracks={"Corruption": (1, 1, 1)})
    assert [t.name for t in c.tracks] == ["physical", "mental", "Corruption"]
    # Core: one box per hit, worth 1 here. A 3-shift Corruption hit: a mild and a box
    # (2 + 1), the moderate, or the severe; a 4-shift one: the moderate or the severe.
    assert {(a.boxes, a.slots) for a in absorptions(c, "Corruption", 3)} == {
        ((0,), (0,)),
        ((), (1,)),
        ((), (2,)),
    }
    assert {(a.boxes, a.slots) for a in absorptions(c, "Corruption", 4)} == {((), (1,)), ((), (2,))}
    with pytest.raises(ConflictError):
        new_combatant("Zird", "pcs", extra_tracks={"physical": (1,)})


# -- turn order (SRD, Turn Order) ------------------------------------------------------------


def test_turn_order_the_srd_warehouse() -> None:
    """ "Cynere has a Notice of Good (+3) ... goes first. Zird has a Notice of Average (+1),
    so he goes second. Landon and Og both lack the Notice skill. Landon has Athletics at
    Good (+3), and Og has it at Fair (+2), so Landon goes third and Og goes last.\""""
    skills = {
        "Og": {"Athletics": 2},
        "Landon": {"Athletics": 3},
        "Zird": {"Notice": 1},
        "Cynere": {"Notice": 3},
    }
    assert turn_order(skills) == ("Cynere", "Zird", "Landon", "Og")


def test_turn_order_ties_go_to_physique_then_mental_skills() -> None:
    """Ties: Athletics, then Physique; mental: Empathy, Rapport, then Will."""
    skills = {
        "A": {"Notice": 2, "Athletics": 1, "Physique": 1, "Will": 4},
        "B": {"Notice": 2, "Athletics": 1, "Physique": 3, "Rapport": 1},
        "C": {"Empathy": 1, "Rapport": 1},
    }
    assert turn_order(skills, "physical") == ("B", "A", "C")
    assert turn_order(skills, "mental") == ("C", "B", "A")


def test_npcs_go_at_their_best_seat() -> None:
    """ "pick your most advantageous NPC to determine your place in the turn order, and
    let all your NPCs go at that time"."""
    order = ("Cynere", "Thug", "Zird", "Og")
    assert npcs_together(order, ("Og", "Thug")) == ("Cynere", "Thug", "Og", "Zird")


# -- attacks (SRD, Attack; Defend; Full Defense) ----------------------------------------------


def test_attack_the_srd_drisban_example() -> None:
    """Cynere Fight Good (+3) rolls +2 (Superb, +5) against Drisban's Fight Great (+4)
    rolling -1 (Good, +3): a 2-shift hit. Invoking for +2, Epic (+7): 4 shifts with
    style, "she could also have inflicted a 3-shift hit and taken a boost"."""
    assert attack_result(5, 3) == attack_result(5, 3, take_boost=True)
    assert (attack_result(5, 3).outcome, attack_result(5, 3).shifts) == ("success", 2)
    style = attack_result(7, 3)
    assert (style.outcome, style.shifts, style.attacker_boost) == ("style", 4, False)
    boosted = attack_result(7, 3, take_boost=True)
    assert (boosted.shifts, boosted.attacker_boost) == (3, True)


def test_attack_tie_gives_the_attacker_a_boost_and_no_harm() -> None:
    """ "When you tie an attack, you don't cause any harm, but you gain a boost.\""""
    tie = attack_result(3, 3)
    assert (tie.outcome, tie.shifts, tie.attacker_boost, tie.defender_boost) == (
        "tie",
        0,
        True,
        False,
    )


def test_defense_with_style_gives_the_defender_a_boost() -> None:
    """Defend: "When you succeed with style at a defense ... you also gain a boost"."""
    assert attack_result(1, 4).defender_boost  # defended by 3
    assert not attack_result(2, 4).defender_boost  # by 2: a plain success
    assert attack_result(2, 4).shifts == 0


def test_full_defense_adds_two_to_the_defense() -> None:
    """ "you get to roll all defend actions for the exchange at a +2 bonus": a 1-shift
    hit (4 against 3) becomes a failed attack (4 against 5)."""
    assert attack_result(4, 3).shifts == 1
    assert attack_result(4, 3, full_defense=True).outcome == "fail"
    assert attack_result(5, 3, full_defense=True).outcome == "tie"


# -- absorbing hits (SRD, Stress; Consequences; issue 28's examples) --------------------------


def test_two_shift_hit_with_boxes_one_and_two_checked_takes_the_three_box() -> None:
    """Issue 28: a Physique Fair character (boxes 1, 2, 3) with the 1 and 2 checked can
    take a 2-shift hit on the 3-box ("If that box is already checked, check off a higher
    value box")."""
    c = new_combatant("Landon", "pcs", physique=2)
    assert [b.value for b in c.tracks[0].boxes] == [1, 2, 3]
    c = with_boxes(c, (1, 2, 3), checked=(0, 1))
    assert "3-box" in ways(c, 2)
    assert not is_taken_out_by(c, "physical", 2)
    after = absorb(c, Absorption(track="physical", boxes=(2,)), 2)
    assert [b.checked for b in after.tracks[0].boxes] == [True, True, True]
    assert [s.free for s in after.slots] == [True, True, True]


def test_five_shift_hit_one_box_or_two_box_and_moderate_not_two_box_and_mild() -> None:
    """Issue 28: a 5-shift hit, boxes 1 and 2 free, no consequence taken: the 1-box and a
    moderate (1 + 4), or the 2-box and a moderate (2 + 4 covers 5), but not the 2-box and
    a mild (2 + 2 = 4: one shift left, taken out)."""
    c = new_combatant("Zird", "pcs", physique=0)
    found = ways(c, 5)
    assert {"1-box + moderate", "2-box + moderate"} <= found
    assert "2-box + mild" not in found
    two_and_mild = Absorption(track="physical", boxes=(1,), slots=(0,))
    assert absorbed(c, two_and_mild) == 4
    assert not legal(c, two_and_mild, 5)
    with pytest.raises(ConflictError):
        absorb(c, two_and_mild, 5, ("Winded",))
    # What else: a severe alone, or a mild and a moderate (2 + 4).
    assert found == {"1-box + moderate", "2-box + moderate", "severe", "mild + moderate"}


def test_the_srd_cynere_six_shift_hit() -> None:
    """SRD, Consequences: a 6-shift hit on Cynere with everything free: "She could take
    one severe consequence ... She could also take a moderate consequence (4 stress) and
    use her 2-point stress box" (and, by the same rule, a mild and a moderate)."""
    c = new_combatant("Cynere", "pcs", physique=0)
    assert ways(c, 6) == {"severe", "2-box + moderate", "mild + moderate"}


def test_the_srd_landon_three_shift_hit_takes_the_four_box() -> None:
    """SRD, Stress: Landon has a 2-point and a 4-point box left, his 3 checked; a 3-shift
    hit "must be absorbed by a higher-value box. He reluctantly checks off the 4-point
    box" (under the strict reading too)."""
    c = with_boxes(new_combatant("Landon", "pcs"), (1, 2, 3, 4), checked=(0, 2))
    assert "4-box" in ways(c, 3) and "2-box" not in ways(c, 3)
    strict = ways(c, 3, ConflictOptions(box_rule="next"))
    assert "4-box" in strict


def test_strict_box_rule_takes_the_smallest_box_that_covers() -> None:
    """The SRD's words read strictly: "a box with a value equal to the shift value of the
    hit. If that box is already checked, check off a higher value box" — a 1-shift hit
    with the 1-box free takes the 1-box, not the 2-box."""
    c = new_combatant("Zird", "pcs")
    assert ways(c, 1) >= {"1-box", "2-box"}
    strict = ways(c, 1, ConflictOptions(box_rule="next"))
    assert "1-box" in strict and "2-box" not in strict
    assert not legal(
        c, Absorption(track="physical", boxes=(1,)), 1, ConflictOptions(box_rule="next")
    )


def test_one_box_per_hit_in_core_any_number_in_condensed() -> None:
    """Core: "You can only check off one stress box per hit." Condensed: "Each stress box
    you mark absorbs one shift. You can mark multiple stress boxes" — Charles "marks the
    first two of his three physical stress boxes" for a 2-shift hit."""
    core = new_combatant("Zird", "pcs")
    both = Absorption(track="physical", boxes=(0, 1))
    assert not legal(core, both, 3)
    assert not legal(core, both, 1)  # even where the first box alone would cover it
    charles = new_combatant("Charles", "pcs", physique=0, options=CONDENSED)
    assert ways(charles, 2, CONDENSED) >= {"1-box + 1-box"}
    after = absorb(charles, both, 2, options=CONDENSED)
    assert [b.checked for b in after.tracks[0].boxes] == [True, True, False]


def test_condensed_ghoul_five_shifts_then_nine_takes_charles_out() -> None:
    """Condensed, Consequences and Getting Taken Out: five shifts, "He chooses to take a
    moderate consequence ... leaving one, which Charles absorbs with his last remaining
    stress box"; later, all his boxes full and the moderate taken, a 9-shift hit (Legendary
    +8 against Poor -1): "Even if he were to take a mild and a severe consequence at once,
    absorbing eight shifts, it wouldn't be enough"."""
    charles = with_boxes(new_combatant("Charles", "pcs", options=CONDENSED), (1, 1, 1), (0, 1))
    assert "1-box + moderate" in ways(charles, 5, CONDENSED)
    hurt = absorb(
        charles,
        Absorption(track="physical", boxes=(2,), slots=(1,)),
        5,
        ("Gaping Chest Wound",),
        by="ghoul",
        options=CONDENSED,
    )
    assert capacity(hurt, "physical", CONDENSED) == 8
    assert is_taken_out_by(hurt, "physical", 9, CONDENSED)
    assert not is_taken_out_by(hurt, "physical", 8, CONDENSED)
    assert take_out(hurt).taken_out


def test_a_consequence_is_an_aspect_with_a_free_invoke_for_the_attacker() -> None:
    """ "The opponent who forced you to take a consequence gets a free invocation"."""
    c = new_combatant("Cynere", "pcs")
    after = absorb(c, Absorption(track="physical", slots=(2,)), 6, ("Nearly Gutted",), by="thugs")
    severe = after.slots[2]
    assert (severe.aspect, severe.holder, severe.free_invokes) == ("Nearly Gutted", "thugs", 1)
    assert after.taken_here == 1
    with pytest.raises(ConflictError):  # a slot once filled is not free
        absorb(after, Absorption(track="physical", slots=(2,)), 6, ("Again",))
    with pytest.raises(ConflictError):  # each consequence has a name
        absorb(c, Absorption(track="physical", slots=(2,)), 6, ("  ",))


def test_consequences_are_one_set_for_all_harm() -> None:
    """ "you only have one set of consequences ... if your mild consequence slot is already
    filled with a physical consequence, you're out of luck!\""""
    c = absorb(new_combatant("A", "a"), Absorption(track="physical", slots=(0,)), 2, ("Black Eye",))
    assert all(0 not in a.slots for a in absorptions(c, "mental", 2))


# -- conceding and the end (SRD, Conceding the Conflict; Ending a Conflict) -------------------


def test_landon_concedes_with_a_mild_and_a_moderate_for_three_fate_points() -> None:
    """ "Landon's taken both a mild and a moderate consequence. He gets a fate point for
    conceding, as well as two more fate points for the two consequences he took, giving
    him three total.\""""
    landon = new_combatant("Landon", "pcs", physique=2)
    landon = absorb(landon, Absorption(track="physical", slots=(0,)), 2, ("Bruised",), by="npcs")
    landon = absorb(landon, Absorption(track="physical", slots=(1,)), 4, ("Cut",), by="npcs")
    conflict = Conflict(
        combatants=(landon, new_combatant("Cynere", "pcs"), new_combatant("Og", "npcs"))
    )
    assert concession_points(landon) == 3
    conceded = concede(conflict, "Landon")
    assert payouts(conceded) == {"Landon": 3}
    assert not is_over(conceded)  # Cynere is still in it for the PCs
    with pytest.raises(ConflictError):
        concede(conceded, "Landon")
    done = concede(conceded, "Og")
    assert is_over(done) and winner(done) == "pcs"
    assert payouts(done) == {"Landon": 3, "Og": 1}


def test_consequences_from_an_earlier_conflict_do_not_pay() -> None:
    """ "if you've sustained any consequences in this conflict": last conflict's stay on the
    sheet but are not counted again."""
    c = absorb(new_combatant("A", "a"), Absorption(track="physical", slots=(0,)), 2, ("Old",))
    after = end_conflict(Conflict(combatants=(c,))).combatants[0]
    assert after.slots[0].aspect == "Old"
    assert concession_points(after) == 1


def test_stress_clears_after_the_conflict_consequences_stay() -> None:
    """ "any stress boxes you checked off become available for your use again"; "make a
    note of whatever consequences you suffered"."""
    c = absorb(
        new_combatant("A", "a"),
        Absorption(track="physical", boxes=(1,), slots=(1,)),
        6,
        ("Deep Cut",),
        by="b",
    )
    after = end_conflict(Conflict(combatants=(c,))).combatants[0]
    assert not any(b.checked for t in after.tracks for b in t.boxes)
    assert after.slots[1].aspect == "Deep Cut" and after.slots[1].free_invokes == 1


def test_taken_out_leaves_the_conflict() -> None:
    a, b = new_combatant("A", "a"), new_combatant("B", "b")
    done = Conflict(combatants=(a, b)).with_combatant(take_out(b))
    assert is_over(done) and winner(done) == "a"
    with pytest.raises(ConflictError):
        absorb(take_out(b), Absorption(track="physical", boxes=(0,)), 1)


# -- recovery (SRD, Recovering from a Consequence; Extreme Consequences) ----------------------


def test_recovery_difficulties_and_treating_yourself() -> None:
    """ "Mild is Fair (+2), moderate is Great (+4), and severe is Fantastic (+6) ... on
    yourself, increase the difficulty by two steps"."""
    assert [recovery_difficulty(s) for s in ("mild", "moderate", "severe")] == [2, 4, 6]
    assert recovery_difficulty("moderate", on_self=True) == 6
    with pytest.raises(ConflictError):
        recovery_difficulty("extreme")


def test_nearly_gutted_recovers_after_a_whole_scenario() -> None:
    """Zird's Lore against Fantastic (+6) succeeds on Cynere's Nearly Gutted: "After the
    next whole scenario, she'll be able to erase that aspect"."""
    gutted = Slot(severity="severe", aspect="Nearly Gutted", holder="thugs")
    assert treat(gutted, 5) == gutted  # Superb: not enough
    treated = treat(gutted, 6)
    assert treated.recovery == "treated"
    assert time_passes(treated, "scene") == treated
    assert time_passes(treated, "session") == treated
    healing = time_passes(treated, "scenario")  # the scenario of the treatment ends
    assert healing.recovery == "healing" and healing.aspect == "Nearly Gutted"
    assert time_passes(healing, "scenario") == Slot(severity="severe")


def test_mild_recovers_after_a_whole_scene_and_a_session_end_counts() -> None:
    bruised = treat(Slot(severity="mild", aspect="Bruised"), 4, on_self=True)  # Great vs Great
    assert bruised.recovery == "treated"
    assert time_passes(time_passes(bruised, "scene"), "session").free
    assert not time_passes(bruised, "scene").free
    assert treat(Slot(severity="mild", aspect="Bruised"), 3, on_self=True).recovery == "none"


def test_untreated_consequences_stay() -> None:
    cut = Slot(severity="moderate", aspect="Deep Cut")
    assert time_passes(time_passes(cut, "scenario"), "scenario") == cut


# -- properties -------------------------------------------------------------------------------


@st.composite
def combatants(draw: st.DrawFn) -> tuple[Combatant, ConflictOptions]:
    options = ConflictOptions(
        stress=draw(st.sampled_from(["core", "condensed"])),
        extreme=draw(st.booleans()),
        box_rule=draw(st.sampled_from(["covers", "next"])),
    )
    c = new_combatant("A", "a", draw(st.integers(-1, 6)), draw(st.integers(-1, 6)), options=options)
    track = c.tracks[0]
    boxes = tuple(replace(b, checked=draw(st.booleans())) for b in track.boxes)
    slots = tuple(replace(s, aspect="Hurt") if draw(st.booleans()) else s for s in c.slots)
    return replace(c, tracks=(replace(track, boxes=boxes), *c.tracks[1:]), slots=slots), options


@given(combatants(), st.integers(1, 24))
def test_absorbing_never_loses_shifts_and_taken_out_iff_nothing_covers(
    drawn: tuple[Combatant, ConflictOptions], shifts: int
) -> None:
    c, options = drawn
    found = absorptions(c, "physical", shifts, options)
    for a in found:
        assert legal(c, a, shifts, options)
        assert absorbed(c, a) >= shifts
        after = absorb(c, a, shifts, ("Hurt",) * len(a.slots), by="b", options=options)
        checked = sum(b.checked for b in after.tracks[0].boxes) - sum(
            b.checked for b in c.tracks[0].boxes
        )
        filled = sum(not s.free for s in after.slots) - sum(not s.free for s in c.slots)
        assert (checked, filled) == (len(a.boxes), len(a.slots))
        assert decode(encode(after), Combatant) == after
    # Taken out exactly when the largest hit still absorbable is smaller.
    assert (not found) == (capacity(c, "physical", options) < shifts)
    if options.stress == "core":
        assert all(len(a.boxes) <= 1 for a in found)


# -- turns, and the saved form ---------------------------------------------------------------


def test_turns_skip_who_is_out_and_a_new_exchange_starts_after_the_last() -> None:
    """SRD, The Exchange: "every character gets a turn" each exchange; one taken out or
    conceded has no more turns."""
    a, b, c = (new_combatant(n, s) for n, s in (("A", "pcs"), ("B", "npcs"), ("C", "pcs")))
    conflict = Conflict(combatants=ordered((a, b, c), gm_order(("A", "B", "C"), ("C", "A", "B"))))
    assert [x.name for x in conflict.combatants] == ["C", "A", "B"]
    conflict = concede(conflict, "A")
    step = next_turn(conflict)
    assert (step.turn, step.exchange) == (2, 1)  # A skipped: B
    step = next_turn(step)
    assert (step.turn, step.exchange) == (0, 2)  # C opens exchange 2
    with pytest.raises(ConflictError):
        gm_order(("A", "B", "C"), ("A", "B"))


def test_a_conflict_reloads_equal_under_its_own_tags() -> None:
    """What the engine will save reads back equal, each class under its own "fate." tag,
    no two saved classes sharing one (a tag names one class in the saves)."""
    hurt = absorb(
        new_combatant("Og", "npcs", physique=5, options=ConflictOptions(extreme=True)),
        Absorption(track="physical", boxes=(3,), slots=(4,)),
        6,
        ("Cracked Rib",),
        by="pcs",
    )
    conflict = Conflict(kind="mental", combatants=(hurt, new_combatant("Zird", "pcs")), turn=1)
    data = encode(conflict)
    assert data["@"] == "fate.Conflict"
    assert decode(data, Conflict) == conflict

    import core.systems.fate.sheet  # noqa: F401  (the character sheet's classes too)
    from core.model import Saved
    from core.rules import SYSTEM_NAMES, find_system

    for name in SYSTEM_NAMES:
        find_system(name)
    seen: dict[str, type] = {}
    todo: list[type] = [Saved]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls is Saved:
            continue
        tag = str(cls.__struct_config__.tag)  # type: ignore[attr-defined]
        assert seen.setdefault(tag, cls) is cls, f"{tag} names two classes"
