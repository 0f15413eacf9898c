"""HeroQuest's modifier presets (issue 29 item 4; rules.md §2.4): HQ2's situational
modifiers +6, +3, −3, −6, and its ability adjustments (+3 or +6 for an ability more
specific than the opposing one; −3 or −6 when another PC's ability fits better). A
preset is a modifier with a name: it changes the target by its value (§2.2: modifiers add
to the linear value) and the log names it."""

from __future__ import annotations

import pytest

from core.errors import RuleError
from core.files.codec import decode, encode
from core.model import AnyEvent, ResolveExchange, RollDice, SetModifier
from core.rules import find_system
from core.systems.heroquest.presets import HQ_PRESETS
from tests.core.hq_contests import hero_foe, play, resolved


def test_the_presets_are_hq2s() -> None:
    # rules.md §2.4, each with its value.
    assert dict(HQ_PRESETS) == {
        "situation: strong advantage": 6,
        "situation: advantage": 3,
        "situation: disadvantage": -3,
        "situation: strong disadvantage": -6,
        "more specific ability than the opposition's": 3,
        "much more specific ability than the opposition's": 6,
        "broad ability: another PC's fits better": -3,
        "broad ability: another PC's fits much better": -6,
    }
    assert find_system("heroquest").modifier_presets(hero_foe()) == HQ_PRESETS


def test_a_preset_changes_the_target_and_the_log_names_it() -> None:
    # Hero 12 with a strong advantage: 18. Rolling 15 (a success only thanks to it)
    # against Foe 15 rolling 16 (a failure): minor (§2.3).
    _, log = play(
        hero_foe(),
        SetModifier(who="Hero", value=6, label="situation: strong advantage"),
        RollDice(who="Hero", faces=(15,)),
        RollDice(who="Foe", faces=(16,)),
        ResolveExchange(),
    )
    e = resolved(log)
    assert (e.targets["Hero"], e.winner, e.victory) == (18, "Hero", 2)
    assert dict(e.modifier_labels) == {"Hero": "situation: strong advantage +6"}
    assert "  Hero: situation: strong advantage +6" in find_system("heroquest").describe(e)
    assert find_system("heroquest").exchange_json(e)["presets"] == {
        "Hero": "situation: strong advantage +6"
    }
    assert decode(encode(e), AnyEvent) == e  # saved with its name


def test_a_number_typed_has_no_name_and_a_wrong_preset_is_refused() -> None:
    _, log = play(
        hero_foe(),
        SetModifier(who="Hero", value=-4),
        RollDice(who="Hero", faces=(5,)),
        RollDice(who="Foe", faces=(6,)),
        ResolveExchange(),
    )
    assert dict(resolved(log).modifier_labels) == {}
    with pytest.raises(RuleError, match="is -3, not \\+3"):
        play(hero_foe(), SetModifier(who="Hero", value=3, label="situation: disadvantage"))
    with pytest.raises(RuleError, match="no modifier preset"):
        play(hero_foe(), SetModifier(who="Hero", value=9, label="distance 51-75 yd"))


def test_a_later_number_replaces_the_preset_and_its_name() -> None:
    c, _ = play(
        hero_foe(),
        SetModifier(who="Hero", value=3, label="situation: advantage"),
        SetModifier(who="Hero", value=2),
    )
    assert dict(c.open.modifiers) == {"Hero": 2} and dict(c.open.modifier_labels) == {}
