"""Every place a stored name is printed writes it out (issue 30, item 14): ``check``,
``export -o`` and ``restore`` printed a campaign's name with its escape sequences raw,
as no other command did; bidirectional overrides and zero-width characters reached the
terminal and the Markdown recap; and the recap's URLs became links in GitHub-flavoured
Markdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from core.campaign.actions import Campaign
from core.campaign.recap import markdown_text, recap_markdown
from core.text import control_problem, is_control, visible
from tests.helpers import seed, tussle

EVIL = "X\x1b]0;PWNED\x07\x1b[2J"  # retitles the terminal, then clears it
SHOWN = "X\\x1b]0;PWNED\\x07\\x1b[2J"


def stored_as(saves: Path, name: str) -> None:
    """The seed campaign, its stored name changed by hand (an older save, an edit)."""
    files, _ = seed(saves)
    doc = json.loads(files.manifest_path.read_text())
    doc["manifest"]["1"]["name"] = name
    files.manifest_path.write_text(json.dumps(doc))


def raw(text: str) -> list[str]:
    return [c for c in text if is_control(c) and c != "\n"]


@pytest.mark.parametrize(
    "argv",
    [("check", "seed"), ("export", "seed", "-o", "OUT"), ("restore", "seed")],
    ids=["check", "export -o", "restore"],
)
def test_a_stored_name_is_printed_written_out(
    argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    stored_as(saves, EVIL)
    argv = tuple(str(tmp_path / "out.json") if a == "OUT" else a for a in argv)
    assert tussle(saves, *argv) == 0
    out = capsys.readouterr()
    assert raw(out.out) == [] and raw(out.err) == []
    assert f'"{SHOWN}"' in out.out


def test_bidi_overrides_and_zero_width_characters_are_written_out() -> None:
    # "Cynere" with a right-to-left override: shown reversed, as another name would be.
    assert visible("Cyn\u202eerE") == "Cyn\\u202eerE"
    assert visible("Cyn\u200bere") == "Cyn\\u200bere"  # looks like "Cynere"
    for char in "\u061c\u200b\u200e\u200f\u202a\u202e\u2061\u2066\u2069\ufeff":
        assert is_control(char)
        problem = control_problem(f"Ter{char}an", "Name")  # and refused at entry
        assert problem is not None and "control character" in problem
    # What scripts and emoji need stays: a zero-width joiner, a non-joiner, Arabic.
    for name in ("👩\u200d🚀", "می\u200cخواهم", "عربي"):
        assert visible(name) == name
        assert control_problem(name, "Name") is None


def test_the_recap_writes_out_what_the_terminal_would_obey() -> None:
    campaign = Campaign(name="Evil\u202e\u200b" + EVIL, system="fate")
    text = recap_markdown(campaign)
    assert raw(text) == []
    heading = MarkdownIt("gfm-like").render(text.splitlines()[0])
    assert heading == f"<h1>Evil\\u202e\\u200b{SHOWN}: recap</h1>\n"


@pytest.mark.parametrize(
    "name",
    [
        "Visit https://evil.com/login now",
        "see www.evil.com",
        "mail gm@evil.com",
        "ftp://files.org/x",
        "evil.com",
    ],
)
def test_nothing_in_the_recap_becomes_a_link(name: str) -> None:
    md = MarkdownIt("gfm-like")  # GitHub's extensions, autolinks (linkify) among them
    assert "<a" in md.render(name)  # as it was: a link
    shown = md.render(markdown_text(name))
    assert "<a" not in shown
    assert shown == f"<p>{name}</p>\n"  # and it reads as it was typed


def test_numbers_and_sentences_keep_their_dots() -> None:
    assert markdown_text("61.7% · St. John") == "61.7% · St. John"
