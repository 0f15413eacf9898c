"""The coin race around a contest (:class:`core.sheet.SystemSheet`): nobody has a rating
(everyone flips one coin), nothing goes back to the roster, a session changes nothing,
and there are no compels and no demo."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from core.campaign_state import CampaignState, Character, ContestRecord
from core.errors import RuleError
from core.model import Contest, Event, Participant
from core.sheet import Change, Demo, Pick, options
from tests.plugins.coin_race.rules import CoinOptions, new_contest

NO_SKILL = 0  # no rating: a coin is a coin


def rating_label(value: int) -> str:
    return "a coin"


def typed_rating(text: str) -> int:
    raise RuleError("a coin race has no ratings: everyone flips one coin")


def describe_options(opts: Mapping[str, Any]) -> list[str]:
    return [f"first to {options(CoinOptions, opts).target} points"]


def build_contest(
    chosen: Sequence[tuple[Pick, Character]],
    opts: Mapping[str, Any],
    situation_aspects: Sequence[str],
) -> Contest:
    return new_contest(
        [Participant(name=c.name, side=p.side) for p, c in chosen], options(CoinOptions, opts)
    )


def rolled(participant: Participant) -> int:
    return 0  # a coin has no rating


def newcomer(participant: Participant) -> Character:
    return Character(name=participant.name, kind="npc")  # a coin has no rating


def write_back(campaign: CampaignState, record: ContestRecord) -> Iterator[Change]:
    return iter(())


def new_session(character: Character, hero_points: int | None) -> Character:
    return character


def compel(character: Character) -> Character:
    raise RuleError("a coin race has no compels")


def costs(record: ContestRecord, events: Sequence[Event]) -> Iterator[str]:
    return iter(())


def level(record: ContestRecord) -> str:
    return ""


def demo() -> Demo:
    raise RuleError("the coin race has no demo campaign")
