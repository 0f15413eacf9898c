"""The modifier form's fields and its command (``m`` on the contest screen, every system's).

A number typed, as always; where the rule system names the modifiers a GM reaches for
(``RuleSystem.modifier_presets``: FORGE's distance steps), a choice of them under it, whose
name goes with the command (``SetModifier.label``) into the exchange log.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.model import SetModifier
from tui.fields import Answers, Field, FieldError, Options, whole, whole_field

NO_PRESET = ""  # the preset choice's first option: the number typed


def modifier_fields(who: Options, default: str, presets: Sequence[tuple[str, int]]) -> list[Field]:
    """For whom, the number, and (when there are presets) the preset."""
    fields = [
        Field("who", "For", default, who, typed_to="value"),  # 2 typed there: the number
        Field("value", "Modifier (like +2 or -20)", required=not presets),
    ]
    if presets:
        options: Options = (("none: the number typed above", NO_PRESET),)
        options += tuple((f"{name}: {value:+d}", name) for name, value in presets)
        fields.append(Field("preset", "Or a preset", NO_PRESET, options))
    return fields


def modifier_command(answers: Answers, presets: Sequence[tuple[str, int]]) -> SetModifier:
    """The command the answers make: the number typed, or the preset chosen (a number
    typed beside a preset must be the preset's)."""
    name = answers.get("preset", NO_PRESET)
    typed = answers["value"].strip()
    if name == NO_PRESET:
        if not typed:
            raise FieldError("value", "type a modifier (like +2 or -20), or choose a preset")
        return SetModifier(who=answers["who"], value=whole_field(answers, "value", of=SetModifier))
    value = dict(presets)[name]
    if typed and whole(typed, "value") != value:
        raise FieldError(
            "value", f"{name} is {value:+d}: clear the number, or choose no preset below"
        )
    return SetModifier(who=answers["who"], value=value, label=name)
