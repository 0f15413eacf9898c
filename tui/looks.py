"""The GM's keys and theme on the dashboard (a mixin of its app): read from the settings
file (:mod:`tui.config`), applied at the start, and each theme picked in the command
palette (Textual's own Theme command) written back for the next start."""

from __future__ import annotations

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


class Looks(App[None]):
    """Applies ``self.settings`` (set by the app before it mounts)."""

    settings: Settings
    _theme_remembered = ""  # the theme the settings file has (or the default one)

    def apply_settings(self, sixteen_colours: bool) -> None:
        """The GM's theme (else, at 16 colours, the terminal's own ANSI palette) and
        keys; the file's problems in one toast, the defaults used where it was wrong;
        then each theme picked in the palette written back to the file."""
        settings = self.settings
        if settings.theme is not None:
            self.theme = settings.theme
        elif sixteen_colours:
            self.theme = "ansi-dark"  # the terminal's own 16 colours, not approximations
        self._theme_remembered = self.theme
        if settings.keymap:
            self.set_keymap(settings.keymap)
        if settings.problems:
            self.notify(
                "\n".join(settings.problems), title="Settings", severity="warning", timeout=20
            )
        self.theme_changed_signal.subscribe(self, self._remember_theme)

    def _remember_theme(self, theme: Theme) -> None:
        """Write a theme the GM picked into the settings file; a file that cannot take it
        (read-only, not TOML) is said in a toast, the theme still used until Tussle quits."""
        if theme.name == self._theme_remembered:
            return  # the one applied at the start, which Textual publishes after it
        self._theme_remembered = theme.name
        from tui.config import remember_theme

        problem = remember_theme(theme.name, self.settings.path)
        if problem is not None:
            self.notify(problem, title="Theme not remembered", severity="warning", timeout=10)
