"""What Fate keeps on a roster character: its sheet (aspects, fate points, refresh), read
with ``fate_sheet`` and changed with ``with_fate``. The sheet hooks (``sheet``) and the
roster files read it; a contest copies what it needs when it is set up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from msgspec.structs import replace

from core.campaign.log import Character, Sheet
from core.limits import Count
from core.systems.fate.stress import Slot, Track

CODEC_TAG = "fate"  # the saved tags ("fate.ExchangeResolved"), as before the split


class FateCharacter(Sheet):
    """What Fate keeps on a roster character (its ``Character.sheet``): the character's
    aspects, fate points and refresh, the fate points a session's start brings a PC back
    up to (Fate Core).

    ``stress``: the stress tracks the sheet names itself (a Fari or Foundry sheet's, a
    roster file's): a "physical" or "mental" one stands instead of the one Physique or
    Will gives, any other ("Corruption") is an extra track. ``consequences``: the
    character's consequence slots, with what is written in them; None (a character made
    in Tussle, or saved before conflicts): Fate Core's, by Physique and Will
    (``conflict.character_slots``). The limits are on the values' own fields (a box
    absorbs at least 1 shift; free invokes are a count)."""

    LABELS: ClassVar[Mapping[str, str]] = {"fate_points": "fate points"}
    aspects: tuple[str, ...] = ()
    fate_points: Count = 0
    refresh: Count = 0
    stress: tuple[Track, ...] = ()
    consequences: tuple[Slot, ...] | None = None


def fate_sheet(character: Character) -> FateCharacter:
    """``character``'s Fate sheet (a fresh one where it has none yet)."""
    sheet = character.sheet
    return sheet if isinstance(sheet, FateCharacter) else FateCharacter()


def with_fate(character: Character, **changes: Any) -> dict[str, Any]:
    """The change to ``character`` that sets ``changes`` on its Fate sheet (for
    ``replace`` and the write-back)."""
    return {"sheet": replace(fate_sheet(character), **changes)}
