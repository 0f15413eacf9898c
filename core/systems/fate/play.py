"""Fate's rule system as the registry knows it: contests (``rules.FateRules``) and the
conflicts an attack turns them into (``conflict_play.ConflictRules``), one system.

Every hook hands a conflict, or a conflict's event, to the conflict's rules, and the rest
to the contest's: the engine, the log, the recap and the players' view ask one system, as
for every other."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from msgspec.structs import replace

from core.model import Command, Contest, Event, ExchangeEvent
from core.redact import NO_SECRETS, Secrets
from core.rules.base import JSON, Escalated, Pool
from core.systems.fate.conflict_play import (
    CONFLICT,
    ConflictAction,
    ConflictEnded,
    FateConflict,
)
from core.systems.fate.pool import FatePool
from core.systems.fate.rules import FateRules

CODEC_TAG = "fate"


def _conflict(contest: Contest) -> bool:
    return isinstance(contest, FateConflict)


def _conflict_event(event: Event) -> bool:
    return isinstance(event, ConflictAction | ConflictEnded)


class ScenePool(FatePool):
    """The GM's pool, in a contest's scene or the conflict it became."""

    def scene(self, contest: Contest, pool: int, npcs: frozenset[str]) -> Contest:
        if isinstance(contest, FateConflict):
            return replace(contest, gm_pool=pool, npcs=npcs)
        return super().scene(contest, pool, npcs)

    def left(self, contest: Contest) -> int:
        if isinstance(contest, FateConflict):
            return contest.gm_pool
        return super().left(contest)


class Fate(FateRules):
    """Fate Core: contests and conflicts (a :class:`~core.rules.base.RuleSystem`)."""

    pool: ClassVar[Pool | None] = ScenePool()

    def decide(self, contest: Contest, command: Any) -> tuple[Event, ...]:
        if _conflict(contest):
            return CONFLICT.decide(contest, command)
        return super().decide(contest, command)

    def evolve(self, contest: Contest, event: Event) -> Contest:
        if _conflict(contest):
            return CONFLICT.evolve(contest, event)
        return super().evolve(contest, event)

    def exchange_of(self, event: ExchangeEvent) -> int:
        if _conflict_event(event):
            return CONFLICT.exchange_of(event)
        return super().exchange_of(event)

    def describe(self, event: ExchangeEvent, secrets: Secrets = NO_SECRETS) -> list[str]:
        if _conflict_event(event):
            return CONFLICT.describe(event, secrets)
        return super().describe(event, secrets)

    def rollers(self, contest: Contest) -> list[str]:
        return CONFLICT.rollers(contest) if _conflict(contest) else super().rollers(contest)

    def tally(self, contest: Contest) -> tuple[dict[str, int], str] | None:
        return CONFLICT.tally(contest) if _conflict(contest) else super().tally(contest)

    def implicit(self, contest: Contest) -> list[Command]:
        return CONFLICT.implicit(contest) if _conflict(contest) else super().implicit(contest)

    def exchange_json(self, event: ExchangeEvent) -> JSON:
        if _conflict_event(event):
            return CONFLICT.exchange_json(event)
        return super().exchange_json(event)

    def final_json(self, contest: Contest) -> JSON:
        return CONFLICT.final_json(contest) if _conflict(contest) else super().final_json(contest)

    def aspects(self, contest: Contest) -> tuple[str, ...]:
        return CONFLICT.aspects(contest) if _conflict(contest) else super().aspects(contest)

    def situation(self, contest: Contest) -> tuple[str, ...]:
        return CONFLICT.situation(contest) if _conflict(contest) else super().situation(contest)

    def named_aspects(self, event: ExchangeEvent) -> Iterator[str]:
        if _conflict_event(event):
            return iter(CONFLICT.named_aspects(event))
        return super().named_aspects(event)

    def created(self, event: ExchangeEvent) -> Iterator[tuple[str, str]]:
        if _conflict_event(event):
            return iter(CONFLICT.created(event))
        return super().created(event)

    def spent(self, event: Event) -> Iterator[tuple[str, str, int]]:
        if _conflict_event(event):
            return iter(CONFLICT.spent(event))
        return super().spent(event)

    def points(self, contest: Contest, who: str) -> tuple[int, str] | None:
        return CONFLICT.points(contest, who) if _conflict(contest) else super().points(contest, who)

    def private_aspects(self, contest: Contest, who: str) -> Iterator[str]:
        if _conflict(contest):
            return iter(CONFLICT.private_aspects(contest, who))
        return iter(super().private_aspects(contest, who))

    def consequences(self, contest: Contest) -> Mapping[str, str] | None:
        if _conflict(contest):
            return CONFLICT.consequences(contest)
        return super().consequences(contest)

    def recap(
        self, contest: Contest, exchanges: Sequence[ExchangeEvent], secrets: Secrets = NO_SECRETS
    ) -> list[str]:
        if _conflict(contest):
            return CONFLICT.recap(contest, exchanges, secrets)
        return super().recap(contest, exchanges, secrets)

    def ending(self, contest: Contest) -> str:
        return CONFLICT.ending(contest) if _conflict(contest) else super().ending(contest)

    def escalated(self, contest: Contest) -> Escalated | None:
        return CONFLICT.escalated(contest) if _conflict(contest) else super().escalated(contest)


FATE = Fate()
