"""FORGE's part of upgrading an older campaign (core.saves.migrate): its records as saved.

Format 1 wrote armor without a capacity limit as ``armor_capacity: 0``, on roster
characters (``campaign.Character``) and on contest participants
(``forge.ForgeParticipant``). Since format 2, 0 is armor used up, which absorbs nothing
(rules A-I4), and no limit is ``null``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

HOLDERS = ("campaign.Character", "forge.ForgeParticipant")  # the saved tags with a capacity


def upgrade_entries(version: int, entries: list[dict[str, Any]]) -> None:
    """Bring log ``entries`` (JSON, as saved) from format ``version`` to the next, in
    place. From 1: each capacity of 0 becomes ``null`` (no limit), unless the log already
    holds a ``null`` capacity, which only the new meaning writes: such a log (saved by a
    build that wrote the new meaning before the format said so) is left as it is."""
    if version != 1:
        return
    holders = [d for d in _objects(entries) if d.get("@") in HOLDERS and "armor_capacity" in d]
    if any(d["armor_capacity"] is None for d in holders):
        return
    for d in holders:
        if d["armor_capacity"] == 0:
            d["armor_capacity"] = None


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object in ``value``, walked without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
