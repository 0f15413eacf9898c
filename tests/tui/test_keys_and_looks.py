"""The GM's own keys and theme (issue 16): remapped from the settings file, shown as
remapped, the palette's theme remembered across a restart, and a bad file never in the way.

Every test has its own empty configuration folder (tests/conftest.py: XDG_CONFIG_HOME).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot

from tests.tui.conftest import keys, new_app, settle, text, write
from tests.tui.screen_text import screen_text
from tui.app import TussleApp
from tui.looks import read_settings
from tui.screens.contest import ContestScreen
from tui.widgets.keybar import KeyBar

# Cynere ---0 (Athletics +4: Average +1) against Teran 0000 (Lore +3: Good +3).
EXCHANGE = ("minus", "minus", "minus", "0", "0", "0", "0", "0", "enter")


def config_file(config_home: Path, content: str | None = None) -> Path:
    path = config_home / "tussle" / "config.toml"
    if content is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return path


def toasts(app: TussleApp) -> list[str]:
    return [str(n.message) for n in app.told]


def help_lines(app: TussleApp) -> list[str]:
    return [line.strip() for line in text(app, "#help-body").splitlines()]


async def test_a_remapped_key_does_the_action_the_old_one_no_longer_does(
    saves: Path, config_home: Path
) -> None:
    config_file(config_home, '[keys]\nundo = "z"\n')
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert toasts(app) == []  # a good file says nothing
        await keys(pilot, *EXCHANGE)
        assert "Exchange 1" in text(app, "#log")
        await keys(pilot, "u")
        assert "Exchange 1" in text(app, "#log")  # u no longer undoes
        await keys(pilot, "z")
        assert "Exchange 1" not in text(app, "#log")  # z does
        # The key bar, the palette and the help say z, not u.
        assert "z Undo" in str(app.screen.query_one(KeyBar).visual)
        palette = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert palette["Undo"] == "key z"
        await keys(pilot, "question_mark")
        lines = help_lines(app)
        assert any(re.fullmatch(r"z\s+Undo", line) for line in lines), lines
        assert not any(re.fullmatch(r"u\s+Undo", line) for line in lines)
        assert any(re.fullmatch(r"\? / F1\s+Key help", line) for line in lines)  # as it was


async def test_a_remapped_keypad_key_is_in_the_help(saves: Path, config_home: Path) -> None:
    config_file(config_home, '[keys]\n"keypad.roll" = "t"\n')
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "r")
        assert "Cynere           [ ][ ][ ][ ]" in text(app, "#keypad")  # r rolls no more
        await keys(pilot, "question_mark")
        lines = help_lines(app)
        assert any(line.startswith("t ") and "Tussle rolls" in line for line in lines), lines
        await keys(pilot, "escape", "t")
        assert "Cynere           [ ][ ][ ][ ]" not in text(app, "#keypad")  # t rolls


async def until(pilot: Pilot[None], done: object, rounds: int = 200) -> None:
    """Pause the pilot until ``done()`` (the palette's search runs in a worker)."""
    assert callable(done)
    for _ in range(rounds):
        if done():
            return
        await pilot.pause(0.01)
    raise AssertionError("never happened")


def highlighted(app: TussleApp) -> str:
    screen = app.screen
    if not isinstance(screen, CommandPalette):
        return ""
    commands = screen.query_one(CommandList)
    option = commands.highlighted_option
    return "" if option is None else str(option.prompt)


async def pick_in_palette(pilot: Pilot[None], typed: str, wanted: str) -> None:
    app = pilot.app
    assert isinstance(app, TussleApp)
    await write(pilot, typed)
    await until(pilot, lambda: highlighted(app).startswith(wanted))
    await pilot.press("enter")


async def test_a_theme_picked_in_the_palette_is_there_after_a_restart(
    saves: Path, config_home: Path
) -> None:
    path = config_file(config_home, '# my table\n[keys]\nundo = "z"  # beside y\n')
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark"
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pick_in_palette(pilot, "theme", "Theme")  # Textual's own command
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pick_in_palette(pilot, "nord", "nord")
        await until(pilot, lambda: app.theme == "nord")
        await settle(pilot)
        assert isinstance(app.screen, ContestScreen)
        assert toasts(app) == []
    # The theme's line added before the first table; the rest of the file as it was.
    assert path.read_text() == '# my table\ntheme = "nord"\n\n[keys]\nundo = "z"  # beside y\n'
    again = new_app(saves)
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert again.theme == "nord"
        assert again.settings.keymap == {"undo": "z"}


async def test_a_theme_that_cannot_be_written_is_said_and_still_used(
    saves: Path, config_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A configuration "folder" that is a file: nothing can be written under it (as a
    # read-only folder, which root, running these tests in a container, writes anyway).
    blocked = config_home / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocked))
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.theme = "gruvbox"
        await until(pilot, lambda: bool(toasts(app)))
        (toast,) = toasts(app)
        assert toast.startswith(f"{blocked / 'tussle' / 'config.toml'}: cannot be written (")
        assert toast.endswith("; the theme was not remembered")
        assert app.is_running and app.theme == "gruvbox"
        await keys(pilot, *EXCHANGE)  # and the dashboard plays on
        assert "Exchange 1" in text(app, "#log")


BAD = {
    "not TOML": ('theme = "nord\n', "is not TOML (", "the default keys and theme are used"),
    "not readable": (None, "cannot be read (", "the default keys and theme are used"),
    "unknown id": (
        '[keys]\nundoo = "z"\n',
        'keys.undoo: "undoo" is no binding id (did you mean "undo"? ',
        "ignored",
    ),
    "not a key name": (
        '[keys]\nundo = "Ctrl-Z"\n',
        'keys.undo: "Ctrl-Z" is not a key name',
        "its default key (u) kept",
    ),
    "not a string": ("[keys]\nundo = 3\n", "keys.undo: 3 is not a key", "its default key (u) kept"),
    "bound twice": (
        '[keys]\nundo = "i"\n',
        'keys: "i" would do two things on the contest screen (Fate Core): undo and invoke',
        "the default key kept for undo",
    ),
    "typed into a form": (
        '[keys]\n"form.accept" = "a"\n',
        'keys: "a" would be typed into the fields of the form (form.accept)',
        "the default key kept",
    ),
    "keys not a table": ('keys = "z"\n', '"keys" must be a table', "ignored"),
    "unknown theme": (
        'theme = "nrod"\n',
        'theme "nrod" is not one of Textual\'s themes (did you mean "nord"?)',
        "the default theme is used",
    ),
    "unknown setting": ('colour = "red"\n', '"colour" is no setting', "ignored"),
}


@pytest.mark.parametrize("kind", list(BAD))
async def test_a_bad_settings_file_is_said_in_one_line_and_the_defaults_used(
    saves: Path, config_home: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    content, problem, outcome = BAD[kind]
    path = config_file(config_home, content)
    if content is None:
        path.mkdir(parents=True)  # a folder where the file should be
    # The command line says it on stderr, before the dashboard takes the screen.
    read_settings(TussleApp.BINDINGS, on_stderr=True)
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"tussle: {path}: {problem}"), line
    assert line.endswith(outcome), line
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ContestScreen)
        assert toasts(app) == [line.removeprefix("tussle: ")]
        assert app.theme == "textual-dark" and app.settings.keymap == {}
        assert "u Undo" in str(app.screen.query_one(KeyBar).visual)
        await keys(pilot, *EXCHANGE)
        await keys(pilot, "u")  # the default key, whatever the file tried
        assert "Exchange 1" not in text(app, "#log")


