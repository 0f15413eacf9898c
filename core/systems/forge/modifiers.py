"""FORGE's modifiers by name (rules.md §3.4): aiming [I10] and distance [I11].

Modifiers change the target, never the roll (§3.2). The setup's target form adds them up
(:func:`core.systems.forge.sheet.target`); the contest's modifier form offers the distance
steps as presets (:data:`DISTANCE_PRESETS`, ``ForgeRules.modifier_presets``).
"""

from __future__ import annotations

from collections.abc import Mapping

AIMING: Mapping[str, int] = {
    "none": 0,
    "extremity": -20,
    "part of one": -40,
    "finer": -60,
    "finer still": -80,
    "absurd": -100,
}
DISTANCE: Mapping[str, int] = {  # yards; the last step is "suicide" range [I11]
    "within 25 yd": 0,
    "26-50 yd": -20,
    "51-75 yd": -40,
    "76-100 yd": -60,
    "101-125 yd": -80,
    "126+ yd": -100,
    "point blank": 20,
    "touching": 40,
    "grappling": 60,
    "restrained": 80,
    "suicide": 100,
}
DISTANCE_PRESETS: tuple[tuple[str, int], ...] = tuple(
    (f"distance {step}", value) for step, value in DISTANCE.items()
)
"""The distance steps as the modifier form offers them and the log names them."""
