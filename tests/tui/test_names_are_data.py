"""Names are data, not markup or terminal codes (issue 17, items 11 and 12).

Every kind of name a GM gives (the campaign, its characters and their skills and
aspects, the contest, situation aspects, aspects made by an advantage, twists) is loaded
with every C0 and C1 control character, DEL, and the characters Textual's markup reads
(``[``, ``]``, ``\\``). Such a campaign can only come from before the names were checked
(or a file edited by hand): it is written here below the checks. Then every view of it
must show each name as it is, a control character written out (``\\x1b``), and nothing
raw may reach the terminal: what Textual would send it is read back and searched.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.app import App
from textual.content import Content

from core.campaign.actions import Campaign
from core.campaign.log import AddCharacter, Character, Play, StartContest
from core.campaign.recap import recap_markdown
from core.campaign.setup import build_contest
from core.campaign.sheet import Pick
from core.model import ResolveExchange, RollDice
from core.saves.store import CampaignFiles
from core.systems.fate.character import FateCharacter
from core.systems.fate.events import CreateAdvantage
from core.text import is_control, visible
from tests.strategies import examples
from tests.tui.conftest import keys, new_app, settle, text
from tests.tui.screen_text import frame_lines, screen_text
from tui.screens.contest import ContestScreen
from tui.watch import WatchApp
from tui.widgets.lines import WORD_JOINER, e
from tui.widgets.panes import Scoreboard

C0 = [chr(c) for c in range(0x20)]
C1 = [chr(c) for c in range(0x80, 0xA0)]
CONTROLS = [*C0, "\x7f", *C1]  # 65 characters


def loaded(label: str, controls: list[str]) -> str:
    """A name carrying ``controls`` (each followed by ``!``, so that none of them can
    pass for the start of a colour code Textual writes itself) and markup."""
    return f"{label} [2 {''.join(c + '!' for c in controls)} [b]x[/] [$accent]y\\"


# Each control character in one name at least; every name has the markup characters.
KINDS = ["Camp", "Ann", "Bo", "Fight", "Run", "Mud", "Ward", "Twist", "Race", "Grit"]
CHUNKS = {kind: CONTROLS[i :: len(KINDS)] for i, kind in enumerate(KINDS)}
NAMES = {kind: loaded(kind, CHUNKS[kind]) for kind in KINDS}
PINNED = "Pinned [2"  # the issue's aspect, with a free invoke


def terminal_output(app: App[object]) -> str:
    """The current frame's text as it would reach the terminal (Textual's own codes,
    colours and cursor moves, are no text): any control character in it came from a
    name."""
    return "\n".join(frame_lines(app))


def assert_nothing_raw(app: App[object], where: str) -> str:
    """No control character but line breaks reaches the terminal; the screen's text."""
    raw = [c for c in terminal_output(app) if is_control(c) and c != "\n"]
    assert raw == [], f"{where}: sent raw to the terminal: {raw!r}"
    return "\n".join(screen_text(app)).replace(WORD_JOINER, "")


def loaded_campaign(saves: Path, names: dict[str, str] = NAMES) -> Path:
    """A Fate campaign named by ``names`` (by kind), one exchange played (a tie: a
    twist), after advantages that left two free invokes on ``Pinned [2`` and on Ward."""
    files = CampaignFiles(saves / "loaded")
    files.create(names["Camp"], "fate")  # below the checks: as an older save would be
    ann, bo = names["Ann"], names["Bo"]
    campaign = Campaign(name=names["Camp"], system="fate")
    characters = [
        Character(
            name=ann,
            ratings={names["Fight"]: 3},
            sheet=FateCharacter(aspects=(names["Grit"],), fate_points=2),
        ),
        Character(name=bo, kind="npc", ratings={names["Run"]: 3}),
    ]
    entries = [campaign.act(AddCharacter(character=c)) for c in characters]
    picks = [
        Pick(character=ann, side=ann, rating=names["Fight"]),
        Pick(character=bo, side=bo, rating=names["Run"]),
    ]
    contest = build_contest("fate", campaign.roster, picks, {}, (names["Mud"],))
    uses = {p.character: p.rating for p in picks if p.rating}
    entries.append(campaign.act(StartContest(title=names["Race"], contest=contest, uses=uses)))
    # Ann creates two advantages (4 against 1: with style, two free invokes each), then
    # both roll 0000 on Good (+3): a tie, and the GM names the twist.
    commands = (
        CreateAdvantage(by=ann, aspect=PINNED, result=4, opposition=1),
        CreateAdvantage(by=ann, aspect=names["Ward"], result=4, opposition=1),
        RollDice(who=ann, faces=(0, 0, 0, 0)),
        RollDice(who=bo, faces=(0, 0, 0, 0)),
        ResolveExchange(twist=names["Twist"]),
    )
    entries.append(campaign.act(Play(contest_id="c1", commands=commands)))
    files.append(entries)
    return files.folder


