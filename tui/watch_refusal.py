"""Why ``tussle watch NAME`` will not start, found before Textual loads.

A players' view is refused in one line when its campaign is not there (or cannot be read)
and when it has no terminal (``ssh -T``, a pipe, ``< /dev/null``). Loading Textual takes
most of a second on a busy machine; a seat that is refused never needs it, and
``tussle serve`` or an SSH key's forced command may start many of them. So these checks
import nothing of Textual (``tui.cli`` asks them first), and :func:`tui.watch.run_watch`
asks them again for its other callers.
"""

from __future__ import annotations

import shlex

from core.files.disk import StoreError
from core.saves.store import CampaignFiles, Saves, close_names, saves_folder
from core.text import visible
from tui.terminal import has_terminal


def refused(saves: str | None, name: str) -> tuple[int, str] | CampaignFiles:
    """The campaign's files, or the exit code and the line saying why the view does not
    start: 2 for an unknown campaign or without a terminal, 1 for one that cannot be read
    (damaged, or its rule system not installed)."""
    store = Saves(saves_folder(saves))
    files = store.find(name)
    if files is None:
        try:  # a campaign of that name that cannot be read: say why, not "no campaign"
            store.refuse_beside_damaged(name)
        except StoreError as error:
            return 1, f"(watch): {visible(str(error))}"
        # A name a letter or a capital off ("forge demo"): say which one there is.
        close = close_names([i.name for i in store.campaigns() if i.problem is None], name)
        hint = ""
        if close:
            there = visible(close[0])
            hint = f' (there is "{there}": tussle watch {shlex.quote(there)})'
        return 2, f'(watch): no campaign "{visible(name)}"{hint}'
    if not has_terminal():
        return 2, (
            "(watch): the players' view needs a terminal, and stdin is not one "
            "(over SSH: ssh -t, not -T)"
        )
    return files
