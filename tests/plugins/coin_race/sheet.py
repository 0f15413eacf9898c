"""The coin race around a contest (:class:`core.sheet.SystemSheet`): nobody has a rating
(everyone flips one coin); the rest (nothing written back, a session that changes
nothing, no demo) is the contract's defaults."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.campaign_state import Character
from core.errors import RuleError
from core.model import Contest, Participant
from core.sheet import Pick, SystemSheet, options
from tests.plugins.coin_race.rules import CoinOptions, new_contest


class CoinSheet(SystemSheet):
    def rating_label(self, value: int) -> str:
        return "a coin"

    def typed_rating(self, text: str) -> int:
        raise RuleError("a coin race has no ratings: everyone flips one coin")

    def describe_options(self, opts: Mapping[str, Any]) -> list[str]:
        return [f"first to {options(CoinOptions, opts).target} points"]

    def build_contest(
        self,
        chosen: Sequence[tuple[Pick, Character]],
        opts: Mapping[str, Any],
        situation_aspects: Sequence[str],
    ) -> Contest:
        return new_contest(
            [Participant(name=c.name, side=p.side) for p, c in chosen],
            options(CoinOptions, opts),
        )


SHEET = CoinSheet()
