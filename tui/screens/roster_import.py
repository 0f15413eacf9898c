"""The roster screen's import (``I``): a file's characters added to the roster, as
``tussle roster import`` does (core.campaign.roster_file), in one undoable GM action.

A small form asks for the file (a TOML roster, a Fari character file, a Foundry VTT
"Fate Core Official" actor) and whether characters already on the roster are replaced.
A path that cannot be read, a file that does not parse or holds a value the campaign's
system refuses: the form says so under the path, which stays as typed. Once the import is
saved, a notification says what came in and what the file held that Tussle left out.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.screen import Screen

from core.campaign.log import Character
from core.campaign.roster_file import Import, read_files, report
from tui.fields import Answers, Field, blame
from tui.host import host
from tui.key_hints import key_of

# An import sent and not yet saved, with the roster as it stood before it (the report
# says what changed).
Pending = tuple[Import, dict[str, Character]]

REPLACE = (("No: refuse the file", "no"), ("Yes: replace them", "yes"))
HOW = "answer Yes to “Replace” to replace it"


def fields() -> list[Field]:
    return [
        Field(
            "path",
            "File: a TOML roster, a Fari character file or a Foundry VTT actor",
            placeholder="~/party.toml",
        ),
        Field("replace", "Replace characters already on the roster?", "no", REPLACE),
    ]


def ask(screen: Screen[Any], sent: Callable[[Pending], None]) -> None:
    """Open the import form over ``screen``; what it reads is sent as one action, and
    ``sent`` keeps it until it is saved (then :func:`told` says what came in)."""
    from tui.screens.forms import FormScreen

    tussle = host(screen.app)
    campaign = tussle.campaign

    def parse(answers: Answers) -> Import:
        with blame("path"):
            path = Path(answers["path"].strip()).expanduser()
            replace = answers["replace"] == "yes"
            found = read_files([path], campaign.system, campaign.roster, replace, HOW)
            campaign.decide(found.command)  # a pure check: nothing is applied
        return found

    def done(found: Import | None) -> None:
        if found is not None:
            sent((found, dict(campaign.roster)))
            tussle.send(found.command)

    screen.app.clear_notifications()  # an earlier import's report would hide the form
    screen.app.push_screen(FormScreen("Import characters", fields(), parse=parse), done)


def told(screen: Screen[Any], pending: Pending) -> None:
    """Say what the import just saved brought in, and what it left out."""
    found, before = pending
    lines = report(found, before, host(screen.app).campaign.system)
    count = len(found.arrivals)
    undo = key_of(screen, "roster.undo", "u")
    title = f"Imported {count} character{'' if count == 1 else 's'} ({undo} undoes)"
    screen.notify("\n".join(short(lines)), title=title, timeout=10, markup=False)


def short(lines: list[str]) -> list[str]:
    """The report as a notification has room for it: each character's line, then what
    was left out of it by name only (``left out: stress “Physical”, stunt “Heavy
    Hitter”``), on one line."""
    out: list[str] = []
    for line in lines:
        if line.startswith("  left out: "):
            item = line.removeprefix("  left out: ").split(": ", 1)[0]
            if out and out[-1].startswith("  left out: "):
                out[-1] += f", {item}"
            else:
                out.append(f"  left out: {item}")
        else:
            out.append(line)
    return out
