"""FORGE's distance steps as named modifier presets (issue 29 item 4), worked out from
rules.md §3.4 "Distance" [I11]: within 25 yd no modifier; -20 (26-50), -40 (51-75), -60
(76-100), -80 (101-125), -100 (126+); +20 point blank, +40 touching, +60 grappling, +80
restrained, and the last step, +100 "suicide" (negative range). Modifiers change the
target, never the roll (§3.2)."""

from __future__ import annotations

import pytest

from core.engine import play
from core.errors import RuleError
from core.files.codec import decode, encode
from core.model import AnyCommand, AnyEvent, ResolveExchange, RollDice, SetModifier
from core.systems.forge.events import ExchangeResolved, SetStage
from core.systems.forge.rules import FORGE
from core.systems.forge.state import ForgeOptions, ForgeParticipant, new_contest

# Rules.md §3.4 [I11], step by step, in the page's order.
DISTANCE_STEPS = [
    ("distance within 25 yd", 0),
    ("distance 26-50 yd", -20),
    ("distance 51-75 yd", -40),
    ("distance 76-100 yd", -60),
    ("distance 101-125 yd", -80),
    ("distance 126+ yd", -100),
    ("distance point blank", 20),
    ("distance touching", 40),
    ("distance grappling", 60),
    ("distance restrained", 80),
    ("distance suicide", 100),
]


def alley():  # type: ignore[no-untyped-def]
    return new_contest(
        [
            ForgeParticipant(name="Josef", side="Josef", target=50, multiplier=4),
            ForgeParticipant(name="Bobby", side="Bobby", target=40, multiplier=5),
        ],
        ForgeOptions(combat=True),
    )


def test_the_presets_are_every_distance_step_the_last_one_included() -> None:
    """Eleven steps, from within 25 yd (0) to suicide range (+100)."""
    assert list(FORGE.modifier_presets(alley())) == DISTANCE_STEPS


def test_a_preset_lowers_the_target_and_the_log_names_it() -> None:
    """Josef (target 50) throws at 51-75 yd: -40, target 10 (§3.2: the target changes, not
    the roll). His 35 is over 10: he fails, the stage is Bobby's without his roll (§3.3)."""
    contest, events = play(
        alley(),
        [
            SetStage(actor="Josef", reactor="Bobby"),
            SetModifier(who="Josef", value=-40, label="distance 51-75 yd"),
            RollDice(who="Josef", faces=(35,)),
            ResolveExchange(),
        ],
    )
    stage = events[-1]
    assert isinstance(stage, ExchangeResolved)
    assert stage.actor_target == 10
    assert stage.winner == "Bobby"
    lines = FORGE.describe(stage)
    assert lines[1] == "  Josef attacks vs 10 (distance 51-75 yd -40): 35 ✗, over"
    # the next stage starts with no preset left over
    assert contest.modifier_labels == {}


def test_the_reactor_s_preset_is_named_on_her_line() -> None:
    """Bobby grappled (+60): her dodge target 40 + 60 = 100. Josef hits with 35 (damage
    3 × 4 = 12, §3.4); Bobby's 47 is within 100 and above 12: she dodges."""
    _, events = play(
        alley(),
        [
            SetStage(actor="Josef", reactor="Bobby"),
            SetModifier(who="Bobby", value=60, label="distance grappling"),
            RollDice(who="Josef", faces=(35,)),
            RollDice(who="Bobby", faces=(47,)),
            ResolveExchange(),
        ],
    )
    lines = FORGE.describe(events[-1])  # type: ignore[arg-type]
    assert lines[2].startswith("  Bobby dodges vs 100 (distance grappling +60): 47")


def test_a_number_typed_names_no_preset() -> None:
    _, events = play(
        alley(),
        [
            SetStage(actor="Josef", reactor="Bobby"),
            SetModifier(who="Josef", value=-40),
            RollDice(who="Josef", faces=(35,)),
            ResolveExchange(),
        ],
    )
    assert FORGE.describe(events[-1])[1] == "  Josef attacks vs 10: 35 ✗, over"  # type: ignore[arg-type]


def test_a_typed_number_replaces_a_preset_and_its_name() -> None:
    contest, _ = play(
        alley(),
        [
            SetStage(actor="Josef", reactor="Bobby"),
            SetModifier(who="Josef", value=-40, label="distance 51-75 yd"),
            SetModifier(who="Josef", value=-5),
        ],
    )
    assert contest.modifiers == {"Josef": -5}
    assert contest.modifier_labels == {}


@pytest.mark.parametrize(
    ("label", "value", "says"),
    [
        ("distance 51-75 yd", -20, "is -40, not -20"),
        ("distance 500 yd", -40, 'no modifier preset "distance 500 yd"'),
    ],
)
def test_a_preset_that_is_not_one_is_refused(label: str, value: int, says: str) -> None:
    with pytest.raises(RuleError, match=says):
        play(
            alley(),
            [
                SetStage(actor="Josef", reactor="Bobby"),
                SetModifier(who="Josef", value=value, label=label),
            ],
        )


def test_a_preset_and_its_stage_reload() -> None:
    """What the log saved comes back the same (the label and the stage naming it)."""
    command = SetModifier(who="Josef", value=-40, label="distance 51-75 yd")
    assert decode(encode(command), AnyCommand) == command
    _, events = play(
        alley(),
        [
            SetStage(actor="Josef", reactor="Bobby"),
            command,
            RollDice(who="Josef", faces=(35,)),
            ResolveExchange(),
        ],
    )
    for event in events:
        assert decode(encode(event), AnyEvent) == event