async def test_the_good_entries_of_a_file_with_a_bad_one_are_used(
    saves: Path, config_home: Path
) -> None:
    config_file(config_home, 'theme = "nord"\n[keys]\nundo = "z"\nredo = "Ctrl-Y"\n')
    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.theme == "nord"
        assert app.settings.keymap == {"undo": "z"}
        (toast,) = toasts(app)
        assert 'keys.redo: "Ctrl-Y" is not a key name' in toast


@pytest.mark.parametrize(
    ("remembered", "shown"),
    [
        (None, "ansi-dark"),
        ("ansi-light", "ansi-light"),  # an ANSI theme: the terminal's colours, as chosen
        ("nord", "ansi-dark"),  # RGB colours, approximated in 16: the ANSI theme of its kind
        ("catppuccin-latte", "ansi-light"),
    ],
)
async def test_at_sixteen_colours_the_terminals_own_colours(
    saves: Path, config_home: Path, remembered: str | None, shown: str
) -> None:
    path = config_file(config_home, None if remembered is None else f'theme = "{remembered}"\n')
    app = TussleApp(saves, ansi_color=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.theme == shown
        assert toasts(app) == []
    # The file keeps the GM's choice, for a terminal with more colours.
    assert (path.read_text() if path.exists() else None) == (
        None if remembered is None else f'theme = "{remembered}"\n'
    )


async def test_an_rgb_theme_picked_at_sixteen_colours_is_remembered_and_stood_in_for(
    saves: Path, config_home: Path
) -> None:
    app = TussleApp(saves, ansi_color=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.theme = "gruvbox"  # as the palette's theme list sets it
        await until(pilot, lambda: app.theme == "ansi-dark" and bool(toasts(app)))
        assert toasts(app) == [
            "gruvbox needs more than this terminal's 16 colours: ansi-dark shows here, and "
            "it will show where there are more."
        ]
    assert config_file(config_home).read_text() == 'theme = "gruvbox"\n'
    again = TussleApp(saves)  # a terminal with more colours
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert again.theme == "gruvbox"


async def test_the_players_view_takes_the_gms_theme_and_keys(
    saves: Path, config_home: Path
) -> None:
    from core.cli.demo import create_demos
    from core.saves.store import Saves
    from tui.watch import WatchApp

    create_demos(Saves(saves))
    config_file(config_home, 'theme = "gruvbox"\n[keys]\n"watch.quit" = "x"\n')
    app = WatchApp(saves / "fate-demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "gruvbox"
        await pilot.press("q")
        assert app.is_running  # q leaves no more
        await pilot.press("x")
        await until(pilot, lambda: not app.is_running)


def test_textual_told_sixteen_colours_is_a_sixteen_colour_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui.looks import terminal_has_sixteen_colours

    monkeypatch.setenv("TERM", "xterm-256color")
    assert not terminal_has_sixteen_colours()
    # Textual draws in 16 colours when told so: the theme must be the terminal's own
    # palette then, not textual-dark's orange and greys brought down to the nearest 16.
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "standard")
    assert terminal_has_sixteen_colours()
    monkeypatch.setenv("TERM", "screen")
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "truecolor")
    assert not terminal_has_sixteen_colours()


@pytest.mark.parametrize("theme", ["ansi-dark", "ansi-light"])
async def test_a_focused_field_is_black_on_the_accent_in_the_ansi_themes(
    saves: Path, config_home: Path, theme: str
) -> None:
    # At 16 colours "$accent 30%" is the accent itself: under the terminal's own text
    # colour, that was white on green (ansi-dark). Black on the accent reads in both.
    config_file(config_home, f'theme = "{theme}"\n')
    accent = {"ansi-dark": 2, "ansi-light": 5}[theme]  # the themes' ansi_green, ansi_magenta
    app = TussleApp(saves, ansi_color=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w", "a")  # the roster's form for a new character
        await write(pilot, "Zed")
        for _ in ("name", "kind"):  # a text field, then a choice
            field = app.screen.focused
            assert field is not None
            assert (field.styles.color.ansi, field.styles.background.ansi) == (0, accent)
            await keys(pilot, "tab")


async def test_a_screens_own_hints_say_the_remapped_keys(saves: Path, config_home: Path) -> None:
    """The roster's title told "u undoes" after undo had moved to z: a hint written in a
    screen's text follows the keymap as the key bar does."""
    config_file(config_home, '[keys]\n"roster.undo" = "z"\n"roster.import" = "f6"\n')
    app = new_app(saves)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await keys(pilot, "w")
        title = text(app, "#title")
        assert "z undoes" in title and "u undoes" not in title, title
        assert "f6 imports" in title and "I imports" not in title, title
        assert "n sets up a contest" in title  # left alone: as it was


async def test_the_finished_contests_and_the_summarys_hints_say_the_remapped_keys(
    saves: Path, config_home: Path
) -> None:
    config_file(config_home, '[keys]\nundo = "z"\n"summary.undo" = "z"\n"summary.next" = "f7"\n')
    app = new_app(saves)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        # Cynere ++++ (Great +4 +4 = +8) against Teran ---- (Good +3 -4 = -1): a margin
        # of 9, with style, two victories; twice ends the contest (first to 3).
        for _ in range(2):
            await keys(pilot, *["plus"] * 4, *["minus"] * 4, "enter")
        await settle(pilot)
        keypad = text(app, "#keypad")
        assert "The contest is over" in keypad
        assert "z: undo" in keypad and "u: undo" not in keypad, keypad
        assert "n: new contest" in keypad  # left alone
        await keys(pilot, "enter")  # the summary
        hints = text(app, "#summary-keys")
        assert "z: undo" in hints and "u: undo" not in hints, hints
        assert "f7: next contest" in hints and "Esc: back" in hints, hints


def test_function_keys_read_as_the_readme_writes_them() -> None:
    """The README says F5 (start a contest) and F1 (help); the footer, the help and the
    palette say the same, not Textual's name for the key (f5)."""
    from tui.widgets.keybar import pretty_key

    assert [pretty_key(k) for k in ("f1", "f5", "f12")] == ["F1", "F5", "F12"]
    assert [pretty_key(k) for k in ("f", "question_mark", "ctrl+y")] == ["f", "?", "^y"]


@pytest.mark.parametrize("width", [80, 120])
async def test_the_roster_title_is_one_line(saves: Path, width: int) -> None:
    """At 80 columns the roster's title ("Roster · HeroQuest demo", then the keys' hints)
    wrapped onto a second line; it says its hints in fewer words instead, the table's
    header right under it. At 120 the hints are whole."""
    app = new_app(saves, "HeroQuest demo")
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w")
        await settle(pilot)
        lines = screen_text(app)
        assert lines[0].strip().startswith("Roster · HeroQuest demo"), lines[:2]
        assert lines[1].split() == ["Name", "Kind", "State", "Ratings"], lines[:2]
        assert ("n sets up a contest" in lines[0]) == (width == 120), lines[0]
        assert "u undo" in lines[0]
