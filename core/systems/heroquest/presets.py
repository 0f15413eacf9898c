"""HeroQuest's modifiers a GM reaches for, by name (issue 29 item 4; rules.md §2.4).

HQ2's situational modifiers (any signed number, the usual ones +6, +3, −3, −6) and its
adjustments for how well an ability fits: +3 or +6 when the ability is more specific
than the opposing one, −3 or −6 against a resistance when another player character has
a more fitting ability (a broad ability). The contest's modifier form offers them
(``RuleSystem.modifier_presets``) beside a number typed, and the log names the one used.
The stretch (−6, victory at most minor) is its own action (``s``), not one of these: it
does more than change the target.
"""

from __future__ import annotations

HQ_PRESETS: tuple[tuple[str, int], ...] = (
    ("situation: strong advantage", 6),
    ("situation: advantage", 3),
    ("situation: disadvantage", -3),
    ("situation: strong disadvantage", -6),
    ("more specific ability than the opposition's", 3),
    ("much more specific ability than the opposition's", 6),
    ("broad ability: another PC's fits better", -3),
    ("broad ability: another PC's fits much better", -6),
)
"""Each preset's name and value, in the order the modifier form offers them."""
