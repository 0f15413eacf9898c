"""The contest screen's help says how this contest's dice are typed and what Enter asks
first, not every system's: on the HeroQuest demo it listed Fate dice (+, -, 0), "a d20
or d100 face" and "a tie asks for the twist's name". By keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.conftest import demo_app, keys, settle, text


@pytest.mark.parametrize(
    ("campaign", "said", "not_said"),
    [
        (
            "Fate demo",
            ["+ or =, -, 0", "Fate dice, one key per die", "a tie asks for the twist's name"],
            ["d20", "d100"],
        ),
        ("HeroQuest demo", ["digits", "a d20 face", "commit the exchange;"], ["Fate", "twist"]),
        (
            "FORGE demo",
            ["a d100 face", "tens then units: 0 5 is 5, 0 0 is 100", "commit the exchange;"],
            ["Fate", "d20", "twist"],
        ),
    ],
)
async def test_the_help_names_this_contests_dice(
    saves: Path, campaign: str, said: list[str], not_said: list[str]
) -> None:
    app = demo_app(saves, campaign)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "question_mark")
        shown = text(app, "#help-body")
        keypad = shown[shown.index("Roll keypad") : shown.index("This screen")]
        for words in said:
            assert words in keypad
        for words in not_said:
            assert words not in keypad
