"""What FORGE keeps on a roster character: ``ForgeCharacter``, the weapon, armor, trauma
and Physical Agility (rules §3.4, [I15], [I16]), and the helpers that read and change it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from msgspec.structs import replace

from core.campaign.log import Character, Sheet
from core.limits import Count, Positive
from core.systems.forge.beat_round import Agility

CODEC_TAG = "forge"  # the saved tags ("forge.ForgeCharacter"), as before the split


class ForgeCharacter(Sheet):
    """What FORGE keeps on a roster character (its ``Character.sheet``): the weapon's
    damage multiplier and maximum (None: none), armor and what it can still absorb
    (``armor_capacity``; None: no limit, 0: used up, rules A-I4), trauma taken, and the
    Trauma pool, Maximum Trauma (rules §3.4, [I15]): Current Trauma is it less ``trauma``,
    and at 0 or below the character is dying (None: not tracked). ``agility``: Physical
    Agility, the beat of a combat round by beats (None: unknown, beat 4; [I16])."""

    LABELS: ClassVar[Mapping[str, str]] = {
        "armor_capacity": "armor capacity",
        "trauma_pool": "trauma pool",
        "agility": "Physical Agility",
    }
    multiplier: Positive = 1
    max_damage: Count | None = None
    armor: Count = 0
    armor_capacity: Count | None = None
    trauma: Count = 0
    trauma_pool: Count | None = None
    agility: Agility | None = None


def forge_sheet(character: Character) -> ForgeCharacter:
    """``character``'s FORGE sheet (a fresh one where it has none yet)."""
    sheet = character.sheet
    return sheet if isinstance(sheet, ForgeCharacter) else ForgeCharacter()


def with_forge(character: Character, **changes: Any) -> dict[str, Any]:
    """The change to ``character`` that sets ``changes`` on its FORGE sheet (for
    ``replace`` and the write-back)."""
    return {"sheet": replace(forge_sheet(character), **changes)}
