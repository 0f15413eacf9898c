"""FORGE combat rounds by beats (core.systems.forge.beats), each rule worked out by hand from
rules.md §3.4 ("Beats" [I16], "Actions" [I17], damage [I7], armor [I8], trauma [I15]), its
test vector I20 and the Actions page's two examples (Josef and Bobby), whose multipliers
(×4 for Josef, ×5 for Bobby) the digest infers from their numbers."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import OutOfTurn, RuleError
from core.files.codec import decode, encode
from core.systems.forge.beat_round import (
    BeatOptions,
    BeatRound,
    beat_kind,
    beat_of,
    beats_taken,
    landing_beat,
)
from core.systems.forge.beats import (
    end_round,
    land,
    landing_now,
    may_act,
    move_icon,
    new_round,
    next_beat,
    next_round,
    send,
    skip,
    still_to_do,
    whose_beat,
)
from core.systems.forge.state import ForgeContest, ForgeOptions, ForgeParticipant, new_contest

JOSEF_PA, BOBBY_PA = 45, 15  # beat 1 (PA 40 and more), beat 4 (PA 11-20)


def josef_and_bobby(
    bobby_trauma: int | None = None, armor: int = 0, capacity: int | None = None
) -> ForgeContest:
    return new_contest(
        [
            ForgeParticipant(name="Josef", side="Josef", target=50, multiplier=4),
            ForgeParticipant(
                name="Bobby",
                side="Bobby",
                target=40,
                multiplier=5,
                armor=armor,
                armor_capacity=capacity,
                current_trauma=bobby_trauma,
            ),
        ],
        ForgeOptions(combat=True),
    )


def the_round(contest: ForgeContest, pattern: str = "every_later_beat") -> BeatRound:
    options = BeatOptions(pattern=pattern)  # type: ignore[arg-type]
    return new_round(contest, {"Josef": JOSEF_PA, "Bobby": BOBBY_PA}, options)


# -- beats from Physical Agility ----------------------------------------------------------


@pytest.mark.parametrize(
    ("agility", "beat"),
    [(45, 1), (35, 2), (25, 3), (15, 4), (5, 5), (None, 4)],
)
def test_beat_from_physical_agility_vector_i20(agility: int | None, beat: int) -> None:
    """rules.md §3.6 vector I20: PA 45 / 35 / 25 / 15 / 5 / unknown → beats 1/2/3/4/5/4."""
    assert beat_of(agility) == beat


@pytest.mark.parametrize(
    ("agility", "beat"),
    [(40, 1), (39, 2), (30, 2), (29, 3), (20, 3), (19, 4), (11, 4), (10, 5), (1, 5)],
)
def test_beat_bands_edges(agility: int, beat: int) -> None:
    """rules.md §3.4 Beats table: ≥40 → 1, 30-39 → 2, 20-29 → 3, 11-20 → 4, 1-10 → 5; PA
    20 is in two bands and goes to beat 3 (A-I5)."""
    assert beat_of(agility) == beat


def test_a_physical_agility_of_zero_is_refused() -> None:
    """[I16]: "a PA of 0 being impossible"."""
    with pytest.raises(RuleError):
        beat_of(0)


def test_action_and_reaction_beats() -> None:
    """rules.md §3.4 Beats: 1 preactive, 2 initial action, 4 secondary action are action
    beats; 3 initial reaction and 5 secondary reaction are reaction beats."""
    assert [beat_kind(b) for b in (1, 2, 3, 4, 5)] == [
        "action",
        "action",
        "reaction",
        "action",
        "reaction",
    ]


# -- who takes part (A-I5) ------------------------------------------------------------------


def test_the_inferred_pattern_matches_both_examples() -> None:
    """rules.md §3.4 Actions (A-I5): Josef in beat 1 acts in 1, 2 and 4 and reacts in 3 and
    5; Bobby (PA 15, beat 4) acts in 4 and reacts in 5; a beat-5 icon only reacts, the
    slowest who "all but" of [I17] leaves out of acting."""
    assert beats_taken(1) == (1, 2, 3, 4, 5)
    assert beats_taken(4) == (4, 5)
    assert beats_taken(3) == (3, 4, 5)
    assert beats_taken(5) == (5,)


def test_the_other_reading_own_beat_then_react() -> None:
    """The alternative to A-I5 named as an option: an icon takes part in its own beat and
    reacts in the first reaction beat after it (Josef's beats 2 and 4 then come from his
    "superior capabilities", not from beat 1). Bobby's example reads the same."""
    assert beats_taken(1, "own_beat_then_react") == (1, 3)
    assert beats_taken(2, "own_beat_then_react") == (2, 3)
    assert beats_taken(3, "own_beat_then_react") == (3, 5)
    assert beats_taken(4, "own_beat_then_react") == (4, 5)
    assert beats_taken(5, "own_beat_then_react") == (5,)