PLAIN = {kind: kind for kind in KINDS}  # the issue's case: only the aspect is unusual


def panes(app: App[object]) -> str:
    """The contest screen's panes as written, before wrapping (a long name whole)."""
    parts = [text(app, s) for s in ("#scoreboard", "#participants", "#aspects", "#keypad")]
    return "\n".join(parts).replace(WORD_JOINER, "")


def shown(name: str) -> str:
    """How a name starts on screen, without spaces (a pane may wrap it at one)."""
    return squash(visible(name))[:16]


def squash(text: str) -> str:
    return re.sub(r"\s", "", text)


# -- the one escape, on its own ---------------------------------------------------------------

MARKUP_AROUND = ["[b]{}[/b]", "{} [dim]◆◆ Ann[/]", "{}", "[$accent]{}[/] and [b]{}[/b]"]


def plain_of(template: str, text: str) -> str:
    """What ``template`` shows with ``text`` in it, worked out without any markup parser:
    the tags out, the text as it reads."""
    bare = re.sub(r"\[/?[a-z$ ]*\]", "", template)
    return bare.replace("{}", "\0").replace("\0", text)


@examples(5)
@given(
    st.text(alphabet=st.sampled_from([*CONTROLS, "[", "]", "\\", "/", "$", "@", "=", "a", " "])),
    st.sampled_from(MARKUP_AROUND),
)
def test_any_name_in_any_markup_reads_as_itself(name: str, template: str) -> None:
    markup = template.replace("{}", e(name))
    content = Content.from_markup(markup)  # raised MarkupError for "Pinned [2" and "[/]"
    expected = plain_of(template, visible(name))
    assert content.plain.replace(WORD_JOINER, "") == expected
    assert all(s.style in ("b", "dim", "$accent") for s in content.spans)  # none from the name


def test_the_issues_names_read_as_themselves() -> None:
    for name in ["Pinned [2", "[2J", "[bold]", "Teran\\", "[/]", "[$accent]x", "a\\[b]"]:
        markup = f"[b]{e(name)}[/b] [dim]◆ Ann[/]"
        assert Content.from_markup(markup).plain.replace(WORD_JOINER, "") == f"{name} ◆ Ann"


# -- the dashboard ----------------------------------------------------------------------------


async def test_every_view_of_the_dashboard_shows_loaded_names_as_they_are(saves: Path) -> None:
    loaded_campaign(saves)
    app = new_app(saves, NAMES["Camp"])
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ContestScreen)  # opened, no MarkupError
        screen = assert_nothing_raw(app, "contest screen")
        # The issue's aspect, its two free invokes and who holds them.
        assert PINNED in screen
        aspects = "\n".join(line for line in screen.splitlines() if PINNED in line or "◆◆" in line)
        assert "◆◆" in aspects
        # Each name as it reads, control characters written out, whole in its pane.
        written = panes(app)
        for kind in ["Camp", "Race", "Ann", "Bo", "Fight", "Run", "Mud", "Grit", "Ward"]:
            assert visible(NAMES[kind]) in written, kind
        assert shown(NAMES["Twist"]) in squash(screen)  # the log: at 160 columns, one line
        assert "▶ " + visible(NAMES["Ann"])[:16] in written  # the keypad cuts it as shown
        # Every screen the GM can reach from here, and the forms that list the names.
        for presses, where in [
            (["question_mark"], "help"),
            (["escape", "i"], "invoke form"),
            (["escape", "H"], "hide form"),
            (["escape", "w"], "roster"),
            (["n"], "contest setup"),
            (["escape", "escape", "c"], "campaigns"),
        ]:
            await keys(pilot, *presses)
            assert_nothing_raw(app, where)
        assert app.is_running


async def test_the_issues_aspect_with_a_free_invoke_opens_at_80x24(saves: Path) -> None:
    loaded_campaign(saves, PLAIN)
    app = new_app(saves, "Camp")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ContestScreen)
        screen = assert_nothing_raw(app, "contest screen at 80x24")
        assert PINNED in screen
        # Its two free invokes and who holds them, beside it or under it.
        assert re.search(r"^Pinned \[2\s+◆◆ Ann$", text(app, "#aspects"), re.M)


async def test_a_toast_quoting_a_name_is_plain_text(saves: Path) -> None:
    loaded_campaign(saves)
    app = new_app(saves, NAMES["Camp"])
    async with app.run_test(size=(160, 48), notifications=True) as pilot:
        await settle(pilot)
        app.notify(f"Undone: invoke {NAMES['Ward']}", title=NAMES["Ann"])  # as a screen would
        await settle(pilot)
        assert_nothing_raw(app, "toast")
        toast = app.screen.query_one("Toast").render()  # Textual's toast, by its name
        assert isinstance(toast, Content)
        assert toast.plain == f"{visible(NAMES['Ann'])}\nUndone: invoke {visible(NAMES['Ward'])}"


