"""Keys named in a screen's own text ("u undoes", "n: next contest"), as the GM's settings
have them (tui.config): the key bar, the help and the palette follow a remapped key by
themselves, a hint written into a screen's text through :func:`key_of`."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.screen import Screen


def key_of(screen: Screen[Any], binding_id: str, default: str) -> str:
    """The key that does ``binding_id`` on ``screen`` (its own keys and the app's), as a
    hint in the screen's text writes it: ``default`` (the hint's own spelling, ``u`` or
    ``Esc``) while the settings leave that key alone, else the first key the settings gave
    it, as the key bar shows keys. Hints in a screen's text follow a remapped key so."""
    for active in screen.active_bindings.values():  # one a key ("escape,enter": two)
        binding = active.binding
        if binding.id != binding_id:
            continue
        own_keys = {
            key.strip()
            for cls in type(active.node).__mro__
            for own in cls.__dict__.get("BINDINGS", ())
            if isinstance(own, Binding) and own.id == binding_id
            for key in own.key.split(",")
        }
        if binding.key in own_keys:
            return default
        return screen.app.get_key_display(binding)
    return default