def test_damage_lands_in_the_targets_next_reaction_beat() -> None:
    """[I17]: "attacks are sent at the defender during an action phase, the damage is not
    received until the defender's reaction phase": Josef's beat-1 attack on Bobby lands in
    5 (Bobby's only reaction beat), on a beat-3 icon in 3; Bobby's beat-4 attack on Josef
    lands in 5. Under the other reading Josef reacts in 3 only, so Bobby's beat-4 attack
    would find no reaction beat of his: it lands in the round's last beat."""
    assert landing_beat(1, 4) == 5
    assert landing_beat(1, 3) == 3
    assert landing_beat(4, 1) == 5
    assert landing_beat(4, 1, "own_beat_then_react") == 5
    assert landing_beat(2, 1, "own_beat_then_react") == 3


# -- the Actions page's round, played ---------------------------------------------------------


def test_josef_and_bobby_round_from_the_actions_page() -> None:
    """[I17] Ex.1: Josef (target 50) hits Bobby in beat 1 with 35 (damage 3×4 = 12), in
    beat 2 with 24 (2×4 = 8), fails in beat 4 with 57 (over 50); Bobby (target 40) hits
    back in beat 4 with 39 (3×5 = 15). Beat 3 has nothing landing and is passed over. In
    beat 5 all of it lands: with no armor Bobby takes 12 + 8 = 20 trauma (30 → 10) and
    Josef 15; then the round is over."""
    contest = josef_and_bobby(bobby_trauma=30)
    r = the_round(contest)
    assert r.beat == 1 and whose_beat(contest, r) == ("Josef",)
    r = send(contest, r, "Josef", "Bobby", 35)
    assert (r.sent[-1].damage, r.sent[-1].lands_in) == (12, 5)
    r = next_beat(contest, r)
    assert r.beat == 2
    r = send(contest, r, "Josef", "Bobby", 24)
    assert r.sent[-1].damage == 8
    r = next_beat(contest, r)
    assert r.beat == 4  # beat 3: a reaction beat with nothing landing
    assert set(whose_beat(contest, r)) == {"Josef", "Bobby"}
    r = send(contest, r, "Josef", "Bobby", 57)
    assert not r.sent[-1].hit and r.sent[-1].lands_in is None
    r = send(contest, r, "Bobby", "Josef", 39)
    assert (r.sent[-1].damage, r.sent[-1].lands_in) == (15, 5)
    r = next_beat(contest, r)
    assert r.beat == 5
    assert [a.damage for a in landing_now(r, "Bobby")] == [12, 8]
    for attack in landing_now(r):
        contest, r, _ = land(contest, r, attack)
    assert contest.trauma == {"Josef": 15, "Bobby": 20}
    assert contest.current_trauma("Bobby") == 10
    r = next_beat(contest, r)
    assert r.over


def test_nothing_lands_early_and_beat_5_waits_for_its_hits() -> None:
    """[I17]: damage is received in the reaction beat, not before: after beat 1 nothing has
    landed, and beat 5 cannot be left while a hit on Bobby is unmet."""
    contest = josef_and_bobby()
    r = send(contest, the_round(contest), "Josef", "Bobby", 35)
    r = next_beat(contest, r)
    assert r.landed == () and contest.trauma["Bobby"] == 0
    with pytest.raises(OutOfTurn):
        land(contest, r, r.sent[0])
    r = next_beat(contest, next_beat(contest, r))  # beat 2 → 4 → 5
    assert r.beat == 5
    with pytest.raises(OutOfTurn):
        next_beat(contest, r)


