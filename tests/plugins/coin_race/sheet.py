"""The coin race around a contest (:class:`core.campaign.sheet.SystemSheet`): no ratings; a
character's luck (``rules.CoinSheet``) comes into a contest, what is left goes back, and a
session's start brings a PC's back up to their refresh. The rest is the defaults."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from core.campaign.log import Character
from core.campaign.sheet import Change, Pick, SystemSheet, options
from core.campaign.state import CampaignState, ContestRecord
from core.errors import RuleError
from core.model import Contest, Participant
from tests.plugins.coin_race.rules import CoinContest, CoinOptions, CoinSheet, new_contest, sheet_of


def _luck(character: Character, luck: int) -> dict[str, Any]:
    return {"sheet": replace(sheet_of(character), luck=luck)}


class CoinSystemSheet(SystemSheet):
    CHARACTER = CoinSheet  # its roster files and form: luck and refresh

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
            luck={c.name: sheet_of(c).luck for _, c in chosen},
        )

    def write_back(self, campaign: CampaignState, record: ContestRecord) -> Iterator[Change]:
        """The luck each spent, taken off their sheet as it stands now."""
        start, end = record.start, record.state
        assert isinstance(start, CoinContest) and isinstance(end, CoinContest)
        for name, left in end.luck.items():
            spent = start.luck.get(name, 0) - left
            if spent:
                yield name, lambda c, n=spent: _luck(c, max(0, sheet_of(c).luck - n))

    def new_session(self, character: Character, reset: int | None) -> Character:
        sheet = sheet_of(character)
        if character.kind != "pc" or sheet.luck >= sheet.refresh:
            return character
        return replace(character, **_luck(character, sheet.refresh))

    def session_news(self, old: Character, new: Character) -> list[str]:
        luck = sheet_of(new).luck
        return [f"{new.name}'s luck back to {luck}"] if luck != sheet_of(old).luck else []


SHEET = CoinSystemSheet()
