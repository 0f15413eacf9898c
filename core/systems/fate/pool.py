"""The GM's fate points (Fate Core): the :class:`~core.rules.base.Pool` a campaign asks
what the pool opens a scene with, what it pays for and what pays into it."""

from __future__ import annotations

from core.model import Command, Contest, Event
from core.rules.base import Pool, own
from core.systems.fate.events import AwardFatePoint, FatePointAwarded, PayFromPool, PoolPaid
from core.systems.fate.state import FateContest, scene


class FatePool(Pool):
    """The GM's fate points (Fate Core): one per PC in the scene at its start; they pay
    for the NPCs' invokes and refusals, and an NPC's compel adds to them."""

    def opening(self, pcs: int) -> int:
        return pcs

    def scene(self, contest: Contest, pool: int, npcs: frozenset[str]) -> Contest:
        return scene(own(contest, FateContest), pool, npcs)

    def left(self, contest: Contest) -> int:
        return own(contest, FateContest).gm_pool

    def award(self, who: str) -> Command:
        return AwardFatePoint(who=who)

    def pay(self, by: str, reason: str, count: int) -> Command:
        return PayFromPool(by=by, reason=reason, count=count)

    def paid(self, count: int) -> Event:
        return PoolPaid(by="", reason="", count=count)

    def into_pool(self, event: Event) -> bool:
        return isinstance(event, FatePointAwarded) and event.pool

    def gm_action(self, command: Command) -> bool:
        return isinstance(command, AwardFatePoint | PayFromPool)
