"""The campaign screen: every campaign in the saves folder; open one or make a new one,
rename, archive or delete the highlighted one (core.saves.manage does the work)."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.files.disk import StoreError
from core.rules import DEFAULT_SYSTEM, SYSTEM_NAMES, system_title
from core.saves.manage import Listed, delete, listed, rename, set_archived
from core.saves.store import CampaignFiles, close_names
from core.text import visible
from tui.fields import Answers, Field, FieldError
from tui.host import Host, Step, host
from tui.key_hints import key_of
from tui.keys_in_order import TextIsNoKey
from tui.screens.forms import FormScreen
from tui.widgets.keybar import KeyBar
from tui.widgets.lines import e


class ConfirmDeleteScreen(FormScreen[Answers]):
    """Asks for the campaign's name, typed out: only that deletes it (Esc keeps it)."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f'Delete "{name}"?',
            [Field("name", "Type its name to delete it (a backup is kept):")],
            hint="Enter: delete · Esc: keep it",
            parse=self._confirmed,
        )
        self.campaign_name = name

    def _confirmed(self, answers: Answers) -> Answers:
        if answers["name"].casefold() != self.campaign_name.strip().casefold():
            raise FieldError("name", "That is not its name: nothing is deleted. Esc keeps it.")
        return answers


class CampaignScreen(TextIsNoKey, Screen[None]):
    """Pick a campaign. A damaged save is listed, marked, and cannot be opened (it can be
    deleted or archived, and Enter says how to check or restore it). Archived
    campaigns are hidden until A shows them."""

    BINDINGS = [
        Binding("question_mark,f1", "help", "Key help", id="campaigns.help"),
        Binding("n", "new", "New campaign", id="campaigns.new"),
        Binding("r", "rename", "Rename", id="campaigns.rename"),
        Binding("a", "archive", "Archive", id="campaigns.archive"),
        Binding("d", "delete", "Delete", id="campaigns.delete"),
        Binding(
            "A", "show_archived", "Show or hide archived", id="campaigns.show_archived", show=False
        ),
        # The open campaign's roster and a new contest in it (n here is a new campaign).
        Binding("w", "roster", "Roster", id="campaigns.roster", show=False),
        Binding("N", "new_contest", "New contest", id="campaigns.new_contest", show=False),
        Binding("escape", "back", "Back", id="campaigns.back", show=False),
        Binding("q", "quit", "Quit", id="campaigns.quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.show_archived = False
        self.rows: dict[str, Listed] = {}

    @property
    def tussle(self) -> Host:
        return host(self.app)

    DEFAULT_CSS = "CampaignScreen #campaigns-where { padding: 0 1; color: $text-muted; }"

    def compose(self) -> ComposeResult:
        yield Static("[b]Campaigns[/b] · Enter opens · n makes a new one", id="title")
        yield OptionList(id="campaign-list")
        yield Static(id="campaigns-where", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.reload()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self, keep: str | None = None) -> None:
        """List the campaigns again, the highlight on ``keep`` (default: where it was,
        or on the next one when that campaign has left the list; at first, on the open
        campaign or else the first one)."""
        listing = self.query_one(OptionList)
        at = listing.highlighted
        keep = keep or self._current_slug()
        listing.clear_options()
        everything = listed(self.tussle.saves, show_archived=True)
        self.rows = {}
        for item in everything:
            info = item.info
            if item.archived and not self.show_archived:
                continue
            self.rows[info.slug] = item
            if info.problem:
                listing.add_option(
                    Option(
                        f"⚠ {e(info.slug)}: {'' if info.missing_system else 'damaged '}"
                        f"({e(info.problem)})",
                        id=info.slug,
                    )
                )
            else:
                title = system_title(info.system)
                mark = " · archived" if item.archived else ""
                actions = f"{info.entries} action{'s' if info.entries != 1 else ''}"
                if info.set_aside:  # core.saves.set_aside: kept, waiting for check --repair
                    mark += f" · {info.set_aside} set aside (tussle check {e(info.slug)} --repair)"
                listing.add_option(
                    Option(
                        f"{e(info.name)}  [dim]{title} · {actions}{mark}[/]",
                        id=info.slug,
                    )
                )
        slugs = list(self.rows)
        usable = [i for i, slug in enumerate(slugs) if not self.rows[slug].info.problem]
        if keep not in self.rows and at is None and self.tussle.files is not None:
            keep = self.tussle.files.slug  # at first, on the campaign that is open
        if keep in self.rows:
            listing.highlighted = slugs.index(keep)
        elif at is not None and slugs:
            listing.highlighted = min(at, len(slugs) - 1)
        elif usable:
            listing.highlighted = usable[0]
        archived = sum(1 for item in everything if item.archived)
        title = "[b]Campaigns[/b] · Enter opens · n makes a new one"
        if self.show_archived:
            title += " · archived ones shown (A hides them)"
        elif archived:
            title += f" · {archived} archived (A shows them)"
        self.query_one("#title", Static).update(title)
        self.query_one("#campaigns-where", Static).update(self.where())
        listing.focus()

    def where(self) -> str:
        """The ways back to the campaign open, and the saves folder listed."""
        folder = self.tussle.saves.folder.absolute()
        home = Path.home()
        shown = f"~/{folder.relative_to(home)}" if folder.is_relative_to(home) else str(folder)
        lines = [f"Saves folder: {visible(shown)}"]
        if self.tussle.files is not None:
            lines.insert(
                0,
                f"{key_of(self, 'campaigns.roster', 'w')}: roster"
                f" · {key_of(self, 'campaigns.new_contest', 'N')}: new contest"
                f" · {key_of(self, 'campaigns.back', 'Esc')}: back",
            )
        return "\n".join(lines)

    def _current_slug(self) -> str | None:
        listing = self.query_one(OptionList)
        if listing.highlighted is None or listing.highlighted >= listing.option_count:
            return None
        return listing.get_option_at_index(listing.highlighted).id

    def _current(self) -> Listed | None:
        """The highlighted campaign; None (and the GM told) when there is none."""
        row = self.rows.get(self._current_slug() or "")
        if row is None:
            self.app.notify("No campaign is highlighted: ↑/↓ picks one.", severity="warning")
        return row

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        row = self.rows.get(event.option.id or "")
        if row is None:
            return
        if row.info.problem:  # highlighted so it can be deleted or archived, not opened
            slug, problem = row.info.slug, visible(row.info.problem)
            advice = (
                "install the plug-in that provides it, then open it again"
                if row.info.missing_system
                else f"`tussle check {slug}` says what is wrong, `tussle restore {slug}` "
                "brings back a backup, d deletes it here (a copy is kept)"
            )
            self.app.notify(
                f"{slug} cannot be opened: {problem}. To go on: {advice}.",
                title="Not opened",
                severity="error",
                markup=False,
                timeout=15,
            )
            return
        self.tussle.open_campaign(row.info.slug)

    def action_new(self) -> None:
        systems = tuple((system_title(s), s) for s in SYSTEM_NAMES)

        warned: list[str] = []  # a name close to one there, said once: Enter again makes it

        def free_name(answers: Answers) -> Answers:
            name = answers["name"]
            if self.tussle.saves.find(name) is not None:
                raise FieldError("name", f'a campaign called "{name}" already exists')
            names = [i.name for i in self.tussle.saves.campaigns() if i.problem is None]
            close = close_names(names, name)
            if close and name not in warned:
                warned.append(name)
                offered = " or ".join(f'"{n}"' for n in close)
                raise FieldError(
                    "name",
                    f'there is {offered} already: Enter again makes "{name}" beside it, '
                    "Esc keeps to the list",
                )
            return answers

        def made(answers: Answers | None) -> None:
            if answers:
                self.tussle.create_campaign(answers["name"], answers["system"])

        self.app.push_screen(
            FormScreen(
                "A new campaign",
                [Field("name", "Name"), Field("system", "Rule system", DEFAULT_SYSTEM, systems)],
                parse=free_name,
            ),
            made,
        )

    # -- rename, archive, delete ----------------------------------------------------------
    async def _held(self, slug: str) -> tuple[bool, CampaignFiles | None]:
        """Whether ``slug`` may be changed now, and the files to change it through when
        it is the campaign this dashboard has open (and holds the lock of): its bus is
        drained first, so no save runs meanwhile."""
        app = self.tussle
        files = app.files
        if files is None or app.read_only or files.slug != slug:
            return True, None
        if app.bus is not None:
            await app.bus.drain()
            if app.bus.unsaved:
                app.notify(
                    "This campaign has actions the disk has not taken yet: "
                    "try again once they are saved.",
                    title="Not done",
                    severity="error",
                )
                return False, None
        return True, files

    def _failed(self, error: StoreError | OSError) -> None:
        title = error.title if isinstance(error, StoreError) else "Not done"
        self.app.notify(str(error), title=title, severity="error", markup=False, timeout=10)

    def action_rename(self) -> None:
        row = self._current()
        if row is None:
            return
        old = row.info.name

        def free_name(answers: Answers) -> Answers:
            other = self.tussle.saves.find(answers["name"])
            if other is not None and other.slug != row.info.slug:
                raise FieldError("name", f'a campaign called "{answers["name"]}" already exists')
            return answers

        async def renamed(answers: Answers | None) -> None:
            if answers:
                await self._rename(row.info.slug, old, answers["name"])

        self.app.push_screen(
            FormScreen(
                f'Rename "{old}"',
                [Field("name", "New name", old)],
                hint="Enter: rename · Esc: cancel (its folder keeps its name)",
                parse=free_name,
            ),
            renamed,
        )

    async def _rename(self, slug: str, old: str, new: str) -> None:
        allowed, held = await self._held(slug)
        if not allowed:
            return
        try:
            info = rename(self.tussle.saves, slug, new, held=held)
        except (StoreError, OSError) as error:
            self._failed(error)
            return
        if held is not None:  # the open campaign: what the screens show goes by it
            self.tussle.campaign.name = info.name
            self.tussle.sub_title = f"{info.name} · {info.system}"
        if info.name != old:
            self.app.notify(f'"{old}" is now "{info.name}".', title="Renamed", markup=False)
        self.reload(keep=slug)

    async def action_archive(self) -> None:
        row = self._current()
        if row is None:
            return
        slug, name = row.info.slug, row.info.name
        allowed, held = await self._held(slug)
        if not allowed:
            return
        try:
            set_archived(self.tussle.saves, slug, not row.archived, held=held)
        except (StoreError, OSError) as error:
            self._failed(error)
            return
        if row.archived:
            self.app.notify(f'"{name}" is listed again.', title="Unarchived", markup=False)
        else:
            self.app.notify(
                f'"{name}" is archived: hidden from this list, kept on disk. '
                "A shows archived campaigns; a on one brings it back.",
                title="Archived",
                markup=False,
            )
        self.reload(keep=slug)

    def action_delete(self) -> None:
        row = self._current()
        if row is None:
            return
        slug, name = row.info.slug, row.info.name
        files = self.tussle.files
        if files is not None and files.slug == slug:
            self.app.notify(
                f'"{name}" is open in this dashboard: open another campaign first, '
                "then delete this one from here.",
                title="Not deleted",
                severity="error",
                markup=False,
            )
            return

        def confirmed(answers: Answers | None) -> None:
            if answers:
                self._delete(slug)

        self.app.push_screen(ConfirmDeleteScreen(name), confirmed)

    def _delete(self, slug: str) -> None:
        try:
            done = delete(self.tussle.saves, slug)
        except (StoreError, OSError) as error:
            self._failed(error)
            return
        self.app.notify(done.message(), title="Deleted", markup=False, timeout=20)
        self.reload()

    def action_show_archived(self) -> None:
        self.show_archived = not self.show_archived
        self.reload()

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))

    def action_roster(self) -> None:
        self.tussle.open_roster()

    def action_new_contest(self) -> None:
        self.tussle.open_setup()

    def action_back(self) -> None:
        self.tussle.back()

    def step(self) -> Step:
        """How Esc comes back here."""
        return Step("campaigns", CampaignScreen)

    async def action_quit(self) -> None:
        await self.tussle.action_quit()
