"""What HeroQuest keeps on a roster character: its sheet (hero points, vitality, states of
adversity and what they relate to, lingering benefits), read with ``hq_sheet`` and
changed with ``with_hq``. The sheet hooks (``sheet``) and the roster files read it; a
contest copies what it needs into its participants when it is set up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec
from msgspec.structs import replace

from core.campaign.log import Character, Sheet
from core.limits import Count, Int

CODEC_TAG = "heroquest"  # the saved tags ("heroquest.ExchangeResolved"), as before the split


class HeroQuestCharacter(Sheet):
    """What HeroQuest keeps on a roster character (its ``Character.sheet``): hero points,
    vitality, states of adversity related to every ability (``adversity``) or to the
    ability they came from (``adversity_of``: rules §2.6, they apply to that ability and to
    those the GM marks ``related``, both ways), and lingering benefits by ability."""

    LABELS: ClassVar[Mapping[str, str]] = {
        "hero_points": "hero points",
        "adversity_of": "adversity",
        "benefits": "lingering benefits",
        "related": "related abilities",
    }
    hero_points: Count = 0
    vitality: Int = 0
    adversity: tuple[str, ...] = ()
    benefits: Mapping[str, Int] = msgspec.field(default_factory=dict)
    adversity_of: Mapping[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    related: Mapping[str, tuple[str, ...]] = msgspec.field(default_factory=dict)


def hq_sheet(character: Character) -> HeroQuestCharacter:
    """``character``'s HeroQuest sheet (a fresh one where it has none yet)."""
    sheet = character.sheet
    return sheet if isinstance(sheet, HeroQuestCharacter) else HeroQuestCharacter()


def with_hq(character: Character, **changes: Any) -> dict[str, Any]:
    """The change to ``character`` that sets ``changes`` on its HeroQuest sheet (for
    ``replace`` and the write-back)."""
    return {"sheet": replace(hq_sheet(character), **changes)}