async def test_players_view_shows_loaded_names_as_they_are(saves: Path) -> None:
    folder = loaded_campaign(saves)
    app = WatchApp(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        app.poll()
        await pilot.pause()
        screen = assert_nothing_raw(app, "tussle watch")
        assert PINNED in screen
        assert shown(NAMES["Race"]) in squash(screen)


def test_the_recap_shows_loaded_names_as_markdown_text(saves: Path) -> None:
    folder = loaded_campaign(saves)
    recap = recap_markdown(CampaignFiles(folder).load())
    assert not [c for c in recap if is_control(c) and c != "\n"]
    # A name is Markdown text: "[", "]", "\" and "*" escaped, so nothing becomes a link.
    assert "Pinned \\[2" in recap
    assert re.search(r"(?<!\\)[\[\]]", recap) is None


# -- a form refuses a control character at entry ------------------------------------------


async def test_a_form_field_refuses_a_pasted_control_character_and_says_so(saves: Path) -> None:
    from textual.events import Paste
    from textual.widgets import Input

    from tui.screens.forms import FormScreen

    app = new_app(saves)  # the Fate demo
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w", "a")  # the roster, a new character
        form = app.screen
        assert isinstance(form, FormScreen)
        field = form.query_one("#f-name", Input)
        assert app.focused is field
        # The issue's name, pasted: nothing of it goes in, and the field says why.
        field.post_message(Paste("x\x1b]0;pwned\x07"))
        await settle(pilot)
        assert field.value == ""
        said = str(form.query_one("#e-name").visual)
        assert said == "▲ Name takes plain text: a control character was left out"
        assert_nothing_raw(app, "form after a paste")
        # A plain name still goes in, and typing clears the message.
        field.post_message(Paste("Zird"))
        await settle(pilot)
        assert field.value == "Zird"
        assert str(form.query_one("#e-name").visual) == ""


async def test_a_form_refuses_a_control_character_it_was_given_naming_the_field(
    saves: Path,
) -> None:
    from textual.widgets import Input

    from tui.screens.forms import FormScreen

    app = new_app(saves)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "w", "a")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#f-name", Input).value = "Evil\x1bc"  # not typed: set by code
        await keys(pilot, "enter")
        assert app.screen is form  # still open, nothing added
        said = str(form.query_one("#e-name").visual)
        assert (
            said
            == '▲ Name "Evil\\x1bc" holds a control character (\\x1b): only plain text is allowed'
        )
        assert "Evil" not in "".join(app.campaign.roster)


# -- what tussle prints --------------------------------------------------------------------------


def test_export_to_the_terminal_sends_no_control_character(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.helpers import tussle

    loaded_campaign(saves)
    assert tussle(saves, "export", "loaded", "--format", "markdown") == 0
    out = capsys.readouterr().out
    assert [c for c in out if is_control(c) and c != "\n"] == []
    assert "Pinned \\[2" in out
    # The heading, worked out: each control character written out (its backslash then
    # escaped for Markdown, like every "[", "]" and "\" of the name).
    controls = "".join(f"\\\\x{ord(c):02x}!" for c in CHUNKS["Camp"])
    heading = "# Camp \\[2 " + controls + " \\[b\\]x\\[/\\] \\[$accent\\]y\\\\: recap"
    assert out.splitlines()[0] == heading


def test_json_export_to_the_terminal_sends_no_control_character_and_keeps_the_names(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from tests.helpers import tussle

    loaded_campaign(saves)
    assert tussle(saves, "export", "loaded") == 0
    out = capsys.readouterr().out
    assert [c for c in out if is_control(c) and c != "\n"] == []
    data = json.loads(out)  # the same JSON: the names come back whole
    assert data["name"] == NAMES["Camp"]
    assert [c["name"] for c in data["participants"]] == [NAMES["Ann"], NAMES["Bo"]]


async def test_odds_that_arrive_after_the_panes_are_gone_are_dropped(saves: Path) -> None:
    """The odds come from a thread: when the app quits while they are worked out, the
    screen's panes are removed before the screen leaves the stack, and the odds arriving
    then failed the worker ("No nodes match 'Scoreboard'", seen in CI)."""
    loaded_campaign(saves)
    app = new_app(saves, NAMES["Camp"])
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ContestScreen)
        await screen.query_one(Scoreboard).remove()  # as when the app is taken down
        screen.painter.show_odds(({}, "late odds"))  # what the worker's thread calls back with
        assert screen.painter.odds == ({}, "late odds")  # kept for when it is drawn, nothing raised
