"""Every key of the dashboard, by the place it works in: what a keymap is checked against
(:func:`tui.config.load`), and the README's table of binding ids (a test keeps the two
the same).

A place is a screen with the widget that has the focus there and the app's own keys: a
key may do one thing in it. The widgets' keys from Textual (a table's arrows) have no
id and cannot be remapped, but a remapped key must leave them alone too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual.binding import Binding, BindingType

from core.rules import BUILT_IN, SYSTEM_NAMES, system_title
from tui.config import Place


def _bindings(*lists: Iterable[BindingType]) -> tuple[Binding, ...]:
    out = []
    for listed in lists:
        for binding in listed:
            if isinstance(binding, Binding):
                out.append(binding)
            else:  # Textual's short form: (key, action) or (key, action, description)
                out.append(Binding(binding[0], binding[1], "".join(binding[2:3])))
    return tuple(out)


def places(app_keys: Sequence[BindingType], systems: Iterable[str] | None = None) -> list[Place]:
    """The dashboard's places, with ``app_keys`` (the app's own) in each; the contest
    and setup screens once per rule system of ``systems`` (default: every installed one;
    a plug-in that does not load is left out, as the dashboard leaves it out)."""
    from textual.widgets import DataTable, Input, OptionList

    from tui.screens.campaigns import CampaignScreen
    from tui.screens.confirm import ConfirmScreen
    from tui.screens.contest import bindings
    from tui.screens.forms import FormScreen
    from tui.screens.help import HelpScreen
    from tui.screens.roster import RosterScreen
    from tui.screens.setup import setup_keys
    from tui.screens.summary import SummaryScreen
    from tui.systems import view
    from tui.watch import WatchApp
    from tui.widgets.choice import Choice
    from tui.widgets.keypad import RollKeypad

    table, listing = DataTable.BINDINGS, OptionList.BINDINGS
    found = [
        Place("campaign screen", _bindings(CampaignScreen.BINDINGS, listing, app_keys)),
        Place("roster", _bindings(RosterScreen.BINDINGS, table, app_keys)),
    ]
    for system in list(SYSTEM_NAMES) if systems is None else systems:
        try:
            contest = bindings(view(system).SCREEN)
            setup = setup_keys(view(system).setup())
        except Exception:  # a broken plug-in: the dashboard says so where it is used
            continue
        title = system_title(system)
        found.append(
            Place(f"contest screen ({title})", _bindings(contest, RollKeypad.BINDINGS, app_keys))
        )
        found.append(Place(f"contest setup ({title})", _bindings(setup, table, app_keys)))
    found += [
        Place("contest summary", _bindings(SummaryScreen.BINDINGS, app_keys)),
        Place("help", _bindings(HelpScreen.BINDINGS, app_keys)),
        Place("question", _bindings(ConfirmScreen.BINDINGS, app_keys)),
        Place(
            "form",
            _bindings(FormScreen.BINDINGS, Choice.BINDINGS, Input.BINDINGS, app_keys),
            typing=True,
        ),
        Place("players' view", _bindings(WatchApp.BINDINGS)),
    ]
    return found


def table_rows(app_keys: Sequence[BindingType]) -> list[tuple[str, str, str, str]]:
    """(id, default keys, what it does, where) for each binding id of the built-in
    systems, the app's own first, then in the order the places come: the README's
    table. A key of one rule system's screen names the system."""
    every = places(app_keys, BUILT_IN)
    variants: dict[str, set[str]] = {}  # "contest screen" -> its places, one per system
    for place in every:
        variants.setdefault(place.name.split(" (")[0], set()).add(place.name)
    app_ids = [b.id for b in _bindings(app_keys) if b.id]
    found: dict[str, tuple[Binding, list[str]]] = {}
    for place in every:
        for binding in place.bindings:
            if binding.id is not None and binding.id not in app_ids:
                found.setdefault(binding.id, (binding, []))[1].append(place.name)
    rows = [(b.id, b.key, b.description, "everywhere") for b in _bindings(app_keys) if b.id]
    for binding_id, (binding, names) in found.items():
        where: list[str] = []
        for name in names:
            generic = name.split(" (")[0]
            shown = generic if variants[generic] <= set(names) else name
            if shown not in where:
                where.append(shown)
        rows.append((binding_id, binding.key, binding.description, ", ".join(where)))
    return rows


def readme_table(app_keys: Sequence[BindingType]) -> str:
    """The README's table of binding ids (Markdown), as :func:`table_rows` has them."""
    lines = ["| Binding id | Default keys | What it does | Where |", "|---|---|---|---|"]
    for binding_id, keys, what, where in table_rows(app_keys):
        lines.append(f"| `{binding_id}` | `{keys}` | {what} | {where} |")
    return "\n".join(lines) + "\n"