def test_each_icon_acts_once_per_beat_and_only_in_its_beats() -> None:
    """[I17]: "every icon can act or react once within each beat ... they are able to
    actively participate in": Josef cannot attack twice in beat 1; Bobby (beat 4) cannot
    act in beat 1; nobody acts in a reaction beat."""
    contest = josef_and_bobby()
    r = send(contest, the_round(contest), "Josef", "Bobby", 35)
    with pytest.raises(OutOfTurn):
        send(contest, r, "Josef", "Bobby", 10)
    with pytest.raises(OutOfTurn):
        send(contest, r, "Bobby", "Josef", 10)


def test_other_reading_josef_cannot_act_in_beat_2() -> None:
    """Under ``own_beat_then_react`` Josef (beat 1) takes part in beats 1 and 3 only: beat
    2, where nobody takes part, is passed over, and beat 4 is Bobby's alone."""
    contest = josef_and_bobby()
    r = send(contest, the_round(contest, "own_beat_then_react"), "Josef", "Bobby", 35)
    r = next_beat(contest, r)
    assert r.beat == 4  # 2: nobody; 3: nothing lands on Josef
    assert whose_beat(contest, r) == ("Bobby",)


def test_a_dodge_is_the_one_reaction_of_the_beat() -> None:
    """rules §3.3-3.4 with [I17]: in beat 5 Bobby dodges the 12 with a 30 (within his 40 and
    above 12: avoided); his reaction is spent, so the 8 can only be absorbed: 8 trauma."""
    contest = josef_and_bobby()
    r = send(contest, the_round(contest), "Josef", "Bobby", 35)
    r = next_beat(contest, r)
    r = send(contest, r, "Josef", "Bobby", 24)
    r = next_beat(contest, r)  # beat 3 has nothing landing: beat 4, Bobby lets it go (skip)
    assert r.beat == 4
    r = next_beat(contest, skip(skip(r, "Bobby"), "Josef"))
    first, second = landing_now(r, "Bobby")
    contest, r, hit = land(contest, r, first, "dodge", 30)
    assert hit.dodged and contest.trauma["Bobby"] == 0
    with pytest.raises(OutOfTurn):
        land(contest, r, second, "dodge", 30)
    contest, r, hit = land(contest, r, second)
    assert (hit.dodged, hit.trauma, contest.trauma["Bobby"]) == (False, 8, 8)


def test_a_dodge_tie_goes_to_the_reactor() -> None:
    """rules §3.3 (the Contests page): a reactor's roll equal to the thrown number wins, so
    Bobby's 12 against Josef's 12 avoids it."""
    contest = josef_and_bobby()
    r = send(contest, the_round(contest), "Josef", "Bobby", 35)
    r = next_beat(contest, next_beat(contest, next_beat(contest, r)))
    assert r.beat == 5
    contest, r, hit = land(contest, r, r.sent[0], "dodge", 12)
    assert hit.dodged


def test_armor_takes_the_landing_hit_first() -> None:
    """rules §3.4 Armor [I8], vector I17's arithmetic: Bobby's armor DV 10 with capacity
    100 meets the 12: 10 absorbed, 2 trauma, capacity 90."""
    contest = josef_and_bobby(armor=10, capacity=100)
    r = send(contest, the_round(contest), "Josef", "Bobby", 35)
    r = next_beat(contest, next_beat(contest, next_beat(contest, r)))
    contest, r, hit = land(contest, r, r.sent[0])
    assert (hit.absorbed, hit.trauma, hit.armor_left) == (10, 2, 90)
    assert contest.armor_left["Bobby"] == 90


