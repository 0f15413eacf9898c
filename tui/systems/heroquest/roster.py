"""HeroQuest on the roster: abilities, hero points, vitality, states of adversity and
lingering benefits (``ROSTER``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from core.campaign import CampaignState, Character
from core.errors import RuleError
from core.systems import heroquest as hq
from tui.fields import Answers, Field, blame, whole_field
from tui.systems.roster_part import RosterPart

# -- the roster ------------------------------------------------------------------------------

ADVERSITY = ("hurt", "impaired", "injured", "dying", "dead")  # §2.6
MOST_OF_A_STATE = 9  # "hurt×99" is a typing slip, not a character


def adversity_text(states: Iterable[str]) -> str:
    """``("hurt", "hurt", "impaired")`` as ``"hurt×2, impaired"``."""
    counts = Counter(states)
    return ", ".join(s if n == 1 else f"{s}×{n}" for s, n in counts.items())


def parse_adversity(text: str) -> tuple[str, ...]:
    """``"hurt×2, impaired"`` (or ``hurt x2``, ``hurt, hurt, impaired``) as states."""
    out: list[str] = []
    for chunk in text.replace(";", ",").split(","):
        chunk = chunk.strip().lower()
        if not chunk:
            continue
        found = re.fullmatch(r"([a-z]+)\s*(?:[×x*]\s*(\d+))?", chunk)
        if found is None or found.group(1) not in ADVERSITY:
            raise RuleError(
                f'"{chunk}" is not a state of adversity: write hurt, impaired, injured, '
                "dying or dead (hurt×2 or hurt x2 for two)"
            )
        n = int(found.group(2) or 1)
        if n > MOST_OF_A_STATE:
            raise RuleError(f'"{chunk}": at most {MOST_OF_A_STATE} of one state')
        out += [found.group(1)] * n
    return tuple(out)


def benefits_text(benefits: Mapping[str, int]) -> str:
    """``{"Fist": 3}`` as ``"Fist +3"``."""
    return ", ".join(f"{name} {value:+d}" for name, value in benefits.items())


def parse_benefits(text: str, ratings: Mapping[str, int]) -> dict[str, int]:
    """``"Fist +3, Sword +6"``: lingering benefits by ability (spelled as in ``ratings``
    when the name matches one, whatever its case)."""
    spelled = {name.lower(): name for name in ratings}
    out: dict[str, int] = {}
    for chunk in text.replace(";", ",").split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        name, _, value = chunk.rpartition(" ")
        try:
            bonus = int(value)
        except ValueError:
            bonus = 0
        if not name.strip() or bonus < 1:
            raise RuleError(
                f'"{chunk}": write a lingering benefit as an ability then a bonus '
                "(Fist +3, Sword +6)"
            )
        name = spelled.get(name.strip().lower(), name.strip())
        out[name] = out.get(name, 0) + bonus  # several add up
    return out


def _state(c: Character, campaign: CampaignState) -> str:
    """``HP 3 · vit +1 · hurt×2 · Fist +3``."""
    parts = [f"HP {c.hero_points}"]
    if c.vitality:
        parts.append(f"vit {c.vitality:+d}")
    if c.adversity:
        parts.append(adversity_text(c.adversity))
    if c.benefits:
        parts.append(benefits_text(c.benefits))
    return " · ".join(parts)


def _fields(c: Character) -> list[Field]:
    return [
        Field("hero_points", "Hero points", str(c.hero_points), required=False),
        Field("vitality", "Vitality", str(c.vitality), required=False),
        Field(
            "adversity",
            "States of adversity (hurt, impaired, injured, dying, dead; hurt×2)",
            adversity_text(c.adversity),
            placeholder="none",
            required=False,
        ),
        Field(
            "benefits",
            "Lingering benefits (Fist +3, Sword +6)",
            benefits_text(c.benefits),
            placeholder="none",
            required=False,
        ),
    ]


def _changes(a: Answers, ratings: Mapping[str, int]) -> dict[str, Any]:
    changes: dict[str, Any] = {
        "hero_points": whole_field(a, "hero_points", 0),
        "vitality": whole_field(a, "vitality", 0),
    }
    with blame("adversity"):
        changes["adversity"] = parse_adversity(a.get("adversity", ""))
    with blame("benefits"):
        changes["benefits"] = parse_benefits(a.get("benefits", ""), ratings)
    return changes


ROSTER = RosterPart(
    ratings_label="Abilities (Sword 4M, Lore 17)",
    rating_text=hq.format_rating,
    parse_rating=hq.parse_rating,
    state=_state,
    fields=_fields,
    changes=_changes,
    session_reset="hero points",
)
