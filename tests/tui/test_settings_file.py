"""The settings file without the dashboard (issue 16): where it is, the theme written back
into it byte for byte, key names, and every binding with an id the README lists."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import tomllib
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widgets import DataTable, Input, OptionList

import tui
from tui.app import TussleApp
from tui.config import config_path, key_problem, load, normalise, remember_theme, with_theme
from tui.keymap import places, readme_table

README = Path(__file__).resolve().parents[2] / "README.md"
TABLE_START, TABLE_END = "<!-- keys:table -->", "<!-- /keys:table -->"


def test_the_file_is_in_the_configuration_folder(
    config_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert config_path() == config_home / "tussle" / "config.toml"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/path")  # not absolute: ignored (XDG)
    monkeypatch.setenv("HOME", "/home/gm")
    assert config_path() == Path("/home/gm/.config/tussle/config.toml")
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert config_path() == Path("/home/gm/.config/tussle/config.toml")
    monkeypatch.setenv("TUSSLE_CONFIG", "/srv/table/tussle.toml")
    assert config_path() == Path("/srv/table/tussle.toml")


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("", 'theme = "nord"\n'),
        ("# mine\n", '# mine\ntheme = "nord"\n'),
        ("a = 1", 'a = 1\ntheme = "nord"\n'),
        ('theme = "gruvbox"  # dark\n[keys]\n', 'theme = "nord"  # dark\n[keys]\n'),
        ("theme='gruvbox'\r\n[keys]\r\n", 'theme="nord"\r\n[keys]\r\n'),
        ('[keys]\ntheme = "z"\n', 'theme = "nord"\n\n[keys]\ntheme = "z"\n'),
        (
            '# top\n\n[keys]\nundo = "z" # mine\n\n[keys.more]\n',
            '# top\n\ntheme = "nord"\n\n[keys]\nundo = "z" # mine\n\n[keys.more]\n',
        ),
    ],
)
def test_the_theme_is_written_into_the_file_and_nothing_else_changes(
    before: str, after: str
) -> None:
    assert with_theme(before, "nord") == after


def test_a_file_a_one_line_change_cannot_rewrite_is_left_alone(config_home: Path) -> None:
    # A theme line inside a multi-line string is not the theme: changing it would change
    # the string, which reading the result back catches.
    tricky = 'note = """\ntheme = "x"\n"""\n'
    with pytest.raises(ValueError, match="beyond a one-line change"):
        with_theme(tricky, "nord")
    path = config_home / "tussle" / "config.toml"
    path.parent.mkdir()
    path.write_text(tricky)
    problem = remember_theme("nord", path)
    assert problem is not None and problem.startswith(f"{path}: ")
    assert path.read_text() == tricky
    path.write_text("theme = [")
    assert remember_theme("nord", path) == (
        f"{path}: is not TOML (Invalid value (at end of document)); the theme was not remembered"
    )


def test_the_theme_written_keeps_the_files_mode_and_leaves_no_temporary_file(
    config_home: Path,
) -> None:
    path = config_home / "tussle" / "config.toml"
    assert remember_theme("dracula", path) is None  # folder and file made
    path.chmod(0o600)
    assert remember_theme("nord", path) is None
    assert tomllib.loads(path.read_text()) == {"theme": "nord"}
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]


@pytest.mark.parametrize(
    "key", ["z", "Z", "ctrl+z", "f5", "escape", "question_mark", "?", "€", "alt+left", "A,b"]
)
def test_key_names_textual_knows_are_taken(key: str) -> None:
    assert all(key_problem(k) is None for k in normalise(key).split(","))


@pytest.mark.parametrize("key", ["", "Ctrl+z", "ctrl-z", "Esc", "escape key", "ctrl+", "f99"])
def test_what_is_no_key_name_is_refused(key: str) -> None:
    assert any(key_problem(k) is not None for k in normalise(key).split(","))


def test_a_key_swap_is_no_clash(config_home: Path) -> None:
    path = config_home / "swap.toml"
    path.write_text('[keys]\nundo = "i"\ninvoke = "u"\n')
    settings = load(lambda: places(TussleApp.BINDINGS), ["textual-dark"], path)
    assert settings.problems == []
    assert settings.keymap == {"undo": "i", "invoke": "u"}


def test_every_binding_of_tussle_has_an_id_and_one_meaning() -> None:
    # Every class in tui/ that declares BINDINGS...
    for info in pkgutil.walk_packages(tui.__path__, "tui."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if not cls.__module__.startswith("tui."):
                continue  # Textual's, imported (a DataTable's keys have no ids)
            for binding in cls.__dict__.get("BINDINGS", []):
                assert isinstance(binding, Binding) and binding.id, (cls, binding)
    # ...and each system's screens, made from parts: an id is one key and one action.
    textual = {id(b) for w in (DataTable, Input, OptionList) for b in w.BINDINGS}
    seen: dict[str, tuple[str, str]] = {}
    for place in places(TussleApp.BINDINGS):
        for binding in place.bindings:
            if id(binding) in textual:
                continue  # a Textual widget's (a table's arrows): not remappable
            assert binding.id, (place.name, binding)
            meaning = (binding.key, binding.action)
            assert seen.setdefault(binding.id, meaning) == meaning, binding.id


def test_no_key_does_two_things_in_one_place_by_default() -> None:
    for place in places(TussleApp.BINDINGS):
        doing: dict[str, str] = {}
        for binding in place.bindings:
            for key in binding.key.split(",") if binding.id else ():
                assert doing.setdefault(key, binding.id) == binding.id, (place.name, key)


def test_the_readme_lists_every_binding_id_with_its_default_keys() -> None:
    """After adding or changing a key, rewrite the table and read the diff:
    ``TUSSLE_UPDATE_README=1 .venv/bin/pytest tests/tui/test_settings_file.py``."""
    text = README.read_text(encoding="utf-8")
    start = text.index(TABLE_START) + len(TABLE_START)
    end = text.index(TABLE_END)
    table = readme_table(TussleApp.BINDINGS)
    if os.environ.get("TUSSLE_UPDATE_README"):
        README.write_text(f"{text[:start]}\n{table}{text[end:]}", encoding="utf-8")
        return
    listed = text[start:end].strip("\n") + "\n"
    assert listed == table, (
        "the README's table of binding ids differs from the bindings: rewrite it with "
        "TUSSLE_UPDATE_README=1 .venv/bin/pytest tests/tui/test_settings_file.py"
    )


def test_a_problem_shows_what_the_file_holds_without_its_control_characters(
    config_home: Path,
) -> None:
    path = config_home / "config.toml"
    path.write_text('[keys]\n"un\\u001b[2Jdo" = "z"\nundo = ["z", "y"]\n')
    settings = load(lambda: places(TussleApp.BINDINGS), ["textual-dark"], path)
    assert settings.problems == [
        f'{path}: keys.un\\x1b[2Jdo: "un\\x1b[2Jdo" is no binding id (did you mean "undo"? '
        "the README lists them); ignored",
        f"{path}: keys.undo: ['z', 'y'] is not a key (write it in quotes: \"z\"); its default "
        "key (u) kept",
    ]
    assert all("\x1b" not in line for line in settings.problems)