def test_a_dying_icon_has_no_actions_and_cannot_dodge() -> None:
    """rules §3.4 Trauma [I15]: at 0 Current Trauma an icon is dying: no actions, and (as a
    dying reactor in a stage) no dodging. Bobby, moved to beat 3 by the GM, has 10 trauma
    left; Josef's 12 (beat 1) and 8 (beat 2) both land in beat 3, Bobby's first reaction
    beat. The 12 leaves him at -2, dying: the 8 can only be absorbed (-10), and he has
    nothing left to do in beats 4 and 5."""
    contest = josef_and_bobby(bobby_trauma=10)
    r = move_icon(the_round(contest), "Bobby", 3)
    r = send(contest, r, "Josef", "Bobby", 35)
    r = next_beat(contest, r)
    r = send(contest, r, "Josef", "Bobby", 24)
    assert [a.lands_in for a in r.sent] == [3, 3]
    r = next_beat(contest, r)
    assert r.beat == 3
    contest, r, _ = land(contest, r, r.sent[0])
    assert contest.dying("Bobby") and contest.current_trauma("Bobby") == -2
    with pytest.raises(OutOfTurn):
        land(contest, r, r.sent[1], "dodge", 30)
    contest, r, _ = land(contest, r, r.sent[1])
    assert contest.current_trauma("Bobby") == -10
    assert still_to_do(contest, r, "Bobby") == ()
    r = next_beat(contest, r)
    assert r.beat == 4 and not may_act(contest, r, "Bobby")
    assert whose_beat(contest, r) == ("Josef",)
    with pytest.raises(OutOfTurn):
        send(contest, r, "Bobby", "Josef", 10)


def test_what_each_may_still_do() -> None:
    """[I17] Ex.1 read as a tracker: at the start Josef may act in 1, 2, 4 and react in 3, 5;
    Bobby act in 4 and react in 5. After Josef's beat-1 attack his beat 1 is spent."""
    contest = josef_and_bobby()
    r = the_round(contest)
    assert still_to_do(contest, r, "Josef") == (
        (1, "action"),
        (2, "action"),
        (3, "reaction"),
        (4, "action"),
        (5, "reaction"),
    )
    assert still_to_do(contest, r, "Bobby") == ((4, "action"), (5, "reaction"))
    r = send(contest, r, "Josef", "Bobby", 35)
    assert still_to_do(contest, r, "Josef")[0] == (2, "action")


def test_the_gm_moves_an_icon_and_skips_its_turn() -> None:
    """GM overrides on [I16]/[I17]: Bobby moved to beat 2 (a surprise) takes part in 2, 3, 4
    and 5 by the pattern, so Josef's beat-1 attack lands in beat 3 (Bobby's first reaction
    beat after 1); in beat 2 both may act until the GM skips Bobby's turn, then only Josef."""
    contest = josef_and_bobby()
    r = move_icon(the_round(contest), "Bobby", 2)
    assert whose_beat(contest, r) == ("Josef",)
    r = send(contest, r, "Josef", "Bobby", 35)
    assert r.sent[-1].lands_in == 3
    r = next_beat(contest, r)
    assert (r.beat, whose_beat(contest, r)) == (2, ("Josef", "Bobby"))
    r = skip(r, "Bobby")
    assert whose_beat(contest, r) == ("Josef",)
    with pytest.raises(OutOfTurn):
        send(contest, r, "Bobby", "Josef", 10)
    r = next_beat(contest, skip(r, "Josef"))
    assert r.beat == 3 and whose_beat(contest, r) == ("Bobby",)  # he may dodge the 12


def test_the_gm_ends_the_round_and_starts_the_next() -> None:
    """A GM override: the round ends at once (the attack still on its way stays pending,
    not applied); the next round starts again at beat 1 with nothing sent."""
    contest = josef_and_bobby()
    r = end_round(send(contest, the_round(contest), "Josef", "Bobby", 35))
    assert r.over and len(r.pending) == 1 and contest.trauma["Bobby"] == 0
    with pytest.raises(OutOfTurn):
        send(contest, r, "Josef", "Bobby", 20)
    r2 = next_round(contest, r)
    assert (r2.number, r2.beat, r2.sent, r2.over) == (2, 1, (), False)


def test_a_miss_and_an_automatic_failure_send_nothing() -> None:
    """rules §3.2-3.3: a roll over the target fails (Josef's 57 against 50: [I17] "a
    failure of 57"); a target of 0 or less cannot succeed and needs no roll."""
    contest = josef_and_bobby()
    r = send(contest, the_round(contest), "Josef", "Bobby", 57)
    assert r.pending == ()
    from msgspec.structs import replace

    hopeless = replace(contest, modifiers={"Josef": -50})
    r = send(hopeless, the_round(hopeless), "Josef", "Bobby", None)
    assert not r.sent[0].hit


