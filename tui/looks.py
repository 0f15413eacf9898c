"""The GM's keys and theme on the dashboard (a mixin of its app): read from the settings
file (:mod:`tui.config`), applied at the start, and each theme picked in the command
palette (Textual's own Theme command) written back for the next start."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from textual.app import App
from textual.binding import BindingType
from textual.theme import BUILTIN_THEMES, Theme

from tui.config import Settings


def read_settings(app_keys: Sequence[BindingType], on_stderr: bool = False) -> Settings:
    """The GM's settings file (:func:`tui.config.config_path`), checked against Textual's
    themes and every key of the dashboard (``app_keys``: the app's own, in every place).
    ``on_stderr``: its problems also printed, a line each (for the command line: the
    dashboard's toast goes when it quits)."""
    from tui.config import load
    from tui.keymap import places

    settings = load(lambda: places(app_keys), BUILTIN_THEMES)
    if on_stderr:
        for problem in settings.problems:
            print(f"tussle: {problem}", file=sys.stderr)
    return settings


def terminal_has_sixteen_colours() -> bool:
    """True on a 16-colour terminal (``TERM=screen``, a bare console, or Textual told so
    by ``TEXTUAL_COLOR_SYSTEM=standard``): the dashboard then uses the terminal's ANSI
    palette instead of approximating its own colours."""
    from rich.console import Console

    told = os.environ.get("TEXTUAL_COLOR_SYSTEM")
    return told == "standard" if told else Console().color_system == "standard"


class Looks(App[None]):
    """Applies ``self.settings`` (set by the app before it mounts)."""

    settings: Settings
    _theme_remembered = ""  # the theme the settings file has (or the default one)
    _sixteen = False
    _themes_set: list[str]  # themes this class set, whose publishing is not the GM's pick

    def shown_theme(self, name: str) -> str:
        """The theme to show for ``name``: itself, except at 16 colours a theme made of
        RGB colours, which Rich would bring down to the nearest of the 16 (keys in red on
        grey, grey text on white): the ANSI theme of its kind, the terminal's own colours."""
        theme = self.get_theme(name)
        if not self._sixteen or theme is None or theme.ansi:
            return name
        return "ansi-dark" if theme.dark else "ansi-light"

    def _set_theme(self, name: str) -> None:
        if self.theme != name:  # Textual publishes a change only
            self._themes_set.append(name)
            self.theme = name

    def apply_settings(self, sixteen_colours: bool) -> None:
        """The GM's theme (at 16 colours: the terminal's own ANSI palette unless the GM
        chose an ANSI theme) and keys; the file's problems in one toast, the defaults used
        where it was wrong; then each theme picked in the palette written to the file."""
        settings = self.settings
        self._sixteen, self._themes_set = sixteen_colours, []
        wanted = settings.theme or ("ansi-dark" if sixteen_colours else None)
        if wanted is not None:
            self._set_theme(self.shown_theme(wanted))
        self._theme_remembered = settings.theme or self.theme
        if settings.keymap:
            self.set_keymap(settings.keymap)
        if settings.problems:
            self.notify(
                "\n".join(settings.problems), title="Settings", severity="warning", timeout=20
            )
        self.theme_changed_signal.subscribe(self, self._remember_theme)

    def _remember_theme(self, theme: Theme) -> None:
        """Write a theme the GM picked into the settings file; a file that cannot take it
        (read-only, not TOML) is said in a toast, the theme still used until Tussle quits.
        At 16 colours a theme of RGB colours is remembered, and its ANSI kin shown."""
        if theme.name in self._themes_set:
            self._themes_set.remove(theme.name)
            return  # set here, not picked by the GM
        if theme.name == self._theme_remembered:
            return
        self._theme_remembered = theme.name
        from tui.config import remember_theme

        problem = remember_theme(theme.name, self.settings.path)
        if problem is not None:
            self.notify(problem, title="Theme not remembered", severity="warning", timeout=10)
        shown = self.shown_theme(theme.name)
        if shown != theme.name:
            self._set_theme(shown)
            later = "" if problem else ", and it will show where there are more"
            self.notify(
                f"{theme.name} needs more than this terminal's 16 colours: {shown} shows "
                f"here{later}.",
                title="Theme",
                timeout=10,
            )
