"""The campaign screen: every campaign in the saves folder; open one or make a new one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.campaign import SYSTEM_NAMES
from core.rules import find_system
from tui.screens.forms import Answers, Field, FormScreen
from tui.systems.common import e
from tui.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from tui.app import TussleApp


class CampaignScreen(Screen[None]):
    """Pick a campaign. A damaged save is listed, marked, and cannot be opened."""

    BINDINGS = [
        Binding("question_mark,f1", "help", "Key help", id="campaigns.help"),
        Binding("n", "new", "New campaign", id="campaigns.new"),
        Binding("q", "quit", "Quit", id="campaigns.quit"),
    ]

    @property
    def tussle(self) -> TussleApp:
        from tui.app import TussleApp

        assert isinstance(self.app, TussleApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield Static("[b]Campaigns[/b] · Enter opens · n makes a new one", id="title")
        yield OptionList(id="campaign-list")
        yield KeyBar()

    def on_mount(self) -> None:
        self.reload()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        listing = self.query_one(OptionList)
        listing.clear_options()
        for info in self.tussle.saves.campaigns():
            if info.problem:
                listing.add_option(
                    Option(
                        f"⚠ {e(info.slug)}: damaged ({e(info.problem)})",
                        id=info.slug,
                        disabled=True,
                    )
                )
            else:
                title = find_system(info.system).title
                listing.add_option(
                    Option(
                        f"{e(info.name)}  [dim]{title} · {info.entries} actions[/]", id=info.slug
                    )
                )
        listing.focus()

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.tussle.open_campaign(event.option.id)

    def action_new(self) -> None:
        systems = tuple((find_system(s).title, s) for s in SYSTEM_NAMES)

        def made(answers: Answers | None) -> None:
            if answers:
                self.tussle.create_campaign(answers["name"], answers["system"])

        self.app.push_screen(
            FormScreen(
                "A new campaign",
                [Field("name", "Name"), Field("system", "Rule system", "fate", systems)],
            ),
            made,
        )

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))

    async def action_quit(self) -> None:
        await self.tussle.action_quit()