def test_a_round_reloads_equal_under_forge_tags() -> None:
    """The tracker's state is a saved value: it reads back equal, tagged "forge.BeatRound"."""
    contest = josef_and_bobby()
    r = send(contest, the_round(contest), "Josef", "Bobby", 35)
    data = encode(r)
    assert data["@"] == "forge.BeatRound"
    assert decode(data, BeatRound) == r


# -- properties -----------------------------------------------------------------------------

ICONS = ("Josef", "Bobby", "Ann")
steps = st.lists(st.tuples(st.integers(0, 99), st.integers(1, 100)), min_size=5, max_size=60)


def menu(contest: ForgeContest, r: BeatRound) -> list[tuple[str, str, int]]:
    """What a GM could try now: mostly what the rules allow, with some they refuse (anybody
    attacking, dodging, the beat moved on while hits wait), so the refusals are tried."""
    able = [("send", who, 0) for who in ICONS if may_act(contest, r, who)]
    lands = [("land", "", i) for i in range(len(landing_now(r)))]
    dodges = [("dodge", "", i) for i in range(len(landing_now(r)))]
    return [
        *able * 3,
        *lands * 3,
        *dodges * 2,
        ("next", "", 0),
        ("next", "", 0),
        ("send", "any", 0),
        ("skip", "any", 0),
        ("move", "any", 0),
    ]


@given(
    steps=steps,
    pattern=st.sampled_from(("every_later_beat", "own_beat_then_react")),
    agility=st.lists(st.one_of(st.none(), st.integers(1, 60)), min_size=3, max_size=3),
)
def test_once_per_beat_and_nothing_lands_before_it_was_sent(
    steps: list[tuple[int, int]], pattern: str, agility: list[int | None]
) -> None:
    """[I17]: whatever the GM and the table do, every icon acts or reacts at most once in a
    beat, and every hit lands in a reaction beat after the action beat it was sent in."""
    contest = new_contest(
        [
            ForgeParticipant(name="Josef", side="a", target=50, multiplier=4),
            ForgeParticipant(name="Bobby", side="b", target=40, multiplier=5, current_trauma=20),
            ForgeParticipant(name="Ann", side="b", target=60, multiplier=2),
        ],
        ForgeOptions(combat=True),
    )
    options = BeatOptions(pattern=pattern)  # type: ignore[arg-type]
    r = new_round(contest, dict(zip(ICONS, agility, strict=True)), options)
    turns: Counter[tuple[int, str, int]] = Counter()
    rounds = [r]
    for choice, roll in steps:
        if r.over:
            r = next_round(contest, r)
            rounds.append(r)
        options_now = menu(contest, r)
        kind, who, n = options_now[choice % len(options_now)]
        if who == "any":  # somebody, whether or not the rules let them
            who, n = ICONS[roll % 3], roll % 5 + 1
        try:
            if kind == "send":
                foe = "Josef" if who != "Josef" else ("Bobby", "Ann")[roll % 2]
                r = send(contest, r, who, foe, roll)
                turns[(r.number, who, r.beat)] += 1
            elif kind == "land":
                contest, r, _ = land(contest, r, landing_now(r)[n])
            elif kind == "dodge":
                attack = landing_now(r)[n]
                contest, r, _ = land(contest, r, attack, "dodge", roll)
                turns[(r.number, attack.target, r.beat)] += 1
            elif kind == "next":
                r = next_beat(contest, r)
            elif kind == "skip":
                r = skip(r, who)
            else:
                r = move_icon(r, who, n)
        except RuleError:
            pass
        rounds[-1] = r
    assert all(count <= 1 for count in turns.values())
    for r in rounds:  # and as each round itself records it: one attack or dodge a beat
        done = Counter((a.attacker, a.sent_in) for a in r.sent)
        done.update((h.attack.target, h.beat) for h in r.landed if h.reaction == "dodge")
        assert all(count <= 1 for count in done.values())
        for hit in r.landed:
            assert beat_kind(hit.attack.sent_in) == "action"
            assert beat_kind(hit.beat) == "reaction"
            assert hit.beat > hit.attack.sent_in
