"""What the contest screen does for the rest of the table: the session's recap as a
file, and what the players' view shows (the odds; secrets kept from it).

Each is a GM action of its own (secrets and the players' odds are undoable and saved),
with nothing to do with the coming exchange.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from core.rules import find_system
from tui.fields import Answers, Field
from tui.host import host


def write_recap(screen: Screen[Any]) -> None:
    """Write the last session's recap as Markdown beside the saves (recaps/), in a
    thread: on a long campaign it reads every action, and the dashboard must not stop
    while it does. It reads the campaign as saved (what the dashboard shows is saved
    first), from its own files object, so nothing the dashboard changes meanwhile is
    read half-changed."""
    from datetime import date

    app = host(screen.app)
    if app.files is None:
        return
    folder = app.saves.folder / "recaps"
    path = folder / f"{app.files.slug}-{date.today().isoformat()}.md"
    campaign_folder = app.files.folder

    def work() -> None:
        from core.campaign.recap import recap_markdown
        from core.files.disk import StoreError, make_folder, write_atomically
        from core.saves.store import CampaignFiles

        try:
            text = recap_markdown(CampaignFiles(campaign_folder).load())
            make_folder(folder)  # the GM's alone (0700), as the file (0600): its secrets too
            write_atomically(path, text)
        except (OSError, StoreError) as error:
            problem = error.strerror if isinstance(error, OSError) and error.strerror else error
            tell(lambda: screen.notify(f"{path}: {problem}", title="No recap", severity="error"))
        else:
            tell(lambda: screen.notify(f"Recap written to {path}", title="Recap", timeout=8))

    def tell(notify: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # the app quit meanwhile: nobody to tell
            screen.app.call_from_thread(notify)

    screen.run_worker(work, thread=True, group="recap", exit_on_error=False)


def toggle_players_odds(screen: Screen[Any]) -> None:
    """Let the players' view show the odds, or stop it (a campaign setting: undoable,
    and seen by tussle watch, another process)."""
    from core.campaign.log import ChangeSettings

    tussle = host(screen.app)
    allowed = bool(tussle.campaign.settings.get("players_see_odds", False))
    tussle.send(ChangeSettings(changes={"players_see_odds": not allowed}))
    screen.notify(
        "The players' view will not show the odds."
        if allowed
        else "The players' view will show the odds.",
        timeout=3,
    )


def ask_secret(screen: Screen[Any], contest_id: str) -> None:
    """Hide from the players' view (or show again) a participant's numbers, an aspect,
    or the whole contest: a GM action like any other (undoable, saved)."""
    from core.campaign.log import ToggleSecret

    tussle = host(screen.app)
    record = tussle.campaign.contest(contest_id)

    def label(kind: str, name: str, text: str) -> str:
        return f"{text} {'(hidden: show it)' if record.hidden(kind, name) else ''}".strip()

    choices = [("contest:", label("contest", "", "The whole contest"))]
    choices += [
        (f"participant:{p.name}", label("participant", p.name, f"{p.name}'s numbers"))
        for p in record.state.participants
    ]
    choices += [
        (f"aspect:{name}", label("aspect", name, f"Aspect: {name}"))
        for name in find_system(record.state.system).aspects(record.state)
    ]

    def chosen(answers: Answers | None) -> None:
        if answers:
            kind, _, name = answers["what"].partition(":")
            tussle.send(
                ToggleSecret(contest_id=contest_id, kind=kind, name=name)  # type: ignore[arg-type]
            )

    from tui.screens.forms import FormScreen

    screen.app.push_screen(
        FormScreen(
            "Hide from the players",
            [Field("what", "What", choices[0][0], tuple((t, v) for v, t in choices))],
            "The players' view shows ?? instead. Enter: hide (or show again) · Esc: cancel",
        ),
        chosen,
    )
