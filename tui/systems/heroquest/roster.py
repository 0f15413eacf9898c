"""HeroQuest on the roster: abilities, hero points, vitality, states of adversity and
lingering benefits (``ROSTER``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from core.campaign.log import Character
from core.campaign.state import CampaignState
from core.errors import RuleError
from core.systems.heroquest.character import HeroQuestCharacter, hq_sheet
from core.systems.heroquest.ratings import format_rating, parse_rating
from core.text import clipped
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
    general, tied = parse_states(text, {})
    if tied:
        raise RuleError(f'"{next(iter(tied))}": a state alone here (hurt, impaired...)')
    return general


def parse_states(
    text: str, ratings: Mapping[str, int], held: HeroQuestCharacter | None = None
) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """``"hurt, Sword hurt×2, Sword injured"``: the states related to every ability, and
    those by the ability they came from (written before the state, spelled as in
    ``ratings`` when the name matches one, whatever its case). More than
    :data:`MOST_OF_A_STATE` of one state is a typing slip, unless the sheet ``held``
    has that many already (hurts stack, rules §2.6: contests' results can pile up more,
    and the form shows them as they are)."""
    already: Counter[tuple[str, str]] = Counter()  # ("", state) relates to every ability
    if held is not None:
        already.update(("", s) for s in held.adversity)
        for name, states in held.adversity_of.items():
            already.update((name.lower(), s) for s in states)
    spelled = {name.lower(): name for name in ratings}
    general: list[str] = []
    tied: dict[str, list[str]] = {}
    for chunk in text.replace(";", ",").split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        found = re.fullmatch(r"(?:(.*\S)\s+)?([A-Za-z]+)\s*(?:[×xX*]\s*(\d+))?", chunk)
        state = found.group(2).lower() if found else ""
        if found is None or state not in ADVERSITY:
            raise RuleError(
                f'"{chunk}" is not a state of adversity: write hurt, impaired, injured, '
                "dying or dead, after the ability it came from (Sword hurt; hurt×2 for two; "
                "a state alone relates to every ability)"
            )
        ability = found.group(1)
        most = max(MOST_OF_A_STATE, already[((ability or "").lower(), state)])
        written = found.group(3) or "1"
        n = int(written) if len(written) <= len(str(most)) else most + 1
        if not 1 <= n <= most:  # ×0 is no state: leave it out, not kept as none
            raise RuleError(
                f'"{clipped(chunk)}": a state is written 1 to {most} times '
                f"({state}×2 for two; leave it out for none)"
            )
        if ability is None:
            general += [state] * n
        else:
            ability = spelled.get(ability.lower(), ability)
            tied.setdefault(ability, []).extend([state] * n)
    return tuple(general), {k: tuple(v) for k, v in tied.items()}


def states_text(general: Iterable[str], tied: Mapping[str, tuple[str, ...]]) -> str:
    """The states as the form and the roster write them: ``hurt, Sword hurt×2``."""
    parts = [adversity_text(general)] if tuple(general) else []
    parts += [
        ", ".join(f"{ability} {s}" for s in adversity_text(states).split(", "))
        for ability, states in tied.items()
        if states
    ]
    return ", ".join(parts)


def related_text(related: Mapping[str, tuple[str, ...]]) -> str:
    """``{"Sword": ("Dance",)}`` as ``"Sword: Dance"``."""
    return "; ".join(f"{k}: {', '.join(v)}" for k, v in related.items() if v)


def parse_related(text: str, ratings: Mapping[str, int]) -> dict[str, tuple[str, ...]]:
    """``"Sword: Dance, Climb; Lore: Ghost Lore"``: abilities the GM marks related (both
    ways), spelled as in ``ratings`` when a name matches one."""
    spelled = {name.lower(): name for name in ratings}
    out: dict[str, tuple[str, ...]] = {}
    for group in text.split(";"):
        if not group.strip():
            continue
        head, colon, rest = group.partition(":")
        others = [x.strip() for x in rest.split(",") if x.strip()]
        if not colon or not head.strip() or not others:
            raise RuleError(
                f'"{group.strip()}": write an ability, a colon, then the abilities related '
                "to it (Sword: Dance, Climb; Lore: Ghost Lore)"
            )
        ability = spelled.get(head.strip().lower(), head.strip())
        names = [spelled.get(x.lower(), x) for x in others]
        if ability in names:
            raise RuleError(f'"{group.strip()}": {ability} is related to itself already')
        out[ability] = tuple(dict.fromkeys((*out.get(ability, ()), *names)))
    return out


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


def _state(character: Character, campaign: CampaignState) -> str:
    """``HP 3 · vit +1 · hurt×2 · Fist +3``."""
    c = hq_sheet(character)
    parts = [f"HP {c.hero_points}"]
    if c.vitality:
        parts.append(f"vit {c.vitality:+d}")
    if c.adversity or any(c.adversity_of.values()):
        parts.append(states_text(c.adversity, c.adversity_of))
    if c.benefits:
        parts.append(benefits_text(c.benefits))
    if any(c.related.values()):
        parts.append(f"related {related_text(c.related)}")
    return " · ".join(parts)


def _fields(character: Character) -> list[Field]:
    c = hq_sheet(character)
    return [
        Field("hero_points", "Hero points", str(c.hero_points), required=False),
        Field("vitality", "Vitality", str(c.vitality), required=False),
        Field(
            "adversity",
            "States of adversity by ability (Sword hurt×2; alone: any ability)",
            states_text(c.adversity, c.adversity_of),
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
        Field(
            "related",
            "Related abilities, sharing states and benefits (Sword: Dance, Climb)",
            related_text(c.related),
            placeholder="none",
            required=False,
        ),
    ]


def _changes(a: Answers, ratings: Mapping[str, int], old: Character | None) -> dict[str, Any]:
    changes: dict[str, Any] = {
        "hero_points": whole_field(a, "hero_points", 0, of=HeroQuestCharacter),
        "vitality": whole_field(a, "vitality", 0, of=HeroQuestCharacter),
    }
    with blame("adversity"):
        changes["adversity"], changes["adversity_of"] = parse_states(
            a.get("adversity", ""), ratings, hq_sheet(old) if old is not None else None
        )
    with blame("related"):
        changes["related"] = parse_related(a.get("related", ""), ratings)
    with blame("benefits"):
        changes["benefits"] = parse_benefits(a.get("benefits", ""), ratings)
    return {"sheet": HeroQuestCharacter(**changes)}


ROSTER = RosterPart(
    ratings_label="Abilities (Sword 4M, Lore 17)",
    rating_text=format_rating,
    parse_rating=parse_rating,
    state=_state,
    fields=_fields,
    changes=_changes,
    session_reset="hero points",
)
